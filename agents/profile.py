"""A style of play as data: the TOML player profile the greedy player reads
(``ai:greedy:profile=NAME`` or ``=PATH``).

The greedy player judges a move by the score it leaves; a profile adds its tastes in
points, so a designer can describe a builder, an assassin or a merchant without code:

- ``[tribes]``: points per meeple of that colour a move takes (``blue = 2``: each builder
  taken is worth two more points to this player than the score says);
- ``[tiles]``: points for claiming a tile of that kind (``oasis = 3``);
- ``[djinns]``: points for taking that djinn (``jafaar = 5``), by id;
- ``[bid]``: ``share``, the most of the best move's gain it pays for turn order (the
  greedy player's 0.25), and ``max``, the dearest bid it ever makes in coins;
- ``[restrict]``: ``never_kill``, never a move whose meeples are assassins (when
  another move is allowed).

A profile is bounded like every file a person hands over (``naqala.core.files``) and
checked in full: an unknown table or key, a colour or tile kind the rules do not have, a
weight that is no number or out of range is one line naming the file and the key.
Shipped profiles live in ``agents/profiles/`` and are named without a path.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from naqala.core.documents import DocumentError, parse_toml
from naqala.core.files import FileRefused, read_text_bounded

#: the shipped profiles' folder
SHIPPED = Path(__file__).resolve().parent / "profiles"
#: the most bytes of a profile
PROFILE_LIMIT = 64 * 1024
#: the largest weight in points (a weight beyond it is no taste but a bug)
MAX_WEIGHT = 100.0
#: the tables a profile may have and their keys (None: any colour or tile kind)
TABLES: dict[str, tuple[str, ...] | None] = {
    "profile": ("name", "description"),
    "tribes": None,
    "tiles": None,
    "djinns": None,
    "bid": ("share", "max"),
    "restrict": ("never_kill",),
}


class ProfileError(ValueError):
    """A profile that cannot be read or says something wrong, in one line."""


@attrs.frozen
class Profile:
    """A player profile, checked."""

    name: str
    tribes: Mapping[str, float] = attrs.field(factory=dict)
    tiles: Mapping[str, float] = attrs.field(factory=dict)
    djinns: Mapping[str, float] = attrs.field(factory=dict)
    bid_share: float = 0.25
    bid_max: int | None = None
    never_kill: bool = False


def profile_path(text: str) -> Path:
    """A shipped profile by name (``builder``, in any case), else the path given."""
    shipped = SHIPPED / f"{text.lower()}.toml"
    if "/" not in text and "." not in text and shipped.is_file():
        return shipped
    return Path(text)


def load_profile(
    text: str,
    colours: tuple[str, ...] | None = None,
    tiles: tuple[str, ...] | None = None,
    djinns: tuple[str, ...] | None = None,
) -> Profile:
    """The profile ``text`` names (a shipped name or a path), checked against the
    ``colours``, tile kinds ``tiles`` and djinn ids ``djinns`` when given."""
    path = profile_path(text)
    try:
        source = read_text_bounded(path, PROFILE_LIMIT, "a player profile")
        document = parse_toml(source)
    except (FileRefused, DocumentError, OSError) as exc:
        raise ProfileError(f"profile {text}: {exc}") from None
    return check_document(text, document, colours, tiles, djinns)


def _number(where: str, value: Any, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ProfileError(f"{where}: a number, not {value!r}")
    if not low <= value <= high:
        raise ProfileError(f"{where}: {value} is not between {low:g} and {high:g}")
    return float(value)


def _weights(
    text: str, table: str, entries: Any, known: tuple[str, ...] | None
) -> dict[str, float]:
    weights = {}
    for key, value in entries.items():
        if known is not None and key not in known:
            raise ProfileError(
                f"profile {text}: [{table}] {key}: not one of {', '.join(sorted(known))}"
            )
        weights[key] = _number(f"profile {text}: [{table}] {key}", value, -MAX_WEIGHT, MAX_WEIGHT)
    return weights


def check_document(
    text: str,
    document: dict[str, Any],
    colours: tuple[str, ...] | None,
    tiles: tuple[str, ...] | None,
    djinns: tuple[str, ...] | None = None,
) -> Profile:
    """The profile a parsed TOML ``document`` says, checked in full (``ProfileError``
    naming ``text``): also how ``naqala tune --profile`` checks each knob's values."""
    for table, entries in document.items():
        if table not in TABLES:
            raise ProfileError(
                f"profile {text}: unknown table [{table}]; tables are {', '.join(TABLES)}"
            )
        if not isinstance(entries, dict):
            raise ProfileError(f"profile {text}: {table} must be a table")
        keys = TABLES[table]
        unknown = [k for k in entries if keys is not None and k not in keys]
        if unknown:
            raise ProfileError(
                f"profile {text}: [{table}] has no key {unknown[0]!r}; "
                f"keys are {', '.join(keys or ())}"
            )
    bid = document.get("bid", {})
    bid_max = bid.get("max")
    if bid_max is not None and (
        isinstance(bid_max, bool) or not isinstance(bid_max, int) or not 0 <= bid_max <= 1000
    ):
        raise ProfileError(
            f"profile {text}: [bid] max: a whole number of coins 0 to 1000, not {bid_max!r}"
        )
    never_kill = document.get("restrict", {}).get("never_kill", False)
    if not isinstance(never_kill, bool):
        raise ProfileError(
            f"profile {text}: [restrict] never_kill: true or false, not {never_kill!r}"
        )
    name = document.get("profile", {}).get("name", text)
    if not isinstance(name, str):
        raise ProfileError(f"profile {text}: [profile] name must be text")
    return Profile(
        name=name,
        tribes=_weights(text, "tribes", document.get("tribes", {}), colours),
        tiles=_weights(text, "tiles", document.get("tiles", {}), tiles),
        djinns=_weights(text, "djinns", document.get("djinns", {}), djinns),
        bid_share=_number(f"profile {text}: [bid] share", bid.get("share", 0.25), 0.0, 10.0),
        bid_max=bid_max,
        never_kill=never_kill,
    )
