"""The kernel holds every count the content allows, or refuses it in one line (issue #36).

docs/formats.md bounds a content's numbers (1 000 meeples of a colour, 1 000 camels,
1 000 copies of a card…). The kernel once kept them in bytes and took them mod 256 without
a word, so a house rule played a different game natively. Each extreme content-only house
rule of ``tests/data/extremes/`` is played here on both engines and compared after every
action; what the kernel still cannot hold is refused when its content is read, in one
line naming the content path and the kernel's limit, and ``auto`` then plays Python.
"""

from __future__ import annotations

import importlib.util
import json
import re
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from naqala.cli.app import app
from naqala.core.content import ContentError
from naqala.core.engine import build_rules
from naqala.native.bridge import NativeRules
from naqala.native.differential import ported_rules, verify_game
from naqala.native.support import native_obstacle
from tests.native_kit import assert_native_game_is_python, require_native

EXTREMES = Path(__file__).parent / "data" / "extremes"


def house_rule(folder: Path, name: str, body: str) -> Path:
    """A content-only house rule file named ``name`` holding ``body``."""
    path = folder / f"{name}.toml"
    path.write_text(f'[house-rule]\nname = "{name}"\n\n{body}')
    return path


@pytest.mark.parametrize("name", sorted(p.stem for p in EXTREMES.glob("*.toml")))
def test_extreme_house_rules_play_the_same_game_on_both_engines(name: str) -> None:
    require_native()
    rules, bridge = ported_rules((), [EXTREMES / f"{name}.toml"])
    for seed in (0, 1):
        assert_native_game_is_python(rules, bridge, 2 + seed, seed)  # the native setup
        report = verify_game(rules, bridge, 2, seed)  # every action compared
        assert [str(d) for d in report.differences] == []
        assert not report.unported
        assert report.applied_compared == report.actions > 0


@pytest.mark.parametrize("name", ["cards-1000", "meeples-1000"])
def test_simulate_gives_one_summary_on_both_engines(name: str) -> None:
    """What a user saw: ``simulate`` with 1 000 papyrus cards (a deck whose length a byte
    held) or 1 000 viziers and elders (232 natively) differed between ``--engine native``
    and ``--engine python``."""
    require_native()
    args = ["simulate", "-n", "3", "-p", "3", "-j", "1", "--json"]
    args += ["--house-rules", str(EXTREMES / f"{name}.toml")]
    runner = CliRunner()
    results = [runner.invoke(app, [*args, "--engine", engine]) for engine in ("native", "python")]
    assert [r.exit_code for r in results] == [0, 0], [r.output for r in results]
    assert json.loads(results[0].stdout) == json.loads(results[1].stdout)


def test_a_big_bag_sets_up_as_in_python() -> None:
    """300 green meeples (the bag's 288 once wrapped to 32): 12 on every tile drew the
    bag empty on the kernel, a panic (``below() needs n >= 1``)."""
    require_native()
    rules, bridge = ported_rules((), [EXTREMES / "meeples-per-tile-12.toml"])
    native = bridge.data(bridge.new_game(3, 7))
    python = rules.new_game(3, 7)
    assert native == json.loads(json.dumps(bridge.data(bridge.to_native(python))))
    assert all(len(tile["meeples"]) == 12 for tile in native["board"]["tiles"])


def kernel_refusal(path: Path) -> str:
    """The one line the kernel refuses ``path``'s content with (Python builds the rules)."""
    rules = build_rules((), [path])
    with pytest.raises(ValueError) as refused:
        NativeRules(rules)
    message = str(refused.value)
    assert "\n" not in message
    obstacle = native_obstacle(rules)
    assert obstacle == f"the native engine cannot read these rules' content: {message}"
    return message


def test_a_board_of_more_tiles_than_the_kernel_holds_is_refused(tmp_path: Path) -> None:
    require_native()
    body = (
        '[[override]]\ntarget = "tile:oasis"\ncount = 76\n\n'  # 100 tiles: 10 x 10
        '[[extra_meeples]]\ncolour = "green"\ncount = 210\n'
    )
    path = house_rule(tmp_path, "big-board", body)
    message = kernel_refusal(path)
    assert message == (
        "kernel content: tiles: 100 tiles, the kernel holds at most 64 (a board is a 64-bit mask)"
    )


def test_more_cards_than_the_kernel_holds_are_refused(tmp_path: Path) -> None:
    """66 kinds of 1 000 Fakirs: 66 000 cards, more than a hand's `u16` places."""
    require_native()
    body = "".join(
        f'[[resource]]\nid = "fakir-{i}"\nkind = "fakir"\ncount = 1000\n\n' for i in range(66)
    )
    message = kernel_refusal(house_rule(tmp_path, "many-fakirs", body))
    assert message.startswith("kernel content: card counts: 66")
    assert message.endswith("cards in the decks, the kernel holds at most 65535")


def test_more_decks_than_the_kernel_holds_are_refused_and_fewer_play_native(
    tmp_path: Path,
) -> None:
    """The three boxes hold five decks; a house rule may add three of its own (rows lying
    on tiles) and still play native, and a fourth sends the game to Python, saying so."""
    require_native()

    def rows(n: int) -> str:
        return "".join(
            f'[[deck]]\nid = "row-{i}"\nlies_on = "oasis"\n\n'
            f'[[card]]\ndeck = "row-{i}"\nid = "relic-{i}"\nname = "Relic {i}"\n'
            f'kind = "relic"\ncount = 3\n\n'
            f'[[power]]\ndeck = "row-{i}"\nkind = "relic"\non = "scoring"\n'
            f'effects = [{{ score = "1", category = "relics" }}]\n\n'
            for i in range(n)
        )

    boxes = ["thieves", "artisans", "djinns"]
    three = build_rules(boxes, house_rules=[house_rule(tmp_path, "three-rows", rows(3))])
    assert native_obstacle(three) is None
    four = build_rules(boxes, house_rules=[house_rule(tmp_path, "four-rows", rows(4))])
    assert native_obstacle(four) == (
        "the native engine cannot read these rules' content: "
        "kernel content: decks: 9 decks, the kernel holds at most 8"
    )


def test_a_purchase_of_more_cards_than_an_action_holds_is_refused(tmp_path: Path) -> None:
    """A large market taking 13 of a row of 13: the kernel's actions name at most 12
    cards (the game once stopped at the first such market, "not ported")."""
    require_native()
    body = "[settings]\nresource_row = 13\nlarge_market_reach = 13\nlarge_market_take = 13\n"
    message = kernel_refusal(house_rule(tmp_path, "big-purchase", body))
    assert message == (
        "kernel content: settings.large_market_take: a purchase of 13 cards, the kernel's "
        "actions hold at most 12"
    )


def test_auto_plays_python_where_the_kernel_refuses(tmp_path: Path) -> None:
    """The refused board plays on ``auto`` as on ``python``: the same summary, and
    ``native`` refuses in one line."""
    require_native()
    body = (
        '[[override]]\ntarget = "tile:oasis"\ncount = 11\n\n'  # 35 tiles: 5 x 7
        '[[override]]\ntarget = "tile:small-market"\ncount = 38\n\n'  # 65 tiles: 5 x 13
        "[tables]\nboard_65 = [5, 13]\n\n"
        '[[extra_meeples]]\ncolour = "green"\ncount = 120\n'
    )
    path = house_rule(tmp_path, "wide-board", body)
    assert kernel_refusal(path).startswith("kernel content: tiles: 65 tiles")
    runner = CliRunner()
    args = ["simulate", "-n", "1", "-p", "2", "-j", "1", "--json", "--house-rules", str(path)]
    results = {}
    for engine in ("auto", "python"):
        result = runner.invoke(app, [*args, "--engine", engine])
        assert result.exit_code == 0, result.output
        results[engine] = json.loads(result.stdout)
    assert results["auto"] == results["python"]
    refused = runner.invoke(app, [*args, "--engine", "native"])
    assert refused.exit_code == 2
    assert "the kernel holds at most 64" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1


def test_the_walks_bench_times_long_walks_on_both_engines() -> None:
    """bench/walks.py: a row per stage and count, 40 meeples a tile included (the kernel's
    unmemoised walk of more than 24 steps never ended there)."""
    require_native()
    path = Path(__file__).resolve().parent.parent / "bench" / "walks.py"
    spec = importlib.util.spec_from_file_location("bench_walks", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    lines: list[str] = []
    assert bench.main(["--counts", "2", "40", "--budget", "0.001"], lines.append) == 0
    rows = [line.split()[:2] for line in lines[1:]]
    assert rows == [["2", "pick"], ["2", "drop"], ["40", "pick"], ["40", "drop"]]
    assert all(line.endswith("×") for line in lines[1:])


# -- every documented bound, read from docs/formats.md --------------------------------------

FORMATS = Path(__file__).resolve().parent.parent / "docs" / "formats.md"


def documented_bounds() -> dict[str, int]:
    """The bounds of "Numbers are bounded where they are written", read from the doc's
    own sentence (so a changed doc or a changed bound fails here)."""
    text = " ".join(FORMATS.read_text().split())
    start = text.index("Numbers are bounded where they are written")
    sentence = text[start : text.index("Lower bounds that depend on meaning", start)]
    number = r"(\d{1,3}(?: \d{3})*)"
    patterns = {
        "count": r"a `count` \(of tiles, cards, meeples of a colour, tokens, extra meeples "
        + r"[^)]*\) is at most "
        + number,
        "vp": r"a `vp` at most " + number,
        "players": r"`players` and `markers` of a `\[\[player_count\]\]` at most " + number,
        "camels": r"`camels` at most " + number,
        "low": r"lies between −" + number,
        "high": r"lies between −[\d ]+ and " + number,
    }
    bounds: dict[str, int] = {}
    for name, pattern in patterns.items():
        found = re.search(pattern, sentence)
        assert found, f"docs/formats.md no longer says the {name} bound: {pattern}"
        bounds[name] = int(found.group(1).replace(" ", ""))
    return bounds


def turn_track(spots: int) -> str:
    """A turn-order track of ``spots`` spots, dearest first."""
    return ", ".join(str(max(18 - 2 * i, 0)) for i in range(spots))


def bound_rules(bounds: dict[str, int]) -> dict[str, str]:
    """A content-only house rule at each documented bound (TOML bodies), by name."""
    count, vp, players = bounds["count"], bounds["vp"], bounds["players"]
    # the base game's 90 meeples, topped up to cover 1 025 tiles 3 times (3 075)
    cover = "".join(
        f'[[extra_meeples]]\ncolour = "{colour}"\ncount = {more}\n\n'
        for colour, more in (("green", 982), ("blue", 982), ("red", 982), ("white", 49))
    )
    return {
        "tile-count": f'[[override]]\ntarget = "tile:village"\ncount = {count}\n\n{cover}',
        "card-count": f'[[override]]\ntarget = "resource:silk"\ncount = {count}\n',
        "colour-count": f'[[override]]\ntarget = "colour:white"\ncount = {count}\n',
        "token-count": f'[[override]]\ntarget = "token:palm-tree"\ncount = {count}\n',
        # a colour has at least 1 meeple, so 1 000 extra ones make too many: refused
        "extra-meeples": f'[[extra_meeples]]\ncolour = "red"\ncount = {count}\n',
        "colour-with-extras": f'[[extra_meeples]]\ncolour = "red"\ncount = {count - 18}\n',
        "vp": (
            f'[[override]]\ntarget = "tile:oasis"\nvp = {vp}\n\n'
            f'[[override]]\ntarget = "token:palace"\nvp = {vp}\n\n'
            f'[[override]]\ntarget = "djinn:jafaar"\nvp = {vp}\n'
        ),
        "players": (
            f"[[player_count]]\nplayers = {players}\ncamels = 8\nmarkers = 1\n\n"
            f"[tables]\nturn_order_costs_{players} = [{turn_track(players)}]\n"
        ),
        "markers": (
            f"[[player_count]]\nplayers = 2\ncamels = 11\nmarkers = {players}\n\n"
            f"[tables]\nturn_order_costs_2 = [{turn_track(2 * players)}]\n"
        ),
        "camels": (f"[[player_count]]\nplayers = 2\ncamels = {bounds['camels']}\nmarkers = 2\n"),
        "settings-high": (
            f"[settings]\nvizier_vp = {bounds['high']}\nsmall_market_reach = {bounds['high']}\n"
            f"resource_row = {bounds['high']}\n\n"
            f"[tables]\nsuit_values = [1, 3, 7, 13, 21, 30, 40, 50, {bounds['high']}]\n\n"
            f'[[override]]\ntarget = "djinn:iblis"\nparams = {{ kills = {bounds["high"]} }}\n'
        ),
        "settings-low": f"[settings]\nelder_vp = -{bounds['low']}\n",
        "market-take": (
            f"[settings]\nlarge_market_take = {bounds['high']}\n"
            f"large_market_reach = {bounds['high']}\nresource_row = {bounds['high']}\n"
        ),
        "params-low": (
            f'[[override]]\ntarget = "djinn:jafaar"\nparams = {{ vizier_vp = -{bounds["low"]} }}\n'
        ),
    }


def one_line_refusal(error: BaseException) -> str:
    message = str(error)
    assert message and "\n" not in message, message
    return message


@pytest.mark.parametrize("name", sorted(bound_rules(documented_bounds())))
def test_every_documented_bound_plays_the_same_game_or_is_refused(
    name: str, tmp_path: Path
) -> None:
    """At each bound: the rules are refused in one line, or the kernel refuses them (its
    content reader, or the game it cannot set up) in one line, or a game plays the same
    on both engines, action by action."""
    require_native()
    path = house_rule(tmp_path, name, bound_rules(documented_bounds())[name])
    try:
        rules, bridge = ported_rules((), [path])
    except (ContentError, ValueError) as refused:  # the rules, or the kernel's content reader
        one_line_refusal(refused)
        return
    played = 0
    for players in sorted(pc.players for pc in rules.content.player_counts):
        try:
            bridge.new_game(players, 0)
        except NotImplementedError as refused:  # more players or markers than it holds
            assert "kernel" in one_line_refusal(refused)
            assert rules.new_game(players, 0).decision.stage == "bid"  # Python sets it up
            continue
        if played < 1:  # one game compared action by action, at the fewest players
            assert_native_game_is_python(rules, bridge, players, 0)  # the native setup too
            report = verify_game(rules, bridge, players, 0)
            assert [str(d) for d in report.differences] == []
            assert report.applied_compared == report.actions > 0
            played += 1


@pytest.mark.parametrize(
    ("name", "body", "message"),
    [
        ("count", '[[override]]\ntarget = "token:palace"\ncount = {count}\n', "more than"),
        ("vp", '[[override]]\ntarget = "tile:oasis"\nvp = {vp}\n', "more than"),
        ("players", "[[player_count]]\nplayers = {players}\ncamels = 8\nmarkers = 1\n", ""),
        ("camels", "[[player_count]]\nplayers = 2\ncamels = {camels}\nmarkers = 2\n", ""),
        # `[settings]` past 1 000 000 is refused by the content parser alone for now
        # (`parse_content_file`): issue #36's "bounds that hold in every command"
    ],
)
def test_one_past_each_documented_bound_is_refused(name: str, body: str, message: str) -> None:
    """The doc's numbers are the code's: one more is refused with the file and path."""
    bounds = {key: value + 1 for key, value in documented_bounds().items()}
    with tempfile.TemporaryDirectory() as folder:
        path = house_rule(Path(folder), f"past-{name}", body.format(**bounds))
        with pytest.raises(ContentError, match=f"{re.escape(path.name)}.*{message}"):
            build_rules((), [path])


def test_a_state_with_more_cards_than_the_kernel_places_is_refused() -> None:
    """A forged state whose decks and hands hold more than 65 535 cards: refused with its
    path, never built into a deck or a hand whose `u16` places would not hold it (the
    kernel counts every card of the rules once before it builds either)."""
    require_native()
    from naqala.core.serialize import state_to_data

    rules = build_rules(())
    bridge = NativeRules(rules)
    data = state_to_data(rules, rules.new_game(2, 0))
    data["decks"]["resources"]["draw"] = ["ivory"] * 65_000
    data["players"][0]["hands"]["resources"] = ["gold"] * 536
    with pytest.raises(ValueError, match=r"^\$\.decks"):
        bridge.kernel.state(json.dumps(data))
