"""The action codec and the observation encoder of a ruleset (``naqala.envs``): every
action of random games of every expansion set and the house rules has one index and
comes back from it; the same rules give the same codec in another process; a seat's
observation has a fixed size and does not change with what the seat cannot see."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.core.actions import Action
from naqala.core.agents import RandomAgent
from naqala.core.engine import Rules, build_rules
from naqala.core.state import NON_PLAYER, State
from naqala.core.views import determinize, view_for
from naqala.envs.codec import ActionCodec, CodecError, codec_for
from naqala.envs.observation import ObservationEncoder
from naqala.testing.scenario import board, player

RULESETS = [
    (),
    ("artisans",),
    ("djinns",),
    ("artisans", "djinns"),
    ("no-loops", "rich-villages", "big-viziers", "generous-jafaar"),
    ("artisans", "djinns", "shared-artisan-majority"),
    ("thieves",),
    ("artisans", "djinns", "thieves"),
    ("solo",),
]


def random_states(rules: Rules, players: int, seed: int) -> list[State]:
    """Every state of one random game."""
    state = rules.new_game(players, seed)
    agent = RandomAgent(seed)
    states = [state]
    while not state.is_over:
        state = rules.apply(state, agent.choose(rules, state, rules.legal_actions(state)))
        states.append(state)
    return states


@pytest.mark.parametrize("expansions", RULESETS, ids=lambda e: "+".join(e) or "base")
def test_every_action_of_random_games_has_one_index_and_comes_back(
    expansions: tuple[str, ...],
) -> None:
    rules = build_rules(list(expansions))
    codec = ActionCodec(rules)
    players = max(pc.players for pc in rules.content.player_counts)
    for seed, count in ((1, players), (2, min(2, players))):
        for state in random_states(rules, count, seed):
            legal = rules.legal_actions(state)
            indices = [codec.encode(a) for a in legal]
            assert len(set(indices)) == len(legal)
            assert all(0 <= i < codec.size for i in indices)
            assert [codec.decode(i) for i in indices] == legal
            mask = codec.mask(rules, state)
            assert sum(mask) == len(legal) and all(mask[i] for i in indices)


def test_the_codec_is_a_numbering_of_its_kinds_without_gaps() -> None:
    codec = codec_for(build_rules(["artisans", "djinns"]))
    assert codec_for(build_rules(["artisans", "djinns"])).fingerprint() == codec.fingerprint()
    ranges = codec.describe()
    assert ranges[0][1] == 0
    assert all(a[1] + a[2] == b[1] for a, b in itertools.pairwise(ranges))
    assert ranges[-1][1] + ranges[-1][2] == codec.size
    assert all(codec.encode(codec.decode(i)) == i for i in range(codec.size))


def test_actions_outside_the_codec_are_refused_by_name() -> None:
    codec = codec_for(build_rules())
    with pytest.raises(CodecError, match="'dance' with 1 argument"):
        codec.encode(Action("dance", ("a1",)))
    with pytest.raises(CodecError, match=r"argument 1 \('z9'\)"):
        codec.encode(Action("pick", ("z9",)))
    with pytest.raises(CodecError, match=r"outside 0\.\."):
        codec.decode(codec.size)


def test_another_process_builds_the_same_codec() -> None:
    """Same ruleset, same codec: fingerprints and the indices of one game's actions
    agree with a fresh Python process."""
    rules = build_rules(["artisans", "djinns"])
    codec = ActionCodec(rules)
    states = random_states(rules, 3, 5)[:60]
    here = [codec.legal(rules, s) for s in states]
    program = (
        "import json\n"
        "from naqala.core.agents import RandomAgent\n"
        "from naqala.core.engine import build_rules\n"
        "from naqala.envs.codec import ActionCodec\n"
        "rules = build_rules(['artisans', 'djinns'])\n"
        "codec = ActionCodec(rules)\n"
        "state, agent, found = rules.new_game(3, 5), RandomAgent(5), []\n"
        "for _ in range(60):\n"
        "    found.append(codec.legal(rules, state))\n"
        "    state = rules.apply(state, agent.choose(rules, state, rules.legal_actions(state)))\n"
        "print(json.dumps([codec.fingerprint(), codec.size, found]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, check=True
    )
    fingerprint, size, there = json.loads(done.stdout)
    assert (fingerprint, size, there) == (codec.fingerprint(), codec.size, here)


@pytest.mark.parametrize("expansions", RULESETS[:4], ids=lambda e: "+".join(e) or "base")
def test_observations_have_the_encoders_size_at_every_seat(expansions: tuple[str, ...]) -> None:
    rules = build_rules(list(expansions))
    encoder = ObservationEncoder(rules)
    assert sum(size for _, _, size, _ in encoder.layout()) == encoder.size
    assert all(len(labels) == size for _, _, size, labels in encoder.layout())
    for state in random_states(rules, 2, 3)[::25]:
        for seat in range(2):
            numbers = encoder.observe(state, seat)
            assert len(numbers) == encoder.size and min(numbers) >= 0


def test_what_a_seat_cannot_see_does_not_change_its_observation() -> None:
    """Determinizing for a seat redeals the others' hidden cards and every pile: the
    seat's numbers and text stay the same; another seat's change."""
    rules = build_rules(["artisans", "djinns"])
    encoder = ObservationEncoder(rules)
    state = random_states(rules, 3, 4)[120]
    other = determinize(rules, state, 0, 99)
    assert other != state
    assert encoder.observe(other, 0) == encoder.observe(state, 0)
    assert encoder.text(other, 0) == encoder.text(state, 0)
    assert encoder.text(state, 0) == json.dumps(
        view_for(rules, state, 0), sort_keys=True, separators=(",", ":")
    )
    assert any(encoder.text(other, seat) != encoder.text(state, seat) for seat in (1, 2))


def test_the_codec_command_prints_the_sizes() -> None:
    result = CliRunner().invoke(app, ["codec", "-x", "artisans", "--kinds"])
    assert result.exit_code == 0, result.output
    codec = codec_for(build_rules(["artisans"]))
    assert f"actions: {codec.size} " in result.output
    assert "workshop/1" in result.output
    bad = CliRunner().invoke(app, ["codec", "-x", "nope"])
    assert bad.exit_code == 2 and "unknown expansion 'nope'" in bad.output


def test_observation_values_read_back_a_hand_counted_position() -> None:
    """A base 2-player position set by hand: two red and a yellow on b3 (owned by the
    second player), a white on c3, nothing else on the board; the first player has 17
    coins, two greens and fish, fish, gold. Each number is read back by its label, from
    both seats (the owner is ``seat +1`` from the first, ``seat +0`` from the second)."""
    rules = build_rules([])
    encoder = ObservationEncoder(rules)
    labels = [label for _, _, _, part in encoder.layout() for label in part]
    state = rules.new_game(2, 11)
    state = board(rules, state, {"b3": "RRY", "c3": "W"}, clear=True, owners={"b3": 1})
    state = player(rules, state, 0, coins=17, meeples="GG", cards=["fish", "gold", "fish"])
    state = player(rules, state, 1, coins=9, meeples="", cards=[])
    first = dict(zip(labels, encoder.observe(state, 0), strict=True))
    second = dict(zip(labels, encoder.observe(state, 1), strict=True))
    assert [first[f"b3 meeples {c}"] for c in "YWGBR"] == [1, 0, 0, 0, 2]
    assert [first[f"c3 meeples {c}"] for c in "YWGBR"] == [0, 1, 0, 0, 0]
    on_board = [k for k, v in first.items() if " meeples " in k and v]
    assert sorted(on_board) == ["b3 meeples R", "b3 meeples Y", "c3 meeples W"]
    assert (first["b3 owner seat +0"], first["b3 owner seat +1"]) == (0, 1)
    assert (second["b3 owner seat +0"], second["b3 owner seat +1"]) == (1, 0)
    assert (first["seat +0 coins"], first["seat +0 coins known"]) == (17, 1)
    assert (second["seat +1 coins"], second["seat +1 coins known"]) == (0, 0)  # face down
    assert first["seat +0 kept G"] == 2 and first["seat +0 kept R"] == 0
    assert (first["seat +0 resources fish"], first["seat +0 resources gold"]) == (2, 1)
    assert second["seat +1 resources fish"] == 0  # another's resources are hidden
    assert second["seat +1 resources hidden count"] == 3
    # 16 yellow, 20 white, 18 green, 18 blue and 18 red in the base game, less those out
    assert [first[f"bag {c}"] for c in "YWGBR"] == [15, 19, 16, 18, 16]


def test_a_tile_of_sultan_yazid_is_observed_as_a_non_players() -> None:
    """In the solo mode Sultan Yazid owns the tiles he takes (``NON_PLAYER``), who sits at
    no seat: each square has an owner number for him (the encoder raised ``KeyError: -2``
    on such a tile). Rules without a non-player opponent have no such number."""
    rules = build_rules(["solo"])
    encoder = ObservationEncoder(rules)
    labels = [label for _, _, _, part in encoder.layout() for label in part]
    state = rules.new_game(1, 11)
    state = board(rules, state, {"b3": "", "c3": ""}, owners={"b3": NON_PLAYER, "c3": 0})
    seen = dict(zip(labels, encoder.observe(state, 0), strict=True))
    assert (seen["b3 owner seat +0"], seen["b3 owner non-player"]) == (0, 1)
    assert (seen["c3 owner seat +0"], seen["c3 owner non-player"]) == (1, 0)
    assert sum(v for k, v in seen.items() if k.endswith("owner non-player")) == 1
    base = ObservationEncoder(build_rules([]))
    assert not any("non-player" in label for _, _, _, part in base.layout() for label in part)


def test_the_sizes_in_docs_ai_md_are_the_codes() -> None:
    """Every row of the table of sizes in docs/ai.md (``| ruleset | actions |
    observation |``) is what the codec and the encoder of that ruleset give."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "ai.md").read_text("utf-8")
    table = text[text.index("| ruleset | actions | observation |") :].split("\n\n")[0]
    rows = [line.strip("|").split("|") for line in table.splitlines()[2:]]
    assert len(rows) >= 5
    for name, actions, observation in rows:
        names = [] if name.strip() == "base" else [n.strip() for n in name.split("+")]
        rules = build_rules(names)
        written = (int(actions), int(observation))
        assert written == (codec_for(rules).size, ObservationEncoder(rules).size), name
