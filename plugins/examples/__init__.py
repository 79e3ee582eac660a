"""Examples of house rules that are code.

``double_palms`` (the oasis plants two palm trees), installed as the plugin
``double-palms``: the shipped house rules (``naqala.plugins.house``) are TOML alone and
play natively, and a rule the effects language cannot say yet (docs/effects.md: placing a
token on the turn's own tile is not an effect) is a Python file implementing hooks, and
plays on the Python engine; this one shows what that looks like and what a command says
when it falls back.

``fakirs_in_hand``, ``rich_villages``, ``round_cap``, ``safe_elders``,
``thrifty_caravans``, ``golden_oases`` and ``sultans_favour`` implement hooks the native
engine calls back (``naqala_adjust_new_game``, ``naqala_tile_effects``,
``naqala_game_ends``, ``naqala_protected_meeples``, ``naqala_score_lines``,
``naqala_adjust_score_lines``, ``naqala_verdict``; docs/hooks.md, "Hooks called back"):
the same files play natively.
"""
