"""What runs on the games of a web server besides the requests: one lock per game, the
AI task that lets AI seats (and seats played for) move by themselves, and the events the
pages wait on. It knows no route: the endpoints and streams ask it."""

from __future__ import annotations

import asyncio
import contextlib
import sys

import anyio.to_thread

from naqala.core.failures import blame
from naqala.core.session import ai_move
from naqala.web.games import Game
from naqala.web.store import Store

#: seconds between two saves of a game while its AI seats play (a person's change is
#: saved at once, and so is the game when the AI stops or the server does)
SAVE_EVERY = 1.0

__all__ = ["SAVE_EVERY", "Server", "decision_failed", "warn"]


class Server:
    """The store of games and what runs on them: one lock per game (every read and change
    of a game holds it), the AI task per game, and the events pages wait on."""

    def __init__(self, store: Store, ai_delay: float, stream_seconds: float) -> None:
        self.store = store
        self.ai_delay = ai_delay
        self.stream_seconds = stream_seconds
        self.locks: dict[str, asyncio.Lock] = {}
        self.events: dict[str, asyncio.Event] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}

    def lock(self, game: Game) -> asyncio.Lock:
        return self.locks.setdefault(game.id, asyncio.Lock())

    def event(self, game: Game) -> asyncio.Event:
        return self.events.setdefault(game.id, asyncio.Event())

    def save(self, game: Game) -> None:
        if game.id in self.store.games:
            try:
                self.store.save(game)
            except OSError as exc:
                warn(f"game {game.id}: not saved: {exc.strerror or exc}")

    def changed(self, game: Game, save: bool = True) -> None:
        """Save the game (unless told not to) and wake up its pages and its AI."""
        if save:
            self.save(game)
        event = self.events.pop(game.id, None)
        if event is not None:
            event.set()
        self.kick(game)

    def kick(self, game: Game) -> None:
        """Start the game's AI task unless it runs (it stops when a person must decide)."""
        task = self.tasks.get(game.id)
        if game.next_player() is not None and (task is None or task.done()):
            self.tasks[game.id] = asyncio.create_task(self._ai(game))

    async def _ai(self, game: Game) -> None:
        """AI seats (and seats played for) move one decision at a time, with a pause before
        each so that people can follow. The game is saved at most every
        :data:`SAVE_EVERY` seconds while the AI plays, and when it stops."""
        loop = asyncio.get_running_loop()
        saved = loop.time()
        try:
            while game.id in self.store.games and game.next_player() is not None:
                await asyncio.sleep(self.ai_delay)
                async with self.lock(game):
                    nxt = game.next_player()
                    if nxt is None or game.id not in self.store.games:
                        return
                    seat, agent = nxt
                    try:
                        action = await anyio.to_thread.run_sync(
                            ai_move, game.rules, game.state, agent
                        )
                        game.play(action)
                    except BaseException as exc:  # a panic too: see decision_failed
                        if not decision_failed(exc):
                            raise
                        game.stop(seat, exc)
                        warn(f"game {game.id}: stopped: {game.stopped}")
                due = loop.time() - saved >= SAVE_EVERY
                if due:
                    saved = loop.time()
                self.changed(game, save=due)
        except BaseException as exc:  # a broken AI stops itself, never the server
            if not decision_failed(exc):  # cancelled, or the server is stopping
                raise
            warn(f"game {game.id}: the AI stopped: {blame(exc)}")
        finally:
            self.save(game)

    async def stop(self) -> None:
        for task in self.tasks.values():
            task.cancel()
        for task in self.tasks.values():
            with contextlib.suppress(asyncio.CancelledError):
                await task


#: what ends a task rather than a decision: these always pass on
_NOT_A_DECISION = (asyncio.CancelledError, KeyboardInterrupt, SystemExit, GeneratorExit)


def decision_failed(exc: BaseException) -> bool:
    """Whether ``exc``, raised while an AI decided or its action was applied, is that
    decision's failure (the game stops with it, the server goes on): anything but the
    end of the task or of the process. Not only ``Exception``: the native engine's
    ``PanicException`` (pyo3's) derives from ``BaseException``, and a task it ended
    left its game waiting for ever with nothing said."""
    return not isinstance(exc, _NOT_A_DECISION)


def warn(line: str) -> None:
    print(f"naqala serve: warning: {line}", file=sys.stderr, flush=True)
