"""The balance card's page (``naqala balance --report card.html``): one figure and one
table per item of the card, drawn with matplotlib like the rest of the lab's reports."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from naqala.lab import require
from naqala.lab.report import COLOURS, figure, table
from naqala.lab.results import GameResult
from naqala.lab.skill_report import heat_map

#: what each figure of the card shows, in page order
BALANCE_FIGURES = {
    "seats": "Win rate by seat and by first-round bidding position, with 95% Wilson "
    "intervals (dotted: the fair share)",
    "skill": "Skill matrix: win rate of the row player alone against a field of the "
    "column player (white: the fair share; grey: no game)",
    "length": "Game length in rounds",
    "scores": "Final scores (every seat of every game)",
    "lead": "Lead changes per game (the round-by-round leader)",
    "margin": "Winner's margin over the best other seat (0: a shared win)",
    "djinns": "Per djinn: how often it was taken, and its holders' win rate",
    "tiles": "Points per player and game from the tiles of each kind",
}


def _bars_with_intervals(ax: Any, entries: Sequence[Mapping[str, Any]], labels: list[str]) -> None:
    rates = [e["rate"] or 0.0 for e in entries]
    lows = [r - (e["ci"][0] or 0.0) for r, e in zip(rates, entries, strict=True)]
    highs = [(e["ci"][1] or 0.0) - r for r, e in zip(rates, entries, strict=True)]
    ax.bar(range(len(rates)), rates, yerr=[lows, highs], capsize=3, color=COLOURS[0])
    ax.set_xticks(range(len(rates)), labels, fontsize="small")


def _seats(data: Mapping[str, Any]) -> Any:
    seats = data["seats_and_positions"]
    fig = figure(6.4, 3.0)
    left, right = fig.subplots(1, 2, sharey=True)
    entries = seats["win_rate_by_seat"]
    _bars_with_intervals(left, entries, [f"seat {k + 1}" for k in range(len(entries))])
    positions = seats["win_rate_by_position"]
    _bars_with_intervals(right, positions, [f"bid {k + 1}." for k in range(len(positions))])
    for ax in (left, right):
        ax.axhline(seats["fair_share"], color="grey", linestyle=":", linewidth=1)
    left.set_ylabel("win rate")
    left.set_title("by seat", fontsize="medium")
    right.set_title("by first-round bidding position", fontsize="medium")
    return fig


def _histogram(values: Sequence[int], xlabel: str, integer_bins: bool = True) -> Any:
    fig = figure(6.4, 2.8)
    ax = fig.subplots()
    low, high = min(values), max(values)
    bins: Any = range(low, high + 2) if integer_bins and high - low < 60 else 20
    ax.hist(values, bins=bins, color=COLOURS[0], align="left" if integer_bins else "mid")
    if integer_bins:
        ticker = require("matplotlib.ticker", "the report and plots")
        ax.xaxis.set_major_locator(ticker.MaxNLocator(integer=True))
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games" if xlabel != "final score" else "seats")
    return fig


def _djinns(data: Mapping[str, Any]) -> Any:
    table_ = data["djinns"]
    names = list(table_)
    fig = figure(6.4, 1.0 + 0.22 * max(len(names), 1))
    if not names:
        ax = fig.subplots()
        ax.text(0.5, 0.5, "these rules have no djinns", ha="center", va="center")
        ax.set_axis_off()
        return fig
    taken_ax, win_ax = fig.subplots(1, 2, sharey=True)
    ys = range(len(names))
    taken_ax.barh(ys, [table_[n]["taken"]["rate"] or 0.0 for n in names], color=COLOURS[0])
    wins = [table_[n]["holders_win_rate"] for n in names]
    rates = [w["rate"] if w["rate"] is not None else 0.0 for w in wins]
    errors = [
        [
            r - (w["ci"][0] if w["ci"][0] is not None else r)
            for r, w in zip(rates, wins, strict=True)
        ],
        [
            (w["ci"][1] if w["ci"][1] is not None else r) - r
            for r, w in zip(rates, wins, strict=True)
        ],
    ]
    win_ax.barh(ys, rates, xerr=errors, capsize=2, color=COLOURS[1])
    win_ax.axvline(data["seats_and_positions"]["fair_share"], color="grey", linestyle=":")
    taken_ax.set_yticks(list(ys), names, fontsize="x-small")
    taken_ax.invert_yaxis()
    taken_ax.set_xlabel("share of games taken")
    win_ax.set_xlabel("holders' win rate")
    return fig


def _tiles(data: Mapping[str, Any]) -> Any:
    kinds = data["tile_kinds"]
    names = list(kinds)
    fig = figure(6.4, 1.0 + 0.3 * max(len(names), 1))
    ax = fig.subplots()
    ax.barh(range(len(names)), [kinds[k]["points_per_player"] for k in names], color=COLOURS[2])
    ax.set_yticks(range(len(names)), names, fontsize="small")
    ax.invert_yaxis()
    ax.set_xlabel("points per player per game")
    return fig


def own_matrix(data: Mapping[str, Any]) -> Any:
    """This rule set's skill matrix: with ``--against`` the card holds both, paired, and
    the page draws this one's (the paired differences are in the JSON)."""
    skill = data["skill"]
    return skill["variant"] if "differences" in skill else skill


def balance_figures(data: Mapping[str, Any], results: Sequence[GameResult]) -> dict[str, Any]:
    """The card's figures, by name (``BALANCE_FIGURES``)."""
    from naqala.lab.balance import lead_changes, margin

    figures = {
        "seats": _seats(data),
        "skill": heat_map(own_matrix(data)) if data["skill"] is not None else None,
        "length": _histogram([r.rounds for r in results], "rounds"),
        "scores": _histogram([s for r in results for s in r.scores], "final score", False),
        "lead": _histogram([lead_changes(r) for r in results], "lead changes"),
        "margin": _histogram([margin(r) for r in results], "margin (points)"),
        "djinns": _djinns(data),
        "tiles": _tiles(data),
    }
    return {name: fig for name, fig in figures.items() if fig is not None}


def _interval(entry: Mapping[str, Any]) -> list[Any]:
    return [entry["rate"], entry["ci"]]


def balance_tables(data: Mapping[str, Any]) -> list[str]:
    """One table per item of the card."""
    from naqala.lab.skill_report import skill_tables

    seats = data["seats_and_positions"]
    rows = [
        [f"seat {k + 1}", w, *_interval(e)]
        for k, (w, e) in enumerate(
            zip(seats["wins_by_seat"], seats["win_rate_by_seat"], strict=True)
        )
    ]
    rows += [
        [f"bidding {k + 1}. in round 1", w, *_interval(e)]
        for k, (w, e) in enumerate(
            zip(seats["wins_by_position"], seats["win_rate_by_position"], strict=True)
        )
    ]
    parts = ["<h2>Seats and bidding positions</h2>"]
    parts.append(table(["", "wins", "win rate", "95% CI"], rows, "table-seats"))
    for key in ("seat_test", "position_test"):
        test = data.get(key)
        if test:
            parts.append(
                table(
                    ["test", "chi2", "df", "p"],
                    [
                        [
                            f"{test['test']} ({key.split('_')[0]})",
                            test["chi2"],
                            test["df"],
                            test["p_value"],
                        ]
                    ],
                    f"table-{key.replace('_', '-')}",
                )
            )
    if data["skill"] is not None:  # None when interrupted before every cell had a game
        parts.append("<h2>Skill matrix</h2>")
        parts += skill_tables(own_matrix(data))
    parts.append("<h2>Length, scores, lead and margin</h2>")
    rounds, scores, margin = data["length"]["rounds"], data["scores"], data["margin"]
    changes = data["lead"]["lead_changes"]
    parts.append(
        table(
            ["", "mean", "sd", "least, quartiles, most"],
            [
                ["rounds", rounds["mean"], rounds["sd"], rounds["quantiles"]],
                ["final score", scores["mean"], scores["sd"], scores["quantiles"]],
                ["lead changes", changes["mean"], changes["sd"], changes["quantiles"]],
                ["margin", margin["mean"], margin["sd"], margin["quantiles"]],
            ],
            "table-distributions",
        )
    )
    lead = data["lead"]
    come = lead["comebacks"]
    parts.append(
        table(
            ["", "games", "rate", "95% CI"],
            [
                [
                    "games with a lead change",
                    lead["games_with_a_lead_change"]["n"],
                    *_interval(lead["games_with_a_lead_change"]),
                ],
                ["leader at two thirds lost", come["games"], *_interval(come)],
            ],
            "table-lead",
        )
    )
    parts.append("<h2>Djinns</h2>")
    parts.append(
        table(
            ["djinn", "taken", "95% CI", "holders", "holders' win rate", "95% CI"],
            [
                [name, *_interval(e["taken"]), e["holders"], *_interval(e["holders_win_rate"])]
                for name, e in data["djinns"].items()
            ],
            "table-djinns",
        )
    )
    parts.append("<h2>Tile kinds</h2>")
    parts.append(
        table(
            ["tile kind", "points per player per game", "share of tile points"],
            [
                [kind, e["points_per_player"], e["share_of_tile_points"]]
                for kind, e in data["tile_kinds"].items()
            ],
            "table-tiles",
        )
    )
    return parts + play_tables(data)


def play_tables(data: Mapping[str, Any]) -> list[str]:
    """The tables of the items read from the games' decisions: score by category, turn
    money, win rate by turn position in later rounds, decision load (none for games
    that did not record them)."""
    parts = ["<h2>Score by category</h2>"]
    categories = data.get("score_by_category") or {}
    parts.append(
        table(
            ["category", "points per player per game"],
            list(map(list, categories.items())),
            "table-categories",
        )
    )
    money, positions = data.get("turn_money"), data.get("turn_positions")
    load = data.get("decision_load")
    if money:
        parts.append("<h2>Coins paid for turn order</h2>")
        rows = [["per game (all players)", money["per_game"]["mean"]]]
        rows.append(["per player and game", money["per_player"]])
        rows += [[f"for turn position {k + 1}, per game", c]
                 for k, c in enumerate(money["per_position"])]  # fmt: skip
        parts.append(table(["", "coins"], rows, "table-turn-money"))
    if positions:
        parts.append("<h2>Turn positions in rounds 2 and later</h2>")
        parts.append(
            table(
                ["turn position", "rounds", "win rate", "95% CI"],
                [
                    [k + 1, positions["rounds"], *_interval(e)]
                    for k, e in enumerate(positions["win_rate_by_turn_position"])
                ],
                "table-turn-positions",
            )
        )
    if load:
        parts.append("<h2>Decision load</h2>")
        rows = [["every decision", load["decisions_per_game"], *load["branching"].values()]]
        rows += [
            [stage, e["decisions_per_game"], e["mean"], e["p90"]]
            for stage, e in load["by_stage"].items()
        ]
        header = ["stage", "decisions per game", "options: mean", "options: p90"]
        parts.append(table(header, rows, "table-decision-load"))
        parts.append(
            table(
                ["agent", "decisions per game", "seconds per decision"],
                [
                    [name, e["decisions_per_game"], e["seconds_per_decision"]]
                    for name, e in load["by_agent"].items()
                ],
                "table-ai-time",
            )
        )
    return parts


def describe(data: Mapping[str, Any]) -> str:
    """The card's one line."""
    seats = ", ".join(data["seats"])
    matrix = own_matrix(data) if data["skill"] is not None else None
    skill = (
        "no skill matrix (interrupted)"
        if matrix is None
        else f"skill matrix {matrix['games_per_cell']} games a cell"
    )
    return (
        f"{data['games']} games of {data['players']} players from seed {data['seed']}, "
        f"seats {seats} (rotated); {skill}; rules: {' + '.join(data['plugins'])}"
    )
