"""Scenario tests for final scoring (content facts 1.7 and section 7 item 14), read from the
score lines of each player."""

from __future__ import annotations

import functools
import itertools

import pytest

from naqala.core.engine import Rules
from naqala.core.state import State
from naqala.testing.scenario import base_rules, board, player, tokens

FAKIR = "fakir"


def game(players: int = 2) -> tuple[Rules, State]:
    """A fresh game: every player has 50 coins and nothing else; nobody owns a tile."""
    rules = base_rules()
    return rules, rules.new_game(players, 3)


def line(rules: Rules, state: State, seat: int, category: str) -> int:
    """Points of one score line (each category appears once in the base game)."""
    found = [x.points for x in rules.score_lines(state, seat) if x.category == category]
    assert len(found) == 1, f"{category}: {found}"
    return found[0]


def test_one_point_per_coin() -> None:
    """1 VP per gold coin."""
    rules, s = game()
    s = player(rules, s, 0, coins=37)
    assert line(rules, s, 0, "coins") == 37
    assert line(rules, s, 1, "coins") == 50


def test_viziers_one_point_each_plus_ten_per_opponent_with_fewer() -> None:
    """Viziers: 1 VP each, plus 10 VP for each opponent with strictly fewer viziers."""
    rules, s = game(4)
    for seat, viziers in enumerate(("YYYYY", "YY", "YY", "")):
        s = player(rules, s, seat, meeples=viziers)
    assert [line(rules, s, p, "viziers") for p in range(4)] == [5, 2, 2, 0]
    assert [line(rules, s, p, "vizier-majority") for p in range(4)] == [30, 10, 10, 0]


def test_vizier_ties_give_no_bonus() -> None:
    """Only opponents with strictly fewer viziers count: a tie beats nobody, and with no
    viziers at all nobody scores a bonus."""
    rules, s = game(3)
    for seat, viziers in enumerate(("YYY", "YYY", "Y")):
        s = player(rules, s, seat, meeples=viziers)
    assert [line(rules, s, p, "vizier-majority") for p in range(3)] == [10, 10, 0]
    rules, s = game(2)
    assert [line(rules, s, p, "vizier-majority") for p in range(2)] == [0, 0]
    s = player(rules, s, 0, meeples="YY")
    s = player(rules, s, 1, meeples="YY")
    assert [line(rules, s, p, "vizier-majority") for p in range(2)] == [0, 0]


def test_elders_two_points_each() -> None:
    """Elders: 2 VP each."""
    rules, s = game()
    s = player(rules, s, 0, meeples="WWWY")
    assert line(rules, s, 0, "elders") == 6
    assert line(rules, s, 1, "elders") == 0


def test_djinns_score_their_printed_points() -> None:
    """Each djinn scores the VP printed on it (Anun-Nak 8, Leta 4, Lamia 10)."""
    rules, s = game()
    s = player(rules, s, 0, djinns=["anun-nak", "leta", "lamia"])
    assert line(rules, s, 0, "djinns") == 22


def test_palm_trees_and_palaces_score_only_on_your_own_tiles() -> None:
    """3 VP per palm tree and 5 VP per palace on tiles you control; those on an opponent's
    or an unowned tile score nothing for you."""
    rules, s = game()
    s = board(rules, s, owners={"a1": 0, "b1": 0, "c1": 1})
    s = tokens(
        rules,
        s,
        {
            "a1": {"palm-tree": 2, "palace": 1},
            "b1": {"palace": 2},
            "c1": {"palm-tree": 1, "palace": 1},
            "d1": {"palm-tree": 3, "palace": 3},
        },
    )
    assert line(rules, s, 0, "palm-trees") == 2 * 3
    assert line(rules, s, 0, "palaces") == 3 * 5
    assert line(rules, s, 1, "palm-trees") == 3
    assert line(rules, s, 1, "palaces") == 5


def test_tiles_score_their_printed_points() -> None:
    """Each tile you control scores its printed VP: a large market 4, a village 5, a small
    market 6, an oasis 8, the best sacred places 10, 12 and 15. All 30 tiles are worth 198."""
    rules, s = game()
    tiles = {
        "a1": "large-market-1",
        "b1": "village-1",
        "c1": "small-market-1",
        "d1": "oasis-1",
        "e1": "sacred-place-5",
        "f1": "sacred-place-6",
        "a2": "sacred-place-7",
        "b2": "sacred-place-1",
    }
    s = board(rules, s, tiles=tiles, owners=dict.fromkeys(tiles, 0))
    assert line(rules, s, 0, "tiles") == 4 + 5 + 6 + 8 + 10 + 12 + 15 + 6
    assert line(rules, s, 1, "tiles") == 0
    every = board(rules, s, owners={s.geometry.name(t): 1 for t in range(30)})
    assert line(rules, every, 1, "tiles") == 198


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ([], 0),
        (["fish", "fish", "silk"], 3 + 1),
        (["fish", "fish", "fish"], 1 + 1 + 1),
        (["fish", "silk", "gold"], 7),
        (["fish", "fish", "silk", "silk"], 3 + 3),
        (["fish", "fish", "fish", "silk", "silk", "gold"], 7 + 3 + 1),
        ([FAKIR, FAKIR, FAKIR, FAKIR, "fish"], 1),
        ([FAKIR, FAKIR], 0),
        (
            ["ivory", "jewels", "gold", "papyrus", "silk", "spice", "fish", "wheat", "pottery"]
            + ["fish", "wheat"],
            60 + 3,
        ),
    ],
)
def test_merchandise_scores_its_best_suits(cards: list[str], points: int) -> None:
    """Merchandise is scored as suits of all-different cards using the sale table, grouped
    in the way that scores most (e.g. {fish, fish, silk} = suits of 2 and 1 = 3 + 1 = 4);
    Fakirs never count."""
    rules, s = game()
    s = player(rules, s, 0, cards=cards)
    assert line(rules, s, 0, "merchandise") == points


@functools.cache
def brute_force_best(hand: tuple[int, ...], values: tuple[int, ...]) -> int:
    """The best total over every way to split ``hand`` (copies per type) into suits."""
    present = [i for i, n in enumerate(hand) if n]
    best = 0
    for size in range(1, len(present) + 1):
        for suit in itertools.combinations(present, size):
            rest = list(hand)
            for i in suit:
                rest[i] -= 1
            best = max(best, values[size - 1] + brute_force_best(tuple(rest), values))
    return best


def test_merchandise_grouping_is_optimal_for_every_small_hand() -> None:
    """The score line equals the best of all possible groupings, checked exhaustively for
    every hand of up to 3 copies each of 4 merchandise types."""
    rules, s = game()
    values = rules.content.table("suit_values")
    kinds = ("fish", "silk", "gold", "wheat")
    for hand in itertools.product(range(4), repeat=len(kinds)):
        cards = [k for k, n in zip(kinds, hand, strict=True) for _ in range(n)]
        t = player(rules, s, 0, cards=cards)
        assert line(rules, t, 0, "merchandise") == brute_force_best(hand, values), cards


def test_full_score_of_a_constructed_position() -> None:
    """Every category of one player's final score, computed by hand (3 players):

    37 coins → 37; 4 viziers → 4, and 10 for beating the player with 1 vizier (the other
    has 4 too: a tie); 3 elders → 6; Bouraq 6 + Hagis 10 → 16; 2 palm trees on the owned
    oasis → 6 (the palm tree on an opponent's tile does not count); 1 palace on the owned
    village → 5 (nor do the palaces on an opponent's and an unowned tile); tiles: oasis 8 +
    village 5 + sacred place 15 → 28; fish, fish, silk, gold, wheat, Fakir, Fakir → suits
    of 4 and 1 → 13 + 1 = 14. Total 126."""
    rules, s = game(3)
    s = board(
        rules,
        s,
        tiles={
            "c3": "oasis-1",
            "a1": "village-1",
            "e5": "sacred-place-7",
            "b2": "oasis-2",
            "f1": "village-2",
        },
        owners={"c3": 0, "a1": 0, "e5": 0, "b2": 1},
    )
    s = tokens(
        rules,
        s,
        {
            "c3": {"palm-tree": 2},
            "a1": {"palace": 1},
            "b2": {"palm-tree": 1, "palace": 1},
            "f1": {"palace": 1},
        },
    )
    s = player(
        rules,
        s,
        0,
        coins=37,
        meeples="YYYYWWW",
        djinns=["bouraq", "hagis"],
        cards=["fish", "fish", "silk", "gold", "wheat", FAKIR, FAKIR],
    )
    s = player(rules, s, 1, meeples="YYYY")
    s = player(rules, s, 2, meeples="YW")
    assert [(x.category, x.points) for x in rules.score_lines(s, 0)] == [
        ("coins", 37),
        ("viziers", 4),
        ("vizier-majority", 10),
        ("elders", 6),
        ("djinns", 16),
        ("palm-trees", 6),
        ("palaces", 5),
        ("tiles", 28),
        ("merchandise", 14),
    ]
    assert rules.scores(s)[0] == 126
    # player 2: 50 coins, 4 viziers + 10, the oasis b2 (8) with a palm tree and a palace
    assert rules.scores(s)[1] == 50 + 4 + 10 + 8 + 3 + 5
    assert rules.winners(s) == (0,)


def test_ties_share_the_win() -> None:
    """There is no tiebreaker: every player with the highest score wins."""
    rules, s = game(3)
    s = player(rules, s, 2, coins=49)
    assert rules.scores(s) == (50, 50, 49)
    assert rules.winners(s) == (0, 1)
    s = player(rules, s, 1, coins=51)
    assert rules.winners(s) == (1,)
