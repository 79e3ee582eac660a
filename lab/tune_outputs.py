"""The files ``naqala tune`` writes, checked before its first game: the best rule
(``--out``) and optuna's SQLite storage (``--storage``).

A tune runs for minutes to hours and writes its answer (and ``--report``) at the end,
and optuna opens its storage only when the study starts; a folder that does not exist, a
directory, a file that is no SQLite database or a URL typed where a path belongs was an
internal SQLAlchemy error at the start or a failure after every trial was played. Each
is refused here in one line naming the option. Whether a file can be written is tried, not guessed
from its mode bits (which say nothing for root, a read-only mount or ``/proc``): an
existing file is opened to append (its bytes unchanged), a new one made and removed.
"""

from __future__ import annotations

import re
from pathlib import Path

#: the first bytes of every SQLite database file
SQLITE_HEADER = b"SQLite format 3\x00"
#: a URL where a path belongs (``sqlite:///x.db`` reads as the path ``sqlite:/x.db``);
#: two letters at least, so no drive letter
_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]+:/")


class OutputRefused(ValueError):
    """An ``--out`` or ``--storage`` the tune cannot write, in one line naming it."""


def _write_problem(path: Path) -> str | None:
    """Why ``path`` cannot be written, or None."""
    if path.is_dir():
        return "a directory"
    if path.exists() or path.is_symlink():
        if not path.is_file():
            return "not a regular file"
        try:
            with path.open("ab"):
                pass
        except OSError as exc:
            return exc.strerror or str(exc)
        return None
    if not path.parent.is_dir():
        return f"no folder {path.parent}"
    try:
        with path.open("xb"):
            pass
    except OSError as exc:
        return exc.strerror or str(exc)
    path.unlink(missing_ok=True)
    return None


def _is_sqlite(path: Path) -> bool:
    """Whether the regular file ``path`` is an SQLite database, or empty (SQLite makes
    one in it); an unreadable one is not."""
    try:
        with path.open("rb") as handle:
            head = handle.read(len(SQLITE_HEADER))
    except OSError:
        return False
    return head in (b"", SQLITE_HEADER)


def check_outputs(space: Path, out: Path, storage: Path, report: Path | None = None) -> None:
    """``OutputRefused`` unless the tune can write ``out`` (a ``.toml`` house rule, not
    the space), keep its trials in ``storage`` (an SQLite file by its path, new or
    optuna's), two different files, and write ``report`` if one is asked for."""
    if out.suffix != ".toml":
        raise OutputRefused(f"--out {out}: a house rule written by tune is a .toml file")
    if _URL.match(str(storage)):
        raise OutputRefused(
            f"--storage {storage}: give the file's path; tune makes the SQLite URL itself"
        )
    if out.resolve() == space.resolve():
        raise OutputRefused(f"--out {out}: it is the space file; write the best elsewhere")
    if out.resolve() == storage.resolve():
        raise OutputRefused(f"--storage and --out name the same file: {out}")
    written = [("--out", out), ("--storage", storage)]
    if report is not None:
        written.append(("--report", report))
    for option, path in written:
        problem = _write_problem(path)
        if problem is not None:
            raise OutputRefused(f"{option} {path}: cannot write: {problem}")
    if storage.exists() and not _is_sqlite(storage):
        raise OutputRefused(
            f"--storage {storage}: not an SQLite database (the storage of a tune); "
            "name a new file or one an earlier tune made"
        )
