"""The content loader: base.toml's numbers, and one clear message per problem, naming the
file and the path inside it, all problems of all files reported together."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from naqala.content import content_path
from naqala.core.content import ContentError, load_content, parse_content_file

BASE = content_path("base.toml")

GOOD_TILE = '[[tile]]\nkind = "village"\nvalue = "blue"\nvp = 5\n'
GOOD_DJINN = '[[djinn]]\nid = "{id}"\nname = "A Djinn"\nvp = 6\nkind = "{id}"\n'


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(paths: list[Path]) -> list[str]:
    with pytest.raises(ContentError) as caught:
        load_content(paths)
    assert str(caught.value) == "\n".join(caught.value.problems)
    return caught.value.problems


# -- base.toml ------------------------------------------------------------------------------


def test_base_content_has_the_components_of_the_box() -> None:
    """base.toml: 30 tiles, 90 meeples (16 Y, 20 W, 18 G, 18 B, 18 R), 54 resource cards
    (18 Fakirs), 22 djinns with VP 4x4, 5x1, 6x10, 8x5, 10x2, 12 palm trees, 10 palaces."""
    content = load_content([BASE])
    assert sum(t.count for t in content.tiles) == 30
    assert sum(1 for t in content.tiles for _ in range(t.count) if t.value == "blue") == 12
    assert {c.letter: c.count for c in content.colours} == {
        "Y": 16,
        "W": 20,
        "G": 18,
        "B": 18,
        "R": 18,
    }
    assert sum(c.count for c in content.colours) == 90
    assert sum(c.count for c in content.deck("resources")) == 54
    assert {c.id: c.count for c in content.deck("resources")}["fakir"] == 18
    assert len(content.deck("djinns")) == 22
    assert len({d.id for d in content.deck("djinns")}) == 22
    assert Counter(d.vp for d in content.deck("djinns")) == Counter(
        {4: 4, 5: 1, 6: 10, 8: 5, 10: 2}
    )
    assert {t.id: t.count for t in content.tokens} == {"palm-tree": 12, "palace": 10}
    assert {pc.players: pc.camels for pc in content.player_counts} == {2: 11, 3: 8, 4: 8}
    assert content.table("turn_order_costs") == (18, 12, 8, 5, 3, 1, 0, 0, 0)


def test_parse_content_file_reads_text_given_instead_of_the_file() -> None:
    """parse_content_file uses the text passed in (the path only names it in messages)."""
    data, problems = parse_content_file(Path("nowhere/extra.toml"), GOOD_TILE)
    assert problems == []
    assert data is not None
    assert data.tile[0].kind == "village" and data.tile[0].vp == 5
    assert data.tile[0].count == 1 and data.tile[0].holds_meeples


def test_unknown_setting_is_reported_by_name() -> None:
    """Asking for a setting no plugin defines is a ContentError naming it."""
    content = load_content([BASE])
    with pytest.raises(ContentError, match=r"settings\.no_such_setting"):
        content.setting("no_such_setting")


# -- one problem at a time ------------------------------------------------------------------


def test_bad_toml_syntax_names_the_file(tmp_path: Path) -> None:
    """A file that is not TOML: the message names the file and says so."""
    path = write(tmp_path, "broken.toml", "[[tile]\nkind = 'village'\n")
    [problem] = problems_of([path])
    assert problem.startswith(f"{path}: not valid TOML")


def test_unreadable_file_names_the_file(tmp_path: Path) -> None:
    """A file that does not exist: the message names it."""
    path = tmp_path / "missing.toml"
    [problem] = problems_of([path])
    assert problem.startswith(f"{path}: cannot read")


def test_unknown_key_is_an_error(tmp_path: Path) -> None:
    """A key the record does not have (a typo) is an error at the record's path."""
    path = write(tmp_path, "typo.toml", GOOD_TILE + "colour = 'blue'\n")
    [problem] = problems_of([path])
    assert problem.startswith(f"{path}: $.tile[0]:")
    assert "colour" in problem


def test_unknown_top_level_section_is_an_error(tmp_path: Path) -> None:
    """An unknown section of the file is an error at ``$``."""
    path = write(tmp_path, "section.toml", "[[dragon]]\nid = 'x'\n")
    [problem] = problems_of([path])
    assert problem.startswith(f"{path}: $:")
    assert "dragon" in problem


def test_wrong_type_names_file_and_path(tmp_path: Path) -> None:
    """``vp = "six"`` is reported as ``<file>: $.tile[0].vp: …expected int``."""
    path = write(tmp_path, "wrong.toml", '[[tile]]\nkind = "village"\nvp = "six"\n')
    [problem] = problems_of([path])
    assert problem.startswith(f"{path}: $.tile[0].vp:")
    assert "int" in problem


def test_wrong_type_in_a_later_record_names_its_index(tmp_path: Path) -> None:
    """The index in the path is the index of the bad record in its section."""
    text = GOOD_TILE + GOOD_TILE + '[[tile]]\nkind = "oasis"\nvp = 8\ncount = "six"\n'
    path = write(tmp_path, "third.toml", text)
    [problem] = problems_of([path])
    assert problem.startswith(f"{path}: $.tile[2].count:")


def test_missing_required_field(tmp_path: Path) -> None:
    """A record without a required field: the path names the missing field."""
    path = write(tmp_path, "missing.toml", '[[djinn]]\nid = "x"\nname = "X"\nkind = "x"\n')
    [problem] = problems_of([path])
    assert problem.startswith(f"{path}: $.djinn[0].vp:")
    assert "missing" in problem


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ('[[tile]]\nkind = "village"\nvp = true\n', "$.tile[0].vp"),
        ('[[colour]]\nid = "x"\nletter = "X"\nname = "X"\ncount = false\n', "$.colour[0].count"),
        ("[tables]\ncosts = [1, true]\n", "$.tables"),
    ],
    ids=["tile-vp", "colour-count", "table-entry"],
)
def test_booleans_are_not_integers(tmp_path: Path, text: str, where: str) -> None:
    """``true``/``false`` where an integer belongs is an error, not 1/0."""
    path = write(tmp_path, "bool.toml", text)
    [problem] = problems_of([path])
    assert problem.startswith(f"{path}: {where}")


def test_integers_are_not_booleans_or_strings(tmp_path: Path) -> None:
    """No silent conversion the other way either: 1 is not a bool, 3 is not a string."""
    text = "[[tile]]\nkind = 3\nvp = 5\nholds_meeples = 1\n"
    path = write(tmp_path, "ints.toml", text)
    problems = problems_of([path])
    assert sorted(p.split(": ")[1] for p in problems) == [
        "$.tile[0].holds_meeples",
        "$.tile[0].kind",
    ]


def test_a_table_where_an_array_of_tables_belongs(tmp_path: Path) -> None:
    """``[tile]`` written instead of ``[[tile]]`` is one clear error at ``$.tile``, not one
    confusing error per key."""
    path = write(tmp_path, "single.toml", '[tile]\nkind = "village"\nvp = 5\n')
    [problem] = problems_of([path])
    assert problem.startswith(f"{path}: $.tile:")
    assert "unknown error" not in problem


def test_bad_values_are_reported(tmp_path: Path) -> None:
    """Values of the right type that make no sense (count 0, a lowercase letter, an
    unknown tile value, a card count of 0) are each reported with their path, by the
    records' own validators. (What a resource's kind means is the base game's business:
    tests/test_content_meaning.py.)"""
    text = (
        '[[tile]]\nkind = "village"\nvp = 5\ncount = 0\n'
        '[[tile]]\nkind = "village"\nvp = 5\nvalue = "green"\n'
        '[[colour]]\nid = "pink"\nletter = "p"\nname = "Pink"\ncount = 3\n'
        '[[resource]]\nid = "gems"\nkind = "treasure"\ncount = 0\n'
    )
    path = write(tmp_path, "values.toml", text)
    problems = problems_of([path])
    assert [p.split(": ")[1] for p in problems] == [
        "$.colour[0].letter",
        "$.tile[0].count",
        "$.tile[1].value",
        "$.resource[0].count",
    ]
    assert all(p.startswith(f"{path}: ") for p in problems)


# -- across files ---------------------------------------------------------------------------


def test_duplicate_djinn_across_two_files_names_both(tmp_path: Path) -> None:
    """The same djinn id in two files: the message names both files."""
    first = write(tmp_path, "first.toml", GOOD_DJINN.format(id="genie"))
    second = write(tmp_path, "second.toml", GOOD_DJINN.format(id="genie"))
    [problem] = problems_of([first, second])
    assert problem.startswith(f"{second}: $.djinn[0]:")
    assert str(first) in problem
    assert "genie" in problem


def test_duplicate_of_a_base_djinn_is_refused(tmp_path: Path) -> None:
    """An expansion file re-using a base djinn id is refused, naming base.toml."""
    extra = write(tmp_path, "expansion.toml", GOOD_DJINN.format(id="baal"))
    [problem] = problems_of([BASE, extra])
    assert str(BASE) in problem and str(extra) in problem


def test_problems_in_several_files_are_reported_together(tmp_path: Path) -> None:
    """One ContentError lists every problem of every file: syntax, types, unknown keys,
    missing fields, and duplicates between the files that did parse."""
    broken = write(tmp_path, "a_broken.toml", "this is = not = toml\n")
    typed = write(
        tmp_path, "b_typed.toml", '[[tile]]\nkind = "oasis"\nvp = "eight"\nshape = "round"\n'
    )
    missing = write(tmp_path, "c_missing.toml", '[[djinn]]\nid = "x"\nname = "X"\nkind = "x"\n')
    first = write(tmp_path, "d_first.toml", GOOD_DJINN.format(id="genie"))
    dup = write(tmp_path, "e_dup.toml", GOOD_DJINN.format(id="genie"))
    problems = problems_of([broken, typed, missing, first, dup])
    text = "\n".join(problems)
    assert problems[0].startswith(f"{broken}: not valid TOML")
    assert f"{typed}: $.tile[0].vp: " in text
    assert any(p.startswith(f"{typed}: $.tile[0]:") and "shape" in p for p in problems)
    assert f"{missing}: $.djinn[0].vp: " in text
    assert any(p.startswith(f"{dup}: $.djinn[0]:") and str(first) in p for p in problems)
    assert {p.split(": ")[0] for p in problems} == {str(broken), str(typed), str(missing), str(dup)}


def test_later_files_add_records_and_override_settings(tmp_path: Path) -> None:
    """A second file adds list records and overrides settings key by key."""
    extra = write(
        tmp_path,
        "extra.toml",
        GOOD_DJINN.format(id="genie") + "[settings]\ndjinn_row = 4\n[tables]\nbonus = [1, 2]\n",
    )
    content = load_content([BASE, extra])
    assert len(content.deck("djinns")) == 23
    assert content.card("genie").vp == 6
    assert content.setting("djinn_row") == 4
    assert content.setting("resource_row") == 9
    assert content.table("bonus") == (1, 2)


def test_two_later_files_restating_a_setting_differently_conflict(tmp_path: Path) -> None:
    """Base defines a setting; one later file may override it, but two later files that
    set it to different values conflict (whichever came last would silently win)."""
    one = write(tmp_path, "one.toml", "[settings]\nvizier_bonus = 15\n")
    two = write(tmp_path, "two.toml", "[settings]\nvizier_bonus = 20\n")
    problems = problems_of([BASE, one, two])
    assert len(problems) == 1
    assert problems[0].startswith(f"{two}: $.settings.vizier_bonus: 20 conflicts with 15")
    assert str(one) in problems[0]
    same = write(tmp_path, "same.toml", "[settings]\nvizier_bonus = 15\n")
    assert load_content([BASE, one, same]).setting("vizier_bonus") == 15
    tables = write(tmp_path, "tables.toml", "[tables]\nsuit_values = [1, 2]\n")
    other = write(tmp_path, "other.toml", "[tables]\nsuit_values = [1, 3]\n")
    assert "$.tables.suit_values" in problems_of([BASE, tables, other])[0]


# -- extra meeples and board shapes -------------------------------------------------------------


def test_extra_meeples_add_to_a_colour_declared_in_an_earlier_file(tmp_path: Path) -> None:
    """``[[extra_meeples]]`` adds meeples to an existing colour, once per entry."""
    more = write(
        tmp_path,
        "more.toml",
        '[[extra_meeples]]\ncolour = "white"\ncount = 3\n'
        '[[extra_meeples]]\ncolour = "white"\ncount = 2\n',
    )
    counts = {c.id: c.count for c in load_content([BASE, more]).colours}
    assert counts["white"] == 20 + 5
    assert counts["yellow"] == 16


def test_extra_meeples_may_name_a_colour_of_a_later_file(tmp_path: Path) -> None:
    """The colour may be declared by any file: the extras are added once all are read."""
    more = write(tmp_path, "more.toml", '[[extra_meeples]]\ncolour = "teal"\ncount = 4\n')
    teal = write(
        tmp_path, "teal.toml", '[[colour]]\nid = "teal"\nletter = "T"\nname = "T"\ncount = 6\n'
    )
    counts = {c.id: c.count for c in load_content([BASE, more, teal]).colours}
    assert counts["teal"] == 10


def test_extra_meeples_of_an_unknown_colour_or_no_meeples_are_reported(tmp_path: Path) -> None:
    """An unknown colour names the known ones; a count below 1 is refused; both at once."""
    bad = write(
        tmp_path,
        "bad.toml",
        '[[extra_meeples]]\ncolour = "pink"\ncount = 3\n'
        '[[extra_meeples]]\ncolour = "red"\ncount = 0\n',
    )
    problems = problems_of([BASE, bad])
    assert len(problems) == 2
    assert problems[0].startswith(f"{bad}: $.extra_meeples[1].count: must be at least 1")
    assert problems[1].startswith(f"{bad}: $.extra_meeples[0].colour: no colour 'pink'")
    assert "blue, green, red, white, yellow" in problems[1]


def test_the_board_shape_comes_from_the_number_of_tiles(tmp_path: Path) -> None:
    """``tables.board_<n>`` gives rows and columns for n tiles; with no shape for the tiles
    in play, or a shape that does not hold them, building the rules names the table to fix
    (docs/formats.md; derived shapes: tests/test_content_meaning.py)."""
    from naqala.core.engine import build_rules
    from naqala.core.hookspecs import hookimpl
    from naqala.plugins.base.setup import board_shape

    assert board_shape(build_rules()) == (5, 6)

    def with_file(text: str) -> object:
        path = write(tmp_path, f"shape{len(text)}.toml", text)

        class Extra:
            NAME = "extra"

            @hookimpl
            def naqala_content_files(self) -> list[Path]:
                return [path]

        return Extra()

    one_more = GOOD_TILE
    with pytest.raises(ContentError, match=r"tables.board_31: no board shape for 31 tiles"):
        build_rules(extra_plugins=[with_file(one_more)])
    with pytest.raises(ContentError, match=r"tables.board_31: 5x7 is not 31 tiles"):
        build_rules(extra_plugins=[with_file(one_more + "[tables]\nboard_31 = [5, 7]\n")])


def test_a_plugin_narrows_the_player_counts_with_tables_player_counts(tmp_path: Path) -> None:
    """``tables.player_counts`` keeps only the counts it lists (the solo mode: 1)."""
    solo = write(
        tmp_path,
        "alone.toml",
        "[tables]\nplayer_counts = [1]\n\n"
        "[[player_count]]\nplayers = 1\ncamels = 11\nmarkers = 1\n",
    )
    assert [pc.players for pc in load_content([BASE]).player_counts] == [2, 3, 4]
    assert [pc.players for pc in load_content([BASE, solo]).player_counts] == [1]


def test_tables_player_counts_needs_a_player_count_entry(tmp_path: Path) -> None:
    path = write(tmp_path, "six.toml", "[tables]\nplayer_counts = [6]\n")
    with pytest.raises(
        ContentError, match=r"player_counts: 6 players, but no \[\[player_count\]\]"
    ):
        load_content([BASE, path])
