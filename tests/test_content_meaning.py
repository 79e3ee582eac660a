"""Content is checked for meaning when the rules are built, naming the file and plugin.

Each test adds a small content file through a plugin of its own and expects the rules to
refuse it at once — not a ``KeyError`` or a traceback in the middle of a game.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.core.content import ContentError
from naqala.core.engine import Rules, build_rules
from naqala.core.hookspecs import hookimpl
from naqala.plugins.base.setup import board_shape, derived_shape
from naqala.testing.invariants import checked_playout


class Adds:
    """A plugin that only ships one content file."""

    def __init__(self, name: str, path: Path) -> None:
        self.NAME = name
        self.path = path

    @hookimpl
    def naqala_content_files(self) -> list[Path]:
        return [self.path]


def built(tmp_path: Path, text: str, expansions: tuple[str, ...] = ()) -> Rules:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    return build_rules(expansions, extra_plugins=[Adds("house", path)])


def refused(tmp_path: Path, text: str, expansions: tuple[str, ...] = ()) -> list[str]:
    with pytest.raises(ContentError) as caught:
        built(tmp_path, text, expansions)
    return caught.value.problems


def test_an_unknown_djinn_kind_is_refused_naming_the_file_and_plugin(tmp_path: Path) -> None:
    problems = refused(
        tmp_path, '[[djinn]]\nid = "zed"\nname = "Zed"\nvp = 4\nkind = "lightning"\n'
    )
    assert problems == [
        f"{tmp_path / 'house.toml'} (plugin 'house'): djinn 'zed': no plugin gives the power "
        "of kind 'lightning'"
    ]


def test_an_unknown_card_kind_is_refused(tmp_path: Path) -> None:
    problems = refused(tmp_path, '[[card]]\ndeck = "relics"\nid = "cup"\nkind = "grail"\n')
    assert "card 'cup': no plugin gives the power of kind 'grail'" in problems[0]


def test_a_new_colour_without_a_tribe_action_is_refused(tmp_path: Path) -> None:
    problems = refused(
        tmp_path, '[[colour]]\nid = "pink"\nletter = "K"\nname = "Dancer"\ncount = 6\n'
    )
    assert problems == [
        f"{tmp_path / 'house.toml'} (plugin 'house'): colour 'pink': no plugin provides its "
        "tribe action (tribe:pink)"
    ]


def test_an_unknown_cost_code_is_refused(tmp_path: Path) -> None:
    """``cost = "FF"`` used to load and crash mid-game with ``KeyError: 'FF'``."""
    text = '[[djinn]]\nid = "zed"\nname = "Zed"\nvp = 4\nkind = "enki"\ncost = "FF"\n'
    [problem] = refused(tmp_path, text)
    assert problem.startswith(f"{tmp_path / 'house.toml'} (plugin 'house'): djinn 'zed': ")
    assert "unknown cost 'FF'" in problem and "(checked by plugin 'base')" in problem


def test_a_resource_of_an_unknown_kind_is_refused_by_the_base_game(tmp_path: Path) -> None:
    """Merchandise and Fakirs are the base game's words: the core loads any kind, and the
    base plugin refuses one it cannot sell or spend, naming the file and itself."""
    text = '[[resource]]\nid = "gems"\nkind = "treasure"\ncount = 1\n'
    [problem] = refused(tmp_path, text)
    assert problem.startswith(f"{tmp_path / 'house.toml'} (plugin 'house'): resource 'gems': ")
    assert "kind 'treasure' is not merchandise or fakir" in problem
    assert "(checked by plugin 'base')" in problem


@pytest.mark.parametrize(
    ("table", "reason"),
    [
        ("[0]", "1 spot for the 4 markers of a 2-player game"),  # once a traceback
        ("[]", "the track has no spots"),
        ("[0, 1, 3, 5, 8, 12, 18, 0, 0]", "must list costs dearest first"),
        ("[18, 12, 8, 5, 3, 1, 0, 0, -1]", "must list costs dearest first, none negative"),
    ],
)
def test_a_turn_order_track_bidding_cannot_use_is_refused(
    tmp_path: Path, table: str, reason: str
) -> None:
    problems = refused(tmp_path, f"[tables]\nturn_order_costs = {table}\n")
    assert any(
        p.startswith(f"{tmp_path / 'house.toml'} (plugin 'house'): tables.turn_order_costs: ")
        and reason in p
        for p in problems
    ), problems


def test_a_track_too_short_for_a_player_count_names_that_count(tmp_path: Path) -> None:
    text = "[tables]\nturn_order_costs = [18, 12, 8]\n"
    problems = refused(tmp_path, text)
    assert [p for p in problems if "player game" in p] == [
        f"{tmp_path / 'house.toml'} (plugin 'house'): tables.turn_order_costs: 3 spots for "
        f"the 4 markers of a {n}-player game (checked by plugin 'base')"
        for n in (2, 4)
    ]


@pytest.mark.parametrize(
    ("setting", "reason"),
    [
        ("starting_coins = -5", "settings.starting_coins: -5 is less than 0"),
        ("meeples_per_tile = 0", "settings.meeples_per_tile: 0 is less than 1"),
        ("small_market_take = 0", "settings.small_market_take: 0 is less than 1"),
    ],
)
def test_settings_below_their_least_value_are_refused(
    tmp_path: Path, setting: str, reason: str
) -> None:
    problems = refused(tmp_path, f"[settings]\n{setting}\n")
    assert f"{tmp_path / 'house.toml'} (plugin 'house'): {reason} (checked by plugin 'base')" in (
        problems
    )


def test_negative_counts_and_points_are_refused(tmp_path: Path) -> None:
    text = (
        '[[token]]\nid = "well"\nname = "Well"\ncount = -1\nvp = 2\n'
        '[[tile]]\nkind = "village"\nvalue = "blue"\nvp = -3\n'
    )
    problems = refused(tmp_path, text)
    assert any("token 'well': count and vp must not be negative" in p for p in problems)
    assert any("tile 'village': vp -3 is negative" in p for p in problems)


@pytest.mark.parametrize("count", [0, -1])
def test_a_resource_card_without_copies_is_refused(tmp_path: Path, count: int) -> None:
    """A ``[[resource]]`` of 0 or fewer copies is refused at its path, by the record's own
    validator (``at_least(1)`` on the count: a mutant accepting 0 once passed the whole
    suite)."""
    text = f'[[resource]]\nid = "saffron"\nkind = "fakir"\ncount = {count}\n'
    problems = refused(tmp_path, text)
    assert problems == [f"{tmp_path / 'house.toml'}: $.resource[0].count: must be at least 1"]
    built(tmp_path, text.replace(f"count = {count}", "count = 1"))  # one copy is fine


def test_a_negative_number_set_by_an_override_names_the_overriding_file(tmp_path: Path) -> None:
    """The djinn is declared by the base game, but the bad number is the house rule's."""
    problems = refused(tmp_path, '[[override]]\ntarget = "djinn:jafaar"\nvp = -5\n')
    assert len(problems) == 1
    assert problems[0].endswith(
        f"base.toml (plugin 'base'), changed by an override in {tmp_path / 'house.toml'} "
        "(plugin 'house'): djinn 'jafaar': vp -5 is negative"
    )


def test_suit_values_that_do_not_rise_are_refused(tmp_path: Path) -> None:
    problems = refused(tmp_path, "[tables]\nsuit_values = [1, 3, 7, 13, 21, 30, 40, 45, 60]\n")
    assert any("tables.suit_values: " in p and "never shrink" in p for p in problems)
    problems = refused(tmp_path, "[tables]\nsuit_values = [1, 3, 7]\n")
    assert any("3 values for 9 kinds of merchandise" in p for p in problems)


def test_too_few_meeples_for_the_board_are_refused_at_build_time(tmp_path: Path) -> None:
    """Four meeples a tile need 120; the base game has 90 (once ``ValueError: below()
    needs n >= 1`` from the generator when the game was set up)."""
    problems = refused(tmp_path, "[settings]\nmeeples_per_tile = 4\n")
    house = f"settings.meeples_per_tile from {tmp_path / 'house.toml'} (plugin 'house'): "
    assert any(
        p.startswith("tiles from ")
        and house in p  # the file that set the number at fault is named too
        and "tiles: 30 tiles hold meeples, 4 each (settings.meeples_per_tile) need 120, but "
        "the colours have 90"
        in p
        for p in problems
    )


def test_a_board_shape_that_does_not_fit_its_tiles_is_refused(tmp_path: Path) -> None:
    problems = refused(tmp_path, "[tables]\nboard_30 = [5, 5]\n")
    assert problems == [
        f"{tmp_path / 'house.toml'} (plugin 'house'): tables.board_30: 5x5 is not 30 tiles"
    ], "said once, by the core, not again by the plugin laying out the board"


def test_a_board_shape_the_artisans_cannot_lay_out_is_said_once(tmp_path: Path) -> None:
    problems = refused(tmp_path, "[tables]\nboard_36 = [5, 6]\n", ("artisans",))
    assert problems == [
        f"{tmp_path / 'house.toml'} (plugin 'house'): tables.board_36: 5x6 is not 36 tiles"
    ]


FIVE_VILLAGES = '[[tile]]\nkind = "village"\nvalue = "blue"\nvp = 5\ncount = 5\n'
MORE_MEEPLES = '[[extra_meeples]]\ncolour = "green"\ncount = 15\n'


def test_a_five_tile_house_rule_gets_a_derived_board(tmp_path: Path) -> None:
    """35 tiles and no ``board_35`` table: a 5×7 board, and the game plays."""
    assert derived_shape(35) == (5, 7) and derived_shape(36) == (6, 6)
    assert derived_shape(41) is None and derived_shape(31) is None
    rules = built(tmp_path, FIVE_VILLAGES + MORE_MEEPLES)
    assert board_shape(rules) == (5, 7)
    state = checked_playout(rules, 3, seed=2, max_actions=60)
    assert (state.layout.rows, state.layout.cols) == (5, 7)


@pytest.mark.parametrize("expansion", ["artisans", "djinns"])
def test_a_five_tile_house_rule_with_an_expansion_is_refused_with_the_reason(
    tmp_path: Path, expansion: str
) -> None:
    """36 + 5 = 41 tiles make no board: refused when the rules are built, saying why
    and what to set."""
    problems = refused(tmp_path, FIVE_VILLAGES + MORE_MEEPLES, (expansion,))
    assert any(
        "tables.board_41: no board shape for 41 tiles" in p and "board_41 = [rows, cols]" in p
        for p in problems
    ), problems


def test_the_shipped_content_passes_every_check() -> None:
    for expansions in ((), ("artisans",), ("djinns",), ("artisans", "djinns")):
        build_rules(expansions)


# -- naqala content check ------------------------------------------------------------------------


def test_content_check_runs_the_meaning_checks(tmp_path: Path) -> None:
    path = tmp_path / "pink.toml"
    path.write_text(
        '[[colour]]\nid = "pink"\nletter = "K"\nname = "Dancer"\ncount = 6\n', encoding="utf-8"
    )
    result = CliRunner().invoke(app, ["content", "check", str(path)])
    assert result.exit_code == 1
    assert result.stdout == (
        f"{path} (plugin 'checked-files'): colour 'pink': no plugin provides its tribe action "
        "(tribe:pink)\n"
    )


def test_content_check_knows_the_kinds_of_the_expansions_named(tmp_path: Path) -> None:
    """A djinn of an Artisans kind is fine with ``-x artisans``, refused without."""
    path = tmp_path / "geb2.toml"
    path.write_text('[[djinn]]\nid = "geb-2"\nname = "Geb II"\nvp = 4\nkind = "geb"\n')
    assert CliRunner().invoke(app, ["content", "check", str(path)]).exit_code == 1
    result = CliRunner().invoke(app, ["content", "check", "-x", "artisans", str(path)])
    assert result.exit_code == 0, result.stdout
    assert result.stdout == "ok: 1 file(s) checked\n"


def test_content_check_merges_the_file_last_like_a_house_rule(tmp_path: Path) -> None:
    """The file checked overrides what the expansions named set, as it would as a house
    rule's content: its value is the one checked (it used to be merged before an
    expansion named after it in the alphabet, whose value then hid it)."""
    path = tmp_path / "square.toml"
    path.write_text("[tables]\nboard_42 = [6, 6]\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["content", "check", "-x", "djinns", str(path)])
    assert result.exit_code == 1
    assert result.stdout == (
        f"{path} (plugin 'checked-files'): tables.board_42: 6x6 is not 42 tiles\n"
    )


def test_content_check_of_a_file_that_is_not_utf8_says_so_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes("# Caf\xe9 rules\n[settings]\nvizier_bonus = 12\n".encode("latin-1"))
    result = CliRunner().invoke(app, ["content", "check", str(path)])
    assert result.exit_code == 1
    assert result.stdout == f"{path}: not UTF-8 text (invalid continuation byte at byte 5)\n"
    assert result.exception is None or isinstance(result.exception, SystemExit)
