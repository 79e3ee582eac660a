"""The seats of a study: agent names resolved by the study's own rules
(``naqala.core.agents``), so a player a house rule adds plays in a study too, in a worker
process as well (it rebuilds the rules, house rules and all, from the ``Ruleset``)."""

from __future__ import annotations

from naqala.core.actions import shorten
from naqala.core.agents import HUMAN, Agent, canonical_seat, make_agent
from naqala.core.engine import Rules


def seat_name(rules: Rules, raw: str) -> str:
    """The agent name of a seat as ``--seats`` or ``naqala play`` writes it: ``greedy``,
    ``ai:greedy`` and ``ai`` (the greedy agent) all name ``greedy``; a setting follows a
    colon (``mcts:2000``). ``SeatError`` (a ValueError) with ``naqala play``'s message for
    a seat no player of ``rules`` answers to, and for ``human``: a study has no people."""
    seat = canonical_seat(rules, raw)
    if seat == HUMAN:
        raise ValueError(f"seat {shorten(raw.strip())!r}: a study seats AI players only")
    return seat.removeprefix("ai:")


def study_agent(rules: Rules, name: str, seed: int) -> Agent:
    """A fresh agent for one seat of one game."""
    return make_agent(rules, name, seed)
