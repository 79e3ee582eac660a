"""The Whims box on the kernel: games of the plugin ``djinns`` (Fabulous Cities, the
Sultan's Whims, the Great Lake, Qareen and Dalhan, 5 players) played by the Python engine
and compared with the kernel after every action, native setups and playouts equal to the
Python ones, and every setting the box offers."""

from __future__ import annotations

import collections
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from native_kit import assert_native_game_is_python, require_native

from naqala.core.engine import Rules, build_rules
from naqala.core.serialize import state_to_data
from naqala.core.state import NOBODY, State
from naqala.native.bridge import NativeRules
from naqala.testing.strategies import reached_states

#: the Whims box, as the rules' plugin list names it today (an alias may follow)
WHIMS = "djinns"
#: games per run: 2-5 players, random and greedy players (native/differential.py)
GAMES = 12


@pytest.fixture(scope="module")
def ported() -> tuple[Rules, NativeRules]:
    require_native()
    from naqala.native.differential import ported_rules

    return ported_rules([WHIMS])


def test_whims_games_on_both_engines_do_not_differ(ported: tuple[Rules, NativeRules]) -> None:
    from naqala.native.differential import Report, games, player_counts, verify_game

    rules, bridge = ported
    assert player_counts(rules) == (2, 3, 4, 5)
    total = Report()
    for players, seed, agent in games(GAMES, counts=player_counts(rules)):
        total.add(verify_game(rules, bridge, players, seed, agent))
    assert total.differences == []
    assert total.unported == {}
    assert total.legal_compared == total.scores_compared == total.actions + total.games
    assert total.applied_compared == total.actions > 3000


def test_every_card_of_the_box_is_ported(ported: tuple[Rules, NativeRules]) -> None:
    """The 22 whims and the 24 djinns (Qareen and Dalhan among them) all run natively:
    the harness leaves nothing out."""
    rules, bridge = ported
    assert bridge.kernel.unported_content() == []
    assert rules.without == ()
    assert len(rules.content.deck("whims")) == 22
    assert {"qareen", "dalhan"} <= {c.id for c in rules.content.deck("djinns")}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_native_whims_setup_is_the_python_setup(
    ported: tuple[Rules, NativeRules], players: int
) -> None:
    """The kernel lays the 6×6 board with its Great Lake impassable, leaves the lake
    empty, and lays a whim on every city, draw for draw as the Python setup."""
    rules, bridge = ported
    for seed in (0, 1, 7, 123456789, (1 << 62) + 5):
        expected = rules.new_game(players, seed)
        assert len(expected.layout.blocked) == 1
        assert bridge.data(bridge.new_game(players, seed)) == state_to_data(rules, expected)


def test_whole_native_whims_games_are_the_python_games(ported: tuple[Rules, NativeRules]) -> None:
    """Set up and played to the end natively at 2-5 players: the final state of
    ``play_game``, and its scores."""

    rules, bridge = ported
    for seed in range(16):
        players = 2 + seed % 4
        assert_native_game_is_python(rules, bridge, players, seed)


def test_the_box_is_played_in_the_harness_games(ported: tuple[Rules, NativeRules]) -> None:
    """Whims are claimed, Dalhan fetches whims and cities are owned in the games the
    harness plays: the ported rules are exercised, not only present."""
    from naqala.core.simulate import play_game
    from naqala.core.state import effect_counts
    from naqala.plugins.whims.cities import city_tiles
    from naqala.plugins.whims.whims import claimed

    rules, _ = ported
    effects: collections.Counter[str] = collections.Counter()
    claims = cities = 0
    for seed in range(40):
        players = 2 + seed % 4
        final, _ = play_game(rules, players, seed)
        effects.update(effect_counts(final))
        claims += sum(claimed(final, p) for p in range(players))
        cities += sum(final.board.owners[t] != NOBODY for t in city_tiles(rules, final))
    whims = {c.id for c in rules.content.deck("whims")}
    assert claims > 20 and cities > 20
    assert len(whims & set(effects)) > 10
    assert "dalhan" in effects


def _score_state(rules: Rules, data: st.DataObject) -> State:
    """A 4-player Whims state with drawn owners, palm trees and palaces, djinns and
    whims fulfilled: what the cities, the lake, Qareen and Haurvatat score. It stays a
    state a game could hold (the kernel checks): a player owns no more tiles than their
    camels, the tokens placed come from the bank, each djinn is dealt from its deck once."""
    state = rules.new_game(4, data.draw(st.integers(0, 50), label="seed"))
    tiles = len(state.layout.tiles)
    camels = state.players[0].camels
    drawn = data.draw(st.lists(st.integers(-1, 3), min_size=tiles, max_size=tiles))
    owned = [0] * 4
    owners = []
    for tile, owner in enumerate(drawn):
        if tile in state.layout.blocked or owner == NOBODY or owned[owner] == camels:
            owner = NOBODY
        else:
            owned[owner] += 1
        owners.append(owner)
    left = list(state.pool)
    tokens = []
    for palms, palaces in data.draw(
        st.lists(st.tuples(st.integers(0, 2), st.integers(0, 1)), min_size=tiles, max_size=tiles)
    ):
        placed = (min(palms, left[0]), min(palaces, left[1]))
        left = [left[0] - placed[0], left[1] - placed[1], *left[2:]]
        tokens.append((*placed, *(0,) * (len(left) - 2)))
    board = attrs.evolve(state.board, owners=tuple(owners), tokens=tuple(tokens))
    djinns = rules.deck_index["djinns"]
    holders = {
        djinn: data.draw(st.integers(-1, 3))
        for djinn in ["qareen", "haurvatat", "dalhan", "jafaar"]
    }
    players = []
    for seat, player in enumerate(state.players):
        held = tuple(d for d, holder in holders.items() if holder == seat)
        extras = (("whims.claimed", data.draw(st.integers(0, 6))),)
        player = attrs.evolve(player, camels=camels - owned[seat], extras=extras)
        players.append(player.with_hand(djinns, held))
    dealt = [d for d, holder in holders.items() if holder != NOBODY]
    deck = state.decks[djinns]
    piles = {"draw": list(deck.draw), "row": list(deck.row), "discard": list(deck.discard)}
    for djinn in dealt:
        next(p for p in piles.values() if djinn in p).remove(djinn)
    decks = list(state.decks)
    decks[djinns] = attrs.evolve(deck, **{name: tuple(p) for name, p in piles.items()})
    return attrs.evolve(
        state, board=board, players=tuple(players), pool=tuple(left), decks=tuple(decks)
    )


_RULES: dict[str, tuple[Rules, NativeRules]] = {}


def _rules(*house_rules: Path) -> tuple[Rules, NativeRules]:
    from naqala.native.differential import NotPorted
    from naqala.native.support import code_plugins

    key = ",".join(map(str, house_rules))
    if key not in _RULES:
        rules = build_rules([WHIMS], house_rules=list(house_rules))
        if code_plugins(rules):
            raise NotPorted(code_plugins(rules))
        _RULES[key] = (rules, NativeRules(rules))
    return _RULES[key]


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_the_box_scores_as_in_python(data: st.DataObject) -> None:
    """Any owners and tokens with the box's djinns: the cities (5·n²), the lake's double
    palm trees and palaces (Haurvatat's worth included) and Qareen score the same."""
    require_native()
    rules, bridge = _rules()
    state = _score_state(rules, data)
    assert bridge.to_native(state).scores() == list(rules.scores(state))


SETTINGS_RULE = """\
[house-rule]
name = "four-sided-lake"
description = "the lake touches only its 4 neighbours; cities and whims worth more"

[settings]
lake_diagonals = 0
city_vp = 7

[[override]]
target = "djinn:qareen"
params = { per_whim = 5 }

[[override]]
target = "card:palatial"
params = { at_least = 1, coins = 20 }

[[override]]
target = "card:long-road"
params = { at_least = 3 }
"""


def test_every_setting_of_the_box_runs_native(tmp_path: Path) -> None:
    """``lake_diagonals = 0``, another ``city_vp``, a whim's threshold and reward and
    Qareen's parameter reach the kernel as data: the games and scores are equal."""
    require_native()
    from naqala.native.differential import Report, verify_game

    path = tmp_path / "four-sided-lake.toml"
    path.write_text(SETTINGS_RULE, encoding="utf-8")
    rules, bridge = _rules(path)
    assert rules.content.setting("lake_diagonals") == 0
    report = Report()
    for seed in range(3):
        report.add(verify_game(rules, bridge, 3 + seed, seed))
    assert report.differences == []
    assert report.unported == {}
    assert report.scores_compared > 300


@pytest.mark.parametrize(
    "house_rule",
    ["big-viziers", "generous-jafaar", "djinns-once-per-round", "nekir-per-assassination"],
)
def test_content_only_house_rules_with_the_box_play_equal(house_rule: str) -> None:
    require_native()
    from naqala.native.differential import Report, ported_rules, verify_game

    rules, bridge = ported_rules([WHIMS, house_rule])
    report = Report()
    for seed in range(2):
        report.add(verify_game(rules, bridge, 2 + 3 * seed, seed))
    assert report.differences == []
    assert report.unported == {}


def test_a_whims_rule_changed_in_python_only_is_caught(
    ported: tuple[Rules, NativeRules], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Break the cities' scoring in Python only (4·n² instead of city_vp·n²): the harness
    finds the difference in the score sheets."""
    from naqala.core.events import ScoreLine
    from naqala.native.differential import Report, verify_game
    from naqala.plugins import whims as plugin
    from naqala.plugins.whims import cities

    rules, bridge = ported

    def cheaper(rules: Rules, state: State, player: int) -> list[ScoreLine]:
        n = cities.cities_owned(rules, state, player)
        return [ScoreLine("cities", 4 * n * n, cities.SOURCE, f"{n} cities")]

    monkeypatch.setattr(plugin.cities, "city_score_lines", cheaper)
    report = Report()
    for seed in range(4):
        report.add(verify_game(rules, bridge, 4, seed))
    assert report.differences
    assert "scores: Python" in str(report.differences[0])


@settings(max_examples=12, deadline=None)
@given(
    reached_states(lambda: _rules()[0], max_actions=200).filter(lambda s: not s.is_over),
    st.integers(0, 2**32),
)
def test_games_whose_whims_run_out_do_not_differ(state: State, seed: int) -> None:
    """States drawn by the testing kit's strategies, with the whims' draw pile emptied
    onto the discards (rare in whole games): clean-up leaves cities without a whim,
    Dalhan finds none there, and the game goes on the same on both engines to its end."""
    require_native()
    from naqala.core.agents import RandomAgent
    from naqala.native.differential import Report, compare_state, compare_step

    rules, bridge = _rules()
    index = rules.deck_index["whims"]
    deck = state.decks[index]
    dry = attrs.evolve(deck, draw=(), discard=(*deck.discard, *deck.draw))
    state = attrs.evolve(
        state, decks=tuple(dry if i == index else d for i, d in enumerate(state.decks))
    )
    agent, report, step = RandomAgent(seed), Report(), 0
    while not state.is_over:
        compare_state(rules, bridge, state, report, "dry whims", step)
        action = agent.choose(rules, state, rules.legal_actions(state))
        after = rules.apply(state, action)
        compare_step(rules, bridge, state, after, str(action), report, "dry whims", step)
        state, step = after, step + 1
    compare_state(rules, bridge, state, report, "dry whims", step)
    assert report.differences == []
    assert report.unported == {}


ODD_WHIM = """\
[house-rule]
name = "odd-whim"

[[card]]
deck = "whims"
id = "camel-driver"
name = "Camel Driver"
kind = "camel-driver"
text = "Claim it on one of your tiles."
params = { coins = 5 }

[[power]]
deck = "whims"
kind = "camel-driver"
on = "use"
target = "target.owner == me"
effects = [{ coins = "param.coins" }]
"""


def test_a_whim_the_kernel_cannot_name_is_left_out(tmp_path: Path) -> None:
    """A whim whose power names a tile (``claim camel-driver a1``) is no action the kernel
    writes: it names its kind unported, and the harness leaves that whim out, so the
    games still compare equal."""
    require_native()
    from naqala.native.differential import leave_out_unported, verify_game

    path = tmp_path / "odd-whim.toml"
    path.write_text(ODD_WHIM, encoding="utf-8")
    rules = build_rules([WHIMS], house_rules=[path])
    assert NativeRules(rules).kernel.unported_content() == ["whims:camel-driver"]
    rules = leave_out_unported(rules)
    assert rules.without == ("card:camel-driver",)
    bridge = NativeRules(rules)
    assert bridge.kernel.unported_content() == []
    report = verify_game(rules, bridge, 3, 1)
    assert report.differences == [] and report.unported == collections.Counter()


def test_the_harness_plays_greedy_players_at_every_count_of_the_box() -> None:
    from naqala.native.differential import games

    spread = {(players, agent) for players, _, agent in games(16, counts=(2, 3, 4, 5))}
    assert spread == {(p, a) for p in (2, 3, 4, 5) for a in ("random", "greedy")}
    # the base game's games are those CI has always played
    assert [p for p, _, _ in games(6)] == [2, 3, 4, 2, 3, 4]
