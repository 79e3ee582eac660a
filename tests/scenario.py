"""Helpers for scenario tests: start from a real game and set up exactly the position a
rule talks about (tiles, meeples, holdings, whose turn it is)."""

from __future__ import annotations

import functools
from collections.abc import Mapping

import attrs

from naqala.core.actions import Action, parse_action
from naqala.core.engine import Rules, build_rules
from naqala.core.state import NOBODY, Counts, Decision, State, Turn


@functools.cache
def base_rules() -> Rules:
    return build_rules()


def counts(rules: Rules, letters: str) -> Counts:
    return tuple(letters.count(letter) for letter in rules.letters)


def board(
    rules: Rules,
    state: State,
    meeples: Mapping[str, str] | None = None,
    *,
    clear: bool = False,
    tiles: Mapping[str, str] | None = None,
    owners: Mapping[str, int] | None = None,
) -> State:
    """Set meeples (tile name → letters), tile ids and owners; ``clear`` empties every tile
    not named in ``meeples`` first. Meeples removed from or added to the board go to or
    come from the bag, so meeple totals stay conserved."""
    geo = state.geometry
    grid = list(state.board.meeples)
    bag = list(state.bag)
    empty = (0,) * len(rules.letters)
    named = {geo.parse(k): counts(rules, v) for k, v in (meeples or {}).items()}
    for i in range(len(grid)):
        if clear or i in named:
            new = named.get(i, empty)
            for c in range(len(bag)):
                bag[c] += grid[i][c] - new[c]
            grid[i] = new
    layout_tiles = list(state.layout.tiles)
    for name, tile_id in (tiles or {}).items():
        index = geo.parse(name)
        other = layout_tiles.index(tile_id)
        layout_tiles[other], layout_tiles[index] = layout_tiles[index], tile_id
    owner_list = list(state.board.owners)
    for name, player in (owners or {}).items():
        owner_list[geo.parse(name)] = player
    assert all(n >= 0 for n in bag), "more meeples placed than the bag holds"
    return attrs.evolve(
        state,
        layout=attrs.evolve(state.layout, tiles=tuple(layout_tiles)),
        board=attrs.evolve(state.board, meeples=tuple(grid), owners=tuple(owner_list)),
        bag=tuple(bag),
    )


def player(rules: Rules, state: State, index: int, *, meeples: str | None = None, **fields: object) -> State:
    """Change a player's holdings: ``coins``, ``camels``, ``cards`` (sorted for you),
    ``djinns``, ``meeples`` as letters (taken from / returned to the bag)."""
    p = state.players[index]
    if "cards" in fields:
        fields["cards"] = tuple(sorted(fields["cards"]))  # type: ignore[arg-type]
    if "djinns" in fields:
        fields["djinns"] = tuple(fields["djinns"])  # type: ignore[arg-type]
    bag = state.bag
    if meeples is not None:
        new = counts(rules, meeples)
        bag = tuple(b + old - n for b, old, n in zip(bag, p.meeples, new, strict=True))
        fields["meeples"] = new
    return attrs.evolve(state.replace_player(index, attrs.evolve(p, **fields)), bag=bag)


def turn_of(rules: Rules, state: State, seat: int, stage: str = "pick") -> State:
    """The position at the start of player ``seat``'s turn (their marker already moved to
    the bid track), waiting at ``stage``; no other marker left to play this round."""
    marker = state.markers.index(seat)
    state = attrs.evolve(
        state,
        turn_track=(NOBODY,) * len(state.turn_track),
        bid_track=(marker,) + tuple(m for m in range(len(state.markers)) if m != marker),
        turn=Turn(marker=marker),
        decision=Decision(stage, seat),
    )
    return state


def play(rules: Rules, state: State, *actions: str) -> State:
    """Apply actions written in notation, each checked for legality."""
    for text in actions:
        state = rules.apply(state, parse_action(text))
    return state


def options(rules: Rules, state: State, kind: str | None = None) -> list[str]:
    """The legal actions (of one kind) as notation strings."""
    return [str(a) for a in rules.legal_actions(state) if kind is None or a.kind == kind]


def act(text: str) -> Action:
    return parse_action(text)
