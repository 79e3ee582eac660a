"""Which players' hidden holdings a picture may show: the one place that decides it, so
that it can follow the engine's notion of a seat's view."""

from __future__ import annotations

from naqala.core.state import State


def shown_seats(state: State, seat: int | None, reveal: bool = False) -> frozenset[int]:
    """The seats whose coins and cards a picture of ``state`` shows: every seat at the end
    of the game or when ``reveal`` is asked for (a finished replay), else only ``seat``'s
    own (none for a public picture, ``seat=None``)."""
    if reveal or state.is_over:
        return frozenset(range(len(state.players)))
    if seat is not None and 0 <= seat < len(state.players):
        return frozenset({seat})
    return frozenset()
