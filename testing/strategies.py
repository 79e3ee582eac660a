"""Hypothesis strategies for naqala games (needs ``hypothesis``).

Everything drawn is a pure function of hypothesis' draws: game seeds, player counts and
the seeds of the random agents that play games forward are all drawn, so a failing example
replays exactly and shrinks towards small seeds and short games.

Rules may be given as a ``Rules`` object or as a *factory*, a function of no arguments
returning one (``lambda: build_rules(["no-loops"])``); a factory is called once, the
first time the strategy draws, so building the rules costs nothing at import time.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterable, Sequence

from hypothesis import assume
from hypothesis import strategies as st
from hypothesis.strategies import SearchStrategy

from naqala.core.actions import Action
from naqala.core.agents import RandomAgent
from naqala.core.engine import Rules, build_rules
from naqala.core.plugins import (
    BASE,
    installed_entry_points,
    installed_names,
    load_named,
    unknown_plugin_message,
)
from naqala.core.state import State

__all__ = [
    "MAX_SEED",
    "RulesLike",
    "expansion_sets",
    "games",
    "legal_actions",
    "player_counts",
    "reached_states",
    "rulesets",
    "seeds",
]

#: rules, or a function of no arguments that builds them
RulesLike = Rules | Callable[[], Rules]
#: players as a strategy argument: any count the content supports (None), one count, or a
#: choice of counts
Players = int | Sequence[int] | None

MAX_SEED = 2**32 - 1


def _lazy(rules: RulesLike) -> Callable[[], Rules]:
    """A function giving the rules, calling a factory only once."""
    if isinstance(rules, Rules):
        return lambda: rules
    return functools.cache(rules)


@functools.cache
def _requires(name: str) -> tuple[str, ...]:
    return tuple(need for need in load_named(name).requires if need != BASE)


@functools.cache
def _conflicts(name: str) -> frozenset[str]:
    """The installed plugins ``name`` cannot be played with (its ``CONFLICTS``, a Python
    plugin's or a ``.toml`` rule's ``[house-rule] conflicts``), by entry-point name: a
    conflict named by an alias (``djinns``) is its plugin (``whims``)."""
    names = installed_names()
    return frozenset(
        names.get(other, other) for other in getattr(load_named(name).module, "CONFLICTS", {})
    )


def _compatible(names: Collection[str]) -> bool:
    """No plugin of ``names`` lists another in its ``CONFLICTS`` (solo and the boxes)."""
    together = set(names)
    return not any(_conflicts(name) & together for name in together)


def _with_requirements(names: Iterable[str]) -> tuple[str, ...]:
    """``names`` and everything they require, sorted."""
    found: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo.extend(_requires(name))
    return tuple(sorted(found))


#: the choice that ends a set (rather than picking one more plugin)
_STOP = ""


def _stop(_choice: str) -> str:
    """Any choice, read as the end of the set (when nothing else may follow)."""
    return _STOP


@functools.lru_cache(maxsize=4096)
def _choice(names: tuple[str, ...], allowed: frozenset[str]) -> SearchStrategy[str]:
    """One choice among ``_STOP`` and ``names`` that can only be one of ``allowed``, or
    any choice read as ``_STOP`` if nothing is allowed. Shared, being a pure function of
    its arguments: hypothesis prepares a strategy at its first draw."""
    every = st.sampled_from((_STOP, *names))
    return every.filter(allowed.__contains__) if allowed else every.map(_stop)


#: what may follow a set of picks: ``(picked, may_pick, may_stop)`` -> the next choice
NextPick = Callable[[frozenset[str], bool, bool], SearchStrategy[str]]


def _next_picks(names: Iterable[str]) -> NextPick:
    """What may follow the picks made so far among ``names``: if ``may_pick``, a name not
    picked yet that leaves the set, with everything required, free of conflicts;
    ``_STOP`` if ``may_stop`` or if no name may follow. Names bringing fewer along come
    first, as a set shrinks towards the first names.

    Every pick is one choice among ``_STOP`` and all the names, whatever is allowed:
    hypothesis records the index among them all (a filtered ``sampled_from`` does), so a
    choice means the same pick wherever it stands; ``_STOP`` comes first, so choices
    shrink towards it; and a set that cannot grow still ends on a choice, so that
    deleting a pick before it leaves a stop to end the shorter set."""
    brings = {name: frozenset(_with_requirements([name])) for name in names}
    order = tuple(sorted(names, key=lambda name: (len(brings[name]), name)))

    @functools.cache
    def after(picked: frozenset[str], may_pick: bool, may_stop: bool) -> SearchStrategy[str]:
        found = frozenset().union(*(brings[name] for name in picked))
        allowed = frozenset(
            name
            for name in order
            if may_pick and name not in picked and _compatible(found | brings[name])
        )
        return _choice(order, allowed | {_STOP} if may_stop and allowed else allowed)

    return after


@st.composite
def _picked_sets(
    draw: st.DrawFn, next_pick: NextPick, min_size: int, max_size: int
) -> tuple[str, ...]:
    """Between ``min_size`` and ``max_size`` picks of distinct names that keep the set
    free of conflicts; the set is the picks and everything they require.

    It is built pick by pick so that it shrinks well. Deleting a pick changes no other
    (each means the same name wherever it stands) and leaves a set that is still free of
    conflicts, so hypothesis shrinks a set plugin by plugin, towards fewer picks and the
    empty set. A unique list of names could not: it draws each name from those left, so
    deleting one renamed the later ones, and a set mapped and then filtered for conflicts
    let a shrink stall on the way (``("big-viziers", "solo")``, not ``("solo",)``).
    With one stop among the names still allowed at each pick, small and large sets are
    about as likely."""
    picked: frozenset[str] = frozenset()
    while True:
        name = draw(next_pick(picked, len(picked) < max_size, len(picked) >= min_size))
        if name == _STOP:
            break
        picked |= {name}
    # conflicts left fewer than min_size names to pick: no such set can be drawn
    assume(len(picked) >= min_size)
    return _with_requirements(picked)


def expansion_sets(
    among: Iterable[str] | None = None, *, min_size: int = 0, max_size: int | None = None
) -> SearchStrategy[tuple[str, ...]]:
    """Sets of installed plugins other than base, as sorted tuples of names (for
    ``build_rules``), drawn from the entry points installed now (``naqala.plugins``).

    ``among`` restricts the draw to those names (a ``ValueError`` names any that is not
    installed); ``min_size`` and ``max_size`` bound how many are drawn. A drawn plugin that
    ``REQUIRES`` others brings them along, so every set can be built; plugins that
    conflict (``CONFLICTS``) are never drawn together. Sets shrink towards fewer plugins
    and the empty set."""
    installed = sorted(name for name in installed_entry_points() if name != BASE)
    if among is None:
        names = installed
    else:
        known = installed_names()  # an alias (``djinns``) stands for its plugin
        names = sorted({known.get(name, name) for name in among})
        for name in names:
            if name not in installed:
                raise ValueError(unknown_plugin_message(name, installed))
    if max_size is None:
        max_size = len(names)
    if not 0 <= min_size <= max_size <= len(names):
        raise ValueError(
            f"cannot draw between {min_size} and {max_size} of the {len(names)} plugins {names}"
        )
    if not names:
        return st.just(())
    # deferred: the plugins are loaded (for what they require) at the first draw
    return st.deferred(lambda: _picked_sets(_next_picks(names), min_size, max_size))


@functools.cache
def _built(expansions: tuple[str, ...]) -> Rules:
    return build_rules(expansions)


def rulesets(
    among: Iterable[str] | None = None, *, min_size: int = 0, max_size: int | None = None
) -> SearchStrategy[Rules]:
    """Rules of the base game with a drawn ``expansion_sets(...)`` (same arguments); the
    rules of each set are built once and shared."""
    return expansion_sets(among, min_size=min_size, max_size=max_size).map(_built)


def seeds() -> SearchStrategy[int]:
    """Game (or agent) seeds: integers from 0 to ``MAX_SEED``."""
    return st.integers(min_value=0, max_value=MAX_SEED)


def _counts_of(rules: Rules, players: Players) -> list[int]:
    supported = sorted(pc.players for pc in rules.content.player_counts)
    if players is None:
        return supported
    wanted = sorted({players} if isinstance(players, int) else set(players))
    missing = [n for n in wanted if n not in supported]
    if missing or not wanted:
        raise ValueError(
            f"player counts {wanted} are not all supported by the content of "
            f"{list(rules.ruleset)}, which supports {supported}"
        )
    return wanted


def _allows(rules: Rules, players: Players) -> bool:
    """Whether ``rules`` allow every count of ``players`` (any count when None)."""
    try:
        _counts_of(rules, players)
    except ValueError:
        return False
    return True


def player_counts(rules: RulesLike, players: Players = None) -> SearchStrategy[int]:
    """Player counts the content of ``rules`` supports (restricted to ``players``: one
    count or several, each checked to be supported)."""
    get = _lazy(rules)
    return st.deferred(lambda: st.sampled_from(_counts_of(get(), players)))


@st.composite
def _games(
    draw: st.DrawFn, source: SearchStrategy[Rules] | Callable[[], Rules], players: Players
) -> tuple[Rules, State]:
    if isinstance(source, SearchStrategy):
        # drawn rules that allow none of the wanted counts (the solo mode's one seat)
        # are passed over, not an error: the test asked for games of those counts
        rules = draw(source.filter(lambda drawn: _allows(drawn, players)))
    else:
        rules = source()
    count = draw(st.sampled_from(_counts_of(rules, players)), label="players")
    seed = draw(seeds(), label="seed")
    return rules, rules.new_game(count, seed)


def games(
    rules_or_factory: RulesLike | SearchStrategy[Rules], players: Players = None
) -> SearchStrategy[tuple[Rules, State]]:
    """``(rules, state)``: a new game of drawn seed and player count (from ``players``:
    one count, several, or by default every count the content supports). The rules may
    also be a strategy, such as ``rulesets()``, to draw them too: drawn rules that do not
    allow ``players`` are passed over (``-x solo`` allows one seat only)."""
    if isinstance(rules_or_factory, SearchStrategy):
        return _games(rules_or_factory, players)
    return _games(_lazy(rules_or_factory), players)


@st.composite
def _reached(
    draw: st.DrawFn, get: Callable[[], Rules], max_actions: int, players: Players
) -> State:
    rules, state = draw(_games(get, players))
    agent = RandomAgent(draw(seeds(), label="agent seed"))
    length = draw(st.integers(min_value=0, max_value=max_actions), label="actions")
    for _ in range(length):
        if state.is_over:
            break
        options = rules.legal_actions(state)
        state = rules.apply(state, agent.choose(rules, state, options))
    return state


def reached_states(
    rules: RulesLike, max_actions: int = 100, players: Players = None
) -> SearchStrategy[State]:
    """A state reached from a drawn new game (as ``games``) by seeded random play: a
    ``RandomAgent`` of drawn seed chooses for every seat, for a drawn number of actions
    from 0 to ``max_actions``. Play stops early if the game ends, so the state may be over
    (``.filter(lambda s: not s.is_over)`` if the test needs a decision)."""
    if max_actions < 0:
        raise ValueError(f"max_actions must be >= 0, got {max_actions}")
    return _reached(_lazy(rules), max_actions, players)


def legal_actions(rules: Rules, state: State) -> SearchStrategy[Action]:
    """One of the legal actions of ``state`` (use with ``data.draw``); a ``ValueError`` if
    there is none, as when the game is over."""
    actions = rules.legal_actions(state)
    if not actions:
        raise ValueError(
            f"no legal actions: the decision is {state.decision.stage!r}"
            + (" (the game is over)" if state.is_over else "")
        )
    return st.sampled_from(actions)
