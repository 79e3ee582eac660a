"""``naqala replay``: show a saved game turn by turn, or check that it still replays.

Added to the ``naqala`` command by ``register(app)``. Like every command, a record that
cannot be read, rebuilt or replayed gives one message on stderr, nothing on stdout and exit
code 2; ``--verify`` exits 1 when the replayed scores differ from the recorded ones.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import secrets
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, cast

import typer
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from naqala.cli.common import RecordHouseRules, fail, read_house_rules
from naqala.cli.scores import score_table, winners_line
from naqala.core.engine import Rules
from naqala.core.record import GameRecord, RecordError, load_record, replay, rules_for_record
from naqala.core.state import State
from naqala.core.without import without_text

RecordArg = Annotated[Path, typer.Argument(help="Game record (JSON) saved by naqala play.")]
VerifyOpt = Annotated[
    bool,
    typer.Option(
        "--verify", help="Replay silently and check the recorded final scores (exit 1 if not)."
    ),
]
HtmlOpt = Annotated[
    Path | None,
    typer.Option(
        "--html",
        help="Write the game as one self-contained HTML page to step through in a browser.",
        dir_okay=False,
    ),
]


def _scores_text(scores: Sequence[int]) -> str:
    return ", ".join(str(s) for s in scores)


def replay_command(
    record: RecordArg,
    verify: VerifyOpt = False,
    html: HtmlOpt = None,
    house_rules: RecordHouseRules = None,
) -> None:
    """Replay a game record turn by turn, check it with --verify, or write it as an HTML
    page with --html."""
    files = read_house_rules(house_rules)
    try:
        game = load_record(record)
        rules = rules_for_record(game, files)
        states = replay(game, rules)
    except RecordError as exc:
        message = str(exc)
        fail(message if message.startswith(f"{record}:") else f"{record}: {message}")
    final = rules.scores(states[-1])
    if verify:
        _verify(record, game, states[-1], final)
        return
    if html is not None:
        _write_html(html, record, game, rules, states)
        return
    _show(rules, game, states)
    if game.final_scores is not None and game.final_scores != final:
        typer.echo(
            f"naqala: warning: {record}: the recorded final scores "
            f"({_scores_text(game.final_scores)}) differ from the replayed ones",
            err=True,
        )


def _verify(record: Path, game: GameRecord, last: State, final: tuple[int, ...]) -> None:
    if game.final_scores is None:
        fail(f"{record}: the record has no final scores to verify (the game was not finished)")
    if not last.is_over:
        fail(
            f"{record}: not verified: the record has final scores, but its actions end before "
            f"the game does (pending decision {last.decision.stage!r})",
            code=1,
        )
    if game.final_scores != final:
        differ = [
            f"player {p + 1}: recorded {a}, replayed {b}"
            for p, (a, b) in enumerate(zip(game.final_scores, final, strict=True))
            if a != b
        ]
        fail(
            f"{record}: not verified: final scores differ ({'; '.join(differ)}); recorded "
            f"{_scores_text(game.final_scores)}, replayed {_scores_text(final)}",
            code=1,
        )
    typer.echo(f"verified: scores {_scores_text(final)}")


def _write_html(
    target: Path, record: Path, game: GameRecord, rules: Rules, states: list[State]
) -> None:
    """Write the replay page atomically: ``target`` is whole or untouched."""
    from naqala.display.html import replay_html

    plugins = ", ".join(ref.name for ref in game.plugins)
    left_out = f" · {without_text(game.without)}" if game.without else ""
    title = (
        f"naqala replay · {record.name} · {game.players} players · seed {game.seed} · "
        f"{plugins}{left_out}"
    )
    page = replay_html(rules, states, game.actions, game.seats, title)
    try:
        write_text_atomically(target, page)
    except OSError as exc:
        fail(f"{target}: cannot write: {exc.strerror or exc}")
    typer.echo(f"wrote {target} ({len(states) - 1} steps)")


def write_text_atomically(path: Path, text: str) -> None:
    """Write ``text`` to a new temporary file beside ``path`` (usual permissions), then
    rename it into place: ``path`` ends up whole or untouched."""
    temp = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


# -- showing a game ---------------------------------------------------------------------------


def _board_renderer() -> Callable[[Rules, State], RenderableType]:
    """``naqala.display.text.render_state`` when it is available, else a one-line summary."""
    try:
        module = importlib.import_module("naqala.display.text")
        render = module.render_state
    except (ImportError, AttributeError):
        return _summary
    return cast(Callable[[Rules, State], RenderableType], render)


def _summary(rules: Rules, state: State) -> RenderableType:
    decision = state.decision.stage
    if not state.is_over:
        decision += f" (player {state.decision.player + 1})"
    return Text(
        f"round {state.round}, decision {decision}, scores {_scores_text(rules.scores(state))}"
    )


def _segment_key(state: State) -> tuple[int, int | None]:
    """What a header names: the round and the marker whose turn it is (None: bidding)."""
    return state.round, None if state.turn is None else state.turn.marker


def _header(game: GameRecord, before: State, first: int, actions: Sequence[str]) -> str:
    turn = before.turn
    numbers = (
        f"actions {first}–{first + len(actions) - 1}" if len(actions) > 1 else f"action {first}"
    )
    if turn is None:
        who = "bidding"
    else:
        player = before.markers[turn.marker]
        seat = game.seats[player] if player < len(game.seats) else "?"
        who = f"player {player + 1} ({seat}), marker {turn.marker + 1}"
    return f"Round {before.round} · {who} · {numbers}: {', '.join(actions)}"


def _show(rules: Rules, game: GameRecord, states: list[State]) -> None:
    console = Console(highlight=False)
    render = _board_renderer()
    plugins = ", ".join(f"{ref.name} {ref.version}" for ref in game.plugins)
    left_out = f" · {without_text(game.without)}" if game.without else ""
    console.print(
        f"Start · seed {game.seed} · {game.players} players ({', '.join(game.seats)}) · "
        f"plugins {plugins}{left_out}",
        markup=False,
    )
    console.print(render(rules, states[0]))
    start = 0
    for index in range(len(game.actions)):
        ends = index + 1 == len(game.actions) or _segment_key(states[index + 1]) != _segment_key(
            states[index]
        )
        if ends:
            console.print()
            console.print(
                _header(game, states[start], start, game.actions[start : index + 1]), markup=False
            )
            console.print(render(rules, states[index + 1]))
            start = index + 1
    console.print()
    console.print(_score_table(rules, game, states[-1]))
    if states[-1].is_over:
        console.print(winners_line(rules, states[-1]), markup=False, highlight=False)


def _score_table(rules: Rules, game: GameRecord, state: State) -> Table:
    title = "Final scores" if state.is_over else "Scores (the record ends before the game does)"
    return score_table(rules, state, game.seats, title)


def register(app: typer.Typer) -> None:
    """Add the ``replay`` command to ``app``."""
    app.command("replay")(replay_command)
