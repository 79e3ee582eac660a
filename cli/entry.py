"""The ``naqala`` console script.

``naqala actions STATE`` is what engines and scripts call in a loop, once per position,
so it is answered from the core alone: the command-line framework (typer, rich and
pydantic, about as costly to import as the whole rules engine) is loaded only for every
other command. Anything unusual about the call — another command, options, standard
input, a state that does not load — goes the ordinary way (``cli/app.py``), which
prints the same output and the one clear message on failure.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    """Run the command; a Ctrl-C at any moment — even while the modules are still being
    imported, before a command has a handler of its own — ends it with exit code 130 and
    no traceback."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if len(args) == 2 and args[0] == "actions" and not args[1].startswith("-"):
            listed = legal_lines(args[1])
            if listed is not None:
                sys.stdout.write(listed)
                return
        from naqala.cli.app import main as full

        full(args)
    except KeyboardInterrupt:
        sys.stderr.write("naqala: interrupted\n")
        raise SystemExit(130) from None


def legal_lines(path: str) -> str | None:
    """The legal actions of the state in file ``path``, one per line; None when anything
    goes wrong (the ordinary command then reports it)."""
    try:
        from naqala.core.serialize import load_state

        rules, state = load_state(path)
        return "".join(f"{action}\n" for action in rules.legal_actions(state))
    except Exception:
        return None
