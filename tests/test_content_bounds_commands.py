"""A ``[settings]`` or ``[tables]`` number beyond ``MAX_NUMBER`` is refused with its file
and path by every command that builds rules from content: a content-only house rule
(``--house-rules``), a Python house rule's or an installed plugin's file (``-x``), and
``content check`` — not only by the parser (``parse_content_file``), which has always
reported it, while every command fell over the same file as an internal error."""

from __future__ import annotations

import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from naqala.cli.app import app
from naqala.core import plugins
from naqala.core.content import ContentError, load_content
from naqala.core.hookspecs import hookimpl
from naqala.core.overrides import MAX_NUMBER

runner = CliRunner()

#: each too-large number and where it is reported
CASES = {
    "setting": ("[settings]\nvizier_bonus = 2000000\n", "$.settings.vizier_bonus: 2000000 is more"),
    "negative setting": (
        "[settings]\nvizier_bonus = -2000000\n",
        "$.settings.vizier_bonus: -2000000 is less",
    ),
    "table": ("[tables]\nspare = [1, 2, 3000000]\n", "$.tables.spare[2]: 3000000 is more"),
}

#: every command that takes ``--house-rules``, as far as building its rules (each refuses
#: before a game is played)
COMMANDS: dict[str, tuple[str, ...]] = {
    "play": ("play", "--seats", "ai:random,ai:random"),
    "simulate": ("simulate", "--games", "1"),
    "compare": ("compare", "--games", "2"),
    "skill": ("skill", "--seats", "random,greedy", "--games", "1"),
    "balance": ("balance", "--games", "1", "--skill-games", "1"),
    "extremes": ("extremes", "--budget", "1g"),
    "interactions": ("interactions", "--components", "djinn:jafaar,djinn:utug", "--games", "2"),
    "serve": ("serve", "--port", "1"),
}


def house_rule(tmp_path: Path, body: str) -> Path:
    """The file, its bytes made its test's own: the same bytes are one plugin for the
    whole process (named after the first path they were read from)."""
    path = tmp_path / "big.toml"
    path.write_text(
        f'# {tmp_path.name}\n[house-rule]\nname = "big"\ndescription = "too big"\n\n{body}'
    )
    return path


def refused(*args: str) -> str:
    result: Result = runner.invoke(app, list(args))
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    return result.stderr.strip()


def test_the_bound_is_a_million() -> None:
    assert MAX_NUMBER == 1_000_000


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_loading_such_a_file_names_it_and_the_path(case: str, tmp_path: Path) -> None:
    """The loader (what building rules uses) reports the number itself; the sound rest of
    the file is still merged, so a duplicate id elsewhere is reported beside it."""
    body, where = CASES[case]
    path = house_rule(tmp_path, body)
    with pytest.raises(ContentError) as caught:
        load_content([Path("content/base.toml"), path])
    assert caught.value.problems == [f"{path}: {where} than {MAX_NUMBER}"] or (
        "less" in where and caught.value.problems == [f"{path}: {where} than -{MAX_NUMBER}"]
    )


@pytest.mark.parametrize("command", COMMANDS, ids=list(COMMANDS))
@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_every_house_rules_option_refuses_it_in_one_line(
    command: str, case: str, tmp_path: Path
) -> None:
    body, where = CASES[case]
    path = house_rule(tmp_path, body)
    message = refused(*COMMANDS[command], "--house-rules", str(path))
    assert str(path) in message and where in message
    assert len(message.splitlines()) == 1


def test_tune_refuses_it_in_one_line(tmp_path: Path) -> None:
    pytest.importorskip("optuna")
    space = tmp_path / "space.toml"
    space.write_text('[[knob]]\ntarget = "settings"\nfield = "vizier_bonus"\nlow = 5\nhigh = 9\n')
    path = house_rule(tmp_path, CASES["table"][0])
    message = refused(
        "tune", str(space), "--out", str(tmp_path / "best.toml"), "--house-rules", str(path)
    )
    assert f"{path}: {CASES['table'][1]}" in message


def test_content_check_lists_it_with_its_file_and_path(tmp_path: Path) -> None:
    """``content check`` prints every problem it finds and exits 1 (docs/cli.md), the
    bound among them, no longer as an internal error."""
    path = house_rule(tmp_path, CASES["setting"][0] + CASES["table"][0])
    result = runner.invoke(app, ["content", "check", str(path)])
    assert result.exit_code == 1, result.stderr
    assert "internal error" not in result.stderr
    assert f"{path}: {CASES['setting'][1]} than {MAX_NUMBER}" in result.stdout.splitlines()


def content_plugin(name: str, path: Path, py: bool = False) -> Callable[[], Any]:
    """An installed plugin (or a Python house rule's module) whose content is ``path``."""

    def load() -> types.ModuleType:
        module = types.ModuleType(f"naqala_fake_{name}")
        module.NAME = name  # type: ignore[attr-defined]
        module.VERSION = "1.0"  # type: ignore[attr-defined]
        module.REQUIRES = ("base",)  # type: ignore[attr-defined]

        @hookimpl
        def naqala_content_files() -> list[Path]:
            return [path]

        module.naqala_content_files = naqala_content_files  # type: ignore[attr-defined]
        return module

    return load


class FakeEntryPoint:
    def __init__(self, name: str, load: Callable[[], Any]) -> None:
        self.name = name
        self.value = f"naqala_fake.{name}"
        self.group = plugins.GROUP
        self.load = load


@pytest.mark.parametrize("command", ["play", "simulate", "compare", "skill", "balance"])
def test_an_expansions_content_is_refused_in_one_line_too(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``-x`` of an installed plugin whose content file holds such a number."""
    content = tmp_path / "huge.toml"
    content.write_text(CASES["table"][0])
    point = FakeEntryPoint("huge", content_plugin("huge", content))
    real = plugins.installed_entry_points()
    monkeypatch.setattr(plugins, "installed_entry_points", lambda: {**real, "huge": point})
    args = list(COMMANDS[command])
    if command == "compare":
        args += ["--variant-x", "huge"]
    else:
        args += ["-x", "huge"]
    message = refused(*args)
    assert f"{content}: {CASES['table'][1]}" in message


def test_a_python_house_rules_content_is_refused_in_one_line(tmp_path: Path) -> None:
    content = tmp_path / "huge.toml"
    content.write_text(CASES["setting"][0])
    rule = tmp_path / "huge_rule.py"
    rule.write_text(
        "from pathlib import Path\n"
        "from naqala.core.hookspecs import hookimpl\n"
        'NAME = "huge-rule"\n'
        'DESCRIPTION = "content beyond the bounds"\n'
        "@hookimpl\n"
        "def naqala_content_files():\n"
        f"    return [Path({str(content)!r})]\n"
    )
    message = refused("simulate", "--games", "1", "--house-rules", str(rule))
    assert f"{content}: {CASES['setting'][1]}" in message
