"""The page of ``naqala tune --report``: the trial history, each knob's importance, and
the best candidate against the original rules."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from naqala.lab.report import COLOURS, compare_tables, figure, table

#: what each figure shows
TUNE_FIGURES = {
    "history": "Loss of each trial (dots; crosses: stopped early at their last look) and "
    "the best so far (line); the original rules (or profile) dotted",
    "importance": "Each knob's importance to the loss (optuna's importance evaluator)",
}


def _original(data: Mapping[str, Any]) -> str:
    """What the tune started from: the original profile of a player's tune, else rules."""
    return "original profile" if "paired" in data else "original rules"


def _history(data: Mapping[str, Any]) -> Any:
    fig = figure(6.4, 3.2)
    ax = fig.subplots()
    done = [t for t in data["trials"] if t["state"] == "complete"]
    pruned = [t for t in data["trials"] if t["state"] == "pruned" and t["looks"]]
    ax.plot([t["number"] for t in done], [t["loss"] for t in done], "o", color=COLOURS[0],
            label="trial")  # fmt: skip
    if pruned:
        last = [list(t["looks"].values())[-1] for t in pruned]
        ax.plot([t["number"] for t in pruned], last, "x", color=COLOURS[3], label="stopped early")
    best, xs, ys = float("inf"), [], []
    for t in sorted(done, key=lambda t: t["number"]):
        best = min(best, t["loss"])
        xs.append(t["number"])
        ys.append(best)
    ax.step(xs, ys, where="post", color=COLOURS[1], label="best so far")
    if "original" in data:
        ax.axhline(data["original"]["loss"], color="grey", linestyle=":", label=_original(data))
    ax.set_xlabel("trial")
    ax.set_ylabel(f"loss ({data['objective']})")
    ax.legend(fontsize="small")
    return fig


def _importance(data: Mapping[str, Any]) -> Any:
    found = data["importances"]
    fig = figure(6.4, 1.0 + 0.35 * max(len(found), 1))
    ax = fig.subplots()
    if not found:
        ax.text(0.5, 0.5, "not enough varied trials to tell", ha="center", va="center")
        ax.set_axis_off()
        return fig
    names = list(found)
    ax.barh(range(len(names)), [found[n] for n in names], color=COLOURS[2])
    ax.set_yticks(range(len(names)), names, fontsize="small")
    ax.invert_yaxis()
    ax.set_xlabel("importance (share of the loss's variance)")
    return fig


def tune_figures(data: Mapping[str, Any]) -> dict[str, Any]:
    """The figures, by name (``TUNE_FIGURES``)."""
    return {"history": _history(data), "importance": _importance(data)}


def tune_tables(data: Mapping[str, Any]) -> list[str]:
    """The best candidate, the trials, and the comparison with the original rules."""
    best = data["best"]
    parts = ["<h2>Best candidate</h2>"]
    rows = [[name, value] for name, value in best["params"].items()]
    rows.append(["loss", best["loss"]])
    if "original" in data:
        rows.append([f"loss of the {_original(data)}", data["original"]["loss"]])
    if "paired" in data:
        rows.append(["loss of the answer on the same games", data["answer"]["loss"]])
        rows.append(["paired difference (answer − original)", data["paired"]["difference"]])
        rows.append(["p (paired t-test, two-sided)", data["paired"]["p"]])
    parts.append(table(["knob", "value"], rows, "table-best"))
    knobs = data["knobs"]
    parts.append("<h2>Trials</h2>")
    parts.append(
        table(
            ["trial", "state", *knobs, "loss", "terms"],
            [
                [t["number"], t["state"], *(t["params"].get(k) for k in knobs), t["loss"],
                 ", ".join(f"{k} {v:g}" for k, v in t["terms"].items())]
                for t in data["trials"]
            ],
            "table-trials",
        )
    )  # fmt: skip
    if "comparison" in data:
        parts.append("<h2>The best candidate against the original rules</h2>")
        parts += compare_tables(data["comparison"])
    return parts


def describe(data: Mapping[str, Any]) -> str:
    """The page's one line."""
    return (
        f"{len(data['trials'])} trials of {data['games']} games of {data['players']} players "
        f"from seed {data['seed']} (the same seeds in every trial), seats "
        f"{', '.join(data['seats'])} rotated; objective {data['objective']}; best written to "
        f"{data['out']}"
    )
