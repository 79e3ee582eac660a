"""What ``--engine-report`` says: which plugin hooks and players the native engine called
back during a run, how often, and their share of the run's time.

The kernel counts the questions it asks each hook, the calls it makes (an answer it
remembers is not called again), and times them (``NativeRules.called_back``, wall
seconds from its own clock); the lab times a plugin's player at its seat
(``naqala.native.callbacks.SeatTally``, kept with the rules). Both grow for the life of
the rules, so a run is measured as the difference between a snapshot before it and one
after, in the process (and thread) that plays its games.
"""

from __future__ import annotations

from naqala.core.engine import Rules
from naqala.native.callbacks import SeatTally
from naqala.native.plan import NATIVE
from naqala.native.support import native_rules

#: where a rules' player tallies are kept (``seat_tally``)
SEATS_KEY = "naqala.native.seat_tallies"

#: by what was called: (asked, calls, seconds)
Tallies = dict[str, tuple[int, int, float]]


def seat_tally(rules: Rules, player: str) -> SeatTally:
    """The tally of the plugin player ``player`` (``coiny``) in games of ``rules``."""
    kept: dict[str, SeatTally] = rules.memo.setdefault(SEATS_KEY, {})
    return kept.setdefault(player, SeatTally())


def tallies(rules: Rules, engine: str) -> Tallies:
    """Every callback so far, by what was called (``naqala_verdict``, ``the player
    'coiny'``): ``(asked, calls, seconds)``; nothing on the Python engine."""
    if engine != NATIVE:
        return {}
    found: Tallies = {
        hook: (asked, calls, seconds)
        for hook, asked, calls, seconds in native_rules(rules).called_back()
    }
    for player, tally in rules.memo.get(SEATS_KEY, {}).items():
        found[f"the player {player!r}"] = (tally.calls, tally.calls, tally.seconds)
    return found


def report_line(engine: str, games: int, seconds: float, before: Tallies, after: Tallies) -> str:
    """One line: the games, their engine and time, then each callback of the run (the
    questions asked, where answers remembered spared calls, its calls, seconds and share
    of ``seconds``), biggest share first."""
    head = f"engine report: {games:,} games on the {engine} engine in {seconds:.2f} s"
    run = []
    for name, (asked, calls, spent) in after.items():
        was_asked, was_calls, was_spent = before.get(name, (0, 0, 0.0))
        if asked > was_asked:
            run.append((spent - was_spent, asked - was_asked, calls - was_calls, name))
    if not run:
        return f"{head}; nothing called back"
    parts = [
        f"{name} {'' if asked == calls else f'{asked:,} asked, '}{calls:,} calls "
        f"{spent:.3f} s ({spent / max(seconds, 1e-9):.1%})"
        for spent, asked, calls, name in sorted(run, key=lambda found: (-found[0], found[3]))
    ]
    return f"{head}; called back: {', '.join(parts)}"
