"""The board as an SVG picture: valid SVG 1.1, deterministic, hidden information kept
hidden, every component of every installed box drawn, and the commands that write it."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import attrs
import pytest
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.core import build_rules
from naqala.core.engine import DJINNS, RESOURCES, Rules
from naqala.core.hookspecs import hookimpl
from naqala.core.record import new_record, save_record
from naqala.core.serialize import state_to_json
from naqala.core.state import State, replace_at
from naqala.display import BoardPicture, board_svg, svg_parts
from naqala.display.hints import collect
from naqala.display.html import replay_html

SVG = "{http://www.w3.org/2000/svg}"
#: the elements of SVG 1.1 the renderer may use (a subset of the specification's list)
SVG11_ELEMENTS = {
    "svg", "g", "title", "desc", "rect", "circle", "ellipse", "line", "polyline",
    "polygon", "path", "text", "tspan", "defs", "use",
}  # fmt: skip
MAIN = "from naqala.cli.app import main; main()"
BOXES = [(), ("artisans",), ("djinns",), ("artisans", "djinns")]
runner = CliRunner()


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == f"{SVG}svg"
    return root


def texts(root: ET.Element) -> str:
    """Every text and title of the picture, joined by spaces (wrapped lines read on)."""
    return " ".join(
        "".join(el.itertext()) for el in root.iter() if el.tag in (f"{SVG}text", f"{SVG}title")
    )


def played(rules: Rules, players: int, seed: int, steps: int) -> State:
    """A position ``steps`` random actions into a game (or its end)."""
    state = rules.new_game(players, seed)
    chooser = random.Random(seed)
    for _ in range(steps):
        options = rules.legal_actions(state)
        if not options:
            break
        state = rules.apply(state, chooser.choice(options))
    return state


def finished(rules: Rules, players: int, seed: int) -> State:
    state = played(rules, players, seed, 10_000)
    assert state.is_over
    return state


@pytest.mark.parametrize("box", BOXES, ids=lambda b: "+".join(b) or "base")
def test_the_picture_is_valid_svg_1_1_with_a_tile_group_per_tile(box: tuple[str, ...]) -> None:
    rules = build_rules(box)
    state = played(rules, 4, 2, 60)
    root = parse(board_svg(rules, state, seat=0))
    assert root.get("version") == "1.1"
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    used = {el.tag.removeprefix(SVG) for el in root.iter()}
    assert used <= SVG11_ELEMENTS, used - SVG11_ELEMENTS
    assert all(el.tag.startswith(SVG) for el in root.iter()), "an element outside SVG"
    tiles = [g for g in root.iter(f"{SVG}g") if g.get("class") == "tile"]
    assert len(tiles) == state.layout.rows * state.layout.cols
    names = {g.get("id") for g in tiles}
    assert names == {f"tile-{name}" for name in state.geometry.names}
    assert all(g.find(f"{SVG}title") is not None for g in tiles)


def test_the_same_state_gives_the_same_bytes_in_another_process(tmp_path: Path) -> None:
    rules = build_rules(["artisans", "djinns"])
    state = played(rules, 5, 4, 90)
    path = tmp_path / "state.json"
    path.write_text(state_to_json(rules, state), encoding="utf-8")
    here = board_svg(rules, state, seat=1)
    assert board_svg(rules, state, seat=1) == here
    other = subprocess.run(
        [sys.executable, "-c", MAIN, "render", str(path), "--svg", "--seat", "2"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONHASHSEED": "123"},
    )
    assert other.stdout == here


def test_coins_and_cards_show_only_for_the_seat_viewing_until_the_game_ends() -> None:
    rules = build_rules()
    state = played(rules, 3, 5, 40)
    coins = [p.coins for p in state.players]
    mine = texts(parse(board_svg(rules, state, seat=1)))
    assert f"Coins {coins[1]} ·" in mine
    assert mine.count("Coins ? ·") == 2
    assert "Cards (" in mine and mine.count("(hidden)") == 2
    public = texts(parse(board_svg(rules, state)))
    assert public.count("Coins ? ·") == 3
    end = finished(rules, 3, 5)
    shown = texts(parse(board_svg(rules, end)))
    assert "Coins ?" not in shown and "(hidden)" not in shown
    for player in end.players:
        assert f"Coins {player.coins} ·" in shown


def test_a_hidden_hand_is_not_in_the_picture_at_all() -> None:
    """Not only not drawn: the names of another player's cards are nowhere in the file."""
    rules = build_rules()
    state = played(rules, 2, 3, 10)
    state = state.replace_player(1, state.players[1].with_hand(RESOURCES, ("gold",)))
    state = state.replace_player(0, state.players[0].with_hand(RESOURCES, ("ivory",)))
    row = state.decks[RESOURCES]
    state = attrs.evolve(
        state, decks=replace_at(state.decks, RESOURCES, attrs.evolve(row, row=("fish",)))
    )
    svg = board_svg(rules, state, seat=0)
    assert "Ivory" in svg and "Gold" not in svg


class HiddenDjinns:
    """A house rule that holds djinns face down (``naqala_hidden_decks``)."""

    NAME = "svg-hidden-djinns"

    @hookimpl
    def naqala_hidden_decks(self, rules: Rules) -> list[str]:
        return ["djinns"]


def test_the_picture_hides_what_the_seats_view_hides() -> None:
    """The SVG reads the engine's view (``view_for``), the same as the terminal picture:
    when a plugin holds djinns face down, another player's djinns are a count and their
    names are nowhere in the file; the seat's own are named."""
    rules = build_rules(extra_plugins=[HiddenDjinns()])
    state = played(rules, 2, 3, 0)
    state = state.replace_player(1, state.players[1].with_hand(DJINNS, ("baal", "boaz")))
    state = state.replace_player(0, state.players[0].with_hand(DJINNS, ("leta",)))
    row = state.decks[DJINNS]
    state = attrs.evolve(
        state, decks=replace_at(state.decks, DJINNS, attrs.evolve(row, row=("utug",)))
    )
    svg = board_svg(rules, state, seat=0)
    assert "Leta" in svg and "Ba'al" not in svg and "Boaz" not in svg
    assert "Djinns: 2 (hidden)" in texts(parse(svg))
    assert "Ba'al" in board_svg(rules, state, seat=1)
    assert "Ba'al" in board_svg(build_rules(), state, seat=0)  # public in the base game


def test_the_move_in_progress_is_highlighted_path_and_final_tile() -> None:
    rules = build_rules()
    state = played(rules, 2, 1, 0)
    while state.decision.stage != "pick":
        state = rules.apply(state, rules.legal_actions(state)[0])
    state = rules.apply(state, rules.legal_actions(state)[0])
    drop = rules.legal_actions(state)[0]
    state = rules.apply(state, drop)
    assert state.turn is not None
    route = [state.geometry.name(t) for t in (state.turn.start, *state.turn.path)]
    root = parse(board_svg(rules, state))
    groups = [g for g in root.iter(f"{SVG}g") if g.get("class") == "last-move"]
    assert len(groups) == 1
    assert groups[0].find(f"{SVG}polyline") is not None
    assert "→".join(route) in texts(root)
    before = parse(board_svg(rules, rules.new_game(2, 1)))
    assert not [g for g in before.iter(f"{SVG}g") if g.get("class") == "last-move"]


def test_mountains_the_chasm_the_great_lake_and_the_whims_on_the_cities() -> None:
    rules = build_rules(["artisans", "djinns"])
    state = rules.new_game(5, 6)
    root = parse(board_svg(rules, state))
    walls = [g for g in root.iter(f"{SVG}g") if g.get("class") == "mountains"]
    assert len(walls) == 1
    assert len(walls[0].findall(f"{SVG}line")) == len(state.layout.walls)
    words = texts(root)
    assert "Chasm" in words and "Great Lake" in words
    whims = state.decks[rules.deck_index["whims"]].row
    for card in whims:
        assert rules.card_specs[card].name in words
    assert "5+" in words  # the cities' printed value


def test_every_tile_kind_piece_and_card_of_every_box_appears_in_a_picture() -> None:
    """Walk the content of every installed box: each tile kind, meeple colour, token,
    resource, djinn and plugin card is described by a plugin's look (never the fallback)
    and is drawn in some picture."""
    for box in BOXES:
        rules = build_rules(box)
        state = rules.new_game(4 if "djinns" not in box else 5, 3)
        looks = collect(rules, state)
        kinds = {spec.kind for spec in rules.content.tiles}
        assert kinds <= set(looks.tiles), kinds - set(looks.tiles)
        assert {c.id for c in rules.colours} <= set(looks.meeples)
        assert {t.id for t in rules.tokens} <= set(looks.tokens)
        # every token on a tile, every card and djinn in hands, seen by their owners
        board = state.board
        tokens = tuple(
            tuple(1 if i == t % len(rules.tokens) else 0 for i in range(len(rules.tokens)))
            for t in range(len(board.tokens))
        )
        owners = tuple(t % len(state.players) for t in range(len(board.owners)))
        state = attrs.evolve(state, board=attrs.evolve(board, tokens=tokens, owners=owners))
        player = state.players[0]
        for index, deck in enumerate(rules.deck_names):
            player = player.with_hand(index, tuple(sorted(c.id for c in rules.content.deck(deck))))
        state = state.replace_player(0, player)
        root = parse(board_svg(rules, state, seat=0))
        words = texts(root)
        for kind in kinds:
            assert looks.tiles[kind].name in words, (box, kind)
        for index, colour in enumerate(rules.colours):
            assert looks.meeples[colour.id].name in words, (box, colour.id)
            assert any(board.meeples[t][index] for t in range(len(board.meeples)))
        for token in rules.tokens:
            assert looks.tokens[token.id].name in words, (box, token.id)
        for card in rules.card_specs.values():
            assert (card.name or card.id.capitalize()) in words, (box, card.id)
        djinn_ids = {c.id for c in rules.content.deck("djinns")}
        assert set(state.decks[DJINNS].row) <= djinn_ids


def test_a_notebook_shows_the_board() -> None:
    rules = build_rules()
    state = rules.new_game(3, 1)
    picture = BoardPicture(rules, state, seat=0)
    svg = picture._repr_svg_()
    assert svg.startswith("<svg")
    assert svg == "".join(svg_parts(rules, state, seat=0))
    parse(picture.to_svg())


# -- the commands ------------------------------------------------------------------------------


def test_naqala_render_svg_for_a_seat(tmp_path: Path) -> None:
    rules = build_rules()
    state = played(rules, 3, 2, 30)
    path = tmp_path / "state.json"
    path.write_text(state_to_json(rules, state), encoding="utf-8")
    result = runner.invoke(app, ["render", str(path), "--svg", "--seat", "3"])
    assert result.exit_code == 0, result.output
    assert result.stdout == board_svg(rules, state, seat=2)
    words = texts(parse(result.stdout))
    assert "P3 (you)" in words
    terminal = runner.invoke(app, ["render", str(path), "--seat", "3"])
    assert terminal.exit_code == 0 and "P3 (you)" in terminal.stdout


@pytest.mark.parametrize("seat", ["0", "4"])
def test_naqala_render_refuses_a_seat_that_is_not_in_the_game(tmp_path: Path, seat: str) -> None:
    rules = build_rules()
    path = tmp_path / "state.json"
    path.write_text(state_to_json(rules, rules.new_game(3, 1)), encoding="utf-8")
    result = runner.invoke(app, ["render", str(path), "--svg", "--seat", seat])
    assert result.exit_code == 2
    assert result.stdout == ""


def test_naqala_render_of_a_file_that_is_not_a_state_fails_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "nothing.json"
    path.write_text("{}", encoding="utf-8")
    result = runner.invoke(app, ["render", str(path), "--svg"])
    assert result.exit_code == 2
    assert result.stdout == "" and "not a naqala state" in result.stderr


def short_record(tmp_path: Path) -> tuple[Path, Rules, list[str]]:
    rules = build_rules(["artisans"])
    state = rules.new_game(2, 8)
    chooser = random.Random(8)
    actions = []
    for _ in range(40):
        action = chooser.choice(rules.legal_actions(state))
        actions.append(str(action))
        state = rules.apply(state, action)
    record = attrs.evolve(new_record(rules, 8, 2, ["human", "ai:random"]), actions=actions)
    path = tmp_path / "game.json"
    save_record(path, record)
    return path, rules, actions


def test_naqala_replay_html_writes_one_page_with_every_step(tmp_path: Path) -> None:
    record, _, actions = short_record(tmp_path)
    out = tmp_path / "game.html"
    result = runner.invoke(app, ["replay", str(record), "--html", str(out)])
    assert result.exit_code == 0, result.output
    assert f"{len(actions)} steps" in result.stdout
    page = out.read_text(encoding="utf-8")
    assert "http://" not in page.replace("http://www.w3.org/2000/svg", "")
    assert "https://" not in page and "<script src" not in page
    data = json.loads(page.split('id="replay-data">')[1].split("</script>")[0])
    assert len(data["frames"]) == len(actions) + 1
    assert all(
        "".join(data["parts"][k] for k in frame).startswith("<svg") for frame in data["frames"]
    )
    for number, text in enumerate(actions, start=1):
        assert f'id="move-{number}"' in page and f"<code>{text}</code>" in page
    assert "Scores so far" in data["tables"][0]
    mask = os.umask(0)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask  # the usual mode of a new file
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_the_replay_page_shows_the_final_score_lines_at_the_last_step() -> None:
    rules = build_rules()
    state = rules.new_game(2, 4)
    states, actions = [state], []
    chooser = random.Random(4)
    while not state.is_over:
        action = chooser.choice(rules.legal_actions(state))
        actions.append(str(action))
        state = rules.apply(state, action)
        states.append(state)
    page = replay_html(rules, states, actions, ["ai:random", "ai:random"], "a game")
    data = json.loads(page.split('id="replay-data">')[1].split("</script>")[0])
    last = data["tables"][data["scoreOf"][-1]]
    assert "Final scores" in last and "★" in last
    scores = rules.scores(state)
    assert f"with {max(scores)} points" in last
    assert all("Final scores" not in data["tables"][k] for k in data["scoreOf"][:-1])


def test_naqala_replay_html_cannot_write_fails_cleanly(tmp_path: Path) -> None:
    record, _, _ = short_record(tmp_path)
    out = tmp_path / "missing" / "game.html"
    result = runner.invoke(app, ["replay", str(record), "--html", str(out)])
    assert result.exit_code == 2
    assert "cannot write" in result.stderr
    assert not out.exists()


def test_an_action_needs_its_state_in_the_replay_page() -> None:
    rules = build_rules()
    state = rules.new_game(2, 1)
    with pytest.raises(ValueError, match="2 actions need 3 states"):
        replay_html(rules, [state], ["bid 0", "bid 1"], ["a", "b"], "t")
