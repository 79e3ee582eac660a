"""Standard AI interfaces for naqala games: a stable action codec and observation encoder
per ruleset (``codec``, ``observation``), an OpenSpiel game (``naqala.envs.openspiel``,
extra ``naqala[openspiel]``), PettingZoo and Gymnasium environments
(``naqala.envs.pettingzoo``, ``naqala.envs.gym``, extra ``naqala[pettingzoo]``), a
batch of games stepped together (``naqala.envs.VectorEnv``, numpy) and the batch as a
Gymnasium vector environment (``naqala.envs.gymvector``). Each steps on the
native engine whenever the rules can run there (``naqala.envs.games``). See docs/ai.md."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """``VectorEnv`` on first use: numpy is an extra, so importing the codec needs none."""
    if name == "VectorEnv":
        from naqala.envs.vector import VectorEnv

        return VectorEnv
    raise AttributeError(f"module 'naqala.envs' has no attribute {name!r}")
