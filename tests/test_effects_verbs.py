"""The smaller verbs of the effects language: a token, a camel or a meeple removed from a
used power's target tile or moved to its second tile, Fakirs discarded, a target named by
a condition, a camel and meeples put on it, djinns drawn to keep one, a used power whose
card then reacts; each on both engines and refused where it cannot act."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from native_kit import assert_same_games, same_on_the_kernel

from naqala.core.content import ContentError
from naqala.core.engine import Rules, build_rules
from naqala.core.state import State, get_extra, set_extra
from naqala.plugins.base.api import FAKIR
from naqala.testing.effect_programs import as_house_rule
from naqala.testing.scenario import board, play, player, tokens, turn_of

COOKBOOK = Path(__file__).resolve().parent.parent / "docs" / "examples" / "effects"
HEADER = '[house-rule]\nname = "verbs"\nversion = "1.0"\ndescription = "x"\n\n'
#: a djinn that clears a palm tree off any oasis, and costs a Fakir (if held)
SIMOOM = (
    '[[djinn]]\nid = "simoom"\nname = "Simoom"\nvp = 4\nkind = "simoom"\ncost = ""\n\n'
    '[[power]]\ndeck = "djinns"\nkind = "simoom"\non = "use"\ntarget_kind = "oasis"\n'
    'effects = [{ remove = "palm-tree" }, { discard_fakirs = "param.fakirs + 1" }]\n'
)


def rules_of(text: str) -> Rules:
    return build_rules(house_rules=[as_house_rule(HEADER + text)])


def refusal(tmp_path: Path, body: str) -> str:
    """What building the rules with a house rule of ``body`` says in refusing it."""
    rule = tmp_path / "bad.toml"
    rule.write_text(HEADER + body, encoding="utf-8")
    with pytest.raises(ContentError) as error:
        build_rules(house_rules=[rule])
    return str(error.value)


def out_of_the_pile(rules: Rules, state: State, deck_id: str, *cards: str) -> State:
    """The deck less the cards handed out, wherever they lie: every card once."""
    index = rules.deck_index[deck_id]
    deck = state.decks[index]
    parts = {"draw": list(deck.draw), "row": list(deck.row), "discard": list(deck.discard)}
    for card in cards:
        where = next(name for name, part in parts.items() if card in part)
        parts[where].remove(card)
    deck = attrs.evolve(deck, **{k: tuple(v) for k, v in parts.items()})
    return attrs.evolve(state, decks=(*state.decks[:index], deck, *state.decks[index + 1 :]))


def holding_simoom(rules: Rules, fakirs: int) -> State:
    state = board(rules, rules.new_game(2, 1), {"a1": "Y", "b1": "Y"}, clear=True)
    state = board(rules, state, {}, tiles={"c3": "oasis-1"})
    state = tokens(rules, state, {"c3": {"palm-tree": 2}})
    state = player(rules, turn_of(rules, state, 0), 0, djinns=["simoom"], cards=[FAKIR] * fakirs)
    state = out_of_the_pile(rules, state, "djinns", "simoom")
    return out_of_the_pile(rules, state, "resources", *[FAKIR] * fakirs)


def test_a_token_goes_back_to_the_bank_and_fakirs_are_discarded_as_held() -> None:
    rules = rules_of(SIMOOM)
    palm = rules.token_index["palm-tree"]
    state = holding_simoom(rules, fakirs=3)
    used = play(rules, state, "simoom c3")
    assert used.board.tokens[state.geometry.parse("c3")][palm] == 1
    assert used.pool[palm] == state.pool[palm] + 1
    assert used.players[0].cards.count(FAKIR) == 2  # param.fakirs is 0: one discarded
    short = holding_simoom(rules, fakirs=0)
    assert play(rules, short, "simoom c3").players[0].cards == short.players[0].cards
    bare = tokens(rules, short, {"c3": {"palm-tree": -2}})
    unchanged = play(rules, bare, "simoom c3")
    assert unchanged.board.tokens == bare.board.tokens and unchanged.pool == bare.pool
    same_on_the_kernel(rules, state, used)
    same_on_the_kernel(rules, bare, unchanged)


def test_a_token_removed_without_a_target_is_refused_in_one_line(tmp_path: Path) -> None:
    body = '[[trigger]]\nid = "t"\non = "kill"\neffects = [{ remove = "palace" }]\n'
    said = refusal(tmp_path, body)
    assert (
        "trigger 't': a token, a camel or meeples are placed, removed or moved by a used power "
        "on its target tile only" in said
    )


# -- a target named by a condition; a camel and meeples put on it ----------------------

#: a djinn that takes, with a camel, any unowned tile holding exactly one meeple, then
#: drops 2 meeples from the bag on it
DUNE = (
    '[[djinn]]\nid = "dune"\nname = "Dune"\nvp = 2\nkind = "dune"\ncost = ""\n\n'
    '[[power]]\ndeck = "djinns"\nkind = "dune"\non = "use"\nif = "camels() > 0"\n'
    'target = "target.owner == -1 and target.meeples == 1"\n'
    'effects = [{ place = "camel" }, { meeples = 2 }]\n'
)


def holding_dune(rules: Rules) -> State:
    meeples = {"a1": "Y", "b1": "YG", "c3": "B"}
    state = board(rules, rules.new_game(2, 1), meeples, clear=True)
    state = player(rules, turn_of(rules, state, 0), 0, djinns=["dune"])
    return out_of_the_pile(rules, state, "djinns", "dune")


def test_a_condition_names_the_tiles_a_power_may_target_and_a_camel_takes_one() -> None:
    rules = rules_of(DUNE)
    state = holding_dune(rules)
    offered = sorted(str(a) for a in rules.legal_actions(state) if a.kind == "dune")
    assert offered == ["dune a1", "dune c3"]  # one meeple each; b1 holds two
    used = play(rules, state, "dune c3")
    c3 = state.geometry.parse("c3")
    assert used.board.owners[c3] == 0
    assert used.players[0].camels == state.players[0].camels - 1
    assert sum(used.board.meeples[c3]) == 3  # its blue, and 2 from the bag
    assert sum(used.bag) == sum(state.bag) - 2
    no_camels = attrs.evolve(state.players[0], camels=0)
    assert not [
        a for a in rules.legal_actions(state.replace_player(0, no_camels)) if a.kind == "dune"
    ]
    same_on_the_kernel(rules, state, used)


def test_a_camel_or_meeples_without_a_target_are_refused_and_so_is_an_unknown_piece(
    tmp_path: Path,
) -> None:
    for body, wanted in (
        (
            '[[trigger]]\nid = "t"\non = "kill"\neffects = [{ meeples = 2 }]\n',
            "trigger 't': a token, a camel or meeples are placed, removed or moved",
        ),
        (
            DUNE.replace('place = "camel"', 'place = "camels"'),
            "no token 'camels' in these rules (or 'camel': the tile, with a camel)",
        ),
        (
            DUNE.replace("target.meeples == 1", "target.meeples == held('purple')"),
            "no colour 'purple' in these rules",
        ),
    ):
        assert wanted in refusal(tmp_path, body)


# -- a camel and meeples taken off a tile ----------------------------------------------

#: a djinn that sends an opponent's camel home and one of the viziers on its tile to the
#: bag
EVICTION = (
    '[[djinn]]\nid = "evict"\nname = "Evict"\nvp = 2\nkind = "evict"\ncost = ""\n\n'
    '[[power]]\ndeck = "djinns"\nkind = "evict"\non = "use"\n'
    'target = "target.owner >= 0 and target.owner != me"\n'
    'effects = [{ remove = "camel" }, { remove = "yellow" }]\n'
)


def dealt(kind: str, power: str, copies: int = 4) -> str:
    """Free djinns of ``kind`` with ``power``, one dealt to each player at setup
    (``start.cards``), so that random players use them often: four, or as many as the
    most players."""
    djinns = "".join(
        f'[[djinn]]\nid = "{kind}-{n}"\nname = "{kind.title()} {n}"\nvp = 2\nkind = "{kind}"\n'
        'cost = ""\n\n'
        for n in range(1, copies + 1)
    )
    cards = f'start.cards = [{{deck = "djinns", kind = "{kind}", count = 1}}]'
    return f"[settings]\n{cards}\n\n{djinns}{power}"


#: a board with moves that do not start or end on c3 (a1 to b1)
AROUND_C3 = {"a1": "Y", "b1": "YG", "c3": "YYB"}


def holding_eviction(
    rules: Rules, stage: str = "sell", meeples: dict[str, str] = AROUND_C3
) -> State:
    """Player 0 holds Evict, and player 1 c3 (with one of their camels)."""
    state = board(rules, rules.new_game(2, 1), meeples, clear=True)
    c3 = state.geometry.parse("c3")
    owners = tuple(1 if t == c3 else o for t, o in enumerate(state.board.owners))
    state = attrs.evolve(state, board=attrs.evolve(state.board, owners=owners))
    state = state.replace_player(
        1, attrs.evolve(state.players[1], camels=state.players[1].camels - 1)
    )
    state = player(rules, turn_of(rules, state, 0, stage), 0, djinns=["evict"])
    return out_of_the_pile(rules, state, "djinns", "evict")


def test_a_camel_goes_back_to_its_owner_and_a_meeple_to_the_bag() -> None:
    rules = rules_of(EVICTION)
    state = holding_eviction(rules)
    offered = [str(a) for a in rules.legal_actions(state) if a.kind == "evict"]
    assert offered == ["evict c3"]  # the one tile an opponent holds
    used = play(rules, state, "evict c3")
    c3, yellow = state.geometry.parse("c3"), rules.colour_index["yellow"]
    assert used.board.owners[c3] == -1  # no one's
    assert used.players[1].camels == state.players[1].camels + 1
    assert used.board.meeples[c3][yellow] == 1 and used.bag[yellow] == state.bag[yellow] + 1
    same_on_the_kernel(rules, state, used)


def test_meeples_are_not_taken_off_during_the_move_and_leave_a_pick() -> None:
    """A power that takes meeples off a tile is not offered at a drop or the assassins'
    kill, whose options were worked out for the meeples as they stand; at the pick it is
    offered only where a pick is left after it (a move it broke could not end)."""
    rules = rules_of(EVICTION)
    at_pick = holding_eviction(rules, "pick")
    assert [str(a) for a in rules.legal_actions(at_pick) if a.kind == "evict"] == ["evict c3"]
    same_on_the_kernel(rules, at_pick, play(rules, at_pick, "evict c3"))
    at_drop = play(rules, at_pick, "pick a1")
    assert at_drop.decision.stage == "drop"
    assert not [a for a in rules.legal_actions(at_drop) if a.kind == "evict"]
    same_on_the_kernel(rules, at_drop)
    # the yellows of c3 and c4 are each other's only move: without one, no pick is left
    cornered = holding_eviction(rules, "pick", {"c3": "Y", "c4": "Y"})
    assert [str(a) for a in rules.legal_actions(cornered)] == ["pick c3", "pick c4"]
    same_on_the_kernel(rules, cornered)
    camel_only = rules_of(EVICTION.replace(', { remove = "yellow" }', ""))
    cornered = holding_eviction(camel_only, "pick", {"c3": "Y", "c4": "Y"})
    assert [str(a) for a in camel_only.legal_actions(cornered) if a.kind == "evict"] == [
        "evict c3"
    ]  # a camel sent home changes no move
    same_on_the_kernel(camel_only, cornered, play(camel_only, cornered, "evict c3"))


def test_a_tent_stands_for_a_camel_and_is_not_removed(tmp_path: Path) -> None:
    """With the Artisans a tent may mark a tile instead of a camel: removing the camel
    there does nothing, and a tent is never removed alone (its tile would be held by
    nothing)."""
    rule = tmp_path / "evict.toml"
    rule.write_text(HEADER + EVICTION, encoding="utf-8")
    rules = build_rules(["artisans"], house_rules=[rule])
    state = holding_eviction(rules)
    c3, tent = state.geometry.parse("c3"), rules.token_index["tent"]
    camels = state.players[1].camels + 1  # the tent marks c3, not a camel
    pitched = attrs.evolve(
        state.players[1], camels=camels, extras=set_extra(state.players[1].extras, "piece.tent", 0)
    )
    tented = tokens(rules, state.replace_player(1, pitched), {"c3": {"tent": 1}})
    used = play(rules, tented, "evict c3")
    assert used.board.owners[c3] == 1 and used.board.tokens[c3][tent] == 1
    assert used.players[1].camels == camels
    same_on_the_kernel(rules, tented, used)
    rule.write_text(
        HEADER + EVICTION.replace('remove = "camel"', 'remove = "tent"'), encoding="utf-8"
    )
    with pytest.raises(ContentError, match="a tent stands for a camel: it is not removed alone"):
        build_rules(["artisans"], house_rules=[rule])


def test_remove_names_a_camel_a_token_or_a_colour(tmp_path: Path) -> None:
    said = refusal(tmp_path, EVICTION.replace('remove = "yellow"', 'remove = "vizier"'))
    assert (
        "no token 'vizier' in these rules (or 'camel': the tile's camel, or a colour: one "
        "of its meeples)" in said
    )


def test_camels_sent_home_play_the_same_on_both_engines_in_whole_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Four free evictions, one dealt to each player at setup: the random games send
    camels home and meeples to the bag, compared state by state."""
    from naqala.plugins.base import effects

    sent_home = []
    release = effects.release_tile
    monkeypatch.setattr(effects, "release_tile", lambda s, t: sent_home.append(t) or release(s, t))
    rules = rules_of(dealt("evict", EVICTION[EVICTION.index("[[power]]") :]))
    assert_same_games(rules, ((2, 1), (3, 2), (4, 3)))
    assert sent_home


# -- a piece moved from the target to a second tile -------------------------------------

#: a djinn that carries a palm tree from any tile to a tile with no token, and a trigger
#: paying 5 coins for each palm tree placed (a move places none)
SIROCCO = (
    '[[djinn]]\nid = "sirocco"\nname = "Sirocco"\nvp = 2\nkind = "sirocco"\ncost = ""\n\n'
    '[[power]]\ndeck = "djinns"\nkind = "sirocco"\non = "use"\n'
    "target = 'on_target(\"palm-tree\") > 0'\n"
    'target_to = "target.tokens == 0"\n'
    'effects = [{ move = "palm-tree" }]\n\n'
    '[[trigger]]\nid = "grove"\non = "palm-tree-placed"\neffects = [{ coins = 5 }]\n'
)


def test_a_palm_tree_moves_to_the_second_tile_the_action_names() -> None:
    """``move`` carries one palm tree of the target tile to the second tile the action
    names (``target_to``), never the same tile; nothing comes from the bank, and no
    ``palm-tree-placed`` fires."""
    rules = rules_of(SIROCCO)
    state = board(rules, rules.new_game(2, 1), {"a1": "Y", "b1": "YG"}, clear=True)
    state = tokens(rules, state, {"c3": {"palm-tree": 2}, "d4": {"palace": 1}})
    state = player(rules, turn_of(rules, state, 0), 0, djinns=["sirocco"])
    state = out_of_the_pile(rules, state, "djinns", "sirocco")
    geo, palm = state.geometry, rules.token_index["palm-tree"]
    offered = [str(a) for a in rules.legal_actions(state) if a.kind == "sirocco"]
    tokenless = {geo.name(t) for t in range(geo.size) if not any(state.board.tokens[t])}
    assert {a.split()[1] for a in offered} == {"c3"}
    assert {a.split()[2] for a in offered} == tokenless  # neither c3 itself nor d4
    used = play(rules, state, "sirocco c3 e5")
    assert used.board.tokens[geo.parse("c3")][palm] == 1
    assert used.board.tokens[geo.parse("e5")][palm] == 1
    assert used.pool == state.pool
    assert used.players[0].coins == state.players[0].coins  # no palm tree was placed
    same_on_the_kernel(rules, state, used)


def test_the_sirocco_blows_a_palm_tree_for_a_fakir() -> None:
    """The cookbook's Sirocco: for a Fakir, a palm tree onto a tile holding no token."""
    rules = build_rules(house_rules=[COOKBOOK / "sirocco.toml"])
    state = board(rules, rules.new_game(2, 1), {"a1": "Y", "b1": "YG"}, clear=True)
    state = tokens(rules, state, {"c3": {"palm-tree": 1}})
    state = player(rules, turn_of(rules, state, 0), 0, djinns=["sirocco"], cards=[FAKIR])
    state = out_of_the_pile(rules, state, "djinns", "sirocco")
    state = out_of_the_pile(rules, state, "resources", FAKIR)
    assert "sirocco c3 e5 F" in [str(a) for a in rules.legal_actions(state)]
    used = play(rules, state, "sirocco c3 e5 F")
    palm, geo = rules.token_index["palm-tree"], state.geometry
    assert used.board.tokens[geo.parse("e5")][palm] == 1
    assert not used.board.tokens[geo.parse("c3")][palm]
    assert FAKIR not in used.players[0].cards
    same_on_the_kernel(rules, state, used)
    poor = player(rules, state, 0, cards=[])
    assert not [a for a in rules.legal_actions(poor) if a.kind == "sirocco"]


#: a djinn that moves one of its owner's camels to any tile nobody holds, and a vizier of
#: that tile with it
CARAVAN = (
    '[[djinn]]\nid = "caravan"\nname = "Caravan"\nvp = 2\nkind = "caravan"\ncost = ""\n\n'
    '[[power]]\ndeck = "djinns"\nkind = "caravan"\non = "use"\n'
    'target = "target.owner == me"\ntarget_to = "target.owner == -1"\n'
    'effects = [{ move = "camel" }, { move = "yellow" }]\n'
)


def holding_caravan(rules: Rules, stage: str = "sell") -> State:
    """Player 1 holds c3 (a camel, two viziers and a builder) and the Caravan."""
    state = board(rules, rules.new_game(2, 1), {"a1": "Y", "b1": "YG", "c3": "YYB"}, clear=True)
    c3 = state.geometry.parse("c3")
    owners = tuple(0 if t == c3 else o for t, o in enumerate(state.board.owners))
    state = attrs.evolve(state, board=attrs.evolve(state.board, owners=owners))
    first = attrs.evolve(state.players[0], camels=state.players[0].camels - 1)
    state = player(rules, turn_of(rules, state.replace_player(0, first), 0, stage), 0)
    state = player(rules, state, 0, djinns=["caravan"])
    return out_of_the_pile(rules, state, "djinns", "caravan")


def test_a_camel_moves_with_its_owner_and_meeples_stay_while_in_play() -> None:
    """The camel keeps its owner on the tile it moves to and the tile it leaves is
    nobody's; no camel comes from the supply. A power that moves meeples waits during the
    move and the kill, and at the pick is offered where a pick is left, as one that
    removes them."""
    rules = rules_of(CARAVAN)
    state = holding_caravan(rules)
    geo, yellow = state.geometry, rules.colour_index["yellow"]
    offered = [str(a) for a in rules.legal_actions(state) if a.kind == "caravan"]
    assert len(offered) == geo.size - 1 and {a.split()[1] for a in offered} == {"c3"}
    used = play(rules, state, "caravan c3 a1")
    assert used.board.owners[geo.parse("a1")] == 0
    assert used.board.owners[geo.parse("c3")] == -1
    assert used.players[0].camels == state.players[0].camels
    assert used.board.meeples[geo.parse("a1")][yellow] == 2  # its own and one carried
    assert used.board.meeples[geo.parse("c3")][yellow] == 1
    same_on_the_kernel(rules, state, used)
    at_pick = holding_caravan(rules, "pick")
    offered = [str(a) for a in rules.legal_actions(at_pick) if a.kind == "caravan"]
    # after a yellow carried to a1, no pick is legal; after one carried to a2, some is
    assert "caravan c3 a2" in offered and "caravan c3 a1" not in offered
    for to, picks in (("a1", False), ("a2", True)):
        carried = play(rules, holding_caravan(rules), f"caravan c3 {to}")
        carried = attrs.evolve(carried, decision=at_pick.decision)
        assert bool(rules.stages["pick"].legal(rules, carried)) == picks, to
    same_on_the_kernel(rules, at_pick)
    at_drop = play(rules, at_pick, "pick a1")
    assert not [a for a in rules.legal_actions(at_drop) if a.kind == "caravan"]
    same_on_the_kernel(rules, at_drop)
    camel_only = rules_of(CARAVAN.replace(', { move = "yellow" }', ""))
    at_pick = holding_caravan(camel_only, "pick")
    assert "caravan c3 a1" in [str(a) for a in camel_only.legal_actions(at_pick)]
    same_on_the_kernel(camel_only, at_pick, play(camel_only, at_pick, "caravan c3 a1"))


def test_a_piece_is_moved_by_a_used_power_naming_two_tiles_only(tmp_path: Path) -> None:
    for body, wanted in (
        (
            CARAVAN.replace('target_to = "target.owner == -1"\n', ""),
            "a piece is moved (move) by a used power with a target_to only",
        ),
        (
            CARAVAN.replace('{ move = "camel" }, { move = "yellow" }', "{ coins = 1 }"),
            "target_to is where a piece is moved: its effects move one",
        ),
        (
            CARAVAN.replace('target = "target.owner == me"\n', ""),
            "target_to is the second tile of a used power with a tile target",
        ),
        (
            '[[trigger]]\nid = "t"\non = "kill"\neffects = [{ move = "camel" }]\n',
            "trigger 't': a token, a camel or meeples are placed, removed or moved",
        ),
        (
            CARAVAN.replace('move = "yellow"', 'move = "vizier"'),
            "no token 'vizier' in these rules",
        ),
    ):
        assert wanted in refusal(tmp_path, body)
    rule = tmp_path / "tent.toml"
    rule.write_text(HEADER + CARAVAN.replace('move = "yellow"', 'move = "tent"'), "utf-8")
    with pytest.raises(ContentError, match="a tent stands for a camel: it is not moved alone"):
        build_rules(["artisans"], house_rules=[rule])


def test_pieces_moved_play_the_same_on_both_engines_in_whole_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Four free caravans, one dealt to each player at setup: the random games move
    camels and viziers, compared state by state."""
    from naqala.plugins.base import effects

    moved = []
    move = effects._move
    monkeypatch.setattr(
        effects, "_move", lambda r, s, p, t, to: moved.append(p) or move(r, s, p, t, to)
    )
    rules = rules_of(dealt("caravan", CARAVAN[CARAVAN.index("[[power]]") :]))
    assert_same_games(rules, ((2, 1), (3, 2), (4, 3)))
    assert {"camel", "yellow"} <= set(moved)


#: a new djinn that draws 2 djinns to keep one, while the djinn pile holds any
ORACLE = (
    '[[djinn]]\nid = "oracle"\nname = "Oracle"\nvp = 3\nkind = "oracle"\ncost = ""\n'
    "params = { draw = 2 }\n\n"
    '[[power]]\ndeck = "djinns"\nkind = "oracle"\non = "use"\nif = "djinns() > 0"\n'
    'effects = [{ coins = 1 }, { draw_djinns = "param.draw" }]\n'
)


def test_djinns_drawn_to_keep_one_ask_which_then_resume_the_decision() -> None:
    rules = rules_of(ORACLE)
    state = board(rules, rules.new_game(2, 1), {"a1": "Y", "b1": "Y"}, clear=True)
    state = player(rules, turn_of(rules, state, 0), 0, djinns=["oracle"])
    state = out_of_the_pile(rules, state, "djinns", "oracle")
    pile = rules.deck_in(state, "djinns")
    top = pile.draw[:2]  # the top of the pile
    asked = play(rules, state, "oracle")
    assert asked.decision.stage == "keep-djinn"
    assert sorted(asked.turn.revealed) == sorted(top)
    assert asked.players[0].coins == state.players[0].coins + 1
    kept = asked.turn.revealed[0]
    after = play(rules, asked, f"keep {kept}")
    assert after.decision.stage == "pick"  # the decision the power interrupted
    assert kept in after.players[0].djinns
    other = next(card for card in asked.turn.revealed if card != kept)
    assert other in rules.deck_in(after, "djinns").discard
    same_on_the_kernel(rules, state, asked, after)
    empty = out_of_the_pile(rules, state, "djinns", *pile.draw, *pile.discard)
    assert "oracle" not in {a.kind for a in rules.legal_actions(empty)}  # djinns() is 0


def test_djinns_drawn_to_keep_one_stand_last_in_a_used_power_only(tmp_path: Path) -> None:
    for body, wanted in (
        (
            '[[trigger]]\nid = "t"\non = "kill"\neffects = [{ draw_djinns = 2 }]\n',
            "trigger 't': effects[0]: djinns are drawn to keep one by a used power",
        ),
        (
            ORACLE.replace(
                '[{ coins = 1 }, { draw_djinns = "param.draw" }]',
                '[{ draw_djinns = "param.draw" }, { coins = 1 }]',
            ),
            "effects[0]: drawing djinns to keep one comes last in its effects",
        ),
    ):
        assert wanted in refusal(tmp_path, body)


#: a new djinn that takes one of the face-up djinns, free, while any is face up
GENIE = (
    '[[djinn]]\nid = "genie"\nname = "Genie"\nvp = 2\nkind = "genie"\ncost = "E/F"\n\n'
    '[[power]]\ndeck = "djinns"\nkind = "genie"\non = "use"\n'
    "effects = [{ coins = 2 }, { take_djinn = 1 }]\n"
)


def test_a_face_up_djinn_taken_free_asks_which_then_resumes_the_decision() -> None:
    rules = rules_of(GENIE)
    state = board(rules, rules.new_game(2, 1), {"a1": "Y", "b1": "YW"}, clear=True)
    state = player(rules, turn_of(rules, state, 0), 0, djinns=["genie"], meeples="W")
    state = out_of_the_pile(rules, state, "djinns", "genie")
    row = rules.deck_in(state, "djinns").row
    assert row
    asked = play(rules, state, "genie E")
    assert asked.decision.stage == "take-djinn"
    assert sorted(str(a) for a in rules.legal_actions(asked)) == sorted(f"keep {d}" for d in row)
    assert asked.players[0].coins == state.players[0].coins + 2
    taken = row[-1]
    after = play(rules, asked, f"keep {taken}")
    assert after.decision.stage == "pick"  # the decision the power interrupted
    assert taken in after.players[0].djinns
    assert rules.deck_in(after, "djinns").row == row[:-1]  # the others stay face up
    assert rules.deck_in(after, "djinns").discard == rules.deck_in(state, "djinns").discard
    same_on_the_kernel(rules, state, asked, after)
    djinns = rules.deck_in(state, "djinns")
    bare = attrs.evolve(djinns, row=(), discard=djinns.discard + djinns.row)  # all put away
    index = rules.deck_index["djinns"]
    none_up = attrs.evolve(state, decks=(*state.decks[:index], bare, *state.decks[index + 1 :]))
    used = play(rules, none_up, "genie E")
    assert used.decision.stage == "pick"  # no djinn face up: nothing to take, nothing asked
    same_on_the_kernel(rules, none_up, used)


def test_face_up_djinns_taken_play_the_same_on_both_engines_in_whole_games() -> None:
    """Four free genies, one dealt to each player at setup: the random games use them
    often, and each take is compared state by state."""
    power = (
        '[[power]]\ndeck = "djinns"\nkind = "genie"\non = "use"\neffects = [{ take_djinn = 1 }]\n'
    )
    for report in assert_same_games(rules_of(dealt("genie", power)), ((2, 1), (3, 2), (4, 3))):
        assert report.decisions["take-djinn"] > 0


def test_a_face_up_djinn_is_taken_last_in_a_used_power_only(tmp_path: Path) -> None:
    for body, wanted in (
        (
            '[[trigger]]\nid = "t"\non = "kill"\neffects = [{ take_djinn = 1 }]\n',
            "trigger 't': effects[0]: a face-up djinn is taken by a used power",
        ),
        (
            GENIE.replace(
                "[{ coins = 2 }, { take_djinn = 1 }]", "[{ take_djinn = 1 }, { coins = 2 }]"
            ),
            "effects[0]: taking a face-up djinn comes last in its effects",
        ),
    ):
        assert wanted in refusal(tmp_path, body)


#: a new djinn written as Echidna is: used for nothing by itself, its card then reacts to
#: its owner's builders being paid this turn (two entries of one kind, one per moment)
MIRAGE = (
    '[[djinn]]\nid = "mirage"\nname = "Mirage"\nvp = 3\nkind = "mirage"\ncost = ""\n'
    "params = { bonus = 5 }\n\n"
    '[[power]]\ndeck = "djinns"\nkind = "mirage"\non = "use"\nstages = ["pick"]\n'
    "effects = []\n\n"
    '[[power]]\ndeck = "djinns"\nkind = "mirage"\non = "builders-paid"\n'
    'if = "actor == me and turn.used"\neffects = [{ coins = "param.bonus + event.count" }]\n'
)


def holding_mirage(rules: Rules) -> State:
    state = board(rules, rules.new_game(2, 1), {"b3": "B", "c3": "B"}, clear=True)
    state = board(rules, state, {}, tiles={"c3": "oasis-1", "c2": "village-2"})
    state = player(rules, turn_of(rules, state, 0), 0, djinns=["mirage"])
    return out_of_the_pile(rules, state, "djinns", "mirage")


def test_a_used_power_whose_card_reacts_later_pays_only_once_used() -> None:
    rules = rules_of(MIRAGE)
    state = holding_mirage(rules)
    used = play(rules, state, "mirage")
    assert used.players[0].coins == state.players[0].coins  # the use itself does nothing
    paid = play(rules, used, "pick b3", "drop c3 B")
    plain = play(rules, state, "pick b3", "drop c3 B")
    earned = plain.players[0].coins - state.players[0].coins  # the builders' pay
    assert earned > 0
    assert paid.players[0].coins == plain.players[0].coins + 5 + earned
    assert get_extra(paid.extras, "effects.mirage") == 1  # its use counted, not the reaction
    same_on_the_kernel(rules, state, used, play(rules, used, "pick b3"), paid)


def test_a_card_kinds_powers_are_one_per_moment_and_in_one_file(tmp_path: Path) -> None:
    twice = MIRAGE + (
        '\n[[power]]\ndeck = "djinns"\nkind = "mirage"\non = "builders-paid"\n'
        "effects = [{ coins = 1 }]\n"
    )
    rule = tmp_path / "twice.toml"
    rule.write_text(HEADER + twice, encoding="utf-8")
    with pytest.raises(ContentError, match="power 'djinns:mirage on builders-paid' is already"):
        build_rules(house_rules=[rule])
    lonely = MIRAGE[: MIRAGE.index('\n\n[[power]]\ndeck = "djinns"\nkind = "mirage"\non = "b')]
    rule.write_text(HEADER + lonely + "\n", encoding="utf-8")
    with pytest.raises(ContentError, match="a used power does something"):
        build_rules(house_rules=[rule])
    baal = '[[power]]\ndeck = "djinns"\nkind = "baal"\non = "kill"\neffects = [{ coins = 1 }]\n'
    rule.write_text(HEADER + baal, encoding="utf-8")
    with pytest.raises(ContentError, match=r"power 'djinns:baal' is already defined in .*base"):
        build_rules(house_rules=[rule])


def test_the_meeple_killed_is_kept_at_a_kill_only_and_values_are_checked(
    tmp_path: Path,
) -> None:
    for body, wanted in (
        (
            '[[trigger]]\nid = "t"\non = "sell"\neffects = [{ keep_killed = 1 }]\n',
            "trigger 't': effects[0]: the meeple killed is kept at a kill only",
        ),
        (
            '[[trigger]]\nid = "t"\non = "kill"\neffects = [{ coins = \'around("green")\' }]\n',
            "no value 'green' in these rules",
        ),
        (
            '[[trigger]]\nid = "t"\non = "kill"\nif = \'killed("pink")\'\n'
            "effects = [{ coins = 1 }]\n",
            "no colour 'pink' in these rules",
        ),
    ):
        assert wanted in refusal(tmp_path, body)


def test_a_house_rule_keeps_every_vizier_its_assassins_kill_on_both_engines() -> None:
    """A trigger at each kill: a vizier killed goes in front of the killer, not into the
    bag; an elder killed the same way stays in the bag (the trigger names viziers)."""
    rules = rules_of(
        '[[trigger]]\nid = "t"\non = "kill"\nif = \'killed("yellow")\'\n'
        "effects = [{ keep_killed = 1 }]\n"
    )
    state = board(rules, rules.new_game(2, 1), {"a1": "R", "b1": "R", "c1": "YW"}, clear=True)
    state = turn_of(rules, state, 0)
    killing = play(rules, state, "pick a1", "drop b1 R")
    assert killing.decision.stage == "kill"
    after = play(rules, killing, "kill c1 Y")
    vizier = rules.colour_index["yellow"]
    assert after.players[0].meeples[vizier] == killing.players[0].meeples[vizier] + 1
    assert after.bag[vizier] == killing.bag[vizier]
    same_on_the_kernel(rules, state, killing, after)


# -- a card named by the action, and taken --------------------------------------------


def holding_scavenger(rules: Rules, discards: list[str]) -> State:
    """Player 0 about to pick, holding the Scavenger and a Fakir, ``discards`` on the
    resource discard pile."""
    state = board(rules, rules.new_game(2, 1), {"a1": "Y", "b1": "Y"}, clear=True)
    state = player(rules, turn_of(rules, state, 0), 0, djinns=["scavenger"], cards=[FAKIR])
    state = out_of_the_pile(rules, state, "djinns", "scavenger")
    state = out_of_the_pile(rules, state, "resources", FAKIR, *discards)
    index = rules.deck_index["resources"]
    deck = attrs.evolve(state.decks[index], discard=tuple(discards))
    return attrs.evolve(state, decks=(*state.decks[:index], deck, *state.decks[index + 1 :]))


def test_the_scavenger_takes_a_card_of_the_discards_named_by_its_action() -> None:
    """Each distinct card of the pile is one option (``scavenger gold F``); the card taken
    leaves the pile for the hand, which stays sorted, and the Fakir is paid."""
    rules = build_rules(house_rules=[COOKBOOK / "scavenger.toml"])
    state = holding_scavenger(rules, ["silk", "gold", "gold", FAKIR])
    offered = [str(a) for a in rules.legal_actions(state) if a.kind == "scavenger"]
    assert offered == ["scavenger fakir F", "scavenger gold F", "scavenger silk F"]
    after = play(rules, state, "scavenger gold F")
    resources = rules.deck_index["resources"]
    assert after.players[0].cards == ("gold",)
    assert after.decks[resources].discard == ("silk", "gold", FAKIR, FAKIR)
    nothing = holding_scavenger(rules, [])
    assert not [a for a in rules.legal_actions(nothing) if a.kind == "scavenger"]
    same_on_the_kernel(rules, state, after)
    same_on_the_kernel(rules, nothing)


def cards_taken(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str, str]]:
    """Each card ``take_card`` takes from now on (deck, pile, id), as the Python engine
    takes it."""
    from naqala.plugins.base import effects

    taken: list[tuple[str, str, str]] = []
    take = effects._take_card
    monkeypatch.setattr(
        effects, "_take_card", lambda r, s, me, where: taken.append(where) or take(r, s, me, where)
    )
    return taken


def test_djinns_taken_back_from_the_discards_play_the_same_on_both_engines(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Four free ravens, one dealt to each player, each taking back a discarded djinn
    (``djinn-taken`` fires, as at a sacred place): the random games take cards, compared
    state by state."""
    taken = cards_taken(monkeypatch)
    power = (
        '[[power]]\ndeck = "djinns"\nkind = "raven"\non = "use"\n'
        'target_card = "djinns.discard"\neffects = [{ take_card = 1 }, { coins = -1 }]\n'
    )
    assert_same_games(rules_of(dealt("raven", power)), ((2, 1), (3, 2), (4, 3), (2, 4)))
    assert taken


@pytest.mark.parametrize(("box", "deck"), [("djinns", "whims"), ("artisans", "items")])
def test_cards_taken_back_from_a_boxs_discards_play_the_same_on_both_engines(
    box: str, deck: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A box's own cards (the whims fulfilled, the items used) taken back from its discard
    pile into a hand: the random games take them, compared state by state."""
    taken = cards_taken(monkeypatch)
    power = (
        '[[power]]\ndeck = "djinns"\nkind = "raven"\non = "use"\n'
        f'target_card = "{deck}.discard"\neffects = [{{ take_card = 1 }}]\n'
    )
    ravens = dealt("raven", power, copies=5)  # the Whims box seats 5
    rules = build_rules([box], house_rules=[as_house_rule(HEADER + ravens)])
    assert_same_games(rules, ((2, 1), (3, 2), (4, 3)))
    assert taken


def test_a_card_target_is_a_used_powers_in_a_pile_it_can_name(tmp_path: Path) -> None:
    scavenger = (COOKBOOK / "scavenger.toml").read_text(encoding="utf-8")
    body = scavenger[scavenger.index("[[djinn]]") :]
    for changed, wanted in (
        (
            ('"resources.discard"', '"whims.row"'),
            "a card target lies in <deck>.discard, resources.row or djinns.row",
        ),
        (('"resources.discard"', '"relics.discard"'), "target_card: no deck 'relics'"),
        (
            ('on = "use"', 'on = "tile-taken"'),
            'a card is targeted by a used power only (on = "use")',
        ),
        (
            ('target_card = "resources.discard"', 'target_kind = "oasis"'),
            "a card is taken (take_card) by a used power with a target_card only",
        ),
        (
            ("target_card =", 'target_kind = "oasis"\ntarget_card ='),
            "a used power targets a tile or a card, not both",
        ),
    ):
        assert wanted in refusal(tmp_path, body.replace(*changed)), changed
    trigger = '[[trigger]]\nid = "t"\non = "kill"\neffects = [{ take_card = 1 }]\n'
    assert "trigger 't': a card is taken (take_card) by a used power" in refusal(tmp_path, trigger)


# -- meeples the action names on the target tile ---------------------------------------


def holding_haboob(rules: Rules, stage: str = "sell") -> State:
    """Player 0 holds the Haboob and a Fakir; c3 is an oasis holding a vizier, a merchant
    and two builders, a1 and b1 a vizier each."""
    state = board(rules, rules.new_game(2, 1), {"a1": "Y", "b1": "Y", "c3": "YGBB"}, clear=True)
    state = board(rules, state, {}, tiles={"c3": "oasis-1"})
    state = player(rules, turn_of(rules, state, 0, stage), 0, djinns=["haboob"], cards=[FAKIR])
    state = out_of_the_pile(rules, state, "djinns", "haboob")
    return out_of_the_pile(rules, state, "resources", FAKIR)


def test_the_haboob_sends_the_meeples_its_action_names_to_the_bag() -> None:
    """The cookbook's Haboob: on an oasis, each distinct pair of its meeples (colours in
    order) is an action; the pair named goes back to the bag, for a Fakir."""
    rules = build_rules(house_rules=[COOKBOOK / "haboob.toml"])
    state = holding_haboob(rules)
    geo = state.geometry
    oases = {
        geo.name(t) for t in range(geo.size) if rules.tile(state.layout.tiles[t]).kind == "oasis"
    }
    offered = [str(a) for a in rules.legal_actions(state) if a.kind == "haboob"]
    assert {a.split()[1] for a in offered} <= oases
    on_c3 = [a for a in offered if a.split()[1] == "c3"]
    assert sorted(on_c3) == sorted(f"haboob c3 {pair} F" for pair in ("YG", "YB", "GB", "BB"))
    used = play(rules, state, "haboob c3 BB F")
    c3, blue = geo.parse("c3"), rules.colour_index["blue"]
    assert used.board.meeples[c3][blue] == 0
    assert used.bag[blue] == state.bag[blue] + 2
    assert FAKIR not in used.players[0].cards
    same_on_the_kernel(rules, state, used)


def test_fewer_meeples_than_named_are_named_all_together() -> None:
    """On a tile with fewer meeples than the power names, the one group is all of them."""
    rules = rules_of(
        '[[djinn]]\nid = "gust"\nname = "Gust"\nvp = 2\nkind = "gust"\ncost = ""\n\n'
        '[[power]]\ndeck = "djinns"\nkind = "gust"\non = "use"\ntarget_meeples = 3\n'
        'effects = [{ remove = "meeples" }, { place = "camel", if = "target.meeples == 0" }]\n'
    )
    state = board(rules, rules.new_game(2, 1), {"a1": "Y", "b1": "YG", "c3": "W"}, clear=True)
    state = player(rules, turn_of(rules, state, 0, "sell"), 0, djinns=["gust"])
    state = out_of_the_pile(rules, state, "djinns", "gust")
    offered = [str(a) for a in rules.legal_actions(state) if a.kind == "gust"]
    assert {a for a in offered if a.split()[1] in ("a1", "b1", "c3")} == {
        "gust a1 Y",
        "gust b1 YG",
        "gust c3 W",
    }
    emptied = play(rules, state, "gust c3 W")
    assert emptied.board.owners[state.geometry.parse("c3")] == 0  # taken with a camel
    same_on_the_kernel(rules, state, emptied)


def test_meeples_named_play_the_same_on_both_engines_in_whole_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Four free gusts naming 1 or 2 meeples, one dealt to each player at setup: random
    games send meeples to the bag, compared state by state."""
    from naqala.plugins.base import effects

    removed = []
    remove = effects._remove_group
    monkeypatch.setattr(
        effects, "_remove_group", lambda s, t, g: removed.append(len(g)) or remove(s, t, g)
    )
    power = (
        '[[power]]\ndeck = "djinns"\nkind = "gust"\non = "use"\n'
        'target = "target.owner != me"\ntarget_meeples = 2\n'
        'effects = [{ remove = "meeples" }, { place = "camel", if = "target.meeples == 0" }]\n'
    )
    assert_same_games(rules_of(dealt("gust", power)), ((2, 1), (3, 2), (4, 3)))
    assert {1, 2} <= set(removed)


def test_meeples_are_named_by_a_used_power_on_its_tile_alone(tmp_path: Path) -> None:
    """``target_meeples`` comes with ``remove = "meeples"`` and the other way round, on
    a used power's tile target alone, naming 1 to 4 meeples for every card."""
    haboob = (COOKBOOK / "haboob.toml").read_text("utf-8").split("[[djinn]]", 1)[1]
    haboob = "[[djinn]]" + haboob
    for body, wanted in (
        (
            haboob.replace('target_meeples = "param.meeples"\n', ""),
            'remove = "meeples" takes the meeples target_meeples names',
        ),
        (
            haboob.replace('{ remove = "meeples" }', "{ coins = 1 }"),
            'target_meeples names meeples for remove = "meeples" to take',
        ),
        (
            haboob.replace("params = { meeples = 2 }", "params = { meeples = 5 }"),
            "card 'haboob' names 5 meeples",
        ),
        (
            haboob.replace("params = { meeples = 2 }", ""),
            "card 'haboob' names 0 meeples",
        ),
        (
            haboob.replace('target_kind = "oasis"\n', 'target_kind = "oasis"\ntarget_to = "1"\n'),
            "target_meeples names meeples on the target tile, not beside",
        ),
        (
            haboob.replace('"param.meeples"', '"coins"'),
            "'coins': a whole number or 'param.<name>'",
        ),
        (haboob.replace('"param.meeples"', "9"), "9: 1 to 4 meeples"),
    ):
        assert wanted in refusal(tmp_path, body), body
