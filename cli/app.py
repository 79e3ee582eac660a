"""The ``naqala`` command: make and inspect states, apply actions, count moves, simulate.

Every command that fails because of its input prints one clear message on stderr and
exits with code 2, printing nothing on stdout.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, cast

import typer

from naqala.cli.common import Expansions, Without, fail, make_rules, read_state, seed_option
from naqala.cli.engine import Engine
from naqala.cli.lazy import LazyGroup, SummaryGroup, is_builtin
from naqala.core.actions import NotationError, parse_typed, resolve_typed, shorten
from naqala.core.content import ContentError
from naqala.core.engine import IllegalAction, Rules
from naqala.core.hookspecs import hookimpl
from naqala.core.plugins import PluginError
from naqala.core.serialize import state_to_json

app = typer.Typer(
    name="naqala",
    help="A rules engine and rules-variant framework for Five Tribes.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=LazyGroup,  # the subcommands of cli/lazy.py are imported when they run
)
state_app = typer.Typer(help="Make game states.", no_args_is_help=True, cls=SummaryGroup)
app.add_typer(state_app, name="state")
expansions_app = typer.Typer(help="Installed plugins.", no_args_is_help=True, cls=SummaryGroup)
app.add_typer(expansions_app, name="expansions")
content_app = typer.Typer(help="Game content files.", no_args_is_help=True, cls=SummaryGroup)
app.add_typer(content_app, name="content")

StateArg = Annotated[str, typer.Argument(help="State JSON file, or - for standard input.")]


def _print_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        from naqala import native as kernel

        typer.echo(f"naqala {version('naqala')}")
        typer.echo(kernel.engine_line())
        raise typer.Exit()


@app.callback()
def _main(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_print_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """A rules engine and rules-variant framework for Five Tribes."""


@state_app.command("new")
def state_new(
    players: Annotated[int, typer.Option("--players", "-p", help="Number of players.")] = 4,
    seed: Annotated[int, seed_option("Seed of all chance.")] = 0,
    expansion: Expansions = None,
    without: Without = None,
) -> None:
    """Print the initial state of a new game as JSON."""
    rules = make_rules(expansion, without=without)
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
    expansion: Expansions = None,
    house_rules: Annotated[
        list[Path] | None,
        typer.Option("--house-rules", help="A house-rule file, .py or .toml content (repeatable)."),
    ] = None,
) -> None:
    """Check content TOML files together with the base game (and the expansions and house
    rules named): their shape, then their meaning to those plugins, exactly as when the
    rules are built. Every problem is printed with its file (and plugin); exit code 1 if
    there is any."""
    from naqala.core.content_rule import table_problems
    from naqala.core.files import CONTENT_LIMIT, FileRefused, refuse_unreadable_kind
    from naqala.core.plugins import describe, order_plugins, resolve
    from naqala.core.powers import broken_promises

    try:  # a device or a huge file is no content file: bad input, before anything is read
        for path in paths:
            refuse_unreadable_kind(path, CONTENT_LIMIT, "content file")
    except FileRefused as exc:
        fail(str(exc))
    try:
        plugins = resolve(expansion or [], house_rules or [])
    except PluginError as exc:
        fail(str(exc))
    shipped = {
        Path(path).resolve()
        for info in plugins
        for path in getattr(info.module, "naqala_content_files", list)()
    }
    checked = _CheckedFiles([p for p in paths if p.resolve() not in shipped])
    try:
        # merged last, as a house rule's content is, so the file overrides the expansions
        rules = Rules(order_plugins([*plugins, describe(checked, source="house-rule")]))
    except ContentError as exc:
        for problem in exc.problems:
            typer.echo(problem)
        typer.echo(f"{len(exc.problems)} problem(s) found", err=True)
        raise typer.Exit(1) from None
    except PluginError as exc:
        fail(str(exc))
    tables = [  # a content-only house rule's own table, checked against these rules
        problem
        for path in checked.paths
        if path.suffix == ".toml"
        for problem in table_problems(path, _bytes_of(path), rules)
    ]
    if tables:
        typer.echo("\n".join(tables))
        typer.echo(f"{len(tables)} problem(s) found", err=True)
        raise typer.Exit(1)
    for broken in broken_promises(rules):  # numbers that work, but not as the cards say
        typer.echo(f"warning: {broken}")
    typer.echo(f"ok: {len(paths)} file(s) checked")


@content_app.command("ids")
def content_ids(
    expansion: Expansions = None,
    house_rules: Annotated[
        list[Path] | None,
        typer.Option("--house-rules", help="A house-rule file, .py or .toml content (repeatable)."),
    ] = None,
    without: Without = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per row.")] = False,
    as_markdown: Annotated[
        bool, typer.Option("--markdown", help="A Markdown table (docs/house-rules.md's).")
    ] = False,
) -> None:
    """List every target, field, param and setting an [[override]] of these rules may
    name, with its current value and bound (docs/formats.md#overrides)."""
    from naqala.core.override_ids import markdown, nameables, table

    rows = nameables(make_rules(expansion, house_rules, without).content)
    if as_json:
        typer.echo(json.dumps([row.as_json() for row in rows], indent=1))
    elif as_markdown:
        typer.echo(markdown(rows), nl=False)
    else:
        cells = [["target", "what", "field", "value", "bound"], *table(rows)]
        widths = [max(len(line[i]) for line in cells) for i in range(4)]
        for line in cells:
            padded = [c.ljust(w) for c, w in zip(line, widths, strict=False)]
            typer.echo("  ".join([*padded, line[4]]))


def _bytes_of(path: Path) -> bytes:
    """The bytes of a file just checked, or none if it went away meanwhile."""
    try:
        return path.read_bytes()
    except OSError:
        return b""


class _CheckedFiles:
    """The files given to ``content check``, as the content of a plugin of their own."""

    NAME = "checked-files"

    def __init__(self, paths: list[Path]) -> None:
        self.paths = paths

    @hookimpl
    def naqala_content_files(self) -> list[Path]:
        return self.paths


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
            parsed = resolve_typed(parse_typed(text), rules.legal_actions(current))
            current = rules.apply(current, parsed)
        except (NotationError, IllegalAction) as exc:
            fail(f"action {number} ({shorten(text)!r}) is illegal: {exc}")
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
def perft(
    board: Annotated[Path, typer.Argument(help="Board file (JSON).")],
    enumerate_moves: Annotated[
        bool,
        typer.Option(
            "--enumerate", help="List every move instead (slow on full tiles; a cross-check)."
        ),
    ] = False,
    max_seconds: Annotated[
        float | None,
        typer.Option(
            "--max-seconds", min=0, help="Give up after this much CPU time (default 60 s)."
        ),
    ] = None,
    engine: Engine = None,
) -> None:
    """Count the legal meeple moves on a board file: {"moves": M, "paths": P}."""
    from naqala.native import KernelUnavailable
    from naqala.native.choice import EngineError, requested_engine
    from naqala.testing.boardfile import BoardFileError
    from naqala.testing.boardfile import perft as count
    from naqala.testing.perft import PERFT_MAX_SECONDS, EngineChoice, PerftTimeout, perft_engine

    limit = PERFT_MAX_SECONDS if max_seconds is None else max_seconds
    try:  # --engine, else NAQALA_ENGINE, else auto, as every command that plays
        asked = requested_engine(engine)
    except EngineError as exc:
        fail(f"perft: {exc}")
    if enumerate_moves and asked == "native":
        fail("perft: --enumerate lists every move on the Python engine only")
    chosen, why_python = perft_engine(cast(EngineChoice, asked), enumerate_moves)
    if why_python is not None:
        typer.echo(f"naqala: perft: on the Python engine: {why_python}", err=True)
    try:
        with _progress_bar("Counting") as progress:
            result = count(board, enumerate_moves, limit, progress, chosen)
    except BoardFileError as exc:
        fail(str(exc))
    except KernelUnavailable as exc:
        fail(f"perft: --engine native: {exc}")
    except PerftTimeout as exc:
        typer.echo(f"naqala: perft {board}: {exc}", err=True)
        raise typer.Exit(1) from None
    # a count of thousands of digits is the answer, not an attack on int(): print it whole
    limit_digits = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        typer.echo(json.dumps(result))
    finally:
        sys.set_int_max_str_digits(limit_digits)


@contextlib.contextmanager
def _progress_bar(description: str) -> Iterator[Callable[[int, int], None] | None]:
    """A ``progress(done, total)`` drawing a bar on stderr, or None when stderr is not a
    terminal (pipes and tests get clean output)."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    columns = (f"{description} tiles", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=None)

        def update(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        yield update


@app.command()
def djinns(
    expansion: Expansions = None,
    markdown: Annotated[bool, typer.Option("--markdown", help="Print docs/djinns.md.")] = False,
) -> None:
    """List every djinn: VP, cost, when its power can be used and what it does."""
    from naqala.cli.djinns import djinn_rows, render_markdown

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
    from naqala.core.plugins import LOAD_FAILURES, installed_entry_points, load_failure

    broken: list[str] = []
    if plugins is None:
        plugins = []
        for name, point in sorted(installed_entry_points().items()):
            try:
                plugins.append(point.load())
            except LOAD_FAILURES as exc:
                typer.echo(
                    f"naqala: warning: plugin {name!r} failed to load: {load_failure(exc)}",
                    err=True,
                )
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


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point. A plugin that raises stops the command with one line
    naming it (``cli/failures.py``), and a panic of the native kernel with one line saying
    it is an engine bug; ``naqala --debug …`` or ``NAQALA_DEBUG=1`` shows the traceback
    instead. Ctrl-C outside a study (which handles it itself) ends the command
    with a one-line note and exit code 130, never a traceback."""
    from naqala.cli.failures import debug_wanted, failure_line
    from naqala.core.failures import is_game_failure

    debug, args = debug_wanted(list(sys.argv[1:] if argv is None else argv))
    if not is_builtin(app, args):  # a command of our own needs no plugin to be loaded
        register_plugin_commands(app)
    try:
        app(args=args, prog_name="naqala")
    except KeyboardInterrupt:
        typer.echo("naqala: interrupted", err=True)
        raise SystemExit(130) from None
    except BaseException as exc:  # a kernel panic is a BaseException too
        if debug or not is_game_failure(exc):
            raise
        typer.echo(f"naqala: {failure_line(exc)}", err=True)
        sys.exit(1)
