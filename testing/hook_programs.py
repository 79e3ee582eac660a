"""Drawn hook plugins, for proving a plugin's code plays one game on both engines.

The hooks the native engine calls back (docs/hooks.md, "Hooks called back") read a
read-only view on the kernel and a ``State`` on the Python engine. Hypothesis draws small
code plugins from a vocabulary of bodies over the view's read API: the end of the game,
protected meeples, a score line (in a category of its own or a token's) and its
adjustment, a verdict and a tile action answering with effects of the effects language,
each deciding on a player's coins, camels, viziers, elders, cards or the round. The
differential harness plays each over the base game or the boxes (``BOXES``, with up to
five players in the Whims box) on both engines, comparing every state, legal list and
score sheet (``tests/test_hook_programs.py``, 12 plugins; ``NAQALA_HOOK_PROGRAMS=150``
for a bench count).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import attrs
from hypothesis import strategies as st

from naqala.core.effects import EffectSpec
from naqala.core.engine import Rules
from naqala.core.events import ScoreLine, Verdict
from naqala.core.hookspecs import hookimpl
from naqala.core.state import State
from naqala.testing.effect_programs import TILE_KINDS, effect_lists

#: what a drawn body reads of a player through the view: name → reader
Reader = Callable[[Rules, Any, int], int]
READS: dict[str, Reader] = {
    "coins": lambda rules, state, p: state.players[p].coins,
    "camels": lambda rules, state, p: state.players[p].camels,
    "viziers": lambda rules, state, p: state.players[p].meeples[rules.colour_index["yellow"]],
    "elders": lambda rules, state, p: state.players[p].meeples[rules.colour_index["white"]],
    "cards": lambda rules, state, p: len(state.players[p].hands[0]),
    "round": lambda rules, state, p: state.round,
}


@attrs.frozen
class Test:
    """``read(player) >= least``: when a drawn body answers."""

    read: str
    least: int

    def holds(self, rules: Rules, state: Any, player: int) -> bool:
        return READS[self.read](rules, state, player) >= self.least

    def __str__(self) -> str:
        return f"{self.read} >= {self.least}"


#: the categories a drawn score line is in: its own, or a token's, whose lines the Great
#: Lake reads to double a token by the lake
SCORED_CATEGORIES = ("extra", "palm-trees", "palaces")
#: the boxes a drawn plugin is played over (``tables`` draws a player count for each)
BOXES: tuple[tuple[str, ...], ...] = (
    (),
    ("djinns",),
    ("artisans",),
    ("artisans", "djinns"),
    ("thieves",),
    ("thieves", "djinns"),
)


def tables() -> st.SearchStrategy[tuple[tuple[str, ...], int]]:
    """A drawn set of boxes and a player count it allows: 2 to 4, or 5 with the Whims box."""
    return st.sampled_from(BOXES).flatmap(
        lambda boxes: st.tuples(st.just(boxes), st.integers(2, 5 if "djinns" in boxes else 4))
    )


def _tests() -> st.SearchStrategy[Test]:
    return st.builds(Test, st.sampled_from(sorted(READS)), st.integers(0, 12))


@attrs.frozen
class HookProgram:
    """A drawn code plugin: each hook answers when its test holds (None: not at all)."""

    ends: Test | None
    protects: tuple[Test, tuple[str, ...]] | None
    # points = factor * read + offset, in a category of its own or one a box's line
    # reads (the Great Lake's worth of a palm tree or a palace)
    scores: tuple[str, int, int, str] | None
    judges: str | None  # the seats with the most of this read win
    adjusts: tuple[str, int] | None  # a line: the category's points // divisor
    tile: tuple[str, str, Test, tuple[EffectSpec, ...]] | None

    NAME = "drawn-hooks"

    @hookimpl
    def naqala_game_ends(self, rules: Rules, state: State) -> bool:
        test, seats = self.ends, range(len(state.players))
        return test is not None and any(test.holds(rules, state, p) for p in seats)

    @hookimpl
    def naqala_protected_meeples(self, rules: Rules, state: State, player: int) -> Iterable[str]:
        if self.protects is None or not self.protects[0].holds(rules, state, player):
            return ()
        return self.protects[1]

    @hookimpl
    def naqala_score_lines(self, rules: Rules, state: State, player: int) -> Iterable[ScoreLine]:
        if self.scores is None:
            return ()
        read, factor, offset, category = self.scores
        points = factor * READS[read](rules, state, player) + offset
        return (ScoreLine(category, points, self.NAME, read),)

    @hookimpl
    def naqala_adjust_score_lines(
        self, rules: Rules, state: State, player: int, lines: tuple[ScoreLine, ...]
    ) -> Iterable[ScoreLine]:
        if self.adjusts is None:
            return ()
        category, divisor = self.adjusts
        points = sum(line.points for line in lines if line.category == category) // divisor
        return (ScoreLine(category, points, self.NAME),)

    @hookimpl
    def naqala_verdict(self, rules: Rules, state: State) -> Verdict | None:
        if self.judges is None:
            return None
        counts = [READS[self.judges](rules, state, p) for p in range(len(state.players))]
        winners = tuple(p for p, n in enumerate(counts) if n == max(counts))
        return Verdict(winners, f"most {self.judges}", f"most-{self.judges}")

    @hookimpl
    def naqala_tile_effects(
        self, rules: Rules, state: State, kind: str, at: str
    ) -> Iterable[EffectSpec] | None:
        if self.tile is None:
            return None
        tile, when, test, effects = self.tile
        if kind != tile or at != when or not test.holds(rules, state, state.decision.player):
            return None
        return effects


def _effect(drawn: dict[str, Any]) -> EffectSpec:
    fields = {("when" if key == "if" else key): value for key, value in drawn.items()}
    return EffectSpec(**fields)


@st.composite
def hook_programs(draw: st.DrawFn) -> HookProgram:
    """A drawn plugin implementing every hook called back, each answering or not."""
    colours = st.lists(st.sampled_from(("yellow", "white")), min_size=1, max_size=2, unique=True)
    tile = st.tuples(
        st.sampled_from(TILE_KINDS),
        st.sampled_from(("before", "after")),
        _tests(),
        effect_lists().map(lambda found: tuple(_effect(e) for e in found)),
    )
    return HookProgram(
        ends=draw(st.none() | _tests()),
        protects=draw(st.none() | st.tuples(_tests(), colours.map(tuple))),
        scores=draw(
            st.none()
            | st.tuples(
                st.sampled_from(sorted(READS)),
                st.integers(-3, 3),
                st.integers(-5, 5),
                st.sampled_from(SCORED_CATEGORIES),
            )
        ),
        judges=draw(st.none() | st.sampled_from(sorted(READS))),
        adjusts=draw(
            st.none()
            | st.tuples(
                st.sampled_from(("palm-trees", "coins", "extra")), st.integers(-3, 3)
            ).filter(lambda found: found[1] != 0)
        ),
        tile=draw(st.none() | tile),
    )
