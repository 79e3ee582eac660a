"""Where a study's games are played: in this process, in local worker processes, or on a
Dask distributed cluster, all behind one interface.

An executor maps a picklable function over picklable items and yields ``(position,
result)`` pairs as results arrive, in whatever order they finish. Items are taken from
their iterable only as workers can start them, so a billion games start at once and hold
no more than a few tasks in memory. The runner puts them
back in order, so every executor gives the same study the same results. ``stop`` is
polled while waiting: once it says so, what has not started is cancelled and the
iteration ends (the runner's Ctrl-C handler sets it, so no KeyboardInterrupt ever lands
inside the pool's or Dask's own machinery).
"""

from __future__ import annotations

import itertools
import multiprocessing
import multiprocessing.forkserver
import os
import re
import signal
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from concurrent.futures import (
    Executor as FuturesExecutor,
)
from multiprocessing import resource_tracker
from typing import Any, Protocol, TypeVar

from naqala.lab import require

T = TypeVar("T")
R = TypeVar("R")

#: whether to stop now (polled between results)
Stop = Callable[[], bool]
#: how often a waiting executor looks at ``stop``, in seconds
POLL = 0.1


def never() -> bool:
    return False


class Executor(Protocol):
    #: what the executor is, for messages ("serial", "2 processes", "dask tcp://…")
    description: str

    def imap(
        self, fn: Callable[[T], R], items: Iterable[T], stop: Stop = never
    ) -> Iterator[tuple[int, R]]:
        """``(position, fn(item))`` for every item, in the order they finish, until
        ``stop()`` says otherwise."""
        ...

    def close(self) -> None:
        """Cancel what has not started and release the workers."""
        ...


class SerialExecutor:
    """Everything in this process, in order (``--jobs 1``)."""

    description = "serial"

    def imap(
        self, fn: Callable[[T], R], items: Iterable[T], stop: Stop = never
    ) -> Iterator[tuple[int, R]]:
        for position, item in enumerate(items):
            if stop():
                return
            yield position, fn(item)

    def close(self) -> None:
        pass


def _ignore_interrupt() -> None:
    """Workers leave Ctrl-C to the main process, which cancels what is pending."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _start_forkserver() -> None:
    """Start the fork server (if it is not running) with SIGINT blocked, a mask the
    server inherits through its start and never lifts, and the workers forked from it
    inherit in turn: a Ctrl-C on the terminal reaches the whole process group, and one
    that landed while the server or a worker was still starting (before their own
    handlers) killed it and broke the pool. Here the Ctrl-C stays pending (Linux never
    discards a blocked signal) and arrives once the mask is back. It is blocked, never
    ignored: setting SIGINT to ignored discards a pending one, which lost a Ctrl-C that
    landed just then. The resource tracker is started first, as it unblocks SIGINT when
    it has started (it protects itself the same way)."""
    resource_tracker.ensure_running()
    if threading.current_thread() is not threading.main_thread():
        multiprocessing.forkserver.ensure_running()
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        multiprocessing.forkserver.ensure_running()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


class ProcessExecutor:
    """``jobs`` worker processes on this machine (``--jobs N``). Workers start from a
    fork server, so they inherit no threads (the progress bar's) and no locks."""

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {jobs}")
        self.description = f"{jobs} processes"
        self.jobs = jobs
        _start_forkserver()
        self.pool = ProcessPoolExecutor(
            max_workers=jobs,
            mp_context=multiprocessing.get_context("forkserver"),
            initializer=_ignore_interrupt,
        )

    def imap(
        self, fn: Callable[[T], R], items: Iterable[T], stop: Stop = never
    ) -> Iterator[tuple[int, R]]:
        """At most ``2 × jobs`` items in flight, so a long study queues no more than the
        workers can start soon and stopping cancels little."""
        return _windowed(self.pool, 2 * self.jobs, fn, items, stop)

    def close(self) -> None:
        """Wait for the games in progress; a Ctrl-C while waiting ends the workers at
        once (they block SIGINT, so only this process can stop them)."""
        try:
            self.pool.shutdown(wait=True, cancel_futures=True)
        except KeyboardInterrupt:
            for worker in multiprocessing.active_children():
                worker.terminate()
            self.pool.shutdown(wait=True, cancel_futures=True)


def _run_chunk(fn: Callable[[T], R], items: list[T]) -> tuple[list[R], float]:
    """``fn`` of each item in order, and the seconds the chunk took."""
    start = time.perf_counter()
    results = [fn(item) for item in items]
    return results, time.perf_counter() - start


class ChunkSizer:
    """How many items a thread's task should carry: enough that a task takes about
    :data:`CHUNK_SECONDS`, few enough that stopping waits little. It starts at one item
    and follows the mean time of the items finished so far."""

    def __init__(self) -> None:
        self.items = 0
        self.seconds = 0.0

    def took(self, items: int, seconds: float) -> None:
        self.items += items
        self.seconds += seconds

    @property
    def size(self) -> int:
        if self.items == 0:
            return 1
        each = self.seconds / self.items
        return max(1, min(MOST_CHUNK, int(CHUNK_SECONDS / each))) if each > 0 else MOST_CHUNK


#: the time a thread's task aims at, in seconds, and the most items it carries
CHUNK_SECONDS = 0.02
MOST_CHUNK = 256


class ThreadExecutor:
    """``jobs`` threads of this process (``--jobs N`` for games the native kernel
    plays): a native game is one kernel call that runs without the GIL, so threads share
    the cores with no worker process to start and nothing to pickle; only each game's
    reading into a result holds the GIL. Python games would hold it throughout: they go
    to processes."""

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {jobs}")
        self.description = f"{jobs} threads"
        self.jobs = jobs
        self.pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="naqala-game")

    def imap(
        self, fn: Callable[[T], R], items: Iterable[T], stop: Stop = never
    ) -> Iterator[tuple[int, R]]:
        """Items go to the threads in chunks (``ChunkSizer``): a game of a fraction of a
        millisecond would otherwise spend as long again being handed over."""
        waiting = iter(enumerate(items))
        sizer = ChunkSizer()

        def chunks() -> Iterator[list[tuple[int, T]]]:
            """The next chunk, sized when the pool can take it (after what came back)."""
            while chunk := list(itertools.islice(waiting, sizer.size)):
                yield chunk

        def play(chunk: list[tuple[int, T]]) -> tuple[int, list[R], float]:
            """The chunk's first position, its results in order and the seconds taken."""
            results, seconds = _run_chunk(fn, [item for _, item in chunk])
            return chunk[0][0], results, seconds

        played = _windowed(self.pool, 2 * self.jobs, play, chunks(), stop)
        try:
            for _, (first, results, seconds) in played:
                sizer.took(len(results), seconds)
                for offset, result in enumerate(results):
                    yield first + offset, result
        finally:
            played.close()  # what has not started is cancelled now, not when collected

    def close(self) -> None:
        """Wait for the games in progress (each a fraction of a second or so)."""
        self.pool.shutdown(wait=True, cancel_futures=True)


def _windowed(
    pool: FuturesExecutor, window: int, fn: Callable[[T], R], items: Iterable[T], stop: Stop
) -> Generator[tuple[int, R], None, None]:
    """``(position, fn(item))`` through ``pool`` with at most ``window`` items in flight,
    in the order they finish, until ``stop()`` says otherwise."""
    waiting = iter(enumerate(items))
    running: dict[Future[R], int] = {}
    try:
        while True:
            while len(running) < window and not stop():
                nxt = next(waiting, None)
                if nxt is None:
                    break
                running[pool.submit(fn, nxt[1])] = nxt[0]
            if not running or stop():
                return
            done, _ = wait(running, timeout=POLL, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=running.__getitem__):
                yield running.pop(future), future.result()
    finally:
        for future in running:
            future.cancel()


class DaskExecutor:
    """A Dask distributed cluster (``--dask tcp://host:8786``): the scheduler hands the
    games to its workers, which need naqala installed (a house-rule file travels with the
    study as its bytes, so they need no copy of it; a Python house rule's own content
    files, which it names by path, must be at the same paths). ``client`` may be given
    instead of an address (tests pass their own)."""

    def __init__(self, address: str | None = None, client: Any = None) -> None:
        distributed = require("distributed", "--dask")
        self._distributed = distributed
        self._own_client = client is None
        self.client = client if client is not None else distributed.Client(address, timeout=30)
        self.description = f"dask {self.client.scheduler.address}"

    def imap(
        self, fn: Callable[[T], R], items: Iterable[T], stop: Stop = never
    ) -> Iterator[tuple[int, R]]:
        window = 2 * max(1, sum(self.client.nthreads().values()))
        waiting = iter(enumerate(items))
        positions: dict[str, int] = {}
        finished = self._distributed.as_completed()
        running: list[Any] = []

        def submit() -> None:
            while len(positions) < window and not stop():
                nxt = next(waiting, None)
                if nxt is None:
                    return
                future = self.client.submit(fn, nxt[1], pure=False)
                positions[future.key] = nxt[0]
                running.append(future)
                finished.add(future)

        try:
            submit()
            while positions and not stop():
                batch = finished.next_batch(block=False)
                if not batch:
                    time.sleep(POLL)
                for future in sorted(batch, key=lambda f: positions[f.key]):
                    position = positions.pop(future.key)
                    running.remove(future)
                    yield position, future.result()
                submit()
        finally:
            self.client.cancel(running)

    def close(self) -> None:
        if self._own_client:
            self.client.close()


#: the schemes a Dask scheduler listens on that a command can reach (``inproc`` is
#: within one process only)
DASK_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")
#: the longest host name DNS allows
MAX_HOST = 253
#: what a scheduler's address looks like, for every refusal
DASK_FORM = (
    "a scheduler's address is scheme://host:port (scheme tcp, tls, ws, wss or ucx; "
    "port 1 to 65535), e.g. tcp://127.0.0.1:8786"
)
_ADDRESS = re.compile(
    r"(?:(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*)://)?"
    r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]*)"
    r"(?::(?P<port>[^:/]*))?"
)


class DaskAddressError(ValueError):
    """A ``--dask`` address that names no scheduler: one line saying what is wrong and
    what an address looks like."""


def scheduler_address(text: str) -> str:
    """The Dask scheduler address ``text`` in full (``host:port`` is ``tcp://host:port``;
    the scheme in lower case), or ``DaskAddressError``: checked here, before connecting,
    where distributed raised an internal ``ValueError`` for a malformed one and waited 30
    seconds for a port that cannot exist."""
    shown = text if len(text) <= 80 else text[:79] + "…"

    def refuse(reason: str) -> DaskAddressError:
        return DaskAddressError(f"--dask {shown!r}: {reason}; {DASK_FORM}")

    found = _ADDRESS.fullmatch(text.strip())
    if found is None:
        raise refuse("not scheme://host:port")
    scheme = (found["scheme"] or "tcp").lower()
    host, port = found["host"], found["port"]
    if scheme not in DASK_SCHEMES:
        raise refuse(f"unknown scheme {scheme!r}")
    if not host:
        raise refuse("no host")
    if len(host) > MAX_HOST:
        raise refuse(f"a host name of {len(host)} characters (at most {MAX_HOST})")
    if port is None or port == "":
        raise refuse("no port")
    if not port.isascii() or not port.isdigit() or len(port) > 5:
        raise refuse("not scheme://host:port")
    if not 1 <= int(port) <= 65535:
        raise refuse(f"port {port} is not 1 to 65535")
    return f"{scheme}://{host}:{int(port)}"


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def make_executor(jobs: int | None, dask: str | None, games: int, native: bool = False) -> Executor:
    """The executor for ``--jobs`` / ``--dask``: Dask when an address is given (checked
    first: ``DaskAddressError``); otherwise ``jobs`` threads when every game plays on the
    native kernel (``native``), else ``jobs`` processes (all cores by default), or this
    process when one job would do."""
    if dask is not None:
        return DaskExecutor(scheduler_address(dask))
    wanted = default_jobs() if jobs is None else jobs
    wanted = min(wanted, games)
    if wanted <= 1:
        return SerialExecutor()
    return ThreadExecutor(wanted) if native else ProcessExecutor(wanted)
