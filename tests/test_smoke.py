"""A first end-to-end check: random games of every player count finish."""

from naqala.core.simulate import play_game
from naqala.testing.scenario import base_rules


def test_random_games_finish_for_two_to_four_players() -> None:
    rules = base_rules()
    for players in (2, 3, 4):
        state, actions = play_game(rules, players, seed=players)
        assert state.is_over
        assert actions > 50
        assert len(rules.winners(state)) >= 1
