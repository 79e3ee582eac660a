"""``naqala content ids``: what an override may name, with values and bounds, and the
reference table of docs/house-rules.md kept equal to it (issue 37)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner, Result

from naqala.cli.app import app
from naqala.core.engine import build_rules
from naqala.core.override_ids import markdown, nameables

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- content ids: begin -->\n", "<!-- content ids: end -->"


def run(*args: str) -> Result:
    return CliRunner().invoke(app, ["content", "ids", *args])


def test_the_docs_reference_is_the_base_games_list() -> None:
    """Regenerate with ``naqala content ids --markdown`` when content changes."""
    text = (ROOT / "docs" / "house-rules.md").read_text(encoding="utf-8")
    section = text[text.index(BEGIN) + len(BEGIN) : text.index(END)]
    assert section == markdown(nameables(build_rules().content))
    assert run("--markdown").stdout == section


def test_every_name_listed_is_one_an_override_accepts(tmp_path: Path) -> None:
    """One override per row, each giving the number it has ("+0"), builds the rules; a
    reading (no number) is one written in ``[settings]``, the same value again."""
    rows = nameables(build_rules(["whims", "artisans"]).content)
    blocks, readings = [], []
    for row in rows:
        if row.what.startswith("reading"):
            readings.append(f"{row.target.removeprefix('setting:')} = {row.value}")
        elif row.field == "cost":
            blocks.append(f'target = "{row.target}"\ncost = "{row.value}"')
        elif row.field.startswith("params."):
            blocks.append(f'target = "{row.target}"\nparams = {{ {row.field[7:]} = "+0" }}')
        else:
            blocks.append(f'target = "{row.target}"\n{row.field} = "+0"')
    path = tmp_path / "all.toml"
    path.write_text(
        '[house-rule]\nname = "all"\n\n[settings]\n'
        + "".join(f"{r}\n" for r in readings)
        + "\n"
        + "".join(f"[[override]]\n{b}\n\n" for b in blocks),
        encoding="utf-8",
    )
    rules = build_rules(["whims", "artisans"], [path])
    assert nameables(rules.content) == rows
    assert len(readings) == 6  # the base game's five readings and the Artisans' tie
    assert {r.target.partition(":")[0] for r in rows} == {
        "setting", "player_count", "colour", "token", "tile", "resource", "djinn", "card",
        "deck", "kind",
    }  # fmt: skip


def test_the_table_the_json_and_the_rules_named() -> None:
    plain = run()
    assert plain.exit_code == 0, plain.stderr
    lines = plain.stdout.splitlines()
    assert lines[0].split() == ["target", "what", "field", "value", "bound"]
    camels = ["player_count:4", "player", "count", "camels", "8", "0", "to", "1000"]
    assert camels in [line.split() for line in lines]
    rows = json.loads(run("--json", "-x", "whims").stdout)
    found = {(r["target"], r["field"]): r for r in rows}
    assert found["deck:whims", "params.coins"]["what"] == "22 entries"
    assert found["djinn:jafaar", "params.vizier_vp"]["value"] == 3
    jafaar = ROOT / "plugins" / "house" / "generous_jafaar.toml"
    rows = json.loads(run("--json", "--house-rules", str(jafaar)).stdout)
    assert {(r["target"], r["field"]): r["value"] for r in rows}[
        "djinn:jafaar", "params.vizier_vp"
    ] == 4
    rows = json.loads(run("--json", "--without", "djinn:jafaar").stdout)
    assert not any(r["target"] == "djinn:jafaar" for r in rows)


def test_an_unknown_box_is_one_line() -> None:
    got = run("-x", "nosuch")
    assert got.exit_code == 2 and got.stdout == ""
    assert len(got.stderr.strip().splitlines()) == 1 and "nosuch" in got.stderr
