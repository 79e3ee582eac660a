"""Every content kind has its behaviour: each colour a tribe action, each tile a meeple can
end on a tile action, each djinn and each plugin card a power — for every installed
plugin that deals content."""

from __future__ import annotations

import pytest

from naqala.core.engine import build_rules
from naqala.core.plugins import installed_entry_points

PLUGINS = sorted(name for name in installed_entry_points() if name != "base")


def with_requirements(name: str) -> tuple[str, ...]:
    """A plugin with the plugins it requires (a house rule for an expansion needs it)."""
    module = installed_entry_points()[name].load()
    return (*(r for r in getattr(module, "REQUIRES", ()) if r != "base"), name)


@pytest.mark.parametrize(
    "expansions", [(), *(with_requirements(name) for name in PLUGINS)], ids=str
)
def test_every_content_kind_has_a_handler(expansions: tuple[str, ...]) -> None:
    rules = build_rules(list(expansions))
    content = rules.content
    assert [c.id for c in rules.colours if f"tribe:{c.id}" not in rules.stages] == []
    assert [
        t.kind for t in content.tiles if t.holds_meeples and f"tile:{t.kind}" not in rules.stages
    ] == []
    powerless = [c.id for c in content.cards if rules.power_of(c) is None]
    assert [c for c in powerless if rules.card_specs[c].deck != "resources"] == []
