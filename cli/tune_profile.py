"""``naqala tune --profile``: the player profile tuned and its ``--knob``s, read and
checked here, where the command may use the players (the lab never imports them).

Every knob's lowest and highest value, set alone in the base profile, must make a
profile the rules accept (a colour, tile kind or djinn these rules have, a weight within
±100, a share within 0 to 10, a bid cap in whole coins), so a bad name or range is one
line naming the ``--knob`` before any game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from naqala.agents.profile import PROFILE_LIMIT, ProfileError, check_document, profile_path
from naqala.core.documents import DocumentError, parse_toml
from naqala.core.engine import Rules
from naqala.core.files import FileRefused, read_text_bounded
from naqala.lab.profile_space import ProfileSpace, ProfileSpaceError, parse_knob, with_point
from naqala.lab.space import MAX_KNOBS


def vocabulary(rules: Rules) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The colours, tile kinds and djinn ids of ``rules`` (what a knob may name)."""
    colours = tuple(colour.id for colour in rules.colours)
    tiles = tuple(sorted({spec.kind for spec in rules.tile_specs.values()}))
    djinns = tuple(sorted(card.id for card in rules.content.deck("djinns")))
    return colours, tiles, djinns


def _read(text: str) -> tuple[str, dict[str, Any]]:
    path = profile_path(text)
    try:
        source = read_text_bounded(path, PROFILE_LIMIT, "a player profile")
        return source, parse_toml(source)
    except (FileRefused, DocumentError, OSError) as exc:
        said = str(exc)  # a refused file is named by its path already
        named = said if said.startswith(str(path)) else f"{path}: {said}"
        raise ProfileSpaceError(f"--profile {named}") from None


def profile_space(profile: str, knobs: Sequence[str], rules: Rules) -> ProfileSpace:
    """The base profile ``profile`` (a shipped name or a path) and the ``--knob``s,
    every value checked by the profile's rules against ``rules``' vocabulary."""
    source, document = _read(profile)
    colours, tiles, djinns = vocabulary(rules)
    try:
        check_document(profile, document, colours, tiles, djinns)
    except ProfileError as exc:
        raise ProfileSpaceError(f"--{exc}") from None  # "--profile NAME: why"
    if not knobs:
        raise ProfileSpaceError("--profile needs at least one --knob TABLE.KEY=LOW:HIGH")
    if len(knobs) > MAX_KNOBS:
        raise ProfileSpaceError(f"{len(knobs)} knobs; a tune takes at most {MAX_KNOBS}")
    parsed = [parse_knob(text) for text in knobs]
    names = [knob.name for knob in parsed]
    for text, knob in zip(knobs, parsed, strict=True):
        if names.count(knob.name) > 1:
            raise ProfileSpaceError(f"--knob {knob.name} is given twice")
        for value in sorted({min(knob.choices), max(knob.choices)}):
            trial = with_point(document, {knob.name: value})
            try:
                check_document(text, trial, colours, tiles, djinns)
            except ProfileError as exc:
                reason = str(exc).removeprefix(f"profile {text}: ")
                raise ProfileSpaceError(f"--knob {text}: {reason}") from None
    return ProfileSpace(profile, source, parsed)
