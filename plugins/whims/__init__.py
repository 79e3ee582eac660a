"""Djinns of Naqala (the Whims of the Sultan box): Fabulous Cities with Sultan's Whims,
the Great Lake, a fifth player and two djinns — everything through hooks and
``content/whims.toml``; the core knows nothing of it. With the Artisans the board is
6×7 (their layout fills the larger inner area); alone, all 36 tiles are shuffled."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from naqala.content import content_path
from naqala.core.encoding import ObservationPart
from naqala.core.engine import Rules
from naqala.core.events import ScoreLine
from naqala.core.hookspecs import hookimpl
from naqala.core.state import State
from naqala.display.hints import Display
from naqala.plugins.whims import cities, encoding, events, lake, looks, whims

NAME = "whims"
#: what states and records call the box (its name until 0.2): kept, so the files saved
#: before load, old releases read the ones saved now, and the content merges in the same
#: order (``content_order`` ties by id), which keeps every seeded game the same
ID = "djinns"
#: the design card calls the box "Djinns of Naqala": ``-x djinns`` keeps working
ALIASES = ("djinns",)
VERSION = "0.1.0"
DESCRIPTION = (
    "Djinns of Naqala (Whims of the Sultan): Fabulous Cities, Sultan's Whims, the Great "
    "Lake, 5 players, 2 djinns; 6x7 board with artisans"
)
REQUIRES = ("base",)


@hookimpl
def naqala_player_counters() -> list[str]:
    return [whims.CLAIMED]


@hookimpl
def naqala_writable_counters() -> list[str]:
    return [whims.CLAIMED]  # each whim's power in content counts itself


@hookimpl
def naqala_events() -> list[str]:
    return list(events.EVENTS)


@hookimpl
def naqala_content_files() -> Iterable[Path]:
    return [content_path("whims.toml")]


@hookimpl
def naqala_score_lines(rules: Rules, state: State, player: int) -> list[ScoreLine]:
    return cities.city_score_lines(rules, state, player)


@hookimpl
def naqala_adjust_score_lines(
    rules: Rules, state: State, player: int, lines: tuple[ScoreLine, ...]
) -> list[ScoreLine]:
    return lake.lake_score_lines(rules, state, player, lines)


@hookimpl
def naqala_public_notes(rules: Rules, state: State) -> list[str]:
    return cities.city_notes(rules, state)


@hookimpl
def naqala_display(rules: Rules, state: State) -> Display:
    return looks.display(rules, state)


@hookimpl
def naqala_hidden_decks(rules: Rules) -> list[str]:
    return [cities.WHIMS]  # whims in hand are held face down


@hookimpl
def naqala_observation_parts(rules: Rules) -> list[ObservationPart]:
    return encoding.observation_parts(rules)


@hookimpl
def naqala_native_support() -> bool:
    # kernel/src/rules/whims.rs and terrain.rs port every stage and hook of this plugin
    # (its whims and Qareen are content, which the kernel interprets)
    return True
