"""``naqala report FILE…``: the lab's reports rebuilt from the rows of ``--games-out``
(``naqala.lab.game_rows``), without replaying a game.

The rows are grouped by their ``side`` (the study each game belonged to). ``--as
summary`` gives ``simulate``'s summary of each side; ``--as compare`` the paired report
of two sides (``--baseline``/``--variant``, by default the first two sides; they must
have played the same seeds); ``--as card`` the balance card of each side. Without
``--as``: the comparison when the files hold exactly two sides of the same seeds, the
summary otherwise.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from naqala.cli.common import fail
from naqala.lab import LabExtraMissing
from naqala.lab.game_rows import GameRowsError, read_rows, result_of_row
from naqala.lab.results import GameResult

KINDS = ("summary", "compare", "card")


class Side:
    """The games of one side of the files, in file order, and what they share."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.rules: list[str] = []
        self.players = 0
        self.results: list[GameResult] = []

    def add(self, row: dict[str, Any]) -> None:
        if not self.results:
            self.rules, self.players = list(row["rules"]), row["players"]
        elif (row["rules"], row["players"]) != (self.rules, self.players):
            raise GameRowsError(
                f"side {self.name!r} mixes rule sets or player counts; give its files a "
                "side each (the rows of one study share them)"
            )
        self.results.append(result_of_row(row))

    @property
    def seeds(self) -> list[int]:
        return [r.seed for r in self.results]


def sides_of(files: list[Path]) -> dict[str, Side]:
    sides: dict[str, Side] = {}
    for path in files:
        for row in read_rows(path):
            sides.setdefault(row["side"], Side(row["side"])).add(row)
    if not sides:
        raise GameRowsError("the files hold no game")
    return sides


def _seats(side: Side) -> list[str]:
    first = side.results[0].agents
    return list(first) if all(r.agents == first for r in side.results) else []


def summary_of(side: Side) -> dict[str, Any]:
    from naqala.lab.results import summarise

    held = sorted({d for r in side.results for hand in r.djinns for d in hand})
    data = summarise(side.results, side.players, side.results[0].seed, tuple(side.rules))
    data["djinn_effects"] = {d: sum(r.effects.get(d, 0) for r in side.results) for d in held}
    data.update(side=side.name, seats=_seats(side), rotate=False, without=[])
    return data


def compare_of(baseline: Side, variant: Side) -> dict[str, Any]:
    from naqala.lab.compare import CompareError, report

    if baseline.players != variant.players:
        raise GameRowsError("the two sides have different player counts")
    try:
        data = report(
            baseline.results,
            variant.results,
            baseline.players,
            baseline.results[0].seed,
            baseline.rules,
            variant.rules,
        )
    except CompareError as exc:
        raise GameRowsError(f"sides {baseline.name!r} and {variant.name!r}: {exc}") from None
    data.update(
        requested=data["games"],
        partial=False,
        seats=_seats(baseline),
        rotate=False,
        baseline_without=[],
        variant_without=[],
        sequential=None,
    )
    return data


def card_of(side: Side) -> dict[str, Any]:
    from naqala.cli.balance import position_tests
    from naqala.lab.balance import card

    held = sorted({d for r in side.results for hand in r.djinns for d in hand})
    seats = _seats(side)
    data: dict[str, Any] = {
        "side": side.name,
        "seed": side.results[0].seed,
        "seats": seats,
        # rows say who sat where in each game: the same seats in every game were not rotated
        "rotate": not seats,
        "plugins": side.rules,
        "without": [],
        "requested": len(side.results),
        "partial": False,
        **card(side.results, side.players, held),
        "skill": None,
    }
    data.update(position_tests(data))
    return data


def _pick(sides: dict[str, Side], name: str | None, index: int) -> Side:
    if name is None:
        if len(sides) <= index:
            raise GameRowsError(f"a comparison needs two sides; the files hold {len(sides)}")
        return list(sides.values())[index]
    if name not in sides:
        raise GameRowsError(f"no side {name!r}; the files hold {', '.join(map(repr, sides))}")
    return sides[name]


def report_command(
    files: Annotated[list[Path], typer.Argument(help="Files written by --games-out.")],
    kind: Annotated[
        str | None,
        typer.Option("--as", help="summary, compare or card (default: see the help)."),
    ] = None,
    baseline: Annotated[
        str | None, typer.Option("--baseline", help="The side compared against.")
    ] = None,
    variant: Annotated[str | None, typer.Option("--variant", help="The side compared.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """The lab's reports rebuilt from the games of --games-out files, without replaying:
    simulate's summary, compare's paired report or the balance card."""
    if kind is not None and kind not in KINDS:
        fail(f"--as {kind!r}: one of {', '.join(KINDS)}")
    try:
        sides = sides_of(files)
        if kind is None:
            pair = list(sides.values())
            same = len(pair) == 2 and pair[0].seeds == pair[1].seeds
            kind = "compare" if same or baseline or variant else "summary"
        data: Any
        if kind == "compare":
            data = compare_of(_pick(sides, baseline, 0), _pick(sides, variant, 1))
        elif kind == "card":
            data = [card_of(side) for side in sides.values()]
        else:
            data = [summary_of(side) for side in sides.values()]
    except (GameRowsError, LabExtraMissing) as exc:
        fail(str(exc))
    if as_json:
        typer.echo(json.dumps(data, indent=2))
    elif kind == "compare":
        from naqala.cli.compare import print_report

        print_report(data)
    else:
        from naqala.cli.balance import print_card
        from naqala.cli.simulate import print_summary

        for entry in data:
            typer.echo(f"side {entry['side']}:")
            (print_card if kind == "card" else print_summary)(entry)


def register(app: typer.Typer) -> None:
    """Add the ``report`` command to ``app``."""
    app.command("report")(report_command)
