"""The round of a solo game: Yazid's roll, the player's choice to outbid him, the turn.

There are no bid or turn-order tracks (Y5): the stage registered as ``bid`` replaces the
base game's bidding. It rolls Yazid's dice and offers ``bid 0`` (Yazid clears his
target(s) now, then you play) or ``bid <dice sum>`` (you outbid him: pay the sum to the
bank and play first, Y17). Either way the one turn marker moves on for free. After an
outbid, Yazid clears his target(s) once your turn is over, unless content says he skips
the round (``yazid_plays_after_outbid``, UNCONFIRMED).
"""

from __future__ import annotations

from naqala.core.actions import Action
from naqala.core.engine import Rules
from naqala.core.stage import Stage, WrappedFlow
from naqala.core.state import NOBODY, State, evolve, get_extra, replace_at, set_extra
from naqala.plugins.base.api import gain_coins
from naqala.plugins.solo import dice
from naqala.plugins.solo.sultan import PLAYER, lost_reason, sultan_turn

#: the last round the player outbid Yazid in (0: never)
OUTBID = "sultan.outbid"
#: 1 while Yazid is to clear his target(s) after the player's turn
AFTER = "sultan.after"


def outbid_allowed(rules: Rules, state: State) -> bool:
    """The player can pay the dice sum, and did not outbid last round if content forbids
    two in a row (Y26)."""
    if state.players[PLAYER].coins < dice.outbid_cost(state):
        return False
    last = get_extra(state.extras, OUTBID)  # 0: never
    if rules.content.setting("outbid_twice_in_a_row") or not last:
        return True
    return last < state.round - 1


def where(state: State) -> str:
    return " and ".join(state.geometry.name(t) for t in dice.targets(state))


class SultansRoll(Stage):
    """``bid 0``: let Yazid clear his target(s) first; ``bid <n>``: outbid him for n."""

    in_turn = False

    def enter(self, rules: Rules, state: State) -> State:
        if not dice.rolled_this_round(state):
            state = dice.roll(rules, state)
        if not outbid_allowed(rules, state):
            return self.apply(rules, state, Action("bid", ("0",)))
        return super().enter(rules, state)

    def legal(self, rules: Rules, state: State) -> list[Action]:
        options = [Action("bid", ("0",))]
        if outbid_allowed(rules, state):
            options.append(Action("bid", (str(dice.outbid_cost(state)),)))
        return options

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        if action.args[0] == "0":
            state = sultan_turn(rules, state, dice.targets(state))
            if lost_reason(state):
                return state
        else:
            state = gain_coins(state, PLAYER, -dice.outbid_cost(state))
            extras = set_extra(state.extras, OUTBID, state.round)
            after = rules.content.setting("yazid_plays_after_outbid")
            state = evolve(state, extras=set_extra(extras, AFTER, after))
        return rules.proceed(move_marker(state), self.name)

    def title(self, rules: Rules, state: State) -> str:
        white, black = dice.dice(state)
        return (
            f"Sultan Yazid rolled white {white}, black {black}: he targets {where(state)}. "
            f"Outbid him for {dice.outbid_cost(state)} coins and play first?"
        )

    def option_note(self, rules: Rules, state: State, action: Action) -> str:
        if action.args[0] == "0":
            return f"let Yazid clear {where(state)} first"
        return "outbid Yazid: pay and play first"

    def explain(self, rules: Rules, state: State, action: Action) -> str | None:
        if action.kind != "bid":
            return None
        cost = dice.outbid_cost(state)
        if state.players[PLAYER].coins < cost:
            return f"outbidding Yazid costs {cost} coins (the dice sum); you have fewer"
        if not outbid_allowed(rules, state):
            return "you outbid Yazid last round: not two rounds in a row"
        return f"the options are bid 0 (Yazid first) and bid {cost} (outbid him)"


def move_marker(state: State) -> State:
    """The turn marker goes from the bid track to the one turn spot, free of charge."""
    marker = next(m for m in state.bid_track if m != NOBODY)
    return evolve(
        state,
        bid_track=replace_at(state.bid_track, state.bid_track.index(marker), NOBODY),
        turn_track=replace_at(state.turn_track, 0, marker),
    )


class SoloFlow(WrappedFlow):
    """The base flow, with Yazid's deferred turn once an outbidding player's turn is over."""

    def proceed(self, rules: Rules, state: State, finished: str) -> State:
        if finished == "sell" and get_extra(state.extras, AFTER):
            state = evolve(state, extras=set_extra(state.extras, AFTER, 0))
            state = sultan_turn(rules, state, dice.targets(state))
            if lost_reason(state):
                return state
        return self.inner.proceed(rules, state, finished)
