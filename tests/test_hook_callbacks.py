"""Code hooks the native engine calls back (docs/hooks.md, "Hooks called back"): games
with them stay native, play the Python engine's game, and the hook sees a read-only view
of the state that reads as the Python ``State`` does."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
import pytest
from native_kit import assert_native_game_is_python, require_native

from naqala.core.effects import EffectSpec
from naqala.core.engine import Rules, build_rules
from naqala.core.events import ScoreLine, Verdict
from naqala.core.hookspecs import hookimpl
from naqala.core.state import State

EXAMPLES = Path(__file__).resolve().parents[1] / "plugins" / "examples"
#: the example of each hook called back, with the hook
CALLED_BACK = {
    "round_cap.py": "naqala_game_ends",
    "safe_elders.py": "naqala_protected_meeples",
    "sultans_favour.py": "naqala_verdict",
    "thrifty_caravans.py": "naqala_score_lines",
    "fakirs_in_hand.py": "naqala_adjust_new_game",
    "rich_villages.py": "naqala_tile_effects",
    "golden_oases.py": "naqala_adjust_score_lines",
}
#: games compared per example here (.ci/run compares more)
GAMES = 8


def example(name: str) -> Rules:
    return build_rules([], [EXAMPLES / name])


@pytest.mark.parametrize(("name", "hook"), CALLED_BACK.items())
def test_a_game_with_a_hook_called_back_stays_native_and_says_so(name: str, hook: str) -> None:
    require_native()
    from naqala.native.choice import AUTO, NATIVE, PYTHON, choose
    from naqala.native.plan import plan

    rules = example(name)
    found = plan(rules, ("random", "greedy"), 4)
    assert found.game.engine == NATIVE and found.reason is None
    choice = choose(rules, AUTO, ("random",) * 4)
    assert choice.engine == NATIVE
    assert choice.called_back is not None and hook in choice.called_back
    # the environments' kernel calls no hook back: they stay in Python, saying so
    assert found.envs.engine == PYTHON and "call back" in str(found.envs.reason)


def test_a_hook_the_kernel_cannot_call_back_still_keeps_the_game_in_python() -> None:
    require_native()
    from naqala.native.choice import AUTO, PYTHON, choose

    choice = choose(example("double_palms.py"), AUTO, ("random",) * 4)
    assert choice.engine == PYTHON and choice.called_back is None
    assert choice.fallback is not None and "naqala_tile_actions" in choice.fallback


@pytest.mark.parametrize("name", CALLED_BACK)
def test_games_with_a_hook_called_back_do_not_differ_from_the_python_engine(name: str) -> None:
    require_native()
    from naqala.native.differential import Report, games, ported_rules, verify_game

    rules, bridge = ported_rules(house_rules=[EXAMPLES / name])
    total = Report()
    for players, seed, agent in games(GAMES):
        total.add(verify_game(rules, bridge, players, seed, agent))
    assert total.differences == [] and total.unported == {}
    assert_native_game_is_python(rules, bridge, 4, 7)  # a native set-up, played out
    assert [hook for hook, _, calls, _ in bridge.called_back() if calls] == [CALLED_BACK[name]]


@pytest.mark.parametrize("name", CALLED_BACK)
def test_a_native_greedy_game_with_a_hook_called_back_is_the_python_one(name: str) -> None:
    require_native()
    from naqala.agents.greedy import GreedyAgent
    from naqala.core.serialize import state_to_data
    from naqala.core.simulate import agent_seed
    from naqala.native.support import native_rules

    rules, seed, players = example(name), 11, 3
    agents = [GreedyAgent(agent_seed(seed, seat)) for seat in range(players)]
    state = rules.new_game(players, seed)
    while not state.is_over:
        agent = agents[state.decision.player]
        state = rules.apply(state, agent.choose(rules, state, rules.legal_actions(state)))
    bridge = native_rules(rules)
    seats = [("greedy", agent_seed(seed, seat)) for seat in range(players)]
    final, _, _ = bridge.new_game(players, seed).play(seats)
    assert bridge.data(final) == state_to_data(rules, state)


def test_an_option_the_greedy_seat_s_view_forbids_is_judged_alike_on_both_engines() -> None:
    """safe-elders protects a poor player's meeples, reading their coins, which a greedy
    seat's view deals again: in this game (2 players, seed 435) P2's elders are a legal
    target, with 68 coins, but protected in the view, where P2 holds what the seat holds.
    The option is judged all the same on both engines, and the games agree."""
    require_native()
    from naqala.agents.greedy import GreedyAgent
    from naqala.core.engine import IllegalAction
    from naqala.core.serialize import state_to_data
    from naqala.core.simulate import agent_seed
    from naqala.core.views import determinize
    from naqala.native.support import native_rules

    rules, seed, players = example("safe_elders.py"), 435, 2
    agents = [GreedyAgent(agent_seed(seed, seat)) for seat in range(players)]
    state = rules.new_game(players, seed)
    forbidden_in_view = 0
    while not state.is_over:
        player = state.decision.player
        options = rules.legal_actions(state)
        if state.decision.stage == "kill":
            view = determinize(rules, state, player, agents[player].seed)
            for option in options:
                if not rules.is_legal(view, option):
                    forbidden_in_view += 1
                    with pytest.raises(IllegalAction, match="protected"):
                        rules.apply(view, option)
                    assert rules.apply_on_view(view, option).decision != view.decision
        state = rules.apply(state, agents[player].choose(rules, state, options))
    assert forbidden_in_view > 0
    bridge = native_rules(rules)
    seats = [("greedy", agent_seed(seed, seat)) for seat in range(players)]
    final, _, _ = bridge.new_game(players, seed).play(seats)
    assert bridge.data(final) == state_to_data(rules, state)


def test_a_native_new_game_deals_the_fakirs_of_a_hook_called_back() -> None:
    require_native()
    from naqala.native.support import native_rules

    rules = example("fakirs_in_hand.py")
    players = json.loads(native_rules(rules).new_game(4, 2).to_json())["players"]
    assert [p["hands"]["resources"] for p in players] == [["fakir"]] * 4


def test_the_round_cap_ends_native_games_after_its_round() -> None:
    require_native()
    from naqala.native.support import native_rules

    for rules, capped in ((example("round_cap.py"), True), (build_rules(), False)):
        start = native_rules(rules).new_game(4, 3)
        final, _ = start.random_playout([1, 2, 3, 4])
        last = json.loads(final.to_json())["round"]
        assert (last == 4) is capped, last


def test_the_protected_meeples_are_no_target_of_a_native_kill() -> None:
    require_native()
    from naqala.native.differential import ported_rules
    from naqala.plugins.base.tribes import kill_targets

    rules, bridge = ported_rules(house_rules=[EXAMPLES / "safe_elders.py"])
    hidden_seen = 0
    for seed in range(30):
        state = rules.new_game(3, seed)
        while not state.is_over:
            if state.decision.stage == "kill":
                native = set(bridge.to_native(state).legal_actions())
                every = {str(a) for a in kill_targets(rules, state, protection=False)}
                for hidden in every - native:
                    victim, colour = hidden.removeprefix("kill p").split()
                    assert colour in ("Y", "W")
                    assert state.players[int(victim) - 1].coins <= 10
                    hidden_seen += 1
            state = rules.apply(state, rules.legal_actions(state)[-1])
    assert hidden_seen, "no assassination met a protected vizier or elder"


class Changing:
    """A plugin whose end-of-game hook tries to change the state it is shown."""

    NAME = "changing"

    @hookimpl
    def naqala_game_ends(self, rules: Rules, state: State) -> bool:
        state.round = 1  # type: ignore[misc]
        return False


class Failing:
    """A plugin whose protected-meeples hook raises."""

    NAME = "failing"

    @hookimpl
    def naqala_protected_meeples(self, rules: Rules, state: State, player: int) -> set[str]:
        raise KeyError("no such player")


def test_a_hook_that_changes_the_view_fails_in_one_clear_line() -> None:
    require_native()
    from naqala.native.support import native_rules

    rules = build_rules(extra_plugins=[Changing()])
    start = native_rules(rules).new_game(3, 1)
    with pytest.raises(RuntimeError, match=r"naqala_game_ends .*read-only.*'round'"):
        start.random_playout([1, 2, 3])


def test_a_hook_that_fails_names_itself_when_the_kernel_returns() -> None:
    require_native()
    from naqala.native.support import native_rules

    rules = build_rules(extra_plugins=[Failing()])
    start = native_rules(rules).new_game(3, 1)
    with pytest.raises(RuntimeError, match=r"naqala_protected_meeples failed.*no such player"):
        start.random_playout([1, 2, 3])


class Looking:
    """A plugin that keeps every view it is shown at the end of a round."""

    NAME = "looking"

    def __init__(self) -> None:
        self.views: list[Any] = []

    @hookimpl
    def naqala_game_ends(self, rules: Rules, state: State) -> bool:
        self.views.append(state)
        return False


def test_the_view_reads_as_the_python_state_it_stands_for() -> None:
    require_native()
    from naqala.native.support import native_rules

    looking = Looking()
    rules = build_rules(["djinns"], extra_plugins=[looking])
    native_rules(rules).new_game(4, 5).random_playout([5, 6, 7, 8])
    assert looking.views
    for view in looking.views:
        state = view.full_state()
        assert (view.round, view.flags, view.extras) == (state.round, state.flags, state.extras)
        assert (view.decision.stage, view.decision.player) == (
            state.decision.stage,
            state.decision.player,
        )
        assert view.is_over == state.is_over
        assert all(view.has_flag(f) for f in state.flags) and not view.has_flag("nothing")
        for seen, held in zip(view.players, state.players, strict=True):
            assert (seen.coins, seen.camels, seen.meeples) == (
                held.coins,
                held.camels,
                held.meeples,
            )
            assert (seen.hands, seen.extras) == (held.hands, held.extras)
        board = view.board
        assert (board.meeples, board.owners, board.tokens) == (
            state.board.meeples,
            state.board.owners,
            state.board.tokens,
        )
        with pytest.raises(AttributeError, match="read-only"):
            view.players[0].coins = 100
        with pytest.raises(AttributeError, match="read-only"):
            view.board.owners = ()
        with pytest.raises(TypeError):
            view.players[0].meeples[0] = 9  # a tuple
        assert view.players[-1].coins == state.players[-1].coins
        with pytest.raises(IndexError, match="no player 4 of 4"):
            view.players[4]


class Wrong:
    """A plugin whose verdict names a seat the game does not have."""

    NAME = "wrong"

    @hookimpl
    def naqala_verdict(self, rules: Rules, state: State) -> Verdict:
        return Verdict((7,), "P8 wins", "ghost")


def test_a_verdict_called_back_is_the_lab_s_result_and_a_wrong_one_is_refused() -> None:
    require_native()
    from naqala.native.support import native_rules

    rules = example("sultans_favour.py")
    bridge = native_rules(rules)
    kinds = set()
    for seed in range(20):
        final, _ = bridge.new_game(3, seed).random_playout([1, 2, 3])
        reading = final.reading()
        assert reading is not None
        verdict = rules.verdict(bridge.to_python(final))
        assert (reading[3], reading[8]) == (list(verdict.winners), verdict.kind)
        kinds.add(reading[8])
    assert kinds == {"", "favour"}  # the hook won some games, the scores the others
    wrong = build_rules(extra_plugins=[Wrong()])
    final, _ = native_rules(wrong).new_game(3, 1).random_playout([1, 2, 3])
    with pytest.raises(RuntimeError, match=r"naqala_verdict failed.*winner 7 is no seat"):
        final.reading()


def test_a_python_state_is_its_own_full_state() -> None:
    state = build_rules().new_game(3, 1)
    assert state.full_state() is state


@pytest.mark.parametrize("seed", [3, 8])
def test_a_python_player_seated_in_a_native_game_plays_the_python_engine_s_game(
    seed: int,
) -> None:
    require_native()
    import importlib

    from naqala.agents.greedy import GreedyAgent
    from naqala.core.agents import make_agent
    from naqala.core.serialize import state_to_data
    from naqala.core.simulate import agent_seed
    from naqala.native.callbacks import seat_function, state_reader
    from naqala.native.support import native_rules

    coiny = importlib.import_module("naqala.plugins.examples.coiny")
    rules = build_rules(extra_plugins=[coiny])
    agents = [make_agent(rules, "coiny", agent_seed(seed, 0))]
    agents += [GreedyAgent(agent_seed(seed, seat)) for seat in (1, 2, 3)]
    state = rules.new_game(4, seed)
    while not state.is_over:
        agent = agents[state.decision.player]
        state = rules.apply(state, agent.choose(rules, state, rules.legal_actions(state)))
    bridge = native_rules(rules)
    seats = [("coiny", 0)] + [("greedy", agent_seed(seed, seat)) for seat in (1, 2, 3)]
    asked = [seat_function(rules, make_agent(rules, "coiny", agent_seed(seed, 0)))]
    final, _, _ = bridge.new_game(4, seed).play(
        seats, [*asked, None, None, None], state_reader(rules)
    )
    assert bridge.data(final) == state_to_data(rules, state)


def test_a_python_player_that_fails_stops_the_native_game_with_its_error() -> None:
    require_native()
    from naqala.native.support import native_rules

    def confused(view: Any, notations: list[str]) -> int:
        raise LookupError(f"no idea at round {view.round}")

    start = native_rules(build_rules()).new_game(2, 1)
    with pytest.raises(LookupError, match="no idea at round 1"):
        start.play([("x", 0), ("random", 1)], [confused, None])


@pytest.mark.parametrize("name", ["sultans_favour.py", "thrifty_caravans.py"])
def test_simulate_plays_a_hook_called_back_natively_with_the_python_engine_s_json(
    name: str,
) -> None:
    require_native()
    from typer.testing import CliRunner

    from naqala.cli.app import app

    common = ["simulate", "--games", "12", "--players", "4", "--json", "--jobs", "1"]
    rule = ["--house-rules", str(EXAMPLES / name)]
    runner = CliRunner()
    native = runner.invoke(app, [*common, *rule], env={"NAQALA_ENGINE": None})
    python = runner.invoke(app, [*common, *rule, "--engine", "python"])
    assert native.exit_code == python.exit_code == 0, native.stderr
    assert f"playing natively, calling back plugin '{example(name).plugins[-1].name}'" in (
        native.stderr
    )
    assert native.stdout == python.stdout
    if name == "sultans_favour.py":  # the verdict's kind reached the summary natively
        assert '"favour": 2' in native.stdout


class Bonus:
    """A second plugin's score lines: 3 points a player, a line without points too."""

    NAME = "bonus"

    @hookimpl
    def naqala_score_lines(self, rules: Rules, state: State, player: int) -> list[ScoreLine]:
        return [ScoreLine("bonus", 3, "bonus"), ScoreLine("bonus", 0, "bonus")]


def test_two_plugins_score_lines_called_back_add_up_as_on_the_python_engine() -> None:
    require_native()
    from naqala.native.support import native_rules

    caravans = build_rules([], [EXAMPLES / "thrifty_caravans.py"])
    rules = build_rules(extra_plugins=[caravans.plugins[-1].module, Bonus()])
    bridge = native_rules(rules)
    state = rules.new_game(3, 4)
    for _ in range(60):
        assert bridge.to_native(state).scores() == list(rules.scores(state))
        state = rules.apply(state, rules.legal_actions(state)[0])


class PalmGroves:
    """Score lines in a token's category: 7 points a tile held, as palm trees."""

    NAME = "palm-groves"

    @hookimpl
    def naqala_score_lines(self, rules: Rules, state: State, player: int) -> list[ScoreLine]:
        held = sum(1 for owner in state.board.owners if owner == player)
        return [ScoreLine("palm-trees", 7 * held, "palm-groves")]


def test_the_great_lake_doubles_a_palm_tree_worth_what_a_called_back_line_adds() -> None:
    """The lake's line reads the worth of a palm tree from every line of its category,
    a called-back plugin's too, on both engines (the kernel once left those out)."""
    require_native()
    from naqala.native.support import native_rules

    rules = build_rules(["djinns"], extra_plugins=[PalmGroves()])
    bridge = native_rules(rules)
    by_the_lake = 0
    for seed in range(12):
        final, _ = bridge.new_game(5, seed).random_playout([seed, 1, 2, 3, 4])
        state = bridge.to_python(final, meaning=False)
        assert final.scores() == list(rules.scores(state)), seed
        by_the_lake += sum(
            line.points
            for player in range(5)
            for line in rules.score_lines(state, player)
            if line.source == "great-lake" and line.category == "palm-trees"
        )
    assert by_the_lake > 0  # the lake doubled palm trees worth the groves' points


class Kept:
    """An adjustment that keeps every sheet it is handed, with the round it read, adding
    nothing."""

    NAME = "kept"

    def __init__(self) -> None:
        self.sheets: list[tuple[int, tuple[ScoreLine, ...]]] = []

    @hookimpl
    def naqala_adjust_score_lines(
        self, rules: Rules, state: State, player: int, lines: tuple[ScoreLine, ...]
    ) -> list[ScoreLine]:
        self.sheets.append((state.round, lines))
        return []


def test_an_adjustment_is_handed_each_distinct_line_made_once_and_read_as_the_python_one() -> None:
    """A greedy game hands the adjustment thousands of sheets of the same few lines: each
    line is made once and handed again, equal to the Python engine's line without its
    words. The same question about the same round is not asked twice."""
    require_native()
    from naqala.native.support import native_rules

    kept = Kept()
    rules = build_rules(extra_plugins=[kept])
    bridge = native_rules(rules)
    state = rules.new_game(3, 7)
    for _ in range(40):
        state = rules.apply(state, rules.legal_actions(state)[0])
    native = bridge.to_native(state)
    scores = native.scores()
    asked = len(kept.sheets)
    assert asked == len(state.players)
    assert native.scores() == scores and len(kept.sheets) == asked  # remembered
    later = bridge.to_native(attrs.evolve(state, round=state.round + 1))
    assert later.scores() == scores
    (round_read, first), (later_round, again) = kept.sheets[0], kept.sheets[asked]
    assert later_round == round_read + 1  # the same player's sheet, asked again
    assert first and all(a is b for a, b in zip(first, again, strict=True))
    assert scores == list(rules.scores(state))
    words_left_out = [attrs.evolve(line, detail="") for line in rules.score_lines(state, 0)]
    assert list(first) == [line for line in words_left_out if line.source != "kept"]


class Counted:
    """Camels worth a point from round 3 on, for players with 5 coins or more: what the
    hook reads depends on what it has read (the coins only from round 3). It counts its
    calls."""

    NAME = "counted"

    def __init__(self) -> None:
        self.calls = 0

    @hookimpl
    def naqala_score_lines(self, rules: Rules, state: State, player: int) -> list[ScoreLine]:
        self.calls += 1
        if state.round < 3:
            return []
        me = state.players[player]
        return [ScoreLine("camels", me.camels, self.NAME, "")] if me.coins >= 5 else []


def test_a_hook_is_asked_again_only_when_what_it_read_has_changed() -> None:
    """The kernel keeps a hook's answers by its arguments and the values of every part of
    the state its calls have read, widening what it compares when a call reads more: a
    greedy game asks the score of thousands of states, and the game stays the Python
    engine's."""
    require_native()
    from naqala.agents.greedy import GreedyAgent
    from naqala.core.serialize import state_to_data
    from naqala.core.simulate import agent_seed
    from naqala.native.support import native_rules

    counted = Counted()
    rules, seed, players = build_rules(extra_plugins=[counted]), 5, 3
    agents = [GreedyAgent(agent_seed(seed, seat)) for seat in range(players)]
    state = rules.new_game(players, seed)
    while not state.is_over:
        agent = agents[state.decision.player]
        state = rules.apply(state, agent.choose(rules, state, rules.legal_actions(state)))
    python_calls, counted.calls = counted.calls, 0
    bridge = native_rules(rules)
    seats = [("greedy", agent_seed(seed, seat)) for seat in range(players)]
    final, _, _ = bridge.new_game(players, seed).play(seats)
    native_calls = counted.calls
    assert bridge.data(final) == state_to_data(rules, state)
    assert final.scores() == list(rules.scores(state))
    assert 0 < native_calls < python_calls / 10, (native_calls, python_calls)


#: a hook's reading of one part of the state the view notes, as a number of points
PART_READINGS: dict[str, Callable[[State, int], int]] = {
    "round": lambda state, me: state.round,
    "decision": lambda state, me: (
        state.decision.player + 10 * len(state.decision.stage) + 1000 * state.is_over
    ),
    "flags": lambda state, me: len(state.flags) + 10 * state.has_flag("last-round"),
    "extras": lambda state, me: sum(value for _, value in state.extras) + len(state.extras),
    "board": lambda state, me: (
        sum(map(sum, state.board.meeples))
        + 3 * sum(owner == me for owner in state.board.owners)
        + 7 * sum(map(sum, state.board.tokens))
    ),
    "coins": lambda state, me: state.players[me].coins,
    "camels": lambda state, me: state.players[me].camels,
    "meeples": lambda state, me: sum(state.players[me].meeples) + 5 * state.players[me].meeples[0],
    "hands": lambda state, me: sum(
        len(hand) * (deck + 1) for deck, hand in enumerate(state.players[me].hands)
    ),
    "a player's counters": lambda state, me: sum(value for _, value in state.players[me].extras),
}


class Reading:
    """A score line of one number read from the state."""

    NAME = "reading"

    def __init__(self, read: Callable[[State, int], int]) -> None:
        self.read = read

    @hookimpl
    def naqala_score_lines(self, rules: Rules, state: State, player: int) -> list[ScoreLine]:
        return [ScoreLine("reading", self.read(state, player), self.NAME, "")]


@pytest.mark.parametrize("part", PART_READINGS)
def test_an_answer_is_remembered_only_while_the_part_the_hook_read_is_the_same(part: str) -> None:
    """Along a game, every state is scored natively by a hook reading one part of it,
    its answers remembered from state to state: each score is the Python engine's, so
    no answer is kept past a change of the part read."""
    require_native()
    import random

    from naqala.native.support import native_rules

    read = PART_READINGS[part]
    rules = build_rules(["djinns", "artisans"], extra_plugins=[Reading(read)])
    pick, state, states = random.Random(3), rules.new_game(4, 3), []
    while not state.is_over:
        states.append(state)
        state = rules.apply(state, pick.choice(rules.legal_actions(state)))
    states.append(state)
    assert len({read(s, 0) for s in states}) > 1  # the part changes along the game
    bridge = native_rules(rules)
    for state in states:
        assert bridge.to_native(state).scores() == list(rules.scores(state)), state.round


class Whole:
    """A score line from the whole Python state (its layout, which no view holds)."""

    NAME = "whole"

    def __init__(self) -> None:
        self.calls = 0

    @hookimpl
    def naqala_score_lines(self, rules: Rules, state: State, player: int) -> list[ScoreLine]:
        self.calls += 1
        full = state.full_state()
        return [ScoreLine("tiles", full.layout.rows, self.NAME, "")]


def test_a_hook_that_reads_the_whole_state_is_asked_every_time() -> None:
    """``full_state()`` reads everything, so its answers are not kept: each score asks."""
    require_native()
    from naqala.native.support import native_rules

    whole = Whole()
    rules = build_rules(extra_plugins=[whole])
    native = native_rules(rules).new_game(3, 7)
    native.scores()
    native.scores()
    assert whole.calls == 6


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_simulate_seats_a_plugin_s_player_natively_with_the_python_engine_s_json(
    jobs: str,
) -> None:
    """The plan seats ``coiny`` natively (called back at its seat, every other seat the
    kernel's), says so, and the study is the Python engine's, in workers too."""
    require_native()
    from typer.testing import CliRunner

    from naqala.cli.app import app

    common = ["simulate", "--games", "6", "--seats", "coiny,greedy,greedy,greedy", "--json"]
    common += ["--house-rules", str(EXAMPLES / "coiny.py"), "--jobs", jobs]
    runner = CliRunner()
    native = runner.invoke(app, [*common, "--engine", "native"])
    python = runner.invoke(app, [*common, "--engine", "python"])
    assert native.exit_code == python.exit_code == 0, native.stderr
    assert native.stderr.splitlines() == [
        "naqala: playing natively, calling back the player 'coiny' of plugin 'coiny' at its seats"
    ]
    assert native.stdout == python.stdout
    assert json.loads(native.stdout)["games"] == 6


def test_a_study_game_with_a_plugin_s_player_is_the_python_engine_s_result() -> None:
    """``play_task`` on native hands the kernel the plugin's player for its seat only."""
    require_native()
    from naqala.lab.study import Ruleset, Study, play_task

    ruleset = Ruleset.of([], [EXAMPLES / "coiny.py"])
    seats = ("greedy", "coiny", "random")
    native = play_task((Study(ruleset, seats, seed=5, rotate=True, engine="native"), 1))
    python = play_task((Study(ruleset, seats, seed=5, rotate=True, engine="python"), 1))
    assert native.agents == ("random", "greedy", "coiny")
    assert native == python


def test_a_table_keeps_a_plugin_s_player_in_python_on_native() -> None:
    """At the table (a Python game) the kernel plays only its own players: ``coiny``
    stays a Python agent, and the game is the Python engine's."""
    require_native()
    from typer.testing import CliRunner

    from naqala.cli.app import app

    args = ["play", "--house-rules", str(EXAMPLES / "coiny.py"), "--seed", "3"]
    args += ["--seats", "ai:coiny,ai:greedy"]
    runner = CliRunner()
    native = runner.invoke(app, [*args, "--engine", "native"])
    python = runner.invoke(app, [*args, "--engine", "python"])
    assert native.exit_code == python.exit_code == 0, native.stderr
    assert "Final scores" in native.stdout
    assert native.stdout == python.stdout


class Lookahead:
    """A player that needs the whole state: it applies each option (the view cannot)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, rules: Rules, state: State, options: Any) -> Any:
        me = state.decision.player
        return max(options, key=lambda option: rules.apply(state, option).players[me].coins)


def test_a_player_that_needs_the_whole_state_gets_it_and_plays_the_python_game() -> None:
    require_native()
    from naqala.core.agents import RandomAgent
    from naqala.core.serialize import state_to_data
    from naqala.native.callbacks import seat_function, state_reader
    from naqala.native.support import native_rules

    rules = build_rules()
    agents = [Lookahead(1), RandomAgent(2)]
    state = rules.new_game(2, 4)
    while not state.is_over:
        agent = agents[state.decision.player]
        state = rules.apply(state, agent.choose(rules, state, rules.legal_actions(state)))
    bridge = native_rules(rules)
    asked = [seat_function(rules, Lookahead(1)), None]
    final, _, _ = bridge.new_game(2, 4).play([("x", 0), ("random", 2)], asked, state_reader(rules))
    assert bridge.data(final) == state_to_data(rules, state)


def test_a_plugin_player_s_tally_counts_its_own_decisions() -> None:
    require_native()
    from naqala.agents.greedy import GreedyAgent
    from naqala.core.simulate import agent_seed
    from naqala.native.callbacks import SeatTally, seat_function, state_reader
    from naqala.native.support import native_rules

    rules = build_rules()
    greedy = [GreedyAgent(agent_seed(2, seat)) for seat in range(3)]
    state, mine = rules.new_game(3, 2), 0
    while not state.is_over:
        mine += state.decision.player == 1
        agent = greedy[state.decision.player]
        state = rules.apply(state, agent.choose(rules, state, rules.legal_actions(state)))
    tally = SeatTally()
    asked = [None, seat_function(rules, GreedyAgent(agent_seed(2, 1)), tally), None]
    seats = [("greedy", agent_seed(2, seat)) for seat in range(3)]
    native_rules(rules).new_game(3, 2).play(seats, asked, state_reader(rules))
    assert tally.calls == mine > 0
    assert tally.seconds > 0


def test_the_engine_report_line_names_each_callback_of_the_run_by_its_share() -> None:
    from naqala.native.report import report_line

    before = {"naqala_verdict": (4, 4, 0.5), "the player 'coiny'": (10, 10, 1.0)}
    after = {
        "naqala_verdict": (6, 6, 0.75),
        "the player 'coiny'": (30, 30, 2.0),
        "naqala_game_ends": (300, 3, 0.25),
        "naqala_score_lines": (50, 0, 0.0),
    }
    assert report_line("native", 2, 4.0, before, after) == (
        "engine report: 2 games on the native engine in 4.00 s; called back: "
        "the player 'coiny' 20 calls 1.000 s (25.0%), naqala_game_ends 300 asked, 3 calls "
        "0.250 s (6.2%), naqala_verdict 2 calls 0.250 s (6.2%), naqala_score_lines 50 "
        "asked, 0 calls 0.000 s (0.0%)"
    )
    assert report_line("python", 1, 0.5, {}, {}) == (
        "engine report: 1 games on the python engine in 0.50 s; nothing called back"
    )


@pytest.mark.parametrize(
    ("rule", "seats", "called"),
    [
        ("thrifty_caravans.py", "greedy,greedy,greedy", "naqala_score_lines"),
        ("coiny.py", "coiny,greedy,greedy", "the player 'coiny'"),
    ],
)
def test_simulate_reports_the_callbacks_of_its_run_and_prints_the_same_study(
    rule: str, seats: str, called: str
) -> None:
    require_native()
    import re

    from typer.testing import CliRunner

    from naqala.cli.app import app

    args = ["simulate", "--games", "3", "--seats", seats, "--json"]
    args += ["--house-rules", str(EXAMPLES / rule), "--engine", "native"]
    runner = CliRunner()
    plain = runner.invoke(app, [*args, "--jobs", "1"])
    reported = runner.invoke(app, [*args, "--engine-report"])
    assert plain.exit_code == reported.exit_code == 0, reported.stderr
    assert untimed(json.loads(reported.stdout)) == untimed(json.loads(plain.stdout))
    line = reported.stderr.splitlines()[-1]
    assert line.startswith("naqala: engine report: 3 games on the native engine in ")
    # asked every game; called less often where an answer is remembered (a second run in
    # this process may call it not at all)
    found = re.search(rf"called back: {re.escape(called)} ([\d,]+)( asked, [\d,]+)? calls ", line)
    assert found is not None and int(found[1].replace(",", "")) > 0
    refused = runner.invoke(app, [*args, "--engine-report", "--jobs", "2"])
    assert refused.exit_code == 2
    assert "--engine-report plays in this process" in refused.stderr


HOUSE = Path(__file__).resolve().parents[1] / "plugins" / "house"


@pytest.mark.parametrize("players", [2, 4])
def test_the_code_tile_action_plays_the_content_one_s_game_natively(players: int) -> None:
    require_native()
    from naqala.native.support import native_rules

    def final(rules: Rules) -> Any:
        start = native_rules(rules).new_game(players, 5)
        data = json.loads(start.random_playout(list(range(1, players + 1)))[0].to_json())
        return [p["coins"] for p in data["players"]], data["round"]

    code = final(example("rich_villages.py"))
    assert code == final(build_rules([], [HOUSE / "rich_villages.toml"]))
    assert code != final(build_rules())  # the villages paid


class Unreadable:
    """A plugin whose tile effects are no effects."""

    NAME = "unreadable"

    @hookimpl
    def naqala_tile_effects(self, rules: Rules, state: State, kind: str, at: str) -> Any:
        return [{"coins": 2}]


class Misplacing:
    """A plugin whose tile effects place a token no content has."""

    NAME = "misplacing"

    @hookimpl
    def naqala_tile_effects(self, rules: Rules, state: State, kind: str, at: str) -> Any:
        return [EffectSpec(place="no-such-token")]


@pytest.mark.parametrize(
    ("plugin", "said"),
    [(Unreadable(), "an effect is an EffectSpec"), (Misplacing(), "not place")],
)
def test_tile_effects_the_kernel_cannot_run_stop_it_in_one_line(plugin: Any, said: str) -> None:
    require_native()
    from naqala.native.support import native_rules

    start = native_rules(build_rules(extra_plugins=[plugin])).new_game(3, 1)
    with pytest.raises(RuntimeError, match=rf"naqala_tile_effects failed.*{said}"):
        start.random_playout([1, 2, 3])


RICH = str(EXAMPLES / "rich_villages.py")


def untimed(data: Any) -> Any:
    """A study's JSON without the AI's time per decision (the balance card's decision
    load), which differs from run to run."""
    if isinstance(data, dict):
        return {k: untimed(v) for k, v in data.items() if k != "seconds_per_decision"}
    if isinstance(data, list):
        return [untimed(v) for v in data]
    return data


@pytest.mark.parametrize(
    ("args", "games"),
    [
        (["compare", "--games", "3", "--house-rules", RICH], 6),
        (["skill", "--games", "1", "--seats", "random,greedy", "--house-rules", RICH], 2),
        (["balance", "--games", "2", "--skill-games", "1", "--house-rules", RICH], 4),
        (["interactions", "--components", f"rule:{RICH},djinn:haurvatat", "--games", "2"], 8),
    ],
)
def test_the_other_study_commands_report_the_callbacks_of_their_run(
    args: list[str], games: int
) -> None:
    require_native()
    from typer.testing import CliRunner

    from naqala.cli.app import app

    runner = CliRunner()
    common = [*args, "--json", "--engine", "native"]
    plain = runner.invoke(app, [*common, "--jobs", "1"])
    reported = runner.invoke(app, [*common, "--engine-report"])
    assert plain.exit_code == reported.exit_code == 0, reported.stderr
    assert untimed(json.loads(reported.stdout)) == untimed(json.loads(plain.stdout))
    line = reported.stderr.splitlines()[-1]
    assert line.startswith(f"naqala: engine report: {games} games on the native engine in ")
    assert "called back: naqala_tile_effects " in line
    refused = runner.invoke(app, [*common, "--engine-report", "--dask", "tcp://nowhere:1"])
    assert refused.exit_code == 2
    assert "--engine-report plays in this process" in refused.stderr


def test_a_finished_game_with_score_lines_called_back_is_read_natively_line_for_line() -> None:
    """The lab reads the kernel's score sheet, the plugin's lines in place, rather than a
    Python state of the game (a state JSON round trip a game)."""
    require_native()
    from naqala.native.support import native_rules

    rules = example("thrifty_caravans.py")
    bridge = native_rules(rules)
    final, _ = bridge.new_game(4, 6).random_playout([1, 2, 3, 4])
    reading = final.reading()
    assert reading is not None
    state = bridge.to_python(final, meaning=False)
    expected = [
        [(line.category, line.source, line.points) for line in rules.score_lines(state, p)]
        for p in range(4)
    ]
    assert reading[1] == expected
    assert any(source == "thrifty-caravans" for sheet in reading[1] for _, source, _ in sheet)


class Shortened:
    """A plugin whose hooks take fewer arguments than the hookspec, and in another order."""

    NAME = "shortened"

    @hookimpl
    def naqala_game_ends(self, state: State) -> bool:
        return state.round >= 2

    @hookimpl
    def naqala_score_lines(self, player: int, state: State) -> list[ScoreLine]:
        return [ScoreLine("extra", player + state.round, "shortened")]


def test_hooks_taking_some_arguments_in_any_order_are_called_back_with_them() -> None:
    require_native()
    from naqala.native.support import native_rules

    rules = build_rules(extra_plugins=[Shortened()])
    final, _ = native_rules(rules).new_game(3, 2).random_playout([1, 2, 3])
    data = json.loads(final.to_json())
    assert data["round"] == 2
    state = native_rules(rules).to_python(final, meaning=False)
    assert final.scores() == list(rules.scores(state))
    assert [line.points for line in rules.score_lines(state, 1) if line.category == "extra"] == [3]


def test_a_finished_game_with_adjustments_called_back_is_read_with_their_lines() -> None:
    require_native()
    from naqala.native.support import native_rules

    rules = example("golden_oases.py")
    bridge = native_rules(rules)
    final, _ = bridge.new_game(3, 8).random_playout([1, 2, 3])
    reading = final.reading()
    assert reading is not None
    state = bridge.to_python(final, meaning=False)
    expected = [
        [(line.category, line.source, line.points) for line in rules.score_lines(state, p)]
        for p in range(3)
    ]
    assert reading[1] == expected and final.scores() == list(rules.scores(state))
    assert any(source == "golden-oases" for sheet in reading[1] for _, source, _ in sheet)


def test_adjustments_the_kernel_cannot_give_every_line_keep_the_game_in_python() -> None:
    require_native()
    from naqala.native.plan import PYTHON, plan

    rules = build_rules(["solo"], [EXAMPLES / "golden_oases.py"])
    found = plan(rules, ("random",), 1)
    assert found.game.engine == PYTHON
    assert "does not write the score lines of these rules" in str(found.reason)
