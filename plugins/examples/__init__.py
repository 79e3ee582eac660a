"""An example of a house rule that is code: ``double_palms`` (the oasis plants two palm
trees), installed as the plugin ``double-palms``.

The shipped house rules (``naqala.plugins.house``) are TOML alone and play natively. A
rule the effects language cannot say yet (docs/effects.md: placing a token on the turn's
own tile is not an effect) is a Python file implementing hooks, and plays on the Python
engine; this one shows what that looks like and what a command says when it falls back.
"""
