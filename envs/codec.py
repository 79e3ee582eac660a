"""The action codec of a ruleset: every action that can ever occur ↔ an integer in
``range(codec.size)``, and legal-action masks of that size.

The codec is built from what the plugins declare (hook ``naqala_action_kinds``), never
from games played, so the same rules give the same codec in every process. Shapes of the
same kind and arity are united argument by argument; blocks are laid out in order of kind
and arity, and inside a block the arguments count like the digits of a number (the last
argument fastest), each domain in natural order (``a2`` before ``a10``). An action no
plugin declares raises ``CodecError`` naming it and the reason.
"""

from __future__ import annotations

import hashlib
import re
import weakref
from collections.abc import Iterable

import attrs

from naqala.core.actions import Action
from naqala.core.encoding import ActionKind
from naqala.core.engine import Rules
from naqala.core.state import State

_DIGITS = re.compile(r"(\d+)")


def _natural(text: str) -> tuple[tuple[int, int | str], ...]:
    """Numbers compared as numbers (``a2`` before ``a10``, ``3`` before ``12``)."""
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in _DIGITS.split(text) if p)


class CodecError(ValueError):
    """An action, or an index, outside the codec of the rules."""


@attrs.frozen
class Block:
    """The actions of one kind and arity: ``size`` consecutive indices from ``offset``."""

    kind: str
    domains: tuple[tuple[str, ...], ...]
    offset: int
    size: int
    places: tuple[dict[str, int], ...] = attrs.field(eq=False, repr=False)


def _unite(kinds: Iterable[ActionKind]) -> dict[tuple[str, int], list[set[str]]]:
    united: dict[tuple[str, int], list[set[str]]] = {}
    for shape in kinds:
        domains = united.setdefault((shape.kind, len(shape.args)), [set() for _ in shape.args])
        for domain, values in zip(domains, shape.args, strict=True):
            domain.update(values)
    return united


class ActionCodec:
    """Actions ↔ integers for one ruleset. ``encode``, ``decode``, ``size``; ``legal``
    gives the indices of a state's legal actions, ``mask`` a boolean list of ``size``."""

    def __init__(self, rules: Rules) -> None:
        self.ruleset = rules.ruleset
        kinds = [k for group in rules.hook.naqala_action_kinds(rules=rules) for k in group]
        united = _unite(kinds)
        blocks: list[Block] = []
        offset = 0
        for (kind, _arity), sets in sorted(united.items()):
            domains = tuple(tuple(sorted(values, key=_natural)) for values in sets)
            size = 1
            for domain in domains:
                size *= len(domain)
            if size == 0:
                continue
            places = tuple({v: i for i, v in enumerate(d)} for d in domains)
            blocks.append(Block(kind, domains, offset, size, places))
            offset += size
        self.blocks: tuple[Block, ...] = tuple(blocks)
        self.size = offset
        self._by_key = {(b.kind, len(b.domains)): b for b in self.blocks}
        self._cache: dict[Action, int] = {}

    def encode(self, action: Action) -> int:
        """The index of ``action``."""
        index = self._cache.get(action)
        if index is not None:
            return index
        block = self._by_key.get((action.kind, len(action.args)))
        if block is None:
            raise CodecError(
                f"action {action} is not in the codec of {'+'.join(self.ruleset)}: no plugin "
                f"declares the kind {action.kind!r} with {len(action.args)} argument(s) "
                "(hook naqala_action_kinds)"
            )
        index = 0
        for place, (arg, domain) in enumerate(zip(action.args, block.places, strict=True)):
            position = domain.get(arg)
            if position is None:
                raise CodecError(
                    f"action {action} is not in the codec of {'+'.join(self.ruleset)}: "
                    f"argument {place + 1} ({arg!r}) is not among the {len(domain)} values "
                    f"declared for {action.kind!r} (hook naqala_action_kinds)"
                )
            index = index * len(domain) + position
        index += block.offset
        self._cache[action] = index
        return index

    def decode(self, index: int) -> Action:
        """The action numbered ``index``."""
        if not 0 <= index < self.size:
            raise CodecError(f"action index {index} is outside 0..{self.size - 1}")
        low, high = 0, len(self.blocks)
        while high - low > 1:  # the last block starting at or before index
            middle = (low + high) // 2
            if self.blocks[middle].offset <= index:
                low = middle
            else:
                high = middle
        block = self.blocks[low]
        rest = index - block.offset
        args: list[str] = []
        for domain in reversed(block.domains):
            rest, position = divmod(rest, len(domain))
            args.append(domain[position])
        return Action(block.kind, tuple(reversed(args)))

    def legal(self, rules: Rules, state: State) -> list[int]:
        """The indices of the legal actions of ``state``, ascending."""
        return sorted(self.encode(a) for a in rules.legal_actions(state))

    def mask(self, rules: Rules, state: State) -> list[bool]:
        """``size`` booleans, true at the legal actions of ``state``."""
        flags = [False] * self.size
        for index in self.legal(rules, state):
            flags[index] = True
        return flags

    def describe(self) -> list[tuple[str, int, int]]:
        """(kind with arity, first index, count) for every block, in codec order."""
        return [(f"{b.kind}/{len(b.domains)}", b.offset, b.size) for b in self.blocks]

    def fingerprint(self) -> str:
        """A digest of the whole layout: equal fingerprints, equal codecs."""
        digest = hashlib.sha256()
        for block in self.blocks:
            digest.update(repr((block.kind, block.domains, block.offset)).encode())
        return digest.hexdigest()[:16]


def codec_for(rules: Rules) -> ActionCodec:
    """The codec of ``rules``, built once per rules object."""
    codec = _CODECS.get(rules)
    if codec is None:
        codec = _CODECS[rules] = ActionCodec(rules)
    return codec


_CODECS: weakref.WeakKeyDictionary[Rules, ActionCodec] = weakref.WeakKeyDictionary()
