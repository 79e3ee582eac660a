"""``naqala play`` at the table (issue 29): the score in sight (a score column and
``score``), every start tile listed at the pick, ``-x solo`` without ``--seats``,
``undo`` after ``--load``, and why an illegal kill is refused, each played through the
command, and once more in a real terminal (a pseudo-terminal driven by pexpect)."""

from __future__ import annotations

import functools
import io
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from naqala.cli.app import app
from naqala.cli.play import Session
from naqala.core.agents import RandomAgent
from naqala.core.engine import Rules, build_rules
from naqala.core.record import GameRecord, new_record, save_record, with_action
from naqala.core.scoresheet import visible_scores
from naqala.core.state import State
from naqala.plugins.base.api import REACH

runner = CliRunner()
NAQALA = Path(sys.executable).with_name("naqala")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


@functools.cache
def rules_of(*expansions: str) -> Rules:
    return build_rules(list(expansions))


def run(*args: str, typed: str = "") -> Result:
    return runner.invoke(app, list(args), input=typed)


def session(rules: Rules, state: State, *typed: str) -> str:
    """What a Session shows when ``typed`` is typed at the decision of ``state`` (every
    seat a person), then the input ends."""
    queue = list(typed)

    def ask(prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    seats = ["human"] * len(state.players)
    record = new_record(rules, 0, len(seats), seats)
    console = Console(file=io.StringIO(), width=100, color_system=None)
    Session(rules, state, record, console, ask).run()
    out = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(out, str)
    return out


def played(rules: Rules, players: int, seed: int) -> Iterator[tuple[State, tuple[str, ...]]]:
    """Every state of a random game, with the actions that led to it."""
    state = rules.new_game(players, seed)
    actions: tuple[str, ...] = ()
    agent = RandomAgent(seed)
    while not state.is_over:
        yield state, actions
        action = agent.choose(rules, state, rules.legal_actions(state))
        state = rules.apply(state, action)
        actions += (str(action),)


# -- the score in sight ---------------------------------------------------------------------


def test_score_shows_the_seat_its_own_lines_and_the_others_public_points() -> None:
    rules = rules_of()
    state, _ = next((s, a) for s, a in played(rules, 3, 4) if s.round == 3)
    viewer = state.decision.player
    out = session(rules, state, "score")
    table = out[out.index(f"Scores now, as P{viewer + 1} sees them") :]
    seen = visible_scores(rules, state, viewer)
    totals = re.search(r"│ total +│(.+)│$", table, re.M)
    assert totals is not None
    cells = [cell.strip() for cell in totals.group(1).split("│")]
    expected = [str(s.total) if s.full else f"{s.total}+?" for s in seen]
    assert cells == expected
    assert cells[viewer] == str(rules.scores(state)[viewer])
    coins = re.search(r"│ coins +│(.+)│$", table, re.M)
    assert coins is not None
    row = [cell.strip() for cell in coins.group(1).split("│")]
    assert row[viewer] == str(state.players[viewer].coins)
    for other in range(len(state.players)):
        if other != viewer:
            assert row[other] == "?"  # their coins are not shown, nor a 0 in their place
            assert f"P{other + 1}: coins" in " ".join(table.split())
    # and the running score column of the players' table says the same
    header = next(line for line in out.splitlines() if line.startswith("Player "))
    end = header.index("Score") + len("Score")  # the column is right-justified
    for score in seen:
        name = f"P{score.player + 1}"
        line = next(x for x in out.splitlines() if x.startswith(name + " "))
        shown = str(score.total) if score.full else f"{score.total}+?"
        assert line[:end].split()[-1] == shown, (line, header)


# -- the pick lists every start tile --------------------------------------------------------


def test_the_pick_lists_every_start_tile_and_a_tile_alone_picks_it() -> None:
    rules = rules_of("djinns")
    state = next(s for s, _ in played(rules, 3, 2) if s.decision.stage == "pick")
    options = rules.legal_actions(state)
    assert len(options) > 30  # more than a long decision shows
    out = session(rules, state, "zz", options[-1].args[0])
    assert "more: type options" not in out
    decide = out.index(f"P{state.decision.player + 1}, decide")
    listed = re.findall(r"(\d+)\) (\S+)", out[decide : out.index("illegal: ")])
    assert [(int(n), tile) for n, tile in listed][: len(options)] == [
        (i, a.args[0] if a.kind == "pick" else str(a).split()[0])
        for i, a in enumerate(options, start=1)
    ]
    assert "illegal: 'zz' is not an option now" in out
    assert f"move {options[-1].args[0]}" in out  # the lone tile was picked: a move began


def test_the_legend_says_what_the_plus_of_a_city_means() -> None:
    rules = rules_of("djinns")
    state = rules.new_game(3, 2)
    out = session(rules, state)
    assert "5+ city: worth 5 or more, by its own rule (type score)" in out
    assert "5+" not in session(rules_of(), rules_of().new_game(3, 2))


# -- djinns on the board screen ---------------------------------------------------------------


def test_each_face_up_djinn_shows_its_power_in_one_line() -> None:
    rules = rules_of()
    state = rules.new_game(3, 2)
    out = session(rules, state, "help djinn")
    for djinn in state.decks[1].row:
        spec = rules.card_specs[djinn]
        line = next(x for x in out.splitlines() if f" {spec.name} {spec.vp} VP · " in x)
        assert len(line) <= 100
    assert "help djinn" in out
    assert all(f"face up: {rules.card_specs[d].name} (" in out for d in state.decks[1].row)


# -- -x solo without --seats -------------------------------------------------------------------


def test_solo_without_seats_plays_one_person_against_the_sultan() -> None:
    result = run("play", "-x", "solo", "--seed", "5", typed="score\n")
    assert result.exit_code == 0, result.stderr or repr(result.exception)
    assert result.stdout.startswith("New game · seed 5 · seats human · plugins base, solo")
    assert "not supported" not in result.stderr
    assert "Scores now, as P1 sees them" in result.stdout


def test_seats_given_are_still_checked_against_the_solo_mode() -> None:
    result = run("play", "-x", "solo", "--seats", "human,ai")
    assert result.exit_code == 2
    assert "not supported" in result.stderr


# -- undo after --load ---------------------------------------------------------------------------


def kill_record(rules: Rules) -> tuple[GameRecord, State]:
    """A two-person game stopped at a kill, with a tile holding meeples out of the
    assassins' reach (both seats people, so every decision is one to come back to)."""
    for seed in range(200):
        for state, actions in played(rules, 2, seed):
            turn = state.turn
            if state.decision.stage != "kill" or turn is None or state.round < 2:
                continue
            geo = state.geometry
            far = [
                t
                for t in range(geo.size)
                if geo.distance(turn.here, t) > REACH.of(turn) and any(state.board.meeples[t])
            ]
            if far:
                record = new_record(rules, seed, 2, ["human", "human"])
                for text in actions:
                    record = with_action(record, text)
                return record, state
    raise AssertionError("no kill with a tile out of reach in 200 games")


def far_kill(rules: Rules, state: State) -> str:
    """A kill of a meeple out of the assassins' reach, and its distance."""
    turn = state.turn
    assert turn is not None
    geo = state.geometry
    tile = next(
        t
        for t in range(geo.size)
        if geo.distance(turn.here, t) > REACH.of(turn) and any(state.board.meeples[t])
    )
    colour = next(i for i, n in enumerate(state.board.meeples[tile]) if n)
    return f"kill {geo.name(tile)} {rules.letters[colour]}"


def test_after_load_undo_goes_back_into_the_loaded_game(tmp_path: Path) -> None:
    """Loaded at a kill in round 2 or later: an illegal kill says why, and ``undo`` goes
    back to the drop before it, which the loaded part of the game holds."""
    rules = rules_of()
    record, state = kill_record(rules)
    path = tmp_path / "kill.json"
    save_record(path, record)
    kill = far_kill(rules, state)
    result = run("play", "--load", str(path), typed=f"{kill}\nundo\n")
    assert result.exit_code == 0, result.stderr or repr(result.exception)
    out = " ".join(result.stdout.split())
    assert re.search(rf"illegal: {kill.split()[1]} is out of reach: \d+ steps from", out)
    assert "undone: back to your previous decision" in out
    assert "nothing to undo" not in out


def test_after_load_undo_says_why_it_cannot_when_chance_revealed_something(
    tmp_path: Path,
) -> None:
    from naqala.core.session import drew_since

    rules = rules_of()
    states = list(played(rules, 2, 3))
    for index, (state, _) in enumerate(states):
        player = state.decision.player
        earlier = [s for s, _ in states[:index] if s.decision.player == player]
        if state.round > 1 and earlier and drew_since(earlier[-1], state):
            break
    record = new_record(rules, 3, 2, ["human", "human"])
    for text in states[index][1]:
        record = with_action(record, text)
    path = tmp_path / "drawn.json"
    save_record(path, record)
    result = run("play", "--load", str(path), typed="undo\n")
    assert result.exit_code == 0, result.stderr or repr(result.exception)
    assert "cannot undo: cards or meeples were drawn since your previous decision" in (
        " ".join(result.stdout.split())
    )


# -- in a real terminal ----------------------------------------------------------------------------


def spawn(cwd: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "60", "NO_COLOR": "1"}
    child = pexpect.spawn(
        str(NAQALA),
        list(args),
        encoding="utf-8",
        timeout=30,
        dimensions=(60, 100),
        env=env,
        cwd=str(cwd),
        maxread=65536,
    )
    child.delaybeforesend = None
    return child


def quit_game(child: pexpect.spawn) -> None:
    child.sendline("quit")
    child.expect_exact("Save the game before quitting? [y/N] ")
    child.sendline("n")
    child.expect_exact("Game stopped.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
@pytest.mark.skipif(not NAQALA.exists(), reason="the naqala console script is not installed")
def test_the_table_items_in_a_terminal(tmp_path: Path) -> None:
    """A loaded game at a kill: the score column and the djinns' powers on the screen, an
    illegal kill explained, ``score``, ``undo`` into the loaded game; then ``-x solo``
    without ``--seats``."""
    rules = rules_of()
    record, state = kill_record(rules)
    save_record(tmp_path / "kill.json", record)
    prompt = f"P{state.decision.player + 1}> "
    child = spawn(tmp_path, "play", "--load", "kill.json")
    try:
        child.expect_exact(prompt)
        screen = ANSI.sub("", child.before).replace("\r", "")
        assert re.search(r"^Player +Coins .* Score +Djinns", screen, re.M)
        assert re.search(r"^\S.*\+\? ", screen, re.M)  # another player's public points
        assert re.search(r"^Djinn row +\S+ \d+ VP · ", screen, re.M)  # a power a line
        assert re.search(r"^pile: \d+ +\S+ \d+ VP · ", screen, re.M)
        kill = far_kill(rules, state)
        child.sendline(kill)
        child.expect(r"illegal: \S+ is out of reach: \d+ steps from \S+, and the assassins")
        child.expect_exact(prompt)
        child.sendline("score")
        child.expect_exact("Scores now, as")
        child.expect_exact(prompt)
        child.sendline("undo")
        child.expect_exact("undone: back to your previous decision")
        child.expect_exact(prompt)
        quit_game(child)
    finally:
        child.close(force=True)
    child = spawn(tmp_path, "play", "-x", "solo", "--seed", "5")
    try:
        child.expect_exact("seats human · plugins base, solo")
        child.expect_exact("P1> ")
        quit_game(child)
    finally:
        child.close(force=True)
