"""State JSON: exact round trips on states reached by play, and clear errors on corrupt
documents, each naming the JSON path of the problem."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from naqala.core.agents import RandomAgent
from naqala.core.engine import Rules
from naqala.core.serialize import (
    FORMAT,
    VERSION,
    StateFormatError,
    state_from_data,
    state_from_json,
    state_to_data,
    state_to_json,
)
from naqala.core.state import State
from naqala.testing.scenario import base_rules

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PLAYERS = st.integers(min_value=2, max_value=4)

Document = dict[str, Any]


def trajectory(rules: Rules, players: int, seed: int, agent_seed: int) -> Iterator[State]:
    """Every state of a random game, the initial and the final one included."""
    agent = RandomAgent(agent_seed)
    state = rules.new_game(players, seed)
    yield state
    while not state.is_over:
        state = rules.apply(state, agent.choose(rules, state, rules.legal_actions(state)))
        yield state


def assert_round_trips(rules: Rules, state: State) -> None:
    text = state_to_json(rules, state)
    same_rules, back = state_from_json(text, rules)
    assert same_rules is rules
    assert back == state, f"round trip changed the state at stage {state.decision.stage!r}"
    assert state_to_json(rules, back) == text


def mid_move_state(rules: Rules) -> State:
    """A state in the middle of a meeple move: picked up, at least one meeple dropped,
    at least one still in hand."""
    for state in trajectory(rules, 3, seed=7, agent_seed=7):
        turn = state.turn
        if state.decision.stage == "drop" and turn is not None and turn.path and any(turn.hand):
            return state
    raise AssertionError("no mid-move state found")  # pragma: no cover


def game_over_state(rules: Rules) -> State:
    *_, last = trajectory(rules, 4, seed=3, agent_seed=3)
    assert last.is_over
    return last


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=PLAYERS,
    seed=SEEDS,
    agent_seed=SEEDS,
    stop=st.integers(min_value=0, max_value=400),
)
def test_every_state_of_random_play_round_trips(
    players: int, seed: int, agent_seed: int, stop: int
) -> None:
    """Each state along a random game (up to a random length, possibly to its end) reads
    back as the equal state, and writing it again gives the same text."""
    rules = base_rules()
    for index, state in enumerate(trajectory(rules, players, seed, agent_seed)):
        assert_round_trips(rules, state)
        if index == stop:
            break


def test_mid_move_state_round_trips() -> None:
    """A move in progress (start tile, path, meeples in hand) survives the round trip."""
    rules = base_rules()
    state = mid_move_state(rules)
    assert_round_trips(rules, state)
    data = json.loads(state_to_json(rules, state))
    assert data["turn"]["path"] and data["turn"]["hand"]


def test_game_over_state_round_trips() -> None:
    """A finished game round-trips and still reads as finished, with the same scores."""
    rules = base_rules()
    state = game_over_state(rules)
    assert_round_trips(rules, state)
    _, back = state_from_json(state_to_json(rules, state), rules)
    assert back.is_over
    assert rules.scores(back) == rules.scores(state)


def test_reading_without_rules_rebuilds_them_from_the_ruleset() -> None:
    """Without rules given, the document's ruleset rebuilds equivalent rules."""
    rules = base_rules()
    state = mid_move_state(rules)
    new_rules, back = state_from_json(state_to_json(rules, state))
    assert new_rules.ruleset == rules.ruleset
    assert back == state
    assert new_rules.legal_actions(back) == rules.legal_actions(state)


def test_document_is_versioned_and_readable() -> None:
    """The document names its format and version, uses colour letters and tile names."""
    rules = base_rules()
    text = state_to_json(rules, rules.new_game(2, seed=1))
    data = json.loads(text)
    assert data["format"] == FORMAT and data["version"] == VERSION
    assert data["ruleset"] == ["base"]
    assert data["colours"] == "YWGBR"
    assert data["board"]["tiles"][0]["at"] == "a1"
    assert all(len(t["meeples"]) == 3 for t in data["board"]["tiles"])
    assert text.endswith("\n")


# -- corrupt documents ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def document() -> Document:
    """A valid document of a move in progress (so ``turn`` is filled in)."""
    rules = base_rules()
    return json.loads(state_to_json(rules, mid_move_state(rules)))


def _set(path: tuple[str | int, ...], value: object) -> Callable[[Document], None]:
    def change(doc: Document) -> None:
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


def _delete(path: tuple[str | int, ...]) -> Callable[[Document], None]:
    def change(doc: Document) -> None:
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]

    return change


CORRUPTIONS: list[tuple[str, Callable[[Document], None], str]] = [
    ("wrong format", _set(("format",), "chess-pgn"), "$.format"),
    ("wrong version", _set(("version",), VERSION + 1), "$.version"),
    ("version as text", _set(("version",), "1"), "$.version"),
    ("unknown plugin", _set(("ruleset",), ["base", "no-such-plugin"]), "$.ruleset"),
    ("other colours", _set(("colours",), "YWGBRP"), "$.colours"),
    ("unknown tile id", _set(("board", "tiles", 4, "tile"), "castle-1"), "$.board.tiles[4].tile"),
    ("bad meeple letter", _set(("board", "tiles", 2, "meeples"), "YQ"), "$.board.tiles[2].meeples"),
    ("bad letter in bag", _set(("bag",), "YYZ"), "$.bag"),
    ("missing field", _delete(("players", 1, "coins")), "$.players[1].coins"),
    ("wrong type", _set(("players", 1, "coins"), "lots"), "$.players[1].coins"),
    ("boolean as integer", _set(("players", 1, "coins"), True), "$.players[1].coins"),
    ("negative coins", _set(("players", 0, "coins"), -3), "$.players[0]"),
    ("unknown stage", _set(("decision", "stage"), "juggle"), "$.decision.stage"),
    ("decider out of range", _set(("decision", "player"), 9), "$.decision.player"),
    ("owner out of range", _set(("board", "tiles", 3, "owner"), 7), "$.board.tiles[3].owner"),
    ("negative owner", _set(("board", "tiles", 3, "owner"), -3), "$.board.tiles[3].owner"),
    ("marker owner out of range", _set(("markers",), [0, 1, 5]), "$.markers[2]"),
    ("no such marker", _set(("bid_track", 0), 8), "$.bid_track[0]"),
    ("tiles missing", _set(("board", "tiles"), []), "$.board.tiles"),
    ("tiles out of order", _set(("board", "tiles", 1, "at"), "c4"), "$.board.tiles[1].at"),
    ("off-board tile", _set(("board", "blocked"), ["z9"]), "$.board.blocked[0]"),
    ("unknown token", _set(("board", "tiles", 0, "tokens"), {"gem": 1}), "$.board.tiles[0].tokens"),
    ("unknown bank token", _set(("pool", "gem"), 1), "$.pool.gem"),
    ("wall of three tiles", _set(("board", "walls"), [["a1", "a2", "a3"]]), "$.board.walls[0]"),
    ("turn colour not a letter", _set(("turn", "colour"), "Q"), "$.turn.colour"),
    ("turn colour of two letters", _set(("turn", "colour"), "YW"), "$.turn.colour"),
    ("path not a list", _set(("turn", "path"), "a1"), "$.turn.path"),
    ("players not a list", _set(("players",), {"0": {}}), "$.players"),
    ("rng seed missing", _delete(("rng", "seed")), "$.rng.seed"),
]


@pytest.mark.parametrize(
    ("change", "path"),
    [(c, p) for _, c, p in CORRUPTIONS],
    ids=[name for name, _, _ in CORRUPTIONS],
)
def test_corrupt_document_names_the_json_path(
    document: Document, change: Callable[[Document], None], path: str
) -> None:
    """Each kind of corruption raises StateFormatError whose message starts with the JSON
    path of the bad value."""
    doc = copy.deepcopy(document)
    change(doc)
    with pytest.raises(StateFormatError) as caught:
        state_from_json(json.dumps(doc), base_rules())
    assert str(caught.value).startswith(path), str(caught.value)


@pytest.mark.parametrize("text", ["", "{", "not json at all", "[1, 2", '{"format": '])
def test_text_that_is_not_json_is_a_state_format_error(text: str) -> None:
    """Text that is not JSON at all raises StateFormatError saying so."""
    with pytest.raises(StateFormatError, match="not JSON"):
        state_from_json(text)


@pytest.mark.parametrize("value", [[], 3, "state", None])
def test_a_document_that_is_not_an_object_is_refused(value: object) -> None:
    """A JSON value that is not an object is refused at ``$``."""
    with pytest.raises(StateFormatError, match=r"^\$"):
        state_from_json(json.dumps(value))


# -- fuzzing --------------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.sampled_from(["", "a1", "f5", "z9", "Y", "YW", "Q", "fakir", "bid", "over", "base"])
    | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)


def _locations(value: Any, path: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    if path:
        yield path
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _locations(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _locations(inner, (*path, index))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), delete=st.booleans(), replacement=JSON_VALUES)
def test_a_mangled_document_loads_or_fails_with_state_format_error(
    document: Document, data: st.DataObject, delete: bool, replacement: object
) -> None:
    """Replacing or deleting any one value of a valid document never crashes the reader
    with anything but StateFormatError; whatever it accepts, it writes and reads again."""
    doc = copy.deepcopy(document)
    where = data.draw(st.sampled_from(list(_locations(doc))))
    if delete and isinstance(where[-1], str):
        _delete(where)(doc)
    else:
        _set(where, replacement)(doc)
    rules = base_rules()
    try:
        _, state = state_from_json(json.dumps(doc), rules)
    except StateFormatError:
        return
    text = state_to_json(rules, state)
    assert state_from_json(text, rules)[1] == state


def test_reading_without_the_meaning_checks_still_checks_the_shape() -> None:
    """``meaning=False`` (the lab's final states from the kernel) skips what the plugins
    check a state means, never what the document's shape and consistency say."""
    rules = base_rules()
    data = state_to_data(rules, rules.new_game(2, 1))
    data["decks"]["djinns"]["row"][0] = data["decks"]["djinns"]["row"][1]  # a djinn twice
    with pytest.raises(StateFormatError):
        state_from_data(data, rules)
    _, state = state_from_data(data, rules, meaning=False)
    assert state.decks[1].row[0] == state.decks[1].row[1]
    data["decision"]["player"] = 7
    with pytest.raises(StateFormatError, match=r"\$\.decision\.player"):
        state_from_data(data, rules, meaning=False)
