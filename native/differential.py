"""The differential harness: the same games on both engines, compared after every action.

The Python engine plays a game; at every decision the state is handed to the kernel, and
the kernel's legal actions (same list, same order), every player's score, and the state
after the chosen action (state JSON equal) are compared with the Python engine's. What
the kernel has not ported yet answers ``NotImplementedError`` and is counted by name,
apart from the differences:
a port is done when its count is zero, and the only acceptable number of differences is
zero. The kernel plays only cards it has ported, so the games leave the others out
(``--without``), as ``naqala.core.without`` does for any command.
"""

from __future__ import annotations

import collections
import math
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from naqala.core.actions import Action
from naqala.core.agents import Agent, make_agent
from naqala.core.engine import Rules, build_rules
from naqala.core.rng import Rng
from naqala.core.serialize import state_to_data
from naqala.core.simulate import agent_seed
from naqala.core.state import State
from naqala.core.without import leave_out
from naqala.native.bridge import NativeRules
from naqala.native.support import code_plugins, hook_callbacks

if TYPE_CHECKING:  # the extension is optional: its types are only named here
    from naqala.native._native import NativeState


@attrs.frozen
class Difference:
    """One place where the engines disagree: which game, which action, what differs."""

    game: str
    action: int
    what: str

    def __str__(self) -> str:
        return f"{self.game}, action {self.action}: {self.what}"


@attrs.define
class Report:
    """What a run of the harness compared, what it could not yet, what differed."""

    games: int = 0
    actions: int = 0
    legal_compared: int = 0
    applied_compared: int = 0
    scores_compared: int = 0
    unported: collections.Counter[str] = attrs.field(factory=collections.Counter)
    differences: list[Difference] = attrs.field(factory=list)
    #: the decisions compared, by stage: which rules the games reached
    decisions: collections.Counter[str] = attrs.field(factory=collections.Counter)

    def add(self, other: Report) -> None:
        self.games += other.games
        self.actions += other.actions
        self.legal_compared += other.legal_compared
        self.applied_compared += other.applied_compared
        self.scores_compared += other.scores_compared
        self.unported.update(other.unported)
        self.differences.extend(other.differences)
        self.decisions.update(other.decisions)


class NotPorted(ValueError):
    """Rules with a plugin whose code the kernel does not implement."""


def ported_rules(
    expansions: Sequence[str] = (), house_rules: Sequence[Path] = ()
) -> tuple[Rules, NativeRules]:
    """Rules of the base game (and ``expansions``: the Artisans, the Whims box, the
    Thieves, solo mode, content-only house rules; and content-only ``house_rules`` files)
    without the cards the kernel has not ported, and the kernel for them; ``NotPorted``
    naming the plugin when one has code the kernel does not implement."""
    rules = build_rules(expansions, house_rules)
    reasons = code_plugins(rules)
    if reasons:
        raise NotPorted("; ".join(reasons))
    rules = leave_out_unported(rules)
    return rules, NativeRules(rules, hook_callbacks(rules))


def leave_out_unported(rules: Rules) -> Rules:
    """``rules`` without the cards whose powers the kernel has not ported (by deck and
    kind, as ``unported_content`` names them: ``djinns:<kind>``, ``whims:<kind>``)."""
    unported = NativeRules(rules).kernel.unported_content()
    refs: list[str] = []
    for entry in unported:
        deck, _, kind = entry.partition(":")
        section = "djinn" if deck == "djinns" else "card"
        refs.extend(f"{section}:{c.id}" for c in rules.content.deck(deck) if c.kind == kind)
    return leave_out(rules, refs)


def first_difference(left: Any, right: Any, path: str = "$") -> str | None:
    """The JSON path of the first place two documents differ, with both values there."""
    if isinstance(left, dict) and isinstance(right, dict):
        for key in [*left, *(k for k in right if k not in left)]:
            if key not in left or key not in right:
                return f"{path}.{key}: present on one engine only"
            found = first_difference(left[key], right[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(left, list) and isinstance(right, list):
        for i, (a, b) in enumerate(zip(left, right, strict=False)):
            found = first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        if len(left) != len(right):
            return f"{path}: {len(left)} items in Python, {len(right)} native"
        return None
    if left != right or type(left) is not type(right):
        return f"{path}: {left!r} in Python, {right!r} native"
    return None


def read_natively(
    bridge: NativeRules, state: State, report: Report, game: str, index: int
) -> NativeState | None:
    """``state`` on the kernel; None, and a difference, when the kernel refuses what the
    Python engine reached (it checks what a state means: a Python rule that pays one coin
    too many leaves a player with -1)."""
    try:
        return bridge.to_native(state)
    except ValueError as exc:
        report.differences.append(Difference(game, index, f"the kernel refuses the state: {exc}"))
        return None


def compare_state(
    rules: Rules, bridge: NativeRules, state: State, report: Report, game: str, index: int
) -> None:
    """Hand ``state`` to the kernel; compare its legal actions with the Python engine's."""
    native = read_natively(bridge, state, report, game, index)
    if native is None:
        return
    expected = state_to_data(rules, state)
    found = first_difference(expected, bridge.data(native))
    if found:
        report.differences.append(Difference(game, index, f"state read back: {found}"))
        return
    scores = native.scores()
    if scores != list(rules.scores(state)):
        report.differences.append(
            Difference(game, index, f"scores: Python {list(rules.scores(state))}, native {scores}")
        )
    report.scores_compared += 1
    try:
        legal = native.legal_actions()
    except NotImplementedError:
        report.unported[f"legal actions at {state.decision.stage}"] += 1
        return
    python = [str(a) for a in rules.legal_actions(state)]
    report.legal_compared += 1
    report.decisions[state.decision.stage] += 1
    if legal != python:
        report.differences.append(
            Difference(game, index, f"legal actions: Python {python}, native {legal}")
        )


def compare_verdict(
    rules: Rules, bridge: NativeRules, state: State, report: Report, game: str, index: int
) -> None:
    """The finished game's winners and verdict kind as the kernel reads them (a verdict
    hook called back included) against the Python engine's verdict, where the kernel
    reads the game's result (``NativeState.reading``)."""
    native = read_natively(bridge, state, report, game, index)
    reading = native.reading() if native is not None else None
    if reading is None:
        return
    verdict = rules.verdict(state)
    winners, kind = reading[3], reading[8]
    if winners != list(verdict.winners) or kind != verdict.kind:
        report.differences.append(
            Difference(
                game,
                index,
                f"verdict: Python {list(verdict.winners)} {verdict.kind!r}, "
                f"native {winners} {kind!r}",
            )
        )


def compare_step(
    rules: Rules,
    bridge: NativeRules,
    state: State,
    after: State,
    action: str,
    report: Report,
    game: str,
    index: int,
) -> None:
    """Apply ``action`` to ``state`` on the kernel; compare with the Python engine's
    ``after``."""
    native = read_natively(bridge, state, report, game, index)
    if native is None:
        return
    try:
        stepped = native.apply(action)
    except NotImplementedError as exc:
        report.unported[str(exc).removeprefix("the kernel has not ported ")] += 1
        return
    except ValueError as exc:  # the kernel refuses what the Python engine played
        report.differences.append(Difference(game, index, f"'{action}': native {exc}"))
        return
    report.applied_compared += 1
    found = first_difference(state_to_data(rules, after), bridge.data(stepped))
    if found:
        report.differences.append(Difference(game, index, f"after '{action}': {found}"))


def verify_game(
    rules: Rules, bridge: NativeRules, players: int, seed: int, agent: str = "random"
) -> Report:
    """One game played by the Python engine (every seat ``agent``), compared after every
    action."""
    report = Report(games=1)
    game = f"{agent} {players}p seed {seed}"
    agents = [player_for(rules, agent, agent_seed(seed, seat)) for seat in range(players)]
    state = rules.new_game(players, seed)
    index = 0
    while not state.is_over:
        compare_state(rules, bridge, state, report, game, index)
        options = rules.legal_actions(state)
        action = agents[state.decision.player].choose(rules, state, options)
        after = rules.apply(state, action)
        compare_step(rules, bridge, state, after, str(action), report, game, index)
        state, index = after, index + 1
    compare_state(rules, bridge, state, report, game, index)  # the end: scores, no options
    compare_verdict(rules, bridge, state, report, game, index)
    report.actions = index
    return report


class Thieving:
    """A random player that takes and uses a thief whenever it can (the harness's
    ``thieving`` player): random players seldom do, and this one makes the thefts' own
    decisions (``thief-give``, ``thief-keep``) come up in most games."""

    def __init__(self, rules: Rules, seed: int) -> None:
        self.rng = Rng(seed)
        self.thieves = frozenset(c.id for c in rules.content.deck("thieves"))

    def choose(self, rules: Rules, state: State, options: Sequence[Action]) -> Action:
        preferred = [a for a in options if a.kind == "thief" or a.kind in self.thieves]
        pool = preferred or list(options)
        index, self.rng = self.rng.below(len(pool))
        return pool[index]


def player_for(rules: Rules, agent: str, seed: int) -> Agent:
    """The harness's player ``agent``: ``thieving``, or a registered player by name."""
    if agent == "thieving":
        return Thieving(rules, seed)
    return make_agent(rules, agent, seed)


def agent_mix(rules: Rules) -> tuple[str, ...]:
    """The players of the harness's games, one per game in turn: random players, one game
    in four greedy; with the Thieves, one game in four ``thieving``."""
    if "thieves" in rules.deck_index:
        return ("random", "thieving", "random", "greedy")
    return ("random", "random", "random", "greedy")


def player_counts(rules: Rules) -> tuple[int, ...]:
    """The player counts the rules allow, fewest first (2-4 for the base game and the
    Thieves, 2-5 with the Whims box, 1 for solo mode)."""
    return tuple(sorted({pc.players for pc in rules.content.player_counts}))


def games(
    count: int,
    first_seed: int = 0,
    counts: Sequence[int] = (2, 3, 4),
    agents: Sequence[str] = ("random", "random", "random", "greedy"),
) -> Iterator[tuple[int, int, str]]:
    """(players, seed, agent) for ``count`` games spread over the player ``counts`` (2-4
    by default) and the ``agents`` in turn (random players, one greedy game in four:
    they cost more). When the counts would put every game of one agent at one count
    (2-5 players: four counts), they shift by one every four games, so every agent plays
    at every count."""
    shift = math.gcd(len(counts), len(agents)) > 1
    for i in range(count):
        players = counts[(i + (i // len(agents) if shift else 0)) % len(counts)]
        yield players, first_seed + i, agents[i % len(agents)]
