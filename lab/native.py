"""One game of a study played on the native engine, with the result the Python game gives.

The whole game runs in one kernel call (``NativeState.play``: setup, every seat's choice,
the scores at the end of each round; a plugin's player is called back at its own seat's
decisions, ``naqala.native.callbacks.seat_function``); the result comes back as plain data
(``NativeState.reading``, ``kernel/src/reading.rs``): each seat's score lines, the
winners, the end flags, the cards' effects, the djinns held and the tiles' worth, and the
first bidders of the new game, and every decision (``naqala.lab.game_stats``).
``GameResult`` is built from them as ``result_of`` builds
it from a Python state, with no Python state made. Where the kernel does not write every
score line of the rules (solo mode, whose verdict is its own; a plugin's deck or scoring
hook), the final state is converted once (its shape checked, not its meaning: the
differential harness proves the kernel's states the Python engine's) and read as a Python
game's. A study plays here only when its engine was chosen native for its rules and seats
(the engine plan, ``naqala.native.plan``, weighed by ``naqala.native.choice.choose``), so
the result is the Python engine's, game for game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from naqala.core.engine import Rules
from naqala.core.simulate import agent_seed
from naqala.lab.agents import study_agent
from naqala.lab.game_stats import play_stats
from naqala.lab.results import GameResult, result_of
from naqala.native.callbacks import SeatFunction, seat_function, state_reader
from naqala.native.choice import AUTO, NATIVE, choose
from naqala.native.plan import plugin_player
from naqala.native.profiles import kernel_seat
from naqala.native.report import seat_tally
from naqala.native.support import native_rules

if TYPE_CHECKING:
    from naqala.lab.study import Study
    from naqala.native._native import NativeState


def plays_native(study: Study, rules: Rules) -> bool:
    """Whether ``study``'s games play natively: ``native`` always (the command checked
    it), ``python`` never, ``auto`` when its rules and seats can (asked once per rules)."""
    if study.engine != AUTO:
        return study.engine == NATIVE
    key = f"naqala.lab.auto:{','.join(study.seats)}"
    if key not in rules.memo:
        rules.memo[key] = choose(rules, AUTO, study.seats).engine == NATIVE
    found: bool = rules.memo[key]
    return found


def play_native(
    rules: Rules, players: int, seed: int, names: Sequence[str], record: bool = True
) -> GameResult:
    """The result of the game of ``players`` from ``seed`` with the agents ``names`` by
    seat, played natively (``NotImplementedError`` naming what the kernel lacks); with
    ``record``, its decisions too (``GameResult.play``)."""
    bridge = native_rules(rules)
    start = bridge.new_game(players, seed)
    seats = [(kernel_seat(rules, name), agent_seed(seed, seat)) for seat, name in enumerate(names)]
    asked = called_back_seats(rules, seed, names)
    reader = None if asked is None else state_reader(rules)  # a view's full_state()
    if record:
        final, actions, rounds, decisions = start.play_recorded(seats, asked, reader)
    else:
        (final, actions, rounds), decisions = start.play(seats, asked, reader), []
    first = tuple(start.first_bidders())
    played = [tuple(scores) for scores in rounds]
    read = read_natively(rules, final, seed, actions, names, first, played)
    if read is None:
        state = bridge.to_python(final, meaning=False)  # proven the Python engine's state
        read = result_of(rules, state, seed, actions, names, first, played)
    if not record:
        return read
    return attrs.evolve(read, play=play_stats(decisions, players, read.rounds))


def called_back_seats(
    rules: Rules, seed: int, names: Sequence[str]
) -> list[SeatFunction | None] | None:
    """By seat, what the kernel calls at the decisions of a plugin's player (the agent
    the Python game would seat, seeded alike), None for the kernel's own; None when every
    seat is the kernel's."""
    key = f"naqala.lab.plugin_seats:{','.join(names)}"
    if key not in rules.memo:  # asked once per rules and seats, not at every game
        rules.memo[key] = any(plugin_player(rules, name) is not None for name in names)
    if not rules.memo[key]:
        return None
    asked: list[SeatFunction | None] = [
        None
        if plugin_player(rules, name) is None
        else seat_function(
            rules,
            study_agent(rules, name, agent_seed(seed, seat)),
            seat_tally(rules, name.partition(":")[0]),
        )
        for seat, name in enumerate(names)
    ]
    return asked if any(asked) else None


def read_natively(
    rules: Rules,
    final: NativeState,
    seed: int,
    actions: int,
    agents: Sequence[str],
    first_order: Sequence[int],
    round_scores: Sequence[tuple[int, ...]],
) -> GameResult | None:
    """``result_of`` the finished native game ``final``, from the kernel's plain data;
    None when the kernel does not write every score line of these rules."""
    reading = final.reading()
    if reading is None:
        return None
    rounds, lines, scores, winners, flags, effect_counts, djinns, tile_points, verdict = reading
    if "naqala.lab.plugin_ids" not in rules.memo:  # once per rules, not at every game
        rules.memo["naqala.lab.plugin_ids"] = frozenset(rules.ruleset)
    plugins: frozenset[str] = rules.memo["naqala.lab.plugin_ids"]
    effects = dict(effect_counts)
    categories = []
    for sheet in lines:  # plain dicts: a Counter per seat was a fifth of the reading
        totals: dict[str, int] = {}
        for category, source, points in sheet:
            totals[category] = totals.get(category, 0) + points
            if points and source not in plugins:
                effects[source] = effects.get(source, 0) + 1  # a card that changed a line
        categories.append(totals)
    final_scores = tuple(scores)
    return GameResult(
        seed=seed,
        rounds=rounds,
        actions=actions,
        scores=final_scores,
        winners=tuple(winners),
        categories=tuple(categories),
        flags=tuple(flags),
        effects=effects,
        agents=tuple(agents),
        start_order=tuple(first_order),
        verdict=verdict,  # a verdict hook's kind, when the kernel calls one back
        round_scores=(*round_scores, final_scores),
        djinns=tuple(tuple(held) for held in djinns),
        tile_points=tuple(dict(points) for points in tile_points),
    )
