"""What a sound state of the Thieves looks like (hook ``naqala_check_state``) and the
public lines about them (hook ``naqala_public_notes``)."""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.core.state import State, get_extra, turn_owner
from naqala.core.validate import Problem
from naqala.plugins.thieves.row import thieves_index
from naqala.plugins.thieves.steal import GIVE, GIVEN, KEEP, RUNNING, STEP, VICTIM


def theft_problems(rules: Rules, state: State) -> list[Problem]:
    """The face-up row holds at most ``thieves_row`` thieves; a theft is recorded exactly
    while its owner or a victim decides, and names real cards and opponents."""
    problems: list[Problem] = []
    index = thieves_index(rules)
    if index is not None:
        size = rules.content.setting("thieves_row")
        if len(state.decks[index].row) > size:
            problems.append(Problem("$.decks.thieves.row", f"more than {size} face up"))
    running = [k for k, v in state.extras if k.startswith(RUNNING) and v]
    theft_keys = [k for k, _ in state.extras if k.startswith((RUNNING, VICTIM, GIVEN))]
    deciding = state.decision.stage in (GIVE, KEEP)
    if deciding and len(running) != 1:
        problems.append(Problem("$.extras", f"{state.decision.stage!r} needs one running thief"))
    if not deciding and theft_keys:
        problems.append(Problem(f"$.extras.{theft_keys[0]}", "no theft is in progress"))
    for key, _ in state.extras:
        if key.startswith(GIVEN) and not _known_given(rules, state, key[len(GIVEN) :]):
            problems.append(
                Problem(
                    f"$.extras.{key}", "not a thing given up (tile.<index>, token.<id>, meeples)"
                )
            )
    for key in running:
        card = rules.card_specs.get(key[len(RUNNING) :])
        if card is None or card.deck != "thieves":
            problems.append(Problem(f"$.extras.{key}", "not a thief"))
    if deciding and state.turn is not None:
        owner = turn_owner(state)
        if state.turn.resume != STEP:
            problems.append(Problem("$.turn.resume", f"a theft runs inside {STEP!r}"))
        for key, value in state.extras:
            if not key.startswith(VICTIM) or not value:
                continue
            seat = key[len(VICTIM) :]
            if not seat.isdigit() or int(seat) == owner or int(seat) >= len(state.players):
                problems.append(Problem(f"$.extras.{key}", "not an opponent of the thief"))
        victim = state.decision.player
        if state.decision.stage == GIVE and not get_extra(state.extras, f"{VICTIM}{victim}"):
            problems.append(Problem("$.decision.player", "not an opponent still to give"))
        if state.decision.stage == KEEP and victim != owner:
            problems.append(Problem("$.decision.player", "the thief's owner keeps"))
    return problems


def _known_given(rules: Rules, state: State, what: str) -> bool:
    """Whether ``what`` names something a victim can give up (``steal.given_keys``)."""
    kind, _, name = what.partition(".")
    if kind == "tile":
        return name.isdigit() and int(name) < len(state.layout.tiles)
    if kind == "token":
        return name in rules.token_index
    return what == "meeples"


def notes(rules: Rules, state: State) -> list[str]:
    """The thief face up and the thieves each player holds (they are held face up)."""
    index = thieves_index(rules)
    if index is None:
        return []
    specs = rules.card_specs
    face_up = ", ".join(specs[c].name for c in state.decks[index].row) or "none"
    lines = [f"Thief beside the djinns: {face_up}"]
    for seat, p in enumerate(state.players):
        if p.hand(index):
            held = ", ".join(specs[c].name for c in p.hand(index))
            lines.append(f"Player {seat + 1}'s thieves: {held}")
    return lines
