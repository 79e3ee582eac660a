"""The order of play of the base game (rulebook "Game turn").

A round is: bids in bid order; then, marker by marker in turn order, a turn of move →
tribe action → tile action → merchandise sale; then clean-up. Content's tile effects run
just before and after the tile action; ``turn-start`` fires as a turn begins, before the
move, ``before-tribe-action`` and ``after-tribe-action`` around the tribe's action, and
``turn-end`` once the sale is done. The
game ends after the round in which an end trigger fired. Each stage calls
``rules.proceed`` when it is done and this flow enters the next one.
"""

from __future__ import annotations

from naqala.core.content import DJINNS, RESOURCES
from naqala.core.engine import Rules
from naqala.core.events import Event
from naqala.core.stage import Flow
from naqala.core.state import (
    GAME_OVER,
    NOBODY,
    Decision,
    State,
    Turn,
    evolve,
    replace_at,
    turn_owner,
)
from naqala.plugins.base import events
from naqala.plugins.base.common import pieces_left, refill, set_deck
from naqala.plugins.base.effects import tile_effects, turn_end
from naqala.plugins.base.variants import (
    ROUND_CAP_FLAG,
    bidding_off,
    round_cap_reached,
    seated_without_bids,
)

#: flags that end the game after the round (trigger A and trigger B)
LAST_CAMEL = "last-camel"
NO_MOVES = "no-moves"
#: the event fired at clean-up, once the resource and djinn rows are refilled
CLEAN_UP = events.CLEAN_UP


class BaseFlow(Flow):
    def start(self, rules: Rules, state: State) -> State:
        return self._next_bid(rules, state)

    def proceed(self, rules: Rules, state: State, finished: str) -> State:
        if finished == "bid":
            return self._next_bid(rules, state)
        if finished in ("drop", "pick"):
            return self._after_move(rules, state)
        if finished.startswith("tribe:"):
            state = self._tribe_event(rules, state, events.AFTER_TRIBE_ACTION)
            assert state.turn is not None
            kind = rules.tile(state.layout.tiles[state.turn.here]).kind
            stage = f"tile:{kind}"
            if stage in rules.stages:
                return rules.enter(tile_effects(rules, state, kind, "before"), stage)
            return rules.enter(state, "sell")
        if finished.startswith("tile:"):
            return rules.enter(tile_effects(rules, state, finished[5:], "after"), "sell")
        if finished == "sell":
            return self._end_turn(rules, turn_end(rules, state))
        raise ValueError(f"the base flow does not know what follows stage {finished!r}")

    # -- bidding -----------------------------------------------------------------------

    def _next_bid(self, rules: Rules, state: State) -> State:
        if bidding_off(rules) and any(m != NOBODY for m in state.bid_track):
            return self._start_turn(rules, seated_without_bids(state))
        for marker in state.bid_track:
            if marker != NOBODY:
                player = state.markers[marker]
                return rules.enter(evolve(state, decision=Decision("bid", player)), "bid")
        return self._start_turn(rules, state)

    # -- turns -------------------------------------------------------------------------

    def _start_turn(self, rules: Rules, state: State) -> State:
        """Take the next marker off the turn track and put it on the first empty bid
        spot; then move meeples, unless no legal move exists (trigger B)."""
        spot = next((i for i, m in enumerate(state.turn_track) if m != NOBODY), None)
        if spot is None:
            return self._end_round(rules, state)
        marker = state.turn_track[spot]
        free = state.bid_track.index(NOBODY)
        player = state.markers[marker]
        state = evolve(
            state,
            turn_track=replace_at(state.turn_track, spot, NOBODY),
            bid_track=replace_at(state.bid_track, free, marker),
            turn=Turn(marker=marker),
            decision=Decision("pick", player),
        )
        state = rules.fire(state, Event(events.TURN_START, player))
        # ask the pick stage in use: a variant may have replaced the movement rules
        if not state.has_flag(NO_MOVES) and not rules.stage_options(state):
            state = state.with_flag(NO_MOVES)
        if state.has_flag(NO_MOVES):
            return rules.enter(state, "sell")
        return rules.enter(state, "pick")

    def _after_move(self, rules: Rules, state: State) -> State:
        assert state.turn is not None
        colour = rules.colours[state.turn.colour].id
        state = self._tribe_event(rules, state, events.BEFORE_TRIBE_ACTION)
        return rules.enter(state, f"tribe:{colour}")

    @staticmethod
    def _tribe_event(rules: Rules, state: State, name: str) -> State:
        """``before-tribe-action`` or ``after-tribe-action``, for the turn's owner on the
        turn's tile."""
        assert state.turn is not None
        return rules.fire(state, Event(name, turn_owner(state), tile=state.turn.here))

    def _end_turn(self, rules: Rules, state: State) -> State:
        player = state.decision.player
        if pieces_left(state.players[player]) == 0:
            state = state.with_flag(LAST_CAMEL)
        return self._start_turn(rules, evolve(state, turn=None))

    # -- clean-up ----------------------------------------------------------------------

    def _end_round(self, rules: Rules, state: State) -> State:
        rng = state.rng
        resources, rng = refill(
            rules.deck_in(state, RESOURCES), rules.content.setting("resource_row"), rng
        )
        djinns, rng = refill(rules.deck_in(state, DJINNS), rules.content.setting("djinn_row"), rng)
        state = set_deck(state, rules.deck_index[RESOURCES], resources)
        state = set_deck(state, rules.deck_index[DJINNS], djinns)
        state = evolve(state, rng=rng, turn=None)
        for player in range(len(state.players)):
            state = rules.fire(state, Event(events.ROUND_END, player))
        state = rules.fire(state, Event(CLEAN_UP, NOBODY))
        if round_cap_reached(rules, state):
            state = state.with_flag(ROUND_CAP_FLAG)
        if rules.game_ends(state):
            return evolve(state, decision=Decision(GAME_OVER, NOBODY))
        state = evolve(state, round=state.round + 1, decision=Decision("bid", NOBODY))
        return self._next_bid(rules, state)


def game_ends(state: State) -> bool:
    """Trigger A (a player placed their last camel) or B (no legal move was left), or
    the round cap (``end.after_round``) was reached."""
    return state.has_flag(LAST_CAMEL) or state.has_flag(NO_MOVES) or state.has_flag(ROUND_CAP_FLAG)
