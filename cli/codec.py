"""``naqala codec``: the size of a ruleset's action codec and observation (the encoding
``naqala.envs`` gives OpenSpiel, PettingZoo and Gymnasium), with ``--kinds`` the range of
every action kind."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from naqala.cli.common import Expansions, make_rules

HouseRules = Annotated[
    list[Path] | None,
    typer.Option("--house-rules", help="A house-rule file, .py or .toml content (repeatable)."),
]


def codec_command(
    expansion: Expansions = None,
    house_rules: HouseRules = None,
    kinds: Annotated[
        bool, typer.Option("--kinds", help="List each action kind's range of indices.")
    ] = False,
) -> None:
    """Print the size of the action codec and of the observation for a ruleset."""
    from naqala.envs.codec import codec_for
    from naqala.envs.observation import ObservationEncoder

    rules = make_rules(expansion, house_rules)
    codec = codec_for(rules)
    encoder = ObservationEncoder(rules)
    typer.echo(f"ruleset: {' + '.join(rules.ruleset)}")
    typer.echo(f"actions: {codec.size} (indices 0..{codec.size - 1}, {len(codec.blocks)} kinds)")
    typer.echo(f"observation: {encoder.size} numbers ({len(encoder.parts)} parts)")
    typer.echo(f"fingerprint: {codec.fingerprint()}")
    if kinds:
        for name, first, count in codec.describe():
            typer.echo(f"  {name:<24} {first:>6} .. {first + count - 1:<6} ({count})")


def register(app: typer.Typer) -> None:
    """Add the ``codec`` command to ``app``."""
    app.command("codec")(codec_command)
