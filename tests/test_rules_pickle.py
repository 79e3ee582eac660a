"""``Rules`` pickle as how to build them again (``Rules.__reduce__``): installed plugins by
id and version, house-rule files as the bytes that were hashed, plugin objects by
reference, the cards left out; another process rebuilds them and plays the same games."""

from __future__ import annotations

import importlib
import pickle
import subprocess
import sys
from pathlib import Path

from naqala.core.engine import Rules, build_rules
from naqala.core.serialize import state_to_json
from naqala.core.simulate import play_game
from naqala.core.without import leave_out

ROOT = Path(__file__).resolve().parent.parent
ROUND_CAP = ROOT / "tests" / "data" / "settings" / "round-cap.toml"
#: a Python house rule of this test's own, loaded from a file deleted before unpickling
QUIET_RULE = '''"""A house rule that changes nothing: it only has to come back by its bytes."""
NAME = "quiet-test-rule"
VERSION = "3"
'''
#: the other process: unpickle rules from stdin, print their identity and a game's end
UNPICKLE = """
import pickle, sys
from naqala.core.serialize import state_to_json
from naqala.core.simulate import play_game
rules = pickle.loads(sys.stdin.buffer.read())
print(repr(([(i.id, i.version, i.source, i.sha256) for i in rules.plugins], rules.without)))
print(state_to_json(rules, play_game(rules, 3, 11)[0]))
"""


def identity(rules: Rules) -> tuple[list[tuple[str, str, str, str]], tuple[str, ...]]:
    return [(i.id, i.version, i.source, i.sha256) for i in rules.plugins], rules.without


def test_rules_pickle_and_come_back_in_another_process(tmp_path: Path) -> None:
    quiet = tmp_path / "quiet_rule.py"
    quiet.write_text(QUIET_RULE, encoding="utf-8")
    rules = leave_out(build_rules(["artisans"], [ROUND_CAP, quiet]), ["djinn:jafaar"])
    data = pickle.dumps(rules)
    quiet.unlink()  # the other process runs the bytes that were hashed, not the file
    done = subprocess.run(
        [sys.executable, "-c", UNPICKLE], input=data, capture_output=True, check=True
    )
    said, final = done.stdout.decode().rstrip("\n").split("\n", 1)
    assert said == repr(identity(rules))
    assert "quiet-test-rule" in said and "round-cap" in said and "djinn:jafaar" in said
    assert final == state_to_json(rules, play_game(rules, 3, 11)[0]).rstrip("\n")


class QuietPlugin:
    """A plugin object (tests pass such objects): pickled by reference to its class."""

    NAME = "quiet-object"


def test_unpickled_rules_are_fresh_rules_of_the_same_game() -> None:
    double_palms = importlib.import_module("naqala.plugins.examples.double_palms")
    rules = build_rules(["djinns"], extra_plugins=[double_palms, QuietPlugin()])
    again = pickle.loads(pickle.dumps(rules))
    assert again is not rules and identity(again) == identity(rules)
    modules = {info.name: info.module for info in again.plugins}
    assert modules["double-palms"] is double_palms  # a module, by its name
    assert isinstance(modules["quiet-object"], QuietPlugin)
    state, actions = play_game(again, 4, 5)
    assert (state_to_json(again, state), actions) == (
        state_to_json(rules, play_game(rules, 4, 5)[0]),
        play_game(rules, 4, 5)[1],
    )
