"""The terminal picture of a game position, drawn with rich.

``render_state(rules, state, viewer)`` gives a renderable: a header line (round, who
decides what, the move in progress), the board grid, a legend, the tracks, card rows and
bank, and each player's public holdings. Players' coins and cards and the draw piles are
drawn from the engine's view for ``viewer`` (``naqala.core.views.view_for``, through
``naqala.display.view``, shared with the SVG picture), so the picture shows exactly what
that seat may know: their own coins and cards, the others' only as ``?`` and counts.

Every fact is written as text as well as shown in colour, so the picture reads the same
with ``NO_COLOR`` or on a console without colour. The grid narrows its cells to fit the
console: a 6×7 board fits 80 columns.

Reading a tile (two lines, more if a tile holds many meeples or tokens)::

    ┌──────────┐
    │ SAC b12  │   kind, value colour (b blue, r red, none if valueless) and VP
    │ YWR c2 1T│   meeples by colour letter (counts like 2Y3W when they do not fit),
    └──────────┘   then the owner's camel (c2 = player 2) and tokens (T palm tree, H palace)

An empty tile shows ``·`` (or only its camel and tokens).

Impassable tiles are filled with ``#``; a mountain (wall) between two tiles is drawn as a
heavy border ``┃`` or ``━`` on that edge.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence

from rich.color import Color, ColorParseError
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from naqala.core.board import edge, tile_name
from naqala.core.content import DECK_NAMES, DJINNS, RESOURCES
from naqala.core.engine import Rules
from naqala.core.scoresheet import visible_scores
from naqala.core.state import NOBODY, NON_PLAYER, Counts, State
from naqala.display.decisions import decision_title, djinn_brief, djinn_offer
from naqala.display.hints import Display, collect
from naqala.display.view import Holding, Seen

__all__ = ["KIND_ABBREVIATIONS", "TOKEN_LETTERS", "render_state"]

#: short names of the base tile kinds; other kinds show their first three letters
KIND_ABBREVIATIONS = {
    "village": "VIL",
    "sacred-place": "SAC",
    "oasis": "OAS",
    "small-market": "SMK",
    "large-market": "LMK",
}
#: letters of the base token kinds; other kinds take a free letter of their name
TOKEN_LETTERS = {"palm-tree": "T", "palace": "H"}  # H: P is the artisans' meeple letter
#: value colour → the letter written next to the VP, and its style
VALUE_MARKS = {"blue": ("b", "bold blue"), "red": ("r", "bold red"), "": ("", "")}
#: styles for players' seats and camels, by seat
SEAT_STYLES = ("bold magenta", "bold cyan", "bold green", "bold yellow", "bold red", "bold blue")

WALL_STYLE = "bold dark_orange3"
BLOCKED_STYLE = "dim"
MIN_CELL = 7  # narrowest tile cell, borders excluded ("SAC b15" plus a space)
MAX_CELL = 10  # widest tile cell


# -- box drawing ---------------------------------------------------------------------------


def _box_table() -> dict[tuple[int, int, int, int], str]:
    """Box-drawing characters by the weight (0 none, 1 light, 2 heavy) of their up, down,
    left and right arms, read from the Unicode names (every light/heavy mix exists)."""
    weights = {"LIGHT": 1, "HEAVY": 2}
    arms_of = {
        "UP": ("UP",),
        "DOWN": ("DOWN",),
        "LEFT": ("LEFT",),
        "RIGHT": ("RIGHT",),
        "VERTICAL": ("UP", "DOWN"),
        "HORIZONTAL": ("LEFT", "RIGHT"),
    }
    table: dict[tuple[int, int, int, int], str] = {}
    for code in range(0x2500, 0x2580):
        words = unicodedata.name(chr(code), "").removeprefix("BOX DRAWINGS ").split()
        if not words or any(w not in weights and w not in arms_of and w != "AND" for w in words):
            continue  # dashed, double, arc and diagonal lines
        arms: dict[str, int] = {}
        weight_first = words[0] in weights  # "LIGHT DOWN AND RIGHT" or "DOWN LIGHT AND ..."
        current = 0
        pending: list[str] = []
        for word in words:
            if word in weights:
                if pending:
                    arms.update(dict.fromkeys(pending, weights[word]))
                    pending = []
                else:
                    current = weights[word]
            elif word in arms_of:
                if weight_first:
                    arms.update(dict.fromkeys(arms_of[word], current))
                else:
                    pending.extend(arms_of[word])
        key = (arms.get("UP", 0), arms.get("DOWN", 0), arms.get("LEFT", 0), arms.get("RIGHT", 0))
        table.setdefault(key, chr(code))
    return table


_BOX = _box_table()


def _junction(up: int, down: int, left: int, right: int) -> str:
    return _BOX.get((up, down, left, right), "+")


# -- small pieces --------------------------------------------------------------------------


def seat_name(player: int) -> str:
    """``P1``… for player index 0…"""
    return f"P{player + 1}"


def _seat_style(player: int) -> str:
    return SEAT_STYLES[player % len(SEAT_STYLES)]


def kind_abbreviation(kind: str) -> str:
    """``SAC`` for sacred places…; unknown kinds: their first three letters, upper-cased."""
    return KIND_ABBREVIATIONS.get(kind, kind.replace("-", "")[:3].upper())


def token_letters(rules: Rules) -> tuple[str, ...]:
    """One distinct capital letter per token kind, by token index."""
    letters: list[str] = []
    for spec in rules.tokens:
        wanted = TOKEN_LETTERS.get(spec.id)
        candidates = [wanted] if wanted else []
        candidates += [c.upper() for c in spec.name + spec.id if c.isalpha()]
        candidates += list("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        letters.append(next(c for c in candidates if c not in letters))
    return tuple(letters)


def _colour_style(colour_id: str) -> str:
    try:
        Color.parse(colour_id)
    except ColorParseError:
        return "bold"
    return f"bold {colour_id}"


def _meeple_pieces(rules: Rules, counts: Counts, width: int) -> list[Text]:
    """Meeples as letters (``YWWR``), or as counts (``2Y3W``) when the letters are too
    long; one piece per colour, for wrapping."""
    total = sum(counts)
    pieces: list[Text] = []
    for index, n in enumerate(counts):
        if n:
            spec = rules.colours[index]
            label = spec.letter * n if total <= width else f"{n}{spec.letter}"
            pieces.append(Text(label, style=_colour_style(spec.id)))
    return pieces


def _letters(rules: Rules, counts: Counts) -> str:
    return "".join(rules.letters[i] * n for i, n in enumerate(counts))


def _wrap(pieces: Sequence[Text], width: int, separator: str) -> list[Text]:
    """Greedy line filling: pieces stay whole (a piece longer than ``width`` is split)."""
    lines: list[Text] = []
    line = Text()
    for piece in pieces:
        while piece.cell_len > width:  # only a count of thousands is this long
            head, piece = piece[:width], piece[width:]
            if line.plain:
                lines.append(line)
            lines.append(head)
            line = Text()
        gap = separator if line.plain else ""
        if line.cell_len + len(gap) + piece.cell_len > width:
            lines.append(line)
            line, gap = Text(), ""
        line.append(gap)
        line.append_text(piece)
    if line.plain or not lines:
        lines.append(line)
    return lines


def _plural(name: str, n: int) -> str:
    return name if n == 1 else name + "s"


# -- the board -----------------------------------------------------------------------------


def _cell_lines(
    rules: Rules, state: State, tile: int, width: int, letters: Sequence[str]
) -> list[Text]:
    """The lines of one tile's cell, each at most ``width`` cells wide (no padding);
    ``letters`` are the token letters."""
    spec = rules.tile_specs.get(state.layout.tiles[tile])
    kind = spec.kind if spec else state.layout.tiles[tile].rsplit("-", 1)[0]
    mark, value_style = VALUE_MARKS.get(spec.value if spec else "", ("?", ""))
    head = Text(kind_abbreviation(kind), style=value_style or "bold")
    head.append(" ")
    value = (spec.printed or spec.vp) if spec else "?"
    head.append(f"{mark}{value}", style=value_style)
    lines = [head]

    meeples = _meeple_pieces(rules, state.board.meeples[tile], width)
    body = _wrap(meeples, width, "") if meeples else []
    extras: list[Text] = []
    owner = state.board.owners[tile]
    if owner == NON_PLAYER:
        extras.append(Text("cX", style="bold magenta"))
    elif owner != NOBODY:
        extras.append(Text(f"c{owner + 1}", style=_seat_style(owner)))
    for letter, n in zip(letters, state.board.tokens[tile], strict=True):
        if n:
            extras.append(Text(f"{n}{letter}", style="bold green" if letter == "T" else "bold"))
    more = _wrap(extras, width, " ") if extras else []
    if body and more and body[-1].cell_len + 1 + more[0].cell_len <= width:
        body[-1].append(" ")
        body[-1].append_text(more.pop(0))  # camel and tokens after the meeples
    body += more
    if not body:
        blocked = tile in state.layout.blocked
        body = [Text("#" * width, style=BLOCKED_STYLE) if blocked else Text("·", style="dim")]
    return lines + body


def _board(rules: Rules, state: State, max_width: int) -> Text:
    """The grid with column letters above and row numbers on the left."""
    rows, cols = state.layout.rows, state.layout.cols
    walls = state.layout.walls
    margin = len(str(rows)) + 1
    cell = max(MIN_CELL, min(MAX_CELL, (max_width - margin - 1) // cols - 1))
    inner = cell - 1  # one space of padding on the left of each cell
    tokens = token_letters(rules)

    def tile(r: int, c: int) -> int:
        return r * cols + c

    def vertical(r: int, line: int) -> int:
        """Weight of the vertical border left of column ``line`` in row ``r``."""
        if r < 0 or r >= rows:
            return 0
        if 0 < line < cols and edge(tile(r, line - 1), tile(r, line)) in walls:
            return 2
        return 1

    def horizontal(line: int, c: int) -> int:
        """Weight of the horizontal border above row ``line`` in column ``c``."""
        if c < 0 or c >= cols:
            return 0
        if 0 < line < rows and edge(tile(line - 1, c), tile(line, c)) in walls:
            return 2
        return 1

    out: list[Text] = []
    letters = Text(" " * (margin + 1))
    for c in range(cols):
        letters.append(tile_name(c, cols)[0].center(cell), style="bold")
        letters.append(" ")
    letters.rstrip()
    out.append(letters)

    def border(line: int) -> Text:
        text = Text(" " * margin)
        for c in range(cols + 1):
            up, down = vertical(line - 1, c), vertical(line, c)
            left, right = horizontal(line, c - 1), horizontal(line, c)
            heavy = 2 in (up, down, left, right)
            text.append(_junction(up, down, left, right), style=WALL_STYLE if heavy else "")
            if c < cols:
                if right == 2:
                    text.append("━" * cell, style=WALL_STYLE)
                else:
                    text.append("─" * cell)
        return text

    for r in range(rows):
        out.append(border(r))
        cells = [_cell_lines(rules, state, tile(r, c), inner, tokens) for c in range(cols)]
        height = max(2, *(len(lines) for lines in cells))
        for c in range(cols):  # impassable tiles are filled to the row's height
            if tile(r, c) in state.layout.blocked:
                cells[c] += [cells[c][-1].copy() for _ in range(height - len(cells[c]))]
        for i in range(height):
            label = str(r + 1) if i == 1 else ""
            text = Text(label.rjust(margin - 1) + " ", style="bold")
            for c in range(cols + 1):
                weight = vertical(r, c)
                text.append("┃" if weight == 2 else "│", style=WALL_STYLE if weight == 2 else "")
                if c < cols:
                    content = cells[c][i] if i < len(cells[c]) else Text()
                    text.append(" ")
                    text.append_text(content)
                    text.append(" " * (inner - content.cell_len))
            out.append(text)
    out.append(border(rows))
    return Text("\n").join(out)


# -- the rest ------------------------------------------------------------------------------


def _header(rules: Rules, state: State) -> Text:
    text = Text(f"Round {state.round}", style="bold")
    if state.is_over:
        text.append(" · game over", style="bold")
    elif state.decision.player == NOBODY:
        text.append(f" · {decision_title(rules, state)}")
    else:
        player = state.decision.player
        text.append(" · ")
        text.append(seat_name(player), style=_seat_style(player))
        text.append(" to decide")  # what is decided: the title under the picture
    turn = state.turn
    if turn is not None and not state.is_over:
        owner = state.markers[turn.marker]
        if owner != state.decision.player:
            text.append(" · turn of ")
            text.append(seat_name(owner), style=_seat_style(owner))
        if turn.start != NOBODY:
            geometry = state.geometry
            route = "→".join(geometry.name(t) for t in (turn.start, *turn.path))
            text.append(f" · move {route}")
            hand = _letters(rules, turn.hand)
            if hand:
                text.append(f" hand {hand}")
            if turn.taken and turn.colour != NOBODY:
                text.append(f" took {turn.taken}{rules.letters[turn.colour]}")
    if state.flags:
        text.append(f" · {', '.join(state.flags)}", style="italic")
    return text


def _legend(rules: Rules, state: State) -> Group:
    """Three short lines: tile kinds on this board, then meeples, then the other marks."""
    on_board = {spec.kind for t in state.layout.tiles if (spec := rules.tile_specs.get(t))}
    kinds = dict.fromkeys(spec.kind for spec in rules.content.tiles if spec.kind in on_board)
    tiles = Text(
        "  ".join(f"{kind_abbreviation(k)} {k.replace('-', ' ')}" for k in kinds), style="dim"
    )
    meeples = Text("  ".join(f"{c.letter} {c.name.lower()}" for c in rules.colours), style="dim")
    meeples.append("  cN camel of PN")
    if NON_PLAYER in state.board.owners:
        meeples.append("  cX the non-player's camel")
    tokens = "  ".join(
        f"{letter} {spec.name.lower()}"
        for letter, spec in zip(token_letters(rules), rules.tokens, strict=True)
    )
    marks = Text(f"{tokens}  #### impassable  ", style="dim")
    marks.append("┃━", style=WALL_STYLE)
    marks.append(" mountain  b/r blue/red value")
    printed = dict.fromkeys(
        (spec.printed, spec.kind) for spec in rules.content.tiles if spec.kind in on_board
    )
    own_rule = [Text(_printed_value(value, kind), style="dim") for value, kind in printed if value]
    return Group(tiles, meeples, marks, *own_rule)


def _printed_value(value: str, kind: str) -> str:
    """The legend's line for a value printed on a tile that scores by its own rule (a
    city's ``5+``)."""
    name = kind.replace("-", " ")
    if value.endswith("+"):
        return f"{value} {name}: worth {value[:-1]} or more, by its own rule (type score)"
    return f"{value} {name}: scores by its own rule (type score)"


def _card_name(rules: Rules, card: str) -> str:
    spec = rules.card_specs.get(card)
    return (spec.name or spec.id) if spec else card


def _djinn_name(rules: Rules, djinn: str) -> str:
    return _card_name(rules, djinn)


def _held(holding: Holding) -> tuple[str, ...]:
    """The cards shown besides djinns: resources, then the plugin decks' cards in one
    sorted list (their texts are shown under the hand)."""
    resources = holding.hands.get(RESOURCES, ())
    others = (c for deck, hand in holding.hands.items() if deck not in DECK_NAMES for c in hand)
    return (*resources, *sorted(others))


def _cards_text(holding: Holding) -> str:
    """The number of cards besides djinns; ``?`` when some of them are face down."""
    return f"{holding.card_count} ?" if holding.cards_hidden else str(holding.card_count)


def _marker(state: State, marker: int) -> Text:
    if marker == NOBODY:
        return Text("·", style="dim")
    player = state.markers[marker]
    return Text(seat_name(player), style=_seat_style(player))


def _tracks(rules: Rules, state: State, seen: Seen, hints: Display) -> Table:
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()

    bid = Text(" ").join(_marker(state, m) for m in state.bid_track)
    grid.add_row("Bid order", bid)
    costs = hints.turn_spots  # each spot's cost, as the plugins label it
    spots: list[Text] = []
    for index, marker in enumerate(state.turn_track):
        cost = costs[index] if index < len(costs) else "?"
        spot = Text(f"{cost}:")
        spot.append_text(_marker(state, marker))
        spots.append(spot)
    grid.add_row("Turn order", Text("  ").join(spots))

    resources = rules.deck_in(state, RESOURCES)
    row = " ".join(_card_name(rules, c) for c in resources.row) or "—"
    pile = seen.piles[RESOURCES]
    grid.add_row("Resource row", f"{row} (pile: {pile})")
    djinns = rules.deck_in(state, DJINNS)
    pile = seen.piles[DJINNS]
    # each face-up djinn's power on a line of its own, shortened to fit; the labels beside
    # them say how many are in the pile and where the whole texts are
    lines = [djinn_offer(rules, d, hints.costs) for d in djinns.row]
    labels = ["Djinn row", f"pile: {pile}", "help djinn"][: len(lines)]
    if len(lines) < 2:  # no line of its own for the pile
        lines = [f"(pile: {pile}) {' '.join(lines) or '—'}"]
        labels = ["Djinn row"]
    for index, line in enumerate(lines):
        label = Text(labels[index] if index < len(labels) else "", style="" if index else "bold")
        grid.add_row(label, Text(line, no_wrap=True, overflow="ellipsis"))
    bank = ", ".join(
        f"{n} {_plural(spec.name.lower(), n)}"
        for spec, n in zip(rules.tokens, state.pool, strict=True)
    )
    grid.add_row("Bank", f"{bank}; bag {sum(state.bag)} meeples")
    return grid


def _hand(rules: Rules, cards: Iterable[str]) -> str:
    counted = Counter(cards)
    return ", ".join(
        f"{_card_name(rules, card)}" + (f"×{n}" if n > 1 else "") for card, n in counted.items()
    )


def _djinns_text(rules: Rules, holding: Holding) -> str:
    if holding.djinns_hidden:
        return f"{holding.hidden[DJINNS]} ?"
    return ", ".join(_djinn_name(rules, d) for d in holding.djinns) or "—"


def _players(
    rules: Rules, state: State, viewer: int | None, seen: Seen, reveal: bool = False
) -> Table:
    shown = [
        i
        for i, spec in enumerate(rules.colours)
        if spec.kept or any(p.meeples[i] for p in state.players)
    ]
    table = Table(box=None, padding=(0, 1), pad_edge=False, header_style="bold")
    table.add_column("Player", no_wrap=True)
    table.add_column("Coins", justify="right", no_wrap=True)
    for i in shown:  # kept meeples, headed by their letters (the legend names them)
        table.add_column(rules.colours[i].letter, justify="right", no_wrap=True)
    table.add_column("Camels", justify="right", no_wrap=True)
    table.add_column("Tiles", justify="right", no_wrap=True)
    table.add_column("Cards", no_wrap=True)
    table.add_column("Score", justify="right", no_wrap=True)
    table.add_column("Djinns")
    scores = _score_column(rules, state, viewer, reveal)
    for seat, player in enumerate(state.players):
        name = Text(seat_name(seat), style=_seat_style(seat))
        if seat == viewer:
            name.append(" (you)")
        if seat == state.decision.player:
            name.append(" *", style="bold")
        holding = seen.players[seat]
        table.add_row(
            name,
            "?" if holding.coins is None else str(holding.coins),
            *(str(player.meeples[i]) for i in shown),
            str(player.camels),
            str(sum(1 for owner in state.board.owners if owner == seat)),
            _cards_text(holding),
            scores[seat],
            _djinns_text(rules, holding),
        )
    return table


def _score_column(rules: Rules, state: State, viewer: int | None, reveal: bool) -> list[str]:
    """Each player's points as the viewer may count them now (``scoresheet.visible_scores``):
    the viewer's own in full, the others' public points followed by ``+?`` (their coins and
    face-down cards are not counted); everybody's in full when revealed."""
    if reveal:
        return [str(score) for score in rules.scores(state)]
    seen = visible_scores(rules, state, NOBODY if viewer is None else viewer)
    return [f"{score.total}" if score.full else f"{score.total}+?" for score in seen]


def _private(
    rules: Rules, state: State, viewer: int | None, seen: Seen, reveal: bool = False
) -> Table:
    """The viewer's own cards (everybody's when revealed), under the players' table."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column()
    seats = range(len(state.players)) if reveal else [viewer] if viewer is not None else []
    for seat in seats:
        if seat is None or not 0 <= seat < len(state.players):
            continue
        label = Text(seat_name(seat), style=_seat_style(seat))
        label.append(" (you) cards:" if seat == viewer else " cards:")
        holding = seen.players[seat]
        cards = _held(holding)
        grid.add_row(label, _hand(rules, cards) or "none")
        for card in dict.fromkeys(cards):  # what each expansion card does
            spec = rules.card_specs.get(card)
            if spec is not None and spec.text and spec.deck not in DECK_NAMES:
                grid.add_row("", Text(f"{spec.name or spec.id}: {spec.text}", style="dim"))
        for djinn in holding.djinns:  # and each djinn's power, one line (``djinns``: all)
            grid.add_row(
                "",
                Text(
                    djinn_brief(rules, djinn),
                    style="dim",
                    no_wrap=True,
                    overflow="ellipsis",
                ),
            )
    return grid


class _StateView:
    """The picture of one state; the board's cells shrink to the console's width."""

    def __init__(self, rules: Rules, state: State, viewer: int | None, reveal: bool) -> None:
        self.rules = rules
        self.state = state
        self.viewer = viewer
        self.reveal = reveal

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        rules, state = self.rules, self.state
        seen = Seen.of(rules, state, self.viewer, self.reveal)  # what the viewer may see
        yield _header(rules, state)
        yield _board(rules, state, options.max_width)
        yield _legend(rules, state)
        yield _tracks(rules, state, seen, collect(rules, state))
        for note in rules.public_notes(state):
            yield Text(note)
        yield _players(rules, state, self.viewer, seen, self.reveal)
        yield _private(rules, state, self.viewer, seen, self.reveal)


def render_state(
    rules: Rules, state: State, viewer: int | None = None, reveal: bool = False
) -> RenderableType:
    """The terminal picture of ``state``: header, board, legend, tracks, rows, bank and
    players. ``viewer`` (a player index) sees their own coins and cards; everyone else's
    are shown as ``?`` (and everybody's when ``viewer`` is ``None``), unless ``reveal``
    shows all of them (the end of a game, a replay)."""
    return Group(_StateView(rules, state, viewer, reveal))
