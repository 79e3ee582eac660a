"""A profiled greedy seat (``greedy:profile=NAME``) as the kernel seats it.

The kernel reads no TOML: the shipped players' own factory reads and checks the profile
(``agents/profile.py``, which this package may not import: it seats players by name
through the rules), and its numbers go to the kernel as the JSON of a seat named
``greedy:profile-json={…}`` (``kernel/src/profile.rs``), whose greedy player then plays
the profiled player's game decision for decision.
"""

from __future__ import annotations

import json

from naqala.core.engine import Rules

#: the kernel's seat name of a profiled greedy player, before the profile's JSON
SEAT_PREFIX = "greedy:profile-json="


def kernel_seat(rules: Rules, seat: str) -> str:
    """``seat`` as the kernel names it: a profiled greedy seat with its profile's numbers
    as JSON; any other seat (and a profile the player does not take) unchanged. Read
    once per rules and seat."""
    name = seat.removeprefix("ai:")
    kind, _, setting = name.partition(":")
    if kind != "greedy" or setting.partition("=")[0].strip().lower() != "profile":
        return seat  # the word read in any case, as the greedy player's factory reads it
    key = f"naqala.native.profile:{name}"
    if key not in rules.memo:
        found = seat
        factory = rules.agents.get(kind)
        try:
            profile = getattr(factory(0, setting), "profile", None) if factory else None
        except ValueError:  # a profile the player refuses: the seat says so itself
            profile = None
        if profile is not None:
            numbers = {
                "tribes": dict(profile.tribes),
                "tiles": dict(profile.tiles),
                "djinns": dict(profile.djinns),
                "bid_share": profile.bid_share,
                "bid_max": profile.bid_max,
                "never_kill": profile.never_kill,
            }
            found = SEAT_PREFIX + json.dumps(numbers, sort_keys=True)
        rules.memo[key] = found
    answer: str = rules.memo[key]
    return answer
