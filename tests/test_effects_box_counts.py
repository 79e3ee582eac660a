"""Counts of what the boxes add, for the shipped djinns that score by them and for house
rules: ``holds("precious")`` (cards of a kind in a player's hands of the decks besides the
resources) and a plugin's own counter read by its name (``counter("whims.claimed")``),
which effects read and never set."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from effects_kit import HEADER, rule, value, with_player
from native_kit import assert_same_games

from naqala.core.content import ContentError
from naqala.core.effects import EffectSpec
from naqala.core.engine import Rules, build_rules
from naqala.core.events import Event
from naqala.core.hookspecs import hookimpl
from naqala.core.state import State, get_extra
from naqala.display.hints import tile_summary
from naqala.plugins.base import effects as interpreter

WHIMS = "whims"
CLAIMED = "whims.claimed"


def test_holds_counts_the_cards_of_a_kind_in_every_hand_but_the_resources() -> None:
    rules = build_rules()
    djinns = rules.deck_index["djinns"]
    state = rules.new_game(2, 1)
    holding = with_player(state, 0, hands=state.players[0].with_hand(djinns, ("jafaar",)).hands)
    assert value(rules, holding, 'holds("jafaar")') == 1
    assert value(rules, holding, 'holds("jafaar")', me=1) == 0
    assert value(rules, holding, 'holds("sloar")') == 0


def test_a_resource_kind_is_no_kind_holds_counts(tmp_path: Path) -> None:
    """The resources are counted by card (``cards("fakir")``): their kinds are refused."""
    with pytest.raises(ContentError, match="no kind 'fakir' in these rules"):
        rule(
            tmp_path,
            '[[trigger]]\nid = "t"\non = "kill"\neffects = [{ coins = \'holds("fakir")\' }]\n',
        )


def test_a_plugins_own_counter_is_read_by_its_name() -> None:
    """The Whims box keeps each player's fulfilled whims as ``whims.claimed``: an effect
    reads it for the player it runs for, as Qareen's score does."""
    rules = build_rules([WHIMS])
    state = rules.new_game(3, 1)
    claimed = with_player(state, 1, extras=((CLAIMED, 2),))
    assert value(rules, claimed, f'counter("{CLAIMED}")', me=1) == 2
    assert value(rules, claimed, f'counter("{CLAIMED}")', me=0) == 0


def test_a_plugins_counter_is_set_only_where_its_plugin_lets_effects(tmp_path: Path) -> None:
    """The Artisans keep ``piece.tent`` in step with the tents in the bank: effects read
    it and never set it. The Whims box lets effects keep ``whims.claimed`` (each whim's
    power counts itself), so a house rule may count a whim more."""
    setting = '[[trigger]]\nid = "t"\non = "kill"\neffects = [{ set = "piece.tent", to = 9 }]\n'
    with pytest.raises(ContentError, match="a plugin's own counter: read it, never set it"):
        rule(tmp_path, setting, ("artisans",))
    counting = rule(tmp_path, setting.replace("piece.tent", CLAIMED), (WHIMS,))
    state = counting.new_game(3, 1)
    set_two = [EffectSpec(set=CLAIMED, to=f'counter("{CLAIMED}") + 2')]
    counted = interpreter.run(counting, state, set_two, interpreter.Scope(1, 1))
    assert [get_extra(p.extras, CLAIMED) for p in counted.players] == [0, 2, 0]


def test_a_house_rule_counting_whims_plays_the_same_on_both_engines(tmp_path: Path) -> None:
    """Each camel placed counts as a whim fulfilled (Qareen scores them): the kernel sets
    the box's counter as Python does."""
    rules = rule(
        tmp_path,
        '[[trigger]]\nid = "t"\non = "tile-taken"\n'
        f'effects = [{{ set = "{CLAIMED}", to = \'counter("{CLAIMED}") + 1\' }}]\n',
        (WHIMS,),
    )
    reports = assert_same_games(rules, ((3, 4), (4, 9)))
    assert all(r.actions > 0 for r in reports)


def test_a_plugins_counter_is_unknown_without_its_plugin(tmp_path: Path) -> None:
    reading = (
        f'[[trigger]]\nid = "t"\non = "kill"\neffects = [{{ coins = \'counter("{CLAIMED}")\' }}]\n'
    )
    with pytest.raises(ContentError, match=f"no counter '{CLAIMED}' in these rules"):
        rule(tmp_path, reading)
    # a name a plugin declares as a prefix (the Thieves' ``thieves.victim.*``) is no one
    # counter to read
    with pytest.raises(ContentError, match=r"no counter 'thieves\.victim\.0' in these rules"):
        rule(tmp_path, reading.replace(CLAIMED, "thieves.victim.0"), ("thieves",))


def test_the_box_counts_play_the_same_on_both_engines(tmp_path: Path) -> None:
    """A house rule over the Whims box paying each turn for the whims fulfilled and the
    djinns of a kind held: the kernel plays it natively, state for state."""
    rules = rule(
        tmp_path,
        '[[trigger]]\nid = "patron"\non = "turn-end"\n'
        f'effects = [{{ coins = \'counter("{CLAIMED}") + 2 * holds("qareen")\' }}]\n',
        (WHIMS,),
    )
    assert_same_games(rules, ((2, 3), (4, 8), (5, 13)))


def test_fire_fires_a_plugins_event_and_never_the_rules_own(tmp_path: Path) -> None:
    """``fire`` fires an event a plugin in play declares (``naqala_events``), for the
    effect's player, about the card whose power it is: the box's own hooks hear it. The
    base game's events are fired by the rules alone, and an event no plugin fires is a
    misspelling."""
    firing = '[[trigger]]\nid = "t"\non = "kill"\neffects = [{ fire = "EVENT", count = 3 }]\n'
    with pytest.raises(ContentError, match="'tile-taken' is the rules' own event"):
        rule(tmp_path, firing.replace("EVENT", "tile-taken"), (WHIMS,))
    with pytest.raises(ContentError, match="no plugin in these rules fires an event 'whim-"):
        rule(tmp_path, firing.replace("EVENT", "whim-claimed"))
    path = tmp_path / "rule.toml"
    path.write_text(HEADER + firing.replace("EVENT", "whim-claimed"), encoding="utf-8")
    recorder = Recorder()
    rules = build_rules((WHIMS,), house_rules=[path], extra_plugins=[recorder])
    state = rules.new_game(3, 1)
    scope = interpreter.Scope(2, 2, card="qareen")
    fired = interpreter.run(rules, state, [EffectSpec(fire="whim-claimed", count="2 + 1")], scope)
    assert fired == state  # no rule of the box hears its own claim
    assert recorder.heard == [("whim-claimed", 2, "qareen", 3)]


class Recorder:
    """A plugin writing down every event fired (name, player, what, count)."""

    NAME = "recorder"

    def __init__(self) -> None:
        self.heard: list[tuple[str, int, str, int]] = []

    @hookimpl
    def naqala_event(self, rules: Rules, state: State, event: Event) -> State | None:
        self.heard.append((event.name, event.player, event.what, event.count))
        return None


def test_a_count_goes_with_fire_alone() -> None:
    with pytest.raises(ValueError, match="a count is the count of the event an effect fires"):
        EffectSpec(coins=1, count=2)


#: a djinn of a house rule, dealt to every player: for a Fakir, the whim lying on a city
#: its owner holds
WHIM_FETCHER = """\
[[djinn]]
id = "courier"
name = "Courier"
vp = 2
kind = "courier"
cost = "F"
text = "Take the Sultan's Whim lying on one of your cities."

[[djinn]]
id = "courier-2"
name = "Courier 2"
vp = 2
kind = "courier"
cost = "F"
text = "Take the Sultan's Whim lying on one of your cities."

[[djinn]]
id = "courier-3"
name = "Courier 3"
vp = 2
kind = "courier"
cost = "F"
text = "Take the Sultan's Whim lying on one of your cities."

[[djinn]]
id = "courier-4"
name = "Courier 4"
vp = 2
kind = "courier"
cost = "F"
text = "Take the Sultan's Whim lying on one of your cities."

[[djinn]]
id = "courier-5"
name = "Courier 5"
vp = 2
kind = "courier"
cost = "F"
text = "Take the Sultan's Whim lying on one of your cities."

[[power]]
deck = "djinns"
kind = "courier"
on = "use"
target_kind = "city"
target = 'target.owner == me and lying("whims") > 0'
effects = [{ take_lying = "whims" }, { coins = 1 }]

[settings]
start.cards = [{ deck = "djinns", kind = "courier", count = 1 }]
"""


def test_take_lying_takes_the_whim_on_the_target_city_and_fires_whim_taken(
    tmp_path: Path,
) -> None:
    """A used power aimed at a city takes the whim lying there into its owner's hand;
    the whims deck's ``taken_event`` fires, as the city's own action fires it."""
    path = tmp_path / "rule.toml"
    path.write_text(HEADER + WHIM_FETCHER, encoding="utf-8")
    recorder = Recorder()
    rules = build_rules((WHIMS,), house_rules=[path], extra_plugins=[recorder])
    state = rules.new_game(3, 1)
    whims = rules.deck_index[WHIMS]
    geo = state.geometry
    cities = [t for t, tile in enumerate(state.layout.tiles) if rules.tile(tile).kind == "city"]
    city, whim = cities[1], state.decks[whims].row[1]
    owners = list(state.board.owners)
    owners[city] = 0
    mine = attrs.evolve(state, board=attrs.evolve(state.board, owners=tuple(owners)))
    scope = interpreter.Scope(0, 0, card="courier", target=city)
    assert value(rules, mine, 'lying("whims")') == 0  # no target: nothing lies there
    took = interpreter.run(rules, mine, [EffectSpec(take_lying=WHIMS)], scope)
    assert took.players[0].hand(whims) == (whim,)
    assert took.decks[whims].row[1] == ""
    assert recorder.heard[-1] == ("whim-taken", 0, whim, 1)
    again = interpreter.run(rules, took, [EffectSpec(take_lying=WHIMS)], scope)
    assert again == took  # none lies there now: nothing
    assert geo.name(city)  # the city is a tile of the board


def test_a_house_rule_taking_whims_plays_the_same_on_both_engines(tmp_path: Path) -> None:
    rules = rule(tmp_path, WHIM_FETCHER, (WHIMS,))
    reports = assert_same_games(rules, ((3, 2), (4, 5), (5, 7)))
    assert sum(r.actions for r in reports) > 0


def test_take_lying_and_lying_name_a_row_on_tiles_from_a_tile(tmp_path: Path) -> None:
    """Only a used power with a tile target, or a tile action, takes what lies on a
    tile; the deck named lies on tiles; a row lies on a tile kind the rules have."""
    trigger = '[[trigger]]\nid = "t"\non = "kill"\neffects = [{ take_lying = "whims" }]\n'
    with pytest.raises(ContentError, match=r"taken \(take_lying\) by a used power with a tile"):
        rule(tmp_path, trigger, (WHIMS,))
    action = '[[tile_action]]\nid = "a"\ntile = "oasis"\nat = "after"\n'
    with pytest.raises(ContentError, match="take_lying names a deck whose row lies on tiles"):
        rule(tmp_path, action + 'effects = [{ take_lying = "djinns" }]\n', (WHIMS,))
    with pytest.raises(ContentError, match="no row on tiles 'djinns' in these rules"):
        rule(tmp_path, action + "effects = [{ coins = 'lying(\"djinns\")' }]\n", (WHIMS,))
    whole = action.replace('"after"', '"instead"')
    words = 'text = "City: {tiles()} of them"\neffects = [{ coins = 1 }]\n'
    with pytest.raises(ContentError, match="a card's words read its numbers only, not the game"):
        rule(tmp_path, whole + words)
    town = rule(tmp_path, whole.replace('"oasis"', '"village"') + words.replace("tiles()", "2 + 3"))
    assert tile_summary(town, "village") == "City: 5 of them"
    deck = '[[deck]]\nid = "relics"\nlies_on = "castle"\ntaken_event = "whim-lost"\n'
    with pytest.raises(ContentError, match="lies_on 'castle': no such tile kind") as refused:
        rule(tmp_path, deck, (WHIMS,))
    assert "fires an event 'whim-lost'" in str(refused.value)
