"""The terminal picture of a position (naqala.display.text): it fits 80 columns, reads
without colour, hides other players' coins and cards, and shows every board fact."""

from __future__ import annotations

import io
import re
from pathlib import Path

import attrs
import pytest
from rich.console import Console

from naqala.core.agents import RandomAgent
from naqala.core.engine import Rules, build_rules
from naqala.core.hookspecs import hookimpl
from naqala.core.stage import Stage
from naqala.core.state import NOBODY, State, Turn, evolve
from naqala.core.views import determinize, view_for
from naqala.display.text import kind_abbreviation, render_state
from naqala.testing.scenario import (
    DJINN_DECK,
    base_rules,
    board,
    counts,
    deck,
    player,
    tokens,
    turn_of,
)

DATA = Path(__file__).resolve().parent / "data"
ANSI = re.compile(r"\x1b\[([0-9;]*)m")


class BigBoard:
    """Twelve meeple-less wells fill a 6×7 board; ending a move on one does nothing."""

    NAME = "render-big-board"

    @hookimpl
    def naqala_content_files(self) -> list[Path]:
        return [DATA / "render-6x7.toml"]

    @hookimpl
    def naqala_tile_actions(self) -> dict[str, Stage]:
        class Well(Stage):
            def enter(self, rules: Rules, state: State) -> State:
                return rules.proceed(state, self.name)

        return {"well": Well()}


def big_rules() -> Rules:
    return build_rules(extra_plugins=[BigBoard()])


def text_of(rules: Rules, state: State, viewer: int | None = None, width: int = 80) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(render_state(rules, state, viewer))
    return console.export_text()


def played(rules: Rules, players: int, seed: int, actions: int) -> State:
    """The position after ``actions`` random actions (or the end of the game)."""
    state = rules.new_game(players, seed)
    agent = RandomAgent(seed + 100)
    for _ in range(actions):
        if state.is_over:
            break
        state = rules.apply(state, agent.choose(rules, state, rules.legal_actions(state)))
    return state


def assert_fits(text: str, width: int = 80) -> None:
    too_long = [line for line in text.splitlines() if len(line) > width]
    assert not too_long, "\n".join(too_long)


# -- reading the picture back --------------------------------------------------------------


def grid(text: str, rows: int) -> tuple[list[list[list[str]]], list[list[str]], list[str]]:
    """The board cells (row → column → lines, stripped), the vertical border characters
    of each row's first line and the border lines between rows (top first)."""
    lines = text.splitlines()
    margin = len(str(rows)) + 1
    top = next(i for i, line in enumerate(lines) if "┌" in line)
    cells: list[list[list[str]]] = []
    verticals: list[list[str]] = []
    borders = [lines[top][margin:]]
    new_row = True
    for line in lines[top + 1 :]:
        body = line[margin:]
        if body[:1] in ("│", "┃"):
            parts = re.split("[│┃]", body)[1:-1]
            if new_row:
                cells.append([[] for _ in parts])
                verticals.append([ch for ch in body if ch in "│┃"])
                new_row = False
            for column, part in enumerate(parts):
                cells[-1][column].append(part.strip())
        else:
            borders.append(body)
            new_row = True
            if "└" in body:
                break
    assert len(cells) == rows
    return cells, verticals, borders


def cell(text: str, state: State, name: str) -> list[str]:
    cells, _, _ = grid(text, state.layout.rows)
    row, column = divmod(state.geometry.parse(name), state.layout.cols)
    return cells[row][column]


def player_line(text: str, seat: int) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"P{seat + 1} "))


def strip_ansi(output: str) -> tuple[str, set[int]]:
    """The plain text of terminal output and every SGR parameter it used."""
    params = {int(p) for found in ANSI.findall(output) for p in found.split(";") if p}
    return ANSI.sub("", output), params


# -- a constructed position ----------------------------------------------------------------

COINS = (741, 852, 963, 159)


def position(rules: Rules | None = None) -> State:
    """Player 1 is dropping meeples (a1 → b1, W and R in hand); known tiles, meeples,
    owners, tokens, holdings, tracks and rows."""
    rules = rules or base_rules()
    state = rules.new_game(4, 1)
    state = board(
        rules,
        state,
        {"a1": "YWWR", "b1": "G", "c3": "GGB", "f5": "YYYYWWWWGGGBBBRRR"},
        clear=True,
        tiles={"a1": "village-1", "b2": "oasis-1", "c3": "sacred-place-5", "d4": "large-market-2"},
        owners={"b2": 1, "d4": 3},
    )
    state = tokens(
        rules, state, {"b2": {"palm-tree": 2}, "d4": {"palace": 1}}, pool={"palm-tree": 7}
    )
    state = player(
        rules, state, 0, coins=COINS[0], meeples="YYW", cards=["fakir", "wheat", "fakir"]
    )
    state = player(rules, state, 0, djinns=["jafaar"])
    state = player(rules, state, 1, coins=COINS[1], cards=["jewels"], djinns=["baal", "boaz"])
    state = player(rules, state, 2, coins=COINS[2], meeples="WWWWWWW", camels=3)
    state = player(rules, state, 3, coins=COINS[3], cards=["ivory", "silk"])
    state = deck(rules, state, "resources", row=["gold", "fakir", "papyrus"])
    state = deck(rules, state, "djinns", row=["shamhat", "leta", "utug"])
    state = turn_of(rules, state, 0, stage="drop")
    geo = state.geometry
    state = attrs.evolve(
        state,
        turn=Turn(
            marker=0,
            start=geo.parse("a1"),
            path=(geo.parse("b1"),),
            hand=counts(rules, "WR"),
        ),
        bid_track=(2, NOBODY, 0, NOBODY),
        turn_track=(1, NOBODY, 3) + (NOBODY,) * 6,
        round=3,
    )
    return state


def check_position_facts(text: str, state: State) -> None:
    """Every fact of ``position()`` as the plain text shows it (viewer: player 1)."""
    rules = base_rules()
    assert text.splitlines()[0].startswith("Round 3 · P1 to decide · move a1→b1 hand WR")
    assert cell(text, state, "a1") == ["VIL b5", "YWWR"]
    assert cell(text, state, "b1")[1] == "G"
    assert cell(text, state, "b2") == ["OAS r8", "c2 2T"]  # no meeples: camel and tokens
    assert cell(text, state, "c3") == ["SAC b10", "GGB"]
    assert cell(text, state, "d4") == ["LMK r4", "c4 1H"]
    # too many meeples for letters: counts, wrapped inside the cell
    assert cell(text, state, "f5")[1:] == ["4Y4W3G3B", "3R"]
    lines = text.splitlines()
    assert any(re.match(r"Bid order +P3 · P1 ·$", line.rstrip()) for line in lines)
    assert any(
        re.match(r"Turn order +18:P2  12:·  8:P4  5:·  3:·  1:·  0:·  0:·  0:·$", line.rstrip())
        for line in lines
    )
    assert any(
        re.match(r"Resource row +gold fakir papyrus \(pile: \d+\)$", line.rstrip())
        for line in lines
    )
    # each face-up djinn on a line of its own, its power shortened to fit; beside them the
    # pile and where the whole texts are
    row = next(i for i, line in enumerate(lines) if line.startswith("Djinn row"))
    offered = [line.split(maxsplit=2) for line in lines[row : row + 3]]
    assert [words[:2] for words in offered] == [
        ["Djinn", "row"],
        ["pile:", str(len(state.decks[DJINN_DECK].draw))],
        ["help", "djinn"],
    ]
    shamhat, leta, utug = (words[2] for words in offered)
    assert shamhat.startswith("Shamhat 6 VP · free · at final scoring: Each of your elders")
    assert leta.startswith("Leta 4 VP · ") and utug.startswith("Utug 4 VP · ")
    bag = sum(state.bag)
    assert any(
        re.match(rf"Bank +7 palm trees, 9 palaces; bag {bag} meeples$", line.rstrip())
        for line in lines
    )
    # players: seat, coins (own only), viziers, elders, camels, tiles, cards, score, djinns
    mine = str(rules.scores(state)[0])  # the viewer's full score, coins and cards included
    assert player_line(text, 0).split() == [
        *("P1", "(you)", "*", str(COINS[0]), "2", "1", "8", "0", "3", mine, "Jafaar")
    ]
    assert player_line(text, 1).split() == [
        "P2",
        "?",
        "0",
        "0",
        "8",
        "1",
        "1",
        "?",
        "26+?",  # oasis 8, two palm trees 6, Ba'al 6 and Boaz 6; not its coins or jewels
        "Ba'al,",
        "Boaz",
    ]
    assert any(re.match(r"P1 \(you\) cards: fakir×2, wheat$", line.rstrip()) for line in lines)
    # seven elders 14; a large market 4 and a palace 5
    assert player_line(text, 2).split() == ["P3", "?", "0", "7", "3", "0", "0", "?", "14+?", "—"]
    assert player_line(text, 3).split() == ["P4", "?", "0", "0", "8", "1", "2", "?", "9+?", "—"]
    for letter, colour in zip(rules.letters, rules.colours, strict=True):
        assert f"{letter} {colour.name.lower()}" in text  # the legend
    assert "T palm tree" in text
    assert "H palace" in text


# -- tests ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "actions"), [(1, 0), (1, 119), (2, 60), (3, 250), (4, 2000)])
def test_a_four_player_5x6_game_fits_80_columns(seed: int, actions: int) -> None:
    rules = base_rules()
    state = played(rules, 4, seed, actions)
    text = text_of(rules, state, viewer=state.decision.player)
    assert_fits(text)
    cells, _, _ = grid(text, 5)
    assert [len(row) for row in cells] == [6] * 5
    assert text.splitlines()[1].split() == list("abcdef")


@pytest.mark.parametrize(("seed", "actions"), [(1, 0), (2, 60), (5, 180), (6, 2000)])
def test_a_6x7_board_fits_80_columns(seed: int, actions: int) -> None:
    rules = big_rules()
    state = played(rules, 4, seed, actions)
    assert (state.layout.rows, state.layout.cols) == (6, 7)
    text = text_of(rules, state, viewer=state.decision.player)
    assert_fits(text)
    cells, _, _ = grid(text, 6)
    assert [len(row) for row in cells] == [7] * 6
    assert text.splitlines()[1].split() == list("abcdefg")
    # wells are an unknown kind: first three letters, no value letter; they start empty
    for index, tile_id in enumerate(state.layout.tiles):
        if tile_id.startswith("well-"):
            row, column = divmod(index, 7)
            assert cells[row][column][0] == "WEL 2"
            if actions == 0:
                assert cells[row][column][1] == "·"


@pytest.mark.parametrize(("seed", "actions"), [(3, 0), (4, 150), (8, 2000)])
def test_both_expansions_with_five_players_fit_80_columns(seed: int, actions: int) -> None:
    """The real 6×7 game (Artisans and Djinns of Naqala, five players, the 12-spot turn
    track) fits 80 columns; cities show their printed "5+" and the whim on each city is
    listed under the tracks, by tile."""
    rules = build_rules(["artisans", "djinns"])
    state = played(rules, 5, seed, actions)
    text = text_of(rules, state, viewer=max(state.decision.player, 0))
    assert_fits(text)
    for index, tile_id in enumerate(state.layout.tiles):
        if tile_id.startswith("city-"):
            head = cell(text, state, state.geometry.name(index))[0]
            assert re.fullmatch(r"CIT [br]5\+", head), head
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Whims on cities ("))
    end = next(i for i, line in enumerate(lines) if line.startswith("Player "))
    block = " ".join(" ".join(lines[start + 1 : end]).split())
    cities = [
        state.geometry.name(index)
        for index, tile_id in enumerate(state.layout.tiles)
        if tile_id.startswith("city-")
    ]
    # each city with its whim's name, condition and reward (or no whim)
    found = re.findall(r"\b([a-g]\d)(?: \(P\d\))? (no whim|[^:]+: [A-Z][^→]+ → \d+ coins)", block)
    assert [city for city, _ in found] == cities, block


def test_a_crowded_6x7_position_fits_80_columns() -> None:
    """Many meeples on a tile, tokens, an owner and long djinn lists still fit."""
    rules = big_rules()
    state = rules.new_game(4, 3)
    state = board(rules, state, {"a1": "YYYYYWWWWWGGGGGBBBBBRRRRR", "g6": "YWGBRYWGBR"}, clear=True)
    state = attrs.evolve(
        state, board=attrs.evolve(state.board, owners=(3,) * 42, tokens=((12, 10),) * 42)
    )
    state = player(rules, state, 2, djinns=[d.id for d in rules.content.deck("djinns")], camels=0)
    state = player(rules, state, 0, cards=[c.id for c in rules.content.deck("resources")])
    state = turn_of(rules, state, 2, stage="drop")
    text = text_of(rules, state, viewer=0)
    assert_fits(text)
    assert cell(text, state, "a1")[1:4] == ["5Y5W5G5B", "5R c4 12T", "10H"]


def test_the_constructed_position_shows_every_fact() -> None:
    state = position()
    text = text_of(base_rules(), state, viewer=0)
    assert_fits(text)
    check_position_facts(text, state)


def test_the_picture_reads_without_colour_under_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    """NO_COLOR: the terminal output has no colour codes and still says everything."""
    monkeypatch.setenv("NO_COLOR", "1")
    state = position()
    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=True, color_system="truecolor")
    console.print(render_state(base_rules(), state, viewer=0))
    plain, params = strip_ansi(out.getvalue())
    assert params, "styles such as bold are still used"
    assert not params & COLOUR_PARAMS
    check_position_facts(plain, state)
    # and the recorded text of a colourless console
    recorder = Console(width=80, record=True, color_system=None)
    recorder.print(render_state(base_rules(), state, viewer=0))
    check_position_facts(recorder.export_text(), state)


COLOUR_PARAMS = set(range(30, 50)) | set(range(90, 108))


def test_the_picture_reads_on_a_no_color_console() -> None:
    state = attrs.evolve(
        position(),
        layout=attrs.evolve(position().layout, walls=frozenset({(0, 1)}), blocked=frozenset()),
    )
    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=True, no_color=True)
    console.print(render_state(base_rules(), state, viewer=0))
    plain, params = strip_ansi(out.getvalue())
    assert not params & COLOUR_PARAMS
    check_position_facts(plain, state)
    _, verticals, _ = grid(plain, 5)
    assert verticals[0][1] == "┃"


def test_colour_is_used_when_the_terminal_has_it() -> None:
    """Value colours and meeples are coloured as well as lettered."""
    out = io.StringIO()
    console = Console(file=out, width=80, force_terminal=True, color_system="standard")
    console.print(render_state(base_rules(), position(), viewer=0))
    _, params = strip_ansi(out.getvalue())
    assert {31, 34} <= params  # red and blue


def test_only_the_viewer_sees_coins_and_cards() -> None:
    rules = base_rules()
    state = position()
    for viewer in range(4):
        text = text_of(rules, state, viewer=viewer)
        for seat in range(4):
            line = player_line(text, seat)
            if seat == viewer:
                assert str(COINS[seat]) in line.split()
            else:
                column = 2 if seat == state.decision.player else 1  # after "P1 *"
                assert line.split()[column] == "?"
                assert f" {len(state.players[seat].cards)} ? " in line  # count, not cards
                assert str(COINS[seat]) not in text  # not in their row, nor anywhere
        assert ("jewels" in text) == (viewer == 1)
        assert ("ivory" in text) == (viewer == 3)
        assert ("wheat" in text) == (viewer == 0)
    nobody = text_of(rules, state, viewer=None)
    assert not any(str(coins) in nobody for coins in COINS)
    assert "(you)" not in nobody
    assert "cards:" not in nobody
    assert all(player_line(nobody, seat).split()[1] == "?" for seat in (1, 3))


def test_walls_and_impassable_tiles_show() -> None:
    rules = base_rules()
    state = rules.new_game(4, 1)
    state = attrs.evolve(
        state,
        layout=attrs.evolve(state.layout, walls=frozenset({(0, 1)}), blocked=frozenset({7})),
        board=attrs.evolve(
            state.board,
            meeples=tuple(
                (0,) * len(rules.colours) if i == 7 else m
                for i, m in enumerate(state.board.meeples)
            ),
        ),
    )
    text = text_of(rules, state)
    assert_fits(text)
    cells, verticals, borders = grid(text, 5)
    assert verticals[0] == ["│", "┃", "│", "│", "│", "│", "│"]  # a1 ┃ b1
    assert all(v == ["│"] * 7 for v in verticals[1:])
    assert "━" not in "".join(borders)
    assert borders[0][11] == "┰"  # the wall meets the top border heavily
    blocked = cells[1][1]  # b2 is tile 7
    assert blocked[0].split()[0].isupper()
    assert blocked[1:] == ["#" * 9] * (len(blocked) - 1)  # filled to the row's height
    assert "#### impassable" in text
    assert "┃━ mountain" in text


def test_a_wall_between_rows_is_a_heavy_horizontal_border() -> None:
    rules = base_rules()
    state = rules.new_game(4, 1)
    state = attrs.evolve(state, layout=attrs.evolve(state.layout, walls=frozenset({(2, 8)})))
    text = text_of(rules, state)
    _, verticals, borders = grid(text, 5)
    segments = [borders[1][1 + 11 * c : 11 * (c + 1)] for c in range(6)]  # rows 1 and 2
    assert segments[2] == "━" * 10  # between c1 and c2
    assert all(segment == "─" * 10 for c, segment in enumerate(segments) if c != 2)
    assert borders[1][0] + borders[1][-1] == "├┤"
    assert borders[1][22] + borders[1][33] == "┾┽"  # junctions on either end of the wall
    assert all(set(line) <= set("─┌┐└┘┬┴├┤┼") for i, line in enumerate(borders) if i != 1)
    assert all(v == ["│"] * 7 for v in verticals)


def test_the_header_follows_the_game() -> None:
    rules = base_rules()
    state = rules.new_game(3, 1)
    first = text_of(rules, state).splitlines()[0]
    assert first == f"Round 1 · P{state.decision.player + 1} to decide"
    state = turn_of(rules, state, 1)
    assert text_of(rules, state).splitlines()[0] == "Round 1 · P2 to decide"
    over = played(rules, 3, 1, 5000)
    assert over.is_over
    assert text_of(rules, over).splitlines()[0].startswith(f"Round {over.round} · game over")


def test_kind_abbreviations() -> None:
    assert kind_abbreviation("sacred-place") == "SAC"
    assert kind_abbreviation("small-market") == "SMK"
    assert kind_abbreviation("large-market") == "LMK"
    assert kind_abbreviation("well") == "WEL"
    assert kind_abbreviation("chasm") == "CHA"


def test_the_viewer_reads_what_their_expansion_cards_do() -> None:
    """Under the players, the viewer's own whims and items are listed with their text
    (what to aim for, what a card does); another player's are not shown."""
    rules = build_rules(["artisans", "djinns"])
    state = rules.new_game(3, 3)
    state = player(rules, state, 0, hands={"whims": ["grand-vizier"], "items": ["horn-of-plenty"]})
    whim = rules.card_specs["grand-vizier"]
    mine = " ".join(text_of(rules, state, viewer=0).split())
    assert f"Grand Vizier: {whim.text}" in mine
    assert f"Horn of Plenty: {rules.card_specs['horn-of-plenty'].text}" in mine
    theirs = " ".join(text_of(rules, state, viewer=1).split())
    assert whim.text not in theirs


# -- one definition of what a seat may see ------------------------------------------------


class HiddenDjinns:
    """A house rule that holds djinns face down (``naqala_hidden_decks``)."""

    NAME = "render-hidden-djinns"

    @hookimpl
    def naqala_hidden_decks(self, rules: Rules) -> list[str]:
        return ["djinns"]


def test_a_deck_the_rules_hide_is_hidden_in_the_picture() -> None:
    """The picture hides what the engine's view hides, not a list of its own: when a
    plugin holds djinns face down, another player's djinns show as a count."""
    rules = build_rules(extra_plugins=[HiddenDjinns()])
    state = position(rules)
    assert view_for(rules, state, 0)["players"][1]["hidden"]["djinns"] == 2
    mine = text_of(rules, state, viewer=1)
    assert player_line(mine, 1).split()[-2:] == ["Ba'al,", "Boaz"]
    for viewer in (0, 2, None):
        text = text_of(rules, state, viewer=viewer)
        assert "Ba'al" not in text and "Boaz" not in text
        assert player_line(text, 1).split()[-2:] == ["2", "?"]
    assert "Ba'al" in text_of(base_rules(), position(), viewer=0)  # public in the base game


@pytest.mark.parametrize(
    ("expansions", "players", "seed", "actions"),
    [((), 4, 3, 60), (("artisans",), 3, 5, 90), (("artisans", "djinns"), 5, 7, 120)],
)
def test_the_picture_for_a_seat_shows_nothing_its_view_hides(
    expansions: tuple[str, ...], players: int, seed: int, actions: int
) -> None:
    """Two states with the same view for a seat give that seat the same picture: the
    other players' coins (made distinct first), their hidden cards and every draw pile
    are dealt again by ``determinize``, and nothing in the picture changes. The state
    itself does change, so the picture would differ if it showed any of it."""
    rules = build_rules(list(expansions))
    state = played(rules, players, seed, actions)
    state = evolve(
        state, players=tuple(evolve(p, coins=4000 + 111 * i) for i, p in enumerate(state.players))
    )
    for seat in range(players):
        other = determinize(rules, state, seat, seed=99 + seat)
        assert other != state
        text = text_of(rules, state, viewer=seat)
        assert text_of(rules, other, viewer=seat) == text
        assert all(str(4000 + 111 * i) not in text for i in range(players) if i != seat)
        assert str(4000 + 111 * seat) in text


def test_the_plugins_say_what_the_turn_spots_and_cost_codes_read() -> None:
    """The terminal picture knows no rule: the turn-order spots and a face-up djinn's
    cost are written as the plugins' ``naqala_display`` words them, like the SVG's."""
    from naqala.display.hints import Display

    class Wording:
        NAME = "render-wording"

        @hookimpl
        def naqala_display(self, rules: Rules, state: State) -> Display:
            spots = tuple(f"£{index}" for index in range(len(state.turn_track)))
            codes = {spec.cost: f"cost {spec.cost or 'nil'}!" for spec in rules.card_specs.values()}
            return Display(turn_spots=spots, costs=codes)

    rules = build_rules(extra_plugins=[Wording()])
    state = rules.new_game(3, 4)
    console = Console(width=200, record=True, color_system=None)
    console.print(render_state(rules, state))
    text = console.export_text()
    assert "£0:" in text and f"£{len(state.turn_track) - 1}:" in text
    for djinn in state.decks[DJINN_DECK].row:
        spec = rules.card_specs[djinn]
        assert f"{spec.name} {spec.vp} VP · cost {spec.cost or 'nil'}! · " in text
