"""The effects language as an author meets it: the cookbook of docs/effects.md, each rule
a TOML file that does what it says and plays on the native engine; formulas and names
refused in one line; the djinns written in the language."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest

from naqala.core.content import ContentError, parse_content_file
from naqala.core.engine import Rules, build_rules
from naqala.core.state import NOBODY, State
from naqala.testing.effect_programs import as_house_rule
from naqala.testing.scenario import base_rules, board, play, player, tokens, turn_of

ROOT = Path(__file__).resolve().parent.parent
COOKBOOK = ROOT / "docs" / "examples" / "effects"


def cookbook(name: str) -> Rules:
    return build_rules(house_rules=[COOKBOOK / f"{name}.toml"])


def start(rules: Rules, meeples: dict[str, str], tiles: dict[str, str] | None = None) -> State:
    """Player 0 about to pick, on a board holding only ``meeples``."""
    state = board(rules, rules.new_game(2, 1), meeples, clear=True, tiles=tiles)
    return turn_of(rules, state, 0)


def end_move_on(rules: Rules, tile: str, placed: dict[str, dict[str, int]] | None = None) -> State:
    """Player 0 moves a vizier from a1 onto b1 (tile ``tile``, holding a vizier and the
    tokens ``placed``): both viziers are collected, a camel goes on b1, then its action."""
    state = start(rules, {"a1": "Y", "b1": "Y"}, tiles={"b1": tile})
    state = tokens(rules, state, placed)
    return play(rules, state, "pick a1", "drop b1 Y")


def coins(state: State, seat: int = 0) -> int:
    return state.players[seat].coins


def test_camel_drivers_whoever_puts_a_camel_on_a_tile_gains_3_coins() -> None:
    rules = cookbook("camel_drivers")
    driven, usual = end_move_on(rules, "oasis-1"), end_move_on(base_rules(), "oasis-1")
    assert driven.board.owners[1] == 0
    assert coins(driven) == coins(usual) + 3


def test_shady_oases_the_oasis_pays_1_coin_per_palm_tree_already_there() -> None:
    rules = cookbook("shady_oases")
    palms = {"b1": {"palm-tree": 2}}
    shady, usual = end_move_on(rules, "oasis-1", palms), end_move_on(base_rules(), "oasis-1", palms)
    assert shady.board.tokens[1][rules.token_index["palm-tree"]] == 3  # then plants as usual
    assert coins(shady) == coins(usual) + 2


def test_village_tax_costs_2_coins_and_a_poor_player_pays_what_they_have() -> None:
    rules = cookbook("village_tax")
    taxed, usual = end_move_on(rules, "village-1"), end_move_on(base_rules(), "village-1")
    assert coins(taxed) == coins(usual) - 2
    assert taxed.board.tokens[1][rules.token_index["palace"]] == 1
    poor = player(rules, start(rules, {"a1": "Y", "b1": "Y"}, {"b1": "village-1"}), 0, coins=1)
    assert coins(play(rules, poor, "pick a1", "drop b1 Y")) == 0


def finish_turn(rules: Rules, state: State) -> State:
    """Play the rest of player 0's turn with the first option (ending the sale)."""
    while state.decision.player == 0 and state.decision.stage != "bid":
        options = rules.legal_actions(state)
        end = [a for a in options if a.kind == "end"]
        state = rules.apply(state, end[0] if end else options[0])
    return state


def test_the_sultans_tax_takes_1_coin_at_the_end_of_a_turn_if_there_is_one() -> None:
    rules, plain = cookbook("sultans_tax"), base_rules()
    taxed = finish_turn(rules, end_move_on(rules, "oasis-1"))
    usual = finish_turn(plain, end_move_on(plain, "oasis-1"))
    assert coins(taxed) == coins(usual) - 1
    broke = player(rules, start(rules, {"a1": "Y", "b1": "Y"}, {"b1": "oasis-1"}), 0, coins=0)
    assert coins(finish_turn(rules, play(rules, broke, "pick a1", "drop b1 Y"))) == 0


def test_a_sales_tax_takes_1_coin_in_5_of_what_a_sale_pays() -> None:
    rules = cookbook("sales_tax")
    selling = player(rules, end_move_on(rules, "oasis-1"), 0, cards=["ivory", "gold", "silk"])
    three = play(rules, selling, "sell gold+ivory+silk")  # worth 7: 1 to the bank
    assert coins(three) == coins(selling) + 7 - 1
    one = play(rules, selling, "sell gold")  # worth 1: nothing to the bank
    assert coins(one) == coins(selling) + 1


def test_idle_merchants_pay_2_coins_at_the_end_of_a_round_without_a_sale() -> None:
    """Player 0 sells in the round's last turn; player 1 sold nothing in the round."""
    rules = cookbook("idle_merchants")
    last = end_move_on(rules, "oasis-1")
    last = attrs.evolve(last, turn_track=tuple(NOBODY for _ in last.turn_track))
    sold = play(rules, player(rules, last, 0, cards=["ivory", "gold"]), "sell gold+ivory")
    assert sold.players[0].extras == (("counter.sold-this-round", 1),)
    ended = play(rules, sold, "end")
    assert ended.round == last.round + 1
    assert coins(ended, 0) == coins(sold, 0)
    assert coins(ended, 1) == coins(sold, 1) - 2
    assert [p.extras for p in ended.players] == [(), ()]  # cleared for the next round


def test_a_stipend_gives_2_coins_to_a_poor_player_as_their_turn_starts() -> None:
    """Both players hold 1 coin and bid the cheapest spot left: the first turn's player
    is left with less than 2 and takes 2 as the turn starts, before the move; the other
    player's turn has not started."""
    rules, plain = cookbook("stipend"), base_rules()

    def first_turn(rules: Rules) -> State:
        state = rules.new_game(2, 1)
        for seat in (0, 1):
            state = player(rules, state, seat, coins=1)
        while state.decision.stage == "bid":
            state = rules.apply(state, rules.legal_actions(state)[0])
        return state

    helped, usual = first_turn(rules), first_turn(plain)
    mover = helped.decision.player
    assert helped.decision.stage == usual.decision.stage == "pick"
    assert coins(usual, mover) < 2
    assert coins(helped, mover) == coins(usual, mover) + 2
    assert coins(helped, 1 - mover) == coins(usual, 1 - mover)


def test_qarin_is_a_new_djinn_in_one_file_that_scores_its_palaces() -> None:
    rules = cookbook("qarin")
    state = start(rules, {})
    state = tokens(rules, state, {"a1": {"palace": 2}, "c3": {"palace": 1}})
    state = attrs.evolve(
        state, board=attrs.evolve(state.board, owners=(0, *state.board.owners[1:]))
    )
    state = player(rules, state, 0, djinns=["qarin"])
    lines = [line for line in rules.score_lines(state, 0) if line.source == "qarin"]
    assert [(line.category, line.points, line.detail) for line in lines] == [
        ("palaces", 4, "2 palaces")
    ]
    assert rules.card_powers["qarin"].describe(rules, rules.card_specs["qarin"]) == (
        "Each palace on your tiles scores 2 VP more."
    )


def test_wells_a_new_tile_kind_draws_a_card_and_pays_a_coin() -> None:
    rules = cookbook("wells")
    state = start(rules, {"a1": "Y", "b1": "Y"}, tiles={"b1": "well-1"})
    before = len(state.players[0].cards)
    after = play(rules, state, "pick a1", "drop b1 Y")
    assert after.decision.stage == "sell"
    assert len(after.players[0].cards) == before + 1
    assert coins(after) == coins(state) + 1


def test_a_house_rule_revises_a_shipped_djinn_and_revising_nothing_is_refused(
    tmp_path: Path,
) -> None:
    """``revises = true`` replaces the powers an earlier file gave the kind: Ba'al, revised,
    pays its owner 5 whoever takes a djinn, and no longer what base.toml says. A revision
    of a kind no file gave a power is refused in one line."""
    rule = tmp_path / "generous_baal.toml"
    rule.write_text(
        '[house-rule]\nname = "generous-baal"\nversion = "1.0"\ndescription = "x"\n\n'
        '[[power]]\ndeck = "djinns"\nkind = "baal"\nrevises = true\non = "djinn-taken"\n'
        'if = "not event.this_card"\neffects = [{ coins = 5 }]\n'
        'effect_text = "You gain 5 coins whoever takes a djinn."\n',
        encoding="utf-8",
    )
    rules = build_rules(house_rules=[rule])
    baal = [p for p in rules.content.powers if p.kind == "baal"]
    assert len(baal) == 1 and baal[0].revises
    card = rules.card_specs["baal"]
    assert rules.power_of(card).describe(rules, card) == "You gain 5 coins whoever takes a djinn."
    rule.write_text(
        rule.read_text(encoding="utf-8").replace('kind = "baal"', 'kind = "baall"'),
        encoding="utf-8",
    )
    with pytest.raises(ContentError, match="power 'djinns:baall' revises no earlier power"):
        build_rules(house_rules=[rule])


def test_a_revised_baal_pays_its_owner_for_each_palace_placed() -> None:
    """``revised_baal.toml`` rewrites a shipped djinn: holding Ba'al, a palace placed on a
    village pays 1 coin more than without the rule, and a djinn taken by anyone pays 1."""
    rules, plain = cookbook("revised_baal"), base_rules()

    def village(rules: Rules) -> State:
        state = start(rules, {"a1": "Y", "b1": "Y"}, tiles={"b1": "village-1"})
        state = player(rules, state, 0, djinns=["baal"])
        state = play(rules, state, "pick a1", "drop b1 Y")
        while state.decision.stage != "sell":
            state = rules.apply(state, rules.legal_actions(state)[0])
        return state

    placed, usual = village(rules), village(plain)
    assert placed.board.tokens[placed.geometry.parse("b1")][rules.token_index["palace"]] == 1
    assert coins(placed) == coins(usual) + 1
    card = rules.card_specs["baal"]
    assert rules.power_of(card).describe(rules, card).startswith("You gain 1 coin whoever")


def test_court_fees_are_paid_before_the_viziers_act_and_after_once_there_are_5() -> None:
    """Player 0 moves a vizier onto another: before the viziers join them they pay 1 coin;
    with 3 viziers kept already (5 once these 2 join), the upkeep costs 1 more after the
    tribe's action. Another tribe pays nothing."""
    rules, plain = cookbook("court_fees"), base_rules()

    def moved(rules: Rules, kept: str, meeples: str = "Y") -> State:
        state = start(rules, {"a1": meeples, "b1": meeples}, tiles={"b1": "oasis-1"})
        state = player(rules, state, 0, meeples=kept)
        return play(rules, state, "pick a1", f"drop b1 {meeples}")

    assert coins(moved(rules, "")) == coins(moved(plain, "")) - 1
    assert coins(moved(rules, "YYY")) == coins(moved(plain, "YYY")) - 2
    assert moved(rules, "YYY").players[0].meeples == moved(plain, "YYY").players[0].meeples
    assert coins(moved(rules, "YYY", "W")) == coins(moved(plain, "YYY", "W"))


def test_fresh_goods_deal_a_new_row_of_9_before_a_large_market() -> None:
    """The face-up resources are discarded and 9 dealt from the pile, then the market
    offers the new row; with the pile short, the discards (the old row too) are reshuffled
    into it."""
    rules = cookbook("fresh_goods")
    before = start(rules, {"a1": "Y", "b1": "Y"}, {"b1": "large-market-1"})
    resources = before.decks[rules.deck_index["resources"]]
    fresh = play(rules, before, "pick a1", "drop b1 Y")
    dealt = fresh.decks[rules.deck_index["resources"]]
    assert fresh.decision.stage == "tile:large-market"
    assert dealt.row == resources.draw[:9]
    assert dealt.discard == (*resources.discard, *resources.row)
    reach = rules.content.setting("large_market_reach")
    offered = {
        c for a in rules.legal_actions(fresh) if a.kind == "buy" for c in a.args[0].split("+")
    }
    assert offered == set(dealt.row[:reach])
    short = out_of_the_pile_but(rules, before, 4)
    pile = short.decks[rules.deck_index["resources"]]
    reshuffled = play(rules, short, "pick a1", "drop b1 Y").decks[rules.deck_index["resources"]]
    assert len(reshuffled.row) == 9 and reshuffled.row[:4] == pile.draw
    assert sorted((*reshuffled.row, *reshuffled.draw)) == sorted(
        (*pile.draw, *pile.row, *pile.discard)
    )


def out_of_the_pile_but(rules: Rules, state: State, left: int) -> State:
    """The resource pile down to its top ``left`` cards, the rest handed to player 1."""
    index = rules.deck_index["resources"]
    deck = state.decks[index]
    state = player(rules, state, 1, cards=list(deck.draw[left:]))
    deck = attrs.evolve(deck, draw=deck.draw[:left])
    return attrs.evolve(state, decks=(*state.decks[:index], deck, *state.decks[index + 1 :]))


def test_a_new_row_of_none_or_fewer_deals_nothing() -> None:
    """``deal_row`` of 0 or less leaves the row as it is, as ``draw`` of 0 draws none."""
    text = (COOKBOOK / "fresh_goods.toml").read_text(encoding="utf-8")
    for row in (0, -3):
        rules = build_rules(house_rules=[as_house_rule(text.replace("row = 9", f"row = {row}"))])
        before = start(rules, {"a1": "Y", "b1": "Y"}, {"b1": "large-market-1"})
        after = play(rules, before, "pick a1", "drop b1 Y")
        index = rules.deck_index["resources"]
        assert after.decks[index] == before.decks[index]


@pytest.mark.parametrize("path", sorted(COOKBOOK.glob("*.toml")), ids=lambda p: p.stem)
def test_every_cookbook_rule_plays_natively_and_the_same_on_both_engines(path: Path) -> None:
    differential = pytest.importorskip("naqala.native.differential")
    plan = pytest.importorskip("naqala.native.plan")
    rules = build_rules(house_rules=[path])
    assert plan.plan(rules, ["random", "random"]).reason is None  # native
    native = pytest.importorskip("naqala.native.bridge").NativeRules(rules)
    assert native.kernel.unported_content() == []
    for players, seed in ((2, 1), (3, 2)):
        report = differential.verify_game(rules, native, players, seed)
        assert not report.differences, report.differences[:2]


# -- what is refused, in one line ------------------------------------------------------


def refused(text: str) -> list[str]:
    parsed, problems = parse_content_file(Path("rule.toml"), text)
    assert parsed is None
    return problems


def test_a_wrong_formula_is_refused_at_its_path() -> None:
    problems = refused('[[trigger]]\nid = "t"\non = "kill"\neffects = [{ coins = "3 +" }]\n')
    assert problems == [
        "rule.toml: $.trigger[0].effects[0].coins: '3 +' is no formula: invalid syntax"
    ]
    problems = refused('[[trigger]]\nid = "t"\non = "kill"\neffects = [{ coins = "you" }]\n')
    assert "unknown name 'you'" in problems[0]
    problems = refused('[[trigger]]\nid = "t"\non = "kill"\neffects = [{ coins = 1, draw = 1 }]\n')
    assert "an effect does one thing" in problems[0]
    too_long = "1" + " + 1" * 200
    problems = refused(
        f'[[trigger]]\nid = "t"\non = "kill"\neffects = [{{ coins = "{too_long}" }}]\n'
    )
    assert "at most 400" in problems[0]


def test_what_a_rule_means_is_checked_against_the_rules_in_play(tmp_path: Path) -> None:
    rule = tmp_path / "bad.toml"
    rule.write_text(
        '[house-rule]\nname = "bad"\nversion = "1.0"\ndescription = "bad"\n\n'
        '[[trigger]]\nid = "t1"\non = "tile-taken"\n'
        'effects = [{ score = 3, category = "x" }, { coins = \'here("palmtree")\' }]\n\n'
        '[[tile_action]]\nid = "t2"\ntile = "swamp"\nat = "before"\neffects = [{ coins = 1 }]\n\n'
        '[[power]]\ndeck = "djinns"\nkind = "kumarbi"\non = "kill"\neffects = [{ coins = 1 }]\n',
        encoding="utf-8",
    )
    with pytest.raises(ContentError) as error:
        build_rules(house_rules=[rule])
    text = str(error.value)
    assert "a score line is given at scoring only" in text
    assert "no token 'palmtree' in these rules" in text
    assert "no tile of kind 'swamp' in these rules" in text
    assert "the base game's code gives this card kind its power" in text


def test_two_powers_for_one_card_kind_are_refused_naming_the_first_file(tmp_path: Path) -> None:
    rule = tmp_path / "baal_again.toml"
    rule.write_text(
        '[house-rule]\nname = "baal-again"\nversion = "1.0"\ndescription = "x"\n\n'
        '[[power]]\ndeck = "djinns"\nkind = "baal"\non = "kill"\neffects = [{ coins = 1 }]\n',
        encoding="utf-8",
    )
    with pytest.raises(
        ContentError, match=r"power 'djinns:baal' is already defined in .*base.toml"
    ):
        build_rules(house_rules=[rule])


# -- the djinns in the language --------------------------------------------------------

PORTED = (
    "anun-nak",
    "baal",
    "bouraq",
    "enki",
    "hagis",
    "haurvatat",
    "iblis",
    "jafaar",
    "lamia",
    "leta",
    "marid",
    "monkir",
    "nekir",
    "shamhat",
    "sibittis",
    "sloar",
    "utug",
)


@pytest.mark.parametrize("kind", PORTED)
def test_the_djinns_written_in_the_language_are_content_not_code(kind: str) -> None:
    rules = base_rules()
    assert any(p.kind == kind for p in rules.content.powers)
    assert type(rules.powers["djinns", kind]).__module__ == "naqala.plugins.base.effects"


def test_the_horn_of_plenty_is_content_not_code() -> None:
    """The Artisans' Horn of Plenty is a used power of content/artisans-items.toml
    (``deal_row``); its hand-written code is gone from both engines."""
    rules = build_rules(["artisans"])
    assert any(p.kind == "horn-of-plenty" for p in rules.content.powers)
    power = rules.powers["items", "horn-of-plenty"]
    assert type(power).__module__ == "naqala.plugins.base.effects"


def test_a_market_whose_buyer_lost_the_coins_since_entering_offers_only_to_skip() -> None:
    """An effect can take coins while the market waits (a trigger on a tile taken by a
    djinn); the purchase is then refused, as at the market's entry (a drawn program found
    a player at -3 coins)."""
    rules = base_rules()
    state = end_move_on(rules, "small-market-1")
    assert state.decision.stage == "tile:small-market"
    assert len(rules.legal_actions(state)) > 1
    broke = player(rules, state, 0, coins=rules.content.setting("small_market_cost") - 1)
    assert [str(a) for a in rules.legal_actions(broke)] == ["skip"]


def test_a_wrong_field_in_words_is_refused_when_the_file_is_read() -> None:
    """A detail's or a card's words are checked like every formula, so they never fail
    at scoring or in the card reference."""
    problems = refused(
        '[[trigger]]\nid = "t"\non = "scoring"\n'
        'effects = [{ score = 1, category = "c", detail = "{foo(} palaces" }]\n'
    )
    assert problems == [
        "rule.toml: $.trigger[0].effects[0].detail: 'foo(' is no formula: '(' was never closed"
    ]
    problems = refused(
        '[[power]]\ndeck = "djinns"\nkind = "q"\non = "scoring"\neffect_text = "{nobody} VP"\n'
    )
    assert "unknown name 'nobody'" in problems[0]
