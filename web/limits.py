"""How many connections one client may hold, so that one client cannot take the server.

uvicorn answers 503 to everybody once ``limit_concurrency`` connections are open, however
many of them one address holds: 200 pages of one client, each with its event stream, left
every other person's request without an answer. The cap here is per client address and
counts connections, idle or busy (an event stream holds one for as long as it lasts): a
client past it is answered 429 on its new connection, in one line of JSON, and the others
are served as before. It wraps uvicorn's HTTP protocol (any of them) through the asyncio
protocol interface only.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Callable
from typing import Any

#: the most connections one client address holds at once. A browser opens at most 6 to a
#: server; the people of a household sharing one machine (one address) fit several times
#: over, and 200 (``naqala serve``'s ``limit_concurrency``) leaves room for six such clients
MAX_CONNECTIONS_PER_CLIENT = 32
#: a refused connection waits at most this long for its request before it is closed
REFUSED_WAIT = 5.0
#: and reads at most this much of it (the answer comes once the request's head is in)
REFUSED_READ = 64 * 1024


def refusal(most: int, headers: dict[str, str]) -> bytes:
    """The raw answer to a connection past the cap: 429, JSON, then the connection closes."""
    body = json.dumps(
        {
            "error": f"this address already holds {most} connections to the server, its "
            "limit; close some pages and try again"
        }
    ).encode("utf-8")
    lines = [
        "HTTP/1.1 429 Too Many Requests",
        "Content-Type: application/json",
        f"Content-Length: {len(body)}",
        "Connection: close",
        "Retry-After: 5",
        *(f"{name}: {value}" for name, value in headers.items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def client_address(transport: asyncio.BaseTransport) -> str | None:
    """The address a connection comes from (its host, without the port), if it has one."""
    peer = transport.get_extra_info("peername")
    if isinstance(peer, tuple) and peer:
        return str(peer[0])
    return None  # a Unix socket's peer has no address to count


def per_client_cap(
    protocol: Callable[..., asyncio.Protocol],
    most: int = MAX_CONNECTIONS_PER_CLIENT,
    headers: dict[str, str] | None = None,
) -> type[asyncio.Protocol]:
    """An HTTP protocol for uvicorn (``Config(http=...)``) that serves each connection
    with ``protocol`` (made with uvicorn's arguments) unless its client address already
    holds ``most`` connections; such a connection is answered :func:`refusal` (with
    ``headers``) and closed. Each call counts its own connections."""
    open_by_client: Counter[str] = Counter()
    answer = refusal(most, headers or {})

    class Capped(_Capped):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(protocol(*args, **kwargs), open_by_client, most, answer)

    return Capped


class _Capped(asyncio.Protocol):
    """One connection: counted against its address and handed to ``inner``, or refused."""

    def __init__(
        self, inner: asyncio.Protocol, open_by_client: Counter[str], most: int, answer: bytes
    ) -> None:
        self.inner = inner
        self.open_by_client = open_by_client
        self.most = most
        self.answer = answer
        self.address: str | None = None
        #: a refused connection's transport (None: the connection is served)
        self.refused: asyncio.Transport | None = None
        self.head = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        address = client_address(transport)
        if address is not None and self.open_by_client[address] >= self.most:
            assert isinstance(transport, asyncio.Transport)
            self.refused = transport
            asyncio.get_running_loop().call_later(REFUSED_WAIT, transport.close)
            return
        self.address = address
        if address is not None:
            self.open_by_client[address] += 1
        self.inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if self.refused is None:
            self.inner.data_received(data)
            return
        if self.refused.is_closing():
            return
        # the request's head is read before the answer, so that the client reads the
        # answer rather than a connection reset over unread data
        self.head = (self.head + data)[-REFUSED_READ:]
        if b"\r\n\r\n" in self.head or len(self.head) >= REFUSED_READ:
            self.refused.write(self.answer)
            self.refused.close()

    def eof_received(self) -> bool | None:
        if self.refused is not None:
            return None
        return self.inner.eof_received()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.refused is not None:
            return
        if self.address is not None:
            self.open_by_client[self.address] -= 1
            if self.open_by_client[self.address] <= 0:
                del self.open_by_client[self.address]
        self.inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.refused is None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.refused is None:
            self.inner.resume_writing()
