"""Plugins: the base game, the expansions and example house rules.

Each plugin registers with the entry-point group ``naqala.plugins`` and supplies content
files and hook implementations; the base game is a plugin like any other.
"""
