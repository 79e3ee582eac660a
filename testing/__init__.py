"""naqala.testing: a kit for testing plugins and house rules.

- ``naqala.testing.scenario``: set up exactly the position a rule talks about and play
  actions in notation (``board``, ``player``, ``turn_of``, ``play``, ``options``…).
- ``naqala.testing.chance``: script what chance gives next (``stack_deck``, ``fill_bag``,
  ``next_draws``, ``reseed``).
- ``naqala.testing.invariants``: check that every component of every plugin in play is
  accounted for (``check_state``, ``assert_invariants``, ``checked_playout``).
- ``naqala.testing.moves``: count the moves of a small board written as text.
- ``naqala.testing.strategies``: hypothesis strategies for expansion sets, seeds, games,
  reached states and legal actions (needs ``hypothesis``).
- ``naqala.testing.browser``: headless Chromium through selenium, to look at pictures
  (``naqala.display``) in a real browser (needs selenium and a chromium with its driver).
- ``naqala.testing.pytest_plugin``: the ``naqala_*`` fixtures, loaded automatically by
  pytest once naqala is installed.

The submodules are imported on demand, so importing this package needs neither pytest nor
hypothesis. See docs/testing.md.
"""
