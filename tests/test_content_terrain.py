"""Terrain as content: a tile kind with ``impassable = true`` is impassable wherever it
lies, on both engines, with no plugin code (the chasm and the Great Lake say it so)."""

from __future__ import annotations

from pathlib import Path

from native_kit import assert_same_games, require_native

from naqala.core.engine import build_rules
from naqala.native.bridge import NativeRules

DUNES = (
    '[house-rule]\nname = "dunes"\nversion = "1.0"\n'
    'description = "Three dunes no caravan crosses, on a 5x7 board"\n\n'
    "[tables]\nboard_35 = [5, 7]\n\n"
    '[[tile]]\nkind = "dune"\nvp = 0\ncount = 3\nholds_meeples = false\nimpassable = true\n\n'
    '[[tile]]\nkind = "well"\nvp = 1\ncount = 2\n\n'
    '[[extra_meeples]]\ncolour = "yellow"\ncount = 6\n\n'
    '[[tile_action]]\nid = "well"\ntile = "well"\nat = "instead"\neffects = [{ coins = 1 }]\n'
)


def test_a_tile_kind_content_makes_impassable_is_so_wherever_it_lies(tmp_path: Path) -> None:
    rule = tmp_path / "dunes.toml"
    rule.write_text(DUNES, encoding="utf-8")
    rules = build_rules(house_rules=[rule])
    for seed in range(5):
        state = rules.new_game(3, seed)
        dunes = {i for i, t in enumerate(state.layout.tiles) if rules.tile(t).kind == "dune"}
        assert len(dunes) == 3 and state.layout.blocked == dunes
        assert all(not any(state.board.meeples[t]) for t in dunes)
        picks = {str(a) for a in rules.legal_actions(state)}  # nobody starts on a dune
        assert not any(f"pick {state.geometry.name(t)}" in picks for t in dunes)


def test_the_shipped_terrain_is_content_and_plays_natively(tmp_path: Path) -> None:
    for box, kind in (("artisans", "chasm"), ("djinns", "great-lake")):
        rules = build_rules([box])
        assert any(t.kind == kind and t.impassable for t in rules.content.tiles)
        assert "naqala_impassable_tiles" not in {p.entry.split(":")[-1] for p in rules.provided}
    require_native()
    rule = tmp_path / "dunes.toml"
    rule.write_text(DUNES, encoding="utf-8")
    rules = build_rules(house_rules=[rule])
    assert NativeRules(rules).kernel.unported_content() == []
    assert_same_games(rules, ((2, 1), (4, 2)))
