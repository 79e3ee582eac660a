"""Commands choose their engine (``--engine``, ``NAQALA_ENGINE``, auto), and the lab's
games give the same results on both: the same ``GameResult`` game by game, the same
study JSON from ``simulate`` and ``compare``, serially and in worker processes."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs
import pytest
from native_kit import require_native
from typer.testing import CliRunner, Result

from naqala import native as kernel
from naqala.cli.app import app
from naqala.core.agents import AgentFactory, RandomAgent, without_setting
from naqala.core.engine import build_rules
from naqala.core.hookspecs import hookimpl
from naqala.lab.study import Ruleset, Study, play_task
from naqala.native.choice import (
    EngineChoice,
    EngineError,
    choose,
    requested_engine,
)
from naqala.native.plan import Part, plan
from naqala.native.support import native_obstacle

runner = CliRunner()


def run(*args: str, env: Mapping[str, str] | None = None) -> Result:
    """The command, with ``NAQALA_ENGINE`` only as ``env`` sets it."""
    return runner.invoke(app, list(args), env={"NAQALA_ENGINE": None, **(env or {})})


# -- which engine is asked for ------------------------------------------------------------


def test_the_option_comes_before_the_environment_and_auto_is_the_default() -> None:
    assert requested_engine(None, {}) == "auto"
    assert requested_engine(None, {"NAQALA_ENGINE": "Python"}) == "python"
    assert requested_engine("native", {"NAQALA_ENGINE": "python"}) == "native"
    with pytest.raises(EngineError, match=r"^NAQALA_ENGINE 'rust': the engine is one of"):
        requested_engine(None, {"NAQALA_ENGINE": "rust"})
    with pytest.raises(EngineError, match=r"^--engine 'fast': the engine is one of"):
        requested_engine("fast", {})


# -- which engine can play ----------------------------------------------------------------


def test_the_base_game_and_content_only_house_rules_run_native() -> None:
    require_native()
    for expansions in ([], ["big-viziers"], ["generous-jafaar", "nekir-per-assassination"]):
        rules = build_rules(expansions)
        assert native_obstacle(rules) is None
        assert choose(rules, "auto", ["random"] * 3) == EngineChoice("native")
    assert choose(build_rules(), "python", ["random"] * 3) == EngineChoice("python")


def test_auto_names_the_plugin_that_keeps_the_game_in_python_and_native_refuses() -> None:
    require_native()
    rules = build_rules(["double-palms"])
    expected = "plugin 'double-palms' has code hooks (naqala_tile_actions)"
    choice = choose(rules, "auto", ["random"] * 4)
    assert choice.engine == "python"
    assert choice.fallback is not None
    assert choice.fallback.startswith(f"playing on the Python engine: {expected}")
    with pytest.raises(EngineError, match=r"^the native engine cannot play these games: plugin"):
        choose(rules, "native", ["random"] * 4)


#: a house rule that only adds a player the kernel has none of: its rules stay native
FIRSTY = """
from naqala.core.agents import RandomAgent, without_setting
from naqala.core.hookspecs import hookimpl

NAME = "firsty"
VERSION = "1.0"
DESCRIPTION = "a player the native engine does not have"


@hookimpl
def naqala_agents():
    return {"firsty": without_setting(RandomAgent, "firsty player")}
"""


@pytest.fixture
def firsty(tmp_path: Path) -> Path:
    path = tmp_path / "firsty.py"
    path.write_text(FIRSTY, encoding="utf-8")
    return path


def test_a_plugin_s_player_is_called_back_in_a_native_game(firsty: Path) -> None:
    """A player the kernel has none of changes no rule: the game stays native, the plan
    names the plugin the kernel calls back at that seat, and so does the auto line."""
    native = require_native()
    missing = "firsty"
    assert missing not in native.players()
    rules = build_rules(house_rules=[firsty])
    assert native_obstacle(rules) is None  # a player changes no rule
    planned = plan(rules, ["random", missing])
    assert dict(planned.seats) == {"random": Part("native"), missing: Part("native", None, missing)}
    assert planned.called_back_seats == ((missing, "firsty"),)
    choice = choose(rules, "auto", ["random", missing])
    assert choice == EngineChoice(
        "native",
        called_back="playing natively, calling back the player 'firsty' of plugin 'firsty' "
        "at its seats",
    )
    assert choose(rules, "native", [missing, missing]).engine == "native"


def test_a_player_a_plugin_puts_in_place_of_the_shipped_one_is_called_back() -> None:
    """The kernel plays its own player only when the rules seat the shipped player of that
    name: a plugin that replaces ``random`` (it must say so in REPLACES) is called back."""
    require_native()

    class OwnRandom:
        NAME = "own-random"
        REPLACES = ("ai:random",)

        @hookimpl
        def naqala_agents(self) -> Mapping[str, AgentFactory]:
            return {"random": without_setting(RandomAgent, "random player")}

        @hookimpl
        def naqala_native_support(self) -> bool:
            return True

    rules = build_rules(extra_plugins=[OwnRandom()])
    choice = choose(rules, "auto", ["random"] * 2)
    assert choice.engine == "native"
    assert choice.called_back == (
        "playing natively, calling back the player 'random' of plugin 'own-random' at its seats"
    )


def test_without_the_extension_auto_says_so_and_native_refuses(without_extension: None) -> None:
    rules = build_rules()
    choice = choose(rules, "auto", ["random"] * 2)
    assert choice.engine == "python"
    assert choice.fallback is not None and kernel.EXTENSION in choice.fallback
    with pytest.raises(EngineError, match="is not installed"):
        choose(build_rules(), "native", ["random"] * 2)


# -- the lab's games on both engines ------------------------------------------------------


@pytest.mark.parametrize(
    "ruleset",
    [
        Ruleset(),
        Ruleset(("big-viziers", "djinns-once-per-round")),
        Ruleset((), (), ("djinn:jafaar", "djinn:shamhat")),
    ],
    ids=["base", "house-rules", "without"],
)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_study_game_is_the_same_result_on_both_engines(ruleset: Ruleset, players: int) -> None:
    require_native()
    python = Study(ruleset, ("random",) * players, seed=90 + players, rotate=True)
    native = attrs.evolve(python, engine="native")
    for index in range(4):
        assert play_task((native, index)) == play_task((python, index))


def test_a_study_refuses_an_engine_that_is_not_one() -> None:
    with pytest.raises(ValueError, match="engine"):
        Study(Ruleset(), ("random",) * 2, engine="rust")


# -- the commands -------------------------------------------------------------------------


def test_simulate_prints_the_same_json_on_both_engines_serially_and_in_workers() -> None:
    require_native()
    common = ["simulate", "--games", "24", "--players", "3", "--seed", "5", "--json"]
    outputs = []
    for engine, jobs in (("python", "1"), ("native", "1"), ("native", "2")):
        got = run(*common, "--jobs", jobs, "--engine", engine)
        assert got.exit_code == 0, got.stderr
        assert "engine" not in got.stderr  # no fallback (a slow machine may estimate)
        outputs.append(got.stdout)
    assert outputs[0] == outputs[1] == outputs[2]
    assert '"games": 24' in outputs[0]


def test_compare_prints_the_same_json_on_both_engines() -> None:
    require_native()
    common = ["compare", "--games", "12", "--players", "2", "-x", "big-viziers", "--json"]
    python = run(*common, "--variant-without", "djinn:jafaar", "--jobs", "1", "--engine", "python")
    native = run(*common, "--variant-without", "djinn:jafaar", "--jobs", "1", "--engine", "native")
    assert python.exit_code == native.exit_code == 0, (python.stderr, native.stderr)
    assert native.stdout == python.stdout


def test_auto_falls_back_with_one_line_naming_the_plugin() -> None:
    require_native()
    args = ["simulate", "--games", "2", "--players", "2", "--json", "--jobs", "1"]
    got = run(*args, "-x", "double-palms")
    assert got.exit_code == 0, got.stderr
    assert got.stderr.splitlines() == [
        "naqala: playing on the Python engine: plugin 'double-palms' has code hooks "
        "(naqala_tile_actions) that the native engine does not implement"
    ]
    quiet = run(*args, "-x", "double-palms", env={"NAQALA_ENGINE": "python"})
    assert quiet.exit_code == 0 and quiet.stderr == ""
    assert quiet.stdout == got.stdout


CODE_HOOKS = "plugin 'double-palms' has code hooks"


@pytest.mark.parametrize(
    ("args", "env", "words"),
    [
        (["-x", "double-palms", "--engine", "native"], {}, CODE_HOOKS),
        (["-x", "double-palms"], {"NAQALA_ENGINE": "native"}, CODE_HOOKS),
        ([], {"NAQALA_ENGINE": "rust"}, "NAQALA_ENGINE 'rust': the engine is one of"),
    ],
)
def test_an_engine_that_cannot_play_is_one_line_and_exit_2(
    args: list[str], env: dict[str, str], words: str
) -> None:
    require_native()
    got = run("simulate", "--games", "2", "--players", "2", "--jobs", "1", *args, env=env)
    assert got.exit_code == 2
    assert got.stdout == ""
    assert len(got.stderr.splitlines()) == 1 and words in got.stderr
    assert "Traceback" not in got.stderr


def test_interactions_print_the_same_json_on_both_engines() -> None:
    """Each arm of the factorial is a study of its own rules; auto plays every arm of
    the base game and djinns natively."""
    require_native()
    args = ["interactions", "--components", "djinn:jafaar,djinn:shamhat", "-n", "4"]
    args += ["--players", "2", "--json", "--jobs", "1"]
    python = run(*args, "--engine", "python")
    native = run(*args, "--engine", "native")
    auto = run(*args)
    assert python.exit_code == native.exit_code == auto.exit_code == 0, native.stderr
    assert native.stderr == auto.stderr == ""
    assert native.stdout == python.stdout == auto.stdout


def untimed(card: str) -> dict[str, Any]:
    """A balance card's JSON without the AI's seconds per decision (which no two runs
    share)."""
    data: dict[str, Any] = json.loads(card)
    for entry in data["decision_load"]["by_agent"].values():
        entry.pop("seconds_per_decision")
    return data


def test_balance_says_once_which_seats_keep_games_in_python_with_the_same_card() -> None:
    """The card's random seats play natively; the skill ladder's cells with a player the
    kernel lacks (a profile of the mcts player) fall back, said once, and the card is
    the Python engine's."""
    require_native()
    missing = "mcts:2:profile=merchant"
    args = ["balance", "--seats", "random,random", "-n", "4", "--ladder", f"random,{missing}"]
    args += ["--skill-games", "2", "--json", "--jobs", "1"]
    python = run(*args, "--engine", "python")
    auto = run(*args)
    assert python.exit_code == auto.exit_code == 0, auto.stderr
    assert auto.stderr.splitlines() == [
        f"naqala: playing on the Python engine: the native engine has no player {missing!r}"
    ]
    assert untimed(auto.stdout) == untimed(python.stdout)
    refused = run(*args, "--engine", "native")
    assert refused.exit_code == 2 and refused.stdout == ""
    assert refused.stderr.strip() == (
        f"naqala: the native engine cannot play these games: the native engine has no "
        f"player {missing!r}"
    )


def test_skill_takes_the_engine_option() -> None:
    require_native()
    args = ["skill", "--seats", "random,greedy-nobid", "-n", "2", "--players", "2"]
    args += ["--json", "--jobs", "1"]
    python = run(*args, "--engine", "python")
    auto = run(*args, "--engine", "auto")
    assert python.exit_code == auto.exit_code == 0, auto.stderr
    assert auto.stdout == python.stdout


def test_play_takes_the_engine_option_and_the_environment() -> None:
    """``naqala play`` asks for its engine as every command does (tests/test_play_engine.py
    has the rest): random seats stay Python, so nothing is said and nothing changes."""
    args = ["play", "--seats", "ai:random,ai:random", "--seed", "3"]
    python = run(*args, env={"NAQALA_ENGINE": "python"})
    native = run(*args, env={"NAQALA_ENGINE": "native"})
    assert python.exit_code == native.exit_code == 0, native.stderr
    assert native.stderr == ""
    assert "Final scores" in native.stdout
    assert native.stdout == python.stdout
    assert run(*args, "--engine", "fast").exit_code == 2


def test_dask_workers_play_native_studies_with_the_python_results() -> None:
    """The engine travels with the study: Dask worker processes, and one worker's
    threads (a kernel per thread's rules), play it natively with the serial Python
    engine's results."""
    require_native()
    distributed = pytest.importorskip("distributed")
    from naqala.lab.executors import DaskExecutor, SerialExecutor
    from naqala.lab.runner import run_studies

    python = Study(Ruleset(("big-viziers",)), ("random",) * 3, seed=21, rotate=True)
    native = attrs.evolve(python, engine="native")
    expected = run_studies([python], 6, SerialExecutor()).sides
    for processes, threads in ((True, 1), (False, 3)):
        with (
            distributed.LocalCluster(
                n_workers=1 if threads > 1 else 2,
                threads_per_worker=threads,
                processes=processes,
                dashboard_address=None,
            ) as cluster,
            distributed.Client(cluster) as client,
        ):
            assert run_studies([native], 6, DaskExecutor(client=client)).sides == expected
