"""The study report: matplotlib figures, inline SVG in one self-contained HTML file.

``simulate_figures`` and ``compare_figures`` draw a run; ``html_report`` puts the figures
and the numbers of the JSON summary in one page that needs no network (no scripts, no
fonts, no links); ``write_plots`` saves the same figures as SVG and PNG files. Figures
are drawn without pyplot (no global state) and saved with a fixed SVG hash salt and no
date, so the same arguments always give the same bytes.
"""

from __future__ import annotations

import html
import io
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from naqala.lab import require
from naqala.lab.results import GameResult, split_wins, wilson

#: what each figure shows, in page order (simulate, then the extra ones of compare)
SIMULATE_FIGURES = {
    "win-rate": "Win rate by seat (shared wins split), with 95% Wilson intervals",
    "scores": "Final score distribution by seat",
    "categories": "Mean points per category, stacked, by seat",
    "length": "Game length (rounds and actions)",
    "effects": "Djinn and card effects per game",
}
COMPARE_FIGURES = {
    "differences": "Paired differences, variant − baseline, with 95% intervals "
    "(effect size d_z for means; win rate difference for seats)",
    "win-rate": "Win rate by seat, baseline and variant, with 95% Wilson intervals",
    "scores": "Final score distribution, baseline and variant",
    "categories": "Mean points per category, stacked, by seat: baseline and variant",
    "length": "Game length, baseline and variant",
    "effects": "Djinn and card effects per game, baseline and variant",
}
SALT = "naqala"
COLOURS = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3")


def figure(width: float = 6.4, height: float = 3.6) -> Any:
    """A new matplotlib figure, without pyplot's global state."""
    figure_module = require("matplotlib.figure", "the report and plots")
    return figure_module.Figure(figsize=(width, height), layout="constrained")


def svg_text(figure: Any) -> str:
    """The figure as SVG text, byte-for-byte the same for the same figure."""
    matplotlib = require("matplotlib", "the report and plots")
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": SALT, "svg.fonttype": "path"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    return text[text.index("<svg") :]  # inline: no XML prolog or doctype


def _png_bytes(figure: Any) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=100, metadata={"Software": None})
    return buffer.getvalue()


# -- what the figures show -----------------------------------------------------------------


def seat_categories(results: Sequence[GameResult], players: int) -> dict[str, list[float]]:
    """Mean points per game of each category, by seat."""
    totals: dict[str, list[float]] = {}
    for r in results:
        for seat, per in enumerate(r.categories):
            for name, points in per.items():
                totals.setdefault(name, [0.0] * players)[seat] += points
    n = max(len(results), 1)
    return {name: [x / n for x in row] for name, row in sorted(totals.items())}


def effect_rates(results: Sequence[GameResult]) -> dict[str, float]:
    """How often per game each card changed a game (cards that did at least once)."""
    counts: Counter[str] = Counter()
    for r in results:
        counts.update(r.effects)
    n = max(len(results), 1)
    return {name: counts[name] / n for name in sorted(counts) if counts[name]}


def _win_rates(ax: Any, runs: Sequence[tuple[str, Sequence[GameResult]]], players: int) -> None:
    width = 0.8 / len(runs)
    for k, (label, results) in enumerate(runs):
        n = len(results)
        wins = split_wins(results, players)
        rates = [w / n for w in wins]
        intervals = [wilson(w, n) for w in wins]
        xs = [seat + (k - (len(runs) - 1) / 2) * width for seat in range(players)]
        errors = [
            [r - lo for r, (lo, _) in zip(rates, intervals, strict=True)],
            [hi - r for r, (_, hi) in zip(rates, intervals, strict=True)],
        ]
        ax.bar(xs, rates, width, yerr=errors, capsize=3, label=label, color=COLOURS[k])
    ax.axhline(1 / players, color="grey", linestyle=":", linewidth=1, label="fair share")
    ax.set_xticks(range(players), [f"seat {s + 1}" for s in range(players)])
    ax.set_ylabel("win rate")
    ax.legend(fontsize="small")


def _scores(ax: Any, runs: Sequence[tuple[str, Sequence[GameResult]]], players: int) -> None:
    data, labels, positions = [], [], []
    for seat in range(players):
        for k, (label, results) in enumerate(runs):
            data.append([r.scores[seat] for r in results])
            labels.append(f"{seat + 1}" + (f" {label[0]}" if len(runs) > 1 else ""))
            positions.append(seat * (len(runs) + 1) + k)
    parts = ax.boxplot(data, positions=positions, widths=0.8, patch_artist=True)
    for i, box in enumerate(parts["boxes"]):
        box.set_facecolor(COLOURS[i % len(runs)])
    ax.set_xticks(positions, labels, fontsize="small")
    ax.set_xlabel("seat" + (" (b = baseline, v = variant)" if len(runs) > 1 else ""))
    ax.set_ylabel("final score")


def _categories(ax: Any, runs: Sequence[tuple[str, Sequence[GameResult]]], players: int) -> None:
    names = sorted({c for _, res in runs for r in res for per in r.categories for c in per})
    tab20 = require("matplotlib", "the report and plots").colormaps["tab20"].colors
    palette = [tab20[i % len(tab20)] for i in range(len(names))]
    ticks, tick_labels = [], []
    for k, (label, results) in enumerate(runs):
        table = seat_categories(results, players)
        xs = [seat * (len(runs) + 1) + k for seat in range(players)]
        bottom = [0.0] * players
        for colour, name in zip(palette, names, strict=True):
            values = table.get(name, [0.0] * players)
            ax.bar(xs, values, 0.8, bottom=bottom, color=colour, label=name if k == 0 else None)
            bottom = [b + v for b, v in zip(bottom, values, strict=True)]
        ticks += xs
        tick_labels += [
            f"{s + 1}" + (f" {label[0]}" if len(runs) > 1 else "") for s in range(players)
        ]
    ax.set_xticks(ticks, tick_labels, fontsize="small")
    ax.set_xlabel("seat" + (" (b = baseline, v = variant)" if len(runs) > 1 else ""))
    ax.set_ylabel("mean points per game")
    ax.legend(fontsize="x-small", ncols=2, loc="upper left", bbox_to_anchor=(1, 1))


def _length(axes: Any, runs: Sequence[tuple[str, Sequence[GameResult]]]) -> None:
    for ax, key in zip(axes, ("rounds", "actions"), strict=True):
        values = [[getattr(r, key) for r in results] for _, results in runs]
        low = min(min(v) for v in values)
        high = max(max(v) for v in values)
        bins = range(low, high + 2) if key == "rounds" else 20
        for k, ((label, _), data) in enumerate(zip(runs, values, strict=True)):
            ax.hist(data, bins=bins, alpha=0.6, color=COLOURS[k], label=label)
        ax.set_xlabel(key)
        ax.set_ylabel("games")
    axes[0].legend(fontsize="small")


def _effects(ax: Any, runs: Sequence[tuple[str, Sequence[GameResult]]]) -> None:
    tables = [effect_rates(results) for _, results in runs]
    names = sorted({name for table in tables for name in table})
    if not names:
        ax.text(0.5, 0.5, "no card changed any game", ha="center", va="center")
        ax.set_axis_off()
        return
    height = 0.8 / len(runs)
    for k, ((label, _), table) in enumerate(zip(runs, tables, strict=True)):
        ys = [i + (k - (len(runs) - 1) / 2) * height for i in range(len(names))]
        ax.barh(ys, [table.get(n, 0.0) for n in names], height, color=COLOURS[k], label=label)
    ax.set_yticks(range(len(names)), names, fontsize="x-small")
    ax.invert_yaxis()
    ax.set_xlabel("effects per game")
    ax.legend(fontsize="small")


def _differences(axes: Any, report: Mapping[str, Any]) -> None:
    means = [("score", report["score"])]
    means += [(f"category: {k}", v) for k, v in report["categories"].items()]
    means += [(k, v) for k, v in report["length"].items()]
    ax = axes[0]
    for i, (_name, entry) in enumerate(means):
        dz = entry["effect_size"]["dz"]
        low, high = entry["effect_size"]["ci"]
        finite = None not in (dz, low, high)
        colour = COLOURS[3] if entry["significant"] else COLOURS[0]
        if finite:
            ax.errorbar([dz], [i], xerr=[[dz - low], [high - dz]], fmt="o", color=colour)
    ax.axvline(0, color="grey", linewidth=1)
    ax.set_yticks(range(len(means)), [name for name, _ in means], fontsize="x-small")
    ax.invert_yaxis()
    ax.set_xlabel("effect size d_z (red: significant after Holm)")
    ax = axes[1]
    seats = report["wins_by_seat"]
    for i, entry in enumerate(seats):
        d = entry["difference"]
        low, high = entry["ci"]
        colour = COLOURS[3] if entry["significant"] else COLOURS[0]
        ax.errorbar([d], [i], xerr=[[d - low], [high - d]], fmt="o", color=colour)
    ax.axvline(0, color="grey", linewidth=1)
    ax.set_yticks(range(len(seats)), [f"seat {e['seat']}" for e in seats], fontsize="small")
    ax.invert_yaxis()
    ax.set_xlabel("win rate difference")


def _draw(name: str, runs: Sequence[tuple[str, Sequence[GameResult]]], players: int) -> Any:
    if name == "length":
        fig = figure(6.4, 3.0)
        _length(fig.subplots(1, 2), runs)
        return fig
    tall = name == "effects"
    fig = figure(6.4, 5.5 if tall else 3.6)
    ax = fig.subplots()
    {
        "win-rate": lambda: _win_rates(ax, runs, players),
        "scores": lambda: _scores(ax, runs, players),
        "categories": lambda: _categories(ax, runs, players),
        "effects": lambda: _effects(ax, runs),
    }[name]()
    return fig


def simulate_figures(results: Sequence[GameResult], players: int) -> dict[str, Any]:
    """The figures of one run, by name (``SIMULATE_FIGURES``)."""
    runs = [("games", results)]
    return {name: _draw(name, runs, players) for name in SIMULATE_FIGURES}


def compare_figures(
    baseline: Sequence[GameResult], variant: Sequence[GameResult], report: Mapping[str, Any]
) -> dict[str, Any]:
    """The figures of a comparison, by name (``COMPARE_FIGURES``)."""
    runs = [("baseline", baseline), ("variant", variant)]
    players = report["players"]
    figures: dict[str, Any] = {}
    for name in COMPARE_FIGURES:
        if name == "differences":
            fig = figure(6.4, 4.8)
            _differences(fig.subplots(1, 2, width_ratios=(2, 1)), report)
            figures[name] = fig
        else:
            figures[name] = _draw(name, runs, players)
    return figures


def write_plots(figures: Mapping[str, Any], directory: Path) -> list[Path]:
    """Save every figure as ``NAME.svg`` and ``NAME.png`` in ``directory`` (made if
    needed); the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, figure in figures.items():
        svg = directory / f"{name}.svg"
        svg.write_text(svg_text(figure), encoding="utf-8")
        png = directory / f"{name}.png"
        png.write_bytes(_png_bytes(figure))
        written += [svg, png]
    return written


# -- the page ------------------------------------------------------------------------------

STYLE = """
body { font-family: sans-serif; max-width: 60rem; margin: 2rem auto; color: #222; }
table { border-collapse: collapse; margin: 1rem 0; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.2rem 0.5rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
figure { margin: 1.5rem 0; } figcaption { font-weight: bold; margin-bottom: 0.5rem; }
.partial { background: #fde2e2; border: 2px solid #c44e52; padding: 0.5rem; }
svg { max-width: 100%; height: auto; }
"""


def _cell(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return html.escape(f"{value:g}")
    if isinstance(value, list):
        return html.escape("[" + ", ".join(_cell(v) for v in value) + "]")
    return html.escape(str(value))


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]], css_id: str) -> str:
    """An HTML table of ``rows`` under ``headers`` (cells escaped), for a report page."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{_cell(v)}</td>" for v in row) + "</tr>" for row in rows)
    return f'<table id="{css_id}"><tr>{head}</tr>{body}</table>'


def _simulate_tables(summary: Mapping[str, Any]) -> list[str]:
    seats = [
        [f"seat {i + 1}", w, r["rate"], r["ci"], s]
        for i, (w, r, s) in enumerate(
            zip(
                summary["wins_by_seat"],
                summary["win_rate_by_seat"],
                summary["mean_score_by_seat"],
                strict=True,
            )
        )
    ]
    tables = [
        table(["seat", "wins", "win rate", "95% CI", "mean score"], seats, "table-seats"),
        table(
            ["category", "mean points per player"],
            list(summary["mean_score_by_category"].items()),
            "table-categories",
        ),
    ]
    if "wins_by_agent" in summary:
        agents = [
            [name, e["games"], e["wins"], e["rate"], e["ci"]]
            for name, e in summary["wins_by_agent"].items()
        ]
        tables.append(
            table(["agent", "seats played", "wins", "win rate", "95% CI"], agents, "table-agents")
        )
    if "win_rate_by_start_position" in summary:
        positions = [
            [f"bids {k + 1}.", w, e["rate"], e["ci"]]
            for k, (w, e) in enumerate(
                zip(
                    summary["wins_by_start_position"],
                    summary["win_rate_by_start_position"],
                    strict=True,
                )
            )
        ]
        tables.append(
            table(["first-round position", "wins", "win rate", "95% CI"], positions, "table-start")
        )
    if summary.get("seat_test"):
        test = summary["seat_test"]
        tables.append(
            table(
                ["test", "chi2", "df", "p"],
                [[test["test"], test["chi2"], test["df"], test["p_value"]]],
                "table-seat-test",
            )
        )
    return tables


def compare_tables(report: Mapping[str, Any]) -> list[str]:
    """The paired table of a comparison report (``naqala compare``, ``naqala tune``)."""
    headers = [
        "metric",
        "baseline",
        "variant",
        "difference",
        "95% CI",
        "effect size",
        "p",
        "p (Holm)",
        "significant",
    ]
    rows = []
    wins = [(f"wins, seat {e['seat']}", e) for e in report["wins_by_seat"]]
    positions = report.get("by_position") or []
    wins += [(f"wins, bidding position {e['position']}", e["wins"]) for e in positions]
    for name, entry in wins:
        odds = entry.get("odds_ratio")
        rows.append(
            [
                name,
                entry["baseline"],
                entry["variant"],
                entry["difference"],
                entry["ci"],
                f"odds ratio {_cell(odds['value'])}" if odds else "–",
                entry["p_value"],
                entry["p_holm"],
                "yes" if entry["significant"] else "no",
            ]
        )
    means = [("score", report["score"])]
    means += [(f"category: {k}", v) for k, v in report["categories"].items()]
    means += list(report["length"].items())
    means += [(f"score, bidding position {e['position']}", e["score"]) for e in positions]
    turns = report.get("by_turn_position") or []
    means += [(f"share of rounds 2+ won, turn {e['position']}", e["wins"]) for e in turns]
    for name, entry in means:
        rows.append(
            [
                name,
                entry["baseline"],
                entry["variant"],
                entry["difference"],
                entry["ci"],
                f"d_z {_cell(entry['effect_size']['dz'])}",
                entry["p_value"],
                entry["p_holm"],
                "yes" if entry["significant"] else "no",
            ]
        )
    return [table(headers, rows, "table-paired")]


def _describe(data: Mapping[str, Any]) -> str:
    seats = ", ".join(data.get("seats", [])) or "random"
    rules = (
        f"baseline {' + '.join(data['baseline_plugins'])}, "
        f"variant {' + '.join(data['variant_plugins'])}"
        if "baseline_plugins" in data
        else " + ".join(data["plugins"])
    )
    rotation = ", rotated" if data.get("rotate") else ""
    return (
        f"{data['games']} games of {data['players']} players from seed {data['seed']}; "
        f"seats: {seats}{rotation}; rules: {rules}"
    )


def html_report(
    title: str,
    data: Mapping[str, Any],
    figures: Mapping[str, Any],
    captions: Mapping[str, str],
    tables: Sequence[str] | None = None,
    description: str | None = None,
) -> str:
    """One self-contained HTML page: the command, a partial-run warning if any, the
    tables of ``data``, every figure inline as SVG, and ``data`` itself as JSON. A
    command with a page of its own (``naqala skill``, ``naqala balance``) passes its
    ``tables`` (HTML, from ``table``) and its one-line ``description``."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(title)}</h1>",
        f"<p>{html.escape(description or _describe(data))}</p>",
    ]
    if data.get("partial"):
        parts.append(
            f'<p class="partial">PARTIAL: stopped after {data["games"]} of '
            f"{data['requested']} games.</p>"
        )
    if tables is not None:
        parts += tables
    elif "baseline_plugins" in data:
        parts += compare_tables(data)
    else:
        parts += _simulate_tables(data)
    for name, figure in figures.items():
        parts.append(
            f'<figure id="fig-{name}"><figcaption>{html.escape(captions[name])}</figcaption>'
            f"{svg_text(figure)}</figure>"
        )
    parts.append("<h2>Data</h2>")
    payload = json.dumps(data, indent=1, sort_keys=True)
    parts.append(f'<pre id="data">{html.escape(payload)}</pre>')
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
