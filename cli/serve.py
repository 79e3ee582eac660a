"""``naqala serve``: play in the browser against people and AI, on your own machine.

Needs the web extra (starlette and uvicorn); without it the command says exactly what to
install. The server listens on 127.0.0.1 unless told otherwise, and warns when it is.
"""

from __future__ import annotations

import ipaddress
import os
from pathlib import Path
from typing import Annotated

import typer

from naqala.cli.common import fail, read_house_rules
from naqala.cli.engine import Engine, asked_engine

#: the hosts that only this machine can reach
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def default_data_dir() -> Path:
    """Where games are kept: ``$XDG_DATA_HOME/naqala/games`` (``~/.local/share`` when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "naqala" / "games"


def is_loopback(host: str) -> bool:
    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve_command(
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    host: Annotated[
        str, typer.Option(help="Address to listen on (only this machine by default).")
    ] = "127.0.0.1",
    house_rules: Annotated[
        list[Path] | None,
        typer.Option(
            "--house-rules",
            help="A house-rule file (.py or .toml) offered to new games and loaded records "
            "(repeatable).",
        ),
    ] = None,
    data_dir: Annotated[
        Path | None,
        typer.Option(
            help="Folder the games are saved in (by default ~/.local/share/naqala/games)."
        ),
    ] = None,
    max_games: Annotated[
        int, typer.Option(min=1, max=10_000, help="The most games the server holds.")
    ] = 50,
    ai_delay: Annotated[
        float, typer.Option(min=0, max=10, help="Seconds an AI waits before each decision.")
    ] = 0.4,
    engine: Engine = None,
) -> None:
    """Play in the browser: a local web server for games between people and AI players."""
    try:
        import uvicorn
        from uvicorn.protocols.http.h11_impl import H11Protocol

        from naqala.web.app import HEADERS, create_app
        from naqala.web.limits import per_client_cap
    except ImportError:
        from naqala.web import INSTALL

        fail(f"naqala serve needs the web extra: {INSTALL}")
    from naqala.core.content import ContentError
    from naqala.core.engine import build_rules
    from naqala.core.plugins import PluginError
    from naqala.web.store import Store

    asked = _served_engine(engine)
    houses = read_house_rules(house_rules)
    for house in houses:
        try:
            build_rules([], [house])
        except (PluginError, ContentError) as exc:
            fail(f"--house-rules {house.path}: {exc}")
    folder = (data_dir or default_data_dir()).expanduser()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        fail(f"--data-dir {folder}: cannot create: {exc.strerror or exc}")
    if not os.access(folder, os.W_OK | os.X_OK):
        fail(f"--data-dir {folder}: the folder is not writable")
    store = Store(folder, houses, max_games, asked)
    for warning in store.resume():
        typer.echo(f"naqala serve: warning: {warning}", err=True)
    local = is_loopback(host)
    if not local:
        typer.echo(
            f"naqala serve: WARNING: listening on {host}, not on 127.0.0.1: anyone who can "
            "reach this machine on port {port} can start games here and, with a seat's link, "
            "play that seat. Use it only on a network you trust.".replace("{port}", str(port)),
            err=True,
        )
    hosts = [*LOOPBACK, host.lower()] if local else None
    app = create_app(store, ai_delay=ai_delay, allowed_hosts=hosts)
    shown = f"[{host}]" if ":" in host else host
    typer.echo(
        f"naqala serve: open http://{shown}:{port}/ in a browser "
        f"({len(store.games)} saved games resumed from {folder}; Ctrl-C stops)"
    )
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level="warning",
        # no logging configuration of uvicorn's own: dictConfig would shut down every
        # handler the process already has (a library's may hold a closed stream); its
        # warnings and errors still reach stderr through logging's last resort
        log_config=None,
        timeout_graceful_shutdown=2,
        limit_concurrency=200,
        # no one client address may hold more than a few of those 200 (web/limits.py)
        http=per_client_cap(H11Protocol, headers=HEADERS),
        h11_max_incomplete_event_size=64 * 1024,
    )
    try:
        uvicorn.Server(config).run()
    except OSError as exc:  # pragma: no cover - uvicorn reports a busy port itself
        fail(f"cannot listen on {host}:{port}: {exc.strerror or exc}")


def _served_engine(option: str | None) -> str:
    """The engine of the AI seats' decisions (``asked_engine``), refused before the
    server starts if it is ``native`` and the kernel cannot play even the base game here
    (not installed)."""
    from naqala.core.engine import build_rules
    from naqala.native.choice import NATIVE, EngineError, choose

    asked = asked_engine(option)
    if asked == NATIVE:
        try:
            choose(build_rules(), NATIVE)
        except EngineError as exc:
            fail(str(exc))
    return asked


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to ``app``."""
    app.command("serve")(serve_command)
