"""What plugins tell the picture of a game: the looks of their components and the facts
about a position that the board alone cannot show.

The SVG renderer knows grids, tiles, meeples, tokens, camels, tracks, decks and players,
but no Five Tribes rule: which colour a village is, what a palm tree looks like, which
whim lies on which city, what a turn-order spot costs — each plugin says so for its own
components through the hook ``naqala_display`` (see docs/hooks.md), answering a
:class:`Display`. :func:`collect` merges the answers of all plugins of a game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import cast

import attrs

from naqala.core.engine import Rules
from naqala.core.state import State

__all__ = ["SHAPES", "Display", "Look", "collect", "plugins_with_display", "tile_summary"]

#: the shapes the renderer can draw for a token or a tile's value badge
SHAPES = ("disc", "square", "diamond", "tree", "palace", "tent")


@attrs.frozen
class Look:
    """How one component (a tile kind, a meeple colour, a token kind, a value colour) is
    drawn. ``fill`` and ``ink`` are CSS colours (``#rrggbb``); ``label`` is the short text
    written on it (it must carry the meaning on its own: never colour alone); ``name`` is
    the legend's word; ``shape`` one of :data:`SHAPES`; ``owned`` draws it in the colour
    of the player who owns its tile (a tent) instead of ``fill``; ``says`` what it means
    in play, in one sentence, for the page's list of what each piece does (a tent's
    scoring), or "" when its name says enough."""

    fill: str
    label: str
    name: str = ""
    ink: str = "#222222"
    shape: str = "disc"
    owned: bool = False
    says: str = ""


@attrs.frozen
class Display:
    """One plugin's answer to ``naqala_display``; every field is optional.

    - ``tiles``: looks by tile kind; ``values``: value badges by value colour
      (``blue``…); ``meeples``: looks by colour id; ``tokens``: looks by token id.
    - ``turn_spots``: the label under each spot of the turn-order track (its cost).
    - ``costs``: the words of each cost code a card may carry (``E/F``: ``1 elder or 1
      Fakir``), by code; a code without words is written as it is.
    - ``tile_notes``: text written on a tile in this position, by board index (the whim
      lying on a city).
    - ``rows``: labelled lines of public information for the side panel. A plugin that
      implements ``naqala_display`` shows its public information here: its
      ``naqala_public_notes`` are not repeated in the picture.
    - ``offers``: decks (by name) whose face-up row the side panel draws as cards, after
      the djinns and the resources (the thief beside the djinns).
    - ``aside_title``: the name of the area beside the board where components are set
      aside (``aside.*`` state counters: a non-player opponent's meeples and cards);
      ``aside_lines``: text written in that area's panel under its pieces.
    - ``counter_lines``: a label for the player counters whose names begin with a prefix,
      by prefix (the base game's ``piece.``: ``To place``): a player's panel lists those
      of its counters that are not zero on one line, each named without the prefix.
    """

    tiles: Mapping[str, Look] = attrs.field(factory=dict)
    values: Mapping[str, Look] = attrs.field(factory=dict)
    meeples: Mapping[str, Look] = attrs.field(factory=dict)
    tokens: Mapping[str, Look] = attrs.field(factory=dict)
    turn_spots: tuple[str, ...] = ()
    costs: Mapping[str, str] = attrs.field(factory=dict)
    tile_notes: Mapping[int, str] = attrs.field(factory=dict)
    rows: tuple[tuple[str, str], ...] = ()
    offers: tuple[str, ...] = ()
    aside_title: str = ""
    aside_lines: tuple[str, ...] = ()
    counter_lines: Mapping[str, str] = attrs.field(factory=dict)


def collect(rules: Rules, state: State) -> Display:
    """The answers of every plugin merged in registration order: looks, notes, cost words
    and counter labels by key
    (a later plugin restyles an earlier one's component), the last non-empty turn-order
    labels and area title, the rows, offers and area lines one after another."""
    tiles: dict[str, Look] = {}
    values: dict[str, Look] = {}
    meeples: dict[str, Look] = {}
    tokens: dict[str, Look] = {}
    notes: dict[int, str] = {}
    spots: tuple[str, ...] = ()
    costs: dict[str, str] = {}
    rows: list[tuple[str, str]] = []
    offers: list[str] = []
    aside_title = ""
    aside_lines: list[str] = []
    counter_lines: dict[str, str] = {}
    answers = reversed(rules.hook.naqala_display(rules=rules, state=state))
    for answer in answers:
        if answer is None:
            continue
        tiles.update(answer.tiles)
        values.update(answer.values)
        meeples.update(answer.meeples)
        tokens.update(answer.tokens)
        notes.update(answer.tile_notes)
        spots = answer.turn_spots or spots
        costs.update(answer.costs)
        rows.extend(answer.rows)
        offers.extend(deck for deck in answer.offers if deck not in offers)
        aside_title = answer.aside_title or aside_title
        aside_lines.extend(answer.aside_lines)
        counter_lines.update(answer.counter_lines)
    return Display(
        tiles,
        values,
        meeples,
        tokens,
        spots,
        costs,
        notes,
        tuple(rows),
        tuple(offers),
        aside_title,
        tuple(aside_lines),
        counter_lines,
    )


def plugins_with_display(rules: Rules) -> frozenset[str]:
    """Names of the plugins of ``rules`` that implement ``naqala_display``."""
    return frozenset(impl.plugin_name for impl in rules.hook.naqala_display.get_hookimpls())


def public_notes_without_display(rules: Rules, state: State) -> list[str]:
    """The public notes of the plugins that do not draw themselves through
    ``naqala_display`` (house rules…), in registration order."""
    drawn = plugins_with_display(rules)
    impls = [
        impl
        for impl in rules.hook.naqala_public_notes.get_hookimpls()  # registration order
        if impl.plugin_name not in drawn
    ]
    lines: list[str] = []
    for impl in impls:
        notes = cast(Iterable[str], impl.function(rules=rules, state=state))
        lines.extend(notes)
    return lines


def tile_summary(rules: Rules, kind: str) -> str | None:
    """What a tile of ``kind`` does (its tile action's ``Stage.summary``), or None."""
    stage = rules.stages.get(f"tile:{kind}")
    return stage.summary(rules) if stage is not None else None
