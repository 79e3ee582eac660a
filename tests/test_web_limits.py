"""One client cannot take the server: ``naqala serve`` caps the connections of each client
address (web/limits.py), so while one address holds 200 event streams (200 open pages),
another address is still answered, and the first is answered 429 in one line of JSON until
it closes some.

The server runs as a person starts it, on 127.0.0.1; the second client is 127.0.0.2, which
is this machine too (the whole 127.0.0.0/8 is loopback). Every loop is bounded and every
socket has a timeout.
"""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

from naqala.testing.serving import free_port, wait_until_answering
from naqala.web.app import CONTENT_SECURITY_POLICY
from naqala.web.limits import MAX_CONNECTIONS_PER_CLIENT

#: the pages one client opens: as many as made every other request answer 503
PAGES = 200
TIMEOUT = 10


@pytest.fixture()
def port(tmp_path: Path) -> Iterator[int]:
    """``naqala serve`` on a free port of 127.0.0.1 (its defaults), stopped at the end."""
    number = free_port()
    command = [sys.executable, "-c", "from naqala.cli.app import main; main()", "serve"]
    command += ["--port", str(number), "--data-dir", str(tmp_path / "games")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_until_answering(process, lambda: get(number, "/", "127.0.0.2")[0] == 200)
        yield number
    finally:
        process.terminate()
        process.communicate(timeout=30)


def get(port: int, path: str, source: str) -> tuple[int, dict[str, str], bytes]:
    """A request from the address ``source``: the status, headers and body."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=TIMEOUT, source_address=(source, 0)
    )
    try:
        connection.request("GET", path, headers={"Host": f"127.0.0.1:{port}"})
        answer = connection.getresponse()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}, answer.read()
    finally:
        connection.close()


def new_game(port: int) -> str:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        connection.request(
            "POST",
            "/api/games",
            body=json.dumps({"seats": ["human", "human"], "seed": 1}),
            headers={"Content-Type": "application/json", "Host": f"127.0.0.1:{port}"},
        )
        answer = connection.getresponse()
        assert answer.status == 201
        url = json.loads(answer.read())["seats"][0]["url"]
        return "/api" + str(url).replace("/play/", "/games/", 1) + "/events"
    finally:
        connection.close()


def open_stream(port: int, path: str) -> tuple[socket.socket, str]:
    """An event stream from 127.0.0.1, as an open page holds it: the socket (left open)
    and the status line of its answer."""
    stream = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
    stream.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    head = b""
    while b"\r\n" not in head and len(head) < 4096:
        chunk = stream.recv(4096)
        if not chunk:
            break
        head += chunk
    return stream, head.split(b"\r\n", 1)[0].decode("latin-1")


def test_one_client_with_200_open_pages_leaves_the_server_to_the_others(port: int) -> None:
    events = new_game(port)
    streams: list[socket.socket] = []
    try:
        statuses = []
        for _ in range(PAGES):
            stream, status = open_stream(port, events)
            streams.append(stream)
            statuses.append(status)
        served = [s for s in statuses if s.startswith("HTTP/1.1 200")]
        refused = [s for s in statuses if s.startswith("HTTP/1.1 429")]
        assert len(served) == MAX_CONNECTIONS_PER_CLIENT
        assert len(refused) == PAGES - MAX_CONNECTIONS_PER_CLIENT

        # another client is answered as usual
        status, _, body = get(port, "/", "127.0.0.2")
        assert status == 200 and b"naqala" in body

        # the first is told why, in one line of JSON with the server's headers
        status, headers, body = get(port, "/", "127.0.0.1")
        assert status == 429
        assert headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        error = json.loads(body)["error"]
        assert error.startswith(f"this address already holds {MAX_CONNECTIONS_PER_CLIENT} ")
        assert "\n" not in error
    finally:
        for stream in streams:
            stream.close()
    # once its pages are closed, the first client is answered again
    for _ in range(100):
        if get(port, "/", "127.0.0.1")[0] == 200:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the closed connections were never given back")
