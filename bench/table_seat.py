"""What a native AI seat at the table costs beyond the kernel's own choice: the JSON
handover it made at every decision before (``to_native``, then the notations matched
back) against the native state the table now keeps beside its Python one (``NativeTable``,
told every action the table applies), in one process.

Whole games of ``--players`` greedy seats are played at a table as ``naqala play`` plays
them (the game on the Python engine). At each native decision, in turn: the kernel's
choice alone on the state already native (a second player of the same name and seed), the
handover way, and the kept-state way; the kept way's cost also counts the native step the
table takes at every action (``follow_play``), shared over the native decisions. CPU time
(``time.process_time``); the means and the 99th percentile of the overheads are printed.

    python bench/table_seat.py [--players 4] [--games 3] [--seat greedy]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

from naqala.core.actions import Action, format_action
from naqala.core.engine import Rules, build_rules
from naqala.core.record import new_record
from naqala.core.state import State
from naqala.native import native
from naqala.native.seated import NativeSeat, follow_play, natively_seated, table_agents
from naqala.native.support import native_rules


def handed_over(rules: Rules, seat: NativeSeat, player: object, state: State) -> Action:
    """The choice as the table made it before: the state handed over as JSON, the
    kernel's notation matched back against the Python options."""
    options = rules.legal_actions(state)
    handed = native_rules(rules).to_native(state)
    notation = handed.legal_actions()[player.choose(handed)]  # type: ignore[attr-defined]
    return next(a for a in options if format_action(a) == notation)


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seat", default="greedy")
    args = parser.parse_args()
    rules = build_rules()
    kernel_alone: list[float] = []
    old: list[float] = []
    new: list[float] = []
    follow_seconds = 0.0
    for game in range(args.games):
        seats = (f"ai:{args.seat}",) * args.players
        record = new_record(rules, 100 + game, args.players, seats)
        agents = natively_seated(
            rules, record.seats, record.seed, table_agents(rules, record, "python")
        )
        twins = [native().NativePlayer(args.seat, 0) for _ in agents]
        old_players = [native().NativePlayer(args.seat, 0) for _ in agents]
        state = rules.new_game(args.players, record.seed)
        while not state.is_over:
            seat_index = state.decision.player
            seat = agents[seat_index]
            assert isinstance(seat, NativeSeat)
            options = rules.legal_actions(state)
            start = time.process_time()
            chosen = seat.choose(rules, state, options)
            new.append(time.process_time() - start)
            ready = seat.table.native(state)  # the kept state: no handover here
            start = time.process_time()
            twins[seat_index].choose(ready)
            kernel_alone.append(time.process_time() - start)
            start = time.process_time()
            handed_over(rules, seat, old_players[seat_index], state)
            old.append(time.process_time() - start)
            after = rules.apply(state, chosen)
            start = time.process_time()
            follow_play(agents, state, chosen, after)
            follow_seconds += time.process_time() - start
            state = after
    follow = follow_seconds / len(new)
    base = statistics.mean(kernel_alone)
    old_over = [o - k for o, k in zip(old, kernel_alone, strict=True)]
    new_over = [n + follow - k for n, k in zip(new, kernel_alone, strict=True)]
    ratio = statistics.mean(old_over) / statistics.mean(new_over)
    print(
        f"{args.players} {args.seat} seats, {args.games} games, {len(new)} decisions "
        f"(CPU time, one process)\n"
        f"  kernel's choice alone   mean {base * 1e3:.3f} ms\n"
        f"  JSON handover overhead  mean {statistics.mean(old_over) * 1e3:.3f} ms, "
        f"p99 {percentile(old_over, 0.99) * 1e3:.3f} ms\n"
        f"  kept native state       mean {statistics.mean(new_over) * 1e3:.3f} ms, "
        f"p99 {percentile(new_over, 0.99) * 1e3:.3f} ms "
        f"(of which following the table {follow * 1e3:.3f} ms)\n"
        f"  overhead ratio handover/kept {ratio:.1f}×"
    )


if __name__ == "__main__":
    main()
