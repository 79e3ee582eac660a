"""Every hook point works through a plugin registered like a third party would.

Each test registers a small plugin object and checks the effect of one hook; the last
tests check that every hookspec is documented in docs/hooks.md and tested here.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import ClassVar

import attrs
import pytest
import typer
from typer.testing import CliRunner

from naqala.core import hookspecs
from naqala.core.actions import Action
from naqala.core.content import CardSpec
from naqala.core.costs import CostCode
from naqala.core.engine import IllegalAction, Rules, build_rules
from naqala.core.events import Event, ScoreLine, Verdict
from naqala.core.hookspecs import hookimpl
from naqala.core.native import Provided, declared_native
from naqala.core.plugins import PluginError
from naqala.core.powers import Power
from naqala.core.rng import Rng
from naqala.core.stage import Flow, Stage
from naqala.core.state import Layout, State, replace_at, set_extra
from naqala.core.turnfields import TurnField, count_field, text_field
from naqala.core.views import determinize, hidden_decks, view_for
from naqala.plugins.base import setup
from naqala.plugins.base.common import current, gain_coins
from naqala.plugins.base.flow import BaseFlow
from naqala.plugins.base.movement import PickStage
from naqala.testing.scenario import board, options, play, player, turn_of

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "data"


def random_turn_start(rules: Rules, seed: int = 3) -> State:
    return turn_of(rules, rules.new_game(2, seed), 0)


def test_naqala_content_files_and_naqala_tile_actions_add_a_tile_kind() -> None:
    """A plugin adds five 'well' tiles (content) and their tile action (1 coin)."""

    class Wells:
        NAME = "wells"

        @hookimpl
        def naqala_content_files(self) -> list[Path]:
            return [DATA / "wells.toml"]

        @hookimpl
        def naqala_tile_actions(self) -> dict[str, Stage]:
            class Well(Stage):
                def enter(self, rules: Rules, state: State) -> State:
                    return rules.proceed(gain_coins(state, current(state), 1), self.name)

            return {"well": Well()}

    rules = build_rules(extra_plugins=[Wells()])
    state = rules.new_game(2, 1)
    assert (state.layout.rows, state.layout.cols) == (5, 7)
    wells = [i for i, t in enumerate(state.layout.tiles) if t.startswith("well-")]
    assert len(wells) == 5
    assert all(not any(state.board.meeples[i]) for i in wells)
    assert "tile:well" in rules.stages
    # a move that ends on a well holding a white meeple does the well's action
    geo = state.geometry
    well = geo.name(wells[0])
    start = next(n for n in geo.neighbours[wells[0]])
    state = board(rules, state, {well: "W", geo.name(start): "W"}, clear=True)
    state = turn_of(rules, state, 0)
    coins = state.players[0].coins
    state = play(rules, state, f"pick {geo.name(start)}", f"drop {well} W")
    assert state.players[0].coins == coins + 1
    assert state.decision.stage == "sell"


def test_naqala_stages_duplicate_names_are_refused_naming_both_plugins() -> None:
    """Two plugins providing the same stage without a replacement fail at start."""

    class Clash:
        NAME = "clash"

        @hookimpl
        def naqala_stages(self) -> dict[str, Stage]:
            return {"bid": Stage()}

    with pytest.raises(PluginError, match=r"'bid'.*'base'.*'clash'"):
        build_rules(extra_plugins=[Clash()])


def test_naqala_tribe_actions_duplicate_colour_is_refused() -> None:
    """A second tribe action for an existing colour is a conflict, not a silent override."""

    class Twice:
        NAME = "twice"

        @hookimpl
        def naqala_tribe_actions(self) -> dict[str, Stage]:
            return {"red": Stage()}

    with pytest.raises(PluginError, match="tribe:red"):
        build_rules(extra_plugins=[Twice()])


def test_misspelt_hook_argument_is_refused_with_the_plugin_named() -> None:
    """A hook implementation asking for an argument the hook does not have fails loudly."""

    class Typo:
        NAME = "typo"

        @hookimpl
        def naqala_score_lines(self, rules: Rules, state: State, playr: int) -> list[ScoreLine]:
            return []

    with pytest.raises(PluginError, match="typo"):
        build_rules(extra_plugins=[Typo()])


def test_naqala_board_layout_provider_replaces_the_random_layout() -> None:
    """The first layout provider wins over the base game's random layout."""

    class Sorted:
        NAME = "sorted-layout"

        @hookimpl
        def naqala_board_layout(self, rules: Rules, players: int, rng: Rng) -> tuple[Layout, Rng]:
            return Layout(rows=5, cols=6, tiles=tuple(sorted(rules.tile_specs))), rng

    rules = build_rules(extra_plugins=[Sorted()])
    assert rules.new_game(3, 9).layout.tiles == tuple(sorted(rules.tile_specs))


def test_naqala_impassable_tiles_are_never_dealt_meeples_nor_entered() -> None:
    """An impassable tile gets no meeples at setup and no move may enter it."""

    class Lake:
        NAME = "lake"

        @hookimpl
        def naqala_impassable_tiles(self, rules: Rules, layout: Layout) -> list[int]:
            return [7]

    rules = build_rules(extra_plugins=[Lake()])
    state = rules.new_game(2, 4)
    assert state.layout.blocked == frozenset({7})
    assert not any(state.board.meeples[7])
    assert sum(state.bag) == 3  # 29 tiles x 3 meeples dealt out of 90
    state = board(rules, state, {"a2": "W", "c2": "W"}, clear=True)
    state = turn_of(rules, state, 0)
    assert options(rules, state) == []  # a2 -> b2 (blocked) is the only way to c2
    assert "b2" not in " ".join(options(rules, turn_of(rules, rules.new_game(2, 4), 0)))


def test_naqala_blocked_edges_stop_meeples_crossing() -> None:
    """A wall between two tiles stops a meeple stepping across it."""

    class Wall:
        NAME = "wall"

        @hookimpl
        def naqala_blocked_edges(self, rules: Rules, layout: Layout) -> list[tuple[int, int]]:
            return [(1, 0)]

    rules = build_rules(extra_plugins=[Wall()])
    state = rules.new_game(2, 4)
    assert state.layout.walls == frozenset({(0, 1)})
    state = board(rules, state, {"a1": "W", "b1": "W", "a2": "Y"}, clear=True)
    state = turn_of(rules, state, 0)
    assert options(rules, state) == []  # b1 and a1 are walled apart; a2 has no partner


def test_naqala_flow_can_wrap_the_base_flow() -> None:
    """A variant flow that pays 1 coin at the end of every turn, then defers to base."""

    class TurnBonus(BaseFlow):
        def proceed(self, rules: Rules, state: State, finished: str) -> State:
            if finished == "sell":
                state = gain_coins(state, current(state), 1)
            return super().proceed(rules, state, finished)

    class Bonus:
        NAME = "turn-bonus"

        @hookimpl
        def naqala_flow(self, rules: Rules) -> Flow:
            return TurnBonus()

    rules = build_rules(extra_plugins=[Bonus()])
    state = random_turn_start(rules)
    state = attrs.evolve(state, decision=attrs.evolve(state.decision, stage="sell"))
    coins = state.players[0].coins
    state = play(rules, state, "end")
    assert state.players[0].coins == coins + 1


def test_naqala_new_game_provider_replaces_setup() -> None:
    """A setup provider may build the initial state differently (here: 40 coins each)."""

    class Poorer:
        NAME = "poorer"

        @hookimpl
        def naqala_new_game(self, rules: Rules, players: int, seed: int) -> State:
            state = setup.new_game(rules, players, seed)
            return attrs.evolve(
                state, players=tuple(attrs.evolve(p, coins=40) for p in state.players)
            )

    rules = build_rules(extra_plugins=[Poorer()])
    assert [p.coins for p in rules.new_game(3, 1).players] == [40, 40, 40]


def test_naqala_extra_options_and_naqala_apply_extra() -> None:
    """An extra option is offered beside the stage's own and applied by its plugin."""

    class Tip:
        NAME = "tip"
        TIP = Action("tip", ("1",))

        @hookimpl
        def naqala_extra_options(self, rules: Rules, state: State) -> list[Action]:
            if state.decision.stage == "sell" and state.players[current(state)].coins:
                return [self.TIP]
            return []

        @hookimpl
        def naqala_apply_extra(self, rules: Rules, state: State, action: Action) -> State | None:
            if action != self.TIP:
                return None
            return gain_coins(state, current(state), -1)

    rules = build_rules(extra_plugins=[Tip()])
    state = random_turn_start(rules)
    state = attrs.evolve(state, decision=attrs.evolve(state.decision, stage="sell"))
    assert "tip 1" in options(rules, state)
    coins = state.players[0].coins
    after = play(rules, state, "tip 1")
    assert after.players[0].coins == coins - 1
    assert after.decision == state.decision


def test_naqala_explain_says_why_a_plugin_action_is_refused() -> None:
    """A plugin's explanation is used for its own refused actions; the stage's own
    explanation comes first, and the engine answers when no plugin does."""

    class Tips:
        NAME = "tips"

        @hookimpl
        def naqala_explain(self, rules: Rules, state: State, action: Action) -> str | None:
            return "tips are given when you sell" if action.kind == "tip" else None

    rules = build_rules(extra_plugins=[Tips()])
    state = random_turn_start(rules)
    assert rules.explain(state, Action("tip", ("1",))) == "tips are given when you sell"
    with pytest.raises(IllegalAction, match="tips are given when you sell"):
        rules.apply(state, Action("tip", ("1",)))
    assert "not an option now" in rules.explain(state, Action("wave"))
    assert "not an option now" in build_rules().explain(state, Action("tip", ("1",)))


def test_naqala_event_reacts_to_a_tile_being_taken() -> None:
    """A trigger pays 5 coins whenever a tile is taken."""

    class Reward:
        NAME = "reward"

        @hookimpl
        def naqala_event(self, rules: Rules, state: State, event: Event) -> State | None:
            if event.name == "tile-taken":
                return gain_coins(state, event.player, 5)
            return None

    rules = build_rules(extra_plugins=[Reward()])
    state = rules.new_game(2, 2)
    state = board(rules, state, {"a1": "Y", "b1": "Y"}, clear=True, tiles={"b1": "oasis-1"})
    state = turn_of(rules, state, 0)
    coins = state.players[0].coins
    state = play(rules, state, "pick a1", "drop b1 Y")
    assert state.board.owners[1] == 0
    assert state.players[0].coins == coins + 5


def test_naqala_game_ends_can_end_the_game_after_the_first_round() -> None:
    """An end condition is checked at the end of every round."""

    class OneRound:
        NAME = "one-round"

        @hookimpl
        def naqala_game_ends(self, rules: Rules, state: State) -> bool:
            return state.round >= 1

    rules = build_rules(extra_plugins=[OneRound()])
    state = rules.new_game(2, 5)
    rng = Rng(1)
    while not state.is_over:
        acts = rules.legal_actions(state)
        i, rng = rng.below(len(acts))
        state = rules.apply(state, acts[i])
    assert state.round == 1


def test_naqala_verdict_decides_who_won_and_why() -> None:
    """Without an answer the highest score wins; a plugin's verdict replaces it, and may
    say nobody won."""

    class Richest:
        NAME = "richest"

        @hookimpl
        def naqala_verdict(self, rules: Rules, state: State) -> Verdict:
            coins = [p.coins for p in state.players]
            if max(coins) < 10:
                return Verdict((), "everybody is poor", "poor")
            return Verdict((coins.index(max(coins)),), "the richest wins", "richest")

    plain = build_rules()
    state = plain.new_game(2, 5)
    assert plain.verdict(state).winners == plain.winners(state) == (0, 1)  # 50 coins each
    rules = build_rules(extra_plugins=[Richest()])
    state = rules.new_game(2, 5)
    state = state.replace_player(1, attrs.evolve(state.players[1], coins=60))
    assert rules.winners(state) == (1,)
    assert rules.verdict(state).kind == "richest"
    poor = state.replace_player(1, attrs.evolve(state.players[1], coins=3))
    poor = poor.replace_player(0, attrs.evolve(poor.players[0], coins=3))
    assert rules.winners(poor) == ()
    assert rules.verdict(poor).reason == "everybody is poor"

    class Poorest(Richest):
        NAME = "poorest"

    with pytest.raises(PluginError, match="'poorest' and 'richest': one plugin at most"):
        build_rules(extra_plugins=[Richest(), Poorest()])


def test_plugins_that_conflict_are_refused_naming_both_and_why() -> None:
    class Lonely:
        NAME = "lonely"
        CONFLICTS: ClassVar[dict[str, str]] = {"crowd": "the lonely one plays alone"}

    class Crowd:
        NAME = "crowd"

    build_rules(extra_plugins=[Lonely()])
    with pytest.raises(PluginError, match=r"'lonely' cannot be played with 'crowd': .*alone"):
        build_rules(extra_plugins=[Lonely(), Crowd()])


def test_naqala_score_lines_and_naqala_adjust_score_lines() -> None:
    """A plugin adds a score line, another line changes a category; totals follow."""

    class Bonus:
        NAME = "bonus"

        @hookimpl
        def naqala_score_lines(self, rules: Rules, state: State, player: int) -> list[ScoreLine]:
            return [ScoreLine("bonus", 7, "bonus")]

        @hookimpl
        def naqala_adjust_score_lines(
            self, rules: Rules, state: State, player: int, lines: tuple[ScoreLine, ...]
        ) -> list[ScoreLine]:
            coins = sum(line.points for line in lines if line.category == "coins")
            return [ScoreLine("coins", coins, "bonus", "coins count double")]

    plain = build_rules()
    rules = build_rules(extra_plugins=[Bonus()])
    state = rules.new_game(2, 1)
    state = player(rules, state, 0, coins=11)
    assert rules.scores(state)[0] == plain.scores(state)[0] + 7 + 11
    assert ScoreLine("coins", 11, "bonus", "coins count double") in rules.score_lines(state, 0)


def test_naqala_card_powers_gives_a_new_djinn_its_power() -> None:
    """A plugin adds a djinn (content) and its power (hook, ``djinns:<kind>``); holding it
    changes the score."""

    class Gold(Power):
        def score_lines(
            self,
            rules: Rules,
            state: State,
            owner: int,
            card: CardSpec,
            lines: tuple[ScoreLine, ...],
        ) -> list[ScoreLine]:
            return [ScoreLine("djinns", 3, card.id, "a golden djinn")]

    class GoldDjinn:
        NAME = "gold-djinn"

        @hookimpl
        def naqala_content_files(self) -> list[Path]:
            return [DATA / "gold-djinn.toml"]

        @hookimpl
        def naqala_card_powers(self) -> dict[str, Power]:
            return {"djinns:gold": Gold()}

    rules = build_rules(extra_plugins=[GoldDjinn()])
    assert rules.powers["djinns", "gold"].kind == "gold"
    state = player(rules, rules.new_game(2, 1), 0, djinns=["golden"])
    lines = rules.score_lines(state, 0)
    assert ScoreLine("djinns", 3, "golden", "a golden djinn") in lines


class TwoElders:
    """A plugin with a cost code of its own, ``2E`` (two elders), and a djinn that costs it."""

    NAME = "two-elders"

    def __init__(self, path: Path, code: str = "2E", payments: tuple[str, ...] = ("EE",)) -> None:
        self.path = path
        self.code = code
        self.payments = payments

    @hookimpl
    def naqala_content_files(self) -> list[Path]:
        self.path.write_text(
            '[[djinn]]\nid = "dear"\nname = "Dear"\nvp = 4\nkind = "sibittis"\n'
            f'cost = "{self.code}"\nparams = {{ draw = 3 }}\n',
            encoding="utf-8",
        )
        return [self.path]

    @hookimpl
    def naqala_cost_codes(self) -> dict[str, CostCode]:
        return {self.code: CostCode(self.payments, "2 elders")}


def test_naqala_cost_codes_adds_a_cost_offered_checked_and_worded(tmp_path: Path) -> None:
    """A new cost code is one entry: the djinn naming it is offered with its payment only
    when the owner can pay it, paid when used, and described in the reference's words."""
    from naqala.cli.djinns import djinn_rows
    from naqala.plugins.base.api import cost_words

    rules = build_rules(extra_plugins=[TwoElders(tmp_path / "dear.toml")])
    assert rules.cost_codes["2E"] == CostCode(("EE",), "2 elders")
    assert rules.providers["cost:2E"] == "two-elders"
    assert "E/F" in rules.cost_codes  # the base game's codes are still there
    state = turn_of(rules, rules.new_game(2, 1), 0)
    state = player(rules, state, 0, djinns=["dear"], meeples="W")
    assert not [o for o in options(rules, state) if o.startswith("dear")]
    state = player(rules, state, 0, djinns=["dear"], meeples="WW")
    assert [o for o in options(rules, state) if o.startswith("dear")] == ["dear EE"]
    after = play(rules, state, "dear EE")
    assert after.players[0].meeples[rules.colour_index["white"]] == 0
    assert cost_words(rules, "2E") == "2 elders"
    assert {"id": "dear", "cost": "2 elders"}.items() <= djinn_rows(rules)[-1].items()


def test_naqala_cost_codes_are_refused_twice_or_unpayable(tmp_path: Path) -> None:
    """A code offered by two plugins is refused naming both, unless one REPLACES
    ``cost:<code>``; a payment in letters the base game cannot pay stops the build."""
    from naqala.core.content import ContentError

    with pytest.raises(PluginError, match=r"cost code 'cost:E/F'.*'base' and 'two-elders'"):
        build_rules(extra_plugins=[TwoElders(tmp_path / "a.toml", "E/F", ("EE",))])
    replacing = TwoElders(tmp_path / "c.toml", "E/F", ("EE",))
    replacing.REPLACES = ("cost:E/F",)  # type: ignore[attr-defined]
    rules = build_rules(extra_plugins=[replacing])
    assert rules.cost_codes["E/F"].payments == ("EE",)
    assert rules.providers["cost:E/F"] == "two-elders"
    unpayable = r"cost code '2G' \(plugin 'two-elders'\): payment 'GG' uses 'G'"
    with pytest.raises(ContentError, match=unpayable):
        build_rules(extra_plugins=[TwoElders(tmp_path / "b.toml", "2G", ("GG",))])


def test_naqala_card_powers_twice_for_one_kind_is_refused() -> None:
    """Two plugins giving the same djinn kind a power fail at start, naming both."""

    class Again:
        NAME = "again"

        @hookimpl
        def naqala_card_powers(self) -> dict[str, Power]:
            return {"djinns:baal": Power()}

    with pytest.raises(PluginError, match=r"'djinns:baal'.*'base'.*'again'"):
        build_rules(extra_plugins=[Again()])


def test_naqala_check_rules_refuses_content_the_plugin_cannot_play(tmp_path: Path) -> None:
    """A plugin checks the meaning of a setting it reads: a bad value stops the build,
    naming the file that set it, the plugin that shipped it and the plugin that checked."""
    from naqala.core.content import ContentError

    class Bonus:
        NAME = "bonus"

        def __init__(self, text: str) -> None:
            self.path = tmp_path / f"bonus{len(text)}.toml"
            self.path.write_text(text, encoding="utf-8")

        @hookimpl
        def naqala_content_files(self) -> list[Path]:
            return [self.path]

        @hookimpl
        def naqala_check_rules(self, rules: Rules) -> list[str]:
            value = rules.content.settings.get("bonus_coins", 0)
            return [f"settings.bonus_coins: {value} is more than 5"] if value > 5 else []

    build_rules(extra_plugins=[Bonus("[settings]\nbonus_coins = 5\n")])
    bad = Bonus("[settings]\nbonus_coins = 9\n")
    with pytest.raises(ContentError) as caught:
        build_rules(extra_plugins=[bad])
    assert caught.value.problems == [
        f"{bad.path} (plugin 'bonus'): settings.bonus_coins: 9 is more than 5 "
        "(checked by plugin 'bonus')"
    ]


def test_naqala_check_state_adds_a_plugin_component_to_the_checks() -> None:
    """A plugin's counter with a range: a state file breaking it is refused with the
    plugin's JSON path; the check runs in ``naqala.testing.invariants`` too."""
    from naqala.core.serialize import StateFormatError, state_from_data, state_to_data
    from naqala.core.validate import Problem
    from naqala.testing.invariants import assert_invariants

    class Charms:
        NAME = "charms"

        @hookimpl
        def naqala_state_counters(self) -> list[str]:
            return ["charms"]

        @hookimpl
        def naqala_adjust_new_game(self, rules: Rules, state: State) -> State:
            return attrs.evolve(state, extras=set_extra(state.extras, "charms", 3))

        @hookimpl
        def naqala_check_state(self, rules: Rules, state: State) -> list[Problem]:
            charms = dict(state.extras).get("charms", 0)
            return [Problem("$.extras.charms", "at most 3")] if charms > 3 else []

    rules = build_rules(extra_plugins=[Charms()])
    state = rules.new_game(2, 1)
    assert_invariants(rules, state)
    data = state_to_data(rules, state)
    data["extras"]["charms"] = 4
    with pytest.raises(StateFormatError, match=r"^\$\.extras\.charms: at most 3$"):
        state_from_data(data, rules)
    with pytest.raises(AssertionError, match="at most 3"):
        assert_invariants(rules, attrs.evolve(state, extras=set_extra(state.extras, "charms", 5)))


def test_naqala_protected_meeples_hides_targets_from_assassins() -> None:
    """Protected colours in front of a player are not offered as kill targets."""

    class Shield:
        NAME = "shield"

        @hookimpl
        def naqala_protected_meeples(self, rules: Rules, state: State, player: int) -> list[str]:
            return ["yellow"]

    plain = build_rules()
    rules = build_rules(extra_plugins=[Shield()])
    for r, expected in ((plain, {"kill p2 Y", "kill p2 W"}), (rules, {"kill p2 W"})):
        state = r.new_game(2, 6)
        state = board(r, state, {"a1": "R", "b1": "R"}, clear=True)
        state = player(r, state, 1, meeples="YW")
        state = turn_of(r, state, 0)
        state = play(r, state, "pick a1", "drop b1 R")
        assert set(options(r, state, "kill")) == expected


def test_naqala_card_powers_and_naqala_adjust_new_game_add_a_deck_and_a_piece() -> None:
    """A plugin adds a deck of cards (content) with a power for their kind, deals one to
    each player at setup, and gives each a piece to place; the one card router scores the
    card's power line (no routing of its own) and the last-camel trigger waits for the
    piece."""

    class Coin(Power):
        def score_lines(
            self,
            rules: Rules,
            state: State,
            owner: int,
            card: CardSpec,
            lines: tuple[ScoreLine, ...],
        ) -> list[ScoreLine]:
            return [ScoreLine("charms", 4, card.id)]

    class Charms:
        NAME = "charms"

        @hookimpl
        def naqala_content_files(self) -> list[Path]:
            return [DATA / "charms.toml"]

        @hookimpl
        def naqala_card_powers(self) -> dict[str, Power]:
            return {"charms:coin": Coin()}

        @hookimpl
        def naqala_adjust_new_game(self, rules: Rules, state: State) -> State:
            index = rules.deck_index["charms"]
            deck = state.decks[index]
            players = tuple(
                attrs.evolve(
                    p.with_hand(index, (deck.draw[i],)),
                    extras=set_extra(p.extras, "piece.tent", 1),
                )
                for i, p in enumerate(state.players)
            )
            deck = attrs.evolve(deck, draw=deck.draw[len(players) :])
            decks = replace_at(state.decks, rules.deck_index["charms"], deck)
            return attrs.evolve(state, players=players, decks=decks)

    rules = build_rules(extra_plugins=[Charms()])
    assert rules.deck_names == ("resources", "djinns", "charms")
    state = rules.new_game(2, 3)
    assert all(p.hand(2) == ("lucky",) for p in state.players)
    assert len(state.decks[2].draw) == 1
    assert ScoreLine("charms", 4, "lucky") in rules.score_lines(state, 0)
    # with no camel left but a piece still to place, the game does not end
    state = player(rules, state, 0, camels=0)
    state = turn_of(rules, state, 0, stage="sell")
    after = play(rules, state, "end")
    assert "last-camel" not in after.flags


def test_naqala_flags_declares_the_flags_a_state_may_hold() -> None:
    """A flag no plugin declares fails the state checks (and so a plugin's own tests,
    through the invariants); once a plugin declares it, it is sound."""
    from naqala.core.validate import check_state

    class Storms:
        NAME = "storms"

        @hookimpl
        def naqala_flags(self) -> list[str]:
            return ["storm"]

    rules = build_rules()
    assert [str(p) for p in check_state(rules, rules.new_game(3, 1).with_flag("storm"))] == [
        "$.flags[0]: no flag 'storm' in these rules (last-camel, no-moves, round-cap)"
    ]
    declared = build_rules(extra_plugins=[Storms()])
    assert check_state(declared, declared.new_game(3, 1).with_flag("storm")) == []


def test_naqala_player_counters_declares_names_and_prefixes() -> None:
    """A player counter is a name a plugin declares; a declared ``x*`` stands for every
    name beginning with ``x``. A piece still to place is no exception: ``piece.tent`` is
    the Artisans' to declare, not any plugin's to keep."""
    from naqala.core.validate import check_state

    class Luck:
        NAME = "luck"

        @hookimpl
        def naqala_player_counters(self) -> list[str]:
            return ["luck", "charm.*"]

    def with_counters(rules: Rules, *keys: str) -> State:
        state = rules.new_game(3, 1)
        p = state.players[0]
        for key in keys:
            p = attrs.evolve(p, extras=set_extra(p.extras, key, 1))
        return state.replace_player(0, p)

    rules = build_rules(extra_plugins=[Luck()])
    assert check_state(rules, with_counters(rules, "luck", "charm.red")) == []
    assert [str(p) for p in check_state(rules, with_counters(rules, "lucky"))] == [
        "$.players[0].extras.lucky: no player counter 'lucky' (charm.*, luck, round-used:*)"
    ]
    assert [str(p) for p in check_state(rules, with_counters(rules, "piece.palace"))] == [
        "$.players[0].extras.piece.palace: no player counter 'piece.palace' "
        "(charm.*, luck, round-used:*)"
    ]


HOUSE = '[house-rule]\nname = "lucky"\nversion = "1.0"\ndescription = "r"\n\n'


def test_naqala_writable_counters_lets_content_set_a_plugins_counter(tmp_path: Path) -> None:
    """Content sets a plugin's counter only when the plugin names it writable: ``luck``,
    counted up by a house rule's effect; ``charm`` is read, never set."""
    from naqala.core.content import ContentError
    from naqala.core.effects import EffectSpec
    from naqala.plugins.base import effects as interpreter

    class Luck:
        NAME = "luck"

        @hookimpl
        def naqala_player_counters(self) -> list[str]:
            return ["luck", "charm"]

        @hookimpl
        def naqala_writable_counters(self) -> list[str]:
            return ["luck"]

    path = tmp_path / "lucky.toml"
    trigger = '[[trigger]]\nid = "t"\non = "tile-taken"\neffects = [{ set = "NAME", to = 2 }]\n'
    path.write_text(HOUSE + trigger.replace("NAME", "charm"), encoding="utf-8")
    with pytest.raises(ContentError, match="'charm' is a plugin's own counter: read it, never"):
        build_rules(extra_plugins=[Luck()], house_rules=[path])
    path.write_text(HOUSE + trigger.replace("NAME", "luck"), encoding="utf-8")
    rules = build_rules(extra_plugins=[Luck()], house_rules=[path])
    state = rules.new_game(3, 1)
    lucky = interpreter.run(
        rules, state, [EffectSpec(set="luck", to='counter("luck") + 3')], interpreter.Scope(1, 1)
    )
    assert [p.extras for p in lucky.players] == [(), (("luck", 3),), ()]


def test_naqala_events_lets_content_fire_a_plugins_event(tmp_path: Path) -> None:
    """A plugin that fires ``bell`` declares it; content's ``fire`` rings it for the
    effect's player, and the plugin's own hook hears it. Undeclared, it is refused."""
    from naqala.core.content import ContentError
    from naqala.core.effects import EffectSpec
    from naqala.plugins.base import effects as interpreter

    class Bells:
        NAME = "bells"

        def __init__(self, declared: bool) -> None:
            self.declared = declared
            self.heard: list[tuple[str, int, int]] = []

        @hookimpl
        def naqala_events(self) -> list[str]:
            return ["bell"] if self.declared else []

        @hookimpl
        def naqala_event(self, rules: Rules, state: State, event: Event) -> State | None:
            self.heard.append((event.name, event.player, event.count))
            return None

    path = tmp_path / "ringing.toml"
    ring = '[[trigger]]\nid = "t"\non = "tile-taken"\neffects = [{ fire = "bell" }]\n'
    path.write_text(HOUSE + ring, encoding="utf-8")
    with pytest.raises(ContentError, match="no plugin in these rules fires an event 'bell'"):
        build_rules(extra_plugins=[Bells(declared=False)], house_rules=[path])
    bells = Bells(declared=True)
    rules = build_rules(extra_plugins=[bells], house_rules=[path])
    state = rules.new_game(3, 1)
    interpreter.run(rules, state, [EffectSpec(fire="bell", count=4)], interpreter.Scope(2, 2))
    assert bells.heard[-1] == ("bell", 2, 4)


def test_naqala_state_counters_declares_a_states_own_counters() -> None:
    """A state's own ``extras`` hold the core's counters (``effects.*``, ``aside.*``) and
    the names a plugin declares, as a player's do; any other name is refused."""
    from naqala.core.validate import check_state

    class Weather:
        NAME = "weather"

        @hookimpl
        def naqala_state_counters(self) -> list[str]:
            return ["storm", "wind.*"]

    def with_counters(rules: Rules, *keys: str) -> State:
        state = rules.new_game(3, 1)
        return attrs.evolve(state, extras=tuple(sorted((key, 1) for key in keys)))

    rules = build_rules(extra_plugins=[Weather()])
    assert check_state(rules, with_counters(rules, "storm", "wind.north", "effects.jafaar")) == []
    assert [str(p) for p in check_state(rules, with_counters(rules, "storms"))] == [
        "$.extras.storms: no state counter 'storms' "
        "(aside.card.*, aside.meeple.*, effects.*, placing:*, storm, wind.*)"
    ]
    plain = build_rules()
    assert [str(p) for p in check_state(plain, with_counters(plain, "storm"))] == [
        "$.extras.storm: no state counter 'storm' "
        "(aside.card.*, aside.meeple.*, effects.*, placing:*)"
    ]


class Picks:
    """A house rule keeping a turn field of its own: the tile the meeples were picked up
    from, as its number counted from 1 (a count), set by its own ``pick`` stage."""

    NAME = "picks"
    REPLACES = ("pick",)
    FIELD = count_field("picked", 0, "the tile picked up from, counted from 1")

    @hookimpl
    def naqala_turn_fields(self) -> list[TurnField[int]]:
        return [self.FIELD]

    @hookimpl
    def naqala_stages(self) -> dict[str, Stage]:
        field = self.FIELD

        class Pick(PickStage):
            def apply(self, rules: Rules, state: State, action: Action) -> State:
                state = super().apply(rules, state, action)
                turn = state.turn
                assert turn is not None
                return attrs.evolve(state, turn=field.on(turn, turn.start + 1))

        return {"pick": Pick()}


def test_naqala_turn_fields_a_house_rule_sets_its_own_and_it_round_trips() -> None:
    """A plugin's turn field is set by its stage, read back with ``of``, written in the
    state JSON (at the end of ``turn``) and read again to an equal state; at its default
    it is left out of ``Turn.fields``, so a turn that never set it equals a plain one."""
    from naqala.core.serialize import state_from_json, state_to_data, state_to_json

    rules = build_rules(extra_plugins=[Picks()])
    assert list(rules.turn_fields) == ["kills", "picked", "reach", "target"]
    state = random_turn_start(rules)
    assert state.turn is not None and state.turn.fields == ()
    assert Picks.FIELD.of(state.turn) == 0
    assert state_to_data(rules, state)["turn"]["picked"] == 0
    state = play(rules, state, options(rules, state)[0])
    assert state.turn is not None
    assert Picks.FIELD.of(state.turn) == state.turn.start + 1 > 0
    assert ("picked", state.turn.start + 1) in state.turn.fields
    turn = state_to_data(rules, state)["turn"]
    assert list(turn)[-1] == "picked" and turn["picked"] == state.turn.start + 1
    assert list(turn)[6:9] == ["reach", "kills", "target"]  # where the base game puts them
    assert state_from_json(state_to_json(rules, state), rules)[1] == state


def test_naqala_turn_fields_refuses_what_no_plugin_declares() -> None:
    """A field of a plugin not in the rules is refused in one line when it holds
    something; holding nothing (what older files wrote for every game) it is dropped."""
    from naqala.core.serialize import StateFormatError, state_from_data, state_to_data

    rules = build_rules()
    state = random_turn_start(rules)
    data = state_to_data(rules, state)
    assert "claimed" not in data["turn"] and "picked" not in data["turn"]
    data["turn"]["claimed"] = []
    assert state_from_data(data)[1] == state
    data["turn"]["picked"] = 3
    with pytest.raises(StateFormatError) as refused:
        state_from_data(data)
    assert str(refused.value) == (
        "$.turn.picked: no turn field 'picked' in these rules "
        "(the plugins declare kills, reach, target)"
    )
    del data["turn"]["picked"]
    data["turn"]["kills"] = "two"
    with pytest.raises(StateFormatError, match=r"^\$\.turn\.kills: expected an integer"):
        state_from_data(data)
    data["turn"]["kills"] = -1
    with pytest.raises(StateFormatError, match=r"\$\.turn\.kills: -1 is negative"):
        state_from_data(data)


def test_naqala_turn_fields_clash_by_name_and_keep_off_the_cores() -> None:
    """Two plugins declaring one name are refused naming both, unless one replaces it
    (``turn:<name>``); a name of the core's own ``Turn`` is refused."""

    class Twin:
        NAME = "twin"

        @hookimpl
        def naqala_turn_fields(self) -> list[TurnField[int]]:
            return [count_field("picked")]

    with pytest.raises(PluginError, match=r"turn field 'turn:picked' is provided by both"):
        build_rules(extra_plugins=[Picks(), Twin()])

    class Replacing(Twin):
        NAME = "replacing"
        REPLACES = ("turn:picked",)

    rules = build_rules(extra_plugins=[Picks(), Replacing()])
    assert rules.providers["turn:picked"] == "replacing"
    assert rules.turn_fields["picked"].doc == ""

    class Core:
        NAME = "core-name"

        @hookimpl
        def naqala_turn_fields(self) -> list[TurnField[str]]:
            return [text_field("path")]

    with pytest.raises(PluginError, match=r"turn field 'path' must be named"):
        build_rules(extra_plugins=[Core()])


def test_naqala_cli_adds_a_subcommand() -> None:
    """A plugin adds a subcommand to the naqala command."""
    from naqala.cli.app import register_plugin_commands

    class Hello:
        NAME = "hello"

        @hookimpl
        def naqala_cli(self, app: typer.Typer) -> None:
            @app.command("hello")
            def hello() -> None:
                typer.echo("hello from a plugin")

    class Broken:
        NAME = "broken"

        @hookimpl
        def naqala_cli(self, app: typer.Typer) -> None:
            raise RuntimeError("boom")

    app = typer.Typer()

    @app.command("version")
    def version() -> None:
        typer.echo("0")

    broken = register_plugin_commands(app, [Hello(), Broken()])
    assert broken == ["broken"]
    result = CliRunner().invoke(app, ["hello"])
    assert result.exit_code == 0
    assert "hello from a plugin" in result.output


def test_naqala_public_notes_appear_under_the_board_picture() -> None:
    """A plugin's public notes are listed by the rules and drawn in the picture."""
    from rich.console import Console

    from naqala.display.text import render_state

    class Almanac:
        NAME = "almanac"

        @hookimpl
        def naqala_public_notes(self, rules: Rules, state: State) -> list[str]:
            return [f"Almanac: round {state.round}"]

    rules = build_rules(extra_plugins=[Almanac()])
    state = rules.new_game(2, 1)
    assert rules.public_notes(state) == ["Almanac: round 1"]
    console = Console(width=100, record=True, color_system=None)
    console.print(render_state(rules, state))
    assert "Almanac: round 1" in console.export_text()
    assert build_rules().public_notes(state) == []


def test_naqala_display_restyles_tiles_writes_on_tiles_and_adds_rows() -> None:
    """A plugin's looks replace earlier ones key by key, its tile notes and rows are
    drawn, and its own public notes are not repeated; another plugin's notes still are."""
    from naqala.display import board_svg
    from naqala.display.hints import Display, Look

    class Oases:
        NAME = "oases"

        @hookimpl
        def naqala_display(self, rules: Rules, state: State) -> Display:
            return Display(
                tiles={"oasis": Look("#00ff7f", "Green oasis", "green oasis")},
                tile_notes={0: "Here be dragons"},
                rows=(("Weather", f"dry in round {state.round}"),),
            )

        @hookimpl
        def naqala_public_notes(self, rules: Rules, state: State) -> list[str]:
            return ["Oases: a note drawn through naqala_display instead"]

    class Almanac:
        NAME = "almanac"

        @hookimpl
        def naqala_public_notes(self, rules: Rules, state: State) -> list[str]:
            return [f"Almanac: round {state.round}"]

    rules = build_rules(extra_plugins=[Oases(), Almanac()])
    state = rules.new_game(2, 1)
    svg = board_svg(rules, state)
    assert 'fill="#00ff7f"' in svg and "Green oasis" in svg
    assert "Here be dragons" in svg and "Weather: dry in round 1" in svg
    assert "Almanac: round 1" in svg
    assert "a note drawn through naqala_display instead" not in svg
    plain = board_svg(build_rules(), state)
    assert "#00ff7f" not in plain and "Oasis" in plain


def test_naqala_event_clean_up_fires_once_per_round() -> None:
    """The base flow fires ``clean-up`` at the end of every round, for everybody."""
    seen: list[int] = []

    class Watcher:
        NAME = "watcher"

        @hookimpl
        def naqala_event(self, rules: Rules, state: State, event: Event) -> None:
            if event.name == "clean-up":
                assert event.player == -1
                seen.append(state.round)

    rules = build_rules(extra_plugins=[Watcher()])
    state = rules.new_game(2, 5)
    while state.round < 3:
        state = rules.apply(state, rules.legal_actions(state)[0])
    assert seen == [1, 2]


class LastOption:
    """A player that always takes the last option (``setting`` ``first``: the first)."""

    def __init__(self, seed: int, first: bool = False) -> None:
        self.first = first

    def choose(self, rules: Rules, state: State, options: list[Action]) -> Action:
        return options[0] if self.first else options[-1]


def last_option(seed: int, setting: str) -> LastOption:
    if setting not in ("", "first"):
        raise ValueError(f"setting {setting!r} is not 'first'")
    return LastOption(seed, setting == "first")


def test_naqala_agents_adds_a_player_that_every_seat_resolves() -> None:
    """A plugin's player is seated by name, with its setting, next to the shipped ones;
    a setting it refuses is its own one-line reason; without the plugin it is unknown."""
    from naqala.core.agents import SeatError, canonical_seat, make_agent, seat_agent

    class Players:
        NAME = "players"

        @hookimpl
        def naqala_agents(self) -> dict[str, object]:
            return {"last": last_option}

    rules = build_rules(extra_plugins=[Players()])
    assert {"last", "greedy", "mcts", "random"} <= set(rules.agents)
    assert canonical_seat(rules, " AI:Last ") == "ai:last"
    assert canonical_seat(rules, "last:first") == "ai:last:first"
    agent = make_agent(rules, "ai:last:first", 1)
    assert isinstance(agent, LastOption) and agent.first
    assert seat_agent(rules, "human", 1) is None
    state = rules.new_game(2, 1)
    assert (
        make_agent(rules, "last", 1).choose(rules, state, options(rules, state))
        == (options(rules, state)[-1])
    )
    with pytest.raises(SeatError, match=r"seat 'ai:last:x': setting 'x' is not 'first'"):
        canonical_seat(rules, "ai:last:x")
    with pytest.raises(SeatError, match=r"unknown seat 'ai:last'; seats are human, ai, ai:greedy"):
        canonical_seat(build_rules(), "ai:last")


def test_naqala_agents_refuses_a_name_offered_twice_unless_replaced() -> None:
    """A plugin offering ``greedy`` clashes with the shipped player, naming both; listing
    ``ai:greedy`` in ``REPLACES`` makes it the greedy player."""

    class Greedier:
        NAME = "greedier"

        @hookimpl
        def naqala_agents(self) -> dict[str, object]:
            return {"greedy": last_option}

    class Replacing(Greedier):
        NAME = "replacing"
        REPLACES: ClassVar[list[str]] = ["ai:greedy"]

    with pytest.raises(PluginError, match=r"AI player 'ai:greedy' is provided by both") as caught:
        build_rules(extra_plugins=[Greedier()]).agents  # noqa: B018 - built on first use
    message = str(caught.value)
    assert "'agents'" in message and "'greedier'" in message and "REPLACES" in message
    assert build_rules(extra_plugins=[Replacing()]).agents["greedy"] is last_option


@pytest.mark.parametrize("name", ["Last", "human", "ai", "a:b", "two words", "", "a,b"])
def test_naqala_agents_refuses_a_name_no_seat_could_spell(name: str) -> None:
    class Odd:
        NAME = "odd"

        @hookimpl
        def naqala_agents(self) -> dict[str, object]:
            return {name: last_option}

    with pytest.raises(PluginError, match=r"plugin 'odd': AI player .* lower case"):
        build_rules(extra_plugins=[Odd()]).agents  # noqa: B018 - built on first use


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("naqala_no_such_module", "failed to load: ModuleNotFoundError"),
        ("json", "(json) answer no naqala_agents"),
    ],
)
def test_naqala_agents_of_a_broken_installed_player_package_is_named(
    monkeypatch: pytest.MonkeyPatch, value: str, words: str
) -> None:
    """An installed package in the group ``naqala.agents`` that fails to load or answers
    no hook is a PluginError naming it, when a seat is first resolved."""
    from importlib.metadata import EntryPoint

    from naqala.core import plugins

    real = plugins.entry_points

    def points(group: str) -> list[EntryPoint]:
        if group == plugins.AGENT_GROUP:
            return [EntryPoint("broken", value, group)]
        return list(real(group=group))

    monkeypatch.setattr(plugins, "entry_points", points)
    rules = build_rules()  # the rules themselves do not need the players
    with pytest.raises(PluginError, match=re.escape(f"installed AI players 'broken' {words}")):
        rules.agents  # noqa: B018 - built on first use


def test_naqala_native_support_is_a_claim_beside_who_provides_each_rule() -> None:
    """Every rule is listed with its provider (``Rules.provided``, what the kernel is
    told); content alone provides none, a read-only hook is listed apart, a replaced
    stage under its new provider; ``naqala_native_support`` is only a claim."""

    class Tolls:
        NAME = "tolls"

        @hookimpl
        def naqala_flags(self) -> list[str]:
            return ["toll-paid"]

    class Declared(Tolls):
        NAME = "declared"

        @hookimpl
        def naqala_native_support(self) -> bool:
            return True

    class Declined(Tolls):
        NAME = "declined"

        @hookimpl
        def naqala_native_support(self) -> bool:
            return False

    class ContentAlone:
        NAME = "content-alone"

        @hookimpl
        def naqala_content_files(self) -> list[Path]:
            return []

        @hookimpl
        def naqala_explain(self, rules: Rules, state: State, action: Action) -> str | None:
            return None

    def by(rules: Rules, plugin: str) -> list[str]:
        return [p.entry for p in rules.provided if p.plugin == plugin]

    alone = build_rules(extra_plugins=[ContentAlone()])
    assert by(alone, "content-alone") == ["plugin:content-alone", "reads:naqala_explain"]
    tolls = build_rules(extra_plugins=[Tolls()])
    assert by(tolls, "tolls") == ["hook:naqala_flags", "plugin:tolls"]
    oasis = Provided("stage:tile:oasis", "double-palms", "naqala_tile_actions", ("base",))
    assert oasis in build_rules(["double-palms"]).provided
    # a tile action content gives whole is the base game's interpreter's
    assert {p.plugin for p in build_rules(["rich-villages"]).provided} == {"base", "rich-villages"}
    assert {p.plugin for p in build_rules().provided} == {"base"}
    both = build_rules(extra_plugins=[Declared(), Declined()])
    assert declared_native(both) == {"base", "declared"}


def _hook_names() -> list[str]:
    return sorted(name for name in dir(hookspecs) if name.startswith("naqala_"))


def test_every_hook_is_documented_in_docs_hooks_md() -> None:
    """docs/hooks.md has a section for every hookspec, with its exact signature."""
    text = (ROOT / "docs" / "hooks.md").read_text(encoding="utf-8")
    source = ast.parse((ROOT / "core" / "hookspecs.py").read_text(encoding="utf-8"))
    for node in source.body:
        if isinstance(node, ast.FunctionDef) and node.name.startswith("naqala_"):
            assert re.search(rf"^### `{node.name}`", text, re.M), f"{node.name} not documented"
            params = ", ".join(a.arg for a in node.args.args)
            assert f"{node.name}({params})" in text, f"signature of {node.name} not in docs"


def test_every_hook_is_tested_here() -> None:
    """Each hookspec name appears in a test of this file."""
    text = Path(__file__).read_text(encoding="utf-8")
    tests = re.findall(r"def (test_\w+)", text)
    for name in _hook_names():
        assert any(name in t for t in tests), f"no test named after {name}"


def test_naqala_hidden_decks_hides_a_decks_cards_from_the_other_seats() -> None:
    """A plugin that hides the djinns in hand: the others see how many, and a
    determinization for another seat deals them again from the djinns it has not seen."""

    class HiddenDjinns:
        NAME = "hidden-djinns"

        @hookimpl
        def naqala_hidden_decks(self, rules: Rules) -> list[str]:
            return ["djinns"]

    rules = build_rules(extra_plugins=[HiddenDjinns()])
    assert {rules.deck_names[d] for d in hidden_decks(rules)} == {"resources", "djinns"}
    state = rules.new_game(2, 4)
    taken = state.decks[1].draw[:2]
    state = state.replace_player(0, state.players[0].with_hand(1, taken))
    view = view_for(rules, state, 1)
    assert "djinns" not in view["players"][0]["hands"]
    assert view["players"][0]["hidden"]["djinns"] == 2
    assert view_for(rules, state, 0)["players"][0]["hands"]["djinns"] == list(taken)
    deals = {determinize(rules, state, 1, seed).players[0].djinns for seed in range(10)}
    assert len(deals) > 1 and all(len(d) == 2 for d in deals)
    plain = build_rules()
    assert view_for(plain, state, 1)["players"][0]["hands"]["djinns"] == list(taken)


def test_naqala_action_kinds_puts_a_plugins_actions_in_the_codec() -> None:
    """A plugin that offers ``tip <n>`` at every bid declares the kind: the codec gives
    its tips indices of their own; without the declaration a tip cannot be encoded."""
    from naqala.core.encoding import ActionKind
    from naqala.envs.codec import ActionCodec, CodecError

    class Tips:
        NAME = "tips"

        @hookimpl
        def naqala_extra_options(self, rules: Rules, state: State) -> list[Action]:
            if state.decision.stage != "bid":
                return []
            return [Action("tip", (str(n),)) for n in (1, 2)]

        @hookimpl
        def naqala_apply_extra(self, rules: Rules, state: State, action: Action) -> State | None:
            return gain_coins(state, state.decision.player, -1) if action.kind == "tip" else None

    class DeclaredTips(Tips):
        NAME = "declared-tips"

        @hookimpl
        def naqala_action_kinds(self, rules: Rules) -> list[ActionKind]:
            return [ActionKind("tip", (("1", "2"),))]

    rules = build_rules(extra_plugins=[DeclaredTips()])
    codec = ActionCodec(rules)
    assert codec.size == ActionCodec(build_rules()).size + 2
    state = rules.new_game(2, 1)
    tips = [codec.encode(a) for a in rules.legal_actions(state) if a.kind == "tip"]
    assert len(set(tips)) == 2
    assert [codec.decode(i) for i in tips] == [Action("tip", ("1",)), Action("tip", ("2",))]
    undeclared = build_rules(extra_plugins=[Tips()])
    with pytest.raises(CodecError, match="tip"):
        ActionCodec(undeclared).legal(undeclared, undeclared.new_game(2, 1))


def test_naqala_observation_parts_adds_a_plugins_numbers_from_the_view() -> None:
    """A plugin's part follows the encoder's own, reads the seat's view and has its
    place and labels in the layout."""
    from naqala.core.encoding import ObservationPart, View
    from naqala.envs.observation import ObservationEncoder

    def coins_known(view: View, seat: int) -> list[float]:
        return [float(sum(p["coins"] is not None for p in view["players"]))]

    class Known:
        NAME = "known"

        @hookimpl
        def naqala_observation_parts(self, rules: Rules) -> list[ObservationPart]:
            return [ObservationPart("known-coins", 1, coins_known, ("coin counts seen",))]

    rules = build_rules(extra_plugins=[Known()])
    encoder = ObservationEncoder(rules)
    assert encoder.size == ObservationEncoder(build_rules()).size + 1
    name, first, size, labels = encoder.layout()[-1]
    assert (name, first, size, labels) == (
        "known-coins",
        encoder.size - 1,
        1,
        ("coin counts seen",),
    )
    state = rules.new_game(3, 2)
    assert encoder.observe(state, 1)[-1] == 1.0  # its own coins only


def test_naqala_metrics_adds_a_metric_beside_the_shipped_ones_and_refuses_a_clash() -> None:
    """A plugin's metric is searched by name with its rules; a shipped name is refused."""
    from naqala.core.metrics import Metric
    from naqala.lab.extremes import ExtremesError, metric_named, metrics_of

    placed = Metric(
        "camels-in-a-turn", "camels placed", lambda r, s, p: -s.players[p].camels, "turn"
    )

    class Camels:
        NAME = "camels"

        @hookimpl
        def naqala_metrics(self) -> list[Metric]:
            return [placed]

    rules = build_rules(extra_plugins=[Camels()])
    assert metric_named("camels-in-a-turn", rules) is placed
    assert {"points-in-a-turn", "rounds", "camels-in-a-turn"} <= set(metrics_of(rules))
    with pytest.raises(ExtremesError, match="unknown metric 'camels-in-a-turn'"):
        metric_named("camels-in-a-turn", build_rules())

    class Rounds:
        NAME = "rounds-again"

        @hookimpl
        def naqala_metrics(self) -> list[Metric]:
            return [attrs.evolve(placed, name="rounds")]

    with pytest.raises(ExtremesError, match=r"'rounds-again' and 'naqala\.lab\.extremes'"):
        metrics_of(build_rules(extra_plugins=[Rounds()]))

    class Replacing(Rounds):
        NAME = "rounds-replaced"
        REPLACES = ("metric:rounds",)

    replaced = build_rules(extra_plugins=[Replacing()])
    assert metric_named("rounds", replaced).description == "camels placed"
    assert replaced.providers["metric:rounds"] == "rounds-replaced"


def test_naqala_tile_effects_plays_the_content_tile_action_s_game() -> None:
    """The village paying 2 coins as code (effects answered by the hook) and as content
    (a ``[[tile_action]]``) play the same game on the Python engine; the base game
    differs."""
    import random

    def final(rules: Rules) -> list[int]:
        state, pick = rules.new_game(3, 4), random.Random(4)
        while not state.is_over:
            options = rules.legal_actions(state)
            state = rules.apply(state, options[pick.randrange(len(options))])
        return [p.coins for p in state.players]

    code = final(build_rules([], [ROOT / "plugins" / "examples" / "rich_villages.py"]))
    assert code == final(build_rules([], [ROOT / "plugins" / "house" / "rich_villages.toml"]))
    assert code != final(build_rules())
