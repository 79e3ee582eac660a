"""Example house rules: small, real variants, each one file (plus its content TOML).

- ``big_viziers``: the vizier majority bonus is 15 instead of 10 (scoring, by content).
- ``djinns_once_per_round``: at 2 players a paid djinn power once per round (content).
- ``generous_jafaar``: Jafaar's viziers are worth 4 VP, not 3 (a content override).
- ``nekir_per_assassination``: Nekir pays once for an Iblis double kill (content).
- ``no_loops``: a meeple move may not enter any tile twice (content: ``movement.revisit``).
- ``shared_artisans``: players tied for the most artisans all score the majority value
  (content: ``artisan_majority_ties``).
- ``rich_villages``: the village action also pays 2 coins (a tile action).

Each works with ``naqala play --house-rules plugins/house/<file>.py`` from a checkout,
and is installed as a plugin too (``-x no-loops``). docs/house-rules.md walks through
writing one.
"""
