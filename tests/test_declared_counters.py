"""Only declared counters: a piece still to place (``piece.<token>``) is accepted only for
a piece some plugin declares, within the bank's tokens of its kind; a state's own
``extras`` hold the core's counters and those a plugin declares, as a player's do."""

from __future__ import annotations

import json

import pytest

from naqala.core.engine import build_rules
from naqala.core.serialize import StateFormatError, state_from_json, state_to_json


def state_data(expansions: list[str], players: int = 3) -> dict[str, object]:
    rules = build_rules(expansions)
    data: dict[str, object] = json.loads(state_to_json(rules, rules.new_game(players, 1)))
    return data


def refusal(data: object) -> str:
    with pytest.raises(StateFormatError) as caught:
        state_from_json(json.dumps(data))
    return str(caught.value)


def test_a_forged_piece_in_a_base_game_is_refused_with_its_path() -> None:
    """The issue's case: a million palaces to place would hold off the last-camel end."""
    data = state_data([])
    data["players"][0]["extras"] = {"piece.palace": 1_000_000}  # type: ignore[index]
    assert refusal(data) == (
        "$.players[0].extras.piece.palace: no player counter 'piece.palace' (round-used:*)"
    )


def test_the_artisans_declare_the_tent_and_the_bank_bounds_it() -> None:
    data = state_data(["artisans"])
    state_from_json(json.dumps(data))  # each player's one tent, still to place
    data["players"][1]["extras"]["piece.palace"] = 1  # type: ignore[index]
    assert refusal(data).startswith("$.players[1].extras.piece.palace: no player counter")
    data = state_data(["artisans"])
    data["players"][2]["extras"]["piece.tent"] = 7  # type: ignore[index]
    assert "$.players[2].extras.piece.tent: 9 tent pieces still to place in all, but the " in (
        refusal(data)
    )


def test_a_declared_piece_is_bounded_by_the_bank_for_any_plugin() -> None:
    """The bank's bound is the base game's, whoever declares the piece: a house rule
    giving palaces to place cannot give more than the bank holds."""
    from naqala.core.hookspecs import hookimpl
    from naqala.core.state import evolve, set_extra
    from naqala.core.validate import check_state

    class Palaces:
        NAME = "palaces"

        @hookimpl
        def naqala_player_counters(self) -> list[str]:
            return ["piece.palace"]

    rules = build_rules(extra_plugins=[Palaces()])
    state = rules.new_game(3, 1)
    bank = state.pool[rules.token_index["palace"]]
    p = state.players[0]
    fits = state.replace_player(0, evolve(p, extras=set_extra(p.extras, "piece.palace", bank)))
    assert check_state(rules, fits) == []
    over = state.replace_player(0, evolve(p, extras=set_extra(p.extras, "piece.palace", bank + 1)))
    assert [str(problem) for problem in check_state(rules, over)] == [
        f"$.players[0].extras.piece.palace: {bank + 1} palace pieces still to place in all, "
        f"but the bank holds {bank}"
    ]


@pytest.mark.parametrize(
    ("expansions", "players"),
    [([], 3), (["artisans"], 3), (["solo"], 1), (["thieves"], 4), (["djinns"], 5)],
)
def test_an_unknown_key_of_a_states_extras_is_refused_as_a_players_is(
    expansions: list[str], players: int
) -> None:
    data = state_data(expansions, players)
    data["extras"]["warp.drive"] = 3  # type: ignore[index]
    assert refusal(data).startswith(
        "$.extras.warp.drive: no state counter 'warp.drive' (aside.card.*, aside.meeple.*, "
        "effects.*"
    )
    del data["extras"]["warp.drive"]  # type: ignore[attr-defined]
    data["extras"]["effects.jafaar"] = 2  # type: ignore[index]
    state_from_json(json.dumps(data))


def test_each_box_declares_the_state_counters_it_keeps() -> None:
    """The names the boxes' own states hold are declared by them."""
    from naqala.core.validate import declared_names

    base = {"placing:*"}  # a token an effect placed, waiting for its tile (placing.py)
    assert declared_names(build_rules(), "naqala_state_counters") == base
    assert declared_names(build_rules(["artisans"]), "naqala_state_counters") == {
        *base,
        "flute.tile",
        "flute.left",
    }
    solo = declared_names(build_rules(["solo"]), "naqala_state_counters")
    assert {"sultan.white", "sultan.black", "sultan.camels", "sultan.lost"} <= solo
    thieves = declared_names(build_rules(["thieves"]), "naqala_state_counters")
    assert thieves == {*base, "thieves.running.*", "thieves.victim.*", "thieves.given.*"}
