"""Standard AI interfaces for naqala games: a stable action codec and observation encoder
per ruleset (``codec``, ``observation``), an OpenSpiel game (``naqala.envs.openspiel``,
extra ``naqala[openspiel]``) and PettingZoo and Gymnasium environments
(``naqala.envs.pettingzoo``, ``naqala.envs.gym``, extra ``naqala[pettingzoo]``). See
docs/ai.md."""
