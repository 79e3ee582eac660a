"""At the table: decisions in plain words, options with their cost, what djinns and whims
do, and a five-player 6×7 screen that fits about 50 rows of an 80-column terminal."""

from __future__ import annotations

import functools
import io
import statistics
from collections.abc import Iterator

from rich.console import Console

from naqala.cli.decisions import djinn_power
from naqala.cli.play import Session
from naqala.core.actions import Action
from naqala.core.agents import RandomAgent
from naqala.core.engine import Rules, build_rules
from naqala.core.record import new_record
from naqala.core.stage import Stage
from naqala.core.state import State
from naqala.display.decisions import decision_title, option_label
from naqala.display.text import render_state
from naqala.testing.scenario import out_of_deck, player, turn_of

EXPANSION_SETS = ([], ["artisans"], ["djinns"], ["artisans", "djinns"])


@functools.cache
def rules_of(*expansions: str) -> Rules:
    return build_rules(list(expansions))


def decisions(rules: Rules, players: int, seeds: range) -> Iterator[State]:
    """Every state waiting for a player in random games."""
    for seed in seeds:
        state = rules.new_game(players, seed)
        agent = RandomAgent(seed)
        while not state.is_over:
            yield state
            state = rules.apply(state, agent.choose(rules, state, rules.legal_actions(state)))


def screen(rules: Rules, state: State, width: int = 80) -> str:
    """What ``naqala play`` shows at a decision: the picture, the title, the options."""
    record = new_record(rules, 0, len(state.players), ["human"] * len(state.players))
    console = Console(file=io.StringIO(), width=width, color_system=None)
    Session(rules, state, record, console, input).show()
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(text, str)
    return text


# -- titles and options ------------------------------------------------------------------------


def test_every_decision_has_a_title_in_plain_words() -> None:
    """In games of every expansion set, no decision is titled by its stage id."""
    for expansions in EXPANSION_SETS:
        rules = rules_of(*expansions)
        seen = set()
        for state in decisions(rules, 5 if "djinns" in expansions else 4, range(2)):
            title = decision_title(rules, state)
            assert title != state.decision.stage
            assert "tribe:" not in title and "tile:" not in title, title
            seen.add(state.decision.stage)
        assert {"bid", "pick", "drop", "sell"} <= seen


def test_builders_and_markets_say_what_is_decided() -> None:
    rules = rules_of()
    state = rules.new_game(3, 1)
    state = turn_of(rules, state, 0)
    titles = {}
    for stage in ("tribe:blue", "tile:small-market", "tile:large-market", "tile:sacred-place"):
        titles[stage] = rules.stages[stage].title(rules, state)
    assert titles["tile:small-market"] == "Small market: buy one card for 3 coins (of the first 3)"
    assert titles["tile:large-market"].startswith("Large market: buy 2 cards for 6 coins")
    assert titles["tile:sacred-place"].startswith("Sacred place: take a djinn for 2 elders")
    waiting = next(s for s in decisions(rules, 3, range(40)) if s.decision.stage == "tribe:blue")
    assert decision_title(rules, waiting).startswith("Builders: discard Fakirs?")


def test_market_options_show_their_cost() -> None:
    """``buy`` options of every market carry their price; other options nothing extra."""
    rules = rules_of("artisans")
    prices = {"tile:small-market": 3, "tile:large-market": 6, "tile:specialized-market": 4}
    found = set()
    for state in decisions(rules, 4, range(6)):
        stage = state.decision.stage
        if stage not in prices:
            continue
        for action in rules.legal_actions(state):
            label = option_label(rules, state, action)
            if action.kind == "buy":
                assert label == f"{action} ({prices[stage]} coins)"
                found.add(stage)
            elif action.kind == "skip":
                assert label == "skip"
    assert found == set(prices)


def test_sacred_place_options_name_the_djinn_and_the_payment() -> None:
    rules = rules_of()
    state = next(
        s for s in decisions(rules, 3, range(30)) if s.decision.stage == "tile:sacred-place"
    )
    labels = [option_label(rules, state, a) for a in rules.legal_actions(state)]
    djinns = [label for label in labels if label.startswith("djinn ")]
    assert djinns
    for label in djinns:
        djinn = label.split()[1]
        assert f"({rules.card_specs[djinn].name}, " in label
        assert label.endswith(("2 elders)", "1 elder + 1 Fakir)"))


class Ballot(Stage):
    """A plugin's own stage: it titles itself."""

    def title(self, rules: Rules, state: State) -> str:
        return "Vote: choose a tribe to honour"

    def option_note(self, rules: Rules, state: State, action: Action) -> str:
        return "free"


def test_a_plugins_own_stage_gives_its_title_and_notes() -> None:
    """``Stage.title`` and ``Stage.option_note`` are what the table shows; a stage that
    gives no title is shown by its name."""
    rules = build_rules()
    state = rules.new_game(3, 1)
    ballot = Ballot()
    ballot.name = state.decision.stage
    rules.stages[state.decision.stage] = ballot  # this Rules object only
    assert decision_title(rules, state) == "Vote: choose a tribe to honour"
    assert option_label(rules, state, Action("bid", ("0",))) == "bid 0 (free)"
    plain = Stage()
    plain.name = state.decision.stage
    rules.stages[state.decision.stage] = plain
    assert decision_title(rules, state) == state.decision.stage
    assert option_label(rules, state, Action("bid", ("0",))) == "bid 0"


# -- djinns and whims --------------------------------------------------------------------------


def test_a_players_djinns_show_their_power() -> None:
    """On the board, a line per djinn the viewer holds says what it does; at the prompt
    ``djinns`` (or ``help djinns``) lists every djinn held or face up with its power,
    while ``djinn <id> <payment>`` is still an action."""
    rules = rules_of()
    state = turn_of(rules, rules.new_game(3, 1), 0)
    state = player(rules, state, 0, djinns=["jafaar", "anun-nak"])
    state = player(rules, state, 1, djinns=["baal"])
    console = Console(file=io.StringIO(), width=80, color_system=None)
    console.print(render_state(rules, state, viewer=0))
    board = console.file.getvalue()  # type: ignore[attr-defined]
    for djinn in ("jafaar", "anun-nak"):
        brief = djinn_power(rules, djinn, brief=True)
        shown = [line.strip().rstrip("…") for line in board.splitlines()]
        assert any(len(text) > 20 and brief.startswith(text) for text in shown), brief
        assert brief.split(":")[0] + ":" in board
    assert "Ba'al:" not in board  # another player's: by name in the table only
    record = new_record(rules, 1, 3, ["human"] * 3)
    for typed in ("djinns", "djinn", "help djinns", "help djinn", "DJINNS", "? djinns"):
        out = io.StringIO()
        session = Session(rules, state, record, Console(file=out, width=300), input)
        assert session.command(typed) is False
        said = out.getvalue()
        for djinn in ("jafaar", "anun-nak", "baal", *state.decks[1].row):
            assert djinn_power(rules, djinn) in said, typed
        assert "P2: " + djinn_power(rules, "baal") in said
    assert djinn_power(rules, "jafaar").startswith("Jafaar (6 VP; free; at final scoring): ")


def test_each_whim_on_a_city_shows_its_condition_and_reward() -> None:
    rules = rules_of("djinns")
    state = rules.new_game(4, 2)
    notes = rules.public_notes(state)
    assert notes[0].startswith("Whims on cities (")
    for line in notes[1:]:
        tile, _, whim = line.partition(" ")
        assert tile in state.geometry.names
        card = next(c for c in rules.card_specs.values() if whim.startswith(c.name + ":"))
        assert whim == f"{card.name}: {card.text.rstrip('.')} → {card.params['coins']} coins"
    assert len(notes) == 1 + sum(t.startswith("city-") for t in state.layout.tiles)


# -- the five-player screen ----------------------------------------------------------------------


def test_the_five_player_6x7_screen_fits_about_50_rows() -> None:
    """With both expansions and five players, the whole screen at a decision (board,
    tracks, whims, players, own cards and djinns, title and options) is about 50 rows of
    80 columns: at most 50 for half the decisions, at most 56 at any pick or drop (the
    face-up djinns' powers take a line each, and the legend says what a city's 5+ means)."""
    rules = rules_of("artisans", "djinns")
    heights = []
    for index, state in enumerate(decisions(rules, 5, range(3))):
        if index % 4:
            continue
        text = screen(rules, state)
        assert all(len(line) <= 80 for line in text.splitlines())
        height = len(text.splitlines())
        heights.append(height)
        if state.decision.stage in ("pick", "drop"):
            assert height <= 56, text
    assert statistics.median(heights) <= 50


def test_a_long_decision_lists_a_few_options_and_options_lists_them_all() -> None:
    """A sale from a hand of all nine kinds of merchandise has 512 options: the screen shows
    the first few and how many more (so it still fits about 50 rows), ``options`` lists
    every one, and a number beyond the preview still chooses its option."""
    rules = rules_of("artisans", "djinns")
    state = turn_of(rules, rules.new_game(5, 3), 0, stage="sell")
    kinds = sorted({c.id for c in rules.card_specs.values() if c.deck == "resources"} - {"fakir"})
    state = player(rules, out_of_deck(rules, state, "resources", kinds), 0, cards=kinds)
    options = rules.legal_actions(state)
    assert len(options) == 2 ** len(kinds) > 30
    text = screen(rules, state)
    assert len(text.splitlines()) <= 54, text
    assert f"… and {len(options) - 6} more: type options" in text
    assert "6) " in text and "7) " not in text
    out = io.StringIO()
    record = new_record(rules, 1, 5, ["human"] * 5)
    session = Session(rules, state, record, Console(file=out, width=80), input)
    assert session.command("options") is False
    listed = out.getvalue()
    for number, action in enumerate(options, start=1):
        assert f"{number}) {session.option_text(action)}" in listed
    assert session.command(str(len(options))) is True
    assert session.record.actions[-1] == str(options[-1])


def test_counts_in_the_prompt_are_in_the_singular_for_one() -> None:
    """A decision with one option says ``(1 option)``, not ``(1 options)``."""
    rules = rules_of()
    state = rules.new_game(2, 1)
    while len(rules.legal_actions(state)) != 1:
        state = rules.apply(state, rules.legal_actions(state)[0])
    assert "(1 option)\n" in screen(rules, state)
