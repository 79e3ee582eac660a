"""Python states to native states and back, through state JSON.

A ``NativeRules`` is the kernel built from one ``Rules``' content. ``to_native`` hands a
Python ``State`` over as its state JSON; ``to_python`` reads the kernel's state JSON back
with ``core/serialize.py`` (which checks what it means), so a native state becomes a
Python one through the one document both engines must write identically; where the
caller trusts the kernel (``meaning=False``) it is built from the kernel's form of it
(``naqala.native.state_form``), which tests/test_state_form.py proves the same.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from naqala.core.engine import Rules
from naqala.core.serialize import state_from_data, state_to_data
from naqala.core.state import State
from naqala.native import native
from naqala.native.callbacks import state_reader
from naqala.native.content import content_data
from naqala.native.state_form import state_of_form

if TYPE_CHECKING:  # the extension is optional: its types are only named here
    from naqala.native._native import Kernel, NativeState


class NativeRules:
    """The kernel for one ``Rules``: it reads that content once."""

    def __init__(
        self, rules: Rules, callbacks: Sequence[tuple[str, Callable[..., Any]]] = ()
    ) -> None:
        """``callbacks``: the plugin hooks the kernel calls back, ``(hook, function)``
        (``naqala.native.callbacks``)."""
        self.rules = rules
        content = json.dumps(content_data(rules))
        reader = state_reader(rules) if callbacks else None
        self.kernel: Kernel = native().Kernel(content, list(callbacks) or None, reader)

    def called_back(self) -> list[tuple[str, int, int, float]]:
        """Each hook the kernel has asked so far: ``(hook, asked, calls, seconds)``; a
        question asked again of what the hook read before is answered from memory, not
        called (docs/hooks.md, "Answers remembered")."""
        return self.kernel.called_back()

    def to_native(self, state: State) -> NativeState:
        """The native state of ``state``; ``ValueError`` naming the JSON path of what the
        kernel cannot hold."""
        return self.kernel.state(json.dumps(state_to_data(self.rules, state)))

    def new_game(self, players: int, seed: int) -> NativeState:
        """A new game set up natively, as ``rules.new_game(players, seed)``;
        ``NotImplementedError`` where the kernel cannot set it up (a board with terrain)."""
        return self.kernel.new_game(players, seed)

    def data(self, state: NativeState) -> dict[str, Any]:
        """The native state's state JSON, as plain data."""
        data: dict[str, Any] = json.loads(state.to_json())
        return data

    def to_python(self, state: NativeState, meaning: bool = True) -> State:
        """The Python ``State`` of a native state, checked as any state file is, or with
        ``meaning=False`` built from the kernel's form of it, unchecked
        (``naqala.native.state_form``: the lab's final states, which the kernel made)."""
        if not meaning:
            return state_of_form(self.rules, state.form())
        return state_from_data(self.data(state), self.rules)[1]
