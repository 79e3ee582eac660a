"""The djinn reference cannot drift, every djinn has a power, and random play uses them all."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.cli.djinns import render_markdown
from naqala.core.simulate import play_game
from naqala.lab.results import result_of, summarise
from naqala.testing.scenario import base_rules

ROOT = Path(__file__).resolve().parent.parent


def test_docs_djinns_md_is_generated_from_content_and_code() -> None:
    """docs/djinns.md is exactly what `naqala djinns --markdown` prints."""
    rules = base_rules()
    text = (ROOT / "docs" / "djinns.md").read_text(encoding="utf-8")
    assert text == render_markdown(rules), "regenerate: naqala djinns --markdown > docs/djinns.md"
    result = CliRunner().invoke(app, ["djinns", "--markdown"])
    assert result.exit_code == 0
    assert result.stdout == text


def test_every_djinn_kind_in_content_has_a_power() -> None:
    """Content names a kind for each djinn; the rules register a power for each kind."""
    rules = base_rules()
    missing = [d.id for d in rules.content.deck("djinns") if rules.power_of(d) is None]
    assert missing == []
    assert len(rules.content.deck("djinns")) == 22


def test_every_djinn_power_names_when_and_what() -> None:
    """Each power describes itself in plain words for the reference."""
    rules = base_rules()
    for spec in rules.content.deck("djinns"):
        power = rules.power_of(spec)
        assert power is not None
        assert power.when, spec.id
        assert power.describe(rules, spec), spec.id
        assert "{" not in power.describe(rules, spec), spec.id


def test_all_22_djinns_change_300_random_four_player_games() -> None:
    """In 300 random 4-player games every djinn's power changes the game at least once."""
    rules = base_rules()
    results = []
    for seed in range(300):
        state, actions = play_game(rules, 4, seed)
        results.append(result_of(rules, state, seed, actions))
    djinn_ids = tuple(c.id for c in rules.content.deck("djinns"))
    summary = summarise(results, 4, 0, rules.ruleset, djinn_ids)
    effects = summary["djinn_effects"]
    assert sorted(effects) == sorted(djinn_ids)
    assert [d for d, n in effects.items() if n == 0] == []
