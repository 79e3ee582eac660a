"""Solo mode against Sultan Yazid (``-x solo``): one seat, human or AI, against a dice-
driven Sultan who is no player. Setup and goal follow the official solo sheet's first
page; what Yazid does with each colour follows a fan summary and is UNCONFIRMED
(content/solo.toml, docs/solo.md, docs/rules-notes.md). Built on the core and the base
game's public API only."""

from __future__ import annotations

from collections.abc import Generator, Iterable
from pathlib import Path

from naqala.content import content_path
from naqala.core.encoding import ActionKind
from naqala.core.engine import Rules
from naqala.core.events import ScoreLine, Verdict
from naqala.core.hookspecs import hookimpl
from naqala.core.stage import Flow, Stage
from naqala.core.state import State, evolve, set_extra
from naqala.core.validate import Problem
from naqala.display.hints import Display
from naqala.plugins.solo import checks, outcome
from naqala.plugins.solo.rounds import SoloFlow, SultansRoll
from naqala.plugins.solo.sultan import CAMELS, camels_left

NAME = "solo"
VERSION = "0.1.0"
DESCRIPTION = "Solo mode: one seat against Sultan Yazid, a dice-driven non-player (base game)"
REQUIRES = ("base",)
REPLACES = ("bid",)
#: the solo sheet is written for the base game (docs/solo.md, "Expansions")
CONFLICTS = {
    "artisans": "the solo sheet's dice address the 5×6 base board, not the Artisans' 6×6",
    "whims": "the solo sheet's dice address the 5×6 base board, not the 6×7 one of "
    "the Djinns of Naqala box",
    "thieves": "the Thieves act on opponents, and the solo sheet says nothing of "
    "thieves against Sultan Yazid",
}


@hookimpl
def naqala_state_counters() -> list[str]:
    return list(checks.STATE_COUNTERS)


@hookimpl
def naqala_content_files() -> Iterable[Path]:
    return [content_path("solo.toml")]


@hookimpl
def naqala_stages() -> dict[str, Stage]:
    return {"bid": SultansRoll()}


@hookimpl(wrapper=True)
def naqala_flow(rules: Rules) -> Generator[None, Flow, Flow]:
    """The flow in use, with Yazid's turn after an outbidding player's (rounds.SoloFlow)."""
    inner = yield
    return SoloFlow(inner)


@hookimpl
def naqala_adjust_new_game(rules: Rules, state: State) -> State:
    """Yazid's camels go beside the board (Y3)."""
    camels = rules.content.setting("non_player_camels")
    return evolve(state, extras=set_extra(state.extras, CAMELS, camels))


@hookimpl
def naqala_game_ends(rules: Rules, state: State) -> bool:
    """The game ends after the round Yazid placed his last camel (UNCONFIRMED)."""
    return bool(rules.content.setting("yazid_last_camel_ends")) and camels_left(state) == 0


@hookimpl
def naqala_verdict(rules: Rules, state: State) -> Verdict:
    return outcome.verdict(rules, state)


@hookimpl
def naqala_score_lines(rules: Rules, state: State, player: int) -> list[ScoreLine]:
    return outcome.vizier_bonus(rules, state, player)


@hookimpl
def naqala_check_rules(rules: Rules) -> Iterable[str]:
    return checks.rules_problems(rules)


@hookimpl
def naqala_check_state(rules: Rules, state: State) -> Iterable[Problem]:
    return checks.state_problems(rules, state)


@hookimpl
def naqala_public_notes(rules: Rules, state: State) -> list[str]:
    return outcome.notes(rules, state)


@hookimpl
def naqala_display(rules: Rules, state: State) -> Display:
    return outcome.display(rules, state)


@hookimpl
def naqala_native_support() -> bool:
    # kernel/src/solo.rs ports Sultan Yazid, his dice and every hook of this plugin
    return True


@hookimpl
def naqala_action_kinds(rules: Rules) -> list[ActionKind]:
    """The learning interfaces' codec (``naqala.envs.codec``): a solo round's ``bid`` is
    0 (Yazid first) or the sum of his two dice (outbid him), which the base game's bid
    costs do not cover."""
    sides = rules.content.setting("die_sides")
    return [ActionKind("bid", (tuple(str(n) for n in range(2, 2 * sides + 1)),))]
