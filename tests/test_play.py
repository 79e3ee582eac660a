"""``naqala play``: seats, whole moves typed in one line, the Session's commands (illegal
input, undo, save, quit, end of input) driven without a terminal, the command's failures,
and one real game played through a pseudo-terminal, saved, resumed and finished."""

from __future__ import annotations

import functools
import io
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import attrs
import pexpect
import pytest
from rich.console import Console
from typer.testing import CliRunner, Result

from naqala.cli.app import app
from naqala.cli.play import (
    HELP,
    Session,
    Snapshot,
    expand_move,
    parse_seats,
)
from naqala.cli.scores import winners_line
from naqala.core.actions import Action, parse_action
from naqala.core.agents import SeatError, canonical_seat
from naqala.core.engine import Rules, build_rules
from naqala.core.record import (
    GameRecord,
    load_record,
    new_record,
    record_from_json,
    record_to_json,
    replay,
    rules_for_record,
    save_record,
    with_action,
)
from naqala.core.state import State
from naqala.display.decisions import decision_title

runner = CliRunner()


@functools.cache
def base_rules() -> Rules:
    return build_rules()


#: what the interactive game asks for: (the session, the prompt) → the line typed
Choose = Callable[[Session, str], str]


def run(*args: str) -> Result:
    return runner.invoke(app, list(args))


def fails(*args: str) -> str:
    """Run a command that must fail cleanly: exit 2, a message on stderr, nothing on
    stdout. Returns the message."""
    result = run(*args)
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == "", "a failing command must print nothing on stdout"
    assert result.stderr.startswith("naqala: ")
    assert "Traceback" not in result.stderr
    return result.stderr


# -- seats ------------------------------------------------------------------------------------

#: the rules seats are resolved by in these tests (the base game and the shipped players)
SEATING = build_rules()


def test_parse_seats_makes_seats_canonical() -> None:
    """``ai`` alone is the greedy AI; case and spaces do not matter."""
    assert parse_seats(SEATING, "human,ai,ai:random") == ["human", "ai:greedy", "ai:random"]
    assert parse_seats(SEATING, " Human , AI:Greedy,ai ") == ["human", "ai:greedy", "ai:greedy"]
    assert parse_seats(SEATING, "ai:random,ai:random,ai:random,ai:random") == ["ai:random"] * 4


@pytest.mark.parametrize("text", ["human,robot", "human,ai:genius", "human,", "human,aI:"])
def test_unknown_seat_names_it_and_lists_the_known_ones(text: str) -> None:
    """A seat that is neither a person nor a known AI: the message quotes it and lists every
    kind of seat."""
    with pytest.raises(SeatError) as caught:
        parse_seats(SEATING, text)
    message = str(caught.value)
    assert repr(text.split(",")[1].strip()) in message
    for known in ("human", "ai", "ai:greedy", "ai:random"):
        assert known in message


@pytest.mark.parametrize("text", ["ai:mcts:0", "ai:mcts:-3s", "AI:MCTS:lots"])
def test_a_known_ai_with_a_budget_it_refuses_says_what_is_wrong_with_the_budget(
    text: str,
) -> None:
    """``ai:mcts:0`` is the search player with an impossible budget, not an unknown seat:
    the message quotes the seat and says what a budget may be."""
    with pytest.raises(SeatError) as caught:
        parse_seats(SEATING, f"human,{text}")
    message = str(caught.value)
    assert repr(text) in message and "unknown seat" not in message
    assert "budget" in message and "mcts:2000" in message


def test_an_absurdly_long_seat_is_quoted_short() -> None:
    """A seat of thousands of characters is quoted cut short, with its length."""
    with pytest.raises(SeatError) as caught:
        parse_seats(SEATING, "human,ai:mcts:" + "9" * 5000)
    assert "(5,008 characters)" in str(caught.value) and len(str(caught.value)) < 250


@pytest.mark.parametrize("text", ["human", "ai", "ai:random"])
def test_one_seat_is_parsed_the_rules_decide_if_it_plays(text: str) -> None:
    """One seat is a seat list (the solo mode plays one); the base game refuses it when the
    game is set up (test_bad_arguments_exit_2)."""
    assert parse_seats(SEATING, text) == [canonical_seat(SEATING, text)]


# -- whole moves ------------------------------------------------------------------------------

MOVE = [parse_action("pick c3"), parse_action("drop d3 W"), parse_action("drop d4 R")]


@pytest.mark.parametrize("text", ["c3 d3W d4R", "c3 d3 W d4 R", "c3 d3W d4 R", "  c3  d3 W d4R "])
def test_expand_move_reads_both_forms(text: str) -> None:
    """The start tile, then each tile with the colour dropped there, glued or spaced."""
    assert expand_move(text) == MOVE


@pytest.mark.parametrize(
    "text",
    ["", "c3", "bid 12", "pick c3", "drop d3 W", "end", "c3 d3", "c3 d3W x", "c3 d3 WR"],
)
def test_expand_move_is_none_for_anything_else(text: str) -> None:
    assert expand_move(text) is None


@pytest.mark.parametrize("text", ["C3 D3W d4r", "c3 d3 w D4 R"])
def test_expand_move_keeps_the_case_typed(text: str) -> None:
    """Tiles and colours in any case make a move; the legal options decide what it means."""
    steps = expand_move(text)
    assert steps is not None
    assert [str(s).lower() for s in steps] == [str(m).lower() for m in MOVE]


def whole_move(rules: Rules, state: State) -> list[Action]:
    """A legal whole meeple move at a pick decision: from the tile with the most meeples,
    the first legal drop until the meeples are all dropped."""
    picks = [a for a in rules.legal_actions(state) if a.kind == "pick"]
    meeples = state.board.meeples
    steps = [max(picks, key=lambda a: sum(meeples[state.geometry.parse(a.args[0])]))]
    state = rules.apply(state, steps[0])
    while state.decision.stage == "drop":
        steps.append(next(a for a in rules.legal_actions(state) if a.kind == "drop"))
        state = rules.apply(state, steps[-1])
    return steps


def move_text(steps: Sequence[Action], spaced: bool = False) -> str:
    glue = " " if spaced else ""
    return " ".join([steps[0].args[0], *(f"{d.args[0]}{glue}{d.args[1]}" for d in steps[1:])])


# -- the Session, without a terminal ----------------------------------------------------------


def new_session(
    choose: Choose, seed: int = 3, seats: Sequence[str] = ("human", "ai:random")
) -> Session:
    """A new game whose prompts are answered by ``choose``; output goes to a string
    (``session_output``)."""
    rules = base_rules()
    record = new_record(rules, seed, len(seats), seats)
    console = Console(file=io.StringIO(), width=400)  # no message wraps
    cell: list[Session] = []
    session = Session(
        rules, rules.new_game(len(seats), seed), record, console, lambda p: choose(cell[0], p)
    )
    cell.append(session)
    return session


def session_output(session: Session) -> str:
    file = session.console.file
    assert isinstance(file, io.StringIO)
    return file.getvalue()


def lines(*typed: str) -> Choose:
    """Type ``typed`` in order, then end the input (EOF)."""
    queue = list(typed)

    def choose(session: Session, prompt: str) -> str:
        if not queue:
            raise EOFError
        return queue.pop(0)

    return choose


class Recorder:
    """Answers with ``choose`` and keeps the state and record at every prompt."""

    def __init__(self, choose: Choose) -> None:
        self.choose = choose
        self.prompts: list[tuple[str, State, tuple[str, ...]]] = []

    def __call__(self, session: Session, prompt: str) -> str:
        self.prompts.append((prompt, session.state, session.record.actions))
        return self.choose(session, prompt)


def test_illegal_input_changes_nothing_and_says_why() -> None:
    """Each illegal or malformed line gets one ``illegal:`` line with a reason and the same
    prompt again; the state and the record stay as they were."""
    typed = ["bid 99", "pick a1", "drop a1 Y", "bid twelve", "bid", "0", "999", "kill p2 Y", "!!"]
    recorder = Recorder(lines(*typed))
    session = new_session(recorder)
    session.run()
    prompts = recorder.prompts
    assert prompts[-1][0] == "Save the game before quitting? [y/N] "  # at the end of input
    prompts = prompts[:-1]
    assert len(prompts) == len(typed) + 1
    assert {prompt for prompt, _, _ in prompts} == {"P1> "}
    assert all(state == session.state for _, state, _ in prompts)
    assert all(actions == session.record.actions for _, _, actions in prompts)
    said = [line for line in session_output(session).splitlines() if line.startswith("illegal:")]
    assert len(said) == len(typed)
    assert "no spot costing 99" in said[0]
    assert "there is no option 0" in said[5] and "there is no option 999" in said[6]
    assert all(len(line) > len("illegal: ") + 5 for line in said)


def test_a_number_plays_that_option() -> None:
    """``2`` plays the second option listed; ``help`` and ``board`` decide nothing."""
    recorder = Recorder(lines("help", "board", "2"))
    session = new_session(recorder)
    session.run()
    (_, first, actions), *_ = recorder.prompts
    option = base_rules().legal_actions(first)[1]
    assert session.record.actions[len(actions)] == str(option)
    assert recorder.prompts[1][1] == first and recorder.prompts[2][1] == first
    out = session_output(session)
    assert HELP.splitlines()[0] in out
    # the decision is shown, help, shown again by ``board``, then the next decision
    shown = [i for i in range(len(out)) if out.startswith("P1, decide: ", i)]
    assert len(shown) == 3
    assert shown[0] < out.index(HELP.splitlines()[0]) < shown[1]
    assert "2) " in out


def test_undo_returns_to_the_previous_decision_and_shrinks_the_record() -> None:
    """Two decisions played, ``undo`` at the third: back to the second decision, the record
    as it was then; a second ``undo`` goes back to the first."""
    recorder = Recorder(lines("1", "1", "undo", "undo", "undo"))
    session = new_session(recorder)
    session.run()
    (_, first, first_actions), (_, second, second_actions), (_, _, third_actions) = (
        recorder.prompts[:3]
    )
    assert len(first_actions) < len(second_actions) < len(third_actions)
    _, back, back_actions = recorder.prompts[3]
    assert back == second and back_actions == second_actions
    _, back, back_actions = recorder.prompts[4]
    assert back == first and back_actions == first_actions
    assert session.state == first and session.record.actions == first_actions
    out = session_output(session)
    assert out.count("undone: back to your previous decision") == 2
    assert "nothing to undo: this is your first decision" in out  # the last undo


def test_the_record_after_undo_replays_to_the_same_state() -> None:
    """Undo, then play on: the record holds exactly the actions of the game as played."""
    session = new_session(lines("1", "2", "undo", "1", "1", "1"))
    session.run()
    rules = base_rules()
    assert replay(session.record, rules)[-1] == session.state


def reveals(before: State, after: State) -> bool:
    """Chance showed something between the states: the generator moved or a card left a
    draw pile."""
    return before.rng != after.rng or [len(d.draw) for d in before.decks] != [
        len(d.draw) for d in after.decks
    ]


def test_undo_is_refused_after_cards_were_drawn() -> None:
    """At the first decision after cards were drawn (the rows are refilled at the end of a
    round), ``undo`` is refused with a reason and changes nothing, although the draw did
    not advance the generator (the piles were shuffled at setup)."""
    refused: list[tuple[State, tuple[str, ...]]] = []

    def choose(session: Session, prompt: str) -> str:
        if refused:
            raise EOFError
        previous = session.history[-2].state if len(session.history) > 1 else None
        if previous is not None and reveals(previous, session.state):
            refused.append((session.state, session.record.actions))
            assert previous.rng == session.state.rng  # only a draw pile tells
            return "undo"
        return "1"

    session = new_session(choose)
    session.run()
    assert refused, "no cards were drawn"
    assert session.state.round == 2 and session.state.decision.stage == "bid"
    assert (session.state, session.record.actions) == refused[0]
    assert "cannot undo: cards or meeples were drawn" in session_output(session)


def test_undo_is_refused_after_meeples_were_drawn_from_the_bag() -> None:
    """When the generator moved since the previous decision (as when meeples are drawn
    from the bag), ``undo`` is refused and changes nothing."""
    typed: list[str] = []
    moved: list[tuple[State, tuple[str, ...]]] = []

    def choose(session: Session, prompt: str) -> str:
        if len(typed) == 1:
            # what drawing a meeple from the bag does to the state: the generator moves
            session.state = attrs.evolve(session.state, rng=session.state.rng.next64()[1])
            session.history[-1] = Snapshot(session.state, session.record)
            moved.append((session.state, session.record.actions))
        if len(typed) == 2:
            raise EOFError
        typed.append("1" if not typed else "undo")
        return typed[-1]

    session = new_session(choose)
    session.run()
    assert "cannot undo: cards or meeples were drawn" in session_output(session)
    assert [(session.state, session.record.actions)] == moved


def test_a_whole_move_is_played_all_or_nothing() -> None:
    """At a pick, a whole move typed in one line plays all its steps. One that is illegal
    at step 2, unfinished, or goes on after the move is over changes nothing and says why."""
    rules = base_rules()
    tries: list[str] = []
    typed: list[str] = []

    def choose(session: Session, prompt: str) -> str:
        state = session.state
        if typed and not tries:
            raise EOFError  # the whole move was played
        if state.decision.stage != "pick":
            return "1"
        if not typed:
            steps = whole_move(rules, state)
            assert len(steps) >= 3, "the test needs a move of two drops or more"
            start, colour = steps[0].args[0], steps[1].args[1]
            assert not rules.is_legal(rules.apply(state, steps[0]), Action("drop", (start, colour)))
            tries.extend(
                [
                    f"{start} {start}{colour}",  # illegal at step 2: back onto the start
                    move_text(steps[:-1]),  # meeples still in hand
                    move_text([*steps, steps[-1]]),  # one drop too many
                    move_text(steps, spaced=True),  # right
                ]
            )
        typed.append(tries.pop(0))
        return typed[-1]

    recorder = Recorder(choose)
    session = new_session(recorder)
    session.run()
    at_pick = [i for i, (_, s, _) in enumerate(recorder.prompts) if s.decision.stage == "pick"]
    first = at_pick[0]
    _, pick_state, pick_actions = recorder.prompts[first]
    for _, state, actions in recorder.prompts[first : first + 4]:
        assert (state, actions) == (pick_state, pick_actions)
    said = [line for line in session_output(session).splitlines() if line.startswith("illegal:")]
    assert len(said) == 3
    assert said[0].startswith("illegal: step 2 (drop ")
    assert said[1] == "illegal: that move is not finished (meeples are still in hand)"
    assert said[2].startswith("illegal: the move is over after step ")
    steps = whole_move(rules, pick_state)
    assert session.record.actions[: len(pick_actions) + len(steps)] == (
        *pick_actions,
        *(str(step) for step in steps),
    )
    assert session.state.decision.stage != "drop"


# -- save, quit, end of input -------------------------------------------------------------------


def test_quit_answering_yes_saves_the_game_to_the_named_file(tmp_path: Path) -> None:
    """``quit``, ``y``, a file name: the record is saved there (whole, no temporary file left
    beside it) and replays to the state the game was left in."""
    path = tmp_path / "game.json"
    session = new_session(lines("1", "1", "1", "quit", "y", str(path)))
    session.run()
    out = session_output(session)
    assert f"saved to {path} ({len(session.record.actions)} actions)" in out
    assert out.rstrip().endswith("Game stopped.")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    record = load_record(path)
    assert record == session.record
    assert record.final_scores is None
    assert replay(record, rules_for_record(record))[-1] == session.state


def test_quit_saves_over_an_older_save(tmp_path: Path) -> None:
    """``save FILE`` during the game, then ``quit`` saving to the same file: the file holds
    the later game."""
    path = tmp_path / "game.json"
    session = new_session(lines("1", f"save {path}", "1", "1", "quit", "yes", str(path)))
    session.run()
    assert load_record(path) == session.record
    assert session_output(session).count(f"saved to {path}") == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]


@pytest.mark.parametrize("answer", ["", "n", "no", "N"])
def test_quit_without_saving(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, answer: str) -> None:
    """Any answer but yes stops the game without writing anything."""
    monkeypatch.chdir(tmp_path)
    session = new_session(lines("1", "quit", answer, "1"))
    session.run()
    assert list(tmp_path.iterdir()) == []
    assert session_output(session).rstrip().endswith("Game stopped.")


def test_quit_saves_to_the_default_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    session = new_session(lines("exit", "y", ""))
    session.run()
    assert load_record(tmp_path / "naqala-save.json") == session.record


def test_save_needs_a_writable_file_name(tmp_path: Path) -> None:
    """``save`` without a name, or into a folder that does not exist, says so and the game
    goes on."""
    missing = tmp_path / "no" / "such" / "game.json"
    session = new_session(lines("save", f"save {missing}", "1"))
    session.run()
    out = session_output(session)
    assert "save needs a file name: save FILE" in out
    assert f"not saved: {missing}: the folder {missing.parent} does not exist" in out
    assert not missing.parent.exists()
    assert len(session.record.actions) > 1  # "1" was still played


def test_end_of_input_stops_the_game_cleanly() -> None:
    """EOF at the prompt (or at the quit question) stops the game: no exception, no save."""
    for typed in ((), ("1", "1"), ("quit",)):
        session = new_session(lines(*typed))
        session.run()
        assert session_output(session).rstrip().endswith("Game stopped.")
        assert not session.state.is_over


# -- the command ------------------------------------------------------------------------------


def test_an_all_ai_game_plays_to_the_end_and_saves_a_verifiable_record(tmp_path: Path) -> None:
    """``--seats ai,ai:random,ai:random`` needs no input: the game runs to its end, prints
    the score table and the winner, and ``--save`` writes a record that
    ``naqala replay --verify`` verifies."""
    path = tmp_path / "game.json"
    result = run("play", "--seats", "ai,ai:random,ai:random", "--seed", "1", "--save", str(path))
    assert result.exit_code == 0, result.stderr or repr(result.exception)
    assert result.stderr == ""
    out = result.stdout
    assert out.startswith("New game · seed 1 · seats ai:greedy, ai:random, ai:random")
    assert "Final scores" in out
    assert re.search(r"^P\d( and P\d)* (wins|share the win) with \d+ points\.$", out, re.M)
    assert "P1>" not in out
    record = load_record(path)
    assert record.seats == ("ai:greedy", "ai:random", "ai:random")
    assert record.final_scores is not None
    assert f"saved to {path} ({len(record.actions)} actions)" in " ".join(out.split())
    verified = run("replay", str(path), "--verify")
    assert verified.exit_code == 0, verified.stderr
    assert verified.stdout.startswith("verified: scores ")


def test_five_random_ais_play_both_expansions_and_the_record_verifies(tmp_path: Path) -> None:
    """``-x artisans -x djinns`` with five seats plays on the 6×7 board to the end; the
    picture lists the whims on the cities, and the saved record replays to the same
    scores (the expansions are recorded with it)."""
    path = tmp_path / "five.json"
    seats = ",".join(["ai:random"] * 5)
    args = ["play", "-x", "artisans", "-x", "djinns", "--seats", seats, "--seed", "4"]
    result = run(*args, "--save", str(path))
    assert result.exit_code == 0, result.stderr or repr(result.exception)
    assert "Whims on cities (" in result.stdout
    assert "Final scores" in result.stdout
    record = load_record(path)
    assert [ref.name for ref in record.plugins] == ["base", "artisans", "djinns"]
    assert len(record.seats) == 5
    verified = run("replay", str(path), "--verify")
    assert verified.exit_code == 0, verified.stderr


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--seats", "human,robot"], ["'robot'", "ai:random"]),
        (["--seats", "human"], ["1 player", "allowed: 2, 3, 4", "-x solo"]),
        (["--seats", "human,ai", "-x", "nosuchexpansion"], ["'nosuchexpansion'"]),
        (["--seats", "ai,ai,ai,ai,ai"], ["5 players"]),
    ],
    ids=["unknown-seat", "one-seat", "unknown-expansion", "five-seats"],
)
def test_bad_arguments_exit_2(args: list[str], words: list[str]) -> None:
    """Seats, expansions or a player count that cannot make a game: exit 2, one message on
    stderr, nothing on stdout."""
    err = fails("play", "--seed", "1", *args)
    for word in words:
        assert word in err


def good_record(tmp_path: Path) -> dict[str, object]:
    rules = base_rules()
    record = new_record(rules, 5, 2, ["human", "ai:random"])
    record = with_action(record, str(rules.legal_actions(rules.new_game(2, 5))[0]))
    path = tmp_path / "good.json"
    save_record(path, record)
    data: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ("text", ["not JSON"]),
        ("binary", ["not UTF-8"]),
        ("missing", ["cannot read"]),
        ("seat", ["$.seats[1]", "'robot'"]),
        ("action", ["$.actions[1]", "illegal"]),
        ("format", ["$.format"]),
        ("players", ["cannot be set up"]),
    ],
)
def test_a_bad_saved_game_exits_2(tmp_path: Path, change: str, words: list[str]) -> None:
    """``--load`` of a file that is not a record, or a record that cannot be played on:
    exit 2, the message names the file and the problem, nothing on stdout (not even the
    "Resumed" line)."""
    path = tmp_path / "bad.json"
    data = good_record(tmp_path)
    if change == "text":
        path.write_text("this is not a saved game", encoding="utf-8")
    elif change == "binary":
        path.write_bytes(b"\xff\xfe\x00\x80")
    elif change == "seat":
        data["seats"] = ["human", "robot"]
    elif change == "action":
        data["actions"] = [*data["actions"], "bid 99"]  # type: ignore[misc]
    elif change == "format":
        data["format"] = "naqala-state"
    elif change == "players":
        data["players"], data["seats"] = 1, ["human"]
    if change in ("seat", "action", "format", "players"):
        path.write_text(json.dumps(data), encoding="utf-8")
    err = fails("play", "--load", str(path))
    assert err.startswith(f"naqala: {path}: ")
    for word in words:
        assert word in err


# -- a real game in a pseudo-terminal ---------------------------------------------------------

NAQALA = Path(sys.executable).with_name("naqala")
PROMPT = "P1> "
QUIT_PROMPT = "Save the game before quitting? [y/N] "
DECIDE = re.compile(r"P1, decide: (.+?) \((\d+) options?\)")


def spawn(cwd: Path, *args: str) -> pexpect.spawn:
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120", "LINES": "60"}
    child = pexpect.spawn(
        str(NAQALA),
        list(args),
        encoding="utf-8",
        timeout=30,
        dimensions=(60, 120),
        env=env,
        cwd=str(cwd),
        maxread=65536,
    )
    child.delaybeforesend = None  # the game waits for input anyway
    return child


class Lockstep:
    """Plays the game in the terminal and the same game in a Session in this process, in
    step: at each prompt of the Session, the terminal must show the same prompt, its output
    since the last line typed must contain what was expected, and the line chosen is typed
    in both. The engine is deterministic (the seed, the AI seeds), so the two games stay
    the same game, and the in-process one tells the test what the terminal shows."""

    def __init__(self, child: pexpect.spawn, choose: Choose) -> None:
        self.child = child
        self.choose = choose
        self.expected: list[str] = []  # regexes the output must match before the next prompt
        self.outputs: list[str] = []
        self.checked = 0  # prompts at which the decision shown was compared

    def __call__(self, session: Session, prompt: str) -> str:
        self.child.expect_exact(prompt)
        output = self.child.before
        self.outputs.append(output)
        for pattern in self.expected:
            assert re.search(pattern, output, re.M), (pattern, output[-3000:])
        self.expected = []
        if prompt == PROMPT:
            decides = DECIDE.findall(output)
            if decides:  # the decision was (re)drawn: it must be the Session's
                options = base_rules().legal_actions(session.state)
                title = decision_title(session.rules, session.state)
                assert decides[-1] == (title, str(len(options)))
                self.checked += 1
        line = self.choose(session, prompt)
        self.child.sendline(line)
        return line

    def expect(self, pattern: str) -> None:
        self.expected.append(pattern)


@pytest.mark.skipif(sys.platform == "win32", reason="pseudo-terminals are POSIX")
@pytest.mark.skipif(not NAQALA.exists(), reason="the naqala console script is not installed")
def test_a_game_in_a_terminal_saved_resumed_and_finished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``naqala play --seats human,ai:random`` in a pseudo-terminal: an illegal action,
    ``help``, ``undo`` refused (first decision, then after cards were drawn) and allowed,
    numbers, a whole move typed in one line, ``save`` midway, ``quit`` without saving.
    Then ``--load`` the save and answer 1 to the end: the final scores and the winner."""
    seed = 3
    path = Path("midway.json")  # in the terminal game's folder, tmp_path
    done: set[str] = set()
    saved: list[tuple[str, ...]] = []
    after_save = 0
    move: list[Action] = []

    def choose(session: Session, prompt: str) -> str:
        nonlocal after_save
        if prompt == QUIT_PROMPT:
            return "n"
        state, rules = session.state, base_rules()
        earlier = [s.state for s in session.history[:-1] if s.state.decision.player == 0]
        if move:  # the whole move typed at the last prompt was played in full
            assert session.record.actions[-len(move) :] == tuple(str(a) for a in move)
            move.clear()
        for step, line, pattern in [
            ("illegal", "bid 99", r"^illegal: "),
            ("help", "help", r"^Type one of:"),
            ("first", "undo", r"^nothing to undo: this is your first decision"),
        ]:
            if step not in done:
                done.add(step)
                lockstep.expect(pattern)
                return line
        if "move" not in done and state.decision.stage == "pick":
            done.add("move")
            move.extend(whole_move(rules, state))
            return move_text(move)
        if "move" in done and "undone" not in done and earlier and not reveals(earlier[-1], state):
            done.add("undone")
            lockstep.expect(r"^undone: back to your previous decision")
            return "undo"
        if "refused" not in done and earlier and reveals(earlier[-1], state):
            done.add("refused")
            lockstep.expect(r"^cannot undo: cards or meeples were drawn")
            return "undo"
        if {"undone", "refused"} <= done and not saved:
            saved.append(session.record.actions)
            lockstep.expect(rf"^saved to {re.escape(str(path))} \({len(saved[0])} actions\)")
            return f"save {path}"
        if saved:
            after_save += 1
            if after_save > 5:
                return "quit"
        return "1"

    child = spawn(tmp_path, "play", "--seats", "human,ai:random", "--seed", str(seed))
    lockstep = Lockstep(child, choose)
    try:
        session = new_session(lockstep, seed=seed)
        monkeypatch.setattr(session, "save", lambda name: None)  # only the terminal saves
        session.run()
        child.expect_exact("Game stopped.")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert done == {"illegal", "help", "first", "move", "undone", "refused"}
    assert "New game · seed 3 · seats human, ai:random" in lockstep.outputs[0]
    assert lockstep.checked > 10
    assert load_record(tmp_path / path).actions == saved[0]
    assert not session.state.is_over

    # resume the saved game and answer 1 to the end
    child = spawn(tmp_path, "play", "--load", str(path))
    lockstep = Lockstep(child, lambda session, prompt: "1")
    try:
        record = load_record(tmp_path / path)
        rules = rules_for_record(record)
        history = replay(record, rules)
        console = Console(file=io.StringIO(), width=120)
        cell: list[Session] = []
        resumed = Session(rules, history[-1], record, console, lambda p: lockstep(cell[0], p))
        resumed.catch_up(history[:-1])  # the random AI goes on with the draws it had made
        cell.append(resumed)
        resumed.run()
        child.expect(pexpect.EOF)
        end = child.before
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert lockstep.outputs[0].lstrip().startswith(f"Resumed {path}: {len(saved[0])} actions")
    assert lockstep.checked == len(lockstep.outputs) > 20  # "1" always decides
    assert resumed.state.is_over
    assert "Final scores" in end
    assert re.search(r"(wins with|share the win with) \d+ points", end)
    assert winners_line(rules, resumed.state) in end


def test_a_resumed_game_goes_on_exactly_as_the_uninterrupted_one() -> None:
    """Random AI players make the same draws after a save and load: the resumed game ends
    in the very state the uninterrupted game ends in."""
    rules = build_rules()
    seats = ["ai:random", "ai:random", "ai:greedy"]

    def session(state: State, record: GameRecord) -> Session:
        return Session(rules, state, record, Console(file=io.StringIO()), lambda _p: "")

    whole = session(rules.new_game(3, 8), new_record(rules, 8, 3, seats))
    whole.run()
    interrupted = session(rules.new_game(3, 8), new_record(rules, 8, 3, seats))
    for _ in range(60):
        agent = interrupted.agents[interrupted.state.decision.player]
        assert agent is not None
        interrupted.ai_decision(agent)
    saved = record_from_json(record_to_json(interrupted.record))
    history = replay(saved, rules)
    resumed = session(history[-1], saved)
    resumed.catch_up(history[:-1])
    resumed.run()
    assert resumed.state == whole.state
