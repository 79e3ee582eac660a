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
    "(* significant after Holm over the pairs; grey: no cell)",
    "holder_win_rate": "Interaction on the holders' share of the win (djinns only)",
    "rounds": "Interaction on the game length, rounds",
}


def _labels(data: Mapping[str, Any]) -> list[str]:
    return [text.partition(":")[2].rsplit("/", 1)[-1] for text in data["components"]]


def heat_map(data: Mapping[str, Any], metric: str) -> Any:
    """The symmetric matrix of one metric's interactions, centred on 0 (red: the pair
    gives more together than alone, blue: less), significant cells starred."""
    matplotlib = require("matplotlib", "the report")
    names = list(data["components"])
    n = len(names)
    values = [[math.nan] * n for _ in names]
    marks: list[tuple[int, int, str]] = []
    for c in data["cells"]:
        if c["metric"] != metric or c["interaction"] is None:
            continue
        i, j = names.index(c["a"]), names.index(c["b"])
        values[i][j] = values[j][i] = c["interaction"]
        if c["significant"]:
            marks += [(i, j, "*"), (j, i, "*")]
    finite = [abs(v) for row in values for v in row if not math.isnan(v)]
    half = max(finite, default=0.0) or 1.0
    size = 2.0 + 0.32 * n
    fig = figure(size + 1.2, size)
    ax = fig.subplots()
    colours = matplotlib.colormaps["RdBu_r"].with_extremes(bad="#dddddd")
    image = ax.imshow(values, cmap=colours, vmin=-half, vmax=half, aspect="equal")
    for i, j, text in marks:
        ax.text(j, i, text, ha="center", va="center", fontsize="large", weight="bold")
    labels = _labels(data)
    ax.set_xticks(range(n), labels, rotation=60, ha="right", fontsize="small")
    ax.set_yticks(range(n), labels, fontsize="small")
    ax.set_title(metric, fontsize="medium")
    fig.colorbar(image, ax=ax, label="interaction")
    return fig


def interaction_figures(data: Mapping[str, Any]) -> dict[str, Any]:
    """One heat map per metric (``INTERACTION_FIGURES``)."""
    return {metric: heat_map(data, metric) for metric in INTERACTION_FIGURES}


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
