"""The form of a state (kernel/src/py_state.rs, ``naqala.native.state_form``): the kernel
hands a native state to Python, and reads a Python ``State`` back, without state JSON.

The form must give exactly the states the JSON path gives, both ways, for every box and
at every moment of a game (new games, states in the middle of a turn), and a hook's
answer in it is refused as a state file would be, in one line naming the hook.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import attrs
import pytest
from native_kit import require_native

from naqala.core.engine import Rules, build_rules
from naqala.core.failures import CalledBackFailed
from naqala.core.hookspecs import hookimpl
from naqala.core.serialize import state_from_data, state_to_data
from naqala.core.state import NOBODY, Decision, State, replace_at

#: (boxes, players): each box alone and those that play together (solo plays alone)
BOXES = [
    ((), 4),
    (("artisans",), 3),
    (("thieves",), 2),
    (("djinns",), 5),
    (("solo",), 1),
    (("artisans", "thieves", "djinns"), 5),
]
#: how many states of each game are compared (every few actions, each as played)
STEPS = 400


def native_states(rules: Rules, players: int, seed: int, seat: str) -> list[Any]:
    """Native states of one game of ``players`` from ``seed``: the new game, then every
    state ``seat`` players (random, greedy) reach, for at most ``STEPS`` actions."""
    native = require_native()
    from naqala.native.support import native_rules

    state = native_rules(rules).new_game(players, seed)
    chooser = random.Random(seed)
    found = [state]
    for step in range(STEPS):
        if state.is_over():
            break
        options = state.legal_actions()
        if seat == "greedy":
            choice = native.NativePlayer("greedy", seed + step).choose(state)
        else:
            choice = chooser.randrange(len(options))
        state = state.apply(options[choice])
        found.append(state)
    return found


def python_state(rules: Rules, native: Any) -> State:
    """The Python ``State`` of a native state by the JSON path."""
    return state_from_data(json.loads(native.to_json()), rules, meaning=False)[1]


@pytest.mark.parametrize(("boxes", "players"), BOXES)
@pytest.mark.parametrize("seat", ["random", "greedy"])
def test_a_state_built_from_its_form_is_the_one_its_json_gives(
    boxes: tuple[str, ...], players: int, seat: str
) -> None:
    require_native()
    from naqala.native.state_form import state_of_form

    rules = build_rules(boxes)
    turns = 0
    for seed in (1, 2):
        for native in native_states(rules, players, seed, seat):
            built = state_of_form(rules, native.form())
            assert built == python_state(rules, native)
            turns += built.turn is not None and bool(built.turn.path or built.turn.fields)
    assert turns > 0  # states in the middle of a turn, with its fields, were compared


@pytest.mark.parametrize(("boxes", "players"), BOXES)
def test_a_state_written_into_its_form_reads_as_its_json(
    boxes: tuple[str, ...], players: int
) -> None:
    require_native()
    from naqala.native.state_form import form_of
    from naqala.native.support import native_rules

    rules = build_rules(boxes)
    kernel = native_rules(rules).kernel
    for native in native_states(rules, players, 3, "random"):
        state = python_state(rules, native)
        by_json = kernel.state(json.dumps(state_to_data(rules, state))).to_json()
        assert kernel.state_of_form(form_of(state)).to_json() == by_json == native.to_json()


def test_the_lab_s_unchecked_python_state_is_built_from_the_form() -> None:
    require_native()
    from naqala.native.support import native_rules

    rules = build_rules(("artisans",))
    bridge = native_rules(rules)
    final, _ = bridge.new_game(3, 5).random_playout([1, 2, 3])
    assert bridge.to_python(final, meaning=False) == bridge.to_python(final)


class Adjusting:
    """A plugin whose new game hook answers ``change(state)``."""

    NAME = "adjusting"

    def __init__(self, change: Any) -> None:
        self.change = change

    @hookimpl
    def naqala_adjust_new_game(self, rules: Rules, state: State) -> Any:
        return self.change(rules, state)


def _first_player(state: State, **changes: Any) -> State:
    players = replace_at(state.players, 0, attrs.evolve(state.players[0], **changes))
    return attrs.evolve(state, players=players)


def _one_colour_short(rules: Rules, state: State) -> State:
    return _first_player(state, meeples=state.players[0].meeples[:-1])


def _unknown_card(rules: Rules, state: State) -> State:
    hands = replace_at(state.players[0].hands, 0, ("emerald",))
    return _first_player(state, hands=hands)


def _negative_count(rules: Rules, state: State) -> State:
    return attrs.evolve(state, bag=replace_at(state.bag, 0, -1))


def _no_state(rules: Rules, state: State) -> Any:
    return {"players": []}


def _bool_coins(rules: Rules, state: State) -> State:
    return _first_player(state, coins=True)


REFUSED = [
    (_one_colour_short, r"\$\.players\[0\]\.meeples: 4 counts, expected 5"),
    (_unknown_card, r"\$\.players\[0\]\.hands\.resources\[0\]: unknown card \"emerald\""),
    (_negative_count, r"\$\.bag\[0\]: -1 is no count \(0 to 65535\)"),
    (_no_state, r"it answered dict, not a State or None"),
    (_bool_coins, r"\$\.players\[0\]\.coins: expected an integer, not a bool"),
]


@pytest.mark.parametrize(("change", "said"), REFUSED)
def test_a_wrong_new_game_is_refused_in_one_line_naming_the_hook(change: Any, said: str) -> None:
    require_native()
    from naqala.native.support import native_rules

    rules = build_rules(extra_plugins=[Adjusting(change)])
    with pytest.raises(CalledBackFailed) as failed:
        native_rules(rules).new_game(4, 1)
    line = str(failed.value)
    assert "\n" not in line
    assert line.startswith("naqala_adjust_new_game failed when the native engine called it")
    assert re.search(said, line), line


def test_a_new_game_the_hook_only_reads_is_the_python_engine_s() -> None:
    require_native()
    from naqala.native.support import native_rules

    seen: list[State] = []

    def keep(rules: Rules, state: State) -> None:
        seen.append(state)

    rules = build_rules(extra_plugins=[Adjusting(keep)])
    bridge = native_rules(rules)
    native = bridge.new_game(4, 7)
    assert seen[-1].decision == Decision("setup", NOBODY)
    assert bridge.data(native) == state_to_data(rules, rules.new_game(4, 7))


def test_a_form_the_kernel_cannot_read_names_the_place() -> None:
    require_native()
    from naqala.native.state_form import form_of
    from naqala.native.support import native_rules

    rules = build_rules()
    kernel = native_rules(rules).kernel
    form = form_of(python_state(rules, kernel.new_game(4, 1)))
    with pytest.raises(ValueError, match=r"^\$: expected 16 items, not 15$"):
        kernel.state_of_form(form[:-1])
    walls = (*form[1][:4], [(0, 99)])
    with pytest.raises(ValueError, match=r"^\$\.board\.walls\[0\]\[1\]: 99 is no tile of the 5x6"):
        kernel.state_of_form((form[0], walls, *form[2:]))
    wrong = (*form[:10], ("nowhere", -1), *form[11:])
    with pytest.raises(ValueError, match=r"^\$\.decision\.stage: the kernel does not know"):
        kernel.state_of_form(wrong)


#: what a hook might put anywhere in a state by mistake
NONSENSE: list[Any] = [-5, 10**30, "x", None, True, (), 99_999, (1, 2)]


def _leaves(form: Any, at: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    """The places of every value of a form that is no tuple or list."""
    if isinstance(form, (tuple, list)):
        return [leaf for k, part in enumerate(form) for leaf in _leaves(part, (*at, k))]
    return [at]


def _replaced(form: Any, at: tuple[int, ...], value: Any) -> Any:
    if not at:
        return value
    parts = list(form)
    parts[at[0]] = _replaced(parts[at[0]], at[1:], value)
    return tuple(parts)


@pytest.mark.parametrize(("boxes", "players"), [((), 4), (("artisans", "djinns"), 3)])
def test_nonsense_anywhere_in_a_form_is_refused_in_one_line_never_a_panic(
    boxes: tuple[str, ...], players: int
) -> None:
    require_native()
    from naqala.native.state_form import form_of
    from naqala.native.support import native_rules

    rules = build_rules(boxes)
    kernel = native_rules(rules).kernel
    states = native_states(rules, players, 4, "random")
    turning = next(s for s in states if python_state(rules, s).turn is not None)
    refused = 0
    for native in (states[0], turning):
        form = form_of(python_state(rules, native))
        for at in _leaves(form):
            for value in NONSENSE:
                try:
                    kernel.state_of_form(_replaced(form, at, value))
                except ValueError as error:  # a PanicException is no ValueError
                    assert "\n" not in str(error) and str(error).startswith("$"), error
                    refused += 1
    assert refused > 1000
