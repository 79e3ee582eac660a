"""A used power that puts a placement elsewhere (``redirects = "<token>"``), as Hagis and
Lamia are written: offered where the token is placed for its owner, on the tiles around,
its effects are that placement; on both engines, and refused where it cannot act."""

from __future__ import annotations

from pathlib import Path

from native_kit import assert_same_games, same_on_the_kernel
from test_effects_verbs import refusal, rules_of

from naqala.core.engine import Rules, build_rules
from naqala.core.state import State
from naqala.plugins.base.api import FAKIR
from naqala.testing.scenario import board, options, out_of_deck, play, player, tokens, turn_of

COOKBOOK = Path(__file__).resolve().parent.parent / "docs" / "examples" / "effects"
#: a free djinn that places a palace on any village (Bouraq without a cost)
BUILDER = (
    '[[power]]\ndeck = "djinns"\nkind = "builder"\non = "use"\ntarget_kind = "village"\n'
    'effects = [{ place = "palace" }]\n'
)
#: a free djinn that puts any palace placed for its owner on a tile around (Hagis free)
PLANNER = (
    '[[power]]\ndeck = "djinns"\nkind = "planner"\non = "use"\nredirects = "palace"\n'
    'stages = ["tile:village"]\neffects = [{ place = "palace" }]\n'
)
#: each player is dealt a builder and a planner at setup (``start.cards``)
DEALT = (
    '[settings]\nstart.cards = [{deck = "djinns", kind = "builder", count = 1}, '
    '{deck = "djinns", kind = "planner", count = 1}]\n\n'
)


def free(kind: str) -> str:
    """Four free djinns of ``kind``: ``<kind>-1`` to ``<kind>-4``."""
    return "".join(
        f'[[djinn]]\nid = "{kind}-{n}"\nname = "{kind.title()} {n}"\nvp = 2\nkind = "{kind}"\n'
        'cost = ""\n\n'
        for n in range(1, 5)
    )


#: the builders and the planners, in the pile
BOTH = free("builder") + free("planner") + BUILDER + "\n" + PLANNER


def surveyor_rules() -> Rules:
    return build_rules(house_rules=[COOKBOOK / "surveyor.toml"])


def at_the_village(rules: Rules, djinns: list[str]) -> State:
    """Player 0, holding ``djinns`` and a Fakir, has moved a vizier onto the village c3;
    they hold d4 and b4, an opponent holds b2; e5 is another village."""
    state = board(
        rules,
        rules.new_game(2, 1),
        {"b3": "Y", "c3": "Y"},
        clear=True,
        tiles={"c3": "village-1", "e5": "village-2"},
        owners={"d4": 0, "b4": 0, "b2": 1},
    )
    camels = [p.camels for p in state.players]
    state = player(rules, state, 1, camels=camels[1] - 1)
    state = player(rules, turn_of(rules, state, 0), 0, djinns=djinns, cards=[FAKIR])
    state = player(rules, state, 0, camels=camels[0] - 2)
    state = out_of_deck(rules, out_of_deck(rules, state, "djinns", djinns), "resources", [FAKIR])
    return play(rules, state, "pick b3", "drop c3 Y")


def palaces(rules: Rules, state: State, name: str) -> int:
    return state.board.tokens[state.geometry.parse(name)][rules.token_index["palace"]]


def test_the_surveyor_puts_the_village_palace_on_an_own_tile_around_and_pays_a_coin() -> None:
    """Surveyor (the cookbook's): at the village action, the palace may go on one of the
    player's own tiles around instead (d4 or b4, not the opponent's b2), for a Fakir, and
    the player gains 1 coin; the village's action is then done."""
    rules = surveyor_rules()
    state = at_the_village(rules, ["surveyor"])
    assert state.decision.stage == "tile:village"
    assert options(rules, state, "surveyor") == ["surveyor b4 F", "surveyor d4 F"]
    after = play(rules, state, "surveyor d4 F")
    assert (palaces(rules, after, "d4"), palaces(rules, after, "c3")) == (1, 0)
    assert after.players[0].coins == state.players[0].coins + 1
    assert after.decision.stage == "sell"
    same_on_the_kernel(rules, state, after)


def test_an_effects_placement_waits_for_the_redirect_then_play_returns_to_its_decision() -> None:
    """A builder's palace on the village e5, for a player holding a planner: the palace
    waits (``placing:palace``, ``place e5`` or the planner on a tile around e5); redirected,
    it lands there and the village action the builder interrupted goes on, where the
    planner, used this turn, is no longer offered."""
    rules = rules_of(BOTH)
    state = at_the_village(rules, ["builder-1", "planner-1"])
    waiting = play(rules, state, "builder-1 e5")
    assert waiting.decision.stage == "placing:palace"
    assert "place e5" in options(rules, waiting)
    assert set(options(rules, waiting, "planner-1")) == {
        f"planner-1 {tile}" for tile in ("d4", "e4", "f4", "d5", "f5")
    }
    after = play(rules, waiting, "planner-1 f4")
    assert (palaces(rules, after, "f4"), palaces(rules, after, "e5")) == (1, 0)
    assert after.decision.stage == "tile:village"
    assert not options(rules, after, "planner-1")
    done = play(rules, after, "place c3")
    assert palaces(rules, done, "c3") == 1
    same_on_the_kernel(rules, state, waiting, after, done)


def test_while_a_palace_waits_only_its_redirects_are_offered_so_no_second_one_starts() -> None:
    """At ``placing:palace`` the player decides where that one palace goes: a second
    builder, usable any time in the turn, is not offered there (it would start a second
    placement of the same token while the first waits; 10,000 drawn programs found the
    two engines losing the first one's tile). Once the palace is placed, it is offered
    again."""
    rules = rules_of(BOTH)
    state = at_the_village(rules, ["builder-1", "builder-2", "planner-1"])
    waiting = play(rules, state, "builder-1 e5")
    assert waiting.decision.stage == "placing:palace"
    assert not options(rules, waiting, "builder-2")
    assert {str(a).split()[0] for a in rules.legal_actions(waiting)} == {"place", "planner-1"}
    placed = play(rules, waiting, "place e5")
    assert options(rules, placed, "builder-2")
    same_on_the_kernel(rules, state, waiting, placed)


def test_no_palace_left_in_the_bank_offers_no_redirect() -> None:
    rules = surveyor_rules()
    state = at_the_village(rules, ["surveyor"])
    bare = tokens(rules, state, {"a1": {"palace": state.pool[rules.token_index["palace"]]}})
    assert not options(rules, bare, "surveyor")
    same_on_the_kernel(rules, bare)


def test_redirected_placements_play_the_same_on_both_engines_in_whole_games() -> None:
    """A free builder and a free planner dealt to every player: the random games redirect
    the villages' palaces and the builders', compared state by state."""
    reports = assert_same_games(rules_of(DEALT + BOTH), ((2, 1), (3, 2), (4, 3)))
    assert sum(r.decisions["placing:palace"] for r in reports) > 0
    assert sum(r.decisions["tile:village"] for r in reports) > 0


def test_a_redirect_is_refused_where_it_cannot_act(tmp_path: Path) -> None:
    card = '[[djinn]]\nid = "p"\nname = "P"\nvp = 1\nkind = "p"\ncost = ""\n\n'
    power = '[[power]]\ndeck = "djinns"\nkind = "p"\n'
    for body, wanted in (
        (
            'on = "kill"\nredirects = "palace"\neffects = [{ coins = 1 }]\n',
            "power 'djinns:p': a placement is redirected by a used power only",
        ),
        (
            'on = "use"\nredirects = "palace"\nstages = ["sell"]\n'
            'effects = [{ place = "palace" }]\n',
            "power 'djinns:p': stages: 'sell': a placement is redirected at a tile's action "
            '("tile:<kind>") or where an effect places it, no other decision',
        ),
        (
            'on = "use"\nredirects = "camel"\neffects = [{ coins = 1 }]\n',
            "power 'djinns:p': redirects 'camel', whose placements no power can redirect in "
            "these rules (these can: palace, palm-tree)",
        ),
    ):
        assert wanted in refusal(tmp_path, card + power + body)
