"""Content overrides (``[[override]]``): a plugin changes the numbers of an entry another
plugin defines, by id, in a form that says so; conflicts and mistakes are refused with
the file, the path and the plugins involved."""

from __future__ import annotations

from pathlib import Path

import pytest

from naqala.core.content import ContentError
from naqala.core.engine import Rules, build_rules
from naqala.core.hookspecs import hookimpl
from naqala.core.simulate import play_game
from naqala.testing.scenario import base_rules, player

ROOT = Path(__file__).resolve().parent.parent
JAFAAR = ROOT / "plugins" / "house" / "generous_jafaar.toml"


def content_plugin(name: str, path: Path) -> object:
    class Content:
        NAME = name

        @hookimpl
        def naqala_content_files(self) -> list[Path]:
            return [path]

    Content.__name__ = name
    return Content()


def rules_with(tmp_path: Path, **files: str) -> Rules:
    """Rules of the base game plus one content-only plugin per file (name → TOML)."""
    plugins = []
    for name, text in files.items():
        path = tmp_path / f"{name}.toml"
        path.write_text(text, encoding="utf-8")
        plugins.append(content_plugin(name, path))
    return build_rules(extra_plugins=plugins)


def refused(tmp_path: Path, **files: str) -> list[str]:
    with pytest.raises(ContentError) as caught:
        rules_with(tmp_path, **files)
    return caught.value.problems


def test_an_override_changes_a_djinns_numbers_by_id(tmp_path: Path) -> None:
    """Restating a djinn is refused, but ``[[override]]`` changes its VP and params."""
    rules = rules_with(
        tmp_path,
        richer='[[override]]\ntarget = "djinn:jafaar"\nvp = 7\nparams = { vizier_vp = 5 }\n',
    )
    jafaar = rules.card_specs["jafaar"]
    assert (jafaar.vp, jafaar.params, jafaar.name) == (7, {"vizier_vp": 5}, "Jafaar")
    assert base_rules().card_specs["jafaar"].params == {"vizier_vp": 3}


def test_overrides_reach_tokens_colours_tiles_and_every_deck(tmp_path: Path) -> None:
    text = "\n".join(
        [
            '[[override]]\ntarget = "token:palace"\nvp = 6',
            '[[override]]\ntarget = "colour:red"\ncount = 20',
            '[[override]]\ntarget = "tile:sacred-place@15"\nvp = 20',
            '[[override]]\ntarget = "tile:village"\nvp = 4',
            '[[override]]\ntarget = "resource:fakir"\ncount = 16',
            '[[override]]\ntarget = "card:sloar"\ncost = "E/F"',
        ]
    )
    rules = rules_with(tmp_path, many=text + "\n")
    assert rules.tokens[rules.token_index["palace"]].vp == 6
    assert rules.colours[rules.colour_index["red"]].count == 20
    places = sorted(t.vp for t in rules.content.tiles if t.kind == "sacred-place")
    assert places == [6, 10, 12, 20]
    assert {t.vp for t in rules.content.tiles if t.kind == "village"} == {4}
    assert rules.card_specs["fakir"].count == 16
    assert rules.card_specs["sloar"].cost == "E/F"
    state = rules.new_game(3, seed=2)
    assert len(state.decks[0].draw) + len(state.decks[0].row) == 54 - 2


def test_the_generous_jafaar_house_rule_makes_viziers_worth_4() -> None:
    """The content-only example: with Jafaar, 4 viziers score 16 instead of 12."""
    for rules in (build_rules(["generous-jafaar"]), build_rules(house_rules=[JAFAAR])):
        base = base_rules()
        state = player(base, base.new_game(2, seed=3), 0, meeples="YYYY", djinns=["jafaar"])
        line = {x.source: x for x in rules.score_lines(state, 0) if x.category == "viziers"}
        before = {x.source: x for x in base.score_lines(state, 0) if x.category == "viziers"}
        assert line["jafaar"].points == 4 * (4 - 1)
        assert before["jafaar"].points == 4 * (3 - 1)
        assert rules.scores(state)[0] - base.scores(state)[0] == 4
        assert play_game(rules, 2, seed=5)[0].is_over


def test_two_plugins_overriding_a_number_differently_are_refused_naming_both(
    tmp_path: Path,
) -> None:
    problems = refused(
        tmp_path,
        four='[[override]]\ntarget = "djinn:jafaar"\nparams = { vizier_vp = 4 }\n',
        five='[[override]]\ntarget = "djinn:jafaar"\nparams = { vizier_vp = 5 }\n',
    )
    assert len(problems) == 1
    assert "params.vizier_vp" in problems[0]
    assert "plugin 'four'" in problems[0] and "five.toml" in problems[0]
    assert "four.toml" in problems[0]


def test_the_same_number_from_two_plugins_is_no_conflict(tmp_path: Path) -> None:
    same = '[[override]]\ntarget = "djinn:jafaar"\nparams = { vizier_vp = 4 }\n'
    rules = rules_with(tmp_path, one=same, two=same)
    assert rules.card_specs["jafaar"].param("vizier_vp") == 4


def test_one_entry_by_two_names_still_conflicts(tmp_path: Path) -> None:
    """``djinn:jafaar`` and ``card:jafaar`` are one entry."""
    problems = refused(
        tmp_path,
        one='[[override]]\ntarget = "djinn:jafaar"\nvp = 7\n',
        two='[[override]]\ntarget = "card:jafaar"\nvp = 8\n',
    )
    assert "conflicts" in problems[0]


@pytest.mark.parametrize(
    ("text", "path", "words"),
    [
        ('target = "djinn:jafar"\nvp = 7', "$.override[0].target", "no entry 'djinn:jafar'"),
        ('target = "jafaar"\nvp = 7', "$.override[0].target", "'<section>:<id>'"),
        ('target = "tile:sacred-place"\nvp = 7', "$.override[0].target", "sacred-place@15"),
        ('target = "djinn:jafaar"\nname = "Jeff"', "$.override[0]", "name"),
        ('target = "djinn:jafaar"\nparams = { vizier = 4 }', "$.override[0].params.vizier", ""),
        ('target = "token:palace"\ncost = "E"', "$.override[0].cost", "no cost"),
        ('target = "djinn:jafaar"\nvp = "4"', "$.override[0].vp", ""),
        ('target = "colour:red"\ncount = 0', "$.override[0].count", "at least 1"),
    ],
)
def test_a_bad_override_is_refused_with_its_file_and_path(
    tmp_path: Path, text: str, path: str, words: str
) -> None:
    problems = refused(tmp_path, bad=f"[[override]]\n{text}\n")
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{tmp_path / 'bad.toml'}: {path}"), problems[0]
    assert words in problems[0]
