"""Helpers for scenario tests: start from a real game and set up exactly the position a
rule talks about (tiles, meeples, holdings, whose turn it is).

Every helper takes the rules and a state and returns a new state (states are immutable);
tiles are named like chess squares (``c3``) and meeples written as colour letters
(``"RRW"``, in the letters of ``rules.letters``). ``play`` and ``options`` speak action
notation, so a scenario test reads like the rule it checks::

    rules = base_rules()
    state = turn_of(rules, rules.new_game(4, seed=1), seat=0)
    state = board(rules, state, {"a1": "RR", "b1": "W", "c1": "R"}, clear=True)
    assert options(rules, state, "pick") == ["pick a1"]
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from naqala.core.actions import Action, parse_action
from naqala.core.content import DECK_NAMES, DJINNS, RESOURCES
from naqala.core.engine import Rules, build_rules
from naqala.core.state import NOBODY, Counts, Decision, Deck, State, Turn, replace_at

#: where the two decks every game has sit in ``State.decks`` and in each hand, for a test
#: that reads a state directly: found by name among ``DECK_NAMES`` (code with rules asks
#: ``rules.deck_index``, ``rules.deck_in`` or ``rules.hand_of``)
RESOURCE_DECK = DECK_NAMES.index(RESOURCES)
DJINN_DECK = DECK_NAMES.index(DJINNS)

__all__ = [
    "act",
    "base_rules",
    "bid_order",
    "board",
    "counts",
    "deck",
    "kept",
    "next_turn_is_also_mine",
    "on_tile",
    "options",
    "out_of_deck",
    "play",
    "play_round",
    "play_turn",
    "player",
    "tokens",
    "turn_of",
]


@functools.cache
def base_rules() -> Rules:
    """The rules of the base game alone, built once and shared (rules are not changed by
    playing, so sharing them between tests is safe)."""
    return build_rules()


def counts(rules: Rules, letters: str) -> Counts:
    """Meeple counts per colour of a string of colour letters (``"RRW"``)."""
    return tuple(letters.count(letter) for letter in rules.letters)


def board(
    rules: Rules,
    state: State,
    meeples: Mapping[str, str] | None = None,
    *,
    clear: bool = False,
    tiles: Mapping[str, str] | None = None,
    owners: Mapping[str, int] | None = None,
) -> State:
    """Set meeples (tile name → letters), tile ids and owners; ``clear`` empties every tile
    not named in ``meeples`` first. Meeples removed from or added to the board go to or
    come from the bag, so meeple totals stay conserved."""
    geo = state.geometry
    grid = list(state.board.meeples)
    bag = list(state.bag)
    empty = (0,) * len(rules.letters)
    named = {geo.parse(k): counts(rules, v) for k, v in (meeples or {}).items()}
    for i in range(len(grid)):
        if clear or i in named:
            new = named.get(i, empty)
            for c in range(len(bag)):
                bag[c] += grid[i][c] - new[c]
            grid[i] = new
    layout_tiles = list(state.layout.tiles)
    for name, tile_id in (tiles or {}).items():
        index = geo.parse(name)
        other = layout_tiles.index(tile_id)
        layout_tiles[other], layout_tiles[index] = layout_tiles[index], tile_id
    owner_list = list(state.board.owners)
    for name, player in (owners or {}).items():
        owner_list[geo.parse(name)] = player
    assert all(n >= 0 for n in bag), "more meeples placed than the bag holds"
    return attrs.evolve(
        state,
        layout=attrs.evolve(state.layout, tiles=tuple(layout_tiles)),
        board=attrs.evolve(state.board, meeples=tuple(grid), owners=tuple(owner_list)),
        bag=tuple(bag),
    )


def player(
    rules: Rules,
    state: State,
    index: int,
    *,
    meeples: str | None = None,
    cards: Iterable[str] | None = None,
    djinns: Iterable[str] | None = None,
    hands: Mapping[str, Iterable[str]] | None = None,
    **fields: Any,
) -> State:
    """Change a player's holdings: ``coins``, ``camels``, ``meeples`` as letters (taken
    from / returned to the bag), and hands of cards: ``cards`` (resources), ``djinns``,
    or ``hands`` by deck name (``{"items": ["crown"]}``), each kept in its deck's order
    (sorted, or djinns as given)."""
    p = state.players[index]
    given = dict(hands or {})
    if cards is not None:
        given["resources"] = cards
    if djinns is not None:
        given["djinns"] = djinns
    for name, hand in given.items():
        deck = rules.deck_index[name]
        ordered = tuple(hand)
        if rules.deck_specs[deck].order == "sorted":
            ordered = tuple(sorted(ordered))
        p = p.with_hand(deck, ordered)
    bag = state.bag
    if meeples is not None:
        new = counts(rules, meeples)
        bag = tuple(b + old - n for b, old, n in zip(bag, p.meeples, new, strict=True))
        fields["meeples"] = new
    return attrs.evolve(state.replace_player(index, attrs.evolve(p, **fields)), bag=bag)


def turn_of(rules: Rules, state: State, seat: int, stage: str = "pick") -> State:
    """The position at the start of player ``seat``'s turn (their marker already moved to
    the bid track), waiting at ``stage``; no other marker left to play this round."""
    marker = state.markers.index(seat)
    state = attrs.evolve(
        state,
        turn_track=(NOBODY,) * len(state.turn_track),
        bid_track=(marker,) + tuple(m for m in range(len(state.markers)) if m != marker),
        turn=Turn(marker=marker),
        decision=Decision(stage, seat),
    )
    return state


def on_tile(rules: Rules, state: State, name: str) -> str:
    """The meeples on tile ``name`` as colour letters (``"GG"``; ``""`` when empty)."""
    here = state.board.meeples[state.geometry.parse(name)]
    return "".join(letter * n for letter, n in zip(rules.letters, here, strict=True))


def kept(rules: Rules, state: State, seat: int) -> str:
    """The meeples in front of player ``seat`` as colour letters (``"WWY"``)."""
    held = state.players[seat].meeples
    return "".join(letter * n for letter, n in zip(rules.letters, held, strict=True))


def next_turn_is_also_mine(state: State) -> State:
    """Set the tracks so that, when the turn in progress ends, the same player's other
    marker plays next (at 2 players each player has 2 markers): for rules that last
    "until your next turn" or count once per turn."""
    assert state.turn is not None, "no turn in progress"
    seat = state.markers[state.turn.marker]
    other = next(
        m for m, owner in enumerate(state.markers) if owner == seat and m != state.turn.marker
    )
    turn_track = [NOBODY] * len(state.turn_track)
    turn_track[0] = other
    bid_track = [NOBODY] * len(state.bid_track)
    bid_track[0] = state.turn.marker
    return attrs.evolve(state, turn_track=tuple(turn_track), bid_track=tuple(bid_track))


def play(rules: Rules, state: State, *actions: str) -> State:
    """Apply actions written in notation, each checked for legality."""
    for text in actions:
        state = rules.apply(state, parse_action(text))
    return state


def options(rules: Rules, state: State, kind: str | None = None) -> list[str]:
    """The legal actions (of one kind) as notation strings."""
    return [str(a) for a in rules.legal_actions(state) if kind is None or a.kind == kind]


def act(text: str) -> Action:
    """The action written ``text`` in notation (``"pick c3"``)."""
    return parse_action(text)


def deck(
    rules: Rules,
    state: State,
    name: str,
    *,
    row: tuple[str, ...] | list[str] | None = None,
    draw: tuple[str, ...] | list[str] | None = None,
    discard: tuple[str, ...] | list[str] | None = None,
) -> State:
    """Set the face-up ``row``, the ``draw`` pile (top first) and/or the ``discard`` pile of
    the deck called ``name`` (``resources`` or ``djinns``); parts not given stay as they are.
    Cards are not conserved: the test says exactly what lies where (to only reorder a
    deck, keeping its cards, use ``naqala.testing.chance.stack_deck``)."""
    index = rules.deck_names.index(name)
    old = state.decks[index]
    new = attrs.evolve(
        old,
        row=old.row if row is None else tuple(row),
        draw=old.draw if draw is None else tuple(draw),
        discard=old.discard if discard is None else tuple(discard),
    )
    decks = (*state.decks[:index], new, *state.decks[index + 1 :])
    return attrs.evolve(state, decks=decks)


def out_of_deck(rules: Rules, state: State, name: str, cards: Iterable[str]) -> State:
    """Take ``cards`` out of the deck called ``name`` (from its draw pile, discards or row,
    wherever each lies) — to hand them to a player, so that no card is created."""
    index = rules.deck_index[name]
    old = state.decks[index]
    piles = [list(old.draw), list(old.discard), list(old.row)]
    for card in cards:
        pile = next(p for p in piles if card in p)
        pile.remove(card)
    new = Deck(draw=tuple(piles[0]), discard=tuple(piles[1]), row=tuple(piles[2]))
    return attrs.evolve(state, decks=replace_at(state.decks, index, new))


def tokens(
    rules: Rules,
    state: State,
    placed: Mapping[str, Mapping[str, int]] | None = None,
    *,
    pool: Mapping[str, int] | None = None,
) -> State:
    """Put tokens on tiles, taken from the bank (``{"c3": {"palace": 2}}``), then set what
    the bank still holds of some kinds (``pool={"palm-tree": 0}``)."""
    grid = list(state.board.tokens)
    bank = list(state.pool)
    for name, kinds in (placed or {}).items():
        index = state.geometry.parse(name)
        here = list(grid[index])
        for kind, n in kinds.items():
            here[rules.token_index[kind]] += n
            bank[rules.token_index[kind]] -= n
        grid[index] = tuple(here)
    for kind, n in (pool or {}).items():
        bank[rules.token_index[kind]] = n
    assert all(n >= 0 for n in bank), "more tokens placed than the bank holds"
    return attrs.evolve(
        state, board=attrs.evolve(state.board, tokens=tuple(grid)), pool=tuple(bank)
    )


def bid_order(rules: Rules, state: State, *markers: int) -> State:
    """The position at the start of bidding with the turn markers on the bid track in this
    order (at 2 players, markers 0 and 1 are player 0's, 2 and 3 player 1's)."""
    assert sorted(markers) == list(range(len(state.markers))), "name every marker once"
    return attrs.evolve(
        state,
        bid_track=tuple(markers),
        turn_track=(NOBODY,) * len(state.turn_track),
        turn=None,
        decision=Decision("bid", state.markers[markers[0]]),
    )


def play_turn(rules: Rules, state: State) -> State:
    """Play the current turn to its end with simple choices: the first legal move, then
    ``end``, ``skip`` or ``fakirs 0`` wherever offered, else the first option."""
    assert state.turn is not None, "no turn in progress"
    marker, turn_round = state.turn.marker, state.round
    while (
        not state.is_over
        and state.round == turn_round
        and state.turn is not None
        and state.turn.marker == marker
    ):
        legal = options(rules, state)
        choice = next((a for a in ("end", "skip", "fakirs 0") if a in legal), legal[0])
        state = play(rules, state, choice)
    return state


def play_round(rules: Rules, state: State) -> tuple[State, list[int]]:
    """Play every remaining turn of the round with ``play_turn``; the state after the round
    and the players in the order their turns were played."""
    order: list[int] = []
    while state.turn is not None and not state.is_over:
        order.append(state.decision.player)
        state = play_turn(rules, state)
    return state, order
