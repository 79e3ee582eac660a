"""More of the ``naqala`` command: installed plugins (and broken ones), expansion names
with typos, checking content files, the simulate progress bar, the djinn list."""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner, Result

import naqala.plugins.base as base_plugin
from naqala.cli.app import app, register_plugin_commands
from naqala.cli.simulate import simulate
from naqala.content import content_path
from naqala.core import plugins
from naqala.core.content import ContentError, load_content
from naqala.core.engine import build_rules

runner = CliRunner()


def run(*args: str) -> Result:
    return runner.invoke(app, list(args), env={"COLUMNS": "200"})


def ok(*args: str) -> str:
    result = run(*args)
    assert result.exit_code == 0, result.stderr or repr(result.exception)
    assert result.stderr == ""
    return result.stdout


# -- fake installed plugins ---------------------------------------------------------------------


class FakeEntryPoint:
    """Stands in for an ``importlib.metadata.EntryPoint``: ``load()`` returns the plugin or
    raises what loading it would raise."""

    def __init__(self, name: str, load: Callable[[], Any]) -> None:
        self.name = name
        self.value = f"naqala_fake.{name}"
        self.group = plugins.GROUP
        self._load = load

    def load(self) -> Any:
        return self._load()


def install(monkeypatch: pytest.MonkeyPatch, *points: FakeEntryPoint) -> None:
    """Make ``points`` look installed, beside the really installed plugins."""
    real = plugins.installed_entry_points()
    fakes = {point.name: point for point in points}
    monkeypatch.setattr(plugins, "installed_entry_points", lambda: {**real, **fakes})


def broken_import() -> Any:
    raise ImportError("No module named 'naqala_oops'")


def desert_plugin() -> types.ModuleType:
    module = types.ModuleType("naqala_fake_desert")
    module.NAME = "desert"  # type: ignore[attr-defined]
    module.VERSION = "2.5"  # type: ignore[attr-defined]
    module.DESCRIPTION = "A fake expansion for tests"  # type: ignore[attr-defined]
    return module


BROKEN = FakeEntryPoint("oops", broken_import)
DESERT = FakeEntryPoint("desert", desert_plugin)


# -- expansions list ----------------------------------------------------------------------------


def test_expansions_list_shows_base_with_its_version_and_hooks() -> None:
    """The table names base, its version, ``ok`` and hooks it implements."""
    out = ok("expansions", "list")
    assert "Installed plugins" in out
    row = next(line for line in out.splitlines() if "│ base " in line)
    assert base_plugin.VERSION in row and " ok " in row
    assert "new_game" in out and "score_lines" in out
    assert "naqala_new_game" not in out  # hooks are shown without the prefix


def test_expansions_list_json() -> None:
    """``--json``: one entry per installed plugin, sorted by name; base is ok, has its
    version, description and hooks, and no error."""
    entries = json.loads(ok("expansions", "list", "--json"))
    assert [e["name"] for e in entries] == sorted(plugins.installed_entry_points())
    [entry] = [e for e in entries if e["name"] == "base"]
    assert entry["version"] == base_plugin.VERSION
    assert entry["status"] == "ok" and entry["error"] == ""
    assert entry["description"] == base_plugin.DESCRIPTION
    assert {"naqala_new_game", "naqala_score_lines", "naqala_stages"} <= set(entry["hooks"])
    assert entry["hooks"] == sorted(entry["hooks"])
    for entry in entries:
        assert set(entry) == {
            "name",
            "aliases",
            "version",
            "status",
            "description",
            "hooks",
            "error",
        }
    [whims] = [e for e in entries if e["name"] == "whims"]
    assert whims["aliases"] == ["djinns"]
    assert all(e["aliases"] == [] for e in entries if e is not whims)


def test_expansions_list_names_the_aliases() -> None:
    """The table shows a plugin's other names next to it: ``whims (djinns)``."""
    out = ok("expansions", "list")
    assert "whims (djinns)" in out


def test_a_broken_plugin_is_listed_as_broken(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plugin whose import fails is listed as broken, with the error; the others are
    still listed and the command exits 0."""
    install(monkeypatch, BROKEN, DESERT)
    entries = json.loads(ok("expansions", "list", "--json"))
    by_name = {e["name"]: e for e in entries}
    assert by_name["oops"]["status"] == "broken"
    assert by_name["oops"]["error"] == "ImportError: No module named 'naqala_oops'"
    assert by_name["base"]["status"] == "ok"
    assert by_name["desert"]["status"] == "ok" and by_name["desert"]["version"] == "2.5"
    assert by_name["desert"]["hooks"] == []
    out = ok("expansions", "list")
    row = next(line for line in out.splitlines() if "│ oops " in line)
    assert "broken: ImportError" in row
    assert "desert" in out and "base" in out


def test_a_plugin_without_a_name_is_broken_too(monkeypatch: pytest.MonkeyPatch) -> None:
    install(monkeypatch, FakeEntryPoint("nameless", lambda: types.ModuleType("nameless")))
    [entry] = [e for e in json.loads(ok("expansions", "list", "--json")) if e["name"] == "nameless"]
    assert entry["status"] == "broken" and "has no NAME" in entry["error"]


def test_a_broken_plugin_does_not_stop_the_other_commands(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Plugin subcommands: a plugin that fails to load is skipped with a warning on stderr
    and reported; commands that do not use it work."""
    install(monkeypatch, BROKEN)
    assert "oops" in register_plugin_commands(typer.Typer())
    assert "plugin 'oops' failed to load" in capsys.readouterr().err
    assert json.loads(ok("state", "new", "-p", "2"))["format"] == "naqala-state"


# -- expansion names ----------------------------------------------------------------------------


@pytest.mark.parametrize("typo", ["desrt", "dessert", "Desert"])
def test_a_misspelt_expansion_suggests_the_closest_name(
    monkeypatch: pytest.MonkeyPatch, typo: str
) -> None:
    """``-x desrt`` when ``desert`` is installed: exit 2, nothing on stdout, a message that
    lists the known expansions and suggests ``desert``."""
    install(monkeypatch, DESERT)
    result = run("state", "new", "-x", typo)
    assert result.exit_code == 2
    assert result.stdout == ""
    err = result.stderr
    assert err.startswith(f"naqala: unknown expansion {typo!r}")
    assert "known expansions: " in err and "desert" in err
    assert err.rstrip().endswith("(did you mean 'desert'?)")
    assert "Traceback" not in err


def test_an_unknown_expansion_far_from_any_name_suggests_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    install(monkeypatch, DESERT)
    result = run("state", "new", "-x", "zzzzzzzz")
    assert result.exit_code == 2 and result.stdout == ""
    assert "did you mean" not in result.stderr


def test_enabling_a_broken_plugin_exits_2(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Enabling a broken plugin by name fails with exit 2 and a message, not a traceback."""
    install(monkeypatch, BROKEN)
    result = run("state", "new", "-x", "oops")
    assert result.exit_code == 2, (result.stdout, result.stderr, result.exception)
    assert result.stdout == ""
    assert "oops" in result.stderr and "Traceback" not in result.stderr


# -- content check ------------------------------------------------------------------------------

# a valid addition: a second Jafaar (a known kind, so it has a power)
GOOD_CONTENT = '[[djinn]]\nid = "jafaar-2"\nname = "Jafaar II"\nvp = 6\nkind = "jafaar"\n'


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_content_check_of_good_files_says_ok(tmp_path: Path) -> None:
    """A valid file (and base.toml itself, checked once): ``ok``, exit 0."""
    good = write(tmp_path, "good.toml", GOOD_CONTENT)
    assert ok("content", "check", str(good)) == "ok: 1 file(s) checked\n"
    base = str(content_path("base.toml"))
    assert ok("content", "check", base, str(good)) == "ok: 2 file(s) checked\n"


def test_content_check_prints_every_problem_of_every_file(tmp_path: Path) -> None:
    """Several problems in several files: every one is printed on stdout with its file and
    ``$.path``, the count goes to stderr, exit code 1."""
    values = write(
        tmp_path,
        "values.toml",
        '[[tile]]\nkind = "village"\nvp = 5\ncount = 0\n'
        '[[colour]]\nid = "pink"\nletter = "p"\nname = "Pink"\ncount = 3\n',
    )
    shapes = write(
        tmp_path,
        "shapes.toml",
        '[[djinn]]\nid = "x"\nname = "X"\nkind = "x"\n[[dragon]]\nid = "y"\n',
    )
    types_ = write(tmp_path, "types.toml", '[[tile]]\nkind = "village"\nvp = "six"\n')
    good = write(tmp_path, "good.toml", GOOD_CONTENT)
    paths = [values, shapes, types_, good]
    result = run("content", "check", *(str(p) for p in paths))
    assert result.exit_code == 1, (result.stdout, result.stderr)
    printed = result.stdout.splitlines()
    expected = {
        (values, "$.tile[0].count"),
        (values, "$.colour[0].letter"),
        (shapes, "$.djinn[0].vp"),
        (shapes, "$"),
        (types_, "$.tile[0].vp"),
    }
    assert {(Path(line.split(": ")[0]), line.split(": ")[1]) for line in printed} == expected
    assert all(len(line.split(": ", 2)[2]) > 3 for line in printed)  # a reason follows
    assert not any(line.startswith(str(good)) for line in printed)
    with pytest.raises(ContentError) as caught:
        load_content([content_path("base.toml"), *paths])
    assert printed == caught.value.problems
    assert result.stderr == f"{len(printed)} problem(s) found\n"


def test_content_check_of_files_that_cannot_be_read(tmp_path: Path) -> None:
    """Not TOML, missing: one problem each, naming the file; exit code 1."""
    broken = write(tmp_path, "broken.toml", "x = [")
    missing = tmp_path / "missing.toml"
    result = run("content", "check", str(broken), str(missing))
    assert result.exit_code == 1
    printed = result.stdout.splitlines()
    assert len(printed) == 2
    assert printed[0].startswith(f"{broken}: not valid TOML")
    assert printed[1].startswith(f"{missing}: cannot read")


# -- simulate's progress bar --------------------------------------------------------------------

PROGRESS = ("Simulating", "━", "\x1b[?25l", "%")


def test_no_progress_bar_when_stderr_is_not_a_terminal() -> None:
    """The CliRunner's stderr is no terminal: no progress bar, plain or ``--json``."""
    for args in (["--json"], []):
        result = run("simulate", "--games", "2", "--players", "2", *args)
        assert result.exit_code == 0, result.stderr
        assert result.stderr == ""
        assert "Simulating" not in result.stdout
    data = json.loads(run("simulate", "--games", "2", "--players", "2", "--json").stdout)
    assert data["games"] == 2


def test_a_progress_bar_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """On a terminal (stderr.isatty()), plain ``simulate`` shows its progress on stderr and
    nothing of it on stdout."""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    simulate(games=3, players=2, seed=0, expansion=None, as_json=False)
    out, err = capsys.readouterr()
    assert "Simulating" in err and "100%" in err
    assert out.startswith("3 games, 2 players, seed 0")
    assert "Simulating" not in out


def test_no_progress_bar_in_json_even_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--json`` output stays one JSON document and stderr stays empty, terminal or not."""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    simulate(games=3, players=2, seed=0, expansion=None, as_json=True)
    out, err = capsys.readouterr()
    assert err == ""
    assert not any(mark in out for mark in PROGRESS[:3])
    assert json.loads(out)["games"] == 3


# -- djinns -------------------------------------------------------------------------------------


def test_djinns_lists_all_22_djinns() -> None:
    """``naqala djinns`` prints every djinn of the base game by name."""
    names = [spec.name for spec in build_rules().content.deck("djinns")]
    assert len(names) == 22
    out = ok("djinns")
    for name in names:
        assert name in out, name
    markdown = ok("djinns", "--markdown")
    for name in names:
        assert name in markdown, name


def test_simulate_takes_house_rule_files() -> None:
    """`simulate --house-rules FILE` plays under the rule (its plugin is listed)."""
    root = Path(__file__).resolve().parent.parent
    result = CliRunner().invoke(
        app,
        [
            "simulate",
            "-n",
            "2",
            "-p",
            "3",
            "--json",
            "--house-rules",
            str(root / "plugins" / "house" / "big_viziers.toml"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["plugins"] == ["base", "big-viziers"]


def test_ctrl_c_before_a_command_has_its_handler_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Ctrl-C while the command line's modules are still being imported (no command's
    own handler is in place yet) ends with exit code 130 and one line, no traceback."""
    import types

    from naqala.cli import entry

    def interrupted_import(args: list[str]) -> None:
        raise KeyboardInterrupt

    stand_in = types.ModuleType("naqala.cli.app")
    stand_in.main = interrupted_import  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "naqala.cli.app", stand_in)
    with pytest.raises(SystemExit) as stopped:
        entry.main(["simulate", "--games", "1"])
    assert stopped.value.code == 130
    assert capsys.readouterr().err == "naqala: interrupted\n"
