"""Scenario tests for the six thieves' effects (content facts 2, T9-T14), with the choices
this project made where the sources are silent (docs/rules-notes.md, "The Thieves of
Naqala"): each opponent chooses what they give up (at once when they have one choice),
an opponent with nothing to give is skipped, and the thief's owner chooses what to keep.

Positions: tests/thieves_kit.py (3 players, seat 0 to pick; the move ends on c3, which
seat 0 then controls). Seat 0 holds the thief of the tribe it collects.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from test_properties import check_conservation, expected
from thieves_kit import THIEVES, conserved, hold, move, move_meeples, position, thieves_rules

from naqala.core.engine import Rules, build_rules
from naqala.core.hookspecs import hookimpl
from naqala.core.state import NOBODY, Decision, State, set_extra
from naqala.testing.scenario import kept, options, play, player, tokens


def with_thief(colour: str, rules: Rules | None = None, **kwargs: object) -> tuple[Rules, State]:
    rules, state = position(rules, meeples=move_meeples(colour), **kwargs)  # type: ignore[arg-type]
    return rules, hold(rules, state, 0, THIEVES, [f"{colour}-thief"])


def owner_of(state: State, name: str) -> int:
    return state.board.owners[state.geometry.parse(name)]


def token_count(rules: Rules, state: State, name: str, token: str) -> int:
    return state.board.tokens[state.geometry.parse(name)][rules.token_index[token]]


# -- red: a tile ---------------------------------------------------------------------------


def red_theft() -> tuple[Rules, State]:
    """Seat 1 controls d4; seat 2 controls e1 and f1; seat 0 uses the red thief."""
    rules, state = with_thief("red", owners={"d4": 1, "e1": 2, "f1": 2})
    return rules, play(rules, state, *move("red"), "red-thief")


def test_red_each_opponent_gives_up_a_tile_of_their_choice() -> None:
    rules, state = red_theft()
    # seat 1 had one tile: given up at once; seat 2 chooses which of its two
    assert owner_of(state, "d4") == NOBODY
    assert state.decision == Decision("thief-give", 2)
    assert options(rules, state) == ["give e1", "give f1"]
    camels = state.players[2].camels
    state = play(rules, state, "give f1")
    assert owner_of(state, "f1") == NOBODY and owner_of(state, "e1") == 2
    assert state.players[2].camels == camels + 1  # the camel goes back to its owner
    conserved(rules, state)


def test_red_you_take_one_of_those_tiles_with_your_camel() -> None:
    rules, state = red_theft()
    state = play(rules, state, "give f1")
    assert state.decision == Decision("thief-keep", 0)
    assert options(rules, state) == ["take d4", "take f1"]
    camels = state.players[0].camels
    state = play(rules, state, "take f1")
    assert owner_of(state, "f1") == 0
    assert owner_of(state, "d4") == NOBODY  # the other tile given up stays free
    assert state.players[0].camels == camels - 1
    assert state.decision.stage == "sell"  # the turn goes on
    conserved(rules, state)


def test_red_needs_a_camel_to_take_the_tile() -> None:
    rules, state = with_thief("red", owners={"d4": 1})
    state = player(rules, state, 0, camels=1)  # its last camel goes on c3 with the move
    state = play(rules, state, *move("red"))
    assert state.decision.stage != "thief"


# -- blue: a palm tree or a palace ---------------------------------------------------------


def blue_position(rules: Rules | None = None) -> tuple[Rules, State]:
    """Seat 1 has a palace on d4; seat 2 a palm tree and a palace on e1."""
    rules, state = with_thief("blue", rules, owners={"d4": 1, "e1": 2})
    state = tokens(rules, state, {"d4": {"palace": 1}, "e1": {"palm-tree": 1, "palace": 1}})
    return rules, play(rules, state, *move("blue"), "blue-thief")


def test_blue_each_opponent_loses_a_palm_tree_or_palace_of_their_choice() -> None:
    rules, state = blue_position()
    assert token_count(rules, state, "d4", "palace") == 0  # seat 1's only one
    assert state.decision == Decision("thief-give", 2)
    assert options(rules, state) == ["give palace e1", "give palm-tree e1"]
    state = play(rules, state, "give palm-tree e1")
    assert token_count(rules, state, "e1", "palm-tree") == 0
    assert token_count(rules, state, "e1", "palace") == 1
    conserved(rules, state)


def test_blue_you_place_one_of_them_on_a_tile_you_control() -> None:
    rules, state = blue_position()
    state = play(rules, state, "give palm-tree e1")
    assert state.decision == Decision("thief-keep", 0)
    assert options(rules, state) == ["place palace c3", "place palm-tree c3"]
    state = play(rules, state, "place palm-tree c3")
    assert token_count(rules, state, "c3", "palm-tree") == 1
    assert token_count(rules, state, "c3", "palace") == 0  # the other goes to the bank
    conserved(rules, state)


class AnyTile:
    """A house rule: the blue thief's token may go on any tile (blue_thief_own_tile = 0)."""

    NAME = "blue-anywhere"
    REQUIRES = ("thieves",)  # its setting comes after the Thieves' own

    def __init__(self, folder: Path) -> None:
        self.path = folder / "anywhere.toml"
        self.path.write_text("[settings]\nblue_thief_own_tile = 0\n", encoding="utf-8")

    @hookimpl
    def naqala_content_files(self) -> Iterable[Path]:
        return [self.path]


def test_blue_with_the_any_tile_reading_the_token_may_go_anywhere(tmp_path: Path) -> None:
    rules = build_rules([THIEVES], extra_plugins=[AnyTile(tmp_path)])
    rules, state = blue_position(rules)
    state = play(rules, state, "give palace e1")
    places = options(rules, state)
    assert "place palace a1" in places and "place palace e1" in places
    assert len(places) == 30  # one token kind given up (two palaces) on each of 30 tiles


# -- green: resource cards -----------------------------------------------------------------


def green_position() -> tuple[Rules, State]:
    rules, state = with_thief("green")
    state = hold(rules, state, 1, "resources", ["ivory", "gold", "fakir"])
    state = hold(rules, state, 2, "resources", ["jewels"])
    return rules, play(rules, state, *move("green"), "green-thief")


def test_green_each_opponent_discards_2_resource_cards_of_their_choice() -> None:
    rules, state = green_position()
    assert state.decision == Decision("thief-give", 1)
    assert options(rules, state) == ["give fakir+gold", "give fakir+ivory", "give gold+ivory"]
    state = play(rules, state, "give fakir+gold")
    assert state.players[1].cards == ("ivory",)
    assert state.players[2].cards == ()  # one card only: given at once
    conserved(rules, state)


def test_green_you_keep_2_of_the_discarded_cards() -> None:
    rules, state = green_position()
    state = play(rules, state, "give fakir+gold")
    assert state.decision == Decision("thief-keep", 0)
    assert options(rules, state) == ["keep fakir+gold", "keep fakir+jewels", "keep gold+jewels"]
    before = state.players[0].cards
    state = play(rules, state, "keep gold+jewels")
    assert sorted(state.players[0].cards) == sorted((*before, "gold", "jewels"))
    assert state.decks[0].discard[-1] == "fakir"  # the card not kept is discarded
    conserved(rules, state)


def test_green_cards_given_up_wait_face_up_while_the_next_opponent_chooses() -> None:
    """Seat 1's one card is given at once; while seat 2 chooses, it lies face up to be kept
    from — still one of the game's resource cards, counted with its deck."""
    rules, state = with_thief("green")
    state = hold(rules, state, 1, "resources", ["jewels"])
    state = hold(rules, state, 2, "resources", ["ivory", "gold", "fakir"])
    state = play(rules, state, *move("green"), "green-thief")
    assert state.decision == Decision("thief-give", 2)
    assert state.turn is not None and state.turn.revealed == ("jewels",)
    check_conservation(rules, state, expected(rules, len(state.players)))
    state = play(rules, state, "give fakir+gold", "keep gold+jewels")
    assert state.decks[0].discard[-1] == "fakir"
    check_conservation(rules, state, expected(rules, len(state.players)))


# -- yellow: a vizier ----------------------------------------------------------------------


def test_yellow_each_opponent_loses_a_vizier_and_you_keep_one() -> None:
    rules, state = with_thief("yellow")
    state = player(rules, state, 1, meeples="YY")
    state = player(rules, state, 2, meeples="Y")
    bag = state.bag[rules.colour_index["yellow"]]
    state = play(rules, state, *move("yellow"), "yellow-thief")
    assert kept(rules, state, 1) == "Y" and kept(rules, state, 2) == ""
    assert kept(rules, state, 0) == "YYY"  # two collected, one stolen
    assert state.bag[rules.colour_index["yellow"]] == bag + 1  # the other to the bag
    assert state.decision.stage == "sell"  # no choice to make: the sacred place is skipped
    conserved(rules, state)


# -- white: a djinn ------------------------------------------------------------------------


def white_position() -> tuple[Rules, State]:
    rules, state = with_thief("white")
    state = hold(rules, state, 1, "djinns", ["anun-nak", "bouraq"])
    state = hold(rules, state, 2, "djinns", ["baal"])
    return rules, play(rules, state, *move("white"), "white-thief")


def test_white_each_opponent_discards_a_djinn_of_their_choice() -> None:
    rules, state = white_position()
    assert state.decision == Decision("thief-give", 1)
    assert options(rules, state) == ["give anun-nak", "give bouraq"]
    state = play(rules, state, "give bouraq")
    assert state.players[1].djinns == ("anun-nak",)
    assert state.players[2].djinns == ()
    conserved(rules, state)


def test_white_you_keep_one_of_those_djinns() -> None:
    rules, state = white_position()
    state = play(rules, state, "give bouraq")
    assert state.decision == Decision("thief-keep", 0)
    assert options(rules, state) == ["keep baal", "keep bouraq"]
    state = play(rules, state, "keep baal")
    assert "baal" in state.players[0].djinns
    assert state.decks[1].discard[-1] == "bouraq"
    conserved(rules, state)


# -- purple: an item -----------------------------------------------------------------------


def test_purple_each_opponent_gives_up_an_item_and_you_keep_one() -> None:
    rules, state = with_thief("purple", thieves_rules("artisans"))
    state = hold(rules, state, 1, "items", ["crown", "jewelry"])
    state = hold(rules, state, 2, "items", ["treasure"])
    state = play(rules, state, *move("purple"))
    while state.decision.stage == "keep-item":  # the artisans' own item first
        state = play(rules, state, options(rules, state)[0])
    state = play(rules, state, "purple-thief")
    assert state.decision == Decision("thief-give", 1)
    assert options(rules, state) == ["give crown", "give jewelry"]
    state = play(rules, state, "give jewelry")
    assert options(rules, state) == ["keep jewelry", "keep treasure"]
    items = rules.deck_index["items"]
    state = play(rules, state, "keep treasure")
    assert "treasure" in state.players[0].hand(items)
    assert state.players[1].hand(items) == ("crown",)
    assert state.players[2].hand(items) == ()
    assert state.decks[items].discard[-1] == "jewelry"
    conserved(rules, state)


# -- opponents with nothing to give --------------------------------------------------------


def test_an_opponent_with_nothing_to_give_is_skipped() -> None:
    rules, state = with_thief("white")
    state = hold(rules, state, 2, "djinns", ["baal"])  # seat 1 has no djinn
    state = play(rules, state, *move("white"), "white-thief")
    assert "baal" in state.players[0].djinns  # seat 2's only djinn, the only one given
    assert state.decision.stage == "tile:sacred-place"  # on with the turn: no choice made
    conserved(rules, state)


def test_the_thief_owner_is_never_robbed() -> None:
    rules, state = with_thief("yellow")
    state = player(rules, state, 1, meeples="Y")
    state = play(rules, state, *move("yellow"), "yellow-thief")
    assert kept(rules, state, 0) == "YYY"


# -- with the other boxes ------------------------------------------------------------------


def test_red_a_tile_marked_by_a_tent_cannot_be_given_up() -> None:
    rules = thieves_rules("artisans")
    rules, state = with_thief("red", rules, owners={"d4": 1, "e1": 2})
    # seat 1 pitched its tent on d4: the camel is back in its supply
    state = tokens(rules, state, {"d4": {"tent": 1}})
    p = state.players[1]
    state = player(
        rules, state, 1, camels=p.camels + 1, extras=set_extra(p.extras, "piece.tent", 0)
    )
    conserved(rules, state)
    state = play(rules, state, *move("red"), "red-thief")
    assert owner_of(state, "d4") == 1  # seat 1 had nothing it could give up
    assert owner_of(state, "e1") == 0  # seat 2's only tile, taken by the thief's owner
    conserved(rules, state)


def test_no_other_card_is_played_during_a_theft() -> None:
    rules, state = with_thief("green", thieves_rules("artisans"))
    state = hold(rules, state, 0, "items", ["fabulous-lamp"])
    state = hold(rules, state, 1, "items", ["horn-of-plenty"])
    state = hold(rules, state, 1, "resources", ["ivory", "gold", "fakir"])
    state = hold(rules, state, 2, "resources", ["jewels", "fakir"])
    assert any(a.startswith("fabulous-lamp") for a in options(rules, state))
    state = play(rules, state, *move("green"), "green-thief")
    assert state.decision == Decision("thief-give", 1)
    assert all(a.startswith("give") for a in options(rules, state))
    state = play(rules, state, "give fakir+gold")
    assert state.decision == Decision("thief-keep", 0)
    assert all(a.startswith("keep") for a in options(rules, state))
    state = play(rules, state, "keep fakir+gold")
    assert any(a.startswith("fabulous-lamp") for a in options(rules, state))  # the turn goes on
    conserved(rules, state)
