"""A palace or palm tree placed for a player by an effect (Bouraq, Enki, any plugin's
power): when the player holds a power that may put it elsewhere instead (one whose
``redirects`` names the token: Hagis, Lamia, "when placing a palace / palm tree"), the
placement becomes a decision of its own, ``place <tile>`` or that power's option;
otherwise the token is placed at once.

The decision is a step of the decision the effect was used at: the pending tile waits in
the state's counters (``placing:<token>``) and, once placed, play returns to that
decision exactly as it was (the village's own placement, a drop, the sale...).
"""

from __future__ import annotations

from naqala.core.actions import Action
from naqala.core.engine import Rules
from naqala.core.stage import Stage
from naqala.core.state import Decision, State, evolve, get_extra, set_extra
from naqala.plugins.base.cards import PLACING_STEP, held_by
from naqala.plugins.base.common import current, place_token


def stage_name(token: str) -> str:
    return f"{PLACING_STEP}{token}"


def _key(token: str) -> str:
    return f"{PLACING_STEP}{token}"


def pending_tile(state: State, token: str) -> int:
    """The tile a token waiting at its ``placing:<token>`` decision would go to."""
    return get_extra(state.extras, _key(token), -1)


def redirect_options(rules: Rules, state: State, player: int, token: str) -> list[Action]:
    """The options of ``player``'s powers that place ``token`` elsewhere (their
    ``redirects`` names the token), at the pending decision."""
    found: list[Action] = []
    seen: set[str] = set()
    for card, power in held_by(rules, state, player):
        if getattr(power, "redirects", "") == token and card.id not in seen:
            seen.add(card.id)
            found.extend(power.options(rules, state, player, card))
    return found


def place_token_for(rules: Rules, state: State, player: int, token: str, tile: int) -> State:
    """``player`` places ``token`` on ``tile`` through an effect; if a power of theirs may
    put it on another tile instead, they decide first (the ``placing:<token>`` step)."""
    turn = state.turn
    if state.pool[rules.token_index[token]] == 0 or turn is None:
        return place_token(rules, state, player, token, tile)
    caller = state.decision.stage
    waiting = evolve(
        state,
        extras=set_extra(state.extras, _key(token), tile),
        turn=evolve(turn, callers=(*turn.callers, caller)),
        decision=Decision(stage_name(token), player),
    )
    if redirect_options(rules, waiting, player, token):
        return waiting
    return place_token(rules, state, player, token, tile)


def leave_placing(state: State, token: str) -> State:
    """End the ``placing:<token>`` step without placing the token: play returns to the
    decision the effect was used at (a power that redirects it places it itself)."""
    turn = state.turn
    assert turn is not None and turn.callers
    return evolve(
        state,
        extras=tuple(kv for kv in state.extras if kv[0] != _key(token)),
        turn=evolve(turn, callers=turn.callers[:-1]),
        decision=Decision(turn.callers[-1], current(state)),
    )


def placed(rules: Rules, state: State, token: str, tile: int) -> State:
    """End the ``placing:<token>`` step by putting the token on ``tile``; play returns to
    the decision the effect was used at."""
    player = current(state)
    return place_token(rules, leave_placing(state, token), player, token, tile)


class Placing(Stage):
    """``place <tile>``: the token goes where the effect put it."""

    def __init__(self, token: str) -> None:
        self.token = token

    def title(self, rules: Rules, state: State) -> str:
        name = rules.tokens[rules.token_index[self.token]].name.lower()
        return f"Place a {name}"

    def legal(self, rules: Rules, state: State) -> list[Action]:
        return [Action("place", (state.geometry.name(pending_tile(state, self.token)),))]

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        return placed(rules, state, self.token, pending_tile(state, self.token))


def placing_stages() -> dict[str, Stage]:
    return {stage_name(token): Placing(token) for token in ("palace", "palm-tree")}
