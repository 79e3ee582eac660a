"""Event names are declared once and used through their constants.

Before, event names were string literals in a dozen places (a misspelt one is a trigger
that silently never fires), and core/events.py named a ``palm-placed`` event that no rule
fires. Now the base game declares its events in ``naqala.plugins.base.events`` (exported
by the API) and the Whims box in ``naqala.plugins.whims.events``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from naqala.core.engine import build_rules
from naqala.core.events import Event
from naqala.core.hookspecs import hookimpl
from naqala.core.simulate import play_game
from naqala.core.state import State
from naqala.plugins.base import api
from naqala.plugins.whims import events as whims_events

ROOT = Path(__file__).resolve().parent.parent
DECLARED = set(api.BASE_EVENTS) | set(whims_events.EVENTS)


def literal_event_names(path: Path) -> list[str]:
    """Where ``path`` builds an ``Event`` or compares ``event.name`` with a string literal."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Event":
            first = node.args[0] if node.args else None
            if isinstance(first, (ast.Constant, ast.JoinedStr)):
                found.append(f"{path.name}:{node.lineno}")
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            names = any(isinstance(s, ast.Attribute) and s.attr == "name" for s in sides)
            literal = any(isinstance(s, ast.Constant) and isinstance(s.value, str) for s in sides)
            if names and literal and "event" in ast.unparse(node):
                found.append(f"{path.name}:{node.lineno}")
    return found


def test_no_plugin_spells_an_event_name_as_a_literal() -> None:
    sources = [p for p in (ROOT / "plugins").rglob("*.py") if p.name != "events.py"]
    assert [where for path in sources for where in literal_event_names(path)] == []


def test_the_events_table_of_docs_hooks_md_lists_exactly_the_declared_events() -> None:
    text = (ROOT / "docs" / "hooks.md").read_text(encoding="utf-8")
    section = text[text.index("### `naqala_event`") : text.index("### `naqala_protected")]
    rows = re.findall(r"^\| `([A-Z_]+)` \| `([a-z-]+)` \|", section, flags=re.MULTILINE)
    constants = {**vars(api), **vars(whims_events)}
    assert {constant: constants[constant] for constant, _ in rows} == dict(rows)
    assert {name for _, name in rows} == DECLARED


def test_core_names_no_event_that_is_not_declared() -> None:
    """core/events.py once named ``palm-placed``, which no rule fires."""
    text = (ROOT / "core" / "events.py").read_text(encoding="utf-8")
    named = set(re.findall(r"``([a-z]+(?:-[a-z]+)+)``", text))
    assert named <= DECLARED
    assert "palm-placed" not in text


def test_every_declared_base_event_fires_in_real_games() -> None:
    """The declared names are the ones the rules fire (with every expansion)."""
    seen: set[str] = set()

    class Listener:
        NAME = "listener"

        @hookimpl
        def naqala_event(self, state: State, event: Event) -> None:
            seen.add(event.name)

    rules = build_rules(["artisans", "djinns"], extra_plugins=[Listener()])
    for seed in range(4):
        play_game(rules, players=3, seed=seed)
    assert seen <= DECLARED | {api.token_placed(t.id) for t in rules.tokens}
    assert set(api.BASE_EVENTS) - {api.KILL_PREVENTED} <= seen
    assert set(whims_events.EVENTS) <= seen
