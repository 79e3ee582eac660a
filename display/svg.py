"""A game position as an SVG 1.1 picture, built from plain strings (no dependency).

The picture has a header line, the board (tiles by kind with their value badge, meeples
as lettered chips with counts, camels as ``P<n>`` badges, tokens, mountains on edges,
impassable tiles, the text on a tile a plugin asks for, the last move), a side panel
(bid and turn-order tracks, the djinn and resource rows and any other row a plugin
offers, the meeples in hand and the cards being chosen from, bank, draw piles, plugin
rows and a legend), one panel per player and one for what is set aside beside the board.
Every colour is paired with text, so the picture reads the same without colour; every
tile carries a ``<title>`` describing it.

Each drawn component is a group whose class names it, so that tests and pages can find
it: ``tile kind-<kind>``, ``meeple colour-<id>`` (on a tile, in hand, before a player or
set aside), ``token kind-<id>``, ``camel seat-P<n>``, ``card``, ``player``, ``aside``.

The renderer knows no rule: plugins say how their components look through the hook
``naqala_display`` (:mod:`naqala.display.hints`). The same state gives the same bytes.
:func:`svg_parts` returns the picture in pieces (one or two per tile, one per panel) so
that the HTML replay can store each distinct piece once.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

from naqala.core.board import tile_name
from naqala.core.content import DECK_NAMES, DJINNS, RESOURCES
from naqala.core.engine import Rules
from naqala.core.state import (
    NOBODY,
    NON_PLAYER,
    PlayerState,
    State,
    aside_cards,
    aside_meeples,
)
from naqala.display.hints import (
    Display,
    Look,
    collect,
    public_notes_without_display,
    tile_summary,
)
from naqala.display.view import Seen

__all__ = ["PLAYER_COLOURS", "BoardPicture", "board_svg", "last_move", "svg_parts"]

#: seat colours (camels, tents, badges), by seat; every badge also says ``P<n>``
PLAYER_COLOURS = ("#b8326a", "#1d8385", "#d9822b", "#4a5a9c", "#5f8a1f", "#8c564b")
#: the camels of a non-player opponent (the solo mode's Sultan), labelled ``X``
NON_PLAYER_COLOUR = "#3b3b3b"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
PAPER = "#fbf7ef"
INK = "#2b2b2b"
MUTED = "#6b6357"
GRID = "#8f846f"
MOUNTAIN = "#7a4a1f"
HIGHLIGHT = "#ff8c1a"
CARD = "#fffdf8"

TILE = 120  # side of a tile: room for six meeple colours, a note and a row of pieces
MARGIN = 16
LABEL = 22  # room for column letters and row numbers
HEADER = 44
PANEL = 380  # width of the side panel
GAP = 24
CHAR = 0.56  # average character width, in font sizes, for wrapping text


def _fallback(kind: str) -> Look:
    """A plain look for a component no plugin describes."""
    return Look("#e6e1d6", kind.replace("-", " ").capitalize(), kind.replace("-", " "))


def _n(value: float) -> str:
    """A coordinate, written the same way every time."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def _attrs(**values: object) -> str:
    return "".join(
        f" {key.rstrip('_').replace('_', '-')}={quoteattr(_n(v) if isinstance(v, float) else str(v))}"  # noqa: E501
        for key, v in values.items()
    )


def _el(name: str, **values: object) -> str:
    """An empty element (``<circle …/>``) with its attributes."""
    return f"<{name}{_attrs(**values)}/>"


def _text(x: float, y: float, content: str, size: float = 12, **extra: object) -> str:
    return (
        f"<text{_attrs(x=float(x), y=float(y), font_size=size, **extra)}>{escape(content)}</text>"
    )


def _rect(x: float, y: float, w: float, h: float, **extra: object) -> str:
    return _el("rect", x=float(x), y=float(y), width=float(w), height=float(h), **extra)


def _wrap(text: str, width: float, size: float) -> list[str]:
    """``text`` broken at spaces into lines of about ``width`` at font ``size``."""
    limit = max(4, int(width / (size * CHAR)))
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        if line and len(line) + 1 + len(word) > limit:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line or not lines:
        lines.append(line)
    return lines


def seat_label(seat: int) -> str:
    """``P1``…; ``X`` for a tile held by a non-player opponent (the solo mode's Sultan)."""
    return "X" if seat == NON_PLAYER else f"P{seat + 1}"


def seat_colour(seat: int) -> str:
    return NON_PLAYER_COLOUR if seat == NON_PLAYER else PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def _badge(x: float, y: float, seat: int, w: float = 26, h: float = 16) -> str:
    """A seat's badge: a rounded box in its colour with ``P<n>`` written on it."""
    return (
        _rect(x, y, w, h, rx=4, fill=seat_colour(seat), stroke=INK, stroke_width=0.8)
        + _text(
            x + w / 2, y + h - 4, seat_label(seat), h * 0.62, fill="#ffffff",
            font_weight="bold", text_anchor="middle",
        )
    )  # fmt: skip


def _shape(shape: str, cx: float, cy: float, r: float, fill: str, stroke: str = INK) -> str:
    """One of the shapes plugins may ask for, centred on (cx, cy), about ``2r`` wide."""
    common = {"fill": fill, "stroke": stroke, "stroke_width": 1}
    if shape == "square":
        return _rect(cx - r, cy - r, 2 * r, 2 * r, rx=2, **common)
    if shape == "diamond":
        points = f"{_n(cx)},{_n(cy - r * 1.2)} {_n(cx + r * 1.2)},{_n(cy)} "
        points += f"{_n(cx)},{_n(cy + r * 1.2)} {_n(cx - r * 1.2)},{_n(cy)}"
        return _el("polygon", points=points, **common)
    if shape == "tree":
        trunk = _rect(cx - r * 0.15, cy, r * 0.3, r, fill="#7b5230")
        crown = _el("polygon", points=_star(cx, cy - r * 0.2, r, r * 0.45), **common)
        return trunk + crown
    if shape == "palace":
        body = _rect(cx - r, cy - r * 0.2, 2 * r, r * 1.2, **common)
        d = (
            f"M{_n(cx - r * 0.6)},{_n(cy - r * 0.2)} "
            f"A{_n(r * 0.6)},{_n(r * 0.7)} 0 0 1 {_n(cx + r * 0.6)},{_n(cy - r * 0.2)} Z"
        )
        dome = _el("path", d=d, **common)
        return body + dome
    if shape == "tent":
        points = (
            f"{_n(cx - r)},{_n(cy + r * 0.9)} {_n(cx)},{_n(cy - r)} {_n(cx + r)},{_n(cy + r * 0.9)}"
        )
        return _el("polygon", points=points, **common)
    return _el("circle", cx=float(cx), cy=float(cy), r=float(r), **common)


def _star(cx: float, cy: float, outer: float, inner: float) -> str:
    """The points of a six-pointed leafy star (a palm crown)."""
    points = []
    for i in range(12):
        radius = outer if i % 2 == 0 else inner
        angle = math.pi * i / 6 - math.pi / 2
        points.append(f"{_n(cx + radius * math.cos(angle))},{_n(cy + radius * math.sin(angle))}")
    return " ".join(points)


def _chip(cx: float, cy: float, look: Look, count: int, r: float = 10, colour: str = "") -> str:
    """A meeple colour on a tile or in front of a player: a disc with its letter, and the
    count on a small white badge when more than one (wider for two digits). With a
    ``colour`` id the chip is a group of class ``meeple colour-<id>`` (a legend's is not)."""
    out = _el(
        "circle", cx=float(cx), cy=float(cy), r=float(r), fill=look.fill, stroke=INK, stroke_width=1
    )
    out += _text(
        cx,
        cy + r * 0.4,
        look.label,
        r * 1.1,
        fill=look.ink,
        font_weight="bold",
        text_anchor="middle",
    )
    if count > 1:
        out += _count(cx + r * 0.95, cy - r * 0.85, count, r)
    if colour:
        return f'<g class="meeple colour-{colour}">{out}</g>'
    return out


def _count(bx: float, by: float, count: int, r: float) -> str:
    """A count on a small white badge centred on (bx, by), wider for two digits."""
    half, high = r * (0.34 + 0.3 * len(str(count))), r * 0.72
    badge = _rect(
        bx - half, by - high, 2 * half, 2 * high, rx=float(high),
        fill="#ffffff", stroke=INK, stroke_width=0.8,
    )  # fmt: skip
    number = _text(
        bx, by + r * 0.32, str(count), r * 0.9, fill=INK, font_weight="bold", text_anchor="middle"
    )
    return badge + number


def _plural(word: str, n: int) -> str:
    return word if n == 1 else word + "s"


# -- the facts a picture needs -------------------------------------------------------------


class _Scene:
    """A state with the looks and names it is drawn with."""

    def __init__(
        self, rules: Rules, state: State, seat: int | None, reveal: bool, picks: bool = False
    ) -> None:
        self.rules = rules
        self.picks = picks
        self.state = state
        self.seat = seat
        #: what the picture may show of the players' secrets: the seat's view, or
        #: everything at the end of the game or when ``reveal`` is asked for
        self.seen = Seen.of(rules, state, seat, reveal or state.is_over)
        self.display: Display = collect(rules, state)
        self.rows, self.cols = state.layout.rows, state.layout.cols
        self.board_x = MARGIN + LABEL
        self.board_y = HEADER + LABEL
        self.panel_x = self.board_x + self.cols * TILE + GAP
        self.width = self.panel_x + PANEL + MARGIN

    def tile_kind(self, tile: int) -> str:
        spec = self.rules.tile_specs.get(self.state.layout.tiles[tile])
        return spec.kind if spec else self.state.layout.tiles[tile].rsplit("-", 1)[0]

    def tile_look(self, kind: str) -> Look:
        return self.display.tiles.get(kind) or _fallback(kind)

    def meeple_look(self, index: int) -> Look:
        spec = self.rules.colours[index]
        return self.display.meeples.get(spec.id) or Look("#bbbbbb", spec.letter, spec.name)

    def token_look(self, index: int) -> Look:
        spec = self.rules.tokens[index]
        return self.display.tokens.get(spec.id) or Look("#dddddd", spec.name[:1], spec.name)

    def origin(self, tile: int) -> tuple[float, float]:
        row, col = divmod(tile, self.cols)
        return self.board_x + col * TILE, self.board_y + row * TILE

    def centre(self, tile: int) -> tuple[float, float]:
        x, y = self.origin(tile)
        return x + TILE / 2, y + TILE / 2

    def card_name(self, card: str) -> str:
        spec = self.rules.card_specs.get(card)
        if spec is None:
            return card
        return spec.name or spec.id.replace("-", " ").capitalize()

    def card_list(self, cards: Iterable[str]) -> str:
        """Card names in order, a repeated name once with its count (``Fakir ×2``)."""
        counted = Counter(self.card_name(c) for c in cards)
        return ", ".join(f"{name} ×{n}" if n > 1 else name for name, n in counted.items())

    def card_vp(self, card: str) -> str:
        """``6 VP`` under a card worth points, else nothing."""
        spec = self.rules.card_specs.get(card)
        return f"{spec.vp} VP" if spec is not None and spec.vp else ""

    def djinn_name(self, djinn: str) -> str:
        spec = self.rules.card_specs.get(djinn)
        return spec.name if spec else djinn


# -- the board -------------------------------------------------------------------------------


def _tile_ground(scene: _Scene, tile: int) -> str:
    """The tile itself: ground colour, kind, value badge and any text a plugin puts there."""
    rules, state = scene.rules, scene.state
    x, y = scene.origin(tile)
    kind = scene.tile_kind(tile)
    look = scene.tile_look(kind)
    spec = rules.tile_specs.get(state.layout.tiles[tile])
    name = tile_name(tile, scene.cols)
    parts = [
        f'<g id="tile-{name}" class="tile kind-{kind}">',
        f"<title>{escape(_describe(scene, tile))}</title>",
    ]
    parts.append(_rect(x, y, TILE, TILE, fill=look.fill, stroke=GRID, stroke_width=1))
    blocked = tile in state.layout.blocked
    if blocked:
        parts.append(
            _text(
                x + TILE / 2,
                y + TILE / 2 + 5,
                look.label,
                13,
                fill=look.ink,
                font_weight="bold",
                text_anchor="middle",
            )
        )
    else:
        parts.append(_text(x + 6, y + 17, look.label, 11, fill=look.ink, font_weight="bold"))
    if spec is not None and spec.value:
        value = scene.display.values.get(spec.value) or Look("#888888", "", spec.value, "#ffffff")
        cx, cy = x + TILE - 15, y + TILE - 15
        printed = spec.printed or str(spec.vp)
        parts.append(
            '<g class="value">'
            + _shape(value.shape, cx, cy, 11, value.fill)
            + _text(
                cx, cy + 4, printed, 11, fill=value.ink, font_weight="bold", text_anchor="middle"
            )
            + "</g>"
        )
    note = scene.display.tile_notes.get(tile)
    if note:
        parts.append('<g class="note">')
        for i, line in enumerate(_wrap(note, TILE - 10, 9)[:2]):
            parts.append(_text(x + 6, y + 29 + 10 * i, line, 9, fill=INK, font_style="italic"))
        parts.append("</g>")
    parts.append("</g>")
    return "".join(parts)


def _tile_pieces(scene: _Scene, tile: int) -> str:
    """What stands on a tile: meeple chips (three to a row, two rows for six colours,
    under a plugin's note), then one bottom row with the owner's camel and the tokens,
    clear of the value badge in the corner."""
    state = scene.state
    x, y = scene.origin(tile)
    parts: list[str] = []
    colours = [(i, n) for i, n in enumerate(state.board.meeples[tile]) if n]
    top = y + (56 if scene.display.tile_notes.get(tile) else 45)
    for k, (index, n) in enumerate(colours):
        row, col = divmod(k, 3)
        look, colour = scene.meeple_look(index), scene.rules.colours[index].id
        parts.append(_chip(x + 20 + col * 32, top + row * 25, look, n, 9.5, colour))
    owner = state.board.owners[tile]
    if owner != NOBODY:
        camel = _badge(x + 5, y + TILE - 21, owner, 24, 15)
        parts.append(f'<g class="camel seat-{seat_label(owner)}">{camel}</g>')
    # tokens follow the camel on the bottom row, each with its count on a badge; more
    # kinds than fit (the installed boxes have three) are drawn closer together
    kinds = [(i, n) for i, n in enumerate(state.board.tokens[tile]) if n]
    start, end = x + (32 if owner != NOBODY else 5), x + TILE - 31
    step = min(19.0, (end - start) / max(1, len(kinds)))
    base = y + TILE - 13
    for k, (index, n) in enumerate(kinds):
        look = scene.token_look(index)
        fill = seat_colour(owner) if look.owned and owner != NOBODY else look.fill
        cx = start + k * step + 7
        token = _shape(look.shape, cx, base, 6.5, fill)
        if n > 1:
            token += _count(cx + 6.5, base - 7.5, n, 8)
        parts.append(f'<g class="token kind-{scene.rules.tokens[index].id}">{token}</g>')
    if not parts:
        return ""
    name = tile_name(tile, scene.cols)
    return f'<g class="pieces" id="pieces-{name}">{"".join(parts)}</g>'


def _describe(scene: _Scene, tile: int) -> str:
    """The full text of a tile, for its ``<title>`` (screen readers, tooltips)."""
    rules, state = scene.rules, scene.state
    kind = scene.tile_kind(tile)
    spec = rules.tile_specs.get(state.layout.tiles[tile])
    words = [f"{tile_name(tile, scene.cols)}: {scene.tile_look(kind).name or kind}"]
    summary = tile_summary(rules, kind)
    if summary:
        words.append(summary.split(": ", 1)[-1])  # the action, the kind being named
    if spec is not None and spec.value:
        words.append(f"{spec.value} value {spec.printed or spec.vp}")
    if tile in state.layout.blocked:
        words.append("impassable")
    meeples = [
        f"{n} {scene.meeple_look(i).name or rules.colours[i].name}"
        for i, n in enumerate(state.board.meeples[tile])
        if n
    ]
    if meeples:
        words.append("meeples: " + ", ".join(meeples))
    owner = state.board.owners[tile]
    if owner != NOBODY:
        words.append(f"camel of {seat_label(owner)}")
    for index, n in enumerate(state.board.tokens[tile]):
        if n:
            words.append(f"{n} {scene.token_look(index).name or rules.tokens[index].name}")
    note = scene.display.tile_notes.get(tile)
    if note:
        words.append(note)
    return "; ".join(words)


def _coordinates(scene: _Scene) -> str:
    parts = ['<g class="coordinates">']
    for col in range(scene.cols):
        x = scene.board_x + col * TILE + TILE / 2
        parts.append(
            _text(
                x,
                scene.board_y - 7,
                tile_name(col, scene.cols)[0],
                13,
                fill=MUTED,
                font_weight="bold",
                text_anchor="middle",
            )
        )
    for row in range(scene.rows):
        y = scene.board_y + row * TILE + TILE / 2 + 5
        parts.append(
            _text(
                scene.board_x - 8,
                y,
                str(row + 1),
                13,
                fill=MUTED,
                font_weight="bold",
                text_anchor="end",
            )
        )
    parts.append("</g>")
    return "".join(parts)


def _mountains(scene: _Scene) -> str:
    """Each wall as a brown ridge along the edge it blocks."""
    walls = sorted(scene.state.layout.walls)
    if not walls:
        return ""
    parts = ['<g class="mountains">']
    for a, b in walls:
        ax, ay = scene.origin(a)
        if b == a + 1:  # side by side: a vertical edge
            x0, y0, x1, y1 = ax + TILE, ay, ax + TILE, ay + TILE
        else:
            x0, y0, x1, y1 = ax, ay + TILE, ax + TILE, ay + TILE
        parts.append(
            f"<title>mountain between {tile_name(a, scene.cols)} and "
            f"{tile_name(b, scene.cols)}</title>"
        )
        parts.append(_ridge(x0, y0, x1, y1))
    parts.append("</g>")
    return "".join(parts)


def _ridge(x0: float, y0: float, x1: float, y1: float, peaks: int = 5) -> str:
    """A thick line with a row of small peaks on it: a mountain range."""
    out = _el(
        "line",
        x1=float(x0),
        y1=float(y0),
        x2=float(x1),
        y2=float(y1),
        stroke=MOUNTAIN,
        stroke_width=5,
        stroke_linecap="round",
    )
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    step = length / peaks
    for i in range(peaks):
        cx, cy = x0 + ux * step * (i + 0.5), y0 + uy * step * (i + 0.5)
        half = step * 0.38
        points = (
            f"{_n(cx - ux * half)},{_n(cy - uy * half + 4)} {_n(cx)},{_n(cy - 9)} "
            f"{_n(cx + ux * half)},{_n(cy + uy * half + 4)}"
        )
        out += _el("polygon", points=points, fill="#a0703f", stroke=MOUNTAIN, stroke_width=1.2)
    return out


def last_move(state: State) -> tuple[int, ...]:
    """The tiles of the meeple move of the turn in progress (start, then each drop), or
    nothing when no move has started."""
    turn = state.turn
    if turn is None or turn.start == NOBODY:
        return ()
    return (turn.start, *turn.path)


def _move(scene: _Scene, move: Sequence[int]) -> str:
    """The move's path from tile centre to tile centre, its start ringed, its last tile
    framed."""
    if not move:
        return ""
    route = "→".join(tile_name(t, scene.cols) for t in move)
    parts = ['<g class="last-move">', f"<title>last move {escape(route)}</title>"]
    if len(move) > 1:
        points = " ".join(f"{_n(cx)},{_n(cy)}" for cx, cy in (scene.centre(t) for t in move))
        parts.append(
            _el(
                "polyline",
                points=points,
                fill="none",
                stroke=HIGHLIGHT,
                stroke_width=6,
                stroke_opacity=0.7,
                stroke_linecap="round",
                stroke_linejoin="round",
            )
        )
    sx, sy = scene.centre(move[0])
    parts.append(
        _el(
            "circle",
            cx=float(sx),
            cy=float(sy),
            r=7.0,
            fill="#ffffff",
            stroke=HIGHLIGHT,
            stroke_width=3,
        )
    )
    ex, ey = scene.origin(move[-1])
    parts.append(
        _rect(ex + 2, ey + 2, TILE - 4, TILE - 4, fill="none", stroke=HIGHLIGHT, stroke_width=4)
    )
    parts.append("</g>")
    return "".join(parts)


# -- header, side panel, players -----------------------------------------------------------


def _header(scene: _Scene, move: Sequence[int]) -> str:
    state = scene.state
    words = [f"Round {state.round}"]
    if state.is_over:
        words.append("game over")
    elif state.decision.player == NOBODY:
        words.append(state.decision.stage)
    else:
        words.append(f"{seat_label(state.decision.player)} to decide: {state.decision.stage}")
    turn = state.turn
    if turn is not None and not state.is_over:
        owner = state.markers[turn.marker]
        if owner != state.decision.player:
            words.append(f"turn of {seat_label(owner)}")
    if move:
        done = tuple(move) != last_move(state)  # a finished move shown after its turn
        route = "→".join(tile_name(t, scene.cols) for t in move)
        words.append(("last move " if done else "move ") + route)
    if state.flags:
        words.append(", ".join(state.flags))
    if scene.seat is not None and not state.is_over:
        words.append(f"seen by {seat_label(scene.seat)}")
    line = _text(MARGIN, 30, " · ".join(words), 17, fill=INK, font_weight="bold")
    return f'<g class="header">{line}</g>'


class _Column:
    """Lines laid out downwards in the side panel."""

    def __init__(self, x: float, y: float, width: float, picks: bool = False) -> None:
        self.x, self.y, self.width = x, y, width
        self.parts: list[str] = []
        #: whether spots and cards carry ``data-pick`` (for a page that acts on clicks)
        self.picks = picks

    def pick(self, what: str) -> str:
        """`` data-pick="…"`` when the picture is for a page that acts on clicks."""
        return f" data-pick={quoteattr(what)}" if self.picks else ""

    def title(self, text: str) -> None:
        self.y += 18
        self.parts.append(_text(self.x, self.y, text, 13, fill=INK, font_weight="bold"))
        self.y += 6

    def line(self, text: str, size: float = 11.5, fill: str = INK) -> None:
        for piece in _wrap(text, self.width, size):
            self.y += size + 4
            self.parts.append(_text(self.x, self.y, piece, size, fill=fill))


def _slots(column: _Column, state: State, markers: Sequence[int], labels: Sequence[str]) -> None:
    """A track: one box per spot, with the badge of the marker's owner on it and the
    spot's label under it. A labelled spot is a group whose ``data-pick`` (when the
    column has picks) is its label (what a bid names), so that a page can act on a click."""
    width = min(36.0, column.width / max(1, len(markers)))
    top = column.y + 4
    for i, marker in enumerate(markers):
        x = column.x + i * width
        if i < len(labels):
            column.parts.append(f'<g class="spot"{column.pick(labels[i])}>')
        column.parts.append(
            _rect(x, top, width - 4, 24, rx=3, fill=CARD, stroke=GRID, stroke_width=0.8)
        )
        if marker == NOBODY:
            column.parts.append(
                _text(x + (width - 4) / 2, top + 16, "·", 12, fill=MUTED, text_anchor="middle")
            )
        else:
            owner = state.markers[marker]
            badge = _badge(x + (width - 4) / 2 - 12, top + 4, owner, 24, 16)
            column.parts.append(f'<g class="marker seat-{seat_label(owner)}">{badge}</g>')
        if i < len(labels):
            column.parts.append(
                _text(
                    x + (width - 4) / 2, top + 37, labels[i], 10, fill=MUTED, text_anchor="middle"
                )
            )
            column.parts.append("</g>")
    column.y = top + (40 if labels else 26)


def _cards(
    column: _Column, names: Sequence[tuple[str, str]], per_row: int, ids: Sequence[str] = ()
) -> None:
    """Face-up cards: small boxes with a name and a second line (``VP 5``) if any, each a
    group of class ``card``; a card whose id is given has it as ``data-pick`` when the
    column has picks, for a page to act on a click."""
    if not names:
        column.line("none", fill=MUTED)
        return
    width = column.width / per_row
    tall = any(sub for _, sub in names)
    height = 34 if tall else 22
    top = column.y + 4
    for i, (name, sub) in enumerate(names):
        row, col = divmod(i, per_row)
        x, y = column.x + col * width, top + row * (height + 4)
        column.parts.append(f'<g class="card"{column.pick(ids[i]) if i < len(ids) else ""}>')
        column.parts.append(
            _rect(x, y, width - 4, height, rx=3, fill=CARD, stroke=GRID, stroke_width=0.8)
        )
        shown = (
            name
            if len(name) * 11 * CHAR < width - 10
            else name[: int((width - 12) / (10 * CHAR))] + "…"
        )
        column.parts.append(
            _text(x + 5, y + 15, shown, 11, fill=INK, font_weight="bold" if sub else "normal")
        )
        if sub:
            column.parts.append(_text(x + 5, y + 28, sub, 9.5, fill=MUTED))
        column.parts.append("</g>")
    rows = (len(names) + per_row - 1) // per_row
    column.y = top + rows * (height + 4)


def _panel(scene: _Scene) -> tuple[str, float]:
    """The side panel and the height it takes."""
    rules, state = scene.rules, scene.state
    column = _Column(scene.panel_x, HEADER - 6, PANEL, scene.picks)
    column.title("Bid order")
    _slots(column, state, state.bid_track, ())
    column.title("Turn order")
    _slots(column, state, state.turn_track, scene.display.turn_spots)
    offers = [
        (DJINNS, "Djinns on offer"),
        (RESOURCES, "Resources on offer"),
    ]
    offers += [
        (deck, f"{deck.capitalize()} on offer")
        for deck in scene.display.offers
        if deck not in DECK_NAMES  # the djinns and resources are always offered
    ]
    for deck, title in offers:
        column.title(title)
        offered = [c for c in state.decks[rules.deck_index[deck]].row if c]
        names = [(scene.card_name(c), scene.card_vp(c)) for c in offered]
        column.parts.append(f'<g class="offer deck-{deck}">')
        _cards(column, names, 3, offered)
        column.parts.append("</g>")
    _this_turn(scene, column)
    column.title("Bank and piles")
    bank = ", ".join(
        f"{n} {_plural(spec.name.lower(), n)}"
        for spec, n in zip(rules.tokens, state.pool, strict=True)
    )
    column.line(f"Bank: {bank}; bag: {sum(state.bag)} meeples")
    piles = ", ".join(f"{name} {scene.seen.piles[name]}" for name in rules.deck_names)
    column.line(f"Draw piles: {piles}")
    discards = [
        _discard(scene, name, state.decks[index].discard)
        for index, name in enumerate(rules.deck_names)
        if state.decks[index].discard
    ]
    if discards:
        column.line(f"Discard piles (face up): {'; '.join(discards)}")
    for label, text in scene.display.rows:
        column.line(f"{label}: {text}")
    for note in public_notes_without_display(rules, state):
        column.line(note)
    _legend(scene, column)
    return f'<g class="panel">{"".join(column.parts)}</g>', column.y


def _discard(scene: _Scene, deck: str, cards: Sequence[str]) -> str:
    """A discard pile: its size, and the cards by name but for the resources (many, and
    all alike to look back on)."""
    if deck == RESOURCES:
        return f"{deck} {len(cards)}"
    return f"{deck} {len(cards)} ({scene.card_list(sorted(cards))})"


def _this_turn(scene: _Scene, column: _Column) -> None:
    """The meeples in hand during a move, those taken at its end and the cards drawn to
    choose from (their number only, to a seat that may not see them)."""
    turn = scene.state.turn
    if turn is None or scene.state.is_over:
        return
    rules = scene.rules
    hand = [(i, n) for i, n in enumerate(turn.hand) if n]
    revealed = scene.seen.revealed
    taken = turn.taken if turn.colour != NOBODY else 0
    if not hand and not taken and not revealed:
        return
    column.title("This turn")
    column.parts.append('<g class="this-turn">')
    for label, counts in (("In hand", hand), ("Taken", [(turn.colour, taken)] if taken else [])):
        if not counts:
            continue
        top = column.y + 4
        column.parts.append(_text(column.x, top + 15, label, 11.5, fill=INK))
        for k, (index, n) in enumerate(counts):
            look = scene.meeple_look(index)
            column.parts.append(
                _chip(column.x + 70 + k * 36, top + 11, look, n, 9.5, rules.colours[index].id)
            )
        column.y = top + 24
    if isinstance(revealed, int):
        if revealed:
            column.line(f"Cards drawn to choose from: {revealed} (hidden)")
    elif revealed:
        column.line("Cards drawn to choose from:")
        _cards(column, [(scene.card_name(c), scene.card_vp(c)) for c in revealed], 3)
    column.parts.append("</g>")


def _legend(scene: _Scene, column: _Column) -> None:
    """What each mark means: meeple letters, tokens, value badges, mountains, the move."""
    rules, state = scene.rules, scene.state
    column.title("Legend")
    entries: list[tuple[str, str]] = []
    for i in range(len(rules.colours)):
        look = scene.meeple_look(i)
        entries.append((_chip(0, 0, look, 1, 8), look.name or rules.colours[i].name))
    for i in range(len(rules.tokens)):
        look = scene.token_look(i)
        entries.append((_shape(look.shape, 0, 0, 7, look.fill), look.name or rules.tokens[i].name))
    values = {spec.value for spec in rules.content.tiles if spec.value}
    for value in sorted(values):
        badge = scene.display.values.get(value)
        if badge is not None:
            entries.append((_shape(badge.shape, 0, 0, 7, badge.fill), badge.name or value))
    entries.append((_badge(-12, -8, 0, 24, 15), "camel of player 1"))
    if NON_PLAYER in state.board.owners:
        who = scene.display.aside_title or "the non-player"
        entries.append((_badge(-12, -8, NON_PLAYER, 24, 15), f"camel of {who}"))
    if state.layout.walls:
        entries.append(
            (
                _el("line", x1=-10.0, y1=0.0, x2=10.0, y2=0.0, stroke=MOUNTAIN, stroke_width=5),
                "mountain",
            )
        )
    entries.append(
        (
            _el("line", x1=-10.0, y1=0.0, x2=10.0, y2=0.0, stroke=HIGHLIGHT, stroke_width=5),
            "last move",
        )
    )
    half = column.width / 2
    top = column.y + 4
    for k, (mark, name) in enumerate(entries):
        row, col = divmod(k, 2)
        x, y = column.x + col * half + 12, top + row * 21 + 10
        column.parts.append(f'<g transform="translate({_n(x)},{_n(y)})">{mark}</g>')
        column.parts.append(_text(x + 20, y + 4, name, 10.5, fill=INK))
    column.y = top + ((len(entries) + 1) // 2) * 21


def _player_lines(scene: _Scene, seat: int, player: PlayerState) -> list[str]:
    """The text lines of a player's panel under its chips."""
    state = scene.state
    holding = scene.seen.players[seat]
    tiles = sum(1 for owner in state.board.owners if owner == seat)
    coins = "?" if holding.coins is None else str(holding.coins)
    lines = [f"Coins {coins} · Camels {player.camels} · Tiles {tiles}"]
    for prefix, label in scene.display.counter_lines.items():
        shown = [f"{k[len(prefix) :]} {v}" for k, v in player.extras if k.startswith(prefix) and v]
        if shown:
            lines.append(f"{label}: " + ", ".join(shown))
    if holding.djinns_hidden:
        lines.append(f"Djinns: {holding.hidden['djinns']} (hidden)")
    else:
        djinns = ", ".join(scene.djinn_name(d) for d in holding.djinns) or "none"
        lines.append(f"Djinns: {djinns}")
    for deck in scene.rules.deck_names:
        if deck == DJINNS:
            continue
        label = deck.capitalize()
        if deck in holding.hidden:
            lines.append(f"{label}: {holding.hidden[deck]} (hidden)")
        elif holding.hands.get(deck) or deck == RESOURCES:
            cards = holding.hands.get(deck, ())
            lines.append(f"{label} ({len(cards)}): {scene.card_list(cards) or 'none'}")
    return lines


def _aside(scene: _Scene) -> tuple[str, list[tuple[int, int]], list[str]] | None:
    """The area beside the board (a non-player opponent's): its title, its meeples by
    colour index and its text lines; None when nothing is set aside there and no plugin
    names it."""
    rules, state = scene.rules, scene.state
    meeples = [
        (i, n) for i, spec in enumerate(rules.colours) if (n := aside_meeples(state, spec.id))
    ]
    cards = aside_cards(state)
    title = scene.display.aside_title
    if not (title or meeples or cards):
        return None
    lines = list(scene.display.aside_lines)
    for deck in rules.deck_names:
        held = [c for c in sorted(cards) for _ in range(cards[c]) if _deck_of(rules, c) == deck]
        if held:
            lines.append(f"{deck.capitalize()} ({len(held)}): {scene.card_list(held)}")
    if not meeples and not cards:
        lines.append("Nothing set aside yet")
    return title or "Beside the board", meeples, lines


def _deck_of(rules: Rules, card: str) -> str:
    spec = rules.card_specs.get(card)
    return spec.deck if spec is not None else ""


def _panel_box(x: float, top: float, width: float, height: float, colour: str, title: str) -> str:
    return (
        _rect(x, top, width, height, rx=6, fill=CARD, stroke=colour, stroke_width=2)
        + _rect(x, top, width, 22, rx=6, fill=colour)
        + _text(x + 8, top + 16, title, 12.5, fill="#ffffff", font_weight="bold")
    )


def _held_chip(scene: _Scene, cx: float, cy: float, index: int, n: int) -> str:
    """A meeple colour in front of a player or set aside: its chip and ``×n``."""
    chip = _chip(cx, cy, scene.meeple_look(index), 1, 9)
    count = _text(cx + 13, cy + 5, f"×{n}", 11.5, fill=INK, font_weight="bold")
    return f'<g class="meeple colour-{scene.rules.colours[index].id}">{chip}{count}</g>'


def _players(scene: _Scene, top: float) -> tuple[list[str], float]:
    """One panel per player, side by side under the board, then the area beside the
    board if anything is set aside there; the parts and the bottom."""
    rules, state = scene.rules, scene.state
    aside = _aside(scene)
    count = len(state.players) + (aside is not None)
    width = (scene.width - 2 * MARGIN - (count - 1) * 10) / count
    kept = [
        i
        for i, spec in enumerate(rules.colours)
        if spec.kept or any(p.meeples[i] for p in state.players)
    ]
    lines = [_player_lines(scene, s, p) for s, p in enumerate(state.players)]
    if aside is not None:
        lines.append(aside[2])
    texts = [[piece for line in ls for piece in _wrap(line, width - 16, 11)] for ls in lines]
    height = 56 + 15 * max(len(t) for t in texts) + 8

    def step(chips: int) -> float:
        """The distance between held chips, closer when a narrow panel has many."""
        return min(56.0, (width - 40) / max(1, chips))

    parts = []
    for seat, player in enumerate(state.players):
        x = MARGIN + seat * (width + 10)
        title = seat_label(seat)
        if seat == scene.seat:
            title += " (you)"
        if seat == state.decision.player:
            title += " · to decide"
        out = [f'<g class="player" id="player-{seat + 1}">']
        out.append(_panel_box(x, top, width, height, seat_colour(seat), title))
        for k, index in enumerate(kept):
            cx = x + 18 + k * step(len(kept))
            out.append(_held_chip(scene, cx, top + 38, index, player.meeples[index]))
        for i, line in enumerate(texts[seat]):
            out.append(_text(x + 8, top + 70 + 15 * i, line, 11, fill=INK))
        out.append("</g>")
        parts.append("".join(out))
    if aside is not None:
        title, meeples, _ = aside
        x = MARGIN + len(state.players) * (width + 10)
        out = ['<g class="aside" id="aside">']
        out.append(_panel_box(x, top, width, height, NON_PLAYER_COLOUR, f"X · {title}"))
        for k, (index, n) in enumerate(meeples):
            out.append(_held_chip(scene, x + 18 + k * step(len(meeples)), top + 38, index, n))
        for i, line in enumerate(texts[-1]):
            out.append(_text(x + 8, top + 70 + 15 * i, line, 11, fill=INK))
        out.append("</g>")
        parts.append("".join(out))
    return parts, top + height


# -- the whole picture -----------------------------------------------------------------------


def svg_parts(
    rules: Rules,
    state: State,
    seat: int | None = None,
    reveal: bool = False,
    move: Sequence[int] | None = None,
    picks: bool = False,
) -> list[str]:
    """The picture of ``state`` as an ordered list of SVG fragments; joined they are one
    ``<svg>`` element. ``seat`` sees their own coins and cards (everybody's at the end or
    with ``reveal``); ``move`` (tiles, start first) is highlighted, by default the move of
    the turn in progress. ``picks`` adds ``data-pick`` attributes to the track spots and
    the cards on offer, for a web page that acts on clicks (HTML5 allows them; a
    standalone SVG 1.1 document does not, so it is off by default)."""
    scene = _Scene(rules, state, seat, reveal, picks)
    if move is None:
        move = last_move(state)
    size = scene.rows * scene.cols
    grounds = [_tile_ground(scene, t) for t in range(size)]
    pieces = [_tile_pieces(scene, t) for t in range(size)]
    panel, panel_bottom = _panel(scene)
    board_bottom = scene.board_y + scene.rows * TILE
    players, bottom = _players(scene, max(board_bottom, panel_bottom) + 18)
    height = bottom + MARGIN
    title = _plain_header(scene, move)
    opening = (
        '<svg xmlns="http://www.w3.org/2000/svg" version="1.1"'
        + _attrs(
            width=scene.width,
            height=_n(height),
            viewBox=f"0 0 {scene.width} {_n(height)}",
            font_family=FONT,
        )
        + ">"
        f"<title>{escape(title)}</title>"
        f"<desc>Five Tribes position drawn by naqala: board {scene.rows}×{scene.cols}, "
        f"{len(state.players)} players.</desc>" + _rect(0, 0, scene.width, height, fill=PAPER)
    )
    frame = _rect(
        scene.board_x - 3,
        scene.board_y - 3,
        scene.cols * TILE + 6,
        scene.rows * TILE + 6,
        rx=4,
        fill=GRID,
    )
    return [
        opening,
        _header(scene, move),
        _coordinates(scene) + frame,
        *grounds,
        _mountains(scene),
        _move(scene, move),
        *(p for p in pieces if p),
        panel,
        *players,
        "</svg>",
    ]


def _plain_header(scene: _Scene, move: Sequence[int]) -> str:
    """The header line as plain text (the picture's title)."""
    fragment = _header(scene, move)
    start = fragment.index(">", fragment.index("<text")) + 1
    return fragment[start : fragment.index("</text>")].replace("&amp;", "&")


def board_svg(
    rules: Rules,
    state: State,
    seat: int | None = None,
    reveal: bool = False,
    move: Sequence[int] | None = None,
) -> str:
    """The picture of ``state`` as a standalone SVG 1.1 document (see :func:`svg_parts`)."""
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        + "".join(svg_parts(rules, state, seat, reveal, move))
        + "\n"
    )


class BoardPicture:
    """A position with its viewer, shown as the board by notebooks (``_repr_svg_``)."""

    def __init__(
        self,
        rules: Rules,
        state: State,
        seat: int | None = None,
        reveal: bool = False,
        move: Iterable[int] | None = None,
    ) -> None:
        self.rules = rules
        self.state = state
        self.seat = seat
        self.reveal = reveal
        self.move = None if move is None else tuple(move)

    def _repr_svg_(self) -> str:
        return "".join(svg_parts(self.rules, self.state, self.seat, self.reveal, self.move))

    def to_svg(self) -> str:
        return board_svg(self.rules, self.state, self.seat, self.reveal, self.move)
