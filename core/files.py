"""Reading the files a person hands to naqala: only regular files, and only up to a limit.

A state, a record, a board or a content file is data typed or mailed by someone, so it
may be anything the path names: ``/dev/zero`` (endless), ``/dev/urandom``, a named pipe
that blocks, a directory, or a file of gigabytes. Each is refused here in one line naming
the file, before anything is parsed, instead of a ``MemoryError`` after seconds of reading
or a hang. The limits are far above any real file of each kind (docs/formats.md).
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import BinaryIO

#: the most bytes a state document may have (a 5-player game with both expansions is ~20 kB)
STATE_LIMIT = 4 * 1024 * 1024
#: the most bytes a game record may have (a game is a few hundred actions, ~10 kB)
RECORD_LIMIT = 4 * 1024 * 1024
#: the most bytes a content TOML file may have (the base game's is ~10 kB)
CONTENT_LIMIT = 1024 * 1024
#: the most bytes a house-rule file may have (the shipped ones are 1–5 kB)
HOUSE_RULE_LIMIT = 1024 * 1024
#: the most bytes a board file of ``naqala perft`` may have (26×26 tiles of many meeples)
BOARD_LIMIT = 4 * 1024 * 1024


class FileRefused(ValueError):
    """A file that is not read: not a regular file, too large, or unreadable. The message
    names the file and says why, in one line."""


def _too_large(source: str, limit: int, what: str) -> FileRefused:
    megabytes = f"{limit / (1024 * 1024):g} MB"
    return FileRefused(f"{source}: cannot read: larger than {megabytes}, the most a {what} may be")


def _read_at_most(handle: BinaryIO, limit: int, source: str, what: str) -> bytes:
    """At most ``limit`` bytes of ``handle``: one more byte than that refuses the file."""
    data = handle.read(limit + 1)
    if len(data) > limit:
        raise _too_large(source, limit, what)
    return data


def read_bounded(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of the regular file ``path``, if it has at most ``limit`` of them.

    ``what`` names the kind of file for the message (``state``, ``record``…). The file is
    opened without blocking (a named pipe would wait for a writer for ever) and checked to
    be a regular file before a byte is read; its size is checked again while reading, as a
    file can grow between the two. Raises ``FileRefused``."""
    source = str(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except OSError as exc:
        raise FileRefused(f"{source}: cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused(f"{source}: cannot read: not a regular file")
        if info.st_size > limit:
            raise _too_large(source, limit, what)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return _read_at_most(handle, limit, source, what)
    except OSError as exc:
        raise FileRefused(f"{source}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def refuse_unreadable_kind(path: str | Path, limit: int, what: str) -> None:
    """``FileRefused`` if ``path`` exists but is no file of this kind at all: a device, a
    pipe or a directory, or larger than ``limit``. A missing file passes (a checker reports
    it among its problems); nothing is opened or read."""
    try:
        info = os.stat(path)
    except OSError:
        return
    if not stat.S_ISREG(info.st_mode):
        raise FileRefused(f"{path}: cannot read: not a regular file")
    if info.st_size > limit:
        raise _too_large(str(path), limit, what)


def read_stdin_bounded(limit: int, what: str, source: str = "-") -> bytes:
    """Standard input, if it holds at most ``limit`` bytes (``naqala render -``); messages
    name it ``source``, as the command line did."""
    try:
        return _read_at_most(sys.stdin.buffer, limit, source, what)
    except OSError as exc:
        raise FileRefused(f"{source}: cannot read: {exc.strerror or exc}") from None


def decode_utf8(data: bytes, source: str) -> str:
    """``data`` as text; ``FileRefused`` naming ``source`` and the byte if it is not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileRefused(f"{source}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def read_text_bounded(path: str | Path, limit: int, what: str) -> str:
    """The UTF-8 text of the regular file ``path`` of at most ``limit`` bytes."""
    return decode_utf8(read_bounded(path, limit, what), str(path))


__all__ = [
    "BOARD_LIMIT",
    "CONTENT_LIMIT",
    "HOUSE_RULE_LIMIT",
    "RECORD_LIMIT",
    "STATE_LIMIT",
    "FileRefused",
    "decode_utf8",
    "read_bounded",
    "read_stdin_bounded",
    "read_text_bounded",
    "refuse_unreadable_kind",
]
