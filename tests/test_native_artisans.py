"""The Artisans of Naqala on the kernel: games played by the Python engine compared with
the kernel after every action, native setups and playouts against the Python ones, the
items, tents and Flute used in those games, and the kept 0.1.0 edition refused."""

from __future__ import annotations

import collections

import pytest
from hypothesis import HealthCheck, given, settings
from native_kit import assert_native_game_is_python, require_native

from naqala.core.engine import Rules, build_rules
from naqala.core.state import State
from naqala.native.bridge import NativeRules
from naqala.testing.strategies import reached_states

#: games per run: 2-4 players, random and greedy players (native/differential.py)
GAMES = 12
ARTISANS = ("artisans",)


@pytest.fixture(scope="module")
def ported() -> tuple[Rules, NativeRules]:
    require_native()
    from naqala.native.differential import ported_rules

    return ported_rules(ARTISANS)


def test_artisans_games_on_both_engines_do_not_differ(ported: tuple[Rules, NativeRules]) -> None:
    from naqala.native.differential import Report, games, verify_game

    rules, bridge = ported
    total = Report()
    for players, seed, agent in games(GAMES):
        total.add(verify_game(rules, bridge, players, seed, agent))
    assert total.differences == []
    assert total.unported == {}
    assert total.legal_compared == total.scores_compared == total.actions + total.games
    assert total.applied_compared == total.actions > 2500


def test_every_card_of_the_artisans_is_ported(ported: tuple[Rules, NativeRules]) -> None:
    """The 18 items, Geb, Ptah and the 22 base djinns: nothing is left out."""
    rules, bridge = ported
    assert bridge.kernel.unported_content() == []
    assert rules.without == ()
    assert len(rules.content.deck("items")) == 10
    assert {"geb", "ptah"} <= {c.kind for c in rules.content.deck("djinns")}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_native_artisans_setup_and_playout_are_the_python_ones(
    ported: tuple[Rules, NativeRules], players: int
) -> None:
    """The kernel lays the Artisans board (the new tiles inside, the chasm, the
    mountains, laid again while a tile is cut off), gives the tents, and plays the
    random game to the end choosing what the Python players choose."""

    rules, bridge = ported
    for seed in (0, 1, 2, 7, 123456789):
        assert_native_game_is_python(rules, bridge, players, seed)


def test_the_items_tents_and_flute_are_played_in_the_games(
    ported: tuple[Rules, NativeRules],
) -> None:
    """The harness's games use every magic item and pitch tents, and score the same."""
    from naqala.core.simulate import play_game
    from naqala.core.state import effect_counts
    from naqala.plugins.artisans.tents import TENT

    rules, bridge = ported
    effects: collections.Counter[str] = collections.Counter()
    tents = 0
    for seed in range(24):
        final, _ = play_game(rules, 2 + seed % 3, seed)
        effects.update(effect_counts(final))
        tents += sum(t[rules.token_index[TENT]] for t in final.board.tokens)
        assert bridge.to_native(final).scores() == list(rules.scores(final))
    magic = {c.id for c in rules.content.deck("items") if c.kind != "precious"}
    assert magic <= set(effects)
    assert tents > 0


_BUILT: list[tuple[Rules, NativeRules]] = []


def artisans_once() -> tuple[Rules, NativeRules]:
    """The Artisans' rules and their kernel, built once for the drawn states."""
    if not _BUILT:
        rules = build_rules(list(ARTISANS))
        _BUILT.append((rules, NativeRules(rules)))
    return _BUILT[0]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reached_states(lambda: artisans_once()[0], max_actions=200))
def test_reached_artisans_states_have_the_same_options_and_steps(state: State) -> None:
    """Any state the testing kit reaches: the same options, scores, and state after
    each option, on both engines."""
    require_native()
    from naqala.native.differential import Report, compare_state, compare_step

    rules, bridge = artisans_once()
    report = Report()
    compare_state(rules, bridge, state, report, "reached", 0)
    for index, action in enumerate(rules.legal_actions(state)[:12]):
        after = rules.apply(state, action)
        compare_step(rules, bridge, state, after, str(action), report, "reached", index)
    assert report.differences == []
    assert report.unported == {}


@pytest.mark.parametrize("house_rule", ["big-viziers", "djinns-once-per-round"])
def test_content_only_house_rules_with_the_artisans_play_equal(house_rule: str) -> None:
    """A base house rule that changes numbers only plays native beside the Artisans."""
    require_native()
    from naqala.native.differential import Report, ported_rules, verify_game

    rules, bridge = ported_rules([*ARTISANS, house_rule])
    report = Report()
    for seed in range(2):
        report.add(verify_game(rules, bridge, 2, seed))
    assert report.differences == []
    assert report.unported == {}
    assert report.scores_compared > 200


def test_a_workshop_changed_in_python_only_is_caught(
    ported: tuple[Rules, NativeRules], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Break the workshop in Python only (it costs a coin too): the harness finds it."""
    from naqala.native.differential import Report, verify_game
    from naqala.plugins.artisans import actions
    from naqala.plugins.base.api import SKIP, gain_coins

    rules, bridge = ported
    honest = actions.Workshop.apply

    def dearer(self: actions.Workshop, rules: Rules, state: State, action: object) -> State:
        if action != SKIP:
            state = gain_coins(state, state.decision.player, -1)
        return honest(self, rules, state, action)  # type: ignore[arg-type]

    monkeypatch.setattr(actions.Workshop, "apply", dearer)
    report = Report()
    for seed in range(12):
        report.add(verify_game(rules, bridge, 2 + seed % 3, seed))
    assert any("after 'workshop" in str(d) for d in report.differences)


def test_the_kept_0_1_edition_stays_on_the_python_engine() -> None:
    """Artisans 0.1.0 has other items: support names it, and the kernel refuses it
    (never plays it as today's version)."""
    require_native()
    from naqala.native.support import code_plugins

    old = build_rules(list(ARTISANS), versions={"artisans": "0.1.0"})
    assert code_plugins(old) == [
        "plugin 'artisans' 0.1.0 is a kept older version the kernel does not play"
    ]
    assert code_plugins(build_rules(list(ARTISANS))) == []
    bridge = NativeRules(old)
    assert "artisans 0.1.0" in " ".join(bridge.kernel.unported_content())
    with pytest.raises(NotImplementedError, match=r"artisans 0\.1\.0"):
        bridge.new_game(3, 1)
    # its state documents name the version, which the kernel does not read
    with pytest.raises(ValueError, match="versions"):
        bridge.to_native(old.new_game(3, 1))


def test_a_plugin_with_code_beside_the_artisans_keeps_the_game_in_python() -> None:
    """A house rule with a code hook (double-palms' tile action) stays in Python."""
    require_native()
    from naqala.native.differential import NotPorted, ported_rules

    with pytest.raises(NotPorted, match=r"'double-palms' has code hooks"):
        ported_rules([*ARTISANS, "double-palms"])


def test_the_shared_majority_is_a_setting_that_plays_native() -> None:
    """shared-artisan-majority is the setting ``artisan_majority_ties`` alone: native."""
    require_native()
    from naqala.native.differential import ported_rules

    rules, _ = ported_rules([*ARTISANS, "shared-artisan-majority"])
    assert rules.content.typed_settings["artisan_majority_ties"] == "shared"


def test_bench_measures_artisans_games_and_their_state_size() -> None:
    require_native()
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parent.parent / "bench" / "native.py"
    spec = importlib.util.spec_from_file_location("bench_native", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    lines: list[str] = []
    argv = ["--players", "4", "--rounds", "1", "--slice", "0.05", "-x", "artisans", "--size", "2"]
    assert bench.main(argv, lines.append) == 0
    assert lines[0].startswith("base+artisans 4p  native/Python")
    assert "native state:" in lines[-1] and "bytes at the start" in lines[-1]
