"""A Python ``State`` built from the kernel's form of a native state, and written into it.

A hook that takes or returns a whole ``State`` (``naqala_adjust_new_game``, a view's
``full_state()``) is handed one natively played state: writing it as state JSON, parsing
and structuring that with cattrs, and back again for its answer cost a hundred times the
native new game. The kernel hands over instead the state's *form* (kernel/src/py_state.rs):
tuples that mirror ``core/state.py``'s classes field by field, in their order, from which
the ``State`` is built with its own constructors, and the answer goes back in the same form.

This is a trusted path between the two engines inside one process, not a format: nothing
checks a form here. The kernel made the state it writes (it checked it when it made it),
and it checks the form it reads back as strictly as a state file (the shape, sizes and
ranges, known ids, then what the state means). ``core/serialize.py`` stays the one reader
and writer of files; tests/test_state_form.py proves both paths give the same states.
"""

from __future__ import annotations

from typing import Any

from naqala.core.engine import Rules
from naqala.core.rng import Rng
from naqala.core.state import (
    Board,
    Decision,
    Deck,
    Layout,
    PlayerState,
    State,
    Turn,
    TurnValue,
)

#: the form of a ``State`` (kernel/src/py_state.rs names each part)
Form = tuple[Any, ...]


def state_of_form(rules: Rules, form: Form) -> State:
    """The ``State`` whose form the kernel wrote (``NativeState.form()``)."""
    (
        ruleset,
        (rows, cols, tiles, blocked, walls),
        (meeples, owners, tokens),
        players,
        bag,
        pool,
        decks,
        markers,
        bid_track,
        turn_track,
        (stage, player),
        (seed, counter),
        round_,
        turn,
        flags,
        extras,
    ) = form
    return State(
        ruleset,
        Layout(rows, cols, tiles, frozenset(blocked), frozenset(walls)),
        Board(meeples, owners, tokens),
        tuple([PlayerState(*p) for p in players]),
        bag,
        pool,
        tuple([Deck(*d) for d in decks]),
        markers,
        bid_track,
        turn_track,
        Decision(stage, player),
        Rng(seed, counter),
        round_,
        None if turn is None else _turn(rules, turn),
        flags,
        extras,
    )


def _turn(rules: Rules, form: Form) -> Turn:
    """The turn of a form, the plugins' fields sorted by name and each left out at its
    default, as ``Turn.fields`` keeps them."""
    marker, start, path, hand, colour, taken, used, revealed, resume, callers, fields = form
    declared = rules.turn_fields
    kept: list[tuple[str, TurnValue]] = [
        (name, value) for name, value in fields if value != declared[name].default
    ]
    fields = tuple(sorted(kept))
    return Turn(marker, start, path, hand, colour, taken, used, revealed, resume, callers, fields)


def form_of(state: State) -> Form:
    """The form of ``state``, as the kernel reads it (``Kernel.state_of_form``)."""
    layout, board, turn = state.layout, state.board, state.turn
    return (
        state.ruleset,
        (layout.rows, layout.cols, layout.tiles, sorted(layout.blocked), sorted(layout.walls)),
        (board.meeples, board.owners, board.tokens),
        [(p.coins, p.camels, p.meeples, p.hands, p.extras) for p in state.players],
        state.bag,
        state.pool,
        [(d.draw, d.row, d.discard) for d in state.decks],
        state.markers,
        state.bid_track,
        state.turn_track,
        (state.decision.stage, state.decision.player),
        (state.rng.seed, state.rng.counter),
        state.round,
        None if turn is None else _turn_form(turn),
        state.flags,
        state.extras,
    )


def _turn_form(turn: Turn) -> Form:
    return (
        turn.marker,
        turn.start,
        turn.path,
        turn.hand,
        turn.colour,
        turn.taken,
        turn.used,
        turn.revealed,
        turn.resume,
        turn.callers,
        turn.fields,
    )
