"""The greedy player with a profile's tastes (``ai:greedy:profile=NAME``,
``naqala.agents.profile``): the same search, each candidate move judged by its settled
score plus the profile's points for the meeples it takes and the tile it claims (and a
djinn taken, for the profile's points for it), moves of
assassins left out under ``never_kill``, and bids by the profile's share and cap. The
kernel's ``profile.rs`` plays the same game natively, from the profile's numbers handed
over as JSON (``naqala.native.profiles``); every change here is one there."""

from __future__ import annotations

from naqala.agents.greedy import GreedyAgent
from naqala.agents.greedy_full import follow, own_score
from naqala.agents.move_ends import MoveEnd
from naqala.agents.profile import Profile
from naqala.core.actions import Action
from naqala.core.engine import Rules
from naqala.core.state import NOBODY, State
from naqala.plugins.base.api import pieces_left

#: the colour of the assassins, whose moves ``never_kill`` leaves out
ASSASSINS = "red"


class ProfiledGreedyAgent(GreedyAgent):
    """``GreedyAgent`` judging moves and bids by ``profile``."""

    def __init__(self, seed: int, profile: Profile) -> None:
        super().__init__(seed)
        self.profile = profile

    def taste(self, rules: Rules, state: State, player: int, end: MoveEnd) -> float:
        """The profile's points for the move ending so: per meeple of its colour taken,
        and for the tile it would claim (emptied, free, a camel left)."""
        colour = rules.colours[end.colour].id
        points = self.profile.tribes.get(colour, 0.0) * end.taken
        claims = (
            end.emptied
            and state.board.owners[end.end] == NOBODY
            and pieces_left(state.players[player]) > 0
        )
        if claims:
            kind = rules.tile(state.layout.tiles[end.end]).kind
            points += self.profile.tiles.get(kind, 0.0)
        return points

    def best(
        self, rules: Rules, state: State, options: list[Action], player: int
    ) -> tuple[int, Action]:
        """The option with the best score right after it plus the profile's points for
        the djinn it takes (the first such in order)."""
        if not self.profile.djinns:
            return super().best(rules, state, options, player)
        scored = []
        for action in options:
            taste = (
                self.profile.djinns.get(str(action.args[0]), 0.0) if action.kind == "djinn" else 0.0
            )
            value = own_score(rules, rules.apply_on_view(state, action), player) + taste
            scored.append((round(value), action))
        top = max(value for value, _ in scored)
        return top, next(a for value, a in scored if value == top)

    def ranked_moves(
        self, rules: Rules, state: State, player: int
    ) -> list[tuple[int, tuple[Action, ...]]]:
        """The candidate moves by settled score plus taste (rounded to whole points, the
        unit the greedy player ranks in), best first; at a drop, as the greedy player."""
        if state.decision.stage != "pick":
            return super().ranked_moves(rules, state, player)
        ends = self.candidates(rules, state, player)
        if self.profile.never_kill:
            peaceful = [e for e in ends if rules.colours[e.colour].id != ASSASSINS]
            ends = peaceful or ends
        scored = []
        for end in ends:
            after = follow(rules, state, end.plan)
            if after is not None:
                value = self.settled(rules, after, player) + self.taste(rules, state, player, end)
                scored.append((round(value), end.plan))
        order = sorted(range(len(scored)), key=lambda i: (-scored[i][0], i))
        return [scored[i] for i in order]

    def _bid(self, rules: Rules, state: State, options: list[Action], player: int) -> Action:
        bids = [a for a in options if a.kind == "bid"]
        if not bids:
            return options[0]
        cap = self.profile.bid_max
        allowed = [a for a in bids if cap is None or int(a.args[0]) <= cap]
        cheapest = min(bids, key=lambda a: int(a.args[0]))
        gain = self.move_gain(rules, state, player) if self.profile.bid_share > 0 else 0
        affordable = [a for a in allowed if int(a.args[0]) <= self.profile.bid_share * gain]
        return max(affordable or [cheapest], key=lambda a: int(a.args[0]))
