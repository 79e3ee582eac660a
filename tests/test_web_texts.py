"""The page's texts that say what the rules do beyond an option's words: a whim's reward
and how it is claimed, what each tile and the tent do (``web.glossary``), and what an
action gave each player, said to each seat as it may know it (``web.gains``): a card drawn
or taken without the option naming it, a whim taken at a city, the meeples kept."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest

from naqala.core.actions import Action
from naqala.core.engine import Rules, rules_for_ruleset
from naqala.core.hands import hand
from naqala.core.state import State
from naqala.core.views import view_for
from naqala.web.gains import gains_words
from naqala.web.glossary import glossary
from naqala.web.words import card_facts, option_words

BOXES = ("base", "artisans", "djinns")


def first_change(rules: Rules, seed: int, changed: object) -> tuple[State, Action, State]:
    """The first action of a random game after which ``changed(before, after)`` holds."""
    state = rules.new_game(4, seed)
    chooser = random.Random(seed)
    while not state.is_over:
        action = chooser.choice(rules.legal_actions(state))
        after = rules.apply(state, action)
        if changed(state, after):  # type: ignore[operator]
            return state, action, after
        state = after
    raise AssertionError("the game ended first")


def test_a_whim_says_what_it_pays_and_how_it_is_claimed() -> None:
    rules = rules_for_ruleset(BOXES)
    whims = [c for c in rules.card_specs.values() if c.deck == "whims"]
    for whim in whims:
        effect = card_facts(rules, whim)["effect"]
        assert effect.startswith(whim.text)
        assert f"for {whim.params['coins']} coins" in effect
        assert "Claim it in your turn once this holds" in effect


def test_the_glossary_says_each_tile_s_action_and_the_tent_s_scoring_with_the_rules_numbers() -> (
    None
):
    rules = rules_for_ruleset(BOXES)
    state = rules.new_game(4, 3)
    lines = glossary(rules, state)
    cost = rules.content.setting("specialized_market_cost")
    assert f"Specialized market: buy any one face-up resource card for {cost} coins" in lines
    vp = rules.content.setting("tent_red_tile_vp")
    tent = next(line for line in lines if line.startswith("Tent: "))
    assert f"scores {vp} VP for each red-valued tile in the 3×3 area" in tent
    city = next(line for line in lines if line.startswith("City: "))
    assert "take the Sultan's Whim lying on it" in city
    kinds = {rules.tile(t).kind for t in state.layout.tiles}
    assert len([line for line in lines if not line.startswith("Tent")]) == len(kinds)


def test_a_tile_s_title_in_the_picture_says_its_action() -> None:
    from naqala.display.svg import svg_parts

    rules = rules_for_ruleset(("base",))
    state = rules.new_game(2, 1)
    picture = "".join(svg_parts(rules, state, seat=0))
    oases = [t for t, tile in enumerate(state.layout.tiles) if rules.tile(tile).kind == "oasis"]
    name = state.geometry.name(oases[0])
    assert f"<title>{name}: oasis; place a palm tree;" in picture


def _whims_in_hand(rules: Rules, state: State, player: int) -> int:
    return len(hand(rules, state.players[player], rules.deck_index["whims"]))


def test_a_whim_taken_at_a_city_is_named_to_its_taker_and_counted_to_the_others() -> None:
    rules = rules_for_ruleset(BOXES)

    def took_a_whim(before: State, after: State) -> bool:
        return any(
            _whims_in_hand(rules, after, p) > _whims_in_hand(rules, before, p)
            for p in range(len(after.players))
        )

    before, action, after = first_change(rules, 5, took_a_whim)
    taker = next(
        p
        for p in range(len(after.players))
        if _whims_in_hand(rules, after, p) > _whims_in_hand(rules, before, p)
    )
    whims = rules.deck_index["whims"]
    (card,) = set(hand(rules, after.players[taker], whims)) - set(
        hand(rules, before.players[taker], whims)
    )
    name = rules.card_specs[card].name
    other = (taker + 1) % len(after.players)
    mine = gains_words(
        rules, view_for(rules, before, taker), view_for(rules, after, taker), action, taker
    )
    theirs = gains_words(
        rules, view_for(rules, before, other), view_for(rules, after, other), action, other
    )
    assert f"you took {name} (whim)" in mine
    assert f"P{taker + 1} took 1 whim you do not see" in theirs
    assert name not in theirs


def test_meeples_kept_and_a_card_the_option_does_not_name_are_said() -> None:
    rules = rules_for_ruleset(("base",))

    def kept_elders(before: State, after: State) -> bool:
        white = rules.colour_index["white"]
        return any(
            a.meeples[white] > b.meeples[white]
            for a, b in zip(after.players, before.players, strict=True)
        )

    before, action, after = first_change(rules, 2, kept_elders)
    player = before.decision.player
    white = rules.colour_index["white"]
    count = after.players[player].meeples[white] - before.players[player].meeples[white]
    words = gains_words(
        rules, view_for(rules, before, player), view_for(rules, after, player), action, player
    )
    assert f"you kept {count} elder" in words

    def drew_a_djinn(before: State, after: State) -> bool:
        djinns = rules.deck_index["djinns"]
        return any(
            len(hand(rules, a, djinns)) > len(hand(rules, b, djinns))
            for a, b in zip(after.players, before.players, strict=True)
        )

    before, action, after = first_change(rules, 4, drew_a_djinn)
    words = gains_words(rules, view_for(rules, before, 0), view_for(rules, after, 0), action, 0)
    named = option_words(rules, before, action)
    djinns = rules.deck_index["djinns"]
    taker = before.decision.player
    (card,) = set(hand(rules, after.players[taker], djinns)) - set(
        hand(rules, before.players[taker], djinns)
    )
    if card in action.args:  # taken by name at a sacred place: the option says it
        assert rules.card_specs[card].name not in words
        assert rules.card_specs[card].name in named
    else:
        assert f"took {rules.card_specs[card].name} (djinn)" in words


def test_the_page_s_log_says_what_followed_and_lists_the_glossary(tmp_path: Path) -> None:
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from naqala.web.app import create_app
    from naqala.web.store import Store

    store = Store(tmp_path / "games", [], 5)
    with TestClient(create_app(store, ai_delay=0, stream_seconds=0.3)) as client:
        made = client.post("/api/games", json={"seats": ["human", "human"], "seed": 7}).json()
        apis = ["/api" + s["url"].replace("/play/", "/games/", 1) for s in made["seats"]]
        chooser = random.Random(7)
        for _ in range(200):
            pages = [client.get(api).json() for api in apis]
            if any("→ you kept" in line for page in pages for line in page["log"]):
                break
            deciding = next(i for i, page in enumerate(pages) if page["yours"])
            option = chooser.choice(pages[deciding]["options"])["action"]
            assert client.post(apis[deciding] + "/act", json={"action": option}).is_success
        else:
            raise AssertionError("no meeples kept in 200 actions")
        assert "Oasis: place a palm tree" in pages[0]["glossary"]
