"""Turn fields a plugin declares: game words the core's ``Turn`` does not know.

The core's ``Turn`` holds what every rule set's turn has (the marker, the move, the
colour collected, once-per-turn marks, the stages to return to). A plugin that keeps more
for the turn in progress — the base game's assassins their ``reach``, ``kills`` and
``target``, the Artisans the tiles ``claimed`` — declares each such field through the hook
``naqala_turn_fields`` as a ``TurnField``: its name, its kind (a count, a text, a list of
tiles) and its value when unset. The values live in ``Turn.fields``, sorted by name, a
field at its default left out, so two turns that mean the same are equal; the state JSON
writes every declared field of the rules (docs/formats.md) and reads them back.

Plugin code reads and sets a field through its declaration (``REACH.of(turn)``,
``REACH.on(turn, 3)``), a scan of a few pairs: as fast as the hot path needs.
"""

from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar, cast

import attrs

from naqala.core.state import Turn, TurnValue, evolve

V = TypeVar("V", int, str, tuple[int, ...])

#: what a field holds: a count (an int, never negative), a text, or tiles (board indices,
#: written by name in the state JSON)
Kind = Literal["count", "text", "tiles"]

#: the core's own fields of ``Turn`` and keys of the state JSON's ``turn``: no plugin may
#: declare one of these names
CORE_FIELDS = frozenset(f.name for f in attrs.fields(Turn))


@attrs.frozen
class TurnField(Generic[V]):
    """One field a plugin keeps in the turn in progress.

    ``after`` names the key of the state JSON's ``turn`` this field is written after
    (a core key or another declared field), so a field keeps its place in the files
    written before it moved out of the core; empty writes it at the end."""

    name: str
    kind: Kind
    default: V
    doc: str = ""
    after: str = ""

    def of(self, turn: Turn) -> V:
        """This field's value in ``turn`` (its default when unset)."""
        for key, value in turn.fields:
            if key == self.name:
                return cast(V, value)
        return self.default

    def on(self, turn: Turn, value: V) -> Turn:
        """``turn`` with this field set to ``value`` (left out at its default)."""
        return evolve(turn, fields=with_field(turn.fields, self.name, value, self.default))


def fits(field: TurnField[Any], value: object) -> bool:
    """Whether ``value`` is of ``field``'s kind: an int (no bool) for a count, a string
    for a text, a tuple of ints for tiles (whether they lie on the board is the state
    check's question)."""
    if field.kind == "count":
        return isinstance(value, int) and not isinstance(value, bool)
    if field.kind == "text":
        return isinstance(value, str)
    return isinstance(value, tuple) and all(
        isinstance(t, int) and not isinstance(t, bool) for t in value
    )


def with_field(
    fields: tuple[tuple[str, TurnValue], ...], name: str, value: TurnValue, default: TurnValue
) -> tuple[tuple[str, TurnValue], ...]:
    """``fields`` with ``name`` set to ``value``: sorted by name, dropped at ``default``."""
    rest = tuple(pair for pair in fields if pair[0] != name)
    if value == default:
        return rest
    return tuple(sorted((*rest, (name, value))))


def count_field(name: str, default: int = 0, doc: str = "", after: str = "") -> TurnField[int]:
    """A field holding a count (never negative: a state file with one below 0 is refused)."""
    return TurnField(name, "count", default, doc, after)


def text_field(name: str, doc: str = "", after: str = "") -> TurnField[str]:
    """A field holding a text, empty when unset (its meaning checked by its plugin)."""
    return TurnField(name, "text", "", doc, after)


def tiles_field(name: str, doc: str = "", after: str = "") -> TurnField[tuple[int, ...]]:
    """A field holding tiles of the board, in order, none when unset (each must be a tile
    of the board: the state JSON writes them by name)."""
    return TurnField(name, "tiles", (), doc, after)
