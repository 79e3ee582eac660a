"""Every input is bounded: a state, record, board or content file is read only if it is a
regular file of at most its documented size, and a document nested thousands of levels
deep, holding numbers of thousands of digits or a key given twice is refused in one line
(exit code 2 for a command), never a ``MemoryError``, a hang or a ``RecursionError``."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.core.content import parse_content_file
from naqala.core.documents import MAX_DEPTH, DocumentError, parse_json, parse_toml
from naqala.core.files import (
    BOARD_LIMIT,
    CONTENT_LIMIT,
    HOUSE_RULE_LIMIT,
    RECORD_LIMIT,
    STATE_LIMIT,
    FileRefused,
    read_bounded,
)
from naqala.core.hookspecs import hookimpl
from naqala.core.record import RecordError, load_record, record_from_json
from naqala.core.serialize import StateFormatError, state_from_json, state_to_json
from naqala.testing.scenario import base_rules

runner = CliRunner()


def fails(*args: str) -> str:
    """A command that must fail as bad input: exit 2, one line on stderr, no traceback."""
    result = runner.invoke(app, list(args))
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    return result.stderr


def state_text() -> str:
    rules = base_rules()
    return state_to_json(rules, rules.new_game(3, 4))


def _limit_memory() -> None:
    # a reader that reads a device to its end dies here instead of taking the machine
    resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))


def naqala(*args: str) -> subprocess.CompletedProcess[str]:
    """The console script, in a process with 2 GB of memory and 30 s at most."""
    code = "import sys; from naqala.cli.entry import main; main(sys.argv[1:])"
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=30,
        preexec_fn=_limit_memory,
        check=False,
    )


# -- files: regular, and not too large ------------------------------------------------------


DEVICES = [d for d in ("/dev/zero", "/dev/urandom") if os.path.exists(d)]
COMMANDS = [
    ("render", "state"),
    ("actions", "state"),
    ("replay", "record"),
    ("perft", "board"),
]


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize(("command", "kind"), COMMANDS)
def test_a_device_is_no_file_of_any_kind(device: str, command: str, kind: str) -> None:
    """``/dev/zero`` or ``/dev/urandom`` as a state, record or board file: one line naming
    it, exit 2, at once (today: ``MemoryError`` after seconds of reading, or a hang)."""
    result = naqala(command, device)
    assert result.returncode == 2, (kind, result.returncode, result.stderr[-500:])
    assert result.stderr == f"naqala: {device}: cannot read: not a regular file\n"
    assert result.stdout == ""


@pytest.mark.parametrize("device", DEVICES)
def test_a_device_is_no_content_file(device: str) -> None:
    """A content file that is a device is one problem naming it, found at once."""
    code = (
        "from pathlib import Path; from naqala.core.content import parse_content_file; "
        f"print(parse_content_file(Path({device!r}))[1])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=30,
        preexec_fn=_limit_memory,
        check=False,
    )
    assert result.stdout == f"['{device}: cannot read: not a regular file']\n", result.stderr


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_content_check_of_a_device_is_bad_input(device: str) -> None:
    """``content check`` lists a content file's problems (exit 1); a device is no content
    file at all: one line, exit 2, at once."""
    result = naqala("content", "check", device)
    assert result.returncode == 2, result
    assert result.stderr == f"naqala: {device}: cannot read: not a regular file\n"
    assert result.stdout == ""


def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    """Opening a pipe for reading waits for a writer; the reader never opens one."""
    pipe = tmp_path / "state.json"
    os.mkfifo(pipe)
    result = naqala("render", str(pipe))
    assert result.returncode == 2
    assert result.stderr == f"naqala: {pipe}: cannot read: not a regular file\n"


def padded(text: str, limit: int) -> str:
    """``text`` with whitespace after it to one byte beyond ``limit``: still the same
    document to a JSON or TOML parser, but a larger file than the kind may be."""
    return text + " " * (limit + 1 - len(text.encode("utf-8")))


def test_a_state_larger_than_its_limit_is_refused(tmp_path: Path) -> None:
    """A state file beyond ``STATE_LIMIT`` is not read, even when it is a sound state."""
    path = tmp_path / "big.json"
    path.write_text(padded(state_text(), STATE_LIMIT), encoding="utf-8")
    err = fails("render", str(path))
    assert err == f"naqala: {path}: cannot read: larger than 4 MB, the most a state may be\n"
    path.write_text(state_text(), encoding="utf-8")
    assert runner.invoke(app, ["render", str(path)]).exit_code == 0


def test_a_state_on_standard_input_is_bounded_too() -> None:
    result = runner.invoke(app, ["render", "-"], input=padded(state_text(), STATE_LIMIT))
    assert result.exit_code == 2
    assert result.stderr == "naqala: -: cannot read: larger than 4 MB, the most a state may be\n"


def test_a_record_larger_than_its_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big-record.json"
    path.write_text(padded("{}", RECORD_LIMIT), encoding="utf-8")
    with pytest.raises(RecordError, match=r"larger than 4 MB, the most a record may be$"):
        load_record(path)


def test_a_board_file_larger_than_its_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big-board.json"
    board = {"rows": 1, "cols": 2, "meeples": ["R", "R"]}
    path.write_text(padded(json.dumps(board), BOARD_LIMIT), encoding="utf-8")
    err = fails("perft", str(path))
    assert err == f"naqala: {path}: cannot read: larger than 4 MB, the most a board file may be\n"


def test_a_content_file_larger_than_its_limit_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "big.toml"
    path.write_text(padded("[settings]\nelder_vp = 3\n", CONTENT_LIMIT), encoding="utf-8")
    data, problems = parse_content_file(path)
    assert data is None
    assert problems == [f"{path}: cannot read: larger than 1 MB, the most a content file may be"]


def test_a_house_rule_file_is_bounded_and_a_pipe_named_py_is_no_house_rule(
    tmp_path: Path,
) -> None:
    """A house-rule file is read once, bounded like every other file, before it is hashed
    or run: a huge ``.py`` and a named pipe called ``rule.py`` are one line each."""
    big = tmp_path / "big.py"
    big.write_text(padded("# a house rule\n", HOUSE_RULE_LIMIT), encoding="utf-8")
    err = fails("simulate", "--games", "1", "--house-rules", str(big))
    assert err.endswith("larger than 1 MB, the most a house rule may be\n"), err
    pipe = tmp_path / "rule.py"
    os.mkfifo(pipe)
    result = naqala("simulate", "--games", "1", "--house-rules", str(pipe))
    assert result.returncode == 2, result
    assert result.stderr.endswith(f"{pipe}: cannot read: not a regular file\n"), result.stderr


def test_a_file_that_grows_past_its_size_is_cut_at_the_limit(tmp_path: Path) -> None:
    """The size is checked while reading too, not only from the directory entry."""
    path = tmp_path / "file"
    path.write_bytes(b"x" * 11)
    with pytest.raises(FileRefused, match="larger than"):
        read_bounded(path, 10, "state")
    assert read_bounded(path, 11, "state") == b"x" * 11


# -- documents: nesting, numbers, keys given twice --------------------------------------------


def test_json_nested_thousands_deep_is_one_line() -> None:
    """2,000 levels of JSON: the command says so (today: ``internal error:
    RecursionError``)."""
    for deep in ("[" * 2000 + "]" * 2000, '{"a":' * 2000 + "1" + "}" * 2000):
        with pytest.raises(StateFormatError, match="nested more than"):
            state_from_json(deep)
        with pytest.raises(RecordError, match="nested more than"):
            record_from_json(deep)


def test_json_nested_beyond_the_bound_but_within_python_is_refused_with_its_path() -> None:
    """Nesting the parser survives but no naqala document has is refused where it
    starts being too deep."""
    doc = {"a": [json.loads("[" * (MAX_DEPTH + 5) + "]" * (MAX_DEPTH + 5))]}
    with pytest.raises(DocumentError, match=r"^\$\.a\[0\](\[0\])+: nested more than 32"):
        parse_json(json.dumps(doc))
    assert parse_json(json.dumps({"a": [[[1]]]})) == {"a": [[[1]]]}


def test_toml_nested_thousands_deep_is_one_problem(tmp_path: Path) -> None:
    """3,000 levels of TOML, as arrays, inline tables or dotted keys: one problem."""
    texts = [
        "a = " + "[" * 3000 + "]" * 3000,
        "a = " + "{b = " * 3000 + "1" + "}" * 3000,
        "[" + ".".join(["a"] * 3000) + "]",
    ]
    for i, text in enumerate(texts):
        path = tmp_path / f"deep{i}.toml"
        path.write_text(text, encoding="utf-8")
        data, problems = parse_content_file(path)
        assert data is None
        assert len(problems) == 1 and problems[0].startswith(f"{path}: not valid TOML: nested")


def test_huge_integers_are_one_line(tmp_path: Path) -> None:
    """A number of 5,000 digits in TOML or JSON (today: a traceback from Python's digit
    limit, or a message quoting it)."""
    path = tmp_path / "huge.toml"
    path.write_text("[settings]\nstarting_coins = " + "9" * 5000 + "\n", encoding="utf-8")
    assert parse_content_file(path)[1] == [
        f"{path}: not valid TOML: a number of thousands of digits"
    ]
    with pytest.raises(DocumentError, match=r"^not JSON: a number of 5000 digits"):
        parse_json('{"seed": ' + "9" * 5000 + "}")
    board = tmp_path / "board.json"
    board.write_text('{"rows": ' + "9" * 5000 + "}", encoding="utf-8")
    assert fails("perft", str(board)) == (
        f"naqala: {board}: not JSON: a number of 5000 digits (at most 1000)\n"
    )


def test_nan_is_no_json_number() -> None:
    with pytest.raises(DocumentError, match="NaN is not a JSON number"):
        parse_json('{"coins": NaN}')


def test_a_key_given_twice_in_a_state_is_refused_with_its_path(tmp_path: Path) -> None:
    """``"coins": 50, "coins": 999999``: refused naming the key's path (today the last one
    is read, silently)."""
    text = state_text()
    assert '"coins": 50,' in text
    doubled = text.replace('"coins": 50,', '"coins": 50, "coins": 999999,', 2)
    with pytest.raises(StateFormatError) as caught:
        state_from_json(doubled)
    assert str(caught.value) == "$.players[0].coins: the key 'coins' is given twice in one object"
    path = tmp_path / "doubled.json"
    path.write_text(doubled, encoding="utf-8")
    assert "$.players[0].coins: the key 'coins' is given twice" in fails("render", str(path))


def test_a_key_given_twice_in_a_record_or_board_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"^r\.json: \$\.seed: the key 'seed' is given twice"):
        record_from_json('{"format": "naqala-record", "seed": 1, "seed": 2}', "r.json")
    board = tmp_path / "board.json"
    board.write_text('{"rows": 1, "cols": 2, "cols": 1, "meeples": ["R", "R"]}', "utf-8")
    assert "$.cols: the key 'cols' is given twice" in fails("perft", str(board))


def test_toml_keys_given_twice_stay_refused() -> None:
    with pytest.raises(DocumentError, match="not valid TOML"):
        parse_toml("a = 1\na = 2\n")


# -- counters and flags: names the rules know, values within bounds ----------------------------


def state_data(**changes: object) -> dict[str, object]:
    data: dict[str, object] = json.loads(state_text())
    data.update(changes)
    return data


def refusal(data: object) -> str:
    with pytest.raises(StateFormatError) as caught:
        state_from_json(json.dumps(data))
    return str(caught.value)


def test_a_players_counters_are_names_the_rules_keep() -> None:
    """``players[].extras`` is checked like the state's ``extras`` (today only for
    negative values): a name no plugin keeps for a player is refused with its path."""
    data = state_data()
    data["players"][1]["extras"] = {"warp.drive": 3}  # type: ignore[index]
    assert refusal(data) == (
        "$.players[1].extras.warp.drive: no player counter 'warp.drive' (round-used:*)"
    )
    data["players"][1]["extras"] = {"piece.tent": 1}  # type: ignore[index]
    assert refusal(data) == (  # a piece still to place is declared by the plugin giving it
        "$.players[1].extras.piece.tent: no player counter 'piece.tent' (round-used:*)"
    )


def test_a_plugins_declared_player_counter_is_accepted() -> None:
    from naqala.core.engine import build_rules

    rules = build_rules(["whims"])
    data = json.loads(state_to_json(rules, rules.new_game(3, 2)))
    data["players"][0]["extras"] = {"whims.claimed": 2}
    state_from_json(json.dumps(data))
    data["players"][0]["extras"] = {"whims.clamed": 2}
    with pytest.raises(StateFormatError, match=r"no player counter 'whims.clamed' \("):
        state_from_json(json.dumps(data))


@pytest.mark.parametrize("where", ["state", "player"])
def test_counters_are_bounded(where: str) -> None:
    """Counters hold at most ``MAX_COUNTER``, and an object holds at most
    ``MAX_COUNTERS`` of them: a million names is one problem, said at once."""
    data = state_data()
    holder: dict[str, object] = data if where == "state" else data["players"][0]  # type: ignore[index, assignment]
    path = "$.extras" if where == "state" else "$.players[0].extras"
    key = "effects.enki" if where == "state" else "round-used:enki"
    holder["extras"] = {key: 10**12}
    assert refusal(data) == f"{path}.{key}: 1000000000000 is not between 0 and 1000000"
    holder["extras"] = {f"piece.p{i}": 1 for i in range(5000)}
    assert refusal(data) == f"{path}: 5000 counters; at most 1000"


def test_an_effect_counter_names_a_card_of_the_rules() -> None:
    assert refusal(state_data(extras={"effects.lightning": 1})) == (
        "$.extras.effects.lightning: no card 'lightning' in these rules"
    )


def test_flags_are_the_flags_the_rules_know() -> None:
    """A flag no plugin declares, or one given twice, is refused; so is a list of flags
    longer than the rules know, in one problem (today 8 million flags load, ``apply``
    takes 27 s and ``render`` never finishes)."""
    assert refusal(state_data(flags=["warp-drive"])) == (
        "$.flags[0]: no flag 'warp-drive' in these rules (last-camel, no-moves, round-cap)"
    )
    assert refusal(state_data(flags=["no-moves", "no-moves"])) == (
        "$.flags[1]: 'no-moves' is given twice"
    )
    assert refusal(state_data(flags=["x"] * 500_000)) == (
        "$.flags: 500000 flags; these rules know 3 (last-camel, no-moves, round-cap)"
    )
    state_from_json(json.dumps(state_data(flags=["last-camel"])))


# -- content numbers: meaningful bounds, settings something reads -------------------------------


def content_problems(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    data, problems = parse_content_file(path)
    assert data is None
    return [p.removeprefix(f"{path}: ") for p in problems]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            '[[tile]]\nkind = "oasis"\nvp = 1\ncount = 100000000\n',
            "$.tile[0].count: 100000000 is more than 1000",
        ),
        (
            "[settings]\nstarting_coins = 100000000000000000000\n",
            "$.settings.starting_coins: a number of about 20 digits is more than 1000000",
        ),
        (
            '[[override]]\ntarget = "djinn:jafaar"\nvp = 1234567890123456789012\n',
            "$.override[0].vp: a number of about 21 digits is more than 10000",
        ),
        (
            '[[override]]\ntarget = "djinn:enki"\nparams = { coins = -99999999 }\n',
            "$.override[0].params.coins: -99999999 is less than -1000000",
        ),
        (
            "[tables]\nsuit_values = [1, 3, 10000000]\n",
            "$.tables.suit_values[2]: 10000000 is more than 1000000",
        ),
        (
            '[[djinn]]\nid = "zed"\nname = "Zed"\nvp = 99999\nkind = "x"\n',
            "$.djinn[0].vp: 99999 is more than 10000",
        ),
        (
            '[[colour]]\nid = "teal"\nletter = "T"\nname = "Teal"\ncount = 5000\n',
            "$.colour[0].count: 5000 is more than 1000",
        ),
        (
            "[[player_count]]\nplayers = 1000\ncamels = 8\nmarkers = 1\n",
            "$.player_count[0].players: 1000 is more than 100",
        ),
    ],
)
def test_content_numbers_are_bounded_with_file_and_path(
    tmp_path: Path, text: str, problem: str
) -> None:
    """Numbers no game could use are refused where they are written (today a tile of
    ``count = 100000000`` takes minutes and gigabytes, and the others pass silently)."""
    assert content_problems(tmp_path, text) == [problem]


def test_extra_meeples_cannot_add_up_beyond_the_bound(tmp_path: Path) -> None:
    from naqala.core.content import ContentError, load_content

    path = tmp_path / "more.toml"
    path.write_text(
        '[[colour]]\nid = "teal"\nletter = "T"\nname = "Teal"\ncount = 900\n'
        '[[extra_meeples]]\ncolour = "teal"\ncount = 900\n',
        encoding="utf-8",
    )
    with pytest.raises(ContentError) as caught:
        load_content([path])
    assert caught.value.problems == [
        f"{path}: $.extra_meeples[0].count: makes 1800 meeples of 'teal', more than 1000"
    ]


def test_a_setting_nothing_reads_is_an_error_naming_the_known_ones(tmp_path: Path) -> None:
    """Content alone (a house rule of a TOML file, ``naqala content check``) may set the
    settings of the plugins in play, not invent one (``warp_drive = 3`` passed silently)."""
    path = tmp_path / "warp.toml"
    path.write_text("[settings]\nwarp_drive = 3\nelder_vp = 3\n", encoding="utf-8")
    result = runner.invoke(app, ["content", "check", str(path)])
    assert result.exit_code == 1
    line = result.stdout.strip()
    assert line.startswith(
        f"{path} (plugin 'checked-files'): settings.warp_drive: no plugin reads a setting "
        "'warp_drive' (the settings of these rules: assassins.protect, bidding, "
        "djinn_limit_round_2p,"
    )
    assert "elder_vp" in line and "starting_coins" in line and "\n" not in line
    path.write_text("[settings]\nelder_vp = 3\ndjinns_row = 4\n", encoding="utf-8")
    assert runner.invoke(app, ["content", "check", str(path)]).exit_code == 0


def test_a_plugin_with_code_may_bring_settings_of_its_own(tmp_path: Path) -> None:
    """A setting of a plugin that has code (a check, a stage…) is that code's to read."""
    from naqala.core.engine import build_rules

    path = tmp_path / "wells.toml"
    path.write_text("[settings]\nwell_depth = 3\n", encoding="utf-8")

    class Wells:
        NAME = "wells"

        @hookimpl
        def naqala_content_files(self) -> list[Path]:
            return [path]

        @hookimpl
        def naqala_check_rules(self, rules: object) -> list[str]:
            return []

    assert build_rules(extra_plugins=[Wells()]).content.setting("well_depth") == 3


@pytest.mark.parametrize("device", DEVICES)
def test_a_house_rules_content_file_that_is_a_device_stops_the_command(
    tmp_path: Path, device: str
) -> None:
    """A house rule naming a device as its content: one line and exit 2 when the rules
    are built, whatever the command."""
    rule = tmp_path / "zero.py"
    rule.write_text(
        "from pathlib import Path\nfrom naqala.core.hookspecs import hookimpl\n"
        f'NAME = "zero"\n\n@hookimpl\ndef naqala_content_files():\n    return [Path({device!r})]\n',
        encoding="utf-8",
    )
    result = naqala("simulate", "-n", "1", "--house-rules", str(rule))
    assert result.returncode == 2, result.stderr[-500:]
    assert result.stderr == f"naqala: {device}: cannot read: not a regular file\n"


def test_a_state_of_the_largest_seed_still_loads() -> None:
    """The digit bound is far above any number a game holds: the largest seed (20 digits)
    is saved and read back as it was; a longer one is no seed (tests/test_seed_domain.py)."""
    rules = base_rules()
    state = rules.new_game(3, 2**64 - 1)
    assert state_from_json(state_to_json(rules, state))[1] == state
