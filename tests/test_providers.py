"""Provider hooks (the flow, the board layout, the new game) combine without surprises.

Two plugins that each answer a provider hook used to override each other silently: only
the last registered ran, so the order of ``--house-rules`` changed the scores. Now a
plain answer is a provider — two of them are refused naming both unless one lists the
hook in ``REPLACES`` — and a wrapper (``hookimpl(wrapper=True)``) composes with every
other wrapper in an order that does not depend on the order the plugins were given.
"""

from __future__ import annotations

import textwrap
from collections.abc import Generator
from pathlib import Path

import attrs
import pytest

from naqala.core.engine import Rules, build_rules
from naqala.core.hookspecs import hookimpl
from naqala.core.plugins import PluginError
from naqala.core.rng import Rng
from naqala.core.simulate import play_game
from naqala.core.stage import Flow
from naqala.core.state import Layout, State
from naqala.plugins.base.api import BaseFlow, current, gain_coins
from naqala.testing.scenario import play, turn_of

#: two flow-changing house rules whose changes do not commute: at the end of a turn,
#: "tax" takes 1 coin from a player who has any and "stipend" gives 1 coin. Applied
#: tax-then-stipend a player with no coins ends with 1; the other way round, with 0.
TAX = '''
    """House rule: at the end of every turn the player pays 1 coin, if they have one."""
    from naqala.core.hookspecs import hookimpl
    from naqala.core.stage import WrappedFlow
    from naqala.plugins.base.api import current, gain_coins

    NAME = "tax"


    class Tax(WrappedFlow):
        def proceed(self, rules, state, finished):
            if finished == "sell" and state.players[current(state)].coins > 0:
                state = gain_coins(state, current(state), -1)
            return self.inner.proceed(rules, state, finished)


    @hookimpl(wrapper=True)
    def naqala_flow(rules):
        return Tax((yield))
'''
STIPEND = '''
    """House rule: at the end of every turn the player is paid 1 coin."""
    from naqala.core.hookspecs import hookimpl
    from naqala.core.stage import WrappedFlow
    from naqala.plugins.base.api import current, gain_coins

    NAME = "stipend"


    class Stipend(WrappedFlow):
        def proceed(self, rules, state, finished):
            if finished == "sell":
                state = gain_coins(state, current(state), 1)
            return self.inner.proceed(rules, state, finished)


    @hookimpl(wrapper=True)
    def naqala_flow(rules):
        return Stipend((yield))
'''


def write_rule(folder: Path, name: str, source: str) -> Path:
    path = folder / f"{name}.py"
    path.write_text(textwrap.dedent(source))
    return path


def at_sell(rules: Rules, coins: int) -> State:
    """Player 0 at the end of a turn (the sale), holding ``coins``."""
    state = turn_of(rules, rules.new_game(2, 3), 0)
    players = (attrs.evolve(state.players[0], coins=coins), *state.players[1:])
    return attrs.evolve(state, players=players, decision=attrs.evolve(state.decision, stage="sell"))


class SubclassedBonus:
    """A flow provider written as docs/hooks.md used to teach: a subclass of the base flow
    that pays ``bonus`` coins at the end of each turn."""

    def __init__(self, name: str, bonus: int) -> None:
        self.NAME = name
        self.bonus = bonus

    @hookimpl
    def naqala_flow(self, rules: Rules) -> Flow:
        bonus = self.bonus

        class Bonus(BaseFlow):
            def proceed(self, rules: Rules, state: State, finished: str) -> State:
                if finished == "sell":
                    state = gain_coins(state, current(state), bonus)
                return super().proceed(rules, state, finished)

        return Bonus()


# -- two providers -----------------------------------------------------------------------


def test_two_flow_providers_are_refused_naming_both() -> None:
    """Two house rules that each provide a whole flow cannot both apply: refused, naming
    both, instead of the last one silently winning."""
    for plugins in (
        [SubclassedBonus("one-coin", 1), SubclassedBonus("two-coins", 2)],
        [SubclassedBonus("two-coins", 2), SubclassedBonus("one-coin", 1)],
    ):
        with pytest.raises(PluginError, match=r"naqala_flow.*'one-coin'.*'two-coins'"):
            build_rules(extra_plugins=plugins)


def test_a_provider_listing_the_hook_in_replaces_wins_in_every_order() -> None:
    """Exactly one of two providers may say it replaces the other, as with stages."""
    replacing = SubclassedBonus("two-coins", 2)
    replacing.REPLACES = ("naqala_flow",)  # type: ignore[attr-defined]
    for plugins in ([SubclassedBonus("one-coin", 1), replacing], [replacing]):
        rules = build_rules(extra_plugins=plugins)
        assert play(rules, at_sell(rules, 5), "end").players[0].coins == 7
    both = SubclassedBonus("one-coin", 1)
    both.REPLACES = ("naqala_flow",)  # type: ignore[attr-defined]
    with pytest.raises(PluginError, match="'one-coin' and 'two-coins'"):
        build_rules(extra_plugins=[both, replacing])


def test_one_provider_still_replaces_the_base_game_default() -> None:
    """The base game's answers are defaults (``trylast``): one other provider replaces
    them without saying so."""
    rules = build_rules(extra_plugins=[SubclassedBonus("one-coin", 1)])
    assert play(rules, at_sell(rules, 5), "end").players[0].coins == 6


def test_two_layout_providers_are_refused_naming_both() -> None:
    class Sorted:
        def __init__(self, name: str) -> None:
            self.NAME = name

        @hookimpl
        def naqala_board_layout(self, rules: Rules, players: int, rng: Rng) -> tuple[Layout, Rng]:
            return Layout(rows=5, cols=6, tiles=tuple(sorted(rules.tile_specs))), rng

    with pytest.raises(PluginError, match=r"naqala_board_layout.*'sorted-a'.*'sorted-b'"):
        build_rules(extra_plugins=[Sorted("sorted-b"), Sorted("sorted-a")])


def test_the_artisans_layout_replaces_the_base_layout_by_name() -> None:
    """The Artisans' layout is a provider that says what it replaces."""
    from naqala.plugins import artisans

    assert "naqala_board_layout" in artisans.REPLACES
    rules = build_rules(["artisans"])
    assert rules.new_game(2, 1).layout.rows == 6


# -- wrappers compose ----------------------------------------------------------------------


def test_two_flow_changing_house_rules_both_apply_in_every_order(tmp_path: Path) -> None:
    """Tax and stipend both change the end of a turn; given in either order they both
    apply, and apply the same way (order of composition by name, not by command line)."""
    tax, stipend = write_rule(tmp_path, "tax", TAX), write_rule(tmp_path, "stipend", STIPEND)
    results = []
    for files in ([tax, stipend], [stipend, tax]):
        rules = build_rules(house_rules=files)
        rich = play(rules, at_sell(rules, 5), "end").players[0].coins
        broke = play(rules, at_sell(rules, 0), "end").players[0].coins
        state, _ = play_game(rules, players=3, seed=4)
        results.append((rich, broke, rules.scores(state)))
    assert results[0] == results[1]
    rich, broke, _ = results[0]
    assert rich == 5  # both applied: -1 and +1
    assert broke in (0, 1)  # whichever way round, the same in every order


def test_a_flow_wrapper_composes_with_a_replacing_provider() -> None:
    """A wrapper wraps whatever flow the provider gives: here a subclassed flow paying 2."""

    class Stipend:
        NAME = "stipend"

        @hookimpl(wrapper=True)
        def naqala_flow(self, rules: Rules) -> Generator[None, Flow, Flow]:
            from naqala.core.stage import WrappedFlow

            class Paid(WrappedFlow):
                def proceed(self, rules: Rules, state: State, finished: str) -> State:
                    if finished == "sell":
                        state = gain_coins(state, current(state), 1)
                    return self.inner.proceed(rules, state, finished)

            return Paid((yield))

    for plugins in ([Stipend(), SubclassedBonus("two", 2)], [SubclassedBonus("two", 2), Stipend()]):
        rules = build_rules(extra_plugins=plugins)
        assert play(rules, at_sell(rules, 5), "end").players[0].coins == 8


def test_new_game_wrappers_compose_in_every_order() -> None:
    """Two setup changes as wrappers: one sets 40 coins, one adds 3; the one whose name
    comes first is innermost, whatever order the plugins are given in."""

    class Set40:
        NAME = "a-set-40"

        @hookimpl(wrapper=True)
        def naqala_new_game(
            self, rules: Rules, players: int, seed: int
        ) -> Generator[None, State, State]:
            state = yield
            return attrs.evolve(
                state, players=tuple(attrs.evolve(p, coins=40) for p in state.players)
            )

    class Add3:
        NAME = "b-add-3"

        @hookimpl(wrapper=True)
        def naqala_new_game(self, rules: Rules, seed: int) -> Generator[None, State, State]:
            state = yield
            return attrs.evolve(
                state, players=tuple(attrs.evolve(p, coins=p.coins + 3) for p in state.players)
            )

    for plugins in ([Set40(), Add3()], [Add3(), Set40()]):
        rules = build_rules(extra_plugins=plugins)
        assert [p.coins for p in rules.new_game(2, 1).players] == [43, 43]


def test_a_layout_wrapper_sees_the_provider_answer() -> None:
    """A layout wrapper receives the layout and generator the provider returned."""

    class Mirror:
        NAME = "mirror"

        @hookimpl(wrapper=True)
        def naqala_board_layout(
            self, rules: Rules, players: int, rng: Rng
        ) -> Generator[None, tuple[Layout, Rng], tuple[Layout, Rng]]:
            layout, rng = yield
            return attrs.evolve(layout, tiles=tuple(reversed(layout.tiles))), rng

    plain = build_rules().new_game(2, 5).layout.tiles
    assert build_rules(extra_plugins=[Mirror()]).new_game(2, 5).layout.tiles == plain[::-1]


def test_old_style_hookwrappers_are_refused_with_the_plugin_named() -> None:
    class Old:
        NAME = "old-style"

        @hookimpl(hookwrapper=True)
        def naqala_flow(self, rules: Rules) -> Generator[None, object, None]:
            yield

    with pytest.raises(PluginError, match=r"'old-style'.*wrapper=True"):
        build_rules(extra_plugins=[Old()])


def test_a_wrapper_that_answers_nothing_is_refused_naming_it() -> None:
    class Lost:
        NAME = "lost"

        @hookimpl(wrapper=True)
        def naqala_flow(self, rules: Rules) -> Generator[None, Flow, None]:
            yield

    with pytest.raises(PluginError, match="'lost'"):
        build_rules(extra_plugins=[Lost()])
