"""The Thieves and solo mode on the native engine: games played by the Python engine and
compared with the kernel after every action (legal actions in the same order, state JSON
and scores equal), under the shipped settings and the other readings the content offers
(the blue thief's placement, used thieves shuffled back, Yazid's UNCONFIRMED choices)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from native_kit import assert_native_game_is_python, require_native

from naqala.core.engine import Rules, build_rules
from naqala.core.state import State
from naqala.native.bridge import NativeRules
from naqala.native.differential import Report
from naqala.native.support import code_plugins


def ported(
    expansion: str, settings: str = "", folder: Path | None = None
) -> tuple[Rules, NativeRules]:
    """The rules of ``expansion`` (with ``settings`` as a content-only house rule written
    in ``folder``) and the kernel for them."""
    require_native()
    from naqala.native.differential import ported_rules

    if not settings:
        return ported_rules([expansion])
    assert folder is not None
    path = folder / "reading.toml"
    path.write_text(f'[house-rule]\nname = "reading"\n\n[settings]\n{settings}\n', encoding="utf-8")
    return ported_rules([expansion], [path])


def verify(
    rules: Rules,
    bridge: NativeRules,
    seeds: range,
    counts: tuple[int, ...],
    agents: tuple[str, ...],
) -> Report:
    """Games of ``seeds``, at the player ``counts`` and by the ``agents`` in turn."""
    from naqala.native.differential import verify_game

    report = Report()
    for i, seed in enumerate(seeds):
        agent = agents[i % len(agents)]
        report.add(verify_game(rules, bridge, counts[i % len(counts)], seed, agent))
    return report


def assert_equal_everywhere(report: Report) -> None:
    assert report.differences == []
    assert report.unported == {}
    assert report.legal_compared == report.scores_compared == report.actions + report.games
    assert report.applied_compared == report.actions


def test_the_thieves_and_solo_are_ported_plugins() -> None:
    """Nothing keeps a game of either box on the Python engine, and every card of theirs
    is played by the kernel."""
    require_native()
    for expansion in ("thieves", "solo"):
        rules = build_rules([expansion])
        assert code_plugins(rules) == []
        assert NativeRules(rules).kernel.unported_content() == []


def test_thieves_games_on_both_engines_do_not_differ() -> None:
    """2-4 players, random, greedy and thieving players: thieves are taken, used, and
    their victims give up and their owners keep, identically on both engines."""
    rules, bridge = ported("thieves")
    report = verify(
        rules, bridge, range(14), (2, 3, 4), ("thieving", "random", "thieving", "greedy")
    )
    assert_equal_everywhere(report)
    for stage in ("thief", "thief-give", "thief-keep", "tile:sacred-place"):
        assert report.decisions[stage] > 0, stage


@pytest.mark.parametrize(
    "settings",
    [
        "blue_thief_own_tile = 0",  # the blue thief's token on any tile (MC's reading)
        "thieves_reshuffle = 1\nthieves_row = 2",  # used thieves come back; two face up
    ],
)
def test_the_thieves_readings_play_equal(settings: str, tmp_path: Path) -> None:
    rules, bridge = ported("thieves", settings, tmp_path)
    report = verify(rules, bridge, range(100, 108), (2, 3, 4), ("thieving",))
    assert_equal_everywhere(report)
    assert report.decisions["thief"] > 0


def test_solo_games_on_both_engines_do_not_differ() -> None:
    """One seat against Sultan Yazid, random and greedy: his rolls, the outbids, his
    turns and the end are the same on both engines."""
    rules, bridge = ported("solo")
    report = verify(rules, bridge, range(24), (1,), ("random", "random", "random", "greedy"))
    assert_equal_everywhere(report)
    assert report.decisions["bid"] > 0  # the player could outbid him
    assert report.decisions["over"] == report.games


@pytest.mark.parametrize(
    "settings",
    [
        # the app's readings: he skips the round you outbid him in; outbids in a row
        "yazid_plays_after_outbid = 0\noutbid_twice_in_a_row = 1",
        # Fakirs passed over, an empty target left alone, dearer builders
        "merchant_fakirs_to_yazid = 0\nyazid_takes_empty_tile = 0\nbuilder_coins = 2",
        # elders and assassins back to the bag, no end at his last camel, no bonus
        "yazid_keeps_white = 0\nyazid_keeps_red = 0\nyazid_last_camel_ends = 0\n"
        "yazid_vizier_bonus = 0",
        # two djinns a turn, fewer to lose with
        "yazid_djinns_per_turn = 2\ndjinns_lose = 3\nassassins_lose = 3",
    ],
)
def test_yazid_s_unconfirmed_choices_play_equal(settings: str, tmp_path: Path) -> None:
    rules, bridge = ported("solo", settings, tmp_path)
    report = verify(rules, bridge, range(200, 212), (1,), ("random", "greedy"))
    assert_equal_everywhere(report)


@pytest.mark.parametrize(("expansion", "counts"), [("thieves", (2, 3, 4)), ("solo", (1,))])
def test_native_setups_and_random_playouts_are_the_python_games(
    expansion: str, counts: tuple[int, ...]
) -> None:
    """Set up natively (Yazid's camels and first roll, the thief face up) and played to
    the end in one native call: the final state of ``play_game``."""

    rules, bridge = ported(expansion)
    for seed in range(9):
        players = counts[seed % len(counts)]
        assert_native_game_is_python(rules, bridge, players, seed)


def test_a_solo_rule_changed_in_python_only_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Outbidding Yazid costs one coin more in Python only: the harness finds it."""
    from naqala.plugins.solo import dice

    rules, bridge = ported("solo")
    cost = dice.outbid_cost
    monkeypatch.setattr(dice, "outbid_cost", lambda state: cost(state) + 1)
    report = verify(rules, bridge, range(6), (1,), ("random",))
    assert report.differences
    assert "bid" in str(report.differences[0])


def test_a_thief_changed_in_python_only_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The yellow thief keeps one vizier more in Python only: the harness finds it."""
    from naqala.plugins.thieves import kinds

    rules, bridge = ported("thieves")
    keep = kinds.MeepleThief.keep

    def greedier(
        self: kinds.MeepleThief,
        rules: Rules,
        state: State,
        owner: int,
        card: Any,
        choice: tuple[str, ...],
    ) -> State:
        state = keep(self, rules, state, owner, card, choice)
        return kinds.change_kept(state, owner, rules.colour_index[card.subject], 1)

    monkeypatch.setattr(kinds.MeepleThief, "keep", greedier)
    report = verify(rules, bridge, range(30), (2, 3, 4), ("thieving",))
    assert report.differences
    assert ".meeples" in str(report.differences[0]) or ".bag" in str(report.differences[0])


def _bench() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "bench" / "native.py"
    spec = importlib.util.spec_from_file_location("bench_native", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("expansion", ["thieves", "solo"])
def test_bench_verifies_both_boxes(expansion: str) -> None:
    require_native()
    lines: list[str] = []
    assert _bench().main(["--verify", "2", "-x", expansion], out=lines.append) == 0
    assert lines[-1] == "0 differences"
    assert "2 games" in lines[-2]
    assert lines[-3].startswith("decisions compared: ")


def test_bench_measures_a_solo_game() -> None:
    require_native()
    lines: list[str] = []
    args = ["--players", "1", "-x", "solo", "--rounds", "1", "--slice", "0.05"]
    assert _bench().main(args, lines.append) == 0
    assert lines[0].startswith("base+solo 1p  native/Python")
