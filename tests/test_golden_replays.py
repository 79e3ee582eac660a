"""Recorded games replay exactly: the gate for behaviour-preserving changes.

Every file in ``tests/golden/`` (written by ``tools/record_golden.py``) is a complete game
with every expansion set, several player counts and the example house rules. Replaying its
actions must offer the same legal actions at every decision (compared by digest), accept
every recorded action, end the game at the same point and give the same score lines.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from naqala.core import build_rules
from naqala.core.actions import format_action, parse_action

GOLDEN = Path(__file__).parent / "golden"
GAMES = sorted(GOLDEN.glob("*.json"))


def digest_options(options: list[str]) -> str:
    return hashlib.sha256("\n".join(options).encode()).hexdigest()[:16]


def test_the_golden_games_cover_every_expansion_set() -> None:
    sets = {tuple(json.loads(p.read_text())["expansions"]) for p in GAMES}
    assert {(), ("artisans",), ("djinns",), ("artisans", "djinns")} <= sets
    assert any(json.loads(p.read_text())["players"] == 5 for p in GAMES)


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_a_recorded_game_replays_with_the_same_options_and_scores(path: Path) -> None:
    game: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    rules = build_rules(game["expansions"])
    assert list(rules.ruleset) == game["ruleset"]
    state = rules.new_game(game["players"], game["seed"])
    for step, (text, expected) in enumerate(zip(game["actions"], game["options"], strict=True)):
        assert not state.is_over, f"the game ended early, before action {step}"
        options = [format_action(a) for a in rules.legal_actions(state)]
        assert digest_options(options) == expected, f"other options at action {step} ({text})"
        assert text in options
        state = rules.apply(state, parse_action(text))
    assert state.is_over
    assert list(rules.scores(state)) == game["scores"]
    lines = [
        [[line.category, line.points, line.source] for line in rules.score_lines(state, p)]
        for p in range(game["players"])
    ]
    assert lines == game["score_lines"]
