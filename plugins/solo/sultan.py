"""Sultan Yazid, the solo mode's non-player opponent: what he holds and what his turn does.

He holds nothing a player holds: his meeples and cards are set aside beside the board
(``aside.*`` state counters, which the core counts as in the game), his camels in supply
are the counter ``sultan.camels`` and the tiles he takes are owned by ``NON_PLAYER``. On
each target tile he takes every meeple and puts a camel there (facts Y20–Y25 and Y29, a
fan summary: UNCONFIRMED, their numbers in content/solo.toml).
"""

from __future__ import annotations

from naqala.core.content import DJINNS, RESOURCES
from naqala.core.engine import Rules
from naqala.core.state import (
    ASIDE_CARD,
    ASIDE_MEEPLE,
    GAME_OVER,
    NOBODY,
    NON_PLAYER,
    Decision,
    State,
    add_at,
    aside_cards,
    aside_meeples,
    evolve,
    get_extra,
    replace_at,
    set_aside,
    set_extra,
)
from naqala.plugins.base.api import FAKIR, gain_coins, set_deck, take_from_row, tiles_around

#: the one seat of a solo game
PLAYER = 0
#: Yazid's camels still in supply
CAMELS = "sultan.camels"
#: why the player lost, when they did (a code of ``LOSSES``)
LOST = "sultan.lost"
#: the colours Yazid treats by rule, by id
VIZIER, ELDER, MERCHANT, BUILDER, ASSASSIN = "yellow", "white", "green", "blue", "red"
#: the reasons a solo game is lost, by code (facts Y9–Y12; the code is what the state
#: keeps in ``sultan.lost``). Named for the loss, not the component: the deck is
#: ``naqala.core.content.DJINNS``, the one spelling of its name.
LOST_TO_ASSASSINS, LOST_TO_DJINNS, LOST_TO_DEBT, LOST_TO_VIZIERS = 1, 2, 3, 4
LOSSES = {
    LOST_TO_ASSASSINS: "assassins",
    LOST_TO_DJINNS: "djinns",
    LOST_TO_DEBT: "debt",
    LOST_TO_VIZIERS: "viziers",
}


def setting(rules: Rules, key: str) -> int:
    return rules.content.setting(key)


def camels_left(state: State) -> int:
    return get_extra(state.extras, CAMELS)


def held(state: State, colour: str) -> int:
    """Meeples of ``colour`` (an id) in Yazid's area."""
    return aside_meeples(state, colour)


def djinns_held(rules: Rules, state: State) -> list[str]:
    """The djinns in Yazid's area, by id (sorted)."""
    return sorted(
        card
        for card, copies in aside_cards(state).items()
        for _ in range(copies)
        if rules.card_specs[card].deck == DJINNS
    )


def fakirs_held(state: State) -> int:
    return aside_cards(state).get(FAKIR, 0)


def lost_reason(state: State) -> int:
    """The code of ``LOSSES`` the player lost by, or 0."""
    return get_extra(state.extras, LOST)


def lose(state: State, reason: int) -> State:
    """The game ends at once: the player has lost (the first reason found stands)."""
    if lost_reason(state):
        return state
    state = evolve(state, extras=set_extra(state.extras, LOST, reason))
    return evolve(state, turn=None, decision=Decision(GAME_OVER, NOBODY))


def sultan_turn(rules: Rules, state: State, targets: list[int]) -> State:
    """Yazid clears each target tile, then buys a djinn if he can; the game ends at once
    if that makes the player lose (facts Y9–Y11)."""
    for tile in targets:
        state = clear_tile(rules, state, tile)
        if lost_reason(state):
            return state
    return buy_djinns(rules, state)


def clear_tile(rules: Rules, state: State, tile: int) -> State:
    """Yazid takes every meeple of an unowned target tile and puts a camel there; on a
    tile somebody owns he does nothing (Y29)."""
    if state.board.owners[tile] != NOBODY:
        return state
    meeples = state.board.meeples[tile]
    if not any(meeples) and not setting(rules, "yazid_takes_empty_tile"):
        return state
    board = evolve(state.board, meeples=replace_at(state.board.meeples, tile, (0,) * len(meeples)))
    state = evolve(state, board=board)
    debt = 0
    for index, count in enumerate(meeples):
        if not count:
            continue
        colour = rules.colours[index].id
        if rules.content.settings.get(f"yazid_keeps_{colour}", 0):
            state = set_aside(state, ASIDE_MEEPLE + colour, count)
            continue
        state = evolve(state, bag=add_at(state.bag, index, count))  # back to the bag
        if colour == MERCHANT:
            state = discard_row(rules, state, count * setting(rules, "merchant_cards"))
        elif colour == BUILDER:
            debt += count * blue_tiles_around(rules, state, tile) * setting(rules, "builder_coins")
    state = place_camel(state, tile)
    if held(state, ASSASSIN) >= setting(rules, "assassins_lose"):
        return lose(state, LOST_TO_ASSASSINS)
    return pay(state, debt)


def blue_tiles_around(rules: Rules, state: State, tile: int) -> int:
    """Blue-valued tiles in the 3×3 block around ``tile``, itself included: the base
    game's builder payout (Y24)."""
    return tiles_around(rules, state, tile, "blue")


def place_camel(state: State, tile: int) -> State:
    """One of Yazid's camels on ``tile``, if he has one left."""
    left = camels_left(state)
    if not left:
        return state
    owners = replace_at(state.board.owners, tile, NON_PLAYER)
    state = evolve(state, board=evolve(state.board, owners=owners))
    return evolve(state, extras=set_extra(state.extras, CAMELS, left - 1))


def pay(state: State, debt: int) -> State:
    """The player pays Yazid ``debt`` coins (to the bank); unable to pay in full, they
    pay what they have and lose at once (Y11)."""
    if not debt:
        return state
    coins = state.players[PLAYER].coins
    state = gain_coins(state, PLAYER, -min(debt, coins))
    return lose(state, LOST_TO_DEBT) if debt > coins else state


def discard_row(rules: Rules, state: State, count: int) -> State:
    """Yazid's merchants: ``count`` cards leave the front of the resource row to the
    discard pile; a Fakir among them goes to Yazid, or is passed over, as content says."""
    resources = rules.deck_index[RESOURCES]
    to_yazid = setting(rules, "merchant_fakirs_to_yazid")
    for _ in range(count):
        row = state.decks[resources].row
        position = next((i for i, card in enumerate(row) if to_yazid or card != FAKIR), None)
        if position is None:
            break
        state, card = take_from_row(state, resources, position)
        if card == FAKIR:
            state = set_aside(state, ASIDE_CARD + FAKIR, 1)
        else:
            state = discard_card(state, resources, card)
    return state


def discard_card(state: State, deck: int, card: str) -> State:
    pile = state.decks[deck]
    return set_deck(state, deck, evolve(pile, discard=(*pile.discard, card)))


def buy_djinns(rules: Rules, state: State) -> State:
    """At the end of his turn Yazid buys the first djinn of the row with 1 elder and 1
    Fakir, or else 2 elders (Y22), up to ``yazid_djinns_per_turn`` djinns; his elders go
    back to the bag and his Fakir to the discard pile."""
    djinns = rules.deck_index[DJINNS]
    resources = rules.deck_index[RESOURCES]
    elder = rules.colour_index[ELDER]
    for _ in range(setting(rules, "yazid_djinns_per_turn")):
        elders, fakirs = held(state, ELDER), fakirs_held(state)
        if not state.decks[djinns].row or not (elders >= 2 or (elders and fakirs)):
            break
        spent = 1 if fakirs else 2
        state = set_aside(state, ASIDE_MEEPLE + ELDER, -spent)
        state = evolve(state, bag=add_at(state.bag, elder, spent))
        if fakirs:
            state = set_aside(state, ASIDE_CARD + FAKIR, -1)
            state = discard_card(state, resources, FAKIR)
        state, card = take_from_row(state, djinns, 0)
        state = set_aside(state, ASIDE_CARD + card, 1)
        if len(djinns_held(rules, state)) >= setting(rules, "djinns_lose"):
            return lose(state, LOST_TO_DJINNS)
    return state
