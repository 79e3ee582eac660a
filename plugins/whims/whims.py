"""Sultan's Whims: cards with a condition and a coin reward.

A whim in a player's hand (``PlayerState.held``) can be claimed in that player's turn
once its condition holds: ``claim <whim>`` pays its ``coins`` and lays it face up (the
whims deck's discard pile; the player's ``whims.claimed`` counter goes up). Each card's
``kind`` names what it measures; its ``params.at_least`` is the threshold and its
``subject`` (a colour, tile kind, tile value or token) what is counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from naqala.core.actions import Action
from naqala.core.content import ContentError, DeckCardSpec
from naqala.core.engine import Rules
from naqala.core.events import Event
from naqala.core.powers import Power, deck_options
from naqala.core.state import NOBODY, State, count_effect, evolve, get_extra, set_extra
from naqala.plugins.base.api import (
    FAKIR,
    discard_held,
    gain_coins,
    merchandise_types,
    own_turn,
    owned_tiles,
)
from naqala.plugins.whims import events
from naqala.plugins.whims.cities import WHIMS, whims_index
from naqala.plugins.whims.lake import lakeside_tiles

CLAIM = "claim"
#: player counter: how many whims the player has fulfilled
CLAIMED = "whims.claimed"


def whim_spec(rules: Rules, card: str) -> DeckCardSpec:
    return rules.card_specs[card]


def colour_of(rules: Rules, spec: DeckCardSpec) -> int:
    if spec.subject not in rules.colour_index:
        raise ContentError([f"content: whim {spec.id!r}: subject {spec.subject!r} is no colour"])
    return rules.colour_index[spec.subject]


class Whim(Power):
    """A whim's condition: ``measure`` counts the quantity, compared to ``at_least``."""

    when = "any time in your turn, once the condition holds"

    def describe(self, rules: Rules, card: str) -> str:
        return whim_spec(rules, card).text

    def measure(self, rules: Rules, state: State, owner: int, spec: DeckCardSpec) -> int:
        raise NotImplementedError

    def holds(self, rules: Rules, state: State, owner: int, card: str) -> bool:
        spec = whim_spec(rules, card)
        return self.measure(rules, state, owner, spec) >= spec.param("at_least")

    def options(self, rules: Rules, state: State, owner: int, card: str) -> Iterable[Action]:
        if own_turn(state, owner) is None or not self.holds(rules, state, owner, card):
            return ()
        return [Action(CLAIM, (card,))]

    def apply(self, rules: Rules, state: State, owner: int, card: str, action: Action) -> State:
        coins = whim_spec(rules, card).param("coins")
        state = discard_held(state, owner, whims_index(rules), card)
        p = state.players[owner]
        extras = set_extra(p.extras, CLAIMED, get_extra(p.extras, CLAIMED) + 1)
        state = state.replace_player(owner, evolve(p, extras=extras))
        state = count_effect(gain_coins(state, owner, coins), card)
        return rules.fire(state, Event(events.WHIM_CLAIMED, owner, what=card, count=coins))


class Kept(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: DeckCardSpec) -> int:
        return state.players[owner].meeples[colour_of(rules, spec)]


class KeptTotal(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: DeckCardSpec) -> int:
        return sum(state.players[owner].meeples)


class MostKept(Whim):
    """How many of the colour the owner has if that is strictly more than each
    opponent has; otherwise 0."""

    def measure(self, rules: Rules, state: State, owner: int, spec: DeckCardSpec) -> int:
        colour = colour_of(rules, spec)
        mine = state.players[owner].meeples[colour]
        others = [p.meeples[colour] for i, p in enumerate(state.players) if i != owner]
        return mine if all(mine > n for n in others) else 0


class TilesOfKind(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: DeckCardSpec) -> int:
        kinds = {t.kind for t in rules.tile_specs.values()}
        if spec.subject not in kinds:
            raise ContentError([f"content: whim {spec.id!r}: no tile kind {spec.subject!r}"])
        tiles = state.layout.tiles
        return sum(
            1 for t in owned_tiles(state, owner) if rules.tile(tiles[t]).kind == spec.subject
        )


class TilesValued(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: DeckCardSpec) -> int:
        if spec.subject not in ("blue", "red"):
            raise ContentError([f"content: whim {spec.id!r}: subject must be blue or red"])
        tiles = state.layout.tiles
        return sum(
            1 for t in owned_tiles(state, owner) if rules.tile(tiles[t]).value == spec.subject
        )


class Tiles(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: DeckCardSpec) -> int:
        return len(owned_tiles(state, owner))


class TileKinds(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: DeckCardSpec) -> int:
        tiles = state.layout.tiles
        return len({rules.tile(tiles[t]).kind for t in owned_tiles(state, owner)})


class ConnectedTiles(Whim):
    """The size of the largest group of the owner's tiles joined edge to edge (terrain
    does not matter: mountains and the lake do not split a group)."""

    def measure(self, rules: Rules, state: State, owner: int, spec: DeckCardSpec) -> int:
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
    def measure(self, rules: Rules, state: State, owner: int, spec: DeckCardSpec) -> int:
        if spec.subject not in rules.token_index:
            raise ContentError([f"content: whim {spec.id!r}: no token {spec.subject!r}"])
        index = rules.token_index[spec.subject]
        return sum(state.board.tokens[t][index] for t in owned_tiles(state, owner))


class MerchandiseKinds(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: DeckCardSpec) -> int:
        kinds = merchandise_types(rules)
        return len({c for c in state.players[owner].cards if c in kinds})


class SameMerchandise(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: DeckCardSpec) -> int:
        kinds = merchandise_types(rules)
        counts = Counter(c for c in state.players[owner].cards if c in kinds)
        return max(counts.values(), default=0)


class Fakirs(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: DeckCardSpec) -> int:
        return state.players[owner].cards.count(FAKIR)


class Djinns(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: DeckCardSpec) -> int:
        return len(state.players[owner].djinns)


class PathLength(Whim):
    """Tiles dropped on in the owner's move this turn."""

    def measure(self, rules: Rules, state: State, owner: int, spec: DeckCardSpec) -> int:
        turn = state.turn
        return len(turn.path) if turn is not None else 0


class Collected(Whim):
    """Meeples collected at the end of the owner's move this turn."""

    def measure(self, rules: Rules, state: State, owner: int, spec: DeckCardSpec) -> int:
        turn = state.turn
        return turn.taken if turn is not None and turn.colour != NOBODY else 0


class Lakeside(Whim):
    def measure(self, rules: Rules, state: State, owner: int, spec: DeckCardSpec) -> int:
        near = lakeside_tiles(rules, state.layout)
        return sum(1 for t in owned_tiles(state, owner) if t in near)


def whim_powers() -> dict[str, Power]:
    return {
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


def claim_options(rules: Rules, state: State) -> list[Action]:
    return deck_options(rules, state, WHIMS)


def apply_claim(rules: Rules, state: State, action: Action) -> State | None:
    player = state.decision.player
    if action.kind != CLAIM or not action.args:
        return None
    card = action.args[0]
    if card not in state.players[player].held:
        return None
    power = rules.card_powers[whim_spec(rules, card).kind]
    return power.apply(rules, state, player, card, action)


def explain_claim(rules: Rules, state: State, action: Action) -> str | None:
    """Why a typed ``claim`` is refused: no such whim, not in hand, not your turn, or
    the condition not met (with where the player stands)."""
    if action.kind != CLAIM:
        return None
    if len(action.args) != 1:
        return "name the whim to claim: claim <whim>"
    card = action.args[0]
    spec = rules.card_specs.get(card)
    if spec is None or spec.deck != WHIMS:
        return f"there is no whim {card!r}"
    player = state.decision.player
    if player < 0 or card not in state.players[player].held:
        return f"you do not hold the whim {spec.name}"
    if own_turn(state, player) is None:
        return "whims are claimed during your own turn"
    power = rules.card_powers[spec.kind]
    assert isinstance(power, Whim)
    now = power.measure(rules, state, player, spec)
    return f"{spec.name} is not fulfilled yet: {spec.text} (you have {now})"


def claimed(state: State, player: int) -> int:
    return get_extra(state.players[player].extras, CLAIMED)
