"""The Artisans of Naqala: purple artisans, items, workshops, specialized markets, tents,
mountains, the chasm and the 6×6 board — everything through hooks and
``content/artisans.toml``; the core knows nothing of it."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from naqala.content import content_path
from naqala.core.actions import Action
from naqala.core.encoding import ActionKind, ObservationPart
from naqala.core.engine import Rules
from naqala.core.events import Event, ScoreLine
from naqala.core.hookspecs import hookimpl
from naqala.core.powers import Power
from naqala.core.rng import Rng
from naqala.core.stage import Stage
from naqala.core.state import Layout, State
from naqala.core.turnfields import TurnField
from naqala.core.validate import Problem
from naqala.display.hints import Display
from naqala.plugins.artisans import (
    actions,
    board_items,
    encoding,
    items,
    layout,
    looks,
    scoring,
    tents,
)

NAME = "artisans"
#: 0.2.0: the real items (7 magic, precious 5/7/9); games of 0.1.0 replay with that
#: version's items (``EDITIONS``)
VERSION = "0.2.0"
#: the released versions this plugin still plays, each as the module of a plugin of that
#: version (a record or state of such a game is rebuilt with it)
EDITIONS = {"0.1.0": "naqala.plugins.artisans.edition_0_1"}
DESCRIPTION = (
    "The Artisans of Naqala: artisans, items, workshops, specialized markets, tents, "
    "mountains, the chasm, 6x6 board"
)
REQUIRES = ("base",)
REPLACES = ("naqala_board_layout",)


@hookimpl
def naqala_content_files() -> Iterable[Path]:
    # the items first: the cards keep the order they had in one file (items, then djinns)
    return [content_path("artisans-items.toml"), content_path("artisans.toml")]


@hookimpl
def naqala_board_layout(rules: Rules, players: int, rng: Rng) -> tuple[Layout, Rng]:
    return layout.artisans_layout(rules, rng)


@hookimpl
def naqala_blocked_edges(rules: Rules, layout: Layout) -> Iterable[tuple[int, int]]:
    return mountains(layout)


def mountains(board: Layout) -> frozenset[tuple[int, int]]:
    return layout.mountains(board)


@hookimpl
def naqala_tribe_actions() -> dict[str, Stage]:
    return {"purple": actions.Artisans()}


@hookimpl
def naqala_tile_actions() -> dict[str, Stage]:
    return {"workshop": actions.Workshop(), "specialized-market": actions.SpecializedMarket()}


@hookimpl
def naqala_stages() -> dict[str, Stage]:
    return {"keep-item": items.KeepItem(), board_items.GATHER: board_items.Gather()}


@hookimpl
def naqala_card_powers() -> dict[str, Power]:
    return items.item_powers()


@hookimpl
def naqala_check_rules(rules: Rules) -> list[str]:
    return layout.layout_problems(rules)


@hookimpl
def naqala_check_state(rules: Rules, state: State) -> list[Problem]:
    return [*tents.tent_problems(rules, state), *board_items.flute_problems(state)]


@hookimpl
def naqala_player_counters() -> list[str]:
    return [tents.PIECE]


@hookimpl
def naqala_state_counters() -> list[str]:
    return [board_items.FLUTE_TILE, board_items.FLUTE_LEFT]


@hookimpl
def naqala_turn_fields() -> list[TurnField[tuple[int, ...]]]:
    return [tents.CLAIMED]


@hookimpl
def naqala_event(rules: Rules, state: State, event: Event) -> State | None:
    return tents.note_claimed(state, event)


@hookimpl
def naqala_adjust_new_game(rules: Rules, state: State) -> State:
    return tents.give_tents(state)


@hookimpl
def naqala_extra_options(rules: Rules, state: State) -> list[Action]:
    return tents.tent_options(rules, state)


@hookimpl
def naqala_apply_extra(rules: Rules, state: State, action: Action) -> State | None:
    return tents.pitch_tent(rules, state, action)


@hookimpl
def naqala_score_lines(rules: Rules, state: State, player: int) -> list[ScoreLine]:
    return (
        scoring.artisan_score_lines(rules, state, player)
        + items.item_score_lines(rules, state, player)
        + tents.tent_score_lines(rules, state, player)
    )


@hookimpl
def naqala_adjust_score_lines(
    rules: Rules, state: State, player: int, lines: tuple[ScoreLine, ...]
) -> list[ScoreLine]:
    return scoring.tied_share_lines(rules, state, player)


@hookimpl
def naqala_display(rules: Rules, state: State) -> Display:
    return looks.display(rules)


@hookimpl
def naqala_hidden_decks(rules: Rules) -> list[str]:
    return [items.ITEMS]  # items are held face down


@hookimpl
def naqala_action_kinds(rules: Rules) -> list[ActionKind]:
    return list(encoding.action_kinds(rules))


@hookimpl
def naqala_observation_parts(rules: Rules) -> list[ObservationPart]:
    return encoding.observation_parts(rules)


@hookimpl
def naqala_native_support() -> bool:
    # kernel/src/rules/artisans.rs ports every stage, item and hook of today's
    # version (a kept older edition such as edition_0_1 does not declare it)
    return True
