"""Scenario tests for the five tribe actions (content facts 1.6 step 4 and section 7).

Every position is built on an otherwise empty board; the move ends on c3, an oasis unless a
test says otherwise, so the tile action that follows needs no decision."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from naqala.core.engine import Rules
from naqala.core.state import NOBODY, State
from naqala.testing.scenario import (
    RESOURCE_DECK,
    base_rules,
    board,
    deck,
    kept,
    on_tile,
    options,
    play,
    player,
    turn_of,
)

FAKIR = "fakir"


def position(
    meeples: Mapping[str, str],
    tiles: Mapping[str, str] | None = None,
    owners: Mapping[str, int] | None = None,
) -> tuple[Rules, State]:
    """A 2-player game where only the named tiles hold meeples, player 1 (seat 0) to move;
    c3 is an oasis unless ``tiles`` says otherwise."""
    rules = base_rules()
    state = rules.new_game(2, 7)
    state = board(
        rules, state, meeples, clear=True, tiles={"c3": "oasis-1", **(tiles or {})}, owners=owners
    )
    return rules, turn_of(rules, state, 0)


def tile(state: State, name: str) -> int:
    return state.geometry.parse(name)


def bag_change(rules: Rules, before: State, after: State) -> str:
    """Meeples that went into the bag between two states, as letters (none taken out)."""
    delta = [b - a for a, b in zip(before.bag, after.bag, strict=True)]
    assert all(d >= 0 for d in delta), "meeples were taken out of the bag"
    return "".join(letter * n for letter, n in zip(rules.letters, delta, strict=True))


def lay_area(rules: Rules, state: State, centre: str, blue: Iterable[str]) -> State:
    """Lay out the 3×3 block around ``centre`` so exactly the tiles named in ``blue`` are
    blue-valued (villages first, then sacred places) and the others red-valued (oases first,
    then markets). The rest of the board keeps whatever tiles it had."""
    blue = set(blue)
    blue_ids = [t for t in rules.tile_specs if rules.tile(t).value == "blue"]
    red_ids = [t for t in rules.tile_specs if rules.tile(t).value == "red"]
    geo = state.geometry
    names = [centre] + [geo.name(t) for t in geo.area[geo.parse(centre)] if geo.name(t) != centre]
    chosen = {name: (blue_ids if name in blue else red_ids).pop(0) for name in names}
    return board(rules, state, tiles=chosen)


def row(state: State) -> tuple[str, ...]:
    return state.decks[RESOURCE_DECK].row


# -- viziers and elders ------------------------------------------------------------------


def test_viziers_are_kept_in_front_of_the_player() -> None:
    """Vizier (yellow): the player keeps the viziers they collected in front of them; none
    go back to the bag, and the other meeples stay on the tile."""
    rules, s = position({"b3": "Y", "c3": "YYG"})
    after = play(rules, s, "pick b3", "drop c3 Y")
    assert after.decision.stage == "sell"
    assert kept(rules, after, 0) == "YYY"
    assert on_tile(rules, after, "c3") == "G"
    assert after.bag == s.bag


def test_elders_are_kept_in_front_of_the_player() -> None:
    """Elder (white): the elders collected are kept in front of the player, added to the
    ones already there."""
    rules, s = position({"b3": "W", "c3": "WB"})
    s = player(rules, s, 0, meeples="WY")
    after = play(rules, s, "pick b3", "drop c3 W")
    assert kept(rules, after, 0) == "YWWW"
    assert on_tile(rules, after, "c3") == "B"
    assert after.bag == s.bag


# -- merchants ---------------------------------------------------------------------------

ROW = ("fish", "silk", "gold", "wheat", "spice", "ivory", "jewels", "papyrus", "pottery")


def test_merchants_go_to_the_bag_and_take_cards_from_the_front_of_the_row() -> None:
    """Merchant (green): return them to the bag and take as many resource cards as
    merchants, from the start of the face-up row."""
    rules, s = position({"b3": "G", "c3": "GG"})
    s = deck(rules, s, "resources", row=ROW, draw=("wheat", "fakir"))
    after = play(rules, s, "pick b3", "drop c3 G")
    assert after.players[0].cards == ("fish", "gold", "silk")
    assert row(after) == ROW[3:]
    assert bag_change(rules, s, after) == "GGG"


def test_merchants_row_is_refilled_only_at_clean_up() -> None:
    """The resource row is not refilled during the turn (the sale still sees the shortened
    row); clean-up at the end of the round slides it forward and refills it to 9."""
    rules, s = position({"b3": "G", "c3": "GG"})
    s = deck(rules, s, "resources", row=ROW, draw=("wheat", "fakir", "fish", "silk"))
    during = play(rules, s, "pick b3", "drop c3 G")
    assert during.decision.stage == "sell"
    assert row(during) == ROW[3:]
    assert during.decks[RESOURCE_DECK].draw == s.decks[RESOURCE_DECK].draw
    cleaned = play(rules, during, "end")
    assert cleaned.round == 2
    assert row(cleaned) == (*ROW[3:], "wheat", "fakir", "fish")


def test_merchants_take_only_the_cards_that_remain() -> None:
    """With fewer cards left in the row than merchants, the player takes what is there;
    nothing is drawn to make up the difference."""
    rules, s = position({"b3": "G", "c3": "GG"})
    s = deck(rules, s, "resources", row=("pottery", "fakir"), draw=("gold", "ivory"))
    after = play(rules, s, "pick b3", "drop c3 G")
    assert after.players[0].cards == ("fakir", "pottery")
    assert row(after) == ()
    assert after.decks[RESOURCE_DECK].draw == ("gold", "ivory")


# -- builders ----------------------------------------------------------------------------


def test_builders_rulebook_example_red_final_tile() -> None:
    """Builder (blue): return them to the bag and earn (builders + Fakirs discarded) ×
    blue-valued tiles around the final tile. Rulebook example: a red tile with 4 blue tiles
    around it (diagonals count), 3 builders and 2 Fakirs: 5 × 4 = 20 coins. The Fakirs go
    to the resource discard pile."""
    rules, s = position({"b3": "B", "c3": "BB"})
    s = lay_area(rules, s, "c3", blue={"b2", "c2", "d2", "b4"})
    s = player(rules, s, 0, cards=[FAKIR, FAKIR, "fish"], coins=50)
    s = deck(rules, s, "resources", discard=())
    asked = play(rules, s, "pick b3", "drop c3 B")
    assert options(rules, asked) == ["fakirs 0", "fakirs 1", "fakirs 2"]
    after = play(rules, asked, "fakirs 2")
    assert after.players[0].coins == 50 + 20
    assert after.players[0].cards == ("fish",)
    assert after.decks[RESOURCE_DECK].discard == (FAKIR, FAKIR)
    assert bag_change(rules, s, after) == "BBB"


def test_builders_count_the_final_tile_when_it_is_blue() -> None:
    """The area is the final tile and its surrounding tiles: if the final tile of the
    rulebook example were blue too, the builders would earn 5 × 5 = 25 coins."""
    rules, s = position({"b3": "B", "c3": "BB"})
    s = lay_area(rules, s, "c3", blue={"c3", "b2", "c2", "d2", "b4"})
    s = player(rules, s, 0, cards=[FAKIR, FAKIR], coins=50)
    after = play(rules, s, "pick b3", "drop c3 B", "fakirs 2")
    assert after.players[0].coins == 50 + 25


def test_builders_without_fakirs_and_tiles_outside_the_area() -> None:
    """Without Fakirs (or choosing to discard none) only the builders count; blue tiles two
    steps away are outside the 3×3 area and earn nothing."""
    rules, s = position({"b3": "B", "c3": "BB"})
    s = lay_area(rules, s, "c3", blue={"d4"})
    s = board(rules, s, tiles={"a3": "village-5", "e3": "sacred-place-7", "c5": "village-4"})
    no_fakirs = play(rules, s, "pick b3", "drop c3 B")
    assert no_fakirs.decision.stage == "sell"
    assert no_fakirs.players[0].coins == 50 + 3 * 1
    s = player(rules, s, 0, cards=[FAKIR])
    kept_fakir = play(rules, s, "pick b3", "drop c3 B", "fakirs 0")
    assert kept_fakir.players[0].coins == 50 + 3
    assert kept_fakir.players[0].cards == (FAKIR,)


def test_builders_at_the_board_edge_count_the_smaller_area() -> None:
    """At a corner the area is only the 2×2 block of tiles that exist: 4 builders on a1
    with a1, b1, a2 and b2 all blue earn 4 × 4 = 16."""
    rules, s = position({"a1": "BBB", "b1": "B"})
    s = board(
        rules,
        s,
        tiles={"a1": "village-1", "b1": "village-2", "a2": "sacred-place-1", "b2": "village-3"},
    )
    s = board(rules, s, tiles={"c1": "village-4", "c2": "village-5", "a3": "sacred-place-2"})
    after = play(rules, s, "pick b1", "drop a1 B")
    assert after.players[0].coins == 50 + 16


def test_builders_with_no_blue_tile_around_earn_nothing_and_keep_fakirs() -> None:
    """With no blue tile in the area the payment is 0 whatever is discarded, so the player
    is not asked to discard Fakirs."""
    rules, s = position({"b3": "B", "c3": "BB"})
    s = lay_area(rules, s, "c3", blue=())
    s = player(rules, s, 0, cards=[FAKIR])
    after = play(rules, s, "pick b3", "drop c3 B")
    assert after.decision.stage == "sell"
    assert after.players[0].coins == 50
    assert after.players[0].cards == (FAKIR,)


# -- assassins ---------------------------------------------------------------------------


def test_assassins_reach_is_orthogonal_distance_from_the_final_tile() -> None:
    """Assassin (red): kill one meeple of any colour on a tile within (assassins) orthogonal
    steps of the final tile: 2 assassins reach c1, a3, d4 (one step right and one down) and
    the final tile itself, but not e4 (three steps) or e2."""
    rules, s = position(
        {"b3": "R", "c3": "RG", "c1": "Y", "a3": "W", "d4": "BG", "e4": "G", "e2": "Y"}
    )
    after = play(rules, s, "pick b3", "drop c3 R")
    assert after.decision.stage == "kill"
    assert sorted(options(rules, after)) == [
        "kill a3 W",
        "kill c1 Y",
        "kill c3 G",
        "kill d4 B",
        "kill d4 G",
    ]


def test_assassins_kill_exactly_one_meeple_and_go_to_the_bag() -> None:
    """The assassins go back to the bag, and so does the one meeple they kill; the other
    meeples on the victim's tile stay and the tile is not taken."""
    rules, s = position({"b3": "R", "c3": "RY", "d3": "GG"})
    after = play(rules, s, "pick b3", "drop c3 R", "kill d3 G")
    assert after.decision.stage == "sell"
    assert on_tile(rules, after, "d3") == "G"
    assert bag_change(rules, s, after) == "GRR"
    assert after.board.owners[tile(after, "d3")] == NOBODY
    assert after.players[0].camels == s.players[0].camels


def test_fakirs_extend_the_assassins_reach() -> None:
    """Each Fakir discarded adds one step of reach; spent Fakirs go to the resource discard
    pile."""
    rules, s = position({"b3": "R", "c3": "RB", "e4": "G", "f4": "W"})
    s = player(rules, s, 0, cards=[FAKIR, FAKIR, "silk"])
    s = deck(rules, s, "resources", discard=("wheat",))
    asked = play(rules, s, "pick b3", "drop c3 R")
    assert asked.decision.stage == "tribe:red"
    assert options(rules, asked) == ["fakirs 0", "fakirs 1", "fakirs 2"]
    one = play(rules, asked, "fakirs 1")
    assert options(rules, one) == ["kill c3 B", "kill e4 G"]
    assert one.players[0].cards == (FAKIR, "silk")
    assert one.decks[RESOURCE_DECK].discard == ("wheat", FAKIR)
    two = play(rules, asked, "fakirs 2")
    assert options(rules, two) == ["kill c3 B", "kill e4 G", "kill f4 W"]


def test_assassins_may_kill_a_vizier_or_elder_in_front_of_an_opponent() -> None:
    """Instead of a meeple on the board, the assassins may kill one Vizier or one Elder kept
    in front of an opponent (never the player's own); it goes back to the bag."""
    rules, s = position({"b3": "R", "c3": "R"})
    s = player(rules, s, 0, meeples="YW")
    s = player(rules, s, 1, meeples="YYW")
    asked = play(rules, s, "pick b3", "drop c3 R")
    assert sorted(options(rules, asked)) == ["kill p2 W", "kill p2 Y"]
    after = play(rules, asked, "kill p2 Y")
    assert kept(rules, after, 1) == "YW"
    assert kept(rules, after, 0) == "YW"
    assert bag_change(rules, s, after) == "YRR"


def test_no_kill_when_nothing_is_in_reach() -> None:
    """With no meeple in reach and no Vizier or Elder in front of an opponent, the assassins
    simply go back to the bag and the turn moves on."""
    rules, s = position({"b3": "R", "c3": "R", "f5": "GG"})
    after = play(rules, s, "pick b3", "drop c3 R")
    assert after.decision.stage == "sell"
    assert bag_change(rules, s, after) == "RR"


def test_a_kill_that_empties_an_unowned_tile_gives_it_to_the_killer() -> None:
    """If the kill leaves an unowned tile empty, the killer puts a camel on it. Only the
    final tile's action happens: the assassinated village gets no palace, the final oasis
    gets its palm tree."""
    rules, s = position({"b3": "R", "c3": "RB", "d3": "G"}, tiles={"d3": "village-1"})
    after = play(rules, s, "pick b3", "drop c3 R", "kill d3 G")
    assert after.board.owners[tile(after, "d3")] == 0
    assert after.board.owners[tile(after, "c3")] == NOBODY
    assert after.players[0].camels == s.players[0].camels - 1
    palace, palm = rules.token_index["palace"], rules.token_index["palm-tree"]
    assert after.board.tokens[tile(after, "d3")][palace] == 0
    assert after.board.tokens[tile(after, "c3")][palm] == 1
    assert after.pool[palace] == s.pool[palace]


def test_two_tiles_in_one_turn_final_tile_first() -> None:
    """Taking the final tile and emptying another tile with the kill gives both tiles: the
    final tile's camel is placed first, then the assassinated tile's."""
    rules, s = position({"b3": "R", "c3": "R", "c4": "Y"})
    after = play(rules, s, "pick b3", "drop c3 R", "kill c4 Y")
    assert after.board.owners[tile(after, "c3")] == 0
    assert after.board.owners[tile(after, "c4")] == 0
    assert after.players[0].camels == s.players[0].camels - 2


def test_with_one_camel_left_the_assassinated_tile_is_not_taken() -> None:
    """The final tile takes the last camel first, so the tile emptied by the kill stays
    unowned (and the game will end after this round)."""
    rules, s = position({"b3": "R", "c3": "R", "c4": "Y"})
    s = player(rules, s, 0, camels=1)
    after = play(rules, s, "pick b3", "drop c3 R", "kill c4 Y")
    assert after.board.owners[tile(after, "c3")] == 0
    assert after.board.owners[tile(after, "c4")] == NOBODY
    assert on_tile(rules, after, "c4") == ""
    assert after.players[0].camels == 0


def test_an_owned_tile_emptied_by_a_kill_keeps_its_owner() -> None:
    """Emptying a tile that already has an owner never changes its owner, whoever it is."""
    rules, s = position({"b3": "R", "c3": "RW", "d3": "G", "c4": "B"}, owners={"d3": 1, "c4": 0})
    theirs = play(rules, s, "pick b3", "drop c3 R", "kill d3 G")
    assert theirs.board.owners[tile(theirs, "d3")] == 1
    assert theirs.players[0].camels == s.players[0].camels
    assert theirs.players[1].camels == s.players[1].camels
    mine = play(rules, s, "pick b3", "drop c3 R", "kill c4 B")
    assert mine.board.owners[tile(mine, "c4")] == 0
    assert mine.players[0].camels == s.players[0].camels


def test_the_final_tile_itself_can_be_assassinated() -> None:
    """Distance 0 is in reach: killing the last other meeple on the final tile empties it,
    and the killer takes it."""
    rules, s = position({"b3": "R", "c3": "RG"})
    after = play(rules, s, "pick b3", "drop c3 R", "kill c3 G")
    assert on_tile(rules, after, "c3") == ""
    assert after.board.owners[tile(after, "c3")] == 0
    assert after.players[0].camels == s.players[0].camels - 1


def test_tribe_action_counts_every_meeple_of_the_colour_collected() -> None:
    """The control check takes back the last meeple and every meeple of its colour on the
    final tile; the tribe action uses them all (here 4 merchants take 4 cards)."""
    rules, s = position({"b3": "G", "c3": "GGGW"})
    s = deck(rules, s, "resources", row=ROW)
    after = play(rules, s, "pick b3", "drop c3 G")
    assert len(after.players[0].cards) == 4
    assert on_tile(rules, after, "c3") == "W"
    assert bag_change(rules, s, after) == "GGGG"
