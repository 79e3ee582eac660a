"""The kernel reads what a state means, not only its shape: each state here once made it
panic (out-of-range players, markers and tracks, a turn's decision with no turn...). Each
is now a ``ValueError`` naming the JSON path, as ``bridge.to_native`` promises, and the
Python reader refuses it too, so the kernel is no stricter than the reference. Content
documents given to ``Kernel`` are checked the same way, and every old save of the tests
loads natively, or is refused, without a panic.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from native_kit import require_native

from naqala.core.engine import Rules, build_rules
from naqala.core.failures import is_engine_panic
from naqala.core.serialize import load_state, state_from_data, state_to_data
from naqala.core.simulate import play_game
from naqala.core.state import State

DATA = Path(__file__).parent / "data"


@functools.cache
def base() -> Rules:
    return build_rules(())


@functools.cache
def states_at() -> dict[str, dict[str, Any]]:
    """The first state of a 3-player base game at each decision, as state JSON data."""
    found: dict[str, dict[str, Any]] = {}

    def seen(state: State, _action: object) -> None:
        found.setdefault(state.decision.stage, state_to_data(base(), state))

    play_game(base(), 3, 5, on_action=seen)
    return found


def kernel() -> Any:
    require_native()
    from naqala.native.bridge import NativeRules

    return NativeRules(base()).kernel


def first_spot(track: list[int | None]) -> int:
    return next(i for i, marker in enumerate(track) if marker is not None)


def set_marker_owner(d: dict[str, Any]) -> None:
    d["markers"][0] = 7


def set_bid_spot(d: dict[str, Any]) -> None:
    d["bid_track"][first_spot(d["bid_track"])] = 12


def one_player(d: dict[str, Any]) -> None:
    d["players"] = d["players"][:1]


def no_turn(d: dict[str, Any]) -> None:
    d["turn"] = None


def drop_at_bid(d: dict[str, Any]) -> None:
    d["decision"]["stage"] = "drop"


def kill_at_bid(d: dict[str, Any]) -> None:
    d["decision"]["stage"] = "kill"


def drop_with_empty_hand(d: dict[str, Any]) -> None:
    d["decision"]["stage"] = "drop"
    d["turn"]["start"], d["turn"]["hand"] = "a1", ""


def player_nine(d: dict[str, Any]) -> None:
    d["decision"]["player"] = 9


def owner_five(d: dict[str, Any]) -> None:
    d["board"]["tiles"][0]["owner"] = 5


def negative_coins(d: dict[str, Any]) -> None:
    d["players"][0]["coins"] = -1


def marker_on_both_tracks(d: dict[str, Any]) -> None:
    marker = d["bid_track"][first_spot(d["bid_track"])]
    d["turn_track"][d["turn_track"].index(None)] = marker


def meeple_from_nowhere(d: dict[str, Any]) -> None:
    d["board"]["tiles"][0]["meeples"] += "Y"


def huge_board(d: dict[str, Any]) -> None:
    d["board"]["rows"] = 2**62  # rows times columns once wrapped round


#: (the decision of the state changed, the change, the start of the kernel's message)
BROKEN: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("bid", one_player, "$.players: 1 players; these rules allow 2, 3, 4"),
    ("bid", set_marker_owner, "$.markers[0]: no player 7"),
    ("bid", set_bid_spot, "$.bid_track[0]: no marker 12"),
    ("bid", marker_on_both_tracks, "$.turn_track"),
    ("bid", player_nine, "$.decision.player: no player 9"),
    ("bid", drop_at_bid, '$.turn: the decision "drop" belongs to a turn'),
    ("bid", kill_at_bid, '$.turn: the decision "kill" belongs to a turn'),
    ("pick", no_turn, '$.turn: the decision "pick" belongs to a turn'),
    ("pick", drop_with_empty_hand, "$.turn"),
    ("bid", owner_five, "$.board.tiles[0].owner: no player 5"),
    ("bid", negative_coins, "$.players[0].coins: -1 is not between 0 and 1000000"),
    ("bid", meeple_from_nowhere, "$.bag: "),
    ("bid", huge_board, "$.board: 27670116110564327424 tiles, the kernel holds at most 64"),
]


@pytest.mark.parametrize(
    ("stage", "change", "message"), BROKEN, ids=[change.__name__ for _, change, _ in BROKEN]
)
def test_a_state_that_means_nothing_is_refused_with_its_path(
    stage: str, change: Callable[[dict[str, Any]], None], message: str
) -> None:
    data = copy.deepcopy(states_at()[stage])
    change(data)
    with pytest.raises(ValueError) as refused:
        kernel().state(json.dumps(data))
    assert str(refused.value).startswith(message)
    with pytest.raises(ValueError):  # the Python reader refuses it as well
        state_from_data(data, base())


@pytest.mark.parametrize("stage", ["thief-give", "thief-keep"])
def test_a_theft_decision_with_no_theft_running_is_refused(stage: str) -> None:
    """A decision of a theft names the thief running (it once panicked: `a theft is
    running`)."""
    rules = build_rules(("thieves",))
    found: list[dict[str, Any]] = []

    def seen(state: State, _action: object) -> None:
        if state.decision.stage == "thief" and not found:
            found.append(state_to_data(rules, state))

    seed = 0
    while not found:
        play_game(rules, 3, seed, on_action=seen)
        seed += 1
    data = found[0]
    data["decision"]["stage"], data["turn"]["resume"] = stage, "thief"
    require_native()
    from naqala.native.bridge import NativeRules

    with pytest.raises(ValueError, match=rf'^\$\.extras: "{stage}" needs one running thief'):
        NativeRules(rules).kernel.state(json.dumps(data))
    with pytest.raises(ValueError):
        state_from_data(data, rules)


def test_every_decision_of_real_games_still_loads() -> None:
    for stage, data in states_at().items():
        native = kernel().state(json.dumps(data))
        assert json.loads(native.to_json()) == data, stage


def test_seeds_and_counts_outside_their_domain_are_value_errors() -> None:
    k = kernel()
    state = k.new_game(3, 1)
    for seed in (-1, 2**64):
        with pytest.raises(ValueError, match=r"a seed is an integer from 0 to 2\*\*64-1"):
            k.new_game(3, seed)
        with pytest.raises(ValueError, match="a seed is"):
            state.random_playout([seed] * 3)
    with pytest.raises(ValueError, match="a count is an integer from 0 up"):
        k.new_game(-1, 1)
    with pytest.raises(ValueError, match="no seat 3 in a game of 3 players"):
        state.view_digest(3)
    native = require_native()
    with pytest.raises(ValueError, match="at most"):
        native.rng_shuffled(1, 0, 2**40)  # once an allocation the process died of
    with pytest.raises(ValueError, match="beyond 2"):
        native.rng_choice_weighted(1, 0, [2**63, 2**63])


# -- content documents ------------------------------------------------------------------


@functools.cache
def content() -> dict[str, Any]:
    from naqala.native.content import content_data

    data: dict[str, Any] = content_data(base())
    return data


def without_bid(d: dict[str, Any]) -> None:
    d["stages"].remove("bid")


def card_of_no_deck(d: dict[str, Any]) -> None:
    d["cards"][0]["deck"] = "nowhere"


def negative_cost(d: dict[str, Any]) -> None:
    d["tables"]["turn_order_costs"][-1] = -1


def too_few_meeples(d: dict[str, Any]) -> None:
    d["settings"]["meeples_per_tile"] = 12


def twice_the_same_colour(d: dict[str, Any]) -> None:
    d["colours"][1]["letter"] = d["colours"][0]["letter"]


CONTENT_BROKEN: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (without_bid, 'kernel content: stages: no stage "bid"'),
    (card_of_no_deck, "kernel content: cards.ivory: no deck"),
    (negative_cost, "kernel content: tables.turn_order_costs: "),
    (too_few_meeples, "kernel content: tiles: 30 tiles hold meeples, 12 each"),
    (twice_the_same_colour, "kernel content: colours: "),
]


@pytest.mark.parametrize(
    ("change", "message"), CONTENT_BROKEN, ids=[c.__name__ for c, _ in CONTENT_BROKEN]
)
def test_a_content_the_rules_cannot_read_is_refused(
    change: Callable[[dict[str, Any]], None], message: str
) -> None:
    native = require_native()
    data = copy.deepcopy(content())
    change(data)
    with pytest.raises(ValueError) as refused:
        native.Kernel(json.dumps(data))
    assert str(refused.value).startswith(message)


@pytest.mark.parametrize("count", [300, 70_000])
def test_a_count_beyond_a_field_is_refused_or_played(count: int) -> None:
    """However wide the kernel's fields, a count either fits them or is refused naming
    the content path; it is never taken modulo the field (a panic, or another game)."""
    native = require_native()
    data = copy.deepcopy(content())
    data["colours"][0]["count"] = count
    try:
        k = native.Kernel(json.dumps(data))
    except ValueError as exc:
        want = f"kernel content: colour yellow: count {count}, the kernel holds at most "
        assert str(exc).startswith(want)
        return
    dealt = json.loads(k.new_game(3, 1).to_json())
    on_board = sum(tile["meeples"].count("Y") for tile in dealt["board"]["tiles"])
    assert on_board + dealt["bag"].count("Y") == count


# -- old saves ----------------------------------------------------------------------------

SAVES = sorted(
    path
    for folder in ("state-v1", "saves-0.1", "saves-0.2")
    for path in (DATA / folder).glob("*.json")
)


@pytest.mark.parametrize("path", SAVES, ids=[f"{p.parent.name}/{p.name}" for p in SAVES])
def test_old_saves_never_make_the_kernel_panic(path: Path) -> None:
    """Each save loads natively and each option it offers applies, or the kernel refuses
    in a ValueError (the old ``both-revealed.json`` has no stage to return to after its
    ``keep-item``); a panic fails the test."""
    require_native()
    from naqala.native.bridge import NativeRules

    try:
        rules, state = load_state(path)
    except ValueError:
        pytest.skip("a game record, not a state")
    bridge = NativeRules(rules)
    try:
        native = bridge.to_native(state)
        options = native.legal_actions()
        for option in options:
            native.apply(option)
    except (ValueError, NotImplementedError):
        return
    except BaseException as exc:
        if is_engine_panic(exc):
            pytest.fail(f"the kernel panicked on {path.name}: {exc}")
        raise


def test_the_save_with_both_items_revealed_is_refused_by_the_kernel_in_one_line() -> None:
    require_native()
    from naqala.native.bridge import NativeRules

    rules, state = load_state(DATA / "state-v1" / "both-revealed.json")
    if state.turn is not None and state.turn.callers:
        pytest.skip("the save is read with the stage that entered keep-item: it plays")
    with pytest.raises(ValueError, match=r'^\$\.turn\.callers: the step "keep-item"'):
        NativeRules(rules).to_native(state)


def test_an_environment_codec_with_a_notation_twice_is_refused() -> None:
    """A mask has one place per codec index: a notation given twice left an index past
    the mask, which panicked when the action was legal."""
    native = require_native()
    from test_native_fuzz import env_inputs

    content_text, spec, notations = env_inputs()
    codes = [*notations[:-1], notations[0]]
    with pytest.raises(ValueError, match=r"^codec: .* is both index 0 and index"):
        native.EnvKernel(content_text, json.dumps(spec), codes)


def test_the_flute_played_at_the_pick_gathers_before_the_move_natively() -> None:
    """The Enchanting Flute is played in the owner's turn except during the move and the
    kill, so its ``gather`` decision comes at the pick too (before the move): a state
    waiting there is one the kernel reads, not one it refuses. Random 2-player seed 42
    with the Artisans plays the Flute at the pick at action 129."""
    require_native()
    from naqala.native.differential import ported_rules, verify_game

    rules, bridge = ported_rules(["artisans"])
    report = verify_game(rules, bridge, 2, 42)
    assert report.decisions["gather"] > 0
    assert report.differences == []
