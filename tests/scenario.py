"""Scenario helpers for the project's tests: a re-export of the public testing kit
``naqala.testing.scenario``, so tests keep writing ``from scenario import board, play``."""

from naqala.testing.scenario import *  # noqa: F403
from naqala.testing.scenario import __all__ as __all__
