"""The Thieves of Naqala (2016): six thief cards, one per tribe colour (purple with the
Artisans), one face up beside the djinns, taken at a sacred place instead of a djinn and
used at the tribe action of its colour to rob each opponent; and a djinn that protects
from them. Everything through hooks, the public base API and ``content/thieves.toml``."""

from __future__ import annotations

from collections.abc import Generator, Iterable
from pathlib import Path

from naqala.content import content_path
from naqala.core.actions import Action
from naqala.core.encoding import ActionKind
from naqala.core.engine import Rules
from naqala.core.events import Event
from naqala.core.hookspecs import hookimpl
from naqala.core.powers import Power
from naqala.core.stage import Flow, Stage
from naqala.core.state import State
from naqala.core.validate import Problem
from naqala.display.hints import Display
from naqala.plugins.base.api import CLEAN_UP
from naqala.plugins.thieves import checks, encoding, immunity, kinds, row, steal
from naqala.plugins.thieves.flow import ThiefFlow

NAME = "thieves"
VERSION = "0.1.0"
DESCRIPTION = (
    "The Thieves of Naqala: six thieves taken at sacred places, used at the tribe action "
    "of their colour to rob each opponent; 1 djinn"
)
REQUIRES = ("base",)


@hookimpl
def naqala_state_counters() -> list[str]:
    return [f"{steal.RUNNING}*", f"{steal.VICTIM}*", f"{steal.GIVEN}*"]


@hookimpl
def naqala_content_files() -> Iterable[Path]:
    return [content_path("thieves.toml")]


@hookimpl
def naqala_stages() -> dict[str, Stage]:
    return steal.stages()


@hookimpl
def naqala_card_powers() -> dict[str, Power]:
    return {**kinds.thief_powers(), "djinns:hafiz": immunity.Hafiz()}


@hookimpl(wrapper=True)
def naqala_flow(rules: Rules) -> Generator[None, Flow, Flow]:
    return ThiefFlow((yield))


@hookimpl
def naqala_extra_options(rules: Rules, state: State) -> list[Action]:
    return row.take_options(rules, state)


@hookimpl
def naqala_apply_extra(rules: Rules, state: State, action: Action) -> State | None:
    return row.take_thief(rules, state, action)


@hookimpl
def naqala_event(rules: Rules, state: State, event: Event) -> State | None:
    return row.refill(rules, state) if event.name == CLEAN_UP else None


@hookimpl
def naqala_check_state(rules: Rules, state: State) -> list[Problem]:
    return checks.theft_problems(rules, state)


@hookimpl
def naqala_public_notes(rules: Rules, state: State) -> list[str]:
    return checks.notes(rules, state)


@hookimpl
def naqala_display(rules: Rules, state: State) -> Display:
    """The thief beside the djinns is drawn as a card on offer; the thieves each player
    holds (face up) in the player's panel, as any held deck."""
    return Display(offers=("thieves",))


@hookimpl
def naqala_action_kinds(rules: Rules) -> list[ActionKind]:
    return list(encoding.action_kinds(rules))


@hookimpl
def naqala_native_support() -> bool:
    # kernel/src/thieves.rs ports every stage, thief and hook of this plugin
    return True
