"""A step entered by a stage returns to that stage, whatever it is called.

The kill (entered by the assassins), the item to keep (entered by the artisans) and
Kumarbi's bid used to hand on as ``tribe:red``, ``tribe:purple`` and ``bid`` whoever had
entered them, so a house rule running those actions under other names lost control of its
own turn. Here one house rule runs the assassins as ``ambush``, the artisans as ``crafts``
and the bid as ``auction``, and pays 1 coin whenever one of them finishes.
"""

from __future__ import annotations

from collections.abc import Generator

from test_artisans_items import MEEPLES, MOVE, SEED, TILES
from test_djinns_activated import ready

from naqala.core.engine import Rules, build_rules
from naqala.core.hookspecs import hookimpl
from naqala.core.serialize import state_from_data, state_from_json, state_to_data, state_to_json
from naqala.core.stage import Flow, Stage, WrappedFlow
from naqala.core.state import Decision, State, evolve
from naqala.plugins.artisans.actions import Artisans
from naqala.plugins.base.api import current, gain_coins
from naqala.plugins.base.bidding import BidStage
from naqala.plugins.base.tribes import Assassins
from naqala.testing.scenario import board, options, play, turn_of

#: the renamed stages and the tribe action each one stands for
RENAMED = {"ambush": "tribe:red", "crafts": "tribe:purple", "auction": "bid"}


class Renamed(WrappedFlow):
    """Enters ``ambush`` for red and ``crafts`` for purple instead of the tribe actions;
    when a renamed stage finishes it pays 1 coin and goes on as the original would."""

    def proceed(self, rules: Rules, state: State, finished: str) -> State:
        if finished in ("pick", "drop") and state.turn is not None:
            colour = rules.colours[state.turn.colour].id
            for name, original in RENAMED.items():
                if original == f"tribe:{colour}" and name in rules.stages:
                    return rules.enter(state, name)
        if finished in RENAMED:
            state = gain_coins(state, current(state), 1)
            return self.inner.proceed(rules, state, RENAMED[finished])
        return self.inner.proceed(rules, state, finished)


class RenamedStages:
    NAME = "renamed-stages"

    def __init__(self, *, artisans: bool = False) -> None:
        self.artisans = artisans

    @hookimpl
    def naqala_stages(self) -> dict[str, Stage]:
        stages: dict[str, Stage] = {"ambush": Assassins(), "auction": BidStage()}
        if self.artisans:
            stages["crafts"] = Artisans()
        return stages

    @hookimpl(wrapper=True)
    def naqala_flow(self, rules: Rules) -> Generator[None, Flow, Flow]:
        return Renamed((yield))


def test_the_kill_returns_to_the_stage_that_entered_it() -> None:
    """The assassins run as ``ambush``: after the kill, play comes back to ``ambush`` (1
    coin), then goes on to the oasis as in the base game."""
    results = []
    for rules in (build_rules(), build_rules(extra_plugins=[RenamedStages()])):
        state = rules.new_game(2, 7)
        state = board(rules, state, {"b3": "R", "c3": "RY", "d3": "GG"}, clear=True)
        state = board(rules, state, {}, tiles={"c3": "oasis-1"})
        state = turn_of(rules, state, 0)
        asked = play(rules, state, "pick b3", "drop c3 R")
        assert asked.decision.stage == "kill"
        after = play(rules, asked, "kill d3 G")
        assert after.turn is not None and after.turn.callers == ()
        results.append((after.decision, after.players[0].coins - state.players[0].coins))
    (plain, plain_coins), (renamed, renamed_coins) = results
    assert renamed == plain == Decision("sell", 0)
    assert renamed_coins == plain_coins + 1


def test_the_item_to_keep_returns_to_the_stage_that_entered_it() -> None:
    """The artisans run as ``crafts``: after ``keep``, play comes back to ``crafts`` (1
    coin), then goes on to the small market as with the Artisans alone."""
    results = []
    for rules in (
        build_rules(["artisans"]),
        build_rules(["artisans"], extra_plugins=[RenamedStages(artisans=True)]),
    ):
        state = rules.new_game(2, SEED)
        state = turn_of(rules, board(rules, state, MEEPLES, clear=True, tiles=TILES), 0)
        asked = play(rules, state, *MOVE)
        assert asked.decision == Decision("keep-item", 0)
        after = play(rules, asked, options(rules, asked)[0])
        results.append((after.decision, after.players[0].coins - state.players[0].coins))
    (plain, plain_coins), (renamed, renamed_coins) = results
    assert renamed == plain == Decision("tile:small-market", 0)
    assert renamed_coins == plain_coins + 1


def test_kumarbi_bids_in_a_bid_stage_of_any_name_and_returns_to_it() -> None:
    """Kumarbi is offered in ``auction`` (a bid stage under another name) and hands back
    to it: the renamed stage's coin is paid and the next bid follows."""
    _, state = ready("kumarbi", "FFF")
    rules = build_rules(extra_plugins=[RenamedStages()])
    state = evolve(state, decision=Decision("auction", 0))
    assert "kumarbi 12 FFF" in options(rules, state)
    after = play(rules, state, "kumarbi 12 FFF")
    assert after.players[0].coins == state.players[0].coins - 3 + 1
    assert after.decision == Decision("bid", 0)


def test_a_state_waiting_in_a_called_step_saves_and_loads_its_caller() -> None:
    """The caller is part of the state: a game saved during the kill resumes there and
    returns to the assassins; a file written before callers existed still loads."""
    rules = build_rules()
    state = rules.new_game(2, 7)
    state = board(rules, state, {"b3": "R", "c3": "RY", "d3": "GG"}, clear=True)
    asked = play(rules, turn_of(rules, state, 0), "pick b3", "drop c3 R")
    assert asked.turn is not None and asked.turn.callers == ("tribe:red",)
    _, loaded = state_from_json(state_to_json(rules, asked), rules)
    assert loaded == asked
    data = state_to_data(rules, asked)
    del data["turn"]["callers"]
    _, old = state_from_data(data, rules)
    assert old.turn is not None and old.turn.callers == ()
