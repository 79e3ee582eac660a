"""The setting ``artisan_majority_ties`` and the house rule shared-artisan-majority
(plugins/house/shared_artisans.toml, which sets it to ``"shared"``): the other reading of
the Artisans majority, "no other player has more" — every player tied for the most
artisans scores the majority value — measured in docs/studies.md (study 5). Both engines
score both readings."""

from __future__ import annotations

from pathlib import Path

import pytest

from naqala.core.content import ContentError
from naqala.core.engine import Rules, build_rules
from naqala.core.plugins import PluginError
from naqala.core.state import State
from naqala.testing.scenario import board, player

ROOT = Path(__file__).resolve().parent.parent
FILE = ROOT / "plugins" / "house" / "shared_artisans.toml"
HELD = [
    (("PP", "PP", "P"), [4, 4, 2], [6, 6, 2]),  # tied for the most: 3 VP each for both
    (("PPP", "PPP", "PPP"), [6, 6, 6], [9, 9, 9]),  # everybody tied: everybody
    (("PPP", "P", ""), [9, 2, 0], [9, 2, 0]),  # the strict most: the same either way
    (("", "", ""), [0, 0, 0], [0, 0, 0]),  # nobody has any: no bonus
    (("P", "P"), [2, 2], [3, 3]),
]


def artisan_points(rules: Rules, state: State) -> list[int]:
    return [
        sum(line.points for line in rules.score_lines(state, seat) if line.category == "artisans")
        for seat in range(len(state.players))
    ]


def holding(rules: Rules, held: tuple[str, ...]) -> State:
    """A new game whose players hold ``held``, taken from the bag: the board is emptied
    into it first, so every meeple is still counted once (as the kernel checks)."""
    state = board(rules, rules.new_game(len(held), 7), clear=True)
    for seat, meeples in enumerate(held):
        state = player(rules, state, seat, meeples=meeples)
    return state


@pytest.mark.parametrize("how", ["plugin", "file"])
@pytest.mark.parametrize(("held", "strict", "shared"), HELD)
def test_players_tied_for_the_most_artisans_all_score_3_vp_each(
    how: str, held: tuple[str, ...], strict: list[int], shared: list[int]
) -> None:
    """Artisans score 2 VP each; with this rule every player with no fewer artisans than
    any other (and at least one) scores 3 VP each, while the Artisans alone give the 3 VP
    only to the one player with strictly the most."""
    plain = build_rules(["artisans"])
    assert artisan_points(plain, holding(plain, held)) == strict
    rules = (
        build_rules(["artisans", "shared-artisan-majority"])
        if how == "plugin"
        else build_rules(["artisans"], [FILE])
    )
    assert artisan_points(rules, holding(rules, held)) == shared


def test_the_rule_needs_the_artisans() -> None:
    with pytest.raises(PluginError, match="artisans"):
        build_rules(["shared-artisan-majority"])


def test_the_rule_is_the_setting_alone() -> None:
    """The shipped rule sets the reading and has no code: it plays native."""
    from naqala.native.support import code_plugins

    rules = build_rules(["artisans", "shared-artisan-majority"])
    assert rules.content.typed_settings["artisan_majority_ties"] == "shared"
    assert build_rules(["artisans"]).content.typed_settings["artisan_majority_ties"] == "most"
    assert code_plugins(rules) == []


@pytest.mark.parametrize("reading", ["most", "shared"])
@pytest.mark.parametrize(("held", "strict", "shared"), HELD)
def test_the_kernel_scores_each_reading_of_a_tie(
    reading: str, held: tuple[str, ...], strict: list[int], shared: list[int]
) -> None:
    """The same positions on the native engine: its scores are the Python scores, which
    differ by exactly the reading's artisan points."""
    from native_kit import require_native

    from naqala.native.bridge import NativeRules

    require_native()
    rules = build_rules(["artisans", *(["shared-artisan-majority"] * (reading == "shared"))])
    state = holding(rules, held)
    assert artisan_points(rules, state) == (shared if reading == "shared" else strict)
    assert NativeRules(rules).to_native(state).scores() == list(rules.scores(state))


def test_a_tie_reading_among_no_choice_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "half.toml"
    path.write_text('[house-rule]\nname = "half"\n[settings]\nartisan_majority_ties = "half"\n')
    with pytest.raises(
        ContentError, match="artisan_majority_ties: 'half' is none of 'most', 'shared'"
    ):
        build_rules(["artisans"], [path])
