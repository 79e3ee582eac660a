"""Where a game may be saved, checked before anything is lost.

``naqala play --save PATH`` checks its path before the game starts, and every file name
typed at the table goes through the same check, so that a game is never played to its
end only to find that it cannot be written.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class SavePathError(ValueError):
    """A save file name that cannot be written; the message names the path."""


def save_path(name: str | Path) -> Path:
    """``name`` as a path to write a game record to, ``~`` expanded, once the folder is
    known to exist and be writable (``SavePathError`` otherwise)."""
    path = Path(name).expanduser()
    folder = path.parent
    if path.is_dir():
        raise SavePathError(f"{path}: is a folder, not a file name")
    if not folder.is_dir():
        raise SavePathError(f"{path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK | os.X_OK) or not _can_create_in(folder):
        raise SavePathError(f"{path}: the folder {folder} is not writable")
    if path.exists() and not os.access(path, os.W_OK):
        raise SavePathError(f"{path}: the file exists and is not writable")
    return path


def _can_create_in(folder: Path) -> bool:
    """True if a file can really be made in ``folder`` (a record is written to a
    temporary file there, then renamed): the permission bits do not tell for root, a
    read-only mount or a folder of a special file system."""
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".naqala-check-"):
            return True
    except OSError:
        return False


__all__ = ["SavePathError", "save_path"]
