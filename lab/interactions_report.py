"""The interaction matrix's page: one heat map per metric (the pairs' interactions,
significant cells starred after Holm), and the table of every cell."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from naqala.lab import require
from naqala.lab.report import figure, table

#: the figures of ``naqala interactions --report``, by metric
INTERACTION_FIGURES = {
    "mean_score": "Interaction on the mean final score, points: both − A − B + neither "
    "(the label; the colour is the interaction over its 95% half-width, beyond ±1 the "
    "interval leaves out 0; * significant after Holm over the pairs)",
    "holder_win_rate": "Interaction on the holders' share of the win (djinns only)",
    "rounds": "Interaction on the game length, rounds",
}


#: the colour scale's ends, in interval half-widths
CLIP = 3.0
#: up to this many components, each cell also shows its interaction
ANNOTATE_UP_TO = 8


def _labels(data: Mapping[str, Any]) -> list[str]:
    """Each component's short name: a card's id, a house rule's file name without suffix."""
    names = []
    for text in data["components"]:
        name = text.partition(":")[2]
        names.append(name.rsplit("/", 1)[-1].removesuffix(".py").removesuffix(".toml"))
    return names


def signal(c: Mapping[str, Any]) -> float:
    """The interaction in units of its 95% half-width, clipped to ±``CLIP``: beyond ±1 the
    interval leaves out 0. The colour follows this rather than the raw interaction so a
    small sure effect is not drowned by a large noisy one (the raw value is the label)."""
    low, high = float(c["ci"][0]), float(c["ci"][1])
    value = float(c["interaction"])
    half = (high - low) / 2
    if half <= 0:
        return 0.0 if value == 0 else math.copysign(CLIP, value)
    return max(-CLIP, min(CLIP, value / half))


def heat_map(data: Mapping[str, Any], metric: str) -> Any:
    """The symmetric matrix of one metric's interactions (red: the pair gives more
    together than alone, blue: less; colour by ``signal``), significant cells starred."""
    matplotlib = require("matplotlib", "the report")
    names = list(data["components"])
    n = len(names)
    values = [[math.nan] * n for _ in names]
    texts: dict[tuple[int, int], str] = {}
    for c in data["cells"]:
        if c["metric"] != metric or c["interaction"] is None or None in c["ci"]:
            continue
        i, j = names.index(c["a"]), names.index(c["b"])
        values[i][j] = values[j][i] = signal(c)
        star = "*" if c["significant"] else ""
        text = f"{c['interaction']:+.2g}{star}" if n <= ANNOTATE_UP_TO else star
        if text:
            texts[(i, j)] = texts[(j, i)] = text
    size = 2.4 + (0.9 if n <= ANNOTATE_UP_TO else 0.32) * n
    fig = figure(size + 1.4, size)
    ax = fig.subplots()
    colours = matplotlib.colormaps["RdBu_r"].with_extremes(bad="#dddddd")
    image = ax.imshow(values, cmap=colours, vmin=-CLIP, vmax=CLIP, aspect="equal")
    for (i, j), text in texts.items():
        weight = "bold" if text.endswith("*") else "normal"
        ax.text(j, i, text, ha="center", va="center", fontsize="small", weight=weight)
    labels = _labels(data)
    ax.set_xticks(range(n), labels, rotation=60, ha="right", fontsize="small")
    ax.set_yticks(range(n), labels, fontsize="small")
    ax.set_title(metric, fontsize="medium")
    fig.colorbar(image, ax=ax, label="interaction / 95% half-width")
    return fig


def interaction_figures(data: Mapping[str, Any]) -> dict[str, Any]:
    """One heat map per metric (``INTERACTION_FIGURES``) that has cells: without a djinn
    among the components there is no ``holder_win_rate`` map."""
    present = {c["metric"] for c in data["cells"]}
    return {metric: heat_map(data, metric) for metric in INTERACTION_FIGURES if metric in present}


def interaction_tables(data: Mapping[str, Any]) -> list[str]:
    """The cost of the design, then every cell, significant ones first."""
    cost = data["cost"]
    cost_table = table(
        ["pairs", "arms a pair", "games of the design", "distinct arms", "games played"],
        [
            [
                cost["pairs"],
                cost["arms_per_pair"],
                cost["design_games"],
                cost["distinct_arms"],
                cost["games_played"],
            ]
        ],
        "table-cost",
    )
    cells = sorted(data["cells"], key=lambda c: (not c["significant"], c["p"]))
    rows = [
        [c["a"], c["b"], c["metric"], c["interaction"], c["ci"], c["p"], c["p_holm"]] for c in cells
    ]
    headers = ["A", "B", "metric", "interaction", "95% CI", "p", "p Holm"]
    return [cost_table, table(headers, rows, "table-cells")]


def describe(data: Mapping[str, Any]) -> str:
    """The page's one line: the design."""
    return (
        f"{data['games']} games an arm, {data['players']} players ({', '.join(data['seats'])}), "
        f"seeds from {data['seed']}, the same seeds in all four arms of every pair; "
        f"{len(data['components'])} components, {data['cost']['pairs']} pairs"
    )
