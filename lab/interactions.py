"""Which components interact (``naqala interactions``): a paired 2×2 factorial per pair.

A component is a card (``djinn:ID``, ``item:ID``) that is in the game unless left out, or
a house rule (``rule:FILE``) that is off unless added. For each pair (A, B) four arms play
the same seeds with the same seats: both, A only, B only, neither, every other component
at its default. The interaction on a per-game metric is

    (both − A only) − (B only − neither) = both − A − B + neither,

the effect of A when B is in minus its effect when B is out. Each game gives one such
contrast, so the test is ``stats.paired_means`` of (A only − neither) against
(both − B only): a paired t-test and interval of the mean contrast, the lab's own.

Arms repeat across pairs (with cards, "both" is the ordinary game for every pair), so each
distinct rule set is played once: ``1 + k + k(k − 1)/2`` rule sets for ``k`` components
instead of ``4 · pairs``; the results are the same, since an arm is a pure function of its
rule set and seeds. The p-values of one metric are adjusted together with Holm's method
over the pairs (``stats.holm``; see docs/lab.md for why not Benjamini–Hochberg).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs

from naqala.core.engine import Rules
from naqala.core.plugins import HouseRuleFile, PluginError, read_house_rule
from naqala.lab import stats
from naqala.lab.executors import Executor
from naqala.lab.results import GameResult
from naqala.lab.runner import Advance, play_indices
from naqala.lab.study import Ruleset, Study, StudyError
from naqala.native.choice import PYTHON

#: the metrics of every cell, in the order the JSON lists them
METRICS = ("mean_score", "holder_win_rate", "rounds")

#: ``--components all-djinns``: every djinn of the rules
ALL_DJINNS = "all-djinns"

#: the most components of one design. The design is quadratic: k components are
#: k(k − 1)/2 pairs and 1 + k + k(k − 1)/2 distinct arms to build and play, so 40 are
#: 780 pairs and 821 arms (82,100 games at 100 an arm), room for every djinn of every
#: expansion (27) with items and house rules besides; 1,000 were 500,501 arms, laid out
#: and built for minutes before a game was played
MAX_COMPONENTS = 40


class InteractionError(ValueError):
    """Components that cannot be studied together (malformed, repeated, fewer than two)."""


class TooFewGames(InteractionError):
    """Fewer than two games finished in every arm (``interrupted``: Ctrl-C stopped them)."""

    def __init__(self, message: str, interrupted: bool) -> None:
        super().__init__(message)
        self.interrupted = interrupted


@attrs.frozen
class Component:
    """One factor of the design: ``text`` as given on the command line; a card's
    ``--without`` reference, or a house rule's absolute path."""

    text: str
    kind: str  # "card" or "rule"
    ref: str
    #: a house rule's file as it was read, once: every arm runs these bytes
    rule: HouseRuleFile | None = attrs.field(default=None, eq=False)

    @property
    def djinn(self) -> str | None:
        """The djinn's id, if the component is a djinn (its holder can be named)."""
        kind, _, card = self.ref.partition(":")
        return card if self.kind == "card" and kind == "djinn" else None

    @property
    def label(self) -> str:
        """A short name for the heat map: the card's id, the rule file's stem."""
        return Path(self.ref).stem if self.kind == "rule" else self.ref.partition(":")[2]


def arms_of_size(count: int) -> int:
    """The distinct arms of a design of ``count`` components: 1 + k + k(k − 1)/2."""
    return 1 + count + count * (count - 1) // 2


def _refuse_too_many(count: int, games: int | None) -> None:
    """InteractionError if ``count`` components are more than :data:`MAX_COMPONENTS`,
    saying what they would cost."""
    if count <= MAX_COMPONENTS:
        return
    pairs, arms = count * (count - 1) // 2, arms_of_size(count)
    played = f", {arms * games:,} games at {games} an arm" if games is not None else ""
    most = MAX_COMPONENTS * (MAX_COMPONENTS - 1) // 2
    raise InteractionError(
        f"--components names {count} components: {pairs:,} pairs and {arms:,} distinct "
        f"arms to play{played}; the design is quadratic, so at most {MAX_COMPONENTS} "
        f"components ({most:,} pairs, {arms_of_size(MAX_COMPONENTS):,} arms)"
    )


def parse_components(text: str, rules: Rules, games: int | None = None) -> tuple[Component, ...]:
    """The components of ``--components`` (comma-separated ``djinn:ID``, ``item:ID``,
    ``rule:FILE`` or ``all-djinns``); InteractionError for a malformed, repeated or
    unknown one, fewer than two, or more than :data:`MAX_COMPONENTS` (counted before
    any file is read; ``games`` an arm, if given, says what they would cost)."""
    words = [w.strip() for w in text.split(",")]
    _refuse_too_many(len(words), games)
    components: list[Component] = []
    for word in words:
        kind, _, name = word.partition(":")
        if word == ALL_DJINNS:
            components += [
                Component(f"djinn:{c.id}", "card", f"djinn:{c.id}")
                for c in rules.content.deck("djinns")
            ]
        elif kind == "djinn" and name:
            components.append(Component(word, "card", word))
        elif kind == "item" and name:
            components.append(Component(word, "card", f"card:{name}"))
        elif kind == "rule" and name:
            path = Path(name)
            if not path.is_file():
                raise InteractionError(f"--components {word}: no such file {name}")
            try:
                read = read_house_rule(path)
            except PluginError as exc:
                raise InteractionError(f"--components {word}: {exc}") from exc
            components.append(Component(word, "rule", str(path.resolve()), read))
        else:
            raise InteractionError(
                f"--components {word!r}: write djinn:ID, item:ID, rule:FILE or {ALL_DJINNS}"
            )
    refs = [c.ref for c in components]
    repeated = sorted({c.text for c in components if refs.count(c.ref) > 1})
    if repeated:
        raise InteractionError(f"--components names {', '.join(repeated)} more than once")
    if len(components) < 2:
        raise InteractionError("--components needs at least two components to pair")
    _refuse_too_many(len(components), games)  # all-djinns counts its djinns
    return tuple(components)


def arm(base: Ruleset, components: Sequence[Component], present: frozenset[int]) -> Ruleset:
    """``base`` with the components of ``present`` in and the others out: a card is left
    out when absent, a house rule added when present."""
    rules = [c.rule for i, c in enumerate(components) if c.rule is not None and i in present]
    cards = [c.ref for i, c in enumerate(components) if c.kind == "card" and i not in present]
    return Ruleset(
        base.expansions,
        (*base.house_rules, *rules),
        tuple(sorted({*base.without, *cards})),
    )


@attrs.frozen
class Design:
    """The factorial: components, the rules they vary, seats, seeds and games per arm."""

    base: Ruleset
    components: tuple[Component, ...]
    seats: tuple[str, ...]
    seed: int
    games: int
    #: the engine of every arm's games (``Study.engine``)
    engine: str = PYTHON

    @property
    def pairs(self) -> list[tuple[int, int]]:
        return list(itertools.combinations(range(len(self.components)), 2))

    def default(self) -> frozenset[int]:
        """The components in the game when nothing is varied: the cards."""
        return frozenset(i for i, c in enumerate(self.components) if c.kind == "card")

    def arms_of(self, a: int, b: int) -> dict[str, Ruleset]:
        """The four arms of the pair (a, b): both, a (only), b (only), neither."""
        rest = self.default() - {a, b}
        return {
            "both": arm(self.base, self.components, rest | {a, b}),
            "a": arm(self.base, self.components, rest | {a}),
            "b": arm(self.base, self.components, rest | {b}),
            "neither": arm(self.base, self.components, rest),
        }

    def rulesets(self) -> list[Ruleset]:
        """Every distinct arm, in a fixed order (the order the pairs first need them)."""
        seen: dict[Ruleset, None] = {}
        for a, b in self.pairs:
            for ruleset in self.arms_of(a, b).values():
                seen.setdefault(ruleset, None)
        return list(seen)

    def studies(self) -> list[Study]:
        return [Study(r, self.seats, self.seed, engine=self.engine) for r in self.rulesets()]

    def check(self) -> None:
        """StudyError unless every arm can be built and played (cards known, files good)."""
        if self.games < 2:
            raise InteractionError(f"an interaction needs at least 2 games, not {self.games}")
        for study in self.studies():
            study.check()

    def cost(self) -> dict[str, int]:
        """What the design plays: 4 arms × pairs × games, and the distinct arms played."""
        arms = len(self.rulesets())
        return {
            "pairs": len(self.pairs),
            "arms_per_pair": 4,
            "design_games": 4 * len(self.pairs) * self.games,
            "distinct_arms": arms,
            "games_played": arms * self.games,
        }


def _share(result: GameResult, seat: int) -> float:
    """A seat's share of the win (a shared win is split)."""
    return 1 / len(result.winners) if seat in result.winners else 0.0


def metrics_of(a: Component, b: Component) -> tuple[str, ...]:
    """The metrics that mean something for the pair (a, b): ``holder_win_rate`` needs a
    djinn among them (a card someone holds; a game result names only the djinns each seat
    holds), so a pair of items and house rules has the score and the length only."""
    if a.djinn is None and b.djinn is None:
        return tuple(m for m in METRICS if m != "holder_win_rate")
    return METRICS


def metric_value(result: GameResult, metric: str, djinns: Sequence[str]) -> float:
    """One game's value of ``metric``; ``djinns`` are the pair's djinns in this arm.
    ``holder_win_rate`` is the sum, over those djinns, of their holder's share of the win
    (0 for a djinn nobody took), so two independent cards add up and interact by 0."""
    if metric == "mean_score":
        return math.fsum(result.scores) / len(result.scores)
    if metric == "rounds":
        return float(result.rounds)
    if metric == "holder_win_rate":
        return math.fsum(
            _share(result, seat)
            for djinn in djinns
            for seat, held in enumerate(result.djinns)
            if djinn in held
        )
    raise ValueError(f"unknown metric {metric!r}")


def cell(
    arms: Mapping[str, Sequence[GameResult]], metric: str, djinns: Mapping[str, Sequence[str]]
) -> dict[str, Any]:
    """One pair's interaction on ``metric``: per-arm means, the contrast, its interval and
    the paired t-test's (unadjusted) p-value."""
    values = {
        name: [metric_value(r, metric, djinns[name]) for r in results]
        for name, results in arms.items()
    }
    a_alone = [a - n for a, n in zip(values["a"], values["neither"], strict=True)]
    a_with_b = [x - b for x, b in zip(values["both"], values["b"], strict=True)]
    test = stats.paired_means(a_alone, a_with_b)
    return {
        "means": {name: stats.num(math.fsum(v) / len(v)) for name, v in values.items()},
        "interaction": test["difference"],
        "ci": test["ci"],
        "p": test["p_value"],
    }


#: an arm's games for ``--games-out``: its name, its rules (plugins, then ``without X``
#: for each card left out) and its games
ArmGames = tuple[str, list[str], Sequence[GameResult]]


def interactions(
    design: Design,
    executor: Executor,
    advance: Advance | None = None,
    games: list[ArmGames] | None = None,
) -> dict[str, Any]:
    """Play the design through ``executor`` and report every cell (a JSON-ready dict; the
    same design gives the same report on any executor). An interrupted run reports the
    games every arm finished, with ``partial`` true. ``games``, when given, receives every
    arm's games."""
    studies = design.studies()
    sides, interrupted = play_indices(studies, range(design.games), executor, advance)
    if games is not None:
        for k, (study, side) in enumerate(zip(studies, sides, strict=True), start=1):
            rules = [*study.check().ruleset, *(f"without {w}" for w in study.ruleset.without)]
            games.append((f"arm {k}", rules, side))
    played = len(sides[0])
    if played < 2:
        raise TooFewGames(
            f"only {played} game(s) finished in every arm: nothing to report", interrupted
        )
    by_rules = {study.ruleset: side for study, side in zip(studies, sides, strict=True)}
    cells: list[dict[str, Any]] = []
    for a, b in design.pairs:
        arms = {name: by_rules[r] for name, r in design.arms_of(a, b).items()}
        pair = (design.components[a], design.components[b])
        held = {
            "both": [pair[0].djinn, pair[1].djinn],
            "a": [pair[0].djinn],
            "b": [pair[1].djinn],
            "neither": [],
        }
        djinns = {name: [d for d in ds if d is not None] for name, ds in held.items()}
        for metric in metrics_of(*pair):
            entry: dict[str, Any] = {"a": pair[0].text, "b": pair[1].text, "metric": metric}
            cells.append({**entry, **cell(arms, metric, djinns)})
    for metric in METRICS:
        family = [c for c in cells if c["metric"] == metric]
        for entry, adjusted in zip(family, stats.holm([c["p"] for c in family]), strict=True):
            entry["p_holm"] = stats.pval(adjusted)
            entry["significant"] = adjusted < stats.ALPHA
    return {
        "games": played,
        "requested": design.games,
        "partial": interrupted or played < design.games,
        "players": len(design.seats),
        "seats": list(design.seats),
        "seed": design.seed,
        "seeds": [r.seed for r in sides[0]],
        "components": [c.text for c in design.components],
        "confidence": stats.CONFIDENCE,
        "correction": {"method": "holm", "family": "the pairs of one metric"},
        "cost": design.cost(),
        "cells": cells,
    }


def design_of(
    base: Ruleset, components: str, seats: tuple[str, ...], seed: int, games: int
) -> Design:
    """The design of a command line, checked (InteractionError or StudyError)."""
    design = Design(base, parse_components(components, base.build(), games), seats, seed, games)
    left_out = [c.text for c in design.components if c.ref in base.without]
    if left_out:
        raise InteractionError(
            f"{', '.join(left_out)} is left out of every arm by --without: it cannot vary"
        )
    try:
        design.check()
    except StudyError as exc:
        raise InteractionError(str(exc)) from exc
    return design
