"""Where a game may be saved, checked before anything is lost.

``naqala play --save PATH`` checks its path before the game starts, and every file name
typed at the table goes through the same check, so that a game is never played to its
end only to find that it cannot be written.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from naqala.core.actions import shorten


class SavePathError(ValueError):
    """A save file name that cannot be written; the message names the path."""


def save_path(name: str | Path) -> Path:
    """``name`` as a path to write a game record to, ``~`` expanded, once the folder is
    known to exist and be writable (``SavePathError`` otherwise, naming the path, cut
    short if it is absurdly long)."""
    text = str(name)
    if "\x00" in text:
        raise SavePathError(f"{shown(text)!r}: a file name cannot hold a NUL character")
    try:
        path = Path(text).expanduser()
    except RuntimeError:  # ~someone who is not a user of this machine
        user = text.split("/", 1)[0]
        raise SavePathError(f"{shown(text)}: there is no home folder {shown(user)}") from None
    folder = path.parent
    try:
        if path.is_dir():
            raise SavePathError(f"{shown(path)}: is a folder, not a file name")
        if not folder.is_dir():
            if folder.exists():
                raise SavePathError(f"{shown(path)}: {shown(folder)} is a file, not a folder")
            raise SavePathError(f"{shown(path)}: the folder {shown(folder)} does not exist")
        if not os.access(folder, os.W_OK | os.X_OK) or not _can_create_in(folder):
            raise SavePathError(f"{shown(path)}: the folder {shown(folder)} is not writable")
        if path.exists() and not os.access(path, os.W_OK):
            raise SavePathError(f"{shown(path)}: the file exists and is not writable")
    except OSError as exc:  # a name too long for the file system, a loop of links…
        raise SavePathError(f"{shown(path)}: {exc.strerror or exc}") from None
    return path


def shown(path: str | Path) -> str:
    """A path as messages show it: whole unless it is absurdly long."""
    return shorten(str(path), 100)


def _can_create_in(folder: Path) -> bool:
    """True if a file can really be made in ``folder`` (a record is written to a
    temporary file there, then renamed): the permission bits do not tell for root, a
    read-only mount or a folder of a special file system."""
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".naqala-check-"):
            return True
    except OSError:
        return False


__all__ = ["SavePathError", "save_path", "shown"]
