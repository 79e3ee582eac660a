"""House rule: every player starts with a Fakir in hand, the first ones of the shuffled
resources pile.

A code hook the native engine calls back (docs/hooks.md, "Hooks called back"): once the
kernel has set a new game up, it hands the whole state to ``naqala_adjust_new_game`` as a
Python ``State`` and reads the answer back, once a game, so the same file plays on both
engines and the games stay native. (The setting ``start.cards`` says the same in data.)
"""

from __future__ import annotations

import attrs

from naqala.core.engine import Rules
from naqala.core.hookspecs import hookimpl
from naqala.core.state import State

NAME = "fakirs-in-hand"
VERSION = "1.0"
DESCRIPTION = "Every player starts with a Fakir (new game, code)"
DECK, FAKIR = "resources", "fakir"


@hookimpl
def naqala_adjust_new_game(rules: Rules, state: State) -> State:
    deck = rules.deck_index[DECK]
    pile = list(state.decks[deck].draw)
    players = []
    for player in state.players:
        hands = list(player.hands)
        if FAKIR in pile:
            pile.remove(FAKIR)
            hands[deck] = (*hands[deck], FAKIR)
        players.append(attrs.evolve(player, hands=tuple(hands)))
    decks = list(state.decks)
    decks[deck] = attrs.evolve(decks[deck], draw=tuple(pile))
    return attrs.evolve(state, players=tuple(players), decks=tuple(decks))
