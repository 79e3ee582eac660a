"""What one seat may know of a state (its *view*) and *determinization*: a full state
that agrees with a view and samples everything the view hides.

Hidden from a seat: the other players' coins and the cards they hold of every hidden
deck (hook ``naqala_hidden_decks``: resources in the base game, items, whims in hand),
the contents and order of every draw pile, cards another player is choosing from
(``turn.revealed``), and the random generator (so every future draw, the meeple bag's
included). Everything else — the board, kept meeples, djinns, face-up rows, discard
piles, tracks, counters — is public. The bag's contents are public (they can be counted
from the rest); only the order of its draws, which comes from the generator, is not.

``view_for(rules, state, seat)`` gives the view as a JSON-ready dict (the state document
of docs/formats.md with hidden parts replaced by counts); ``determinize(rules, state,
seat, seed)`` gives a state with the same view, whose hidden parts are drawn from what the
seat has not seen, and which depends only on the view and the seed — so a player that
decides from determinizations cannot use what it is not allowed to know.
"""

from __future__ import annotations

from typing import Any

from naqala.core.engine import Rules
from naqala.core.hands import deck_of, hand, with_hand
from naqala.core.rng import Rng
from naqala.core.serialize import state_to_data
from naqala.core.state import State, evolve, turn_owner

FORMAT = "naqala-view"


def hidden_decks(rules: Rules) -> frozenset[int]:
    """Indices of the decks whose cards in hand only their holder sees."""
    names = {name for group in rules.hook.naqala_hidden_decks(rules=rules) for name in group}
    return frozenset(rules.deck_index[name] for name in names if name in rules.deck_index)


def sees_revealed(state: State, seat: int) -> bool:
    """Whether ``seat`` may see the cards being chosen from (only the turn's player)."""
    return turn_owner(state) == seat


def view_for(rules: Rules, state: State, seat: int) -> dict[str, Any]:
    """What ``seat`` may see of ``state``, as a JSON-ready dict: the state document with
    the other players' ``coins`` null and their hidden cards replaced by ``hidden``
    counts per deck, each draw pile a count, ``turn.revealed`` a count unless it is the
    seat's turn, and no generator. ``seat`` ``NOBODY`` is a spectator, who sees no
    player's secrets. The terminal picture (``naqala.display.text``) is drawn from it."""
    data = state_to_data(rules, state)
    data["format"] = FORMAT
    data["seat"] = seat
    del data["rng"]
    hidden = hidden_decks(rules)
    for index, player in enumerate(data["players"]):
        if index == seat:
            continue
        p = state.players[index]
        player["coins"] = None
        for deck in hidden:
            player["hands"].pop(rules.deck_names[deck], None)
        player["hidden"] = {rules.deck_names[d]: len(hand(rules, p, d)) for d in sorted(hidden)}
    for deck in data["decks"].values():
        deck["draw"] = len(deck["draw"])
    if data["turn"] is not None and not sees_revealed(state, seat):
        data["turn"]["revealed"] = len(state.turn.revealed) if state.turn else 0
    return data


def determinize(rules: Rules, state: State, seat: int, seed: int) -> State:
    """A full state with the same view for ``seat`` as ``state``: the other players'
    hidden cards and the cards being chosen from (when hidden) are dealt again, with
    every draw pile, from the cards of each deck that ``seat`` has not seen; the other
    players' coins are set to the seat's own (the view holds no better estimate); the
    generator is new. The result depends only on the view and ``seed``; every card is
    kept (each deck holds the same cards), so is every meeple and token."""
    rng = Rng(seed)
    hidden = hidden_decks(rules)
    players = list(state.players)
    decks = list(state.decks)
    turn = state.turn
    revealed = () if turn is None or sees_revealed(state, seat) else turn.revealed
    new_revealed = list(revealed)
    for deck_index, deck in enumerate(state.decks):
        holders = [p for p in range(len(players)) if p != seat and deck_index in hidden]
        pool = list(deck.draw)
        pool += [c for p in holders for c in hand(rules, players[p], deck_index)]
        places = [i for i, c in enumerate(revealed) if deck_of(rules, c) == deck_index]
        pool += [revealed[i] for i in places]
        if not pool:
            continue
        dealt, rng = rng.shuffled(sorted(pool))
        rest = list(dealt)
        for p in holders:
            size = len(hand(rules, players[p], deck_index))
            players[p] = with_hand(rules, players[p], deck_index, tuple(rest[:size]))
            rest = rest[size:]
        for i in places:
            new_revealed[i] = rest.pop(0)
        decks[deck_index] = evolve(deck, draw=tuple(rest))
    coins = state.players[seat].coins
    players = [p if i == seat else evolve(p, coins=coins) for i, p in enumerate(players)]
    fresh, rng = rng.next64()
    result = evolve(state, players=tuple(players), decks=tuple(decks), rng=Rng(fresh))
    if turn is not None and revealed:
        result = evolve(result, turn=evolve(turn, revealed=tuple(new_revealed)))
    return result


__all__ = ["FORMAT", "determinize", "hidden_decks", "view_for"]
