"""The kernel's readers never panic: mutated state JSON, mutated content documents and
random action strings are each read, or refused with ``ValueError`` /
``NotImplementedError``, never a Rust panic (pyo3's ``PanicException``, a
``BaseException``) or any other exception.

The states are real ones, from random games of the base game and the boxes (and drawn
by ``naqala.testing.strategies.reached_states``), mutated the ways a hand-edited or
hostile file differs: numbers out of range, negative or huge; keys dropped; values of
another type; another decision; lists cut short or grown. Whatever loads is then played
a few steps, scored and written back, so the rules meet what the checks let through.
Hypothesis is derandomized: CI runs the same cases every time.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from native_kit import require_native

from naqala.core.engine import Rules, build_rules
from naqala.core.failures import is_engine_panic
from naqala.core.serialize import state_to_data
from naqala.core.simulate import play_game
from naqala.core.state import State
from naqala.testing.strategies import reached_states

#: the rulesets the states and contents come from: every box the kernel plays
RULESETS: dict[str, tuple[str, ...]] = {
    "base": (),
    "artisans": ("artisans",),
    "whims": ("djinns",),
    "thieves": ("thieves",),
    "solo": ("solo",),
    "artisans+big-viziers": ("artisans", "big-viziers"),
}

#: numbers a mutation writes: the edges of every field the kernel holds, and beyond
NUMBERS = (
    -(2**70), -(2**63), -(2**31), -129, -2, -1, 0, 1, 2, 3, 4, 5, 6, 8, 9, 15, 16, 17, 26,
    27, 63, 64, 65, 127, 128, 255, 256, 1000, 65535, 65536, 10**6, 10**6 + 1, 2**31,
    2**32, 2**63, 2**64, 2**70,
)  # fmt: skip
#: strings a mutation writes: the stages and names of the rules, and what is none of them
WORDS = (
    "", "pick", "drop", "kill", "bid", "sell", "over", "keep-djinn", "keep-item", "gather",
    "thief", "thief-give", "thief-keep", "tribe:red", "tribe:blue", "tribe:yellow",
    "tile:oasis", "tile:sacred-place", "placing:palm-tree", "a1", "f6", "z9", "p1", "p9",
    "Y", "YYYYYYYYYYYYYYYYYYYY", "resources", "djinns", "fakir", "naqala-state", "x" * 300,
)  # fmt: skip
#: what a whole value is replaced by, whatever its type
OTHERS: tuple[Any, ...] = (None, True, 0, -1, 2**64, "", "x", [], [None], {}, {"x": 1})

#: the hypothesis settings of every test here: deterministic, no deadline (a case may play)
FUZZ = functools.partial(
    settings,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

T = TypeVar("T")


@functools.cache
def rules_of(name: str) -> Rules:
    return build_rules(RULESETS[name])


@functools.cache
def kernel_of(name: str) -> Any:
    from naqala.native.bridge import NativeRules

    return NativeRules(rules_of(name)).kernel


@functools.cache
def sample_states(name: str) -> tuple[str, ...]:
    """Every seventh state of two random games (one per player count), as JSON text."""
    rules = rules_of(name)
    counts = [c.players for c in rules.content.player_counts][:2]
    found: list[str] = []
    for seed, players in enumerate(counts):
        seen: list[State] = []
        play_game(rules, players, seed, on_action=lambda state, _, seen=seen: seen.append(state))
        found.extend(json.dumps(state_to_data(rules, s)) for s in seen[::7])
    return tuple(found)


@functools.cache
def sample_documents(name: str) -> tuple[Any, ...]:
    return tuple(json.loads(text) for text in sample_states(name))


@functools.cache
def content_document(name: str) -> str:
    from naqala.native.content import content_data

    return json.dumps(content_data(rules_of(name)))


def no_panic(call: Callable[[], T]) -> T | None:
    """``call()``, None if it refused with ValueError or NotImplementedError; a panic is
    an assertion (so that hypothesis shrinks it), anything else raises."""
    try:
        return call()
    except (ValueError, NotImplementedError):
        return None
    except BaseException as exc:
        if is_engine_panic(exc):
            raise AssertionError(f"the kernel panicked: {exc}") from None
        raise


# -- mutations ----------------------------------------------------------------------------


def places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """The path of every value inside ``value`` (itself excluded), depth first."""
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return
    for key, inner in items:
        yield (*path, key)
        yield from places(inner, (*path, key))


def mutant(value: Any, choice: int, kind: int) -> Any:
    """The way ``kind`` of mutating a value, ``choice`` picking what it writes."""
    if kind == 0 and isinstance(value, int | type(None)) and not isinstance(value, bool):
        return NUMBERS[choice % len(NUMBERS)]
    if kind == 1 and isinstance(value, str):
        return WORDS[choice % len(WORDS)]
    if kind == 2 and isinstance(value, list) and value:
        return value[: choice % len(value)]  # cut short
    if kind == 3 and isinstance(value, list) and value:
        return [*value, copy.deepcopy(value[choice % len(value)])]  # one more
    return copy.deepcopy(OTHERS[choice % len(OTHERS)])  # another type (a fresh one)


#: the parts of a state whose meaning the kernel checks (the rest is mostly shape)
MEANINGFUL = ("decision", "turn", "markers", "bid_track", "turn_track", "players", "round")


def meaningful(path: tuple[Any, ...]) -> bool:
    """Whether ``path`` is in a part of a state the meaning checks are about."""
    if path[0] == "board":
        return path[-1] in ("owner", "meeples", "tokens")
    return path[0] in MEANINGFUL or path[0] in ("bag", "pool", "extras")


@st.composite
def mutated(draw: st.DrawFn, document: Any, donors: tuple[Any, ...] = ()) -> Any:
    """``document`` with one to three values replaced, cut, grown, retyped or dropped,
    mostly where the meaning lies; or with the decision, the turn or the tracks of another
    state of the same rules (``donors``), which keeps the shape and breaks the meaning."""
    document = copy.deepcopy(document)
    if donors and isinstance(document, dict) and draw(st.integers(0, 3)) == 0:
        donor = draw(st.sampled_from(donors))
        for key in draw(st.sets(st.sampled_from(sorted(MEANINGFUL)), min_size=1, max_size=2)):
            document[key] = copy.deepcopy(donor[key])
    for _ in range(draw(st.integers(1, 3))):
        paths = list(places(document))
        focused = [p for p in paths if meaningful(p)]
        if focused and draw(st.integers(0, 3)) > 0:
            paths = focused
        if not paths:
            break
        path = paths[draw(st.integers(0, len(paths) - 1))]
        parent = functools.reduce(lambda v, k: v[k], path[:-1], document)
        key = path[-1]
        # mostly a value of the same type (the shape holds, the meaning breaks)
        kind = draw(st.sampled_from((0, 0, 0, 1, 1, 2, 3, 4, 5)))
        if kind == 5 and isinstance(parent, dict):
            del parent[key]
        else:
            parent[key] = mutant(parent[key], draw(st.integers(0, 1000)), kind)
    return document


# -- what is done with whatever loads -----------------------------------------------------


def exercise(kernel: Any, state: Any, steps: int = 3) -> None:
    """Everything a library user may ask a state: its options (each of the first few
    applied), scores, views, its JSON read back, a playout."""
    players = len(json.loads(state.to_json())["players"])
    options = no_panic(state.legal_actions) or []
    for option in options[:steps]:
        no_panic(lambda option=option: state.apply(option))
    no_panic(state.scores)
    no_panic(state.is_over)
    for seat in range(players + 1):
        no_panic(lambda seat=seat: state.view_digest(seat))
    no_panic(lambda: kernel.state(state.to_json()))


@pytest.mark.parametrize("name", sorted(RULESETS))
@FUZZ(max_examples=400)
@given(data=st.data())
def test_mutated_states_load_or_are_refused(name: str, data: st.DataObject) -> None:
    require_native()
    kernel = kernel_of(name)
    text = data.draw(st.sampled_from(sample_states(name)))
    document = data.draw(mutated(json.loads(text), sample_documents(name)))
    state = no_panic(lambda: kernel.state(json.dumps(document)))
    if state is not None:
        exercise(kernel, state)


@pytest.mark.parametrize("name", ["base", "artisans"])
@FUZZ(max_examples=40)
@given(data=st.data())
def test_states_drawn_by_the_testing_kit_and_mutated_never_panic(
    name: str, data: st.DataObject
) -> None:
    require_native()
    rules = rules_of(name)
    state = data.draw(reached_states(rules, max_actions=120))
    document = data.draw(mutated(state_to_data(rules, state)))
    native = no_panic(lambda: kernel_of(name).state(json.dumps(document)))
    if native is not None:
        exercise(kernel_of(name), native)


@pytest.mark.parametrize("name", ["base", "artisans", "whims", "thieves", "solo"])
@FUZZ(max_examples=80)
@given(data=st.data())
def test_mutated_contents_build_a_kernel_or_are_refused(name: str, data: st.DataObject) -> None:
    """A content document a library user wrote: the kernel refuses it, or sets up games
    that play a few steps and read back."""
    from naqala.native import native

    require_native()
    document = data.draw(mutated(json.loads(content_document(name))))
    numbers = document.get("settings", {}) if isinstance(document, dict) else {}
    per_tile = numbers.get("meeples_per_tile") if isinstance(numbers, dict) else None
    if isinstance(per_tile, int) and per_tile > 8:
        return  # many meeples on a tile make the kernel's walks slow (issue #36's bench)
    kernel = no_panic(lambda: native().Kernel(json.dumps(document)))
    if kernel is None:
        return
    no_panic(kernel.unported_content)
    no_panic(kernel.names)
    seed = data.draw(st.integers(0, 2**64 - 1))
    for players in range(6):
        state = no_panic(lambda players=players: kernel.new_game(players, seed))
        if state is not None:
            state = played(state, data.draw(st.integers(0, 25)), data)
        if state is not None:
            exercise(kernel, state, steps=1)


def played(state: Any, steps: int, data: st.DataObject) -> Any:
    """``state`` after up to ``steps`` drawn legal actions; None if the kernel refused."""
    for _ in range(steps):
        options = no_panic(state.legal_actions)
        if not options:
            break
        option = data.draw(st.sampled_from(options))
        state = no_panic(lambda state=state, option=option: state.apply(option))
        if state is None:
            break
    return state


def notation_mutants(options: list[str]) -> st.SearchStrategy[str]:
    """Action strings: any text, and legal notations cut, grown or with a part changed."""
    anything = st.text(max_size=40)
    if not options:
        return anything
    legal = st.sampled_from(options)
    cut = st.tuples(legal, st.integers(0, 30)).map(lambda p: p[0][: p[1]])
    grown = st.tuples(legal, st.sampled_from(WORDS)).map(lambda p: f"{p[0]} {p[1]}")
    changed = st.tuples(legal, st.sampled_from(WORDS)).map(
        lambda p: " ".join([p[0].split(" ")[0], p[1]])
    )
    return st.one_of(anything, cut, grown, changed)


@pytest.mark.parametrize("name", sorted(RULESETS))
@FUZZ(max_examples=120)
@given(data=st.data())
def test_random_action_strings_are_applied_or_refused(name: str, data: st.DataObject) -> None:
    require_native()
    kernel = kernel_of(name)
    state = kernel.state(data.draw(st.sampled_from(sample_states(name))))
    options = no_panic(state.legal_actions) or []
    notation = data.draw(notation_mutants(options))
    after = no_panic(lambda: state.apply(notation))
    if notation in options:
        assert after is not None
    elif after is not None:  # a spelling the kernel writes differently is not an option
        pytest.fail(f"{notation!r} applied, but it is not one of {options}")


@pytest.mark.parametrize("name", ["base", "thieves"])
@FUZZ(max_examples=60)
@given(data=st.data())
def test_seats_and_seeds_given_to_the_kernel_never_panic(name: str, data: st.DataObject) -> None:
    """Seat names, agent seeds and player counts, as a library user may pass them."""
    from naqala.native import native

    require_native()
    kernel = kernel_of(name)
    state = kernel.state(data.draw(st.sampled_from(sample_states(name))))
    seed = st.integers(0, 2**64 - 1) | st.sampled_from([-1, 2**64, -(2**70)])
    seeds = data.draw(st.lists(seed, max_size=6))
    # the quick players (a whole game is played), and names the kernel has no player for
    quick = [name for name in native().players() if name in ("random", "greedy")]
    names = data.draw(st.lists(st.sampled_from([*quick, "", "nobody", "random "]), max_size=6))
    no_panic(lambda: state.random_playout(seeds))
    no_panic(lambda: state.play(list(zip(names, seeds, strict=False))))
    players = data.draw(st.integers(-1, 9))
    no_panic(lambda: kernel.new_game(players, data.draw(seed)))
    for seat in (-1, 0, 5, 2**64):
        no_panic(lambda seat=seat: state.view_digest(seat))


@functools.cache
def env_inputs() -> tuple[str, Any, tuple[str, ...]]:
    """The base game's content, observation spec and codec notations, as the
    environments hand them to ``EnvKernel``."""
    from naqala.envs.native import codec_for, encoder_for, observation_spec

    rules = rules_of("base")
    codec = codec_for(rules)
    notations = tuple(str(codec.decode(i)) for i in range(codec.size))
    return content_document("base"), observation_spec(rules, encoder_for(rules)), notations


@FUZZ(max_examples=60)
@given(data=st.data())
def test_mutated_environment_inputs_never_panic(data: st.DataObject) -> None:
    """An observation spec and a codec a library user wrote: refused, or games are dealt,
    observed from every seat and stepped."""
    import numpy as np

    from naqala.native import native

    require_native()
    content, spec, notations = env_inputs()
    spec = data.draw(mutated(spec))
    codes = list(notations)
    for _ in range(data.draw(st.integers(0, 2))):  # an index given another's notation
        codes[data.draw(st.integers(0, len(codes) - 1))] = data.draw(st.sampled_from(codes))
    kernel = no_panic(lambda: native().EnvKernel(content, json.dumps(spec), codes))
    if kernel is None:
        return
    game = no_panic(lambda: kernel.deal(data.draw(st.integers(0, 5)), data.draw(st.integers(0, 9))))
    for _ in range(data.draw(st.integers(0, 20)) if game is not None else 0):
        observation = np.zeros(kernel.observation_size, dtype=np.float32)
        mask = np.zeros(kernel.action_size, dtype=np.int8)
        for seat in range(6):
            no_panic(
                lambda seat=seat, out=observation, mask=mask: game.observe_with_mask(
                    seat, out, mask
                )
            )
        legal = game.legal()
        if not legal:
            break
        no_panic(lambda legal=legal: game.step(data.draw(st.sampled_from(legal))))
