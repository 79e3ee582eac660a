"""Reading the scores is cheap where it repeats: ``Rules`` keeps the score lines and
totals of the last state scored (by identity, as it keeps the legal actions), so a
score sheet, ``scores``, ``winners`` and ``verdict`` of one state run the scoring
plugins once per player; and the numbers are those of the lines, state by state."""

from __future__ import annotations

import pytest

from naqala.core.engine import Rules, build_rules
from naqala.core.events import ScoreLine
from naqala.core.simulate import play_game
from naqala.core.state import State
from naqala.plugins.base import scoring


@pytest.fixture()
def counted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The (state id, player) of every call of the base game's scoring."""
    calls: list[tuple[int, int]] = []
    honest = scoring.score_lines

    def counting(rules: Rules, state: State, player: int) -> list[ScoreLine]:
        calls.append((id(state), player))
        return honest(rules, state, player)

    monkeypatch.setattr(scoring, "score_lines", counting)
    return calls


def test_one_state_is_scored_once_per_player(counted: list[tuple[int, int]]) -> None:
    rules = build_rules()
    final, _ = play_game(rules, 4, 3)
    lines = [rules.score_lines(final, p) for p in range(4)]
    scores = rules.scores(final)
    assert rules.winners(final) == rules.verdict(final).winners
    assert rules.scores(final) is scores
    assert scores == tuple(sum(line.points for line in player) for player in lines)
    assert sorted(counted) == [(id(final), p) for p in range(4)]


def test_another_state_is_scored_afresh(counted: list[tuple[int, int]]) -> None:
    rules = build_rules()
    first, _ = play_game(rules, 3, 1)
    second, _ = play_game(rules, 3, 2)
    expected = [rules.scores(first), rules.scores(second)]
    assert [rules.scores(first), rules.scores(second)] == expected
    assert len(counted) == 12


def test_a_plugin_scoring_another_state_meanwhile_does_not_mix_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A scoring plugin may read the score of another state while a state is scored (a
    house rule comparing with the start of the game): each state keeps its own lines."""
    rules = build_rules()
    start = rules.new_game(2, 5)
    final, _ = play_game(rules, 2, 5)
    fresh = build_rules()
    expected = (fresh.scores(final), fresh.scores(start))
    honest = scoring.score_lines

    def comparing(rules: Rules, state: State, player: int) -> list[ScoreLine]:
        if state is final:
            rules.scores(start)
        return honest(rules, state, player)

    monkeypatch.setattr(scoring, "score_lines", comparing)
    assert (rules.scores(final), rules.scores(start)) == expected
    assert rules.score_lines(final, 1) == fresh.score_lines(final, 1)


def test_scores_along_games_are_the_sums_of_the_lines() -> None:
    """Along whole games, read in the order the lab reads (totals, then lines, then
    winners), every number is the sum of freshly computed lines."""
    rules = build_rules(["big-viziers"])
    reference = build_rules(["big-viziers"])
    for seed in range(3):
        final, _ = play_game(rules, 2 + seed, seed)
        assert rules.scores(final) == tuple(
            sum(line.points for line in reference.score_lines(final, p))
            for p in range(len(final.players))
        )
        assert rules.winners(final) == reference.winners(final)


def test_the_bench_measures_reads_in_the_lab_and_in_mcts() -> None:
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "bench" / "scores.py"
    spec = importlib.util.spec_from_file_location("bench_scores", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    lines: list[str] = []
    assert bench.main(["--games", "1", "--decisions", "1", "--runs", "1"], lines.append) == 0
    assert "a read" in lines[0] and "its score reads" in lines[0]
    assert "mcts" in lines[1] and "reads a decision" in lines[1]
