"""Plugins are who they say they are, and a failing plugin is named, not hidden.

Two plugins with one NAME are refused naming both sources (they used to be dropped
silently); a plugin that calls ``sys.exit()`` on import is reported as broken; a plugin
hook that raises during a command stops it with one line naming the plugin and the hook,
and a game asked to be saved is saved up to that point.
"""

from __future__ import annotations

import json
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import typer

from naqala.cli.app import main, register_plugin_commands
from naqala.cli.failures import failure_line
from naqala.core import plugins
from naqala.core.engine import build_rules
from naqala.core.failures import PluginFailed
from naqala.core.plugins import PluginError, describe_installed

HOUSE = Path(__file__).resolve().parent.parent / "plugins" / "house"


def house_rule(tmp_path: Path, file: str, name: str, body: str = "") -> Path:
    path = tmp_path / file
    path.write_text(
        f"from naqala.core.hookspecs import hookimpl\nNAME = {name!r}\n{body}", encoding="utf-8"
    )
    return path


# -- one NAME, one plugin -----------------------------------------------------------------------


def test_two_house_rules_with_one_name_are_refused_naming_both_files(tmp_path: Path) -> None:
    first = house_rule(tmp_path, "one.py", "twin")
    second = house_rule(tmp_path, "two.py", "twin", "# another file\n")
    with pytest.raises(PluginError) as caught:
        build_rules(house_rules=[first, second])
    message = str(caught.value)
    assert "two plugins are named 'twin'" in message
    assert str(first.resolve()) in message and str(second.resolve()) in message


@pytest.mark.parametrize("name", ["base", "artisans"])
def test_a_house_rule_named_like_an_enabled_plugin_is_refused(tmp_path: Path, name: str) -> None:
    rule = house_rule(tmp_path, "impostor.py", name)
    expansions = [] if name == "base" else [name]
    with pytest.raises(PluginError) as caught:
        build_rules(expansions, [rule])
    message = str(caught.value)
    assert f"two plugins are named {name!r}" in message
    assert f"the installed plugin naqala.plugins.{name}" in message
    assert f"the house rule {rule.resolve()}" in message


def test_the_same_plugin_asked_for_twice_is_one_plugin(tmp_path: Path) -> None:
    """``-x artisans -x artisans``, an alias beside its name, one file given twice: fine."""
    assert build_rules(["artisans", "artisans"]).ruleset == ("base", "artisans")
    assert build_rules(["djinns", "whims"]).ruleset == ("base", "djinns")
    rule = house_rule(tmp_path, "once.py", "once")
    assert build_rules(house_rules=[rule, rule]).ruleset == ("base", "once")


def install_distribution(
    folder: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    module: str,
    source: str,
    plugin: str = "artisans",
) -> None:
    """Install (for this test) a distribution ``name`` whose entry point ``plugin`` is
    ``module``, written from ``source``."""
    info = folder / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[naqala.plugins]\n{plugin} = {module}\n")
    (folder / f"{module}.py").write_text(source, encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder))


def test_two_installed_plugins_of_one_name_are_refused_naming_both(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second distribution that installs a plugin under a name already taken would
    stand in for the first, or not, by the order of the folders: neither loads."""
    install_distribution(
        tmp_path, monkeypatch, "naqala-fake-artisans", "fake_artisans", 'NAME = "artisans"\n'
    )
    with pytest.raises(PluginError) as caught:
        build_rules(["artisans"])
    message = str(caught.value)
    assert "two installed plugins are named 'artisans'" in message
    assert "naqala.plugins.artisans (distribution naqala)" in message
    assert "fake_artisans (distribution naqala-fake-artisans)" in message
    entries = {e["name"]: e for e in describe_installed()}
    assert entries["artisans"]["status"] == "broken"
    assert entries["artisans"]["error"] == message
    assert build_rules(["djinns"]).ruleset == ("base", "djinns")  # the others still load


# -- sys.exit() on import -----------------------------------------------------------------------


class FakeEntryPoint:
    def __init__(self, name: str, load: Callable[[], Any]) -> None:
        self.name = name
        self.value = f"naqala_fake.{name}"
        self.group = plugins.GROUP
        self._load = load

    def load(self) -> Any:
        return self._load()


def quitter() -> types.ModuleType:
    raise SystemExit(3)


def install_quitter(monkeypatch: pytest.MonkeyPatch) -> None:
    real = plugins.installed_entry_points()
    fake = {"quitter": FakeEntryPoint("quitter", quitter)}
    monkeypatch.setattr(plugins, "installed_entry_points", lambda: {**real, **fake})


def test_a_plugin_that_exits_on_import_is_listed_as_broken(monkeypatch: pytest.MonkeyPatch) -> None:
    install_quitter(monkeypatch)
    entries = {e["name"]: e for e in describe_installed()}
    assert entries["quitter"]["status"] == "broken"
    assert entries["quitter"]["error"] == "it called sys.exit(3) while loading"
    assert entries["base"]["status"] == "ok"


def test_a_plugin_that_exits_on_import_stops_no_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    install_quitter(monkeypatch)
    assert "quitter" in register_plugin_commands(typer.Typer())
    assert "plugin 'quitter' failed to load: it called sys.exit(3)" in capsys.readouterr().err
    assert build_rules(["whims"]).ruleset == ("base", "djinns")  # aliases still resolve
    with pytest.raises(PluginError, match=r"plugin 'quitter' failed to load: it called sys.exit"):
        build_rules(["quitter"])


def test_an_installed_distribution_that_exits_on_import_stops_no_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same through a really installed distribution and the command line."""
    monkeypatch.delenv("NAQALA_DEBUG", raising=False)
    source = 'import sys\nNAME = "leaver"\nsys.exit(4)\n'
    install_distribution(tmp_path, monkeypatch, "naqala-leaver", "leaver", source, "leaver")
    assert run_main(["simulate", "-n", "1", "-p", "2", "-j", "1"]) == 0
    entries = {e["name"]: e for e in describe_installed()}
    assert entries["leaver"]["status"] == "broken"
    capsys.readouterr()
    assert run_main(["simulate", "-n", "1", "-x", "leaver"]) == 2
    assert "plugin 'leaver' failed to load: it called sys.exit(4)" in capsys.readouterr().err


def test_a_house_rule_that_exits_on_import_is_a_plugin_error(tmp_path: Path) -> None:
    rule = house_rule(tmp_path, "bye.py", "bye", "import sys\nsys.exit('bye')\n")
    with pytest.raises(
        PluginError, match=r"house rule failed to load: it called sys.exit\('bye'\)"
    ):
        build_rules(house_rules=[rule])


# -- a hook that raises during a command ----------------------------------------------------------

EXPLODING_EVENT = """
@hookimpl
def naqala_event(rules, state, event):
    if state.round >= 2:
        raise KeyError("kaboom")
    return None
"""


def run_main(args: list[str]) -> int:
    with pytest.raises(SystemExit) as caught:
        main(args)
    return int(caught.value.code or 0)


def test_a_raising_hook_stops_the_command_with_one_line_naming_plugin_and_hook(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NAQALA_DEBUG", raising=False)
    monkeypatch.setenv("NAQALA_ENGINE", "python")  # auto's line would say boom keeps Python
    rule = house_rule(tmp_path, "boom.py", "boom", EXPLODING_EVENT)
    assert run_main(["simulate", "-n", "1", "--house-rules", str(rule)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("naqala: plugin 'boom' failed in hook naqala_event: KeyError: 'kaboom'")
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_debug_shows_the_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exception reaches the top, carrying the plugin's own as its cause (a study
    names the plugin where the game ran, which may be another process)."""
    rule = house_rule(tmp_path, "boom.py", "boom", EXPLODING_EVENT)
    with pytest.raises(PluginFailed) as caught:
        main(["--debug", "simulate", "-n", "1", "--house-rules", str(rule)])
    assert isinstance(caught.value.__cause__, KeyError)
    monkeypatch.setenv("NAQALA_DEBUG", "1")
    with pytest.raises(KeyError, match="kaboom"):  # a game played in this process
        main(["play", "--seats", "ai,ai", "--seed", "3", "--house-rules", str(rule)])


def test_a_hook_raising_in_a_worker_process_is_named_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``simulate --jobs 2`` plays in worker processes, whose tracebacks stay there: the
    line still names the plugin and the hook, and the game."""
    monkeypatch.delenv("NAQALA_DEBUG", raising=False)
    monkeypatch.setenv("NAQALA_ENGINE", "python")  # auto's line would say boom keeps Python
    rule = house_rule(tmp_path, "boom.py", "boom", EXPLODING_EVENT)
    assert run_main(["simulate", "-n", "2", "--jobs", "2", "--house-rules", str(rule)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("naqala: plugin 'boom' failed in hook naqala_event: KeyError: 'kaboom'")
    assert "(game seed " in err
    assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_a_failing_stage_is_named_with_its_plugin() -> None:
    """A stage's method (not a hook) that raises: the plugin and the stage are named."""
    from naqala.core.hookspecs import hookimpl
    from naqala.core.stage import Stage

    class Broken(Stage):
        def enter(self, rules: Any, state: Any) -> Any:
            raise ValueError("no way")

    class Village:
        NAME = "bad-village"
        REPLACES = ("tile:village",)

        @hookimpl
        def naqala_tile_actions(self) -> dict[str, Stage]:
            return {"village": Broken()}

    rules = build_rules(extra_plugins=[Village()])
    with pytest.raises(ValueError) as caught:
        from naqala.testing.invariants import checked_playout

        checked_playout(rules, 2, seed=1)
    line = failure_line(caught.value)
    assert line.startswith(
        "plugin 'bad-village' failed in stage 'tile:village' (enter): ValueError: no way"
    )


def test_play_saves_the_game_up_to_the_failure_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NAQALA_DEBUG", raising=False)
    rule = house_rule(tmp_path, "boom.py", "boom", EXPLODING_EVENT)
    save = tmp_path / "game.json"
    args = ["play", "--seats", "ai,ai", "--seed", "3", "--house-rules", str(rule)]
    assert run_main([*args, "--save", str(save)]) == 1
    captured = capsys.readouterr()
    assert "naqala: plugin 'boom' failed in hook naqala_event" in captured.err
    record = json.loads(save.read_text(encoding="utf-8"))
    assert record["actions"], "the actions played before the failure are kept"
    assert f"saved to {save}" in captured.out


def test_a_plugin_failing_while_the_rules_are_built_is_named() -> None:
    """A hook that raises before the rules have their table of providers (the content
    files are asked for first): the failure line names the plugin and the hook, instead
    of the reporter itself failing (``'Rules' object has no attribute 'providers'``)."""
    from naqala.core.failures import blame
    from naqala.core.hookspecs import hookimpl

    class Careless:
        NAME = "careless"

        @hookimpl
        def naqala_content_files(self) -> list[Path]:
            raise OSError("the disk is gone")

    with pytest.raises(OSError) as caught:
        build_rules(extra_plugins=[Careless()])
    assert blame(caught.value) == (
        "plugin 'careless' failed in hook naqala_content_files: OSError: the disk is gone"
    )
