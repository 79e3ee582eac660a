"""``naqala balance``: the balance card and what the games record for it (issue 28)."""

from __future__ import annotations

from naqala.lab.study import Ruleset, Study, play_task


def test_a_game_records_each_rounds_scores_its_djinns_and_its_tiles_points() -> None:
    result = play_task((Study(Ruleset(), ("random",) * 3, 11), 0))
    assert len(result.round_scores) == result.rounds
    assert result.round_scores[-1] == result.scores
    assert all(len(scores) == 3 for scores in result.round_scores)
    assert len(result.djinns) == 3
    held = [d for hand in result.djinns for d in hand]
    assert result.categories and all(
        per.get("djinns", 0) > 0 or not hand
        for per, hand in zip(result.categories, result.djinns, strict=True)
    )
    assert len(held) == len(set(held))
    assert [sum(points.values()) for points in result.tile_points] == [
        per.get("tiles", 0) for per in result.categories
    ]
