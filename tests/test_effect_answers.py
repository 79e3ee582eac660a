"""A hook's answer in effects is checked when it is given, the same on both engines.

Content's effects are checked when the rules are built; a ``naqala_tile_effects`` answer
is made during the game. An answer that cannot be run where it was given (a token placed
outside a used power, a score line before scoring, a colour the rules lack) stops the
game with one line naming the plugin, on the Python engine and on the native one, where
before both ran the game on as if the effect were not there.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from native_kit import require_native

from naqala.cli.entry import main
from naqala.core.effect_answers import EffectAnswerError, answer_problems
from naqala.core.effects import EffectSpec
from naqala.core.engine import Rules, build_rules
from naqala.core.failures import PluginFailed
from naqala.core.hookspecs import hookimpl
from naqala.core.state import State

WRONG = [
    (EffectSpec(place="palace"), "may answer coins, draw, kills, discard_fakirs, not place"),
    (EffectSpec(score=2, category="coins"), "not score"),
    (EffectSpec(coins='held("purple")'), "no colour 'purple' in these rules"),
    (EffectSpec(coins=1, when='cards("emerald")'), "no card 'emerald' in these rules"),
]


class Answering:
    """A plugin whose village action answers ``effects`` before it runs."""

    NAME = "answering"

    def __init__(self, effects: list[Any]) -> None:
        self.effects = effects

    @hookimpl
    def naqala_tile_effects(self, rules: Rules, state: State, kind: str, at: str) -> Any:
        return self.effects if (kind, at) == ("village", "before") else ()


def test_what_a_tile_hook_may_answer_is_checked_by_verb_and_by_name() -> None:
    rules = build_rules()
    assert answer_problems(rules, "here", [EffectSpec(coins="2 + held('white')")]) == []
    for effect, said in WRONG:
        (problem,) = answer_problems(rules, "here", [effect])
        assert problem.startswith("here: effects[0]: ") and said in problem


def play_python(rules: Rules, seed: int) -> State:
    state, choose = rules.new_game(3, seed), random.Random(seed)
    while rules.legal_actions(state):
        state = rules.apply(state, choose.choice(rules.legal_actions(state)))
    return state


@pytest.mark.parametrize(("effect", "said"), WRONG, ids=[s for _, s in WRONG])
def test_the_python_engine_refuses_a_wrong_answer_naming_the_plugin(
    effect: EffectSpec, said: str
) -> None:
    rules = build_rules(extra_plugins=[Answering([effect])])
    with pytest.raises(EffectAnswerError) as refused:
        play_python(rules, 1)
    assert isinstance(refused.value, PluginFailed)  # said as it is, in one line
    line = str(refused.value)
    assert line.startswith("naqala_tile_effects of plugin 'answering', before a village's")
    assert said in line


@pytest.mark.parametrize(("effect", "said"), WRONG, ids=[s for _, s in WRONG])
def test_the_native_engine_refuses_the_same_answer_in_the_same_words(
    effect: EffectSpec, said: str
) -> None:
    require_native()
    from naqala.native.support import native_rules

    rules = build_rules(extra_plugins=[Answering([effect])])
    with pytest.raises(PluginFailed) as refused:
        native_rules(rules).new_game(3, 1).random_playout([1, 2, 3])
    line = str(refused.value)
    assert isinstance(refused.value, RuntimeError)
    assert "naqala_tile_effects of plugin 'answering', before a village's action" in line
    assert said in line


def test_a_hook_that_raises_natively_is_blamed_on_its_plugin() -> None:
    require_native()
    from naqala.native.support import native_rules

    class Dividing:
        NAME = "dividing"

        @hookimpl
        def naqala_game_ends(self, rules: Rules, state: State) -> bool:
            return bool(1 // 0)

    rules = build_rules(extra_plugins=[Dividing()])
    with pytest.raises(PluginFailed, match=r"plugin 'dividing' failed in hook naqala_game_ends"):
        native_rules(rules).new_game(3, 1).random_playout([1, 2, 3])


@pytest.mark.parametrize("engine", ["python", "native"])
def test_the_command_line_says_a_wrong_answer_in_one_line(
    tmp_path: Path, engine: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if engine == "native":
        require_native()
    monkeypatch.delenv("NAQALA_DEBUG", raising=False)
    rule = tmp_path / "placing.py"
    rule.write_text(
        "from naqala.core.effects import EffectSpec\n"
        "from naqala.core.hookspecs import hookimpl\n"
        "NAME = 'placing'\nVERSION = '1.0'\nDESCRIPTION = 'places a palace'\n"
        "@hookimpl\n"
        "def naqala_tile_effects(rules, state, kind, at):\n"
        "    return [EffectSpec(place='palace')] if kind == 'village' else []\n",
        encoding="utf-8",
    )
    with pytest.raises(SystemExit) as stopped:
        main(["simulate", "-n", "3", "--house-rules", str(rule), "--engine", engine])
    assert stopped.value.code == 1
    lines = [line for line in capsys.readouterr().err.splitlines() if "placing" in line]
    assert len(lines) == 1 and "Traceback" not in lines[0]
    assert lines[0].startswith("naqala: ")
    assert "naqala_tile_effects of plugin 'placing'" in lines[0] and "not place" in lines[0]
