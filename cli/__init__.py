"""The ``naqala`` command line (typer)."""
