"""The magic items of version 0.1.0 of the Artisans (naqala 0.1's designed items), whose
powers changed in 0.2.0: kept so that a game saved with 0.1.0 replays as it was played
(``edition_0_1``). The Fabulous Lamp and the precious items did not change."""

from __future__ import annotations

from collections.abc import Iterable

from naqala.core.content import RESOURCES, CardSpec
from naqala.core.encoding import board_squares
from naqala.core.engine import Rules
from naqala.core.powers import Power
from naqala.core.state import NOBODY, State, evolve
from naqala.plugins.artisans.items import ITEMS, item_powers
from naqala.plugins.base.api import KILLS, TARGET, Activated, draw_resource, take_tile


class BurningScimitar(Activated):
    stages = frozenset({"pick", "drop", "tribe:red", "kill"})
    when = "in your turn, before your assassins kill"
    effect = "Your assassins kill {kills} more meeple(s) this turn (same tile or same opponent)."

    def usable(self, rules: Rules, state: State, owner: int, card: CardSpec) -> bool:
        turn = state.turn
        return turn is not None and not TARGET.of(turn)

    def act(
        self, rules: Rules, state: State, owner: int, card: CardSpec, target: tuple[str, ...]
    ) -> State:
        turn = state.turn
        assert turn is not None
        return evolve(state, turn=KILLS.on(turn, KILLS.of(turn) + card.param("kills")))


class HornOfPlenty(Activated):
    when = "any time in your turn"
    effect = "Take the top {cards} resource cards (the discards are reshuffled when needed)."

    def targets(
        self, rules: Rules, state: State, owner: int, card: CardSpec
    ) -> Iterable[tuple[str, ...]]:
        # like Sloar: with no card in the pile or the discards it would do nothing
        deck = rules.deck_in(state, RESOURCES)
        return [()] if deck.draw or deck.discard else []

    def act(
        self, rules: Rules, state: State, owner: int, card: CardSpec, target: tuple[str, ...]
    ) -> State:
        for _ in range(card.param("cards")):
            state, _drawn = draw_resource(rules, state, owner)
        return state


class TempestTalisman(Activated):
    when = "any time in your turn, with a camel left"
    effect = "Take control of an empty tile (no camel, meeple, palm tree or palace)."

    def target_domains(self, rules: Rules, card: CardSpec) -> tuple[tuple[str, ...], ...]:
        return (board_squares(rules),)

    def targets(
        self, rules: Rules, state: State, owner: int, card: CardSpec
    ) -> Iterable[tuple[str, ...]]:
        if state.players[owner].camels == 0:
            return []
        geo = state.geometry
        return [
            (geo.name(t),)
            for t in range(geo.size)
            if t not in state.layout.blocked
            and state.board.owners[t] == NOBODY
            and not any(state.board.meeples[t])
            and not any(state.board.tokens[t])
        ]

    def act(
        self, rules: Rules, state: State, owner: int, card: CardSpec, target: tuple[str, ...]
    ) -> State:
        return take_tile(rules, state, owner, state.geometry.parse(target[0]))


def item_powers_0_1() -> dict[str, Power]:
    """Today's item powers with the three whose effect changed in 0.2.0 put back."""
    old: dict[str, Power] = {
        "burning-scimitar": BurningScimitar(),
        "horn-of-plenty": HornOfPlenty(),
        "tempest-talisman": TempestTalisman(),
    }
    return {**item_powers(), **{f"{ITEMS}:{kind}": power for kind, power in old.items()}}
