"""The magic items that act on the board (fact sheet 3.1; every effect UNCONFIRMED, read
from the token's icon: docs/rules-notes.md, "The Artisans items"): the Enchanting Flute
gathers meeples (its own ``gather`` decision), the Flying Carpet makes a drop jump (the
Burning Scimitar, which kills a group of meeples, and the Tempest Talisman, which moves a
camel, are content: content/artisans-items.toml).

An item that moves or removes meeples never leaves a decision without an option: it
waits during the move and the assassins' kill, and at the pick it offers only what
leaves a legal move."""

from __future__ import annotations

from collections.abc import Iterable

from naqala.core.actions import Action
from naqala.core.content import CardSpec
from naqala.core.encoding import board_squares
from naqala.core.engine import Rules
from naqala.core.stage import Stage
from naqala.core.state import (
    Decision,
    State,
    add_at,
    evolve,
    get_extra,
    replace_at,
    set_extra,
)
from naqala.core.validate import Problem, shown
from naqala.plugins.base.api import (
    MEEPLES_SETTLED,
    Activated,
    leaves_a_pick,
    resume_interrupted,
)


class EnchantingFlute(Activated):
    """Chooses the tile; the meeples come one at a time in the ``gather`` decision."""

    when = "in your turn, except during the move and the assassins' kill"
    effect = (
        "Choose a tile: move 1 to {meeples} meeples, one at a time, onto it from the tiles "
        "sharing an edge with it."
    )

    def usable(self, rules: Rules, state: State, owner: int, card: CardSpec) -> bool:
        return state.decision.stage not in MEEPLES_SETTLED

    def target_domains(self, rules: Rules, card: CardSpec) -> tuple[tuple[str, ...], ...]:
        return (board_squares(rules),)

    def targets(
        self, rules: Rules, state: State, owner: int, card: CardSpec
    ) -> Iterable[tuple[str, ...]]:
        geo = state.geometry
        return [
            (geo.name(t),)
            for t in range(geo.size)
            if t not in state.layout.blocked and _sources(state, t)
        ]

    def act(
        self, rules: Rules, state: State, owner: int, card: CardSpec, target: tuple[str, ...]
    ) -> State:
        turn = state.turn
        assert turn is not None
        extras = set_extra(state.extras, FLUTE_TILE, state.geometry.parse(target[0]))
        extras = set_extra(extras, FLUTE_LEFT, card.param("meeples"))
        return evolve(
            state,
            extras=extras,
            turn=evolve(turn, resume=state.decision.stage),
            decision=Decision(GATHER, owner),
        )


GATHER = "gather"
FLUTE_TILE = "flute.tile"
FLUTE_LEFT = "flute.left"


def _sources(state: State, tile: int) -> list[int]:
    """The tiles sharing an edge with ``tile`` that hold meeples."""
    return [t for t in state.geometry.orthogonal[tile] if any(state.board.meeples[t])]


class Gather(Stage):
    """The Enchanting Flute's decision: ``gather <tile> <colour>`` moves one meeple from a
    tile next to the chosen one onto it; ``done`` stops (after the last one, play goes on
    by itself). At the pick, only meeples whose move leaves a legal move are offered."""

    def title(self, rules: Rules, state: State) -> str:
        tile = state.geometry.name(get_extra(state.extras, FLUTE_TILE))
        left = get_extra(state.extras, FLUTE_LEFT)
        return f"Enchanting Flute: move meeples onto {tile} ({left} at most)"

    def legal(self, rules: Rules, state: State) -> list[Action]:
        assert state.turn is not None
        to = get_extra(state.extras, FLUTE_TILE)
        geo, letters = state.geometry, rules.letters
        found = [Action("done")]
        for source in _sources(state, to):
            for colour, n in enumerate(state.board.meeples[source]):
                if not n:
                    continue
                moved = _moved(state, source, to, colour)
                if leaves_a_pick(rules, resume_interrupted(moved, moved.decision.player)):
                    found.append(Action("gather", (geo.name(source), letters[colour])))
        return found

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        if action.kind == "gather":
            source = state.geometry.parse(action.args[0])
            colour = rules.letters.index(action.args[1])
            state = _moved(state, source, get_extra(state.extras, FLUTE_TILE), colour)
            left = get_extra(state.extras, FLUTE_LEFT) - 1
            state = evolve(state, extras=set_extra(state.extras, FLUTE_LEFT, left))
            if left > 0 and len(self.legal(rules, state)) > 1:
                return state
        extras = tuple(kv for kv in state.extras if kv[0] not in (FLUTE_TILE, FLUTE_LEFT))
        return resume_interrupted(evolve(state, extras=extras), state.decision.player)


def flute_problems(state: State) -> list[Problem]:
    """While the Flute's meeples are gathered (stage ``gather``) its tile is on the board
    and at least one meeple may still come; at any other time neither counter is set."""
    extras = dict(state.extras)
    if state.decision.stage != GATHER:
        return [
            Problem(f"$.extras.{key}", f"set, but the Enchanting Flute is not played ({GATHER!r})")
            for key in (FLUTE_TILE, FLUTE_LEFT)
            if key in extras
        ]
    problems = []
    tile = extras.get(FLUTE_TILE)
    if tile is None or not 0 <= tile < len(state.layout.tiles):
        shown_tile = "missing" if tile is None else f"{shown(tile)} is no tile of the board"
        problems.append(Problem(f"$.extras.{FLUTE_TILE}", f"{shown_tile} (a board index)"))
    if extras.get(FLUTE_LEFT, 0) < 1:
        problems.append(Problem(f"$.extras.{FLUTE_LEFT}", "no meeple left to gather"))
    return problems


def _moved(state: State, source: int, to: int, colour: int) -> State:
    meeples = state.board.meeples
    meeples = replace_at(meeples, source, add_at(meeples[source], colour, -1))
    meeples = replace_at(meeples, to, add_at(meeples[to], colour, 1))
    return evolve(state, board=evolve(state.board, meeples=meeples))


class FlyingCarpet(Activated):
    stages = frozenset({"drop"})
    when = "during your move, instead of a drop"
    effect = (
        "Drop the next meeple {jump} tiles away in a straight line, flying over the tiles "
        "between (impassable ones and mountains too); the move goes on from there."
    )

    def target_domains(self, rules: Rules, card: CardSpec) -> tuple[tuple[str, ...], ...]:
        return (board_squares(rules), tuple(rules.letters))

    def targets(
        self, rules: Rules, state: State, owner: int, card: CardSpec
    ) -> Iterable[tuple[str, ...]]:
        turn = state.turn
        assert turn is not None
        geo, letters = state.geometry, rules.letters
        jump = card.param("jump")
        row, col = divmod(turn.here, geo.cols)
        found = []
        for dr, dc in ((-jump, 0), (jump, 0), (0, -jump), (0, jump)):
            r, c = row + dr, col + dc
            if not (0 <= r < geo.rows and 0 <= c < geo.cols):
                continue
            tile = r * geo.cols + c
            if tile in geo.impassable or tile in state.layout.blocked:
                continue
            for colour, n in enumerate(turn.hand):
                if n and self._lands(rules, state, tile, colour):
                    found.append((geo.name(tile), letters[colour]))
        return found

    @staticmethod
    def _lands(rules: Rules, state: State, tile: int, colour: int) -> bool:
        """The drop keeps the move legal: the last meeple lands on its colour, or the
        meeples left can still end the move."""
        assert state.turn is not None
        if sum(state.turn.hand) == 1:
            return bool(state.board.meeples[tile][colour])
        dropped = _drop(rules, state, tile, colour)
        return bool(rules.stages[state.decision.stage].legal(rules, dropped))

    def act(
        self, rules: Rules, state: State, owner: int, card: CardSpec, target: tuple[str, ...]
    ) -> State:
        stage = rules.stages[state.decision.stage]  # the drop stage in use
        return stage.apply(rules, state, Action("drop", target))


def _drop(rules: Rules, state: State, tile: int, colour: int) -> State:
    """The state after dropping one meeple on ``tile`` (the move not yet ended)."""
    turn = state.turn
    assert turn is not None
    meeples = replace_at(state.board.meeples, tile, add_at(state.board.meeples[tile], colour, 1))
    return evolve(
        state,
        board=evolve(state.board, meeples=meeples),
        turn=evolve(turn, path=(*turn.path, tile), hand=add_at(turn.hand, colour, -1)),
    )
