"""A djinn changed in Python only fails the differential harness, at its first use.

``tests/test_native_differential.py`` shows this for a bid rule; here a djinn's power is
broken on the Python engine alone: Marid is content (the effects language), so the
Python interpreter of its power is made to pay its owner one coin more per meeple
dropped on the owner's tiles, and the harness names the first action where the engines
part: the drop that paid, and the owner's coins by JSON path. So CI catches a djinn's
drift, and an interpreter's, not only a stage's."""

from __future__ import annotations

import re

import pytest
from native_kit import require_native

from naqala.core.board import parse_tile
from naqala.core.content import CardSpec
from naqala.core.engine import Rules
from naqala.core.events import Event
from naqala.core.state import State
from naqala.native.bridge import NativeRules

#: games looked through for one where Marid pays (about one in sixteen at 3 players)
SEEDS = range(200)


def marid_pays(rules: Rules, players: int, seed: int) -> bool:
    """Whether Marid pays anybody in the random game of ``seed`` (played on Python)."""
    from naqala.core.simulate import play_game
    from naqala.core.state import effect_counts

    final, _ = play_game(rules, players, seed)
    return effect_counts(final).get("marid", 0) > 0


@pytest.fixture(scope="module")
def ported() -> tuple[Rules, NativeRules]:
    require_native()
    from naqala.native.differential import ported_rules

    return ported_rules()


def test_a_djinn_changed_in_python_only_is_caught(
    ported: tuple[Rules, NativeRules], monkeypatch: pytest.MonkeyPatch
) -> None:
    from naqala.core.agents import make_agent
    from naqala.core.simulate import agent_seed
    from naqala.native.differential import verify_game
    from naqala.plugins.base.common import gain_coins
    from naqala.plugins.base.effects import ReactingPower

    rules, bridge = ported
    honest = ReactingPower.on_event

    def overpaying(
        self: ReactingPower,
        rules: Rules,
        state: State,
        owner: int,
        card: CardSpec,
        event: Event,
    ) -> State | None:
        paid = honest(self, rules, state, owner, card, event)
        if paid is None or card.kind != "marid":
            return paid
        return gain_coins(paid, owner, 1)

    players = 3
    seed = next(seed for seed in SEEDS if marid_pays(rules, players, seed))
    with monkeypatch.context() as patched:
        patched.setattr(ReactingPower, "on_event", overpaying)
        report = verify_game(rules, bridge, players, seed)
    assert report.differences
    first = report.differences[0]
    found = re.fullmatch(
        r"after '([^']+)': \$\.players\[(\d)\]\.coins: (\d+) in Python, (\d+) native", first.what
    )
    assert found, first
    action = found.group(1)
    owner, python, native = map(int, found.groups()[1:])
    assert python == native + 1
    # replayed honestly, that action is a drop on a tile of Marid's owner, who holds it
    agents = [make_agent(rules, "random", agent_seed(seed, seat)) for seat in range(players)]
    state = rules.new_game(players, seed)
    for _ in range(first.action):
        options = rules.legal_actions(state)
        state = rules.apply(state, agents[state.decision.player].choose(rules, state, options))
    assert state.decision.stage == "drop"
    assert "marid" in state.players[owner].djinns
    tile = parse_tile(action.split()[1], state.layout.rows, state.layout.cols)
    assert state.board.owners[tile] == owner
    assert (
        str(agents[state.decision.player].choose(rules, state, rules.legal_actions(state)))
        == action
    )
    # and with the power left alone, the same game does not differ
    assert verify_game(rules, bridge, players, seed).differences == []
