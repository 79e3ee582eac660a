"""Sultan's Whims: cards with a condition and a coin reward.

A whim in a player's hand (the whims deck's hand) can be claimed in that player's turn
once its condition holds: ``claim <whim>`` pays its ``coins`` and lays it face up (the
whims deck's discard pile; the player's ``whims.claimed`` counter goes up). The one card
router does the claiming and the explaining, following the whims deck's policy. Each card's
``kind`` names what it measures; its ``params.at_least`` is the threshold and its
``subject`` (a colour, tile kind, tile value or token) what is counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from naqala.core.content import CardSpec, ContentError
from naqala.core.engine import Rules
from naqala.core.events import Event
from naqala.core.powers import Power
from naqala.core.state import NOBODY, State, evolve, get_extra, set_extra
from naqala.plugins.base.api import (
    FAKIR,
    Activated,
    gain_coins,
    merchandise_types,
    owned_tiles,
)
from naqala.plugins.whims import events
from naqala.plugins.whims.cities import WHIMS
from naqala.plugins.whims.lake import lakeside_tiles

#: player counter: how many whims the player has fulfilled
CLAIMED = "whims.claimed"


def colour_of(rules: Rules, spec: CardSpec) -> int:
    if spec.subject not in rules.colour_index:
        raise ContentError([f"content: whim {spec.id!r}: subject {spec.subject!r} is no colour"])
    return rules.colour_index[spec.subject]


class Whim(Activated):
    """A whim's condition: ``measure`` counts the quantity, compared to ``at_least``; once
    it holds, ``claim <whim>`` (the whims deck's verb) pays ``params.coins``."""

    when = "any time in your turn, once the condition holds"

    def describe(self, rules: Rules, card: CardSpec) -> str:
        """The condition, then how the whim is claimed and what it pays."""
        coins = card.params.get("coins")
        reward = f", for {coins} coins" if coins is not None else ""
        return f"{card.text} Claim it in your turn once this holds{reward}."

    def measure(self, rules: Rules, state: State, owner: int, spec: CardSpec) -> int:
        raise NotImplementedError

    def targets(
        self, rules: Rules, state: State, owner: int, card: CardSpec
    ) -> Iterable[tuple[str, ...]]:
        return [()] if self.measure(rules, state, owner, card) >= card.param("at_least") else []

    def act(
        self, rules: Rules, state: State, owner: int, card: CardSpec, target: tuple[str, ...]
    ) -> State:
        coins = card.param("coins")
        p = state.players[owner]
        extras = set_extra(p.extras, CLAIMED, get_extra(p.extras, CLAIMED) + 1)
        state = state.replace_player(owner, evolve(p, extras=extras))
        state = gain_coins(state, owner, coins)
        return rules.fire(state, Event(events.WHIM_CLAIMED, owner, what=card.id, count=coins))

    def explain(self, rules: Rules, state: State, owner: int, card: CardSpec) -> str | None:
        now = self.measure(rules, state, owner, card)
        return f"{card.name} is not fulfilled yet: {card.text} (you have {now})"


class Kept(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: CardSpec) -> int:
        return state.players[owner].meeples[colour_of(rules, spec)]


class KeptTotal(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: CardSpec) -> int:
        return sum(state.players[owner].meeples)


class MostKept(Whim):
    """How many of the colour the owner has if that is strictly more than each
    opponent has; otherwise 0."""

    def measure(self, rules: Rules, state: State, owner: int, spec: CardSpec) -> int:
        colour = colour_of(rules, spec)
        mine = state.players[owner].meeples[colour]
        others = [p.meeples[colour] for i, p in enumerate(state.players) if i != owner]
        return mine if all(mine > n for n in others) else 0


class TilesOfKind(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: CardSpec) -> int:
        kinds = {t.kind for t in rules.tile_specs.values()}
        if spec.subject not in kinds:
            raise ContentError([f"content: whim {spec.id!r}: no tile kind {spec.subject!r}"])
        tiles = state.layout.tiles
        return sum(
            1 for t in owned_tiles(state, owner) if rules.tile(tiles[t]).kind == spec.subject
        )


class TilesValued(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: CardSpec) -> int:
        if spec.subject not in ("blue", "red"):
            raise ContentError([f"content: whim {spec.id!r}: subject must be blue or red"])
        tiles = state.layout.tiles
        return sum(
            1 for t in owned_tiles(state, owner) if rules.tile(tiles[t]).value == spec.subject
        )


class Tiles(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: CardSpec) -> int:
        return len(owned_tiles(state, owner))


class TileKinds(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: CardSpec) -> int:
        tiles = state.layout.tiles
        return len({rules.tile(tiles[t]).kind for t in owned_tiles(state, owner)})


class ConnectedTiles(Whim):
    """The size of the largest group of the owner's tiles joined edge to edge (terrain
    does not matter: mountains and the lake do not split a group)."""

    def measure(self, rules: Rules, state: State, owner: int, spec: CardSpec) -> int:
        mine = set(owned_tiles(state, owner))
        orthogonal = state.geometry.orthogonal
        best = 0
        while mine:
            todo = [mine.pop()]
            size = 0
            while todo:
                size += 1
                for nxt in orthogonal[todo.pop()]:
                    if nxt in mine:
                        mine.remove(nxt)
                        todo.append(nxt)
            best = max(best, size)
        return best


class TokensOnTiles(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: CardSpec) -> int:
        if spec.subject not in rules.token_index:
            raise ContentError([f"content: whim {spec.id!r}: no token {spec.subject!r}"])
        index = rules.token_index[spec.subject]
        return sum(state.board.tokens[t][index] for t in owned_tiles(state, owner))


class MerchandiseKinds(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: CardSpec) -> int:
        kinds = merchandise_types(rules)
        return len({c for c in state.players[owner].cards if c in kinds})


class SameMerchandise(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: CardSpec) -> int:
        kinds = merchandise_types(rules)
        counts = Counter(c for c in state.players[owner].cards if c in kinds)
        return max(counts.values(), default=0)


class Fakirs(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: CardSpec) -> int:
        return state.players[owner].cards.count(FAKIR)


class Djinns(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: CardSpec) -> int:
        return len(state.players[owner].djinns)


class PathLength(Whim):
    """Tiles dropped on in the owner's move this turn."""

    def measure(self, rules: Rules, state: State, owner: int, spec: CardSpec) -> int:
        turn = state.turn
        return len(turn.path) if turn is not None else 0


class Collected(Whim):
    """Meeples collected at the end of the owner's move this turn."""

    def measure(self, rules: Rules, state: State, owner: int, spec: CardSpec) -> int:
        turn = state.turn
        return turn.taken if turn is not None and turn.colour != NOBODY else 0


class Lakeside(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: CardSpec) -> int:
        near = lakeside_tiles(rules, state.layout)
        return sum(1 for t in owned_tiles(state, owner) if t in near)


def whim_powers() -> dict[str, Power]:
    powers: dict[str, Power] = {
        "kept": Kept(),
        "kept-total": KeptTotal(),
        "most-kept": MostKept(),
        "tiles-of-kind": TilesOfKind(),
        "tiles-valued": TilesValued(),
        "tiles": Tiles(),
        "tile-kinds": TileKinds(),
        "connected-tiles": ConnectedTiles(),
        "tokens-on-tiles": TokensOnTiles(),
        "merchandise-kinds": MerchandiseKinds(),
        "same-merchandise": SameMerchandise(),
        "fakirs": Fakirs(),
        "djinns": Djinns(),
        "path-length": PathLength(),
        "collected": Collected(),
        "lakeside": Lakeside(),
    }
    return {f"{WHIMS}:{kind}": power for kind, power in powers.items()}


def claimed(state: State, player: int) -> int:
    return get_extra(state.players[player].extras, CLAIMED)
