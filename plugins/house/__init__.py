"""Example house rules: small, real variants, each one file.

- ``big_viziers.toml``: the vizier majority bonus is 15 instead of 10 (a setting).
- ``djinns_once_per_round.toml``: at 2 players a paid djinn power once per round.
- ``generous_jafaar.toml``: Jafaar's viziers are worth 4 VP, not 3 (an override).
- ``nekir_per_assassination.toml``: Nekir pays once for an Iblis double kill.
- ``no_loops.toml``: a meeple move may not enter any tile twice (``movement.revisit``).
- ``shared_artisans.toml``: players tied for the most artisans all score the majority
  value (``artisan_majority_ties``).
- ``rich_villages.toml``: the village action also pays 2 coins (a tile action in the
  effects language, docs/effects.md).

Each works with ``naqala play --house-rules plugins/house/<file>`` from a checkout, and
is installed as a plugin too (``-x big-viziers``). A rule made of numbers is its
``.toml`` alone: its entry point names this package and the file's stem
(``naqala.plugins.house:big_viziers``), and the plugin is built here from the file's
bytes (``naqala.core.content_rule``), which its sha256 covers. docs/house-rules.md walks
through writing one.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from naqala.core.content_rule import installed_rule

HERE = Path(__file__).parent


def __getattr__(name: str) -> ModuleType:
    """``naqala.plugins.house:<stem>`` (an entry point) is the ``.toml`` of that stem."""
    if (HERE / f"{name}.toml").is_file() and not (HERE / f"{name}.py").is_file():
        return installed_rule(HERE / f"{name}.toml")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
