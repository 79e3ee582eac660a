"""The powers of the base djinns that are code (the others are content: ``[[power]]``
in content/base.toml, interpreted by ``naqala.plugins.base.effects``).

Each djinn in content names a ``kind``; ``djinn_powers`` maps every base kind to its
``Power`` (keyed ``djinns:<kind>`` for ``naqala_card_powers``). The one card router
(``naqala.plugins.base.cards``) asks them, so a djinn added by an expansion takes part
exactly like a base one.
"""

from __future__ import annotations

from naqala.core.effects import nested
from naqala.core.engine import Rules
from naqala.core.powers import Power
from naqala.core.stage import Stage
from naqala.plugins.base.common import KEEP_DJINN, TAKE_DJINN
from naqala.plugins.base.djinns.activated import KeepDjinn, Kumarbi, TakeDjinn


def djinn_powers() -> dict[str, Power]:
    return {f"djinns:{kind}": power for kind, power in _powers().items()}


def _powers() -> dict[str, Power]:
    return {"kumarbi": Kumarbi()}


def djinn_stages(rules: Rules) -> dict[str, Stage]:
    """Sibittis's ``keep-djinn`` step, and the ``take-djinn`` step when a power of the
    content takes a face-up djinn (``take_djinn``): rules without one keep the stages, and
    so the observation's stage one-hot, they had."""
    takes = any(
        effect.take_djinn is not None
        for power in rules.content.powers
        for _, effect in nested(power.effects)
    )
    return {KEEP_DJINN: KeepDjinn(), **({TAKE_DJINN: TakeDjinn()} if takes else {})}
