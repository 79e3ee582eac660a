"""The differential harness: games played by the Python engine, compared with the kernel
after every action (legal actions in the same order, state JSON equal). CI fails on one
difference; what the kernel has not ported yet is counted, never compared loosely."""

from __future__ import annotations

import collections
import importlib.util
import json
from pathlib import Path
from types import ModuleType

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from native_kit import assert_native_game_is_python, require_native

from naqala.core.actions import Action
from naqala.core.engine import Rules, build_rules
from naqala.core.serialize import state_to_data
from naqala.core.state import Deck, State
from naqala.native.bridge import NativeRules

#: games per run: 2-4 players, random and greedy players (native/differential.py)
GAMES = 24


@pytest.fixture(scope="module")
def ported() -> tuple[Rules, NativeRules]:
    require_native()
    from naqala.native.differential import ported_rules

    return ported_rules()


def test_games_on_both_engines_do_not_differ(ported: tuple[Rules, NativeRules]) -> None:
    from naqala.native.differential import Report, games, verify_game

    rules, bridge = ported
    total = Report()
    for players, seed, agent in games(GAMES):
        total.add(verify_game(rules, bridge, players, seed, agent))
    assert total.differences == []
    assert total.unported == {}
    # every decision and the final state (its options: none; its scores)
    assert total.legal_compared == total.scores_compared == total.actions + total.games
    assert total.applied_compared == total.actions > 4000


def test_whole_games_run_on_the_kernel(ported: tuple[Rules, NativeRules]) -> None:
    """Every decision of the base game without djinns is ported: nothing is left to the
    Python engine, from the first bid to the end of the game."""
    from naqala.native.differential import Report, verify_game

    rules, bridge = ported
    report = Report()
    for seed in range(4):
        report.add(verify_game(rules, bridge, 3, seed))
    assert report.differences == []
    assert report.unported == {}
    assert report.legal_compared == report.actions + report.games
    assert report.applied_compared == report.actions


def test_a_rule_changed_in_python_only_is_caught(
    ported: tuple[Rules, NativeRules], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Break the bid stage in Python only (a bid costs one coin less): the harness finds
    the difference in the state after the first paid bid."""
    from naqala.native.differential import Report, verify_game
    from naqala.plugins.base import bidding

    rules, bridge = ported
    stage = rules.stages["bid"]

    def cheaper(self: object, rules: Rules, state: State, action: Action) -> State:
        cost = int(action.args[0])
        placed = bidding.place_bid(rules, state, cost, max(cost - 1, 0))
        return rules.proceed(placed, "bid")

    monkeypatch.setattr(type(stage), "apply", cheaper)
    report = Report()
    for seed in range(3):
        report.add(verify_game(rules, bridge, 3, seed))
    assert report.differences
    assert "after 'bid" in str(report.differences[0])
    assert ".coins" in str(report.differences[0])


def test_an_illegal_action_is_refused_by_the_kernel(ported: tuple[Rules, NativeRules]) -> None:
    rules, bridge = ported
    state = rules.new_game(2, 1)
    native = bridge.to_native(state)
    with pytest.raises(ValueError, match="not one of the legal options"):
        native.apply("bid 7")
    after = native.apply(native.legal_actions()[0])
    expected = rules.apply(state, rules.legal_actions(state)[0])
    assert json.loads(after.to_json()) == state_to_data(rules, expected)


def test_every_card_of_the_base_game_is_ported(ported: tuple[Rules, NativeRules]) -> None:
    """All 22 djinns run on the kernel: nothing is left out of the harness's games."""
    from naqala.native.bridge import NativeRules as Bridge

    rules, _ = ported
    assert Bridge(build_rules()).kernel.unported_content() == []
    assert rules.without == ()
    assert len(rules.content.deck("djinns")) == 22


def _taken_from_deck(deck: Deck, cards: list[str]) -> Deck:
    """``deck`` without one copy of each of ``cards`` (from the draw pile, else the row,
    else the discard pile): a hand is dealt from the deck, so the state stays sound (the
    kernel checks that every card is in the game once)."""
    piles = {"draw": list(deck.draw), "row": list(deck.row), "discard": list(deck.discard)}
    for card in cards:
        pile = next(p for p in piles.values() if card in p)
        pile.remove(card)
    return attrs.evolve(deck, **{name: tuple(pile) for name, pile in piles.items()})


_MERCHANDISE = ["ivory", "jewels", "gold", "papyrus", "silk", "spice", "fish", "fakir"]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(range(100)), unique=True, max_size=24),
    st.lists(st.sampled_from(["al-amin", "haurvatat", "jafaar", "shamhat"]), unique=True),
)
def test_scoring_djinns_score_as_in_python(picks: list[int], djinns: list[str]) -> None:
    """Any hand of merchandise and Fakirs dealt from the deck with any of the scoring
    djinns (Al-Amin's wild Fakirs by dynamic programming) scores the same on both
    engines."""
    require_native()
    rules, bridge = _ported_once()
    state = rules.new_game(2, 1)
    resources, djinn_deck = rules.deck_index["resources"], rules.deck_index["djinns"]
    deck = state.decks[resources]
    held = sorted(c for c in (*deck.draw, *deck.row, *deck.discard) if c in _MERCHANDISE)
    cards = sorted(held[i] for i in picks if i < len(held))
    player = state.players[0].with_hand(resources, tuple(cards))
    player = player.with_hand(djinn_deck, tuple(djinns))
    decks = list(state.decks)
    decks[resources] = _taken_from_deck(decks[resources], cards)
    decks[djinn_deck] = _taken_from_deck(decks[djinn_deck], djinns)
    state = attrs.evolve(state, players=(player, *state.players[1:]), decks=tuple(decks))
    assert bridge.to_native(state).scores() == list(rules.scores(state))


_PORTED: list[tuple[Rules, NativeRules]] = []


def _ported_once() -> tuple[Rules, NativeRules]:
    from naqala.native.differential import ported_rules

    if not _PORTED:
        _PORTED.append(ported_rules())
    return _PORTED[0]


def test_djinns_are_taken_and_react_in_the_games(ported: tuple[Rules, NativeRules]) -> None:
    """The ported djinns are bought, score, and pay on events in the harness's games."""
    from naqala.core.simulate import play_game
    from naqala.core.state import effect_counts

    rules, bridge = ported
    held = 0
    effects: collections.Counter[str] = collections.Counter()
    for seed in range(40):
        final, _ = play_game(rules, 2 + seed % 3, seed)
        held += sum(len(p.djinns) for p in final.players)
        effects.update(effect_counts(final))
        assert bridge.to_native(final).scores() == list(rules.scores(final))
    assert held > 0
    reacting = {"baal", "boaz", "kandicha", "marid", "monkir", "nekir"}
    activated = {"anun-nak", "bouraq", "echidna", "enki", "hagis", "iblis", "kumarbi"}
    activated |= {"lamia", "leta", "sibittis", "sloar", "utug"}
    assert reacting | activated <= set(effects)


def test_first_difference_names_the_json_path() -> None:
    from naqala.native.differential import first_difference

    assert (
        first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]})
        == "$.a[1].b: 2 in Python, 3 native"
    )
    assert first_difference({"a": [1]}, {"a": [1, 2]}) == "$.a: 1 items in Python, 2 native"
    assert first_difference({"a": 1}, {"a": 1}) is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_native_random_playouts_end_as_the_python_games(
    ported: tuple[Rules, NativeRules], players: int
) -> None:
    """A whole random game in one native call chooses what the Python players choose
    (same seeds, legal actions in the same order) and ends in the same state."""
    from naqala.core.simulate import agent_seed, play_game

    rules, bridge = ported
    for seed in range(8):
        final, count = play_game(rules, players, seed)
        start = bridge.to_native(rules.new_game(players, seed))
        native, native_count = start.random_playout(
            [agent_seed(seed, seat) for seat in range(players)]
        )
        assert native_count == count
        assert bridge.data(native) == state_to_data(rules, final)
        assert bridge.to_python(native).is_over


@pytest.mark.parametrize(
    ("house_rule", "changed"),
    [
        ("big-viziers", "the vizier majority's bonus"),
        ("generous-jafaar", "Jafaar's parameter"),
        ("djinns-once-per-round", "a paid djinn once a round at 2 players"),
        ("nekir-per-assassination", "Nekir's parameter"),
    ],
)
def test_content_only_house_rules_play_equal(house_rule: str, changed: str) -> None:
    """A house rule that changes a number only reaches the kernel as data: the games,
    scores included, are equal."""
    require_native()
    from naqala.native.differential import Report, ported_rules, verify_game

    rules, bridge = ported_rules([house_rule])
    report = Report()
    for seed in range(3):
        report.add(verify_game(rules, bridge, 2 + seed % 2, seed))
    assert report.differences == [], changed
    assert report.scores_compared > 200


def test_a_plugin_with_code_keeps_the_game_in_python() -> None:
    require_native()
    from naqala.native.differential import NotPorted, ported_rules

    with pytest.raises(NotPorted, match=r"'double-palms' has code hooks \(naqala_tile_actions\)"):
        ported_rules(["double-palms"])


def _bench() -> ModuleType:
    path = Path(__file__).resolve().parent.parent / "bench" / "native.py"
    spec = importlib.util.spec_from_file_location("bench_native", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_bench_verify_reports_zero_differences() -> None:
    require_native()
    lines: list[str] = []
    assert _bench().main(["--verify", "3"], out=lines.append) == 0
    assert lines[-1] == "0 differences"
    assert "3 games" in lines[-2]


def test_bench_verify_plays_the_whims_box() -> None:
    """``--verify N -x djinns``: Whims games at every player count the box allows (2-5),
    compared after every action (tests/test_native_whims.py covers the box in depth)."""
    require_native()
    lines: list[str] = []
    assert _bench().main(["--verify", "4", "-x", "djinns"], out=lines.append) == 0
    assert lines[0] == "rules: base, djinns"
    assert lines[-1] == "0 differences"
    assert "4 games" in lines[-2]


def test_bench_measures_both_engines() -> None:
    require_native()
    lines: list[str] = []
    assert _bench().main(["--players", "2", "--rounds", "1", "--slice", "0.05"], lines.append) == 0
    assert "native/Python" in lines[0]
    assert "µs/action" in lines[0]


def test_bench_says_when_the_native_engine_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    from naqala import native as kernel

    monkeypatch.setattr(kernel, "available", lambda: False)
    lines: list[str] = []
    assert _bench().main(["--verify", "1"], out=lines.append) == 2
    assert lines[0].startswith("the native engine is not available")


@pytest.mark.parametrize("expansions", [(), ("big-viziers",)])
def test_a_native_setup_is_the_python_setup(expansions: tuple[str, ...]) -> None:
    """The kernel lays the board, fills it from the bag and shuffles the decks with the
    generator's draws in the Python order, for every player count (the full base game's
    22 djinns included: setting up needs no power)."""
    require_native()
    from naqala.core.engine import build_rules
    from naqala.native.bridge import NativeRules as Bridge

    rules = build_rules(list(expansions))
    bridge = Bridge(rules)
    for players in (2, 3, 4):
        for seed in (0, 1, 7, 123456789, (1 << 62) + 5):
            native = bridge.new_game(players, seed)
            assert bridge.data(native) == state_to_data(rules, rules.new_game(players, seed))


def test_whole_native_games_are_the_python_games(ported: tuple[Rules, NativeRules]) -> None:
    """Set up and played to the end natively: the final state of ``play_game``."""

    rules, bridge = ported
    for seed in range(12):
        players = 2 + seed % 3
        assert_native_game_is_python(rules, bridge, players, seed)


def test_an_unsupported_player_count_is_refused_natively(ported: tuple[Rules, NativeRules]) -> None:
    """A player count the rules refuse is their refusal (ValueError, in their words), not
    a port the kernel lacks."""
    _, bridge = ported
    with pytest.raises(ValueError, match="a game of 7 players is not supported"):
        bridge.new_game(7, 1)
