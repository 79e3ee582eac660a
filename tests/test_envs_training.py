"""The training example (bench/train_policy.py) in a smoke form: a numpy policy learns
against the random player through the native ``VectorEnv`` for a few thousand
decisions, deterministically, never leaving the mask, and is evaluated against
``random`` and ``greedy``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("naqala.native._native")

ROOT = Path(__file__).resolve().parent.parent


def training() -> ModuleType:
    path = ROOT / "bench" / "train_policy.py"
    spec = importlib.util.spec_from_file_location("train_policy", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["train_policy"] = module  # attrs resolves the module's classes by name
    spec.loader.exec_module(module)
    return module


def test_a_short_training_run_learns_deterministically_and_is_evaluated() -> None:
    bench = training()
    first, curve = bench.train(6000, envs=16, batch_games=8, report=2000, seed=3)
    again, same_curve = bench.train(6000, envs=16, batch_games=8, report=2000, seed=3)
    assert curve == same_curve and len(curve) == 3
    pairs = zip(first.parameters(), again.parameters(), strict=True)
    assert all(np.array_equal(a, b) for a, b in pairs)
    assert first.updates > 0  # finished games were learned from
    untouched = bench.Policy.new(first.w1.shape[0], 32, first.b2.shape[0], np.random.default_rng(3))
    assert not np.array_equal(first.w2, untouched.w2)
    assert all(0.0 <= p.win_rate <= 1.0 and p.games > 0 for p in curve)
    assert [p.decisions for p in curve] == sorted(p.decisions for p in curve)
    won, games = bench.wins_against_random(first, 20, seed=1)
    assert games == 20 and 0.0 <= won <= 20
    won, games = bench.wins_against(first, "greedy", 1, seed=2)
    assert games == 1 and won in (0.0, 0.5, 1.0)
    low, high = bench.wilson(15, 20)
    assert low < 0.75 < high and (round(low, 3), round(high, 3)) == (0.531, 0.888)


def test_the_policy_samples_only_legal_actions() -> None:
    bench = training()
    rng = np.random.default_rng(0)
    policy = bench.Policy.new(5, 4, 6, rng)
    masks = np.array([[0, 1, 0, 0, 0, 1], [1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1]], np.int8)
    observations = rng.random((3, 5)).astype(np.float32)
    for _ in range(200):
        drawn = policy.sample(observations, masks, rng)
        assert all(masks[row, action] == 1 for row, action in enumerate(drawn))
