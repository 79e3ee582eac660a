"""The picture draws every piece of every installed box: a walk over the content of each
installed plugin (alone, then all that can be played together) puts every token, every
card of every deck, meeples in hand, cards being chosen from and set-aside components
into one position, and checks each is drawn where it belongs — not only named in a
legend or a tooltip. A renderer that stopped drawing one of them fails here (see the
sabotage tests at the end)."""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from typing import Any

import attrs
import pytest

from naqala.core import build_rules
from naqala.core.encoding import player_counts
from naqala.core.engine import Rules
from naqala.core.plugins import BASE, PluginError, installed_entry_points, load_named
from naqala.core.state import (
    ASIDE_CARD,
    ASIDE_MEEPLE,
    NOBODY,
    NON_PLAYER,
    State,
    Turn,
    set_aside,
)
from naqala.display import board_svg
from naqala.display.hints import collect

SVG = "{http://www.w3.org/2000/svg}"


@functools.cache
def installed_boxes() -> tuple[tuple[str, ...], ...]:
    """Every installed plugin alone (with those it requires), then the installed plugins
    gathered into as few sets as can be played together (solo conflicts with the
    expansions)."""
    names = sorted(n for n in installed_entry_points() if n != BASE)
    groups: list[list[str]] = []
    for name in names:
        for group in groups:
            try:
                build_rules([*group, name])
            except PluginError:
                continue
            group.append(name)
            break
        else:
            groups.append([name])
    alone = [tuple(sorted({name, *load_named(name).requires} - {BASE})) for name in names]
    return ((), *alone, *(tuple(g) for g in groups if len(g) > 1))


def classes(el: ET.Element) -> list[str]:
    return (el.get("class") or "").split()


def groups(root: ET.Element, kind: str) -> list[ET.Element]:
    """The ``<g>`` elements with class ``kind``."""
    return [g for g in root.iter(f"{SVG}g") if kind in classes(g)]


def prefixed(el: ET.Element, prefix: str) -> str:
    """The value of the class ``<prefix>-<value>`` of an element."""
    found = [c.removeprefix(prefix + "-") for c in classes(el) if c.startswith(prefix + "-")]
    assert len(found) == 1, (prefix, classes(el))
    return found[0]


def text_of(el: ET.Element) -> str:
    return " ".join(
        "".join(t.itertext()) for t in el.iter() if t.tag in (f"{SVG}text", f"{SVG}title")
    )


def one(found: list[ET.Element], what: str) -> ET.Element:
    assert len(found) == 1, f"{len(found)} {what} drawn"
    return found[0]


def by_id(root: ET.Element, ident: str) -> ET.Element:
    found = [el for el in root.iter() if el.get("id") == ident]
    assert len(found) == 1, ident
    return found[0]


def full_position(rules: Rules) -> State:
    """A new game of the most players these rules allow, with every token on the board,
    every card of every deck in the first player's hand, a move in progress (a meeple of
    each colour in hand, cards drawn to choose from), camels of every seat (and of a
    non-player) and a meeple of every colour and a card of every deck set aside."""
    players = max(player_counts(rules))
    state = rules.new_game(players, 5)
    board = state.board
    count = len(rules.tokens)
    tokens = tuple(
        tuple(1 + t % 3 if i == t % count else 0 for i in range(count))
        for t in range(len(board.tokens))
    )
    seats = [*range(players), NON_PLAYER]
    owners = tuple(
        NOBODY if t in state.layout.blocked else seats[t % len(seats)]
        for t in range(len(board.owners))
    )
    state = attrs.evolve(state, board=attrs.evolve(board, tokens=tokens, owners=owners))
    player = state.players[0]
    for index, deck in enumerate(rules.deck_names):
        player = player.with_hand(index, tuple(sorted(c.id for c in rules.content.deck(deck))))
    state = state.replace_player(0, player)
    marker = state.markers.index(0)
    first = min(set(range(len(board.owners))) - state.layout.blocked)
    revealed = tuple(rules.content.deck(deck)[0].id for deck in rules.deck_names)
    turn = Turn(
        marker=marker,
        start=first,
        hand=tuple(1 for _ in rules.colours),
        colour=0,
        taken=2,
        revealed=revealed,
    )
    state = attrs.evolve(state, turn=turn)
    for colour in rules.colours:
        state = set_aside(state, ASIDE_MEEPLE + colour.id, 2)
    for deck in rules.deck_names:
        state = set_aside(state, ASIDE_CARD + rules.content.deck(deck)[-1].id, 1)
    return state


def check_everything_drawn(rules: Rules, state: State, root: ET.Element) -> None:
    """Each tile kind, meeple colour, token, camel, marker, card and set-aside component
    of ``state`` is drawn where it belongs in ``root`` (the picture for seat 0)."""
    looks = collect(rules, state)
    # tiles: every kind of the content is on the board, described by a plugin, labelled
    kinds = {spec.kind for spec in rules.content.tiles}
    assert kinds <= set(looks.tiles), f"no look for {kinds - set(looks.tiles)}"
    drawn_kinds = {prefixed(g, "kind"): g for g in groups(root, "tile")}
    assert kinds <= set(drawn_kinds), f"never on the board: {kinds - set(drawn_kinds)}"
    for kind in kinds:
        assert looks.tiles[kind].label in text_of(drawn_kinds[kind]), kind
    # what stands on each tile, exactly
    colour_ids = [c.id for c in rules.colours]
    token_ids = [t.id for t in rules.tokens]
    assert set(colour_ids) <= set(looks.meeples) and set(token_ids) <= set(looks.tokens)
    seen_colours: set[str] = set()
    seen_tokens: set[str] = set()
    for tile in range(len(state.board.meeples)):
        name = state.geometry.name(tile)
        pieces = [el for el in root.iter() if el.get("id") == f"pieces-{name}"]
        meeples = {c: n for c, n in zip(colour_ids, state.board.meeples[tile], strict=True) if n}
        tokens = {t: n for t, n in zip(token_ids, state.board.tokens[tile], strict=True) if n}
        owner = state.board.owners[tile]
        if not (meeples or tokens or owner != NOBODY):
            assert pieces == [], name
            continue
        group = one(pieces, f"groups of pieces on {name}")
        chips = {prefixed(g, "colour"): g for g in groups(group, "meeple")}
        assert set(chips) == set(meeples), (name, chips, meeples)
        for colour, n in meeples.items():
            assert (str(n) in text_of(chips[colour])) == (n > 1), (name, colour)
            assert looks.meeples[colour].label in text_of(chips[colour])
        drawn = {prefixed(g, "kind"): g for g in groups(group, "token")}
        assert set(drawn) == set(tokens), (name, drawn, tokens)
        for token, n in tokens.items():
            assert (str(n) in text_of(drawn[token])) == (n > 1), (name, token)
        camels = [prefixed(g, "seat") for g in groups(group, "camel")]
        expected = [] if owner == NOBODY else ["X" if owner == NON_PLAYER else f"P{owner + 1}"]
        assert camels == expected, (name, camels)
        seen_colours |= set(meeples)
        seen_tokens |= set(tokens)
    assert seen_colours == set(colour_ids) and seen_tokens == set(token_ids)
    # the markers on the tracks
    placed = [m for m in (*state.bid_track, *state.turn_track) if m != NOBODY]
    markers = sorted(prefixed(g, "seat") for g in groups(root, "marker"))
    assert markers == sorted(f"P{state.markers[m] + 1}" for m in placed)
    # the face-up rows: djinns, resources and every row a plugin offers are cards; the
    # rows a plugin lays on tiles (whims on cities) are written on their tile
    rows = {prefixed(g, "deck"): g for g in groups(root, "offer")}
    names = {
        card: spec.name or card.replace("-", " ").capitalize()
        for card, spec in rules.card_specs.items()
    }
    notes = " ".join(looks.tile_notes.values())
    for index, deck in enumerate(rules.deck_names):
        face_up = [card for card in state.decks[index].row if card]
        if deck in rows:
            cards = [text_of(card) for card in groups(rows[deck], "card")]
            assert len(cards) == len(face_up), deck
            assert all(names[c] in t for c, t in zip(face_up, cards, strict=True)), deck
        else:
            assert all(names[card] in notes for card in face_up), (deck, face_up)
    for tile, note in looks.tile_notes.items():
        assert note in text_of(by_id(root, f"tile-{state.geometry.name(tile)}")), note
    # every card of every deck in the first player's panel, deck by deck, and every meeple
    # colour they keep with its count
    mine = by_id(root, "player-1")
    words = text_of(mine)
    for deck in rules.deck_names:
        label = "Djinns:" if deck == "djinns" else f"{deck.capitalize()} ("
        assert label in words, deck
        for spec in rules.content.deck(deck):
            assert names[spec.id] in words, (deck, spec.id)
    for seat, player in enumerate(state.players):
        panel_of = by_id(root, f"player-{seat + 1}")
        held = {prefixed(g, "colour"): text_of(g) for g in groups(panel_of, "meeple")}
        for colour, n in zip(colour_ids, player.meeples, strict=True):
            if n or rules.colours[colour_ids.index(colour)].kept:
                assert f"×{n}" in held[colour], (seat, colour)
    # the move in progress: the meeples in hand, those taken, the cards to choose from
    turn = one(groups(root, "this-turn"), "moves in progress")
    assert sorted(prefixed(g, "colour") for g in groups(turn, "meeple")) == sorted(
        [*colour_ids, colour_ids[0]]
    )
    assert state.turn is not None
    for card in state.turn.revealed:
        assert names[card] in " ".join(text_of(c) for c in groups(turn, "card")), card
    # what is set aside beside the board
    aside = one(groups(root, "aside"), "areas beside the board")
    chips = {prefixed(g, "colour"): text_of(g) for g in groups(aside, "meeple")}
    assert chips == {c: f"{looks.meeples[c].label} ×2" for c in colour_ids}
    for deck in rules.deck_names:
        assert names[rules.content.deck(deck)[-1].id] in text_of(aside), deck


def boxes() -> list[Any]:
    return [pytest.param(box, id="+".join(box) or "base") for box in installed_boxes()]


@pytest.mark.parametrize("box", boxes())
def test_every_piece_of_every_installed_box_is_drawn(box: tuple[str, ...]) -> None:
    rules = build_rules(box)
    state = full_position(rules)
    svg = board_svg(rules, state, seat=0)
    check_everything_drawn(rules, state, ET.fromstring(svg.encode("utf-8")))


def test_the_walk_covers_every_installed_plugin_and_the_boxes_together() -> None:
    walked = {name for box in installed_boxes() for name in box}
    assert walked == set(installed_entry_points()) - {BASE}
    assert {"artisans", "whims", "thieves", "solo"} <= walked
    together = [box for box in installed_boxes() if {"artisans", "whims", "thieves"} <= set(box)]
    assert together, "the expansions are never drawn together"


# -- sabotage: the walk notices a piece that is no longer drawn ----------------------------------


def no_thief_offer(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Thieves' row is no longer offered as cards (the plugin's display dropped)."""
    monkeypatch.setattr(
        "naqala.display.svg.collect",
        lambda rules, state: attrs.evolve(collect(rules, state), offers=()),
    )


def no_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    import naqala.display.svg as svg

    real = svg._tile_pieces

    def without_tokens(scene: Any, tile: int) -> str:
        board = scene.state.board
        empty = tuple((0,) * len(t) for t in board.tokens)
        bare = attrs.evolve(scene.state, board=attrs.evolve(board, tokens=empty))
        original, scene.state = scene.state, bare
        try:
            return real(scene, tile)
        finally:
            scene.state = original

    monkeypatch.setattr(svg, "_tile_pieces", without_tokens)


def no_aside(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("naqala.display.svg._aside", lambda scene: None)


def no_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("naqala.display.svg._this_turn", lambda scene, column: None)


def no_items_line(monkeypatch: pytest.MonkeyPatch) -> None:
    import naqala.display.svg as svg

    real = svg._player_lines
    monkeypatch.setattr(
        svg,
        "_player_lines",
        lambda scene, seat, player: [
            line for line in real(scene, seat, player) if not line.startswith("Items")
        ],
    )


@pytest.mark.parametrize(
    ("sabotage", "box"),
    [
        (no_thief_offer, ("thieves",)),
        (no_tokens, ("artisans",)),
        (no_aside, ("solo",)),
        (no_hand, ()),
        (no_items_line, ("artisans",)),
    ],
    ids=lambda v: v.__name__ if callable(v) else "+".join(v) or "base",
)
def test_the_walk_fails_when_a_piece_is_not_drawn(
    monkeypatch: pytest.MonkeyPatch, sabotage: Any, box: tuple[str, ...]
) -> None:
    rules = build_rules(box)
    state = full_position(rules)
    sabotage(monkeypatch)
    root = ET.fromstring(board_svg(rules, state, seat=0).encode("utf-8"))
    with pytest.raises(AssertionError):
        check_everything_drawn(rules, state, root)
