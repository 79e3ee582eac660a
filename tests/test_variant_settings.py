"""The common variants as settings (issue 37), each played on the Python engine and on the
native kernel: a round cap, a coins tie-break, Fakirs in hand, viziers and elders safe
from the assassins, and no bidding. The sample files are the ones the harness compares in
CI (``tests/data/settings/``)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from naqala.core.engine import Rules, build_rules
from naqala.core.state import GAME_OVER, NOBODY, Decision, State, add_at, evolve
from naqala.envs.games import Game, load_game, open_game
from naqala.testing.scenario import board
from tests.native_kit import require_native

SAMPLES = Path(__file__).parent / "data" / "settings"
ENGINES = ["python", "native"]


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    if request.param == "native":
        require_native()
    return str(request.param)


def rules_with(sample: str) -> Rules:
    return build_rules([], [SAMPLES / f"{sample}.toml"])


def play_out(game: Game, seed: int, watch: list[State] | None = None) -> Game:
    """Random legal actions to the end; each state on the way into ``watch``."""
    choose = random.Random(seed)
    while not game.is_over:
        if watch is not None:
            watch.append(game.state)
        game.step(choose.choice(game.legal()))
    return game


def test_the_game_ends_after_the_capped_round(engine: str) -> None:
    """``end.after_round = 8``: a game that would go on ends after round 8's clean-up."""
    uncapped = play_out(open_game(build_rules(), 3, 11, "python"), 5)
    assert uncapped.state.round > 8
    capped = play_out(open_game(rules_with("round-cap"), 3, 11, engine), 5)
    assert capped.state.round == 8 and capped.state.decision.stage == GAME_OVER
    assert capped.state.flags == ("round-cap",)  # why it ended, for records and summaries


def test_a_poorer_start_is_a_number(engine: str) -> None:
    """``starting_coins = 40``: a setting that was always there, in the same cookbook."""
    state = open_game(rules_with("poorer-start"), 4, 1, engine).state
    assert [p.coins for p in state.players] == [40] * 4


def tied_state(rules: Rules) -> State:
    """Three players at the end: seat 0 with 50 coins, seat 1 with 46 coins and 2 elders
    (4 points), seat 2 with 40 coins: seats 0 and 1 tie at 50 points. The board is
    emptied into the bag first, so the elders held come from it and every meeple is still
    counted once."""
    state = board(rules, rules.new_game(3, 2), clear=True)
    white = [c.id for c in rules.colours].index("white")
    players = list(state.players)
    players[1] = evolve(players[1], coins=46, meeples=add_at(players[1].meeples, white, 2))
    players[2] = evolve(players[2], coins=40)
    return evolve(
        state,
        players=tuple(players),
        bag=add_at(state.bag, white, -2),
        decision=Decision(GAME_OVER, NOBODY),
    )


def test_a_tie_for_the_most_points_goes_to_the_most_coins(engine: str) -> None:
    shared = build_rules()
    assert load_game(shared, tied_state(shared), engine).rewards("win") == [0.5, 0.5, 0.0]
    coins = rules_with("coins-tie-break")
    game = load_game(coins, tied_state(coins), engine)
    assert game.scores() == [50, 50, 40]
    assert game.rewards("win") == [1.0, 0.0, 0.0]
    assert coins.verdict(tied_state(coins)).winners == (0,)


def test_every_player_starts_with_two_fakirs_taken_from_the_deck(engine: str) -> None:
    rules = rules_with("fakirs-in-hand")
    state = open_game(rules, 4, 3, engine).state
    resources = rules.deck_index["resources"]
    assert [p.hand(resources) for p in state.players] == [("fakir", "fakir")] * 4
    deck = state.decks[resources]
    in_deck = [*deck.draw, *deck.row]
    assert len(deck.row) == rules.content.setting("resource_row")
    copies = sum(c.count for c in rules.content.deck("resources"))
    assert len(in_deck) == copies - 8
    fakirs = sum(c.count for c in rules.content.deck("resources") if c.kind == "fakir")
    assert in_deck.count("fakir") == fakirs - 8


def kills_in_front(game: Game) -> list[str]:
    """The legal kills of a vizier or an elder in front of a player."""
    return [n for n in game.notations() if n.startswith("kill p") and n[-1] in "YW"]


def test_assassins_may_not_kill_the_protected_colours_in_front(engine: str) -> None:
    """``assassins.protect = ["yellow", "white"]``: no kill of a vizier or an elder in
    front of a player is offered where the base game offers one."""
    base, safe = build_rules(), rules_with("safe-elders")
    offered_in_base = 0
    for seed in range(6):
        watched: list[State] = []
        play_out(open_game(safe, 2, seed, "python"), seed, watched)
        for state in watched:
            if state.decision.stage != "kill":
                continue
            offered_in_base += len(kills_in_front(load_game(base, state, "python")))
            assert kills_in_front(load_game(safe, state, engine)) == []
    assert offered_in_base > 0


def test_without_bidding_nobody_bids_and_the_order_turns_by_one(engine: str) -> None:
    rules = rules_with("no-bidding")
    watched: list[State] = []
    game = play_out(open_game(rules, 3, 8, engine), 4, watched)
    assert game.state.round > 2
    assert all(s.decision.stage != "bid" for s in watched)
    played: dict[int, list[int]] = {}
    for state in watched:
        if state.turn is not None:
            order = played.setdefault(state.round, [])
            if not order or order[-1] != state.turn.marker:
                order.append(state.turn.marker)
    for before, after in zip(played.values(), list(played.values())[1:], strict=False):
        assert after == before[1:] + before[:1]
    assert rules.content.setting("starting_coins") == watched[0].players[0].coins


@pytest.mark.parametrize(
    ("settings", "expected"),
    [
        ("end.after_round = -1", "settings.end.after_round: -1 is less than 0"),
        ('assassins.protect = ["pink"]', "settings.assassins.protect[0]: 'pink' is no meeple"),
        (
            'assassins.protect = ["white", "blue"]',
            "settings.assassins.protect[1]: 'blue' is never kept in front of a player",
        ),
        (
            'start.cards = [{deck = "whims", kind = "fakir", count = 1}]',
            "settings.start.cards[0].deck: 'whims' is no deck of these rules",
        ),
        (
            'start.cards = [{deck = "resources", kind = "djinn", count = 1}]',
            "settings.start.cards[0].kind: the deck 'resources' has no card of kind 'djinn'",
        ),
        (
            'start.cards = [{deck = "resources", kind = "fakir", count = 0}]',
            "settings.start.cards[0].count: 0 is less than 1",
        ),
        (
            'start.cards = [{deck = "resources", kind = "fakir"}]',
            "settings.start.cards[0]: an entry is {deck = ..., kind = ..., count = ...}",
        ),
        (
            'start.cards = [{deck = "resources", kind = "fakir", count = 5}]',
            "settings.start.cards: 4 players need 20 cards of kind 'fakir' from the deck "
            "'resources', which has 18",
        ),
    ],
    ids=[
        "negative-cap",
        "no-colour",
        "not-kept",
        "no-deck",
        "no-kind",
        "no-count",
        "no-field",
        "too-many",
    ],
)
def test_a_variant_the_rules_cannot_play_is_refused(
    tmp_path: Path, settings: str, expected: str
) -> None:
    from naqala.core.content import ContentError

    path = tmp_path / "variant.toml"
    path.write_text(f'[house-rule]\nname = "variant"\n\n[settings]\n{settings}\n', "utf-8")
    with pytest.raises(ContentError) as caught:
        build_rules([], [path])
    assert [p for p in caught.value.problems if expected in p], caught.value.problems


def test_the_cookbook_shows_the_samples_the_harness_compares() -> None:
    """docs/house-rules.md shows each sample file as it is, under its path."""
    docs = (Path(__file__).parent.parent / "docs" / "house-rules.md").read_text("utf-8")
    shown = re.findall(
        r"^```toml\n# (tests/data/settings/[\w-]+\.toml)\n(.*?)^```$", docs, re.M | re.S
    )
    assert {path: text for path, text in shown} == {
        f"tests/data/settings/{p.name}": p.read_text("utf-8") for p in SAMPLES.glob("*.toml")
    }
