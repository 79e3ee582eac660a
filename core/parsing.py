"""One lock for every parse of Python source the project makes (a formula of the effects
language, a house rule's code).

CPython 3.11 checks the depth of the AST objects it builds with a counter shared by the
whole interpreter, so two threads parsing at once can fail with ``SystemError: AST
constructor recursion depth mismatch`` (python/cpython gh-106905, fixed in 3.12). The lab
builds rules in each of its threads (``--jobs`` on native games), so parses are taken one
at a time here; each is short.
"""

from __future__ import annotations

import threading

__all__ = ["PARSE_LOCK"]

#: held while Python source is parsed or compiled
PARSE_LOCK = threading.Lock()
