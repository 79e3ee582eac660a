"""The board as an SVG picture: valid SVG 1.1, deterministic, hidden information kept
hidden, every component of every installed box drawn, and the commands that write it."""

from __future__ import annotations

import importlib.util
import json
import os
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import attrs
import pytest
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.core import build_rules
from naqala.core.engine import Rules
from naqala.core.hookspecs import hookimpl
from naqala.core.record import new_record, save_record
from naqala.core.serialize import state_to_json
from naqala.core.state import ASIDE_CARD, ASIDE_MEEPLE, State, Turn, replace_at, set_aside
from naqala.display import BoardPicture, board_svg, svg_parts
from naqala.display.hints import collect
from naqala.display.html import replay_html
from naqala.testing.scenario import DJINN_DECK, RESOURCE_DECK

SVG = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parent.parent
PICTURES = ROOT / "docs" / "pictures"
#: the elements of SVG 1.1 the renderer may use (a subset of the specification's list)
SVG11_ELEMENTS = {
    "svg", "g", "title", "desc", "rect", "circle", "ellipse", "line", "polyline",
    "polygon", "path", "text", "tspan", "defs", "use",
}  # fmt: skip
#: the presentation and geometry attributes of SVG 1.1 the renderer may write; ``data-*``
#: (HTML5 and SVG 2) only in the pictures for the web page (``picks=True``)
SVG11_ATTRIBUTES = {
    "version", "width", "height", "viewBox", "font-family", "font-size", "font-weight",
    "font-style", "text-anchor", "x", "y", "rx", "cx", "cy", "r", "x1", "y1", "x2", "y2",
    "points", "d", "fill", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap",
    "stroke-linejoin", "class", "id", "transform",
}  # fmt: skip
MAIN = "from naqala.cli.app import main; main()"
#: every installed box with a player count it allows
BOXES = [
    ((), 4),
    (("artisans",), 4),
    (("djinns",), 5),
    (("artisans", "djinns"), 5),
    (("thieves",), 3),
    (("artisans", "djinns", "thieves"), 5),
    (("solo",), 1),
]
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


def is_a(el: ET.Element, kind: str) -> bool:
    return kind in (el.get("class") or "").split()


@pytest.mark.parametrize(
    ("box", "players"),
    BOXES,
    ids=lambda v: ("+".join(v) or "base") if isinstance(v, tuple) else f"{v}p",
)
def test_the_picture_is_valid_svg_1_1_with_a_tile_group_per_tile(
    box: tuple[str, ...], players: int
) -> None:
    rules = build_rules(box)
    state = played(rules, players, 2, 60)
    root = parse(board_svg(rules, state, seat=0))
    assert root.get("version") == "1.1"
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    used = {el.tag.removeprefix(SVG) for el in root.iter()}
    assert used <= SVG11_ELEMENTS, used - SVG11_ELEMENTS
    assert all(el.tag.startswith(SVG) for el in root.iter()), "an element outside SVG"
    attributes = {name for el in root.iter() for name in el.attrib}
    assert attributes <= SVG11_ATTRIBUTES, attributes - SVG11_ATTRIBUTES
    tiles = [g for g in root.iter(f"{SVG}g") if is_a(g, "tile")]
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
    assert "Resources (" in mine and len(re.findall(r"Resources: \d+ \(hidden\)", mine)) == 2
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
    state = state.replace_player(1, state.players[1].with_hand(RESOURCE_DECK, ("gold",)))
    state = state.replace_player(0, state.players[0].with_hand(RESOURCE_DECK, ("ivory",)))
    row = state.decks[RESOURCE_DECK]
    state = attrs.evolve(
        state, decks=replace_at(state.decks, RESOURCE_DECK, attrs.evolve(row, row=("fish",)))
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
    state = state.replace_player(1, state.players[1].with_hand(DJINN_DECK, ("baal", "boaz")))
    state = state.replace_player(0, state.players[0].with_hand(DJINN_DECK, ("leta",)))
    row = state.decks[DJINN_DECK]
    state = attrs.evolve(
        state, decks=replace_at(state.decks, DJINN_DECK, attrs.evolve(row, row=("utug",)))
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


def screenshots_script() -> Any:
    spec = importlib.util.spec_from_file_location("screenshots", ROOT / "tools" / "screenshots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_reference_pictures_in_the_docs_are_drawn_by_today_s_renderer() -> None:
    """docs/pictures holds, for each shot of tools/screenshots.py, the SVG it draws today
    and its photograph of the same size; the README shows one. After a change to the
    picture, run ``python tools/screenshots.py``."""
    image = pytest.importorskip("PIL.Image")
    script = screenshots_script()
    assert {"base", "artisans", "artisans-djinns-5p"} <= set(script.SHOTS)
    for name in script.SHOTS:
        svg = PICTURES / f"board-{name}.svg"
        assert svg.read_text(encoding="utf-8") == script.picture(name), (
            f"{svg.name} is out of date: run python tools/screenshots.py"
        )
        root = parse(svg.read_text(encoding="utf-8"))
        with image.open(svg.with_suffix(".png")) as png:
            assert png.size == (int(root.get("width")), round(float(root.get("height")))), name
    assert "board 5×6" in (PICTURES / "board-base.svg").read_text(encoding="utf-8")
    assert "board 6×6" in (PICTURES / "board-artisans.svg").read_text(encoding="utf-8")
    assert "board 6×7, 5 players" in (PICTURES / "board-artisans-djinns-5p.svg").read_text(
        encoding="utf-8"
    )
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "](docs/pictures/board-artisans-djinns-5p.png)" in readme


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
    # nothing else to fetch: no stylesheet, image, font or import; the icon is inline
    assert re.findall(r"<link[^>]*>", page) == ['<link rel="icon" href="data:,">']
    assert not re.search(r"url\(|@import|\ssrc=", page)
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
    # the last move stays highlighted after its turn: through the bidding and at the end
    pictures = ["".join(data["parts"][k] for k in frame) for frame in data["frames"]]
    assert 'class="last-move"' in pictures[-1] and "game over · last move " in pictures[-1]
    bidding = [i for i, s in enumerate(states) if s.round == 2 and s.decision.stage == "bid"]
    assert bidding and all('class="last-move"' in pictures[i] for i in bidding)
    assert 'class="last-move"' not in pictures[0]


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


# -- legibility: a crowded tile --------------------------------------------------------------

Box = tuple[float, float, float, float]


def box_of(el: ET.Element) -> Box:
    """The bounding box of a drawn element (text: estimated from its size and length)."""
    tag = el.tag.removeprefix(SVG)
    get = lambda name: float(el.get(name, "0"))  # noqa: E731
    if tag == "circle":
        return (
            get("cx") - get("r"),
            get("cy") - get("r"),
            get("cx") + get("r"),
            get("cy") + get("r"),
        )
    if tag == "rect":
        return get("x"), get("y"), get("x") + get("width"), get("y") + get("height")
    if tag in ("polygon", "polyline", "path"):
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", el.get("points") or "")]
        if tag == "path":  # M x,y A rx,ry 0 0 1 x2,y2 Z: a dome over the segment
            x0, y0, _, ry, _, _, _, x2, y2 = (
                float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", el.get("d", ""))
            )
            return min(x0, x2), min(y0, y2) - ry, max(x0, x2), max(y0, y2)
        xs, ys = numbers[0::2], numbers[1::2]
        return min(xs), min(ys), max(xs), max(ys)
    assert tag == "text", tag
    size, x, y = get("font-size"), get("x"), get("y")
    width = len("".join(el.itertext())) * size * 0.6
    left = {"middle": x - width / 2, "end": x - width}.get(el.get("text-anchor", ""), x)
    return left, y - 0.75 * size, left + width, y + 0.2 * size


def union(boxes: list[Box]) -> Box:
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def marks(tile: ET.Element, pieces: ET.Element) -> list[tuple[str, Box]]:
    """The separate marks on a tile, each named: its label, note and value badge; each
    meeple chip and token with, apart, the badge with its count; the camel."""
    found: list[tuple[str, Box]] = []
    for el in tile:
        if el.tag == f"{SVG}text":
            found.append(("label", box_of(el)))
        elif el.tag == f"{SVG}g":
            found.append((el.get("class", ""), union([box_of(e) for e in el])))
    for group in pieces:
        parts = list(group)
        name = group.get("class", "")
        counted = (
            len(parts) >= 3 and parts[-1].tag == f"{SVG}text" and parts[-2].tag == f"{SVG}rect"
        )
        if counted and not is_a(group, "camel"):
            found.append((name + " count", box_of(parts[-2])))
            parts = parts[:-2]
        if is_a(group, "meeple"):
            parts = parts[:1]  # the disc; its letter is inside it
        found.append((name, union([box_of(e) for e in parts if e.tag != f"{SVG}text"])))
    return found


def test_a_crowded_tile_stays_legible() -> None:
    """Thirty meeples of six colours (counts up to 15), a camel, every token kind with a
    count and the whim written on a city: no mark covers another, except each count
    badge its own chip or token."""
    rules = build_rules(["artisans", "djinns"])
    state = rules.new_game(5, 3)
    city = next(t for t, note in collect(rules, state).tile_notes.items() if note)
    board = state.board
    meeples = replace_at(board.meeples, city, (15, 1, 2, 3, 4, 5))
    tokens = replace_at(board.tokens, city, (3, 2, 2))
    owners = replace_at(board.owners, city, 2)
    board = attrs.evolve(board, meeples=meeples, tokens=tokens, owners=owners)
    state = attrs.evolve(state, board=board)
    root = parse(board_svg(rules, state))
    name = state.geometry.name(city)
    tile = next(g for g in root.iter(f"{SVG}g") if g.get("id") == f"tile-{name}")
    pieces = next(g for g in root.iter(f"{SVG}g") if g.get("id") == f"pieces-{name}")
    found = marks(tile, pieces)
    assert [n for n, _ in found].count("meeple colour-yellow count") == 1
    assert len([n for n, _ in found if n.startswith("token")]) == 3 + 3  # shapes and counts
    assert {"label", "note", "value"} <= {n for n, _ in found}
    x0, y0, x1, y1 = box_of(next(e for e in tile if e.tag == f"{SVG}rect"))
    for i, (a, box_a) in enumerate(found):
        assert x0 <= box_a[0] and box_a[2] <= x1 and y0 <= box_a[1] and box_a[3] <= y1, a
        for b, box_b in found[i + 1 :]:
            if b == f"{a} count" or a == f"{b} count":
                continue
            assert not overlap(box_a, box_b), (a, b)


# -- picks, the move in progress, the thieves and the area beside the board ------------------


def test_only_the_web_page_s_picture_carries_data_pick() -> None:
    rules = build_rules()
    state = rules.new_game(3, 1)
    assert "data-pick" not in board_svg(rules, state)
    web = "".join(svg_parts(rules, state, seat=0, picks=True))
    assert 'class="spot" data-pick="0"' in web
    djinn = state.decks[DJINN_DECK].row[0]
    assert f'class="card" data-pick="{djinn}"' in web


def test_the_move_in_progress_shows_the_meeples_in_hand() -> None:
    rules = build_rules()
    state = played(rules, 2, 1, 0)
    while state.decision.stage != "drop":
        state = rules.apply(state, rules.legal_actions(state)[0])
    assert state.turn is not None and sum(state.turn.hand) > 1
    root = parse(board_svg(rules, state))
    (turn,) = [g for g in root.iter(f"{SVG}g") if is_a(g, "this-turn")]
    chips = [g for g in turn.iter(f"{SVG}g") if is_a(g, "meeple")]
    assert len(chips) == sum(1 for n in state.turn.hand if n)
    assert "In hand" in texts(turn)


def test_cards_drawn_to_choose_from_show_only_to_the_player_choosing() -> None:
    rules = build_rules()
    state = played(rules, 2, 1, 0)
    assert state.turn is None
    owner = state.decision.player
    marker = state.markers.index(owner)
    shown = set(state.decks[RESOURCE_DECK].row)
    drawn = [c for c in ("gold", "ivory", "silk", "spice", "wheat") if c not in shown][:2]
    names = [rules.card_specs[c].name or c.capitalize() for c in drawn]
    assert all(names) and len(drawn) == 2
    state = attrs.evolve(state, turn=Turn(marker=marker, revealed=tuple(drawn)))
    mine = board_svg(rules, state, seat=owner)
    assert all(name in mine for name in names)
    other = board_svg(rules, state, seat=1 - owner)
    assert "Cards drawn to choose from: 2 (hidden)" in texts(parse(other))
    assert not any(name in other for name in names)


def test_the_thief_beside_the_djinns_is_a_card_on_offer_and_held_thieves_in_the_panel() -> None:
    rules = build_rules(["thieves"])
    state = rules.new_game(3, 2)
    thieves = rules.deck_index["thieves"]
    face_up = state.decks[thieves].row[0]
    state = state.replace_player(2, state.players[2].with_hand(thieves, ("green-thief",)))
    root = parse(board_svg(rules, state))
    (row,) = [g for g in root.iter(f"{SVG}g") if is_a(g, "deck-thieves")]
    assert rules.card_specs[face_up].name in texts(row) and "6 VP" in texts(row)
    (panel,) = [g for g in root.iter(f"{SVG}g") if g.get("id") == "player-3"]
    assert "Thieves (1): Green Thief" in texts(panel)
    assert "Thief beside the djinns" not in texts(root)  # the note is drawn, not repeated


def test_sultan_yazid_s_area_is_drawn_beside_the_board() -> None:
    rules = build_rules(["solo"])
    state = played(rules, 1, 3, 0)
    state = set_aside(state, ASIDE_MEEPLE + "red", 4)
    state = set_aside(state, ASIDE_MEEPLE + "yellow", 2)
    state = set_aside(state, ASIDE_CARD + "al-amin", 1)
    root = parse(board_svg(rules, state))
    (area,) = [g for g in root.iter(f"{SVG}g") if is_a(g, "aside")]
    words = texts(area)
    assert "X · Sultan Yazid" in words and "Djinns (1): Al-Amin" in words
    assert "Assassins 4 of 7" in words and "Camels left 11" in words
    chips = {g.get("class"): texts(g) for g in area.iter(f"{SVG}g") if is_a(g, "meeple")}
    assert chips == {"meeple colour-red": "R ×4", "meeple colour-yellow": "Y ×2"}


def test_the_discard_piles_are_shown_face_up() -> None:
    """Discarded items (which the Rebirth Ring takes back) are named; discarded resources
    are counted."""
    rules = build_rules(["artisans"])
    state = rules.new_game(2, 1)
    items, resources = rules.deck_index["items"], rules.deck_index["resources"]
    decks = replace_at(state.decks, items, attrs.evolve(state.decks[items], discard=("crown",)))
    decks = replace_at(decks, resources, attrs.evolve(decks[resources], discard=("fish",) * 3))
    words = texts(parse(board_svg(rules, attrs.evolve(state, decks=decks))))
    assert "Discard piles (face up): resources 3; items 1 (Crown)" in words
    assert "Discard piles" not in texts(parse(board_svg(rules, state)))


def test_a_players_pieces_to_place_are_listed_under_the_label_a_plugin_declares() -> None:
    """The base game declares its ``piece.*`` counters' label (``Display.counter_lines``):
    an Artisans player's tent is listed as to place until pitched; a house rule labels
    counters of its own the same way, and none is listed at zero."""
    from naqala.core.state import evolve, set_extra
    from naqala.display.hints import Display

    rules = build_rules(["artisans"])
    state = rules.new_game(2, 1)
    assert "To place: tent 1" in texts(parse(board_svg(rules, state)))
    assert "To place" not in texts(parse(board_svg(build_rules(), build_rules().new_game(2, 1))))

    class Charms:
        NAME = "charms"

        @hookimpl
        def naqala_player_counters(self) -> list[str]:
            return ["charm.*"]

        @hookimpl
        def naqala_display(self, rules: Rules, state: State) -> Display:
            return Display(counter_lines={"charm.": "Charms"})

    rules = build_rules(extra_plugins=[Charms()])
    state = rules.new_game(2, 1)
    p = state.players[0]
    p = evolve(p, extras=set_extra(set_extra(p.extras, "charm.red", 2), "charm.blue", 0))
    shown = texts(parse(board_svg(rules, state.replace_player(0, p))))
    assert "Charms: red 2" in shown and "blue 0" not in shown
