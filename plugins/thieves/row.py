"""The face-up thief beside the djinns: taken at a sacred place instead of a djinn, for
what a djinn costs there, and refilled at clean-up (facts T2-T4)."""

from __future__ import annotations

from naqala.core.actions import Action
from naqala.core.engine import Rules
from naqala.core.state import Deck, State, evolve
from naqala.plugins.base.api import (
    FAKIR,
    change_kept,
    discard_cards,
    give_cards,
    own_turn,
    set_deck,
    take_from_row,
)
from naqala.plugins.thieves.steal import TAKEN, mark

THIEVES = "thieves"
#: the decision where thieves are taken: the base game's sacred place
SACRED_PLACE = "tile:sacred-place"
#: the action taking the face-up thief: ``thief <card> <payment>``
TAKE = "thief"
#: who pays elders (the colour the base game's sacred place takes)
ELDER = "white"


def thieves_index(rules: Rules) -> int | None:
    return rules.deck_index.get(THIEVES)


def payments(rules: Rules, state: State) -> list[str]:
    """What a djinn costs at this sacred place now: the payments its own options name
    (``djinn <id> EE``), so a thief always costs what a djinn costs."""
    stage = rules.stages[state.decision.stage]
    found = {a.args[-1] for a in stage.legal(rules, state) if a.kind == "djinn" and a.args}
    return sorted(found)


def take_options(rules: Rules, state: State) -> list[Action]:
    """``thief <card> <payment>`` at a sacred place in the player's own turn."""
    index = thieves_index(rules)
    player = state.decision.player
    if (
        index is None
        or state.decision.stage != SACRED_PLACE
        or player < 0
        or own_turn(state, player) is None
    ):
        return []
    row = state.decks[index].row
    return [
        Action(TAKE, (card, pay)) for card in sorted(set(row)) for pay in payments(rules, state)
    ]


def take_thief(rules: Rules, state: State, action: Action) -> State | None:
    """Pay, take the thief into hand (not usable this turn) and end the sacred place."""
    index = thieves_index(rules)
    if action.kind != TAKE or index is None or len(action.args) != 2:
        return None
    card, payment = action.args
    player = state.decision.player
    state = change_kept(state, player, rules.colour_index[ELDER], -payment.count("E"))
    if payment.count("F"):
        state = discard_cards(state, player, (FAKIR,) * payment.count("F"))
    state, taken = take_from_row(state, index, state.decks[index].row.index(card))
    state = give_cards(rules, state, player, index, (taken,))
    turn = state.turn
    assert turn is not None
    state = evolve(state, turn=mark(turn, TAKEN + taken))
    return rules.proceed(state, state.decision.stage)


def refill(rules: Rules, state: State) -> State:
    """At clean-up the row is filled again from the draw pile; a used thief comes back
    only with ``thieves_reshuffle = 1`` (the discards shuffled when the pile is empty)."""
    index = thieves_index(rules)
    if index is None:
        return state
    size = rules.content.setting("thieves_row")
    reshuffle = rules.content.setting("thieves_reshuffle")
    deck, rng = state.decks[index], state.rng
    row, draw, discard = list(deck.row), deck.draw, deck.discard
    while len(row) < size:
        if not draw and reshuffle and discard:
            draw, rng = rng.shuffled(discard)
            discard = ()
        if not draw:
            break
        row.append(draw[0])
        draw = draw[1:]
    if len(row) == len(deck.row):
        return state
    return evolve(set_deck(state, index, Deck(draw=draw, row=tuple(row), discard=discard)), rng=rng)
