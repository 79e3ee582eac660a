"""One seed domain, 0 … 2**64-1, checked wherever a seed comes in: every command's
``--seed``, the seeds a study plays, a state file's generator, a record, ``play --load``,
``replay --html`` and the web server (tests/test_web_api.py); each refusal in the words of
``naqala.core.rng.check_seed``, exit 2, never an internal error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from naqala.cli.app import app
from naqala.core.engine import build_rules
from naqala.core.record import RecordError, new_record, record_from_json, record_to_json
from naqala.core.rng import MAX_SEED, SEED_RULE, SeedError, check_seed, check_seeds
from naqala.core.serialize import StateFormatError, state_from_json, state_to_json

runner = CliRunner()

#: out of the domain below, above and far above
OUTSIDE = [-5, MAX_SEED + 1, 2**70]


def run(*args: str) -> Result:
    return runner.invoke(app, list(args))


def refused(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == ""
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    return result.stderr.strip()


def test_the_domain_is_every_64_bit_seed() -> None:
    assert check_seed(0) == 0 and check_seed(MAX_SEED) == MAX_SEED == 2**64 - 1
    for seed in OUTSIDE:
        with pytest.raises(
            SeedError, match=r"^--seed: a seed is a whole number from 0 to 2\*\*64-1"
        ):
            check_seed(seed, "--seed")
    with pytest.raises(SeedError, match="a number of 4,001 bits"):
        check_seed(2**4000)
    assert check_seeds(MAX_SEED - 9, 10) == MAX_SEED - 9
    with pytest.raises(SeedError, match=f"11 games from seed {MAX_SEED - 9} would reach"):
        check_seeds(MAX_SEED - 9, 11)


def test_a_new_game_refuses_a_seed_outside_and_plays_the_largest() -> None:
    rules = build_rules()
    with pytest.raises(SeedError, match=r"^seed: a seed is a whole number"):
        rules.new_game(3, -1)
    assert rules.new_game(3, MAX_SEED).rng.seed == MAX_SEED


OPTIONS = [
    ("state", "new", "--seed"),
    ("play", "--seats", "ai:random,ai:random", "--seed"),
    ("simulate", "--games", "1", "--seed"),
    ("compare", "--house-rules", "plugins/house/big_viziers.toml", "--games", "2", "--seed"),
    ("skill", "--seats", "random,greedy", "--games", "1", "--seed"),
    ("balance", "--games", "1", "--skill-games", "1", "--seed"),
    ("extremes", "--budget", "1g", "--seed"),
]


@pytest.mark.parametrize("command", OPTIONS, ids=[" ".join(c[:1]) for c in OPTIONS])
@pytest.mark.parametrize("seed", OUTSIDE, ids=["negative", "2**64", "2**70"])
def test_every_seed_option_refuses_a_seed_outside_the_domain(
    command: tuple[str, ...], seed: int
) -> None:
    message = refused(*command, str(seed))
    assert message.startswith(f"naqala: --seed: {SEED_RULE}, not ")


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1], ids=["negative", "2**64"])
def test_tune_and_interactions_refuse_it_in_the_same_words(seed: int, tmp_path: Path) -> None:
    """Their studies check the seed (``Study.check``) before any game."""
    pytest.importorskip("optuna")
    space = tmp_path / "space.toml"
    space.write_text('[[knob]]\ntarget = "settings"\nfield = "vizier_bonus"\nlow = 5\nhigh = 9\n')
    tune = refused("tune", str(space), "--out", str(tmp_path / "best.toml"), "--seed", str(seed))
    pair = refused("interactions", "--components", "djinn:jafaar,djinn:utug", "--seed", str(seed))
    for message in (tune, pair):
        assert message == f"naqala: --seed: {SEED_RULE}, not {seed}"


@pytest.mark.parametrize(
    "command",
    [
        ("simulate", "--games", "2"),
        ("compare", "--house-rules", "plugins/house/big_viziers.toml", "--games", "2"),
        ("skill", "--seats", "random,greedy", "--games", "2"),
        ("balance", "--games", "2", "--skill-games", "1"),
    ],
    ids=lambda c: c[0],
)
def test_a_study_refuses_seeds_that_would_leave_the_domain(command: tuple[str, ...]) -> None:
    """Game ``i`` of a study has seed ``first + i``: the last one must be a seed too."""
    message = refused(*command, "--seed", str(MAX_SEED))
    assert f"2 games from seed {MAX_SEED} would reach {MAX_SEED + 1}" in message


def test_a_study_of_any_command_refuses_them_before_its_first_game() -> None:
    """The lab's runner checks the seeds of the games it is asked for (interactions and
    tune, whose options are not the study commands')."""
    pytest.importorskip("scipy")
    components = ("--components", "djinn:jafaar,djinn:utug")
    message = refused("interactions", *components, "--games", "2", "--seed", str(MAX_SEED))
    assert message == (
        f"naqala: --seed: {SEED_RULE}; 2 games from seed {MAX_SEED} would reach {MAX_SEED + 1}"
    )


def test_the_largest_seed_plays_on_both_engines(tmp_path: Path) -> None:
    result = run("simulate", "--games", "1", "--seed", str(MAX_SEED), "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["seed"] == MAX_SEED
    record = tmp_path / "game.json"
    played = run("play", "--seats", "ai,ai", "--seed", str(MAX_SEED), "--save", str(record))
    assert played.exit_code == 0, played.stderr
    assert json.loads(record.read_text())["seed"] == MAX_SEED


def state_with_seed(seed: int) -> str:
    rules = build_rules()
    data = json.loads(state_to_json(rules, rules.new_game(3, 1)))
    data["rng"]["seed"] = seed
    return json.dumps(data)


@pytest.mark.parametrize("seed", OUTSIDE, ids=["negative", "2**64", "2**70"])
def test_a_state_file_refuses_a_seed_outside_with_its_path(seed: int, tmp_path: Path) -> None:
    with pytest.raises(StateFormatError) as caught:
        state_from_json(state_with_seed(seed))
    assert str(caught.value).startswith(f"$.rng.seed: {SEED_RULE}, not ")
    path = tmp_path / "state.json"
    path.write_text(state_with_seed(seed))
    assert f"$.rng.seed: {SEED_RULE}, not " in refused("actions", str(path))
    assert state_from_json(state_with_seed(MAX_SEED))[1].rng.seed == MAX_SEED


def record_with_seed(seed: int) -> str:
    rules = build_rules()
    data = json.loads(record_to_json(new_record(rules, 3, 2, ["ai", "ai"])))
    data["seed"] = seed
    return json.dumps(data)


@pytest.mark.parametrize("seed", OUTSIDE, ids=["negative", "2**64", "2**70"])
def test_a_record_refuses_a_seed_outside_in_every_command(seed: int, tmp_path: Path) -> None:
    with pytest.raises(RecordError) as caught:
        record_from_json(record_with_seed(seed), "game.json")
    assert str(caught.value).startswith(f"game.json: $.seed: {SEED_RULE}, not ")
    path = tmp_path / "game.json"
    path.write_text(record_with_seed(seed))
    expected = f"$.seed: {SEED_RULE}, not "
    assert expected in refused("play", "--load", str(path))
    assert expected in refused("replay", str(path), "--html", str(tmp_path / "game.html"))
    assert expected in refused("replay", str(path), "--verify")
    assert not (tmp_path / "game.html").exists()


def test_the_extremes_sweep_goes_on_past_the_largest_seed() -> None:
    """The sweep plays seeds ``S, S + 1, …`` for as long as its budget lasts: from the
    largest seed it goes on from 0 instead of failing on a seed outside."""
    result = run("extremes", "--budget", "12g", "--seed", str(MAX_SEED), "--json")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["candidates"] == 12  # a quarter of them swept
