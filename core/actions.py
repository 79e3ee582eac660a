"""Actions and their one-line text notation.

An action is a kind plus a few string arguments (``drop c3 W``, ``bid 12``). The notation is
the action: ``parse_action(format_action(a)) == a`` for every action, and legality is always
decided by membership in the legal actions of a state, never by the parser.

Text typed by a person is held to bounds (``MAX_TOKEN`` characters per token, ``MAX_ARGS``
arguments) so that nothing absurdly long reaches a rule or a message, and
``resolve_typed`` lets ``pick A1`` or ``bid 012`` mean the legal ``pick a1``/``bid 12``;
``parse_typed`` reads digits of any script (``bid ١٢``, ``bid １２``) as the number they show.
"""

from __future__ import annotations

import functools
import operator
import re
import unicodedata
from collections.abc import Callable, Iterable

import attrs

_TOKEN = re.compile(r"^[A-Za-z0-9_+\-.:'@]+$")
_DIGITS = re.compile(r"([0-9]+)")
#: what a token may be made of, for messages
TOKEN_CHARACTERS = "letters A-Z and a-z, digits 0-9 and _ + - . : ' @"

#: the longest token of an action (the longest the game makes: a sale of every suit)
MAX_TOKEN = 128
#: the most arguments an action has
MAX_ARGS = 16
#: the longest text ``parse_action`` reads
MAX_TEXT = (MAX_TOKEN + 1) * (MAX_ARGS + 1)


class NotationError(ValueError):
    """Text that is not an action in naqala notation."""


#: tokens already known to be valid; actions are built in hot loops from few distinct tokens
_VALID: set[str] = set()


def shorten(text: str, limit: int = 40) -> str:
    """``text`` cut to ``limit`` characters with ``…`` and its length, for messages."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def _check_token(token: str) -> str:
    if token in _VALID:
        return token
    if not isinstance(token, str):
        raise NotationError(f"bad token {token!r} in action notation")
    if len(token) > MAX_TOKEN:
        raise NotationError(
            f"token {shorten(token, 20)!r} is too long: {len(token):,} characters, "
            f"at most {MAX_TOKEN}"
        )
    if not _TOKEN.match(token):
        raise NotationError(
            f"bad token {shorten(token)!r} in action notation (only {TOKEN_CHARACTERS})"
        )
    if len(_VALID) < 100_000:
        _VALID.add(token)
    return token


def _to_args(values: Iterable[str]) -> tuple[str, ...]:
    return tuple(values)


@attrs.frozen(slots=True, order=False, cache_hash=True)
class Action:
    """One option of a pending decision.

    Its hash and canonical sort key are computed once (an action is hashed and sorted
    many times on the way through the legality check); ``action_of`` reuses one object per
    distinct action for the options the rules list over and over."""

    kind: str = attrs.field(validator=lambda _i, _a, v: _check_token(v))
    args: tuple[str, ...] = attrs.field(default=(), converter=_to_args)
    _key: str = attrs.field(init=False, eq=False, repr=False, default="")

    def __attrs_post_init__(self) -> None:
        if len(self.args) > MAX_ARGS:
            raise NotationError(f"{len(self.args)} arguments: an action has at most {MAX_ARGS}")
        for arg in self.args:
            _check_token(arg)
        object.__setattr__(self, "_key", _sort_key(self.kind, self.args))

    def __str__(self) -> str:
        return format_action(self)

    def sort_key(self) -> str:
        """Canonical order: by kind, then arguments with numbers compared as numbers."""
        return self._key


#: the canonical sort key of an action, for ``sorted(..., key=SORT_KEY)``
SORT_KEY: Callable[[Action], str] = operator.attrgetter("_key")


@functools.lru_cache(maxsize=1 << 16)
def action_of(kind: str, *args: str) -> Action:
    """The action ``kind args``, one shared object per distinct action: the options of
    decisions are listed over and over, and a shared object is built, validated and
    hashed once."""
    return Action(kind, args)


@functools.lru_cache(maxsize=1 << 16)
def _sort_key(kind: str, args: tuple[str, ...]) -> str:
    """The order of ``natural_key`` written as one string, so that sorting compares
    strings (in C) instead of nested tuples: the kind, then each argument's parts — a
    number as ``\x01``, its digit count and its digits (so it compares as a number), text
    as ``\x02`` and the text — each argument closed by ``\x00``. Tokens use no character
    below ``+``, so a shorter argument or argument list still sorts first."""
    out = [kind, "\x00"]
    for arg in args:
        for number, part in _natural(arg):
            if number == 0:
                digits = str(part)
                out.append(f"\x01{chr(0x20 + len(digits))}{digits}")
            else:
                out.append(f"\x02{part}")
        out.append("\x00")
    return "".join(out)


def natural_key(action: Action) -> tuple[object, ...]:
    """Canonical order as nested tuples: by kind, then arguments with numbers compared as
    numbers (what ``Action.sort_key`` encodes as one string)."""
    return (action.kind, tuple(_natural(arg) for arg in action.args))


def _natural(text: str) -> tuple[tuple[int, int | str], ...]:
    parts = _DIGITS.split(text)
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in parts if p != "")


def format_action(action: Action) -> str:
    """The notation of ``action``: its kind and arguments separated by single spaces."""
    return " ".join((action.kind, *action.args))


def parse_action(text: str) -> Action:
    """The action written as ``text`` (whitespace-separated kind and arguments)."""
    if len(text) > MAX_TEXT:
        raise NotationError(f"too long for an action: {len(text):,} characters")
    tokens = text.split()
    if not tokens:
        raise NotationError("empty action")
    try:
        return Action(tokens[0], tuple(tokens[1:]))
    except NotationError:
        raise
    except ValueError as exc:  # pragma: no cover - attrs validators raise NotationError
        raise NotationError(str(exc)) from exc


def ascii_digits(text: str) -> str:
    """``text`` with every decimal digit of another script (Arabic-Indic ``١٢``,
    full-width ``１２``, …) written as its digit 0-9, so that typed numbers mean what they
    show. Other characters (``²`` is no decimal digit) are left for the notation to refuse."""
    if text.isascii() or len(text) > MAX_TEXT:
        return text
    return "".join(
        str(unicodedata.decimal(ch)) if ch.isdecimal() and not ch.isascii() else ch for ch in text
    )


def parse_typed(text: str) -> Action:
    """The action a person typed as ``text``: ``parse_action`` after ``ascii_digits``
    (``resolve_typed`` then matches it to the legal action it means)."""
    return parse_action(ascii_digits(text))


def resolve_typed(action: Action, legal: Iterable[Action]) -> Action:
    """The legal action ``action`` was meant as: itself if legal, else the one legal
    action that differs only in letter case and in how numbers are written (``pick A1``
    → ``pick a1``, ``bid 012`` → ``bid 12``); unchanged when there is no such single one,
    so that the rules explain why it is illegal."""
    options = list(legal)
    if action in options:
        return action
    wanted = _loose_key(action)
    matches = [option for option in options if _loose_key(option) == wanted]
    return matches[0] if len(matches) == 1 else action


def _loose_key(action: Action) -> tuple[object, ...]:
    return tuple(_natural(token.casefold()) for token in (action.kind, *action.args))


def sorted_actions(actions: Iterable[Action]) -> list[Action]:
    """Actions in canonical order, duplicates removed."""
    return sorted(set(actions), key=SORT_KEY)
