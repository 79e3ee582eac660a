"""The skill matrix's page: the matrix as a heat map (matplotlib, like the rest of the
lab's reports), the gradient and the first-bidder advantage as tables."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from naqala.lab import require
from naqala.lab.report import figure, table

#: what each figure of ``naqala skill --report`` shows
SKILL_FIGURES = {
    "matrix": "Win rate of the row player alone against a field of the column player "
    "(white: the fair share, 1 / players; grey: no game)",
    "variant-matrix": "The same under the variant",
    "difference": "Variant − baseline, percentage points (bold: significant after Holm)",
}


def _percent(x: float) -> str:
    return f"{x * 100:.0f}%"


def heat_map(report: Mapping[str, Any], key: str = "rate", title: str = "") -> Any:
    """The matrix of ``report`` (``matrix_report``) as a heat map centred on the fair
    share: red cells win more than their share, blue ones less."""
    kinds = report["kinds"]
    n = len(kinds)
    fair = report["fair_share"]
    values = [[float("nan")] * n for _ in kinds]
    labels = [[""] * n for _ in kinds]
    for i, a in enumerate(kinds):
        for j, b in enumerate(kinds):
            cell = report["matrix"][a].get(b)
            if cell is not None:
                values[i][j] = cell[key]
                low, high = cell["ci"]
                labels[i][j] = f"{_percent(cell[key])}\n{_percent(low)}–{_percent(high)}"
    fig = figure(1.6 + 1.3 * n, 1.2 + 1.0 * n)
    ax = fig.subplots()
    high = min(1.0, 2 * fair)
    image = ax.imshow(values, cmap=_colours("RdBu_r"), vmin=0.0, vmax=high, aspect="auto")
    _annotate(ax, labels, values, fair, high / 2)
    _axes(ax, kinds, title)
    fig.colorbar(image, ax=ax, label="win rate")
    return fig


def difference_map(compared: Mapping[str, Any]) -> Any:
    """The cells' paired differences (variant − baseline) as a diverging heat map."""
    kinds = compared["baseline"]["kinds"]
    n = len(kinds)
    values = [[float("nan")] * n for _ in kinds]
    labels = [[""] * n for _ in kinds]
    bold = set()
    for i, a in enumerate(kinds):
        for j, b in enumerate(kinds):
            entry = compared["differences"][a].get(b)
            if entry is not None:
                values[i][j] = entry["difference"]
                labels[i][j] = f"{entry['difference'] * 100:+.0f}"
                if entry["significant"]:
                    bold.add((i, j))
    fig = figure(1.6 + 1.3 * n, 1.2 + 1.0 * n)
    ax = fig.subplots()
    image = ax.imshow(values, cmap=_colours("PuOr_r"), vmin=-0.5, vmax=0.5, aspect="auto")
    _annotate(ax, labels, values, 0.0, 0.5, bold)
    _axes(ax, kinds, "variant − baseline")
    fig.colorbar(image, ax=ax, label="win rate difference")
    return fig


def _colours(name: str) -> Any:
    """A diverging colour map whose cells without a game are grey, not the centre's white."""
    matplotlib = require("matplotlib", "the report and plots")
    return matplotlib.colormaps[name].with_extremes(bad="#dddddd")


def _annotate(
    ax: Any,
    labels: list[list[str]],
    values: list[list[float]],
    centre: float,
    half: float,
    bold: set[tuple[int, int]] | None = None,
) -> None:
    """Each cell's label, white on the dark ends of the colour map so it stays legible."""
    for i, row in enumerate(labels):
        for j, text in enumerate(row):
            if text:
                dark = abs(values[i][j] - centre) > 0.6 * half
                ax.text(
                    j,
                    i,
                    text,
                    ha="center",
                    va="center",
                    fontsize="small",
                    color="white" if dark else "black",
                    weight="bold" if bold and (i, j) in bold else "normal",
                )


def _axes(ax: Any, kinds: list[str], title: str) -> None:
    ax.set_xticks(range(len(kinds)), kinds, rotation=30, ha="right")
    ax.set_yticks(range(len(kinds)), kinds)
    ax.set_xlabel("the field")
    ax.set_ylabel("the one player")
    if title:
        ax.set_title(title, fontsize="medium")


def skill_figures(data: Mapping[str, Any]) -> dict[str, Any]:
    """The figures of ``naqala skill``'s output, by name (``SKILL_FIGURES``)."""
    if "differences" not in data:
        return {"matrix": heat_map(data)}
    return {
        "matrix": heat_map(data["baseline"], title="baseline"),
        "variant-matrix": heat_map(data["variant"], title="variant"),
        "difference": difference_map(data),
    }


def _matrix_table(report: Mapping[str, Any], css_id: str) -> str:
    kinds = report["kinds"]
    rows = []
    for a in kinds:
        row: list[Any] = [a]
        for b in kinds:
            cell = report["matrix"][a].get(b)
            row.append(
                "–"
                if cell is None
                else f"{_percent(cell['rate'])} ({_percent(cell['ci'][0])}–"
                f"{_percent(cell['ci'][1])})"
            )
        row.append(report["strength"][a])
        rows.append(row)
    return table(["one player \\ field", *kinds, "mean"], rows, css_id)


def _gradient_table(report: Mapping[str, Any], css_id: str) -> str:
    gradient = report["gradient"]
    rows: list[list[Any]] = [
        [f"{s['stronger']} vs {s['weaker']}", s["games"], s["rate"], s["ci"], s["edge"]]
        for s in gradient["steps"]
    ]
    rows.append(["mean edge", "", "", "", gradient["mean_edge"]])
    return table(["rung", "games", "win rate", "95% CI", "edge over fair share"], rows, css_id)


def _first_bidder_table(report: Mapping[str, Any], css_id: str) -> str:
    first = report["first_bidder"]
    row = [first["games"], first["rate"], first["ci"], first["fair_share"], first["edge"]]
    headers = ["games", "first bidder's win rate", "95% CI", "fair share", "edge"]
    return table(headers, [row], css_id)


def skill_tables(data: Mapping[str, Any]) -> list[str]:
    """The matrix, gradient and first-bidder tables (of both sides when compared)."""
    sides = (
        [("", data)]
        if "differences" not in data
        else [("baseline", data["baseline"]), ("variant", data["variant"])]
    )
    parts = []
    for name, report in sides:
        suffix = f"-{name}" if name else ""
        if name:
            parts.append(f"<h2>{name}</h2>")
        parts += [
            _matrix_table(report, f"table-matrix{suffix}"),
            _gradient_table(report, f"table-gradient{suffix}"),
            _first_bidder_table(report, f"table-first-bidder{suffix}"),
        ]
    if "differences" in data:
        edge = data["mean_edge"]
        parts.append(
            table(
                ["metric", "baseline", "variant", "difference", "95% CI", "p Holm", "significant"],
                [
                    [
                        "mean edge (stronger player's share)",
                        edge["baseline"],
                        edge["variant"],
                        edge["difference"],
                        edge["ci"],
                        edge["p_holm"],
                        "yes" if edge["significant"] else "no",
                    ]
                ],
                "table-edge",
            )
        )
    return parts


def describe(data: Mapping[str, Any]) -> str:
    """The page's one line: games, players, seeds, rules."""
    report = data.get("baseline", data)
    rules = " + ".join(report["plugins"])
    if "variant" in data:
        rules = f"baseline {rules}, variant {' + '.join(data['variant']['plugins'])}"
    return (
        f"{report['games_per_cell']} games a cell, {report['players']} players, seeds from "
        f"{report['seed']} (the same games in every cell), one player against the field, "
        f"seats rotated; rules: {rules}"
    )
