"""Scenario tests for the rulings the printed texts leave open, each with both readings
shipped (docs/rules-notes.md, "Rulings with two readings"): the default of the base game,
and the other reading as a house rule.

- At two players a paid djinn power is used "once per turn": per marker turn (default)
  or once per round (``djinns-once-per-round``).
- Nekir with an Iblis double kill: pays per meeple killed (default) or once per
  assassination (``nekir-per-assassination``).

(The third, the Artisans majority tie, is in tests/test_house_shared_artisans.py and
tests/test_artisans_rules.py.)
"""

from __future__ import annotations

import attrs

from naqala.core import build_rules
from naqala.core.engine import Rules
from naqala.core.state import Decision, State
from naqala.testing.scenario import (
    base_rules,
    bid_order,
    board,
    next_turn_is_also_mine,
    options,
    play,
    player,
    turn_of,
)

FAKIR = "fakir"
#: b3 → c3 takes a vizier on the oasis c3; d4 → e4 is the second turn's move
MEEPLES = {"b3": "Y", "c3": "Y", "d4": "G", "e4": "G"}
ONCE_PER_ROUND = "djinns-once-per-round"
PER_ASSASSINATION = "nekir-per-assassination"


def two_players(rules: Rules, meeples: dict[str, str] = MEEPLES) -> State:
    """A 2-player game on an otherwise empty board, player 1 (seat 0) to pick; c3 is an
    oasis."""
    state = rules.new_game(2, 7)
    state = board(rules, state, meeples, clear=True, tiles={"c3": "oasis-1"})
    return turn_of(rules, state, 0)


def first_turn_with_sloar(rules: Rules) -> State:
    """Seat 0 holds Sloar and 2 Fakirs, uses Sloar, moves b3 → c3 and ends the turn; its
    other marker plays next, in the same round."""
    s = player(rules, two_players(rules), 0, djinns=["sloar"], cards=[FAKIR, FAKIR])
    s = next_turn_is_also_mine(s)
    s = play(rules, s, "sloar F", "pick b3", "drop c3 Y", "end")
    assert s.decision == Decision("pick", 0)
    assert s.turn is not None
    return s


# -- two players: once per turn ------------------------------------------------------------


def test_two_players_by_default_a_paid_djinn_again_in_the_players_second_turn() -> None:
    """Default reading: "once per turn" is per marker turn, so at two players Sloar used in
    a player's first turn of the round is offered again in their second turn."""
    rules = base_rules()
    assert rules.content.setting("djinn_limit_round_2p") == 0
    s = first_turn_with_sloar(rules)
    assert options(rules, s, "sloar") == ["sloar F"]


def test_two_players_once_per_round_not_again_in_the_second_turn_of_the_round() -> None:
    """Other reading (house rule): at two players a paid djinn power is used once per
    round; Sloar used in the first turn is not offered in the second turn of the same
    round, though the player could pay; in the next round it is offered again."""
    rules = build_rules([ONCE_PER_ROUND])
    assert rules.content.setting("djinn_limit_round_2p") == 1
    s = first_turn_with_sloar(rules)
    assert options(rules, s, "sloar") == []
    assert s.players[0].cards.count(FAKIR) == 1
    later = attrs.evolve(s, round=s.round + 1)  # the same decision, one round later
    assert options(rules, later, "sloar") == ["sloar F"]


def test_once_per_round_applies_only_at_two_players() -> None:
    """With three players each plays one turn a round: the house rule changes nothing
    (the limit still resets for every turn; checked on the player's next turn)."""
    rules = build_rules([ONCE_PER_ROUND])
    s = rules.new_game(3, 7)
    s = board(rules, s, MEEPLES, clear=True, tiles={"c3": "oasis-1"})
    s = player(rules, turn_of(rules, s, 0), 0, djinns=["sloar"], cards=[FAKIR, FAKIR])
    assert options(rules, s, "sloar") == ["sloar F"]
    used = play(rules, s, "sloar F")
    assert options(rules, used, "sloar") == []
    assert used.players[0].extras == ()  # nothing remembered across turns


def kumarbi_bidding(rules: Rules) -> State:
    """Seat 0 holds Kumarbi and 3 Fakirs; its two markers (0 and 1) bid first."""
    s = player(rules, two_players(rules), 0, djinns=["kumarbi"], cards=[FAKIR] * 3)
    return bid_order(rules, s, 0, 1, 2, 3)


def test_two_players_by_default_kumarbi_on_each_of_the_players_bids() -> None:
    """Default reading: each marker's bid is its own turn, so Kumarbi may lower both of a
    player's bids in one round."""
    rules = base_rules()
    s = play(rules, kumarbi_bidding(rules), "kumarbi 18 F")
    assert s.decision == Decision("bid", 0)
    assert "kumarbi 12 F" in options(rules, s, "kumarbi")


def test_two_players_once_per_round_kumarbi_on_one_bid_of_the_round() -> None:
    """Other reading: Kumarbi too is once per round; the second bid pays full price."""
    rules = build_rules([ONCE_PER_ROUND])
    s = play(rules, kumarbi_bidding(rules), "kumarbi 18 F")
    assert s.decision == Decision("bid", 0)
    assert options(rules, s, "kumarbi") == []
    assert "bid 12" in options(rules, s, "bid")


# -- Nekir with an Iblis double kill ---------------------------------------------------------

#: b3 → c3 collects three assassins; d3 holds a merchant and a builder
DOUBLE_KILL = {"b3": "R", "c3": "RR", "d3": "GB", "e4": "G"}


def double_kill(rules: Rules, nekir_seat: int) -> tuple[State, State]:
    """Seat 0 holds Iblis (paid with an elder) and kills both meeples on d3; Nekir is
    ``nekir_seat``'s. The position before, and after the double kill."""
    s = two_players(rules, DOUBLE_KILL)
    s = player(rules, s, 0, djinns=["iblis"], meeples="W")
    s = player(rules, s, nekir_seat, djinns=["nekir", *(["iblis"] if nekir_seat == 0 else [])])
    after = play(rules, s, "iblis E", "pick b3", "drop c3 R", "kill d3 G", "kill d3 B")
    assert after.decision.stage == "sell"
    return s, after


def test_nekir_by_default_pays_for_each_meeple_of_a_double_kill() -> None:
    """Default reading: each meeple killed is a kill, so Nekir pays its owner 1 coin twice
    for their own double kill, and an opponent 2 coins twice."""
    rules = base_rules()
    before, after = double_kill(rules, nekir_seat=0)
    assert after.players[0].coins == before.players[0].coins + 2
    before, after = double_kill(rules, nekir_seat=1)
    assert after.players[1].coins == before.players[1].coins + 4


def test_nekir_per_assassination_pays_once_for_a_double_kill() -> None:
    """Other reading (house rule): Nekir pays once per assassination, "kill Meeple(s)":
    1 coin to its owner for their own double kill, 2 to an opponent."""
    rules = build_rules([PER_ASSASSINATION])
    before, after = double_kill(rules, nekir_seat=0)
    assert after.players[0].coins == before.players[0].coins + 1
    before, after = double_kill(rules, nekir_seat=1)
    assert after.players[1].coins == before.players[1].coins + 2


def test_nekir_per_assassination_still_pays_a_single_kill() -> None:
    """Under either reading an ordinary kill (no Iblis) pays once."""
    for rules in (base_rules(), build_rules([PER_ASSASSINATION])):
        s = player(rules, two_players(rules, DOUBLE_KILL), 1, djinns=["nekir"])
        after = play(rules, s, "pick b3", "drop c3 R", "kill d3 G")
        assert after.players[1].coins == s.players[1].coins + 2
