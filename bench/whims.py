"""How often each Sultan's Whim's condition is met: the share of players who meet it at
some decision of their own turn, in games between greedy AI players. Used to set the
whims' rewards (docs/rules-notes.md); slow (greedy players plan every move).

    python bench/whims.py [--games 8] [--players 4] [-x artisans]
"""

from __future__ import annotations

import argparse
from collections import Counter

from naqala.core.agents import make_agent
from naqala.core.engine import Rules, build_rules
from naqala.core.state import State
from naqala.plugins.base.effects import Scope, UsedPower, holds

WHIMS = "whims"


def met_now(rules: Rules, state: State, player: int) -> set[str]:
    """The whims whose condition ``player`` meets in ``state``."""
    found = set()
    for card in rules.content.cards:
        if card.deck != WHIMS:
            continue
        power = rules.power_of(card)
        assert isinstance(power, UsedPower)
        if holds(rules, state, power.spec.when, Scope(player, player, None, card.params, card.id)):
            found.add(card.id)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("-x", "--expansion", action="append", default=[])
    args = parser.parse_args()
    rules = build_rules(sorted({*args.expansion, "djinns"}))
    ever: Counter[str] = Counter()
    for seed in range(args.games):
        state = rules.new_game(args.players, seed)
        agents = [make_agent(rules, "greedy", seed * 7 + seat) for seat in range(args.players)]
        seen: set[tuple[int, str]] = set()
        while not state.is_over:
            player = state.decision.player
            turn = state.turn
            if turn is not None and state.markers[turn.marker] == player:
                seen.update((player, card) for card in met_now(rules, state, player))
            action = agents[player].choose(rules, state, rules.legal_actions(state))
            state = rules.apply(state, action)
        ever.update(card for _, card in seen)
        print(f"game {seed + 1}/{args.games} scores {rules.scores(state)}", flush=True)
    total = args.games * args.players
    print(f"{'whim':24} coins  met by")
    for card in rules.content.cards:
        if card.deck == WHIMS:
            print(f"{card.id:24} {card.param('coins'):5}  {ever[card.id] / total:6.2f}")


if __name__ == "__main__":
    main()
