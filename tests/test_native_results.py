"""A native game's result read from the kernel's plain data (``NativeState.reading``,
``kernel/src/results.rs``) is the result read from its Python state (``result_of``): the
score lines by category, the cards' effects, winners, flags, djinns held, tiles' worth and
first bidders, over every box, seat kinds and house rules; solo mode, whose verdict the
kernel does not read, falls back to the Python state, still the Python engine's result."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from native_kit import require_native

from naqala.core.simulate import agent_seed
from naqala.lab.native import read_natively
from naqala.lab.results import result_of, start_order
from naqala.lab.study import Ruleset, Study, play_task, rules_of
from naqala.native.bridge import NativeRules

#: the base game's djinns whose score lines the kernel writes (by card source)
SCORING_DJINNS = {"haurvatat", "jafaar", "shamhat", "al-amin"}


def both_readings(ruleset: Ruleset, players: int, seats: tuple[str, ...], seeds: range) -> set[str]:
    """Each game read natively and from its Python state, compared; the card sources of
    the score lines they saw."""
    rules = rules_of(ruleset)
    bridge = NativeRules(rules)
    sources: set[str] = set()
    for seed in seeds:
        start = bridge.new_game(players, seed)
        names = [seats[seat % len(seats)] for seat in range(players)]
        final, actions, rounds = start.play(
            [(name, agent_seed(seed, seat)) for seat, name in enumerate(names)]
        )
        first = tuple(start.first_bidders())
        assert first == start_order(bridge.to_python(start))
        played = [tuple(r) for r in rounds]
        native = read_natively(rules, final, seed, actions, names, first, played)
        assert native is not None, "the kernel writes these rules' score lines"
        python = result_of(rules, bridge.to_python(final), seed, actions, names, first, played)
        assert native == python
        reading = final.reading()
        assert reading is not None
        sources |= {line[1] for sheet in reading[1] for line in sheet}
    return sources


def test_random_base_games_read_natively_with_every_scoring_djinn() -> None:
    require_native()
    sources = both_readings(Ruleset(), 4, ("random",), range(60))
    assert sources >= SCORING_DJINNS  # each djinn's own score line was compared


@pytest.mark.parametrize("players", [2, 3])
def test_greedy_and_mcts_seats_read_natively(players: int) -> None:
    require_native()
    both_readings(Ruleset(), players, ("greedy", "mcts:8", "random"), range(2))


@pytest.mark.parametrize(
    "ruleset",
    [
        Ruleset(("big-viziers", "djinns-once-per-round")),
        Ruleset((), (), ("djinn:jafaar", "djinn:shamhat")),
    ],
    ids=["house-rules", "without"],
)
def test_house_rules_read_natively(ruleset: Ruleset) -> None:
    require_native()
    both_readings(ruleset, 3, ("random",), range(8))


@pytest.mark.parametrize(
    ("expansions", "players", "games"),
    [
        (("artisans", "djinns"), 5, 16),
        (("artisans",), 4, 20),
        (("djinns",), 4, 20),
        (("thieves",), 4, 20),
        (("thieves", "djinns", "artisans"), 3, 10),
    ],
    ids=["artisans-djinns", "artisans", "whims-box", "thieves", "every-box"],
)
def test_the_boxes_read_natively(expansions: tuple[str, ...], players: int, games: int) -> None:
    require_native()
    seats = ("random", "greedy", "mcts:8")
    sources = both_readings(Ruleset(expansions), players, seats, range(games))
    if "artisans" in expansions:
        assert "artisans" in sources
    if "djinns" in expansions:
        assert "great-lake" in sources  # the lake's worth, the djinns' lines included


def test_house_rules_of_the_boxes_read_natively() -> None:
    require_native()
    both_readings(
        Ruleset(("artisans", "djinns", "shared-artisan-majority")), 3, ("random",), range(10)
    )


def test_solo_falls_back_to_the_python_state() -> None:
    require_native()
    ruleset = Ruleset(("solo",))
    bridge = NativeRules(rules_of(ruleset))
    final, _, _ = bridge.new_game(1, 0).play([("random", 1)])
    assert final.reading() is None  # a verdict of its own: the kernel does not read it
    python = Study(ruleset, ("random",), seed=3)
    native = attrs.evolve(python, engine="native")
    for index in range(3):
        assert play_task((native, index)) == play_task((python, index))


def test_the_effects_languages_score_lines_read_natively(tmp_path: Path) -> None:
    """A new djinn's scoring power and a scoring trigger, both content, are written by
    the kernel's reading as the Python engine writes them."""
    cookbook = Path(__file__).resolve().parent.parent / "docs" / "examples" / "effects"
    trigger = tmp_path / "tiles_bonus.toml"
    trigger.write_text(
        '[house-rule]\nname = "tiles-bonus"\nversion = "1.0"\ndescription = "x"\n\n'
        '[[trigger]]\nid = "tiles-bonus"\non = "scoring"\n'
        'effects = [{ score = "tiles() // 2", category = "tiles" }]\n',
        encoding="utf-8",
    )
    ruleset = Ruleset.of([], [cookbook / "qarin.toml", trigger])
    sources = both_readings(ruleset, 3, ("random",), range(30))
    assert {"qarin", "tiles-bonus"} <= sources


def test_a_house_rules_own_deck_reads_natively() -> None:
    """The cookbook's relics, a deck of the rule's own lying on the oases: each relic
    held scores by its content power, in the kernel's reading as in Python's."""
    cookbook = Path(__file__).resolve().parent.parent / "docs" / "examples" / "effects"
    ruleset = Ruleset.of([], [cookbook / "relics.toml"])
    assert "relic" in both_readings(ruleset, 2, ("random",), range(20))
