"""One card model: every deck's cards are one ``CardSpec``, held in one hand per deck,
given powers by one hook keyed ``<deck>:<kind>`` and routed by one router that follows a
small per-deck policy. Each power reads its numbers from the card it is given."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from naqala.core.content import CardSpec
from naqala.core.engine import Rules, build_rules
from naqala.core.hookspecs import hookimpl
from naqala.core.powers import Power
from naqala.core.state import State, effect_counts
from naqala.plugins.base.cards import Activated
from naqala.plugins.base.common import gain_coins
from naqala.testing.scenario import RESOURCE_DECK, act, deck, options, play, player, turn_of

ITEMS = "items"


def plugin(name: str, path: Path, powers: dict[str, Power] | None = None) -> object:
    class Plugin:
        NAME = name

        @hookimpl
        def naqala_content_files(self) -> list[Path]:
            return [path]

        @hookimpl
        def naqala_card_powers(self) -> dict[str, Power]:
            return dict(powers or {})

    return Plugin()


def artisans_with(tmp_path: Path, toml: str) -> Rules:
    path = tmp_path / "more.toml"
    path.write_text(toml, encoding="utf-8")
    return build_rules(["artisans"], extra_plugins=[plugin("more", path)])


def my_turn_with_items(rules: Rules, *items: str) -> State:
    state = turn_of(rules, rules.new_game(2, seed=4), seat=0)
    return player(rules, state, 0, hands={ITEMS: list(items)})


CORNUCOPIA = """
[[card]]
deck = "items"
id = "cornucopia"
name = "Cornucopia"
kind = "horn-of-plenty"
params = { row = 3 }
"""


def test_a_second_horn_of_plenty_reads_its_own_number_of_cards(tmp_path: Path) -> None:
    """Horn of Plenty's power deals the ``params.row`` of the card played (not the numbers
    of the card called horn-of-plenty, whatever was played)."""
    rules = artisans_with(tmp_path, CORNUCOPIA)
    state = my_turn_with_items(rules, "cornucopia")
    after = play(rules, state, "cornucopia")
    assert len(after.decks[RESOURCE_DECK].row) == 3
    assert effect_counts(after) == {"cornucopia": 1}
    power = rules.power_of(rules.card_specs["cornucopia"])
    assert power is not None
    assert "new row of 3" in power.describe(rules, rules.card_specs["cornucopia"])


def test_burning_scimitar_kills_its_params_kills(tmp_path: Path) -> None:
    """The Burning Scimitar kills ``params.kills`` meeples of one tile: 2 for the real
    one, 3 for a test card with ``kills = 3`` (never a hard-coded number)."""
    rules = artisans_with(
        tmp_path,
        '[[card]]\ndeck = "items"\nid = "great-scimitar"\nkind = "burning-scimitar"\n'
        "params = { kills = 3 }\n",
    )
    for item, kills in (("burning-scimitar", 2), ("great-scimitar", 3)):
        state = my_turn_with_items(rules, item)
        offered = [str(a).split() for a in rules.legal_actions(state) if a.kind == item]
        full = [tile for _, tile, letters in offered if len(letters) == kills]
        assert full and all(len(letters) <= kills for _, _, letters in offered), item


def test_describe_fills_in_an_items_params() -> None:
    """``Power.describe`` formats any card's params, not only a djinn's."""
    rules = build_rules(["artisans"])
    for item, number in (("horn-of-plenty", "9"), ("burning-scimitar", "2")):
        spec = rules.card_specs[item]
        power = rules.power_of(spec)
        assert power is not None
        text = power.describe(rules, spec)
        assert number in text and "{" not in text, text


class Rub(Activated):
    """Test power: a charm rubbed pays its ``params.coins``."""

    def act(
        self, rules: Rules, state: State, owner: int, card: CardSpec, target: tuple[str, ...]
    ) -> State:
        return gain_coins(state, owner, card.param("coins"))


CHARMS = """
[[deck]]
id = "charms"
noun = "charm"
limit = "deck"
verb = "rub"
discard = true

[[card]]
deck = "charms"
id = "lucky"
kind = "rub"
count = 2
params = { coins = 3 }

[[card]]
deck = "charms"
id = "shiny"
kind = "rub"
params = { coins = 5 }
"""


def test_a_new_deck_is_routed_by_its_policy_without_routing_code(tmp_path: Path) -> None:
    """A plugin adds a deck with content (its ``[[deck]]`` policy: a verb, once a turn
    for the whole deck, discarded when used) and one power; it writes no options, apply
    or explain hooks, and the router offers, applies and explains its cards."""
    path = tmp_path / "charms.toml"
    path.write_text(CHARMS, encoding="utf-8")
    rules = build_rules(extra_plugins=[plugin("charms", path, {"charms:rub": Rub()})])
    charms = rules.deck_index["charms"]
    state = turn_of(rules, rules.new_game(2, seed=1), seat=0)
    state = deck(rules, state, "charms", draw=[], row=[], discard=[])
    state = player(rules, state, 0, hands={"charms": ["shiny", "lucky"]})
    assert state.players[0].hand(charms) == ("lucky", "shiny")  # the deck keeps it sorted
    assert options(rules, state, "rub") == ["rub lucky", "rub shiny"]
    coins = state.players[0].coins
    after = play(rules, state, "rub shiny")
    assert after.players[0].coins == coins + 5
    assert after.players[0].hand(charms) == ("lucky",)
    assert after.decks[charms].discard == ("shiny",)
    assert options(rules, after, "rub") == []  # once a turn for the whole deck
    assert "charm" in rules.explain(after, act("rub nothing"))
    assert rules.explain(after, act("rub shiny")) == "you do not hold the charm shiny"


def test_every_card_of_every_deck_is_one_spec_and_one_hand_per_deck() -> None:
    rules = build_rules(["artisans", "djinns"])
    decks = {c.deck for c in rules.content.cards}
    assert decks == {"resources", "djinns", "items", "whims"}
    assert all(isinstance(c, CardSpec) for c in rules.content.cards)
    state = rules.new_game(3, seed=1)
    assert all(len(p.hands) == len(rules.deck_names) for p in state.players)
    powered: Iterable[CardSpec] = (c for c in rules.content.cards if c.deck != "resources")
    assert all(rules.power_of(c) is not None for c in powered)
