"""The environments on the native engine: whether a ruleset can run there, and the
kernel's environment engine for it (``naqala.kernel._native.EnvKernel``), which steps
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

from naqala.core.engine import Rules
from naqala.core.views import hidden_decks
from naqala.envs.codec import codec_for
from naqala.envs.observation import ObservationEncoder, _Shape, encoder_for

if TYPE_CHECKING:  # the extension is optional: its types are only named here
    from naqala.kernel._native import EnvKernel

#: the encoder's parts the kernel reads, in the order the base game's rules give them
NATIVE_PARTS = (
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


#: the plugins with code whose games the native observation, mask and rewards are
#: proven equal on (tests/test_envs_native.py): a box the kernel plays joins once its
#: observation parts and its verdict are read natively and compared there
PROVEN_PLUGINS = ("base",)


def native_blocker(rules: Rules) -> str | None:
    """Why ``rules`` cannot run on the native engine, or None when they can: the kernel
    must be installed, every plugin's code ported (``support.code_plugins``) and proven
    for the environments (``PROVEN_PLUGINS``), every card in play ported
    (``Kernel.unported_content``) and every observation part one the kernel reads. The
    one place the environments ask, so a rules-level answer can replace it; answered
    once per rules object."""
    if rules not in _BLOCKERS:
        _BLOCKERS[rules] = _blocker(rules)
    return _BLOCKERS[rules]


def _blocker(rules: Rules) -> str | None:
    from naqala import kernel

    if not kernel.available():
        return kernel.unavailable_reason()
    from naqala.core.native import CONTENT_HOOKS
    from naqala.kernel.support import code_plugins

    reasons = code_plugins(rules)
    if reasons:
        return "; ".join(reasons)
    for info in rules.plugins:
        hooks = {caller.name for caller in rules.pm.get_hookcallers(info.module) or ()}
        if info.name not in PROVEN_PLUGINS and hooks - CONTENT_HOOKS:
            return (
                f"the environments' native observations and rewards are not proven with "
                f"plugin {info.name!r} yet (tests/test_envs_native.py)"
            )
    unported = _bridge_kernel(rules).unported_content()
    if unported:
        return f"the kernel has not ported {', '.join(unported)}"
    parts = tuple(part.name for part in encoder_for(rules).parts)
    if parts != NATIVE_PARTS:
        return f"the kernel does not read the observation parts {parts[len(NATIVE_PARTS) :]}"
    return None


def _bridge_kernel(rules: Rules) -> Any:
    from naqala.kernel.bridge import NativeRules

    return NativeRules(rules).kernel


def observation_spec(rules: Rules, encoder: ObservationEncoder) -> dict[str, Any]:
    """The numbering of ``encoder``'s observation as ``kernel/src/observe.rs`` reads it;
    ValueError when the encoder has a part the kernel does not read."""
    names = tuple(part.name for part in encoder.parts)
    if names != NATIVE_PARTS:
        raise ValueError(f"observation parts {names} are not read natively")
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
        # the end-trigger part (the last, as checked above) is labelled by its flags
        "flags": list(encoder.layout()[-1][3]),
        "parts": list(names),
        "size": encoder.size,
    }


def env_kernel(rules: Rules) -> EnvKernel:
    """The kernel's environment engine for ``rules``, built once per rules object."""
    found = _KERNELS.get(rules)
    if found is None:
        from naqala.kernel import native
        from naqala.kernel.content import content_data

        codec = codec_for(rules)
        spec = observation_spec(rules, encoder_for(rules))
        notations = [str(codec.decode(i)) for i in range(codec.size)]
        found = native().EnvKernel(json.dumps(content_data(rules)), json.dumps(spec), notations)
        _KERNELS[rules] = found
    return found


_KERNELS: weakref.WeakKeyDictionary[Rules, EnvKernel] = weakref.WeakKeyDictionary()
_BLOCKERS: weakref.WeakKeyDictionary[Rules, str | None] = weakref.WeakKeyDictionary()
