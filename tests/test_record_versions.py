"""Game records written by naqala 0.1 (record version 1, kept in tests/data/record-v1/,
written by ``save_record`` before records were read through cattrs) still load and
round-trip through the current format unchanged, and replay to their recorded scores,
with the plugins at the versions they name (the Artisans 0.1.0 with its own items)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from naqala.core.record import (
    VERSION,
    RecordError,
    load_record,
    record_from_json,
    record_to_json,
    replay,
    rules_for_record,
)

DATA = Path(__file__).parent / "data" / "record-v1"
V1 = sorted(DATA.glob("*.json"))
#: the house rule the ``house-rule`` fixture was played with (its sha256 is recorded)
LUCKY = DATA / "lucky-seven.py"


def test_the_version_1_fixtures_are_there() -> None:
    assert len(V1) >= 4
    for path in V1:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["version"] == 1 and "without" not in data


@pytest.mark.parametrize("path", V1, ids=lambda p: p.stem)
def test_a_version_1_record_loads_and_round_trips(path: Path) -> None:
    record = load_record(path)
    assert record.without == ()
    text = record_to_json(record)
    assert json.loads(text)["version"] == VERSION == 2
    assert record_from_json(text) == record


@pytest.mark.parametrize("path", V1, ids=lambda p: p.stem)
def test_a_version_1_record_replays(path: Path) -> None:
    """Every fixture replays, the Artisans 0.1.0 ones with the items of that version."""
    record = load_record(path)
    houses = [LUCKY] if any(p.source == "house-rule" for p in record.plugins) else []
    rules = rules_for_record(record, houses)
    assert rules.without == ()
    states = replay(record, rules)
    assert len(states) == len(record.actions) + 1
    if record.final_scores is not None:
        assert states[-1].is_over
        assert rules.scores(states[-1]) == record.final_scores


def test_a_record_of_a_version_no_plugin_keeps_is_refused_by_name() -> None:
    data = json.loads((DATA / "both-unfinished.json").read_text(encoding="utf-8"))
    for plugin in data["plugins"]:
        if plugin["name"] == "artisans":
            plugin["version"] = "0.0.9"
    with pytest.raises(RecordError) as refused:
        rules_for_record(record_from_json(json.dumps(data)))
    assert str(refused.value) == (
        "plugin 'artisans' is mismatched: the record was made with version 0.0.9, but "
        "version 0.2.0 is installed (it plays versions 0.1.0, 0.2.0)"
    )


def test_a_version_1_record_is_the_same_game_written_as_version_2() -> None:
    """Apart from ``version`` and the new ``without``, the document is unchanged."""
    path = DATA / "base-finished.json"
    old = json.loads(path.read_text(encoding="utf-8"))
    new = json.loads(record_to_json(load_record(path)))
    assert new.pop("without") == []
    assert new.pop("version") == 2
    del old["version"]
    assert new == old


def test_a_version_1_record_cannot_leave_cards_out() -> None:
    """A ``without`` key in a version-1 document is not part of that version: ignored like
    any unknown key, so the game is rebuilt with every card, as it was played."""
    data = json.loads((DATA / "new.json").read_text(encoding="utf-8"))
    data["without"] = ["djinn:jafaar"]
    record = record_from_json(json.dumps(data))
    assert record.without == ()
    assert record == load_record(DATA / "new.json")
