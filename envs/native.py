"""The environments on the native engine: whether a ruleset can run there, and the
kernel's environment engine for it (``naqala.native._native.EnvKernel``), which steps
games by codec index and computes observations and masks natively.

The kernel gets the numbering from here, computed once from the rules by the very code
the Python encoder and codec use (``_Shape``, the codec's ``decode``): which square,
card, stage or spot each number stands for. The kernel only reads a state into those
places, so both engines give the same numbers (a test compares them over many states).
"""

from __future__ import annotations

import json
import weakref
from typing import TYPE_CHECKING, Any

from naqala.core.encoding import card_ids
from naqala.core.engine import Rules
from naqala.core.views import hidden_decks
from naqala.envs.codec import codec_for
from naqala.envs.observation import ObservationEncoder, _Shape, encoder_for
from naqala.plugins.artisans.tents import PIECE
from naqala.plugins.whims.cities import CITY, WHIMS
from naqala.plugins.whims.whims import CLAIMED

if TYPE_CHECKING:  # the extension is optional: its types are only named here
    from naqala.native._native import EnvKernel

#: the encoder's own parts and the base game's the kernel reads, in the order the base
#: game's rules give them
BASE_PARTS = (
    "board",
    "players",
    "bag",
    "bank",
    "decks",
    "tracks",
    "decision",
    "turn",
    "end-triggers",
)

#: the plugins' parts of one player counter per slot, by part name: the counter each
#: shows (the Artisans' tents to place, the whims each player has claimed)
COUNTER_PARTS = {"tents": PIECE, "whims-claimed": CLAIMED}
#: the Whims' part of which whim lies on which city
WHIMS_ON_CITIES = "whims-on-cities"
#: every part the kernel reads, in whatever order the rules give them
NATIVE_PARTS = frozenset((*BASE_PARTS, *COUNTER_PARTS, WHIMS_ON_CITIES))


def native_blocker(rules: Rules) -> str | None:
    """Why the environments of ``rules`` cannot run on the native engine, or None when
    they can: the engine plan's answer for them (``naqala.native.plan``: the rules run
    native, and no plugin the kernel does not implement adds observation parts or action
    kinds), and every observation part one the kernel reads. Answered once per rules
    object."""
    if rules not in _BLOCKERS:
        _BLOCKERS[rules] = _blocker(rules)
    return _BLOCKERS[rules]


def _blocker(rules: Rules) -> str | None:
    from naqala.native.plan import plan

    reason = plan(rules).envs.reason
    if reason is not None:
        return reason
    unread = _unread(encoder_for(rules))
    if unread:
        return f"the kernel does not read the observation parts {unread}"
    return None


def _unread(encoder: ObservationEncoder) -> tuple[str, ...]:
    """The parts of ``encoder`` the kernel does not read; the base parts must all be
    there, in order, first (the kernel numbers the others after them as given)."""
    names = tuple(part.name for part in encoder.parts)
    if names[: len(BASE_PARTS)] != BASE_PARTS:
        return tuple(p for p in names if p not in BASE_PARTS) or names
    return tuple(p for p in names if p not in NATIVE_PARTS)


def observation_spec(rules: Rules, encoder: ObservationEncoder) -> dict[str, Any]:
    """The numbering of ``encoder``'s observation as ``kernel/src/observe.rs`` reads it;
    ValueError when the encoder has a part the kernel does not read."""
    names = tuple(part.name for part in encoder.parts)
    unread = _unread(encoder)
    if unread:
        raise ValueError(f"observation parts {unread} are not read natively")
    shape = _Shape.of(rules)
    if tuple(shape.letters) != tuple(c.letter for c in rules.colours):
        raise ValueError("the observation's colours are not in the rules' colour order")
    if list(shape.tokens) != [t.id for t in rules.tokens]:
        raise ValueError("the observation's tokens are not in the rules' token order")
    tiles = list(rules.tile_specs)
    cards = [card.id for card in rules.card_specs.values()]
    hidden = hidden_decks(rules)
    return {
        "squares": list(shape.squares),
        "slots": shape.slots,
        "non_player": shape.non_player,
        "kinds": len(shape.kinds),
        "prefix": [shape.prefix[tile] for tile in tiles],
        "decks": [
            {
                "deck": rules.deck_index[deck],
                "cards": [shape.cards[deck].get(card) for card in cards],
                "size": len(shape.cards[deck]),
                "hidden": rules.deck_index[deck] in hidden,
            }
            for deck in shape.decks
        ],
        "stages": list(shape.stages),
        "bid_spots": shape.bid_spots,
        "turn_spots": shape.turn_spots,
        # the end-trigger part is labelled by its flags
        "flags": next(list(labels) for n, _, _, labels in encoder.layout() if n == "end-triggers"),
        "parts": list(names),
        "size": encoder.size,
        "counters": [{"part": n, "extra": COUNTER_PARTS[n]} for n in names if n in COUNTER_PARTS],
        "whims": _whims_spec(rules, cards) if WHIMS_ON_CITIES in names else None,
    }


def _whims_spec(rules: Rules, cards: list[str]) -> dict[str, Any]:
    """The numbering of ``whims-on-cities`` (``plugins/whims/encoding.py``): each whim's
    number by content card, and which content tiles are cities."""
    whims = {whim: i for i, whim in enumerate(card_ids(rules, WHIMS))}
    return {
        "deck": rules.deck_index[WHIMS],
        "cards": [whims.get(card) for card in cards],
        "size": len(whims),
        "cities": [spec.kind == CITY for spec in rules.tile_specs.values()],
    }


def env_kernel(rules: Rules) -> EnvKernel:
    """The kernel's environment engine for ``rules``, built once per rules object."""
    found = _KERNELS.get(rules)
    if found is None:
        from naqala.native import native
        from naqala.native.content import content_data

        codec = codec_for(rules)
        spec = observation_spec(rules, encoder_for(rules))
        notations = [str(codec.decode(i)) for i in range(codec.size)]
        found = native().EnvKernel(json.dumps(content_data(rules)), json.dumps(spec), notations)
        _KERNELS[rules] = found
    return found


_KERNELS: weakref.WeakKeyDictionary[Rules, EnvKernel] = weakref.WeakKeyDictionary()
_BLOCKERS: weakref.WeakKeyDictionary[Rules, str | None] = weakref.WeakKeyDictionary()
