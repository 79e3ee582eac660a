"""Native is decided by who provides each rule, not by what a plugin declares: a plugin
that replaces, wraps or adds to a rule the kernel implements keeps its games in Python
(the ``auto`` line names it and the rule), whatever its ``naqala_native_support`` says;
a plugin whose only code hooks read a state plays native."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest
from native_kit import require_native
from typer.testing import CliRunner, Result

from naqala.cli.app import app
from naqala.core.engine import build_rules

runner = CliRunner()

#: a house rule that replaces the village tile action (a village that also pays coins)
#: and claims its hooks are ported: the kernel would play the base game's village
VILLAGE_TAX = """
from naqala.core.hookspecs import hookimpl
from naqala.plugins.base.api import PlaceToken, current, gain_coins

NAME = "village-tax"
VERSION = "1.0"
DESCRIPTION = "the village pays 3 coins besides its palace"
REPLACES = ("tile:village",)


class PayingVillage(PlaceToken):
    def enter(self, rules, state):
        return super().enter(rules, gain_coins(state, current(state), 3))


@hookimpl
def naqala_tile_actions():
    return {"village": PayingVillage("palace")}


@hookimpl
def naqala_native_support():
    return True
"""

#: a house rule whose only code hooks read a state: words and notes
NOTES = """
from naqala.core.hookspecs import hookimpl

NAME = "notes"
VERSION = "1.0"
DESCRIPTION = "a note under the picture, and a word on refused moves"


@hookimpl
def naqala_public_notes(rules, state):
    return [f"round {state.round}"]


@hookimpl
def naqala_explain(rules, state, action):
    return None
"""

#: a house rule named as a box the kernel plays, claiming its hooks are ported
FAKE_THIEVES = """
from naqala.core.hookspecs import hookimpl

NAME = "thieves"
VERSION = "9.9"
DESCRIPTION = "not the Thieves box"


@hookimpl
def naqala_event(rules, state, event):
    return None


@hookimpl
def naqala_native_support():
    return True
"""


def house_rule(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.py"
    path.write_text(text, encoding="utf-8")
    return path


def run(*args: str, env: Mapping[str, str] | None = None) -> Result:
    return runner.invoke(app, list(args), env={"NAQALA_ENGINE": None, **(env or {})})


SIMULATE = ("simulate", "--games", "6", "--players", "4", "--json", "--jobs", "1")


def test_a_plugin_that_claims_native_support_cannot_hide_a_replaced_stage(
    tmp_path: Path,
) -> None:
    """The lying plugin: auto plays it in Python, with the same result as ``python``,
    and says which plugin and which stage; ``native`` refuses it in one line."""
    require_native()
    rule = str(house_rule(tmp_path, "village_tax", VILLAGE_TAX))
    auto = run(*SIMULATE, "--house-rules", rule)
    python = run(*SIMULATE, "--house-rules", rule, "--engine", "python")
    assert auto.exit_code == python.exit_code == 0, auto.stderr
    assert auto.stdout == python.stdout
    assert auto.stderr.splitlines() == [
        "naqala: playing on the Python engine: plugin 'village-tax' provides stage "
        "'tile:village', which the native engine implements as the base game's"
    ]
    native = run(*SIMULATE, "--house-rules", rule, "--engine", "native")
    assert native.exit_code == 2 and native.stdout == ""
    assert len(native.stderr.splitlines()) == 1
    assert "plugin 'village-tax' provides stage 'tile:village'" in native.stderr


def test_the_kernel_sets_up_no_game_with_a_rule_it_does_not_implement(tmp_path: Path) -> None:
    """Told who provides each rule, the kernel itself refuses the replaced village, so a
    library user of ``naqala.native`` cannot play it natively either."""
    native = require_native()
    from naqala.native.bridge import NativeRules
    from naqala.native.content import providers_table

    rules = build_rules(house_rules=[house_rule(tmp_path, "village_tax", VILLAGE_TAX)])
    village = [row for row in providers_table(rules) if row["entry"] == "stage:tile:village"]
    assert [(row["plugin"], row["ported"]) for row in village] == [("village-tax", True)]
    assert not village[0]["module"].startswith("naqala.plugins.")
    with pytest.raises(NotImplementedError, match="stage:tile:village as plugin 'village-tax'"):
        NativeRules(rules).new_game(4, 1)
    assert native.foreign_providers("[]") == []
    with pytest.raises(ValueError, match="providers table"):
        native.foreign_providers('[{"entry": "stage:bid"}]')


def test_every_rule_of_the_shipped_boxes_has_a_provider_the_kernel_implements() -> None:
    require_native()
    from naqala.native.support import foreign_rules

    rules = build_rules(["artisans", "whims", "thieves"])
    kinds = {p.kind for p in rules.provided}
    assert {"stage", "power", "cost", "turn", "hook", "plugin", "reads"} <= kinds
    assert "stage:tile:village" in {p.entry for p in rules.provided}
    assert foreign_rules(rules) == []


def test_a_wrapper_of_a_provider_hook_keeps_the_game_in_python() -> None:
    """Wrapping the flow changes it: a claimed wrapper is named, not played natively."""
    require_native()
    from naqala.core.hookspecs import hookimpl
    from naqala.native.support import native_obstacle

    class SlowFlow:
        NAME = "slow-flow"

        @hookimpl(wrapper=True)
        def naqala_flow(self, rules: object) -> object:
            return (yield)

        @hookimpl
        def naqala_native_support(self) -> bool:
            return True

    rules = build_rules(extra_plugins=[SlowFlow()])
    assert native_obstacle(rules) == (
        "plugin 'slow-flow' provides a wrapper of naqala_flow, which the native engine "
        "does not implement"
    )


def test_a_plugin_named_as_a_box_is_not_taken_for_the_box(tmp_path: Path) -> None:
    require_native()
    from naqala.native.support import native_obstacle

    rules = build_rules(house_rules=[house_rule(tmp_path, "thieves", FAKE_THIEVES)])
    assert native_obstacle(rules) == (
        "plugin 'thieves' is not the shipped plugin of that name, whose rules the native "
        "engine implements"
    )


def test_read_only_hooks_alone_play_native_with_the_same_result(tmp_path: Path) -> None:
    require_native()
    from naqala.native.support import native_obstacle

    rule = house_rule(tmp_path, "notes", NOTES)
    assert native_obstacle(build_rules(house_rules=[rule])) is None
    auto = run(*SIMULATE, "--house-rules", str(rule))
    python = run(*SIMULATE, "--house-rules", str(rule), "--engine", "python")
    native = run(*SIMULATE, "--house-rules", str(rule), "--engine", "native")
    assert auto.exit_code == python.exit_code == native.exit_code == 0, native.stderr
    assert auto.stderr == native.stderr == ""
    assert auto.stdout == native.stdout == python.stdout


def test_one_plan_gives_each_part_its_engine_and_every_front_end_reads_it() -> None:
    """The plan: the game native, a plugin's player called back natively, a player the
    kernel lacks in Python, the environments in Python (the plugin adds observation
    parts), each with its one line; the command line's choice, the table's, the lab's and
    the environments' answers are the plan's."""
    require_native()
    import attrs

    from naqala.core.agents import AgentFactory, RandomAgent, without_setting
    from naqala.core.encoding import ObservationPart
    from naqala.core.engine import Rules
    from naqala.core.hookspecs import hookimpl
    from naqala.envs.native import native_blocker
    from naqala.lab.native import plays_native
    from naqala.lab.study import Ruleset, Study
    from naqala.native.choice import EngineChoice, choose
    from naqala.native.plan import EnginePlan, Part, plan
    from naqala.native.seated import table_engine

    class Firsty:
        NAME = "firsty"

        @hookimpl
        def naqala_agents(self) -> Mapping[str, AgentFactory]:
            return {"firsty": without_setting(RandomAgent, "firsty player")}

        @hookimpl
        def naqala_observation_parts(self, rules: Rules) -> list[ObservationPart]:
            return []

    rules = build_rules(extra_plugins=[Firsty()])
    profiled = "mcts:2:profile=merchant"
    seat = f"the native engine has no player {profiled!r}"
    envs = (
        "the native environments compute the observation and the actions themselves, "
        "and do not read what plugin 'firsty' (naqala_observation_parts) adds to them"
    )
    found = plan(rules, ["random", "firsty", profiled])
    assert found == EnginePlan(
        Part("native"),
        (
            ("random", Part("native")),
            ("firsty", Part("native", called_back="firsty")),
            (profiled, Part("python", seat)),
        ),
        Part("python", envs),
    )
    assert found.reason == seat and found.reasons == (seat, envs)
    assert found.called_back_seats == (("firsty", "firsty"),)
    assert choose(rules, "auto", ["random", profiled]) == EngineChoice(
        "python", f"playing on the Python engine: {seat}"
    )
    assert choose(rules, "auto", ["random", "firsty"]) == EngineChoice(
        "native",
        called_back="playing natively, calling back the player 'firsty' of plugin 'firsty' "
        "at its seats",
    )
    assert table_engine(rules, ["human", "ai:firsty"], "auto").engine == "python"
    assert native_blocker(rules) == envs
    study = Study(Ruleset(), ("random", profiled), engine="auto")
    assert plays_native(study, rules) is False
    assert plays_native(attrs.evolve(study, seats=("random", "firsty")), rules) is True
    coded = plan(build_rules(["double-palms"]), ["random"] * 2)  # a stage of its own
    assert {coded.game.engine, coded.envs.engine, coded.seats[0][1].engine} == {"python"}
    loops = plan(build_rules(["no-loops"]), ["random"] * 2)  # a reading: a setting
    assert {loops.game.engine, loops.envs.engine, loops.seats[0][1].engine} == {"native"}


def test_every_hook_is_classed_as_a_rule_a_reader_or_beside_the_rules() -> None:
    """Each hook the core declares is in exactly one class (``naqala.core.native``, and
    the provider hooks of ``naqala.core.engine``), so a new hook is a decision: until it
    is classed it counts as a rule (keeps Python)."""
    from naqala.core import hookspecs
    from naqala.core import native as classes
    from naqala.core.engine import PROVIDER_HOOKS

    declared = {name for name in dir(hookspecs) if name.startswith("naqala_")}
    groups = [
        classes.BESIDE_THE_RULES,
        classes.READ_ONLY_HOOKS,
        classes.REGISTRY_HOOKS,
        PROVIDER_HOOKS,
        classes.PLAY_HOOKS,
    ]
    assert sorted(name for group in groups for name in group) == sorted(declared)


def test_the_kernel_reads_no_state_of_rules_it_does_not_implement(tmp_path: Path) -> None:
    require_native()
    from naqala.native.bridge import NativeRules

    rules = build_rules(house_rules=[house_rule(tmp_path, "village_tax", VILLAGE_TAX)])
    with pytest.raises(NotImplementedError, match="stage:tile:village"):
        NativeRules(rules).to_native(rules.new_game(3, 2))
