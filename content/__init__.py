"""Game content as TOML data files (package data), one file per plugin."""

from pathlib import Path

CONTENT_DIR = Path(__file__).resolve().parent


def content_path(name: str) -> Path:
    """Path of the content file ``name`` shipped with naqala (e.g. ``base.toml``)."""
    return CONTENT_DIR / name
