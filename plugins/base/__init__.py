"""The base game of Five Tribes as a plugin: content, flow, tribe and tile actions, scoring.

It registers exactly like an expansion or a house rule does (entry point ``base`` in the
group ``naqala.plugins``); providers such as the board layout answer ``trylast`` so that any
other plugin can replace them.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from naqala.content import content_path
from naqala.core.actions import Action
from naqala.core.content import RESOURCES
from naqala.core.costs import CostCode
from naqala.core.encoding import ActionKind, ObservationPart
from naqala.core.engine import Rules
from naqala.core.events import Event, ScoreLine
from naqala.core.hookspecs import hookimpl
from naqala.core.powers import Power
from naqala.core.rng import Rng
from naqala.core.stage import Flow, Stage
from naqala.core.state import Layout, State
from naqala.core.turnfields import TurnField
from naqala.core.validate import Problem
from naqala.display.hints import Display
from naqala.plugins.base import (
    cards,
    checks,
    common,
    costs,
    djinns,
    effects,
    effects_checks,
    encoding,
    flow,
    looks,
    lying,
    placing,
    scoring,
    setup,
    variants,
)
from naqala.plugins.base.bidding import BidStage
from naqala.plugins.base.merchandise import SellStage
from naqala.plugins.base.movement import DropStage, PickStage
from naqala.plugins.base.placing import placing_stages
from naqala.plugins.base.tiles import tile_actions
from naqala.plugins.base.tribes import KillStage, tribe_actions

NAME = "base"
VERSION = "0.1.0"
DESCRIPTION = "Five Tribes base game: 5x6 board, 5 tribes, 5 tile kinds, 22 djinns, 2-4 players"


@hookimpl
def naqala_content_files() -> Iterable[Path]:
    return [content_path("base.toml")]


@hookimpl
def naqala_stages(rules: Rules) -> dict[str, Stage]:
    return {
        **effects.choice_stages(rules),
        "bid": BidStage(),
        "pick": PickStage(),
        "drop": DropStage(),
        "kill": KillStage(),
        "sell": SellStage(),
        **djinns.djinn_stages(rules),
        **placing_stages(),
    }


@hookimpl
def naqala_cost_codes() -> dict[str, CostCode]:
    return dict(costs.COST_CODES)


@hookimpl
def naqala_check_rules(rules: Rules) -> list[str]:
    code_powers = set(djinns.djinn_powers())
    return (
        checks.rules_problems(rules)
        + effects_checks.problems(rules, code_powers)
        + effects_checks.deck_problems(rules)
    )


@hookimpl
def naqala_check_state(rules: Rules, state: State) -> Iterable[Problem]:
    return checks.state_problems(rules, state)


@hookimpl
def naqala_tribe_actions() -> dict[str, Stage]:
    return tribe_actions()


@hookimpl
def naqala_tile_actions(rules: Rules) -> dict[str, Stage]:
    # a tile kind whose whole action is content (``at = "instead"``) takes its place
    return {**tile_actions(), **effects.tile_stages(rules)}


@hookimpl(trylast=True)
def naqala_flow(rules: Rules) -> Flow:
    return flow.BaseFlow()


@hookimpl(trylast=True)
def naqala_board_layout(rules: Rules, players: int, rng: Rng) -> tuple[Layout, Rng]:
    return setup.random_layout(rules, rng)


@hookimpl(trylast=True)
def naqala_new_game(rules: Rules, players: int, seed: int) -> State:
    return setup.new_game(rules, players, seed)


@hookimpl
def naqala_game_ends(rules: Rules, state: State) -> bool:
    return flow.game_ends(state)


@hookimpl
def naqala_score_lines(rules: Rules, state: State, player: int) -> list[ScoreLine]:
    return scoring.score_lines(rules, state, player)


@hookimpl
def naqala_card_powers(rules: Rules) -> dict[str, Power]:
    # the djinns whose power is content (``[[power]]``) are the effects interpreter's
    return {**djinns.djinn_powers(), **effects.card_powers(rules)}


# the one card router: every deck's cards, whichever plugin adds the deck


@hookimpl
def naqala_extra_options(rules: Rules, state: State) -> list[Action]:
    return cards.options(rules, state)


@hookimpl
def naqala_apply_extra(rules: Rules, state: State, action: Action) -> State | None:
    return cards.apply(rules, state, action)


@hookimpl
def naqala_explain(rules: Rules, state: State, action: Action) -> str | None:
    return cards.explain(rules, state, action)


@hookimpl
def naqala_event(rules: Rules, state: State, event: Event) -> State | None:
    # the cards held react first, then the content's triggers (``[[trigger]]``); at
    # clean-up the rows lying on tiles fill their empty places
    changed = cards.on_event(rules, state, event)
    after = effects.on_event(rules, changed or state, event)
    if event.name == flow.CLEAN_UP:
        after = lying.fill_places(rules, after)
    return after if changed is not None or after is not state else None


@hookimpl
def naqala_adjust_score_lines(
    rules: Rules, state: State, player: int, lines: tuple[ScoreLine, ...]
) -> list[ScoreLine]:
    return cards.score_lines(rules, state, player, lines) + effects.scoring_lines(
        rules, state, player
    )


@hookimpl
def naqala_protected_meeples(rules: Rules, state: State, player: int) -> set[str]:
    return cards.protected(rules, state, player) | variants.protected_colours(rules)


@hookimpl
def naqala_display(rules: Rules, state: State) -> Display:
    return looks.display(rules, state)


@hookimpl
def naqala_flags() -> list[str]:
    return [flow.LAST_CAMEL, flow.NO_MOVES, variants.ROUND_CAP_FLAG]


@hookimpl
def naqala_state_counters() -> list[str]:
    # a token placed by an effect waits here while its owner decides where (placing.py)
    return [placing.stage_name("*")]


@hookimpl
def naqala_player_counters() -> list[str]:
    # a piece still to place (``piece.<token>``) is declared by the plugin that gives it
    return [f"{cards.ROUND_USED}*"]


@hookimpl
def naqala_turn_fields() -> list[TurnField[Any]]:
    return [common.REACH, common.KILLS, common.TARGET]


@hookimpl
def naqala_hidden_decks(rules: Rules) -> list[str]:
    return [RESOURCES]  # resource cards are held face down


@hookimpl
def naqala_action_kinds(rules: Rules) -> Iterable[ActionKind]:
    return list(encoding.action_kinds(rules))


@hookimpl
def naqala_observation_parts(rules: Rules) -> list[ObservationPart]:
    return encoding.observation_parts(rules)


@hookimpl
def naqala_native_support() -> bool:
    # kernel/src/rules.rs ports every stage, power and hook of this plugin (all 22 djinns)
    return True
