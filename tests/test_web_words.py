"""What a seat's page says in words: every option's effect (``naqala.web.words``), the
cards it explains with their powers (``naqala.web.cards``, from the seat's view only),
and the one event stream a browser's tabs share (``/api/events?follow=``)."""

from __future__ import annotations

import json
import random
import warnings
from pathlib import Path

import pytest

from naqala.cli.decisions import djinn_power
from naqala.core.actions import Action, parse_action
from naqala.core.engine import Rules, rules_for_ruleset
from naqala.core.state import State
from naqala.plugins.base.api import turn_order_costs
from naqala.web.words import DESCRIBERS, ORDINALS, describes, option_words, payment_words

pytest.importorskip("starlette")
pytest.importorskip("httpx")
with warnings.catch_warnings():  # starlette 1.x prefers httpx2 and warns about httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from naqala.web.app import create_app
from naqala.web.store import Store

EVERYTHING = ("base", "artisans", "djinns", "thieves")


def played_until(rules: Rules, seed: int, players: int, found: object) -> State:
    """A random game of ``rules`` played until ``found(state)`` holds."""
    state = rules.new_game(players, seed)
    chooser = random.Random(seed)
    while not found(state):
        assert not state.is_over, "the game ended first"
        state = rules.apply(state, chooser.choice(rules.legal_actions(state)))
    return state


def test_a_bid_says_what_it_pays_and_for_which_turn_order_space() -> None:
    rules = rules_for_ruleset(("base",))
    state = rules.new_game(3, 1)
    costs = turn_order_costs(rules, 3)
    words = {str(a): option_words(rules, state, a) for a in rules.legal_actions(state)}
    assert words[f"bid {costs[1]}"] == (
        f"bid {costs[1]}: pay {costs[1]} coins for the second turn-order space"
    )
    first_zero = costs.index(0)
    assert words["bid 0"] == f"bid 0: pay nothing for the {ORDINALS[first_zero]} turn-order space"
    assert words["bid 1"].startswith("bid 1: pay 1 coin for")


def test_a_sale_says_how_many_kinds_and_coins() -> None:
    rules = rules_for_ruleset(("base",))
    state = rules.new_game(3, 1)
    values = rules.content.table("suit_values")
    sale = parse_action("sell gold+ivory+pottery")
    assert option_words(rules, state, sale) == f"sell 3 kinds: {values[2]} coins"
    assert option_words(
        rules, state, parse_action("sell gold")
    ) == f"sell 1 kind: {values[0]} coin" + ("s" if values[0] != 1 else "")


def test_taking_a_djinn_names_it_with_its_payment_and_power() -> None:
    rules = rules_for_ruleset(("base",))
    state = rules.new_game(3, 1)
    words = option_words(rules, state, parse_action("djinn boaz EE"))
    boaz = rules.card_specs["boaz"]
    effect = djinn_power(rules, "boaz", brief=True).split(": ", 1)[1].rstrip(".")
    assert words == f"Boaz: pay 2 elders, take it ({boaz.vp} VP) — {effect}"
    assert "assassin" in words.lower()


def test_a_held_djinns_power_names_target_and_payment() -> None:
    rules = rules_for_ruleset(("base",))
    state = rules.new_game(3, 1)
    words = option_words(rules, state, parse_action("enki b1 EF"))
    assert words.startswith("Enki on b1: pay 1 elder and 1 Fakir, place a palm tree")


def test_moves_kills_and_tiles_are_worded() -> None:
    rules = rules_for_ruleset(("base",))
    state = rules.new_game(3, 1)
    assert option_words(rules, state, parse_action("drop c3 B")) == "drop a Builder on c3"
    assert option_words(rules, state, parse_action("kill a3 W")) == "assassinate an Elder on a3"
    assert option_words(rules, state, parse_action("kill p2 Y")) == (
        "assassinate a Vizier in front of P2"
    )
    assert option_words(rules, state, parse_action("end")) == "end your turn"
    held = sum(state.board.meeples[0])  # a1, the first tile
    assert option_words(rules, state, parse_action("pick a1")) == (
        f"start at a1: take its {held} meeples in hand"
    )
    assert payment_words("EF") == "1 elder and 1 Fakir" and payment_words("c3") is None


def test_every_option_of_random_games_of_every_box_is_worded() -> None:
    """No option is left as bare notation in the base game: each has its words, and the
    words are never empty."""
    for ruleset, players in ((("base",), 3), (EVERYTHING, 4)):
        rules = rules_for_ruleset(ruleset)
        state = rules.new_game(players, 5)
        chooser = random.Random(5)
        bare: set[str] = set()
        while not state.is_over:
            options = rules.legal_actions(state)
            for option in options:
                words = option_words(rules, state, option)
                assert words
                if words == str(option):
                    bare.add(option.kind)
            state = rules.apply(state, chooser.choice(options))
        assert bare <= {"workshop"}, bare  # the workshop's stage notes its cost instead


def test_a_kind_is_described_once() -> None:
    assert "bid" in DESCRIBERS
    with pytest.raises(ValueError, match="'bid' already have a describer"):
        describes("bid")(lambda rules, state, action: None)


def test_a_plugin_stage_words_its_own_options_through_its_note() -> None:
    """An option no describer knows reads as its stage's note (how a plugin words what
    it adds): the workshop of the Artisans."""
    rules = rules_for_ruleset(EVERYTHING)
    state = played_until(rules, 3, 4, lambda s: s.decision.stage == "tile:workshop")
    stage = rules.stages["tile:workshop"]
    option = next(a for a in rules.legal_actions(state) if a.kind == "workshop")
    assert option_words(rules, state, option) == (
        f"{option}: {stage.option_note(rules, state, option)}"
    )


def test_the_page_lists_the_seats_own_cards_and_only_the_cards_it_may_see(tmp_path: Path) -> None:
    store = Store(tmp_path / "games", [], 5)
    game = store.create(["human", "human"], ["artisans"], [], 4)
    chooser = random.Random(4)

    def holds_hidden_item(state: State) -> bool:
        return any(state.players[0].hands[game.rules.deck_index["items"]])

    while not holds_hidden_item(game.state):
        assert not game.state.is_over
        game.play(chooser.choice(game.rules.legal_actions(game.state)))
    items = game.state.players[0].hands[game.rules.deck_index["items"]]
    mine, theirs = game.page(0), game.page(1)
    assert set(items) <= set(mine["mine"])
    assert all(mine["cards"][card]["effect"] for card in mine["mine"])
    shown = {(held["where"], held["card"]) for held in theirs["in_play"]}
    assert not any(where == "P1" and card in items for where, card in shown)
    assert not set(theirs["mine"]) & set(items)
    for held in theirs["in_play"]:
        assert held["card"] in theirs["cards"]


def test_one_stream_follows_several_pages_and_names_each(tmp_path: Path) -> None:
    store = Store(tmp_path / "games", [], 5)
    with TestClient(create_app(store, ai_delay=0, stream_seconds=0.3)) as client:
        made = [
            client.post("/api/games", json={"seats": ["human", "human"], "seed": s}) for s in (1, 2)
        ]
        apis = ["/api" + m.json()["seats"][0]["url"].replace("/play/", "/games/", 1) for m in made]
        unknown = "/api/games/" + "0" * 16 + "/" + "A" * 22
        answer = client.get("/api/events", params={"follow": ",".join([*apis, unknown])})
        assert answer.headers["content-type"].startswith("text/event-stream")
        news = [
            json.loads(line[6:]) for line in answer.text.splitlines() if line.startswith("data: ")
        ]
        for api in apis:
            assert {"api": api, "version": client.get(api).json()["version"]} in news
        assert {"api": unknown, "gone": True} in news
        assert client.get("/api/events", params={"follow": "/etc/passwd"}).status_code == 400
        assert client.get("/api/events").status_code == 400


def test_an_option_of_a_card_says_so_before_its_kind(tmp_path: Path) -> None:
    """``keep crown`` (an item) and ``thief red-thief EE`` name their card."""
    rules = rules_for_ruleset(EVERYTHING)
    state = rules.new_game(4, 1)
    keep = option_words(rules, state, Action("keep", ("crown",)))
    assert keep.startswith("Crown: keep it — ")
    thief = option_words(rules, state, Action("thief", ("red-thief", "EE")))
    assert thief.startswith("Red Thief: pay 2 elders, take it (6 VP) — Each opponent")


def test_the_score_in_sight_counts_your_coins_and_not_anothers(tmp_path: Path) -> None:
    """Each page shows every player's score during the game: its own in full (its coins
    counted), the others' public points only, so the page of P2 is the same whatever P1's
    coins and hidden cards are."""
    from naqala.core.scoresheet import visible_scores
    from naqala.core.state import evolve

    store = Store(tmp_path / "games", [], 5)
    game = store.create(["human", "human"], ["artisans"], [], 6)
    chooser = random.Random(6)
    while game.state.round < 3:
        game.play(chooser.choice(game.rules.legal_actions(game.state)))
    state = game.state
    first, second = game.page(0)["score"], game.page(1)["score"]
    assert [p["total"] for p in first["players"]] == [
        s.total for s in visible_scores(game.rules, state, 0)
    ]
    assert first["players"][0]["full"] and not first["players"][1]["full"]
    assert "coins" in first["players"][1]["uncounted"]
    assert first["rows"] and all(len(points) == 2 for _, points in first["rows"])

    richer = evolve(state.players[0], coins=state.players[0].coins + 40)
    game.states[-1] = evolve(state, players=(richer, *state.players[1:]))
    assert game.page(1)["score"] == second  # P1's coins never reach P2's page
    assert game.page(0)["score"]["players"][0]["total"] == first["players"][0]["total"] + 40


def test_sultan_yazid_is_explained_beside_the_board(tmp_path: Path) -> None:
    """In the solo mode the page explains the Sultan's state: his camels, how near he is
    to winning and this round's dice, as one entry of the cards in play."""
    store = Store(tmp_path / "games", [], 5)
    game = store.create(["human"], ["solo"], [], 2)
    page = game.page(0)
    sultan = page["cards"]["aside"]
    assert sultan["name"] == "Sultan Yazid"
    assert "Camels left" in sultan["effect"] and "you lose at either" in sultan["effect"]
    assert {"where": "beside the board", "card": "aside"} in page["in_play"]


def test_another_seats_hidden_cards_never_change_a_page(tmp_path: Path) -> None:
    """P1's hidden cards (its items and resources) reach neither P2's score nor its
    lists of cards."""
    from naqala.core.hands import with_hand
    from naqala.core.state import evolve

    store = Store(tmp_path / "games", [], 5)
    game = store.create(["human", "human"], ["artisans"], [], 7)
    chooser = random.Random(7)
    while game.state.round < 2:
        game.play(chooser.choice(game.rules.legal_actions(game.state)))
    state = game.state
    before = game.page(1)
    items = game.rules.deck_index["items"]
    hidden = with_hand(game.rules, state.players[0], items, ("crown", "treasure"))
    game.states[-1] = evolve(state, players=(hidden, *state.players[1:]))
    after = game.page(1)
    for part in ("in_play", "mine"):
        assert after[part] == before[part], part
    # how many cards P1 hides is public (its panel says so); what they are is not
    assert after["score"]["rows"] == before["score"]["rows"]
    assert [p["total"] for p in after["score"]["players"]] == [
        p["total"] for p in before["score"]["players"]
    ]
    assert {"crown", "treasure"} <= set(game.page(0)["mine"])


def test_a_card_named_by_a_power_is_named_by_its_name() -> None:
    """The Fabulous Lamp takes a face-up djinn: the option names the djinn, not its id."""
    rules = rules_for_ruleset(EVERYTHING)
    state = rules.new_game(4, 1)
    words = option_words(rules, state, Action("fabulous-lamp", ("hagis",)))
    assert words.startswith("Fabulous Lamp (Hagis): take one face-up djinn")
