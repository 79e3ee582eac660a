"""The ``naqala`` command: make and inspect states, apply actions, count moves, simulate.

Every command that fails because of its input prints one clear message on stderr and
exits with code 2, printing nothing on stdout.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from naqala.cli import compare as compare_cli
from naqala.cli import play, replay
from naqala.cli import simulate as simulate_cli
from naqala.core.actions import NotationError, parse_action
from naqala.core.content import ContentError
from naqala.core.engine import IllegalAction, Rules, build_rules
from naqala.core.plugins import PluginError
from naqala.core.serialize import StateFormatError, state_from_json, state_to_json
from naqala.core.state import State

app = typer.Typer(
    name="naqala",
    help="A rules engine and rules-variant framework for Five Tribes.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
state_app = typer.Typer(help="Make game states.", no_args_is_help=True)
app.add_typer(state_app, name="state")
expansions_app = typer.Typer(help="Installed plugins.", no_args_is_help=True)
app.add_typer(expansions_app, name="expansions")
content_app = typer.Typer(help="Game content files.", no_args_is_help=True)
app.add_typer(content_app, name="content")

Expansions = Annotated[
    list[str] | None,
    typer.Option("--expansion", "-x", help="Enable an expansion (repeatable)."),
]
StateArg = Annotated[str, typer.Argument(help="State JSON file, or - for standard input.")]


def fail(message: str) -> NoReturn:
    """Print ``message`` on stderr and exit with code 2."""
    typer.echo(f"naqala: {message}", err=True)
    raise typer.Exit(2)


def make_rules(expansions: list[str] | None, house_rules: list[Path] | None = None) -> Rules:
    try:
        return build_rules(expansions or [], house_rules or [])
    except (PluginError, ContentError) as exc:
        fail(str(exc))


def read_state(source: str) -> tuple[Rules, State]:
    try:
        text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        fail(f"{source}: cannot read: {exc.strerror or exc}")
    except UnicodeDecodeError as exc:
        fail(f"{source}: not a naqala state: not UTF-8 text ({exc.reason} at byte {exc.start})")
    try:
        return state_from_json(text)
    except StateFormatError as exc:
        fail(f"{source}: not a naqala state: {exc}")


@state_app.command("new")
def state_new(
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.")] = 4,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed of all chance.")] = 0,
    expansion: Expansions = None,
) -> None:
    """Print the initial state of a new game as JSON."""
    rules = make_rules(expansion)
    try:
        state = rules.new_game(players, seed)
    except ValueError as exc:
        fail(str(exc))
    typer.echo(state_to_json(rules, state), nl=False)


@expansions_app.command("list")
def expansions_list(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """Every installed plugin: name, version, what it adds, the hooks it implements.

    A plugin that fails to load is listed as broken; it never stops the command."""
    from naqala.core.plugins import describe_installed

    entries = describe_installed()
    if as_json:
        typer.echo(json.dumps(entries, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title="Installed plugins")
    for column in ("name", "version", "status", "adds", "hooks"):
        table.add_column(column)
    for entry in entries:
        aliases = entry["aliases"]
        table.add_row(
            entry["name"] + (f" ({', '.join(aliases)})" if aliases else ""),
            entry["version"],
            entry["status"] if entry["status"] == "ok" else f"broken: {entry['error']}",
            entry["description"],
            ", ".join(h.removeprefix("naqala_") for h in entry["hooks"]),
        )
    Console().print(table)


@content_app.command("check")
def content_check(
    paths: Annotated[list[Path], typer.Argument(help="Content TOML files to check.")],
) -> None:
    """Validate content TOML files together with the base game's content, printing every
    problem with its file and path; exit code 1 if there is any."""
    from naqala.content import content_path
    from naqala.core.content import load_content

    base = content_path("base.toml")
    others = [p for p in paths if p.resolve() != base.resolve()]
    try:
        load_content([base, *others])
    except ContentError as exc:
        for problem in exc.problems:
            typer.echo(problem)
        typer.echo(f"{len(exc.problems)} problem(s) found", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"ok: {len(paths)} file(s) checked")


@app.command()
def actions(state: StateArg) -> None:
    """List the legal actions of the pending decision, one notation per line."""
    rules, current = read_state(state)
    for action in rules.legal_actions(current):
        typer.echo(str(action))


@app.command("apply")
def apply_actions(
    state: StateArg,
    action: Annotated[list[str], typer.Argument(help='Actions in notation, e.g. "bid 12".')],
) -> None:
    """Apply actions in order and print the resulting state."""
    rules, current = read_state(state)
    for number, text in enumerate(action, start=1):
        try:
            parsed = parse_action(text)
            current = rules.apply(current, parsed)
        except (NotationError, IllegalAction) as exc:
            fail(f"action {number} ({text!r}) is illegal: {exc}")
    typer.echo(state_to_json(rules, current), nl=False)


@app.command()
def score(state: StateArg) -> None:
    """Print every player's score lines and total as JSON."""
    rules, current = read_state(state)
    players = []
    for player in range(len(current.players)):
        lines = rules.score_lines(current, player)
        players.append(
            {
                "player": player,
                "total": sum(line.points for line in lines),
                "lines": [
                    {
                        "category": line.category,
                        "points": line.points,
                        "source": line.source,
                        "detail": line.detail,
                    }
                    for line in lines
                ],
            }
        )
    result = {
        "over": current.is_over,
        "winners": list(rules.winners(current)),
        "players": players,
    }
    typer.echo(json.dumps(result, indent=2))


@app.command()
def perft(board: Annotated[Path, typer.Argument(help="Board file (JSON).")]) -> None:
    """Count the legal meeple moves on a board file: {"moves": M, "paths": P}."""
    from naqala.plugins.base.boardfile import BoardFileError
    from naqala.plugins.base.boardfile import perft as count

    try:
        typer.echo(json.dumps(count(board)))
    except BoardFileError as exc:
        fail(str(exc))


@app.command()
def djinns(
    expansion: Expansions = None,
    markdown: Annotated[bool, typer.Option("--markdown", help="Print docs/djinns.md.")] = False,
) -> None:
    """List every djinn: VP, cost, when its power can be used and what it does."""
    from naqala.plugins.base.djinns.reference import djinn_rows, render_markdown

    rules = make_rules(expansion)
    if markdown:
        typer.echo(render_markdown(rules), nl=False)
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(title="Djinns", show_lines=True)
    for column in ("djinn", "VP", "cost", "when", "what it does"):
        table.add_column(column)
    for row in djinn_rows(rules):
        table.add_row(row["name"], row["vp"], row["cost"], row["when"], row["effect"])
    Console().print(table)


def register_plugin_commands(target: typer.Typer, plugins: list[object] | None = None) -> list[str]:
    """Let installed plugins add subcommands (hook ``naqala_cli``). A plugin that fails to
    load or to register is skipped with a warning: it must never stop the program.
    Returns the names of the plugins that added nothing because they failed."""
    import pluggy

    from naqala.core import hookspecs
    from naqala.core.plugins import installed_entry_points

    broken: list[str] = []
    if plugins is None:
        plugins = []
        for name, point in sorted(installed_entry_points().items()):
            try:
                plugins.append(point.load())
            except Exception as exc:
                typer.echo(f"naqala: warning: plugin {name!r} failed to load: {exc}", err=True)
                broken.append(name)
    for plugin in plugins:
        pm = pluggy.PluginManager(hookspecs.PROJECT)
        pm.add_hookspecs(hookspecs)
        name = str(getattr(plugin, "NAME", plugin))
        try:
            pm.register(plugin, name=name)
            pm.hook.naqala_cli(app=target)
        except Exception as exc:
            typer.echo(f"naqala: warning: plugin {name!r} could not add commands: {exc}", err=True)
            broken.append(name)
    return broken


replay.register(app)
play.register(app)
compare_cli.register(app)
simulate_cli.register(app)


def main() -> None:
    """Console-script entry point. Ctrl-C outside a study (which handles it itself) ends
    the command with a one-line note and exit code 130, never a traceback."""
    try:
        register_plugin_commands(app)
        app()
    except KeyboardInterrupt:
        typer.echo("naqala: interrupted", err=True)
        raise SystemExit(130) from None
