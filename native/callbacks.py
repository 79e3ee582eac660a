"""The plugin hooks the native engine calls back, and the functions it calls.

Where a loaded plugin implements a hook the kernel does not (its provider is foreign,
``naqala.native.support.foreign_rules``) and the kernel can ask it at its own hook point
(``CALLED_BACK``), the game stays native: the kernel plays its own rules and, at that
point, calls one Python function with a read-only ``StateView`` (and the player, where
the hook takes one). That function asks every such plugin's implementation and combines
their answers as the Python engine does (``any`` for ``naqala_game_ends``, the union
for ``naqala_protected_meeples``, the points of ``naqala_score_lines`` and of
``naqala_adjust_score_lines`` summed (their lines, once a game is over), the first
answer for ``naqala_verdict``, read as its winners and kind, the effects of
``naqala_tile_effects`` concatenated and handed over as the kernel reads content's), so
one hook file serves both engines. ``naqala_adjust_new_game`` returns a new ``State``, so
it is handed the whole Python state and its answer is read back, once a game, both ways
as the form of a ``State`` the kernel writes and reads (``naqala.native.state_form``).
A wrapper implementation is not called back: it keeps its game in Python.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import attrs

from naqala.core.actions import format_action, parse_action
from naqala.core.agents import Agent
from naqala.core.effect_answers import require_tile_answer
from naqala.core.effects import EffectSpec, compiled
from naqala.core.engine import Rules
from naqala.core.events import ScoreLine
from naqala.core.failures import PluginFailed
from naqala.core.native import Provided
from naqala.core.state import State
from naqala.native.state_form import Form, form_of, state_of_form

#: the hooks the kernel calls back, with their arguments after ``rules``, in order
CALLED_BACK: dict[str, tuple[str, ...]] = {
    "naqala_adjust_new_game": ("state",),
    "naqala_tile_effects": ("state", "kind", "at"),
    "naqala_game_ends": ("state",),
    "naqala_protected_meeples": ("state", "player"),
    "naqala_score_lines": ("state", "player"),
    "naqala_adjust_score_lines": ("state", "player", "lines"),
    "naqala_verdict": ("state",),
}

Function = Callable[..., Any]
#: how many distinct score lines ``naqala_adjust_score_lines``' caller keeps made
MADE_LINES = 4096
#: what the kernel calls at a Python player's decisions: (view, option notations) → index
SeatFunction = Callable[[Any, list[str]], int]


def is_called_back(rules: Rules, provided: Provided) -> bool:
    """Whether the kernel asks the plugin itself for this rule: a hook it calls back,
    implemented plainly (not as a wrapper)."""
    if provided.kind != "hook" or provided.hook not in CALLED_BACK:
        return False
    impls = getattr(rules.hook, provided.hook).get_hookimpls()
    mine = [impl for impl in impls if impl.plugin_name == provided.plugin]
    return bool(mine) and not any(impl.wrapper or impl.hookwrapper for impl in mine)


def called_back(rules: Rules, foreign: Iterable[Provided]) -> list[Provided]:
    """The rules of ``foreign`` (whose provider the kernel does not implement) that it
    calls back."""
    return [p for p in foreign if is_called_back(rules, p)]


def _implementations(rules: Rules, hook: str, plugins: set[str]) -> list[Function]:
    """The implementations of ``hook`` by ``plugins``, each callable with ``rules`` and
    the hook's arguments by position, in pluggy's order."""
    arguments = ("rules", *CALLED_BACK[hook])
    found = []
    for impl in reversed(getattr(rules.hook, hook).get_hookimpls()):
        if impl.plugin_name not in plugins:
            continue
        picks = tuple(arguments.index(name) for name in impl.argnames)
        found.append(_picking(impl.function, picks, len(arguments)))
    return found


def _picking(function: Function, picks: tuple[int, ...], given: int) -> Function:
    """``function`` called with the values at ``picks`` of the ``given`` values: itself
    when it takes them all, in order (the usual case, with no frame of ours on a call
    asked thousands of times a game)."""
    if picks == tuple(range(given)):
        return function

    def call(*values: Any) -> Any:
        return function(*[values[i] for i in picks])

    return call


def _game_ends(rules: Rules, functions: Sequence[Function]) -> Function:
    def game_ends(view: Any) -> bool:
        return any(bool(f(rules, view)) for f in functions)

    return game_ends


def _protected(rules: Rules, functions: Sequence[Function]) -> Function:
    def protected(view: Any, player: int) -> list[str]:
        found: set[str] = set()
        for f in functions:
            answer = f(rules, view, player)
            if answer is not None:
                found.update(answer)
        return sorted(found)

    return protected


def _score_points(rules: Rules, functions: Sequence[Function]) -> Function:
    """The points of the plugins' lines for a player; with ``lines``, the lines
    themselves as ``(category, source, points)``, in order (a finished game's reading)."""

    def lines_of(view: Any, player: int) -> list[tuple[str, str, int]]:
        found = (line for f in functions for line in (f(rules, view, player) or ()))
        return [(line.category, line.source, line.points) for line in found]

    if len(functions) == 1:  # the usual case, asked thousands of times a greedy game
        (only,) = functions

        def one_plugin(view: Any, player: int, lines: bool = False) -> Any:
            if lines:
                return lines_of(view, player)
            total = 0
            for line in only(rules, view, player) or ():
                total += line.points
            return total

        return one_plugin

    def score_points(view: Any, player: int, lines: bool = False) -> Any:
        if lines:
            return lines_of(view, player)
        return sum(line.points for f in functions for line in (f(rules, view, player) or ()))

    return score_points


def _adjusted_lines(rules: Rules, functions: Sequence[Function]) -> Function:
    """The points of the lines plugins add once a player's lines are known, given as
    ``(category, source, points)`` (their words are not kept natively); with ``lines``,
    the lines themselves, in order (a finished game's reading)."""

    made: dict[tuple[str, str, int], ScoreLine] = {}

    def line_of(given: tuple[str, str, int]) -> ScoreLine:
        """One frozen ``ScoreLine`` per distinct line, made once: a greedy game hands the
        hook thousands of sheets of the same few lines, and making them was most of its
        cost."""
        found = made.get(given)
        if found is None:
            if len(made) >= MADE_LINES:
                made.clear()
            category, source, points = given
            found = made[given] = ScoreLine(category, points, source)
        return found

    def adjust(view: Any, player: int, given: list[tuple[str, str, int]], lines: bool) -> Any:
        frozen = tuple(map(line_of, given))
        found = [line for f in functions for line in (f(rules, view, player, frozen) or ())]
        if lines:
            return [(line.category, line.source, line.points) for line in found]
        return sum(line.points for line in found)

    return adjust


def _adjusted(rules: Rules, functions: Sequence[Function]) -> Function:
    """The new game's hooks folded over the kernel's new game, handed over and answered
    as the form of a ``State`` (``naqala.native.state_form``); None when none changed it."""

    def adjust(form: Form) -> Form | None:
        state = start = state_of_form(rules, form)
        for f in functions:  # folded, in registration order, as the set-up does
            changed = f(rules, state)
            if changed is not None:
                state = changed
        if state is start:
            return None
        if not isinstance(state, State):  # said as it is: no code of ours failed
            raise PluginFailed(f"it answered {type(state).__name__}, not a State or None")
        return form_of(state)

    return adjust


def _tile_effects(rules: Rules, functions: Sequence[Function]) -> Function:
    kept: dict[tuple[EffectSpec, ...], str] = {}

    def tile_effects(view: Any, kind: str, at: str) -> str | None:
        found: list[EffectSpec] = []
        for f in functions:  # concatenated, in registration order, as the base runs them
            found.extend(f(rules, view, kind, at) or ())
        if not found:
            return None
        answer = tuple(found)
        try:
            return kept[answer]
        except KeyError:
            require_tile_answer(rules, kind, at, answer)
            kept[answer] = text = effects_json(answer)
            return text
        except TypeError:  # unhashable: not kept, checked and written each time
            require_tile_answer(rules, kind, at, answer)
            return effects_json(answer)

    return tile_effects


def effects_json(effects: Sequence[Any]) -> str:
    """Effects a hook answered as the kernel reads them (``compiled``); anything that is
    no ``EffectSpec`` is refused in one line."""
    for effect in effects:
        if not isinstance(effect, EffectSpec):
            raise TypeError(f"an effect is an EffectSpec (core/effects.py), not {effect!r}")
    return json.dumps([compiled(effect) for effect in effects])


def _verdict(rules: Rules, functions: Sequence[Function]) -> Function:
    def verdict(view: Any) -> tuple[list[int], str] | None:
        for f in functions:  # firstresult: the first answer that is not None
            found = f(rules, view)
            if found is not None:
                return list(found.winners), found.kind
        return None

    return verdict


COMBINE: dict[str, Callable[[Rules, Sequence[Function]], Function]] = {
    "naqala_adjust_new_game": _adjusted,
    "naqala_tile_effects": _tile_effects,
    "naqala_game_ends": _game_ends,
    "naqala_protected_meeples": _protected,
    "naqala_score_lines": _score_points,
    "naqala_adjust_score_lines": _adjusted_lines,
    "naqala_verdict": _verdict,
}


def callback_functions(rules: Rules, asked: Sequence[Provided]) -> list[tuple[str, Function]]:
    """``(hook, function)`` for each hook of ``asked`` (rules the kernel calls back):
    the function the kernel calls at that hook's point."""
    found = []
    for hook in CALLED_BACK:
        plugins = {p.plugin for p in asked if p.hook == hook}
        if plugins:
            found.append((hook, COMBINE[hook](rules, _implementations(rules, hook, plugins))))
    return found


def state_reader(rules: Rules) -> Callable[[Form], State]:
    """What a view's ``full_state()`` calls: the kernel's form of its state built into a
    Python ``State`` (``naqala.native.state_form``; the kernel made and checked it)."""

    def read(form: Form) -> State:
        return state_of_form(rules, form)

    return read


@attrs.define
class SeatTally:
    """How often a Python player was asked in native games, and for how long (wall
    seconds, as the kernel times the hooks it calls back): ``--engine-report``."""

    calls: int = 0
    seconds: float = 0.0


def seat_function(rules: Rules, agent: Agent, tally: SeatTally | None = None) -> SeatFunction:
    """What the kernel calls at a Python player's decisions in a native game
    (``NativeState.play``'s ``agents``): the agent's choice among the options, given as
    notations in canonical order, from a read-only view of the state, as an index. A
    player that fails on the view (it reads what the view has not, or hands it to
    ``rules.apply`` or ``view_for``) is asked again with the full ``State``
    (``view.full_state()``), and from then on always given it: it plays as on the
    Python engine, at the cost of building that ``State`` a decision. Each call is
    counted in ``tally``."""
    needs_state = False
    counted = SeatTally() if tally is None else tally

    def choose(view: Any, notations: list[str]) -> int:
        started = time.perf_counter()
        try:
            return asked(view, notations)
        finally:
            counted.calls += 1
            counted.seconds += time.perf_counter() - started

    def asked(view: Any, notations: list[str]) -> int:
        nonlocal needs_state
        options = [parse_action(text) for text in notations]
        if needs_state:
            chosen = agent.choose(rules, view.full_state(), options)
        else:
            try:
                chosen = agent.choose(rules, view, options)
            except Exception:  # any failure on the view: ask again with the state
                needs_state = True
                chosen = agent.choose(rules, view.full_state(), options)
        return notations.index(format_action(chosen))

    return choose
