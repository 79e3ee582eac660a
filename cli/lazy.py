"""Subcommands imported only when they run.

``naqala actions STATE`` should not pay for importing the game player, the balance lab
and the HTML replay. A command listed in ``LAZY_COMMANDS`` lives in its own module with a
``register(app)`` function (as every subcommand module has); the group imports that
module only when the command is run or the full help is shown. A new subcommand module
is added to the table, not imported by ``cli/app.py``.
"""

from __future__ import annotations

import importlib
from typing import Any

import typer
from typer.core import TyperGroup

#: command name -> the module whose ``register(app)`` adds it, in the order listed in help
LAZY_COMMANDS = {
    "replay": "naqala.cli.replay",
    "render": "naqala.cli.picture",
    "play": "naqala.cli.play",
    "compare": "naqala.cli.compare",
    "simulate": "naqala.cli.simulate",
    "skill": "naqala.cli.skill",
    "tournament": "naqala.cli.tournament",
    "balance": "naqala.cli.balance",
    "tune": "naqala.cli.tune",
    "interactions": "naqala.cli.interactions",
    "report": "naqala.cli.report_games",
    "extremes": "naqala.cli.extremes",
    "codec": "naqala.cli.codec",
    "serve": "naqala.cli.serve",
}


class SummaryGroup(TyperGroup):
    """A group whose list of commands shows the first paragraph of each docstring as one
    line: the rich help keeps a docstring's own line breaks, which the list would print
    as they are, in the middle of a sentence."""

    def list_commands(self, ctx: Any) -> list[str]:
        self.summarise()
        names: list[str] = super().list_commands(ctx)
        return names

    def summarise(self) -> None:
        for command in self.commands.values():
            if command.short_help is None and command.help:
                first = command.help.split("\n\n", 1)[0]
                command.short_help = " ".join(first.split())


class LazyGroup(SummaryGroup):
    """The ``naqala`` group: the commands of ``LAZY_COMMANDS`` are loaded on first use."""

    # commands and contexts are typed Any: typer's own classes differ between versions
    # (click's, or its vendored copy)

    def _load(self, name: str) -> Any:
        command = self.commands.get(name)
        if command is not None or name not in LAZY_COMMANDS:
            return command
        module = importlib.import_module(LAZY_COMMANDS[name])
        holder = typer.Typer()
        holder.callback()(lambda: None)  # a group, even with one command
        module.register(holder)
        group = typer.main.get_group(holder)
        for added, loaded in group.commands.items():
            self.commands.setdefault(added, loaded)
        return self.commands.get(name)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        return self._load(cmd_name)

    def list_commands(self, ctx: Any) -> list[str]:
        """Every command (loading the lazy ones): commands, the lazy ones, then groups."""
        for name in LAZY_COMMANDS:
            self._load(name)
        names = [n for n in self.commands if n not in LAZY_COMMANDS]
        plain = [n for n in names if not isinstance(self.commands[n], TyperGroup)]
        groups = [n for n in names if isinstance(self.commands[n], TyperGroup)]
        order = [*plain, *(n for n in LAZY_COMMANDS if n in self.commands), *groups]
        self.commands = {name: self.commands[name] for name in order}  # help lists these
        self.summarise()
        return order


def is_builtin(app: typer.Typer, argv: list[str]) -> bool:
    """Whether ``argv`` runs one of ``app``'s own commands (not one a plugin adds), so the
    installed plugins need not be loaded to look for commands."""
    words = [arg for arg in argv if not arg.startswith("-")]
    if not words or any(arg in ("--help", "-h") for arg in argv[:1]):
        return False
    own = {
        info.name or (info.callback.__name__.replace("_", "-") if info.callback else "")
        for info in app.registered_commands
    }
    own |= {info.name or "" for info in app.registered_groups}
    return words[0] in own or words[0] in LAZY_COMMANDS
