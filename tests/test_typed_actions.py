"""Actions typed by people: letter case and written numbers do not matter, the reason
given for an illegal one is the right one, and absurdly long input gets a short message.
The notation still round-trips and legality is still membership in the legal list."""

from __future__ import annotations

import functools
import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.cli.play import Session
from naqala.core.actions import (
    MAX_ARGS,
    MAX_TEXT,
    MAX_TOKEN,
    Action,
    NotationError,
    format_action,
    parse_action,
    resolve_typed,
)
from naqala.core.agents import RandomAgent
from naqala.core.engine import Rules, build_rules
from naqala.core.record import new_record
from naqala.core.serialize import state_to_json
from naqala.core.state import State

runner = CliRunner()


@functools.cache
def rules() -> Rules:
    return build_rules()


def at_pick(seed: int = 1) -> State:
    """A 3-player base game after the bids: the first pick."""
    game = rules()
    state = game.new_game(3, seed)
    while state.decision.stage != "pick":
        state = game.apply(state, game.legal_actions(state)[0])
    return state


def apply_cli(tmp_path: Path, state: State, *actions: str) -> tuple[int, str, str]:
    path = tmp_path / "state.json"
    path.write_text(state_to_json(rules(), state), encoding="utf-8")
    result = runner.invoke(app, ["apply", str(path), *actions])
    return result.exit_code, result.stdout, result.stderr


# -- letter case and numbers ----------------------------------------------------------------


def test_tile_names_and_colour_letters_in_any_case(tmp_path: Path) -> None:
    """``pick A1`` is ``pick a1`` and ``drop D3 w`` is ``drop d3 W``, typed at the prompt
    or given to ``naqala apply``."""
    state = at_pick()
    pick = rules().legal_actions(state)[0]
    upper = f"pick {pick.args[0].upper()}"
    assert resolve_typed(parse_action(upper), rules().legal_actions(state)) == pick
    after = rules().apply(state, pick)
    drop = rules().legal_actions(after)[0]
    shouted = f"DROP {drop.args[0].upper()} {drop.args[1].lower()}"
    assert resolve_typed(parse_action(shouted), rules().legal_actions(after)) == drop
    code, out, err = apply_cli(tmp_path, state, upper, shouted)
    assert code == 0, err
    assert json.loads(out) == json.loads(state_to_json(rules(), rules().apply(after, drop)))


def test_numbers_with_leading_zeros_mean_the_number(tmp_path: Path) -> None:
    """``bid 012`` is ``bid 12`` when the 12 spot is free; when it is taken, the reason
    given is about the 12 spot being taken, not a spot that does not exist."""
    state = rules().new_game(3, 1)
    assert Action("bid", ("12",)) in rules().legal_actions(state)
    code, out, err = apply_cli(tmp_path, state, "bid 012")
    assert code == 0, err
    assert json.loads(out) == json.loads(
        state_to_json(rules(), rules().apply(state, Action("bid", ("12",))))
    )
    code, out, err = apply_cli(tmp_path, state, "bid 12", "bid 012")
    assert code == 2 and out == ""
    assert "the spot costing 12 is already taken" in err


def test_a_tile_that_is_not_legal_gets_its_reason_in_any_case() -> None:
    """An illegal pick typed in capitals gets the same reason as in small letters, naming
    the tile as the board does."""
    game = rules()
    state = game.new_game(3, 2)
    agent = RandomAgent(2)
    while state.decision.stage != "pick" or all(map(any, state.board.meeples)):
        state = game.apply(state, agent.choose(game, state, game.legal_actions(state)))
    empty = next(n for t, n in enumerate(state.geometry.names) if not any(state.board.meeples[t]))
    assert game.explain(state, parse_action(f"pick {empty.upper()}")) == f"{empty} holds no meeples"


def test_a_loose_match_must_be_unique() -> None:
    """Two legal actions that differ only in case are never guessed between."""
    options = [Action("x", ("a",)), Action("x", ("A",))]
    assert resolve_typed(Action("X", ("a",)), options) == Action("X", ("a",))
    assert resolve_typed(Action("x", ("a",)), options) == Action("x", ("a",))
    assert resolve_typed(Action("x", ("007",)), [Action("x", ("7",))]) == Action("x", ("7",))


def prompt_session(state: State) -> tuple[Session, io.StringIO]:
    """A session of people only at ``state``, printing into the returned buffer."""
    out = io.StringIO()
    record = new_record(rules(), 1, len(state.players), ["human"] * len(state.players))
    return Session(rules(), state, record, Console(file=out, width=200), input), out


@pytest.mark.parametrize("twelve", ["١٢", "１２", "𝟙𝟚", "۱۲"])
def test_digits_of_any_script_mean_the_number_they_show(tmp_path: Path, twelve: str) -> None:
    """``bid ١٢`` (Arabic-Indic digits), full-width or mathematical digits are ``bid 12``
    given to ``naqala apply`` or typed at the prompt; ``١`` alone is option 1."""
    state = rules().new_game(3, 1)
    bid = Action("bid", ("12",))
    code, out, err = apply_cli(tmp_path, state, f"bid {twelve}")
    assert code == 0, err
    assert json.loads(out) == json.loads(state_to_json(rules(), rules().apply(state, bid)))
    session, _ = prompt_session(state)
    assert session.command(f"bid {twelve}") is True
    assert session.record.actions == (str(bid),)
    session, _ = prompt_session(state)
    assert session.command(twelve[0]) is True  # the first digit alone: option 1
    assert session.record.actions == (str(rules().legal_actions(state)[0]),)


@pytest.mark.parametrize("text", ["²", "bid ²", "bid ½", "Ⅻ", "bid 1٫2"])
def test_what_only_looks_like_a_number_is_refused_with_a_reason(tmp_path: Path, text: str) -> None:
    """A superscript, a fraction or a Roman numeral is no number: one line saying which
    characters actions are made of, at the prompt (the game goes on) and by ``apply``."""
    state = rules().new_game(3, 1)
    session, out = prompt_session(state)
    assert session.command(text) is False
    said = out.getvalue()
    assert said.startswith("illegal: ") and "digits 0-9" in said and said.count("\n") == 1
    assert session.state == state and session.record.actions == ()
    code, stdout, err = apply_cli(tmp_path, state, text)
    assert code == 2 and stdout == "" and "digits 0-9" in err and "Traceback" not in err


def test_tabs_and_extra_spaces_separate_like_one_space(tmp_path: Path) -> None:
    """``\tbid\t 12 `` is ``bid 12``; an empty or blank line at the prompt decides nothing
    and says nothing; given to ``apply`` it is refused as an empty action."""
    state = rules().new_game(3, 1)
    session, out = prompt_session(state)
    for blank in ("", "   ", "\t"):
        assert session.command(blank.strip()) is False
    assert out.getvalue() == "" and session.record.actions == ()
    assert session.command("\tbid\t 12 ".strip()) is True
    assert session.record.actions == ("bid 12",)
    code, out_text, err = apply_cli(tmp_path, state, " bid\t\t12\t")
    assert code == 0, err
    assert (
        json.loads(out_text)["decision"]
        == json.loads(state_to_json(rules(), rules().apply(state, Action("bid", ("12",)))))[
            "decision"
        ]
    )
    code, _, err = apply_cli(tmp_path, state, " \t ")
    assert code == 2 and "empty action" in err


# -- absurd input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "bid " + "9" * 5000,
        "pick " + "a" * 100_000,
        "drop " + "c3 " * 50_000,
        "sell " + "x" * (MAX_TOKEN + 1),
        "kill " + " p2" * (MAX_ARGS + 1),
        "a" + "1" * 5000 + " b1W",
    ],
)
def test_absurdly_long_actions_get_a_short_message(tmp_path: Path, text: str) -> None:
    """Huge numbers and huge texts are refused by the notation with a message of one short
    line (no traceback, the input not echoed whole), by ``naqala apply`` and at the
    prompt."""
    with pytest.raises(NotationError) as caught:
        parse_action(text)
    assert len(str(caught.value)) < 120
    code, out, err = apply_cli(tmp_path, rules().new_game(3, 1), text)
    assert code == 2 and out == ""
    assert len(err) < 250 and "Traceback" not in err
    typed = [text]

    def ask(prompt: str) -> str:
        if typed:
            return typed.pop()
        raise EOFError

    record = new_record(rules(), 1, 2, ["human", "ai:random"])
    console = Console(file=io.StringIO(), width=100)
    session = Session(rules(), rules().new_game(2, 1), record, console, ask)
    session.command(text)
    said = console.file.getvalue()  # type: ignore[attr-defined]
    assert said.startswith("illegal: ") and len(said) < 250


def test_an_absurd_option_number_gets_a_short_message() -> None:
    """Thousands of digits at the prompt are no option, said in one short line."""
    record = new_record(rules(), 1, 2, ["human", "ai:random"])
    console = Console(file=io.StringIO(), width=100)
    session = Session(rules(), rules().new_game(2, 1), record, console, input)
    assert session.command("9" * 5000) is False
    said = console.file.getvalue()  # type: ignore[attr-defined]
    assert said.startswith("illegal: there is no option 999") and len(said) < 120
    state = at_pick()
    record = new_record(rules(), 1, 3, ["human"] * 3)
    console = Console(file=io.StringIO(), width=100)
    session = Session(rules(), state, record, console, input)
    assert session.command("a" + "1" * 5000 + " b1W") is False  # a whole move, absurd
    said = console.file.getvalue()  # type: ignore[attr-defined]
    assert said.startswith("illegal: ") and "too long" in said and len(said) < 200


def test_long_but_legal_tokens_are_within_the_bounds() -> None:
    """Every action of random games with both expansions is within the notation's bounds
    (so each still round-trips)."""
    game = build_rules(["artisans", "djinns"])
    for seed in range(3):
        state = game.new_game(5, seed)
        agent = RandomAgent(seed)
        while not state.is_over:
            options = game.legal_actions(state)
            for option in options:
                text = format_action(option)
                assert len(text) <= MAX_TEXT and parse_action(text) == option
            state = game.apply(state, agent.choose(game, state, options))


TOKEN = st.text(
    alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+-.:'@",
    min_size=1,
    max_size=MAX_TOKEN,
)


@settings(max_examples=200)
@given(kind=TOKEN, args=st.lists(TOKEN, max_size=MAX_ARGS))
def test_every_action_within_the_bounds_round_trips(kind: str, args: list[str]) -> None:
    """Any action that can be built can be written and read back, however long."""
    action = Action(kind, tuple(args))
    assert parse_action(format_action(action)) == action


def test_actions_beyond_the_bounds_cannot_be_built() -> None:
    """The bounds hold for actions made by plugins too, so nothing is made that could not
    be read back."""
    with pytest.raises(NotationError, match="too long"):
        Action("bid", ("1" * (MAX_TOKEN + 1),))
    with pytest.raises(NotationError, match="at most"):
        Action("x", ("a",) * (MAX_ARGS + 1))
