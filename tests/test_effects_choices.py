"""A choice as an effect (``choose = [{ words, effects }, …]``): a decision of its own
with ``choose <n>`` options, their words as notes, on both engines, saved mid-choice like
any decision; refused in one line where it cannot be offered."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from native_kit import same_on_the_kernel

from naqala.core.content import ContentError, parse_content_file
from naqala.core.engine import Rules, build_rules
from naqala.core.serialize import state_from_json, state_to_json
from naqala.core.state import State
from naqala.testing.scenario import board, play, player, turn_of

COOKBOOK = Path(__file__).resolve().parent.parent / "docs" / "examples" / "effects"


def cookbook(name: str) -> Rules:
    return build_rules(house_rules=[COOKBOOK / f"{name}.toml"])


def at_crossroads(rules: Rules) -> State:
    """Player 0 has moved a vizier onto a crossroads: its choice waits."""
    state = board(rules, rules.new_game(2, 1), {"a1": "Y", "b1": "Y"}, clear=True)
    state = board(rules, state, {}, tiles={"b1": "crossroads-1"})
    return play(rules, turn_of(rules, state, 0), "pick a1", "drop b1 Y")


def test_a_whole_tile_action_ending_with_a_choice_asks_then_the_turn_goes_on() -> None:
    rules = cookbook("crossroads")
    state = at_crossroads(rules)
    assert state.decision.stage == "choose:tile:crossroads"
    options = rules.legal_actions(state)
    assert [str(a) for a in options] == ["choose 1", "choose 2"]
    stage = rules.stages[state.decision.stage]
    assert stage.title(rules, state) == "Crossroads: choose one"
    notes = [stage.option_note(rules, state, a) for a in options]
    assert notes == ["Take 3 coins", "Draw 2 cards for 1 coin"]
    coins = play(rules, state, "choose 1")
    cards = play(rules, state, "choose 2")
    assert coins.decision.stage == cards.decision.stage == "sell"
    assert coins.players[0].coins == state.players[0].coins + 3
    assert cards.players[0].coins == state.players[0].coins - 1
    assert len(cards.players[0].cards) == len(state.players[0].cards) + 2
    same_on_the_kernel(rules, state, coins, cards)


def test_a_game_saved_while_a_choice_waits_loads_and_plays_on() -> None:
    rules = cookbook("crossroads")
    state = at_crossroads(rules)
    _, loaded = state_from_json(state_to_json(rules, state), rules)
    assert loaded == state
    assert play(rules, loaded, "choose 1") == play(rules, state, "choose 1")
    native = pytest.importorskip("naqala.native.bridge").NativeRules(rules)
    waiting = native.to_native(state)
    assert waiting.legal_actions() == ["choose 1", "choose 2"]
    assert native.to_python(waiting.apply("choose 2")) == play(rules, state, "choose 2")


def out_of_the_decks(rules: Rules, state: State, **cards: str) -> State:
    """The decks less the cards handed to player 0 (``deck=card``), wherever they lie,
    so every card is in the game once."""
    for deck_id, card in cards.items():
        index = rules.deck_index[deck_id]
        deck = state.decks[index]
        parts = {"draw": list(deck.draw), "row": list(deck.row), "discard": list(deck.discard)}
        where = next(name for name, part in parts.items() if card in part)
        parts[where].remove(card)
        deck = attrs.evolve(deck, **{where: tuple(parts[where])})
        state = attrs.evolve(state, decks=(*state.decks[:index], deck, *state.decks[index + 1 :]))
    return state


def test_a_used_power_ending_with_a_choice_resumes_the_decision_it_interrupted() -> None:
    rules = cookbook("ghul")
    state = board(rules, rules.new_game(2, 1), {"a1": "Y", "b1": "Y"}, clear=True)
    state = player(rules, turn_of(rules, state, 0), 0, djinns=["ghul"], cards=["fakir"])
    state = out_of_the_decks(rules, state, resources="fakir", djinns="ghul")
    assert state.decision.stage == "pick"
    asked = play(rules, state, "ghul F")
    assert asked.decision.stage == "choose:card:ghul"
    assert rules.stages[asked.decision.stage].title(rules, asked) == "Ghul: choose one"
    assert [str(a) for a in rules.legal_actions(asked)] == ["choose 1", "choose 2"]
    rich = play(rules, asked, "choose 1")
    assert rich.decision.stage == "pick" and rich.turn is not None and not rich.turn.resume
    assert rich.players[0].coins == state.players[0].coins + 4
    assert "ghul F" not in [str(a) for a in rules.legal_actions(rich)]  # once a turn
    drawn = play(rules, asked, "choose 2")
    assert len(drawn.players[0].cards) == len(state.players[0].cards) - 1 + 2
    same_on_the_kernel(rules, state, asked, rich, drawn)


def test_a_choice_is_in_the_codec_only_where_rules_offer_one() -> None:
    from naqala.core.actions import parse_action
    from naqala.envs.codec import codec_for

    assert "choose" not in {kind for kind, _, _ in codec_for(cookbook("wells")).describe()}
    rules = cookbook("crossroads")
    codec = codec_for(rules)
    state = at_crossroads(rules)
    ids = codec.legal(rules, state)
    assert [str(codec.decode(i)) for i in ids] == ["choose 1", "choose 2"]
    assert codec.encode(parse_action("choose 2")) == ids[1]


def refused(text: str) -> list[str]:
    parsed, problems = parse_content_file(Path("rule.toml"), text)
    assert parsed is None
    return problems


def test_a_choice_offers_two_to_nine_options_each_with_words() -> None:
    one = '{ choose = [{ words = "a", effects = [{ coins = 1 }] }] }'
    problems = refused(f'[[trigger]]\nid = "t"\non = "kill"\neffects = [{one}]\n')
    assert problems == [
        "rule.toml: $.trigger[0].effects[0].choose: a choice offers 2 to 9 options, not 1"
    ]
    mute = '{ choose = [{ words = " ", effects = [] }, { words = "b", effects = [] }] }'
    problems = refused(f'[[trigger]]\nid = "t"\non = "kill"\neffects = [{mute}]\n')
    assert problems == [
        "rule.toml: $.trigger[0].effects[0].choose[0].words: an option says in words what it does"
    ]


def test_a_choice_where_no_decision_can_wait_is_refused_naming_its_path(tmp_path: Path) -> None:
    pick = (
        '{ choose = [{ words = "a", effects = [{ coins = 1 }] }, { words = "b", effects = [] }] }'
    )
    inner = (
        '{ choose = [{ words = "a", effects = [' + pick + '] }, { words = "b", effects = [] }] }'
    )
    rule = tmp_path / "bad.toml"
    rule.write_text(
        '[house-rule]\nname = "bad"\nversion = "1.0"\ndescription = "bad"\n\n'
        f'[[trigger]]\nid = "t1"\non = "tile-taken"\neffects = [{pick}]\n\n'
        f'[[tile_action]]\nid = "t2"\ntile = "oasis"\nat = "before"\neffects = [{pick}]\n\n'
        f'[[tile_action]]\nid = "t3"\ntile = "village"\nat = "instead"\n'
        f"effects = [{pick}, {{ coins = 1 }}]\n\n"
        f'[[tile_action]]\nid = "t4"\ntile = "small-market"\nat = "instead"\neffects = [{inner}]\n',
        encoding="utf-8",
    )
    with pytest.raises(ContentError) as error:
        build_rules(house_rules=[rule])
    text = str(error.value)
    assert (
        "trigger 't1': effects[0]: a choice is offered by a whole tile action "
        '(at = "instead") or a used power without a target (on = "use") only'
    ) in text
    assert "tile_action 't2': effects[0]: a choice is offered by a whole tile action" in text
    assert "tile_action 't3': effects[0]: a choice comes last in its effects" in text
    assert "tile_action 't4': effects[0].choose[0].effects[0]: an option offers no choice" in text
