"""``--without``: a card left out of a game, in every command. The rules are built without
it; a game record and a state document name it, so ``naqala replay``, ``play --load`` and
reading a state rebuild the same rules and the same game."""

from __future__ import annotations

import json
import re
from pathlib import Path

import attrs
import pytest
from typer.testing import CliRunner, Result

from naqala.cli.app import app
from naqala.core.engine import build_rules
from naqala.core.record import (
    RecordError,
    load_record,
    new_record,
    record_to_json,
    replay,
    rules_for_record,
    save_record,
    with_action,
    with_final_scores,
)
from naqala.core.serialize import StateFormatError, state_from_json, state_to_json
from naqala.core.simulate import play_game
from naqala.core.state import State
from naqala.core.without import WithoutError, leave_out
from naqala.testing.scenario import DJINN_DECK

runner = CliRunner()
JAFAAR = "djinn:jafaar"


def run(*args: str) -> Result:
    return runner.invoke(app, list(args))


def fails(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == "" and "Traceback" not in result.stderr
    return result.stderr


def djinns_seen(state: State) -> set[str]:
    deck = state.decks[DJINN_DECK]
    return {*deck.draw, *deck.row, *deck.discard, *(d for p in state.players for d in p.djinns)}


def test_leaving_a_card_out_is_noted_in_the_rules() -> None:
    rules = leave_out(build_rules(), [JAFAAR, JAFAAR])
    assert rules.without == (JAFAAR,)
    assert "jafaar" in rules.card_specs  # still known: a text naming it reads
    assert "jafaar" not in djinns_seen(rules.new_game(3, 1))
    assert build_rules().without == ()
    with pytest.raises(WithoutError, match="no card 'horn-of-plenty' in these rules"):
        leave_out(build_rules(), ["card:horn-of-plenty"])  # an Artisans item, not in play


def test_a_game_played_without_a_djinn_replays_identically(tmp_path: Path) -> None:
    """The record of a game without Jafaar names it; loading the record rebuilds rules
    without Jafaar and replays every state of the game as it was played. Without
    ``without`` the same seed deals another game, so the field is what makes it faithful."""
    rules = leave_out(build_rules(), [JAFAAR])
    played: list[State] = []
    actions: list[str] = []

    def collect(state: State, action: object) -> None:
        played.append(state)
        actions.append(str(action))

    final, _ = play_game(rules, 3, 7, on_action=collect)
    record = new_record(rules, 7, 3, ["ai:random"] * 3)
    assert record.without == (JAFAAR,)
    for action in actions:
        record = with_action(record, action)
    record = with_final_scores(record, rules.scores(final))
    path = tmp_path / "game.json"
    save_record(path, record)
    assert json.loads(path.read_text(encoding="utf-8"))["without"] == [JAFAAR]

    loaded = load_record(path)
    assert loaded == record
    rebuilt = rules_for_record(loaded)
    assert rebuilt.without == (JAFAAR,)
    states = replay(loaded, rebuilt)
    assert states[:-1] == played and states[-1] == final
    assert rebuilt.scores(states[-1]) == record.final_scores
    assert not any("jafaar" in djinns_seen(s) for s in states)
    full = rules_for_record(attrs.evolve(loaded, without=()))
    assert full.new_game(3, 7) != states[0]


def test_a_record_leaving_out_a_card_the_rules_lack_is_refused() -> None:
    record = attrs.evolve(new_record(build_rules(), 1, 2, ["human"] * 2), without=("djinn:x",))
    with pytest.raises(RecordError, match=r"\$\.without.*no djinn 'x' in these rules"):
        rules_for_record(record)


def test_naqala_play_without_records_it_and_replay_names_it(tmp_path: Path) -> None:
    """``play --without`` says so when the game starts, saves it in the record, and the
    record verifies; ``replay`` and ``play --load`` name the card left out."""
    path = tmp_path / "game.json"
    seats = "ai:random,ai:random"
    result = run("play", "--seats", seats, "--seed", "4", "--without", JAFAAR, "--save", str(path))
    assert result.exit_code == 0, result.stderr or repr(result.exception)
    first = " ".join(result.stdout.split("· type help")[0].split())
    assert first.endswith(f"plugins base · without {JAFAAR}")
    record = load_record(path)
    assert record.without == (JAFAAR,)
    assert run("replay", str(path), "--verify").stdout.startswith("verified: scores ")
    shown = run("replay", str(path))
    assert shown.exit_code == 0, shown.stderr
    assert re.search(rf"^Start · seed 4 .* · without\s+{JAFAAR}$", shown.stdout, re.M)
    resumed = runner.invoke(app, ["play", "--load", str(path)], input="quit\n")
    assert resumed.exit_code == 0, resumed.stderr
    assert resumed.stdout.startswith(
        f"Resumed {path}: {len(record.actions)} actions, seed 4, without {JAFAAR}"
    )
    err = fails("play", "--load", str(path), "--without", "djinn:enki")
    assert "leave out --without" in err


def test_naqala_play_refuses_an_unknown_card() -> None:
    err = fails("play", "--seats", "ai,ai", "--without", "djinn:nosuch")
    assert "--without 'djinn:nosuch': no djinn 'nosuch' in these rules" in err


def test_naqala_state_new_without_names_it_in_the_state(tmp_path: Path) -> None:
    """``state new --without`` writes ``without`` into the state document, so the commands
    that read the state rebuild the same rules; a state whose ``without`` is taken away no
    longer adds up (a djinn is missing) and is refused naming the deck."""
    result = run("state", "new", "-p", "2", "-s", "3", "--without", JAFAAR)
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["without"] == [JAFAAR]
    rules, state = state_from_json(result.stdout)
    assert rules.without == (JAFAAR,)
    assert state == leave_out(build_rules(), [JAFAAR]).new_game(2, 3)
    assert state_to_json(rules, state) == result.stdout
    path = tmp_path / "state.json"
    path.write_text(result.stdout, encoding="utf-8")
    assert run("actions", str(path)).stdout.startswith("bid ")
    del data["without"]
    path.write_text(json.dumps(data), encoding="utf-8")
    err = fails("actions", str(path))
    assert "$.decks.djinns: 0 copies of 'jafaar'" in err
    with pytest.raises(StateFormatError, match=r"^\$\.without: \['djinn:jafaar'\] does not"):
        state_from_json(result.stdout, build_rules())
    data["without"] = ["jafaar"]
    with pytest.raises(StateFormatError, match=r"^\$\.without: --without 'jafaar': write"):
        state_from_json(json.dumps(data))


def test_a_state_of_full_rules_is_written_as_before() -> None:
    """Nothing left out: no ``without`` key, so state files read by older naqala stay
    the same."""
    rules = build_rules()
    assert "without" not in json.loads(state_to_json(rules, rules.new_game(2, 0)))
    assert json.loads(record_to_json(new_record(rules, 0, 2, ["human"] * 2)))["without"] == []
