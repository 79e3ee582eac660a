"""Overrides that say what authors mean (issue 37): relative numbers (``"+2"``,
``"-10%"``), numbers following a setting (``"settings.elder_vp + 2"``), bulk targets
(``deck:whims``, ``kind:sacred-place``, ``player_count:*``), player counts and settings
as targets; each resolved at merge, so the native kernel gets plain numbers."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from naqala.core.content import ContentError
from naqala.core.engine import Rules, build_rules
from naqala.core.overrides import _rounded


def rules_with(tmp_path: Path, body: str, expansions: tuple[str, ...] = ()) -> Rules:
    path = tmp_path / "rule.toml"
    path.write_text(f'[house-rule]\nname = "r"\n\n{body}', encoding="utf-8")
    return build_rules(list(expansions), [path])


def problems_of(tmp_path: Path, body: str, expansions: tuple[str, ...] = ()) -> list[str]:
    with pytest.raises(ContentError) as caught:
        rules_with(tmp_path, body, expansions)
    return caught.value.problems


def whim_coins(rules: Rules) -> dict[str, int]:
    return {c.id: c.params["coins"] for c in rules.content.deck("whims")}


def test_a_relative_vp_adds_to_the_merged_value(tmp_path: Path) -> None:
    rules = rules_with(tmp_path, '[[override]]\ntarget = "djinn:jafaar"\nvp = "+2"\n')
    assert rules.content.card("jafaar").vp == build_rules().content.card("jafaar").vp + 2
    rules = rules_with(tmp_path, '[[override]]\ntarget = "djinn:jafaar"\nvp = "-50%"\n')
    assert rules.content.card("jafaar").vp == 3  # 6 - 50%


@pytest.mark.parametrize(
    ("value", "expected"),
    [(Fraction(9, 2), 5), (Fraction(-9, 2), -5), (Fraction(44, 10), 4), (Fraction(46, 10), 5)],
)
def test_rounding_is_to_the_nearest_halves_away_from_zero(value: Fraction, expected: int) -> None:
    assert _rounded(value) == expected


def test_one_bulk_override_pays_every_whim_five_more_coins(tmp_path: Path) -> None:
    """ "Every Sultan's Whim pays 5 more coins": one block, not 22."""
    before = whim_coins(build_rules(["whims"]))
    rules = rules_with(
        tmp_path, '[[override]]\ntarget = "deck:whims"\nparams = { coins = "+5" }\n', ("whims",)
    )
    assert len(before) == 22
    assert whim_coins(rules) == {card: coins + 5 for card, coins in before.items()}


def test_a_percentage_rounds_each_card(tmp_path: Path) -> None:
    before = whim_coins(build_rules(["whims"]))
    rules = rules_with(
        tmp_path, '[[override]]\ntarget = "deck:whims"\nparams = { coins = "-10%" }\n', ("whims",)
    )
    # 5 → 4.5 → 5, 10 → 9, 15 → 13.5 → 14
    assert whim_coins(rules) == {c: {5: 5, 10: 9, 15: 14}[n] for c, n in before.items()}


def test_a_kind_selects_every_tile_of_it(tmp_path: Path) -> None:
    rules = rules_with(tmp_path, '[[override]]\ntarget = "kind:sacred-place"\nvp = "+1"\n')
    sacred = [(t.vp, t.count) for t in rules.content.tiles if t.kind == "sacred-place"]
    assert sacred == [(7, 4), (11, 1), (13, 1), (16, 1)]


def test_player_counts_change_without_restating_the_table(tmp_path: Path) -> None:
    rules = rules_with(tmp_path, '[[override]]\ntarget = "player_count:4"\ncamels = 6\n')
    camels = {pc.players: pc.camels for pc in rules.content.player_counts}
    assert camels == {2: 11, 3: 8, 4: 6}
    rules = rules_with(tmp_path, '[[override]]\ntarget = "player_count:*"\ncamels = "-2"\n')
    assert {pc.players: pc.camels for pc in rules.content.player_counts} == {2: 9, 3: 6, 4: 6}
    assert rules.new_game(4, 1).players[0] is not None


def test_a_setting_target_takes_a_relative_value(tmp_path: Path) -> None:
    rules = rules_with(
        tmp_path, '[[override]]\ntarget = "setting:starting_coins"\nvalue = "-20%"\n'
    )
    assert rules.content.settings["starting_coins"] == 40
    assert rules.new_game(2, 1).players[0].coins == 40


def test_a_param_follows_a_setting(tmp_path: Path) -> None:
    """Shamhat's elders stay worth 2 more than anyone's when elders are worth 3."""
    rules = rules_with(
        tmp_path,
        '[settings]\nelder_vp = 3\n\n[[override]]\ntarget = "djinn:shamhat"\n'
        'params = { elder_vp = "settings.elder_vp + 2" }\n',
    )
    assert rules.content.card("shamhat").params["elder_vp"] == 5


def test_a_param_follows_a_setting_changed_by_an_override_in_any_order(tmp_path: Path) -> None:
    shamhat = (
        '[[override]]\ntarget = "djinn:shamhat"\nparams = { elder_vp = "settings.elder_vp + 2" }\n'
    )
    setting = '[[override]]\ntarget = "setting:elder_vp"\nvalue = "+1"\n'
    for body in (shamhat + setting, setting + shamhat):
        rules = rules_with(tmp_path, body)
        assert rules.content.settings["elder_vp"] == 3
        assert rules.content.card("shamhat").params["elder_vp"] == 5


@pytest.mark.parametrize(
    ("body", "where", "words"),
    [
        ('target = "colour:red"\ncount = "-100"', "$.override[0].count", "must be at least 1"),
        ('target = "djinn:jafaar"\nvp = "2+"', "$.override[0].vp", "is not a whole number"),
        ('target = "deck:nosuch"\nvp = "+1"', "$.override[0].target", "selects no entry"),
        (
            'target = "deck:whims"\nparams = { coin = "+5" }',
            "$.override[0].params.coin",
            "no entry deck:whims selects has params.coin",
        ),
        (
            'target = "djinn:shamhat"\nparams = { elder_vp = "settings.elder" }',
            "$.override[0].params.elder_vp",
            "no number settings.elder",
        ),
        ('target = "setting:nosuch"\nvalue = 3', "$.override[0].target", "no number setting"),
        ('target = "player_count:4"\ncamels = "-9"', "$.override[0].camels", "at least 0"),
        (
            'target = "djinn:jafaar"\nparams = { vizier_vp = "+2000000" }',
            "$.override[0].params.vizier_vp",
            "is more than 1000000",
        ),
    ],
)
def test_a_bad_form_or_result_is_refused_with_the_file_and_path(
    tmp_path: Path, body: str, where: str, words: str
) -> None:
    problems = problems_of(tmp_path, f"[[override]]\n{body}\n", ("whims",))
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{tmp_path / 'rule.toml'}: {where}"), problems[0]
    assert words in problems[0]


def test_a_bulk_and_a_single_override_disagreeing_are_refused(tmp_path: Path) -> None:
    problems = problems_of(
        tmp_path,
        '[[override]]\ntarget = "deck:whims"\nparams = { coins = "+5" }\n\n'
        '[[override]]\ntarget = "card:retinue"\nparams = { coins = 20 }\n',
        ("whims",),
    )
    assert len(problems) == 1 and "card:retinue params.coins = 20" in problems[0], problems


def test_the_forms_play_native(tmp_path: Path) -> None:
    """Resolved at merge: the kernel gets the numbers and plays the same game."""
    from native_kit import require_native

    from naqala.native.bridge import NativeRules
    from naqala.native.differential import verify_game

    require_native()
    rules = rules_with(
        tmp_path,
        '[[override]]\ntarget = "deck:whims"\nparams = { coins = "+5" }\n\n'
        '[[override]]\ntarget = "player_count:*"\ncamels = "-2"\n\n'
        '[[override]]\ntarget = "setting:starting_coins"\nvalue = "-20%"\n',
        ("whims",),
    )
    report = verify_game(rules, NativeRules(rules), 3, 11)
    assert report.differences == [] and not report.unported and report.actions > 100


def test_the_docs_example_does_what_it_says_on_both_engines(tmp_path: Path) -> None:
    """docs/house-rules.md's block of overrides: whims pay 5 more, sacred places 10 %
    more, 6 camels at 4 players, a start of 40 coins; played the same natively."""
    from native_kit import require_native

    from naqala.native.bridge import NativeRules
    from naqala.native.differential import verify_game

    docs = (Path(__file__).resolve().parent.parent / "docs" / "house-rules.md").read_text()
    block = next(
        b.split("```")[0]
        for b in docs.split("```toml\n")[1:]
        if b.startswith("# every Sultan's Whim pays 5 more coins")
    )
    rules = rules_with(tmp_path, block, ("whims",))
    base = build_rules(["whims"])
    assert whim_coins(rules) == {c: n + 5 for c, n in whim_coins(base).items()}
    sacred = [t.vp for t in rules.content.tiles if t.kind == "sacred-place"]
    assert sacred == [7, 11, 13, 17]  # 6.6, 11, 13.2, 16.5 to the nearest, halves away
    assert {pc.players: pc.camels for pc in rules.content.player_counts}[4] == 6
    state = rules.new_game(4, 2)
    assert [p.coins for p in state.players] == [40] * 4
    require_native()
    report = verify_game(rules, NativeRules(rules), 4, 2)
    assert report.differences == [] and not report.unported and report.actions > 100
