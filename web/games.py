"""One game played through the web server: its rules, states and record, the seats with
their secret tokens, and what a seat may do and see.

Everything here is synchronous and knows nothing of HTTP: the server's handlers
(``naqala.web.endpoints``) call these methods one at a time per game (under the game's
lock) and turn the exceptions into HTTP answers. The seats' AI players and the undo
policy are those of ``naqala play`` (``naqala.core.session``). A refused action raises
:class:`Refused` and changes nothing.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from typing import Any

from naqala.core.actions import (
    Action,
    NotationError,
    parse_action,
    parse_typed,
    resolve_typed,
    shorten,
)
from naqala.core.agents import HUMAN, Agent, make_agent
from naqala.core.engine import IllegalAction, Rules
from naqala.core.failures import blame, is_engine_panic
from naqala.core.record import GameRecord, with_action, with_final_scores, without_last
from naqala.core.session import UndoRefused, replay_draws, undo_point
from naqala.core.simulate import agent_seed
from naqala.core.state import NOBODY, State
from naqala.core.views import sees_revealed, view_for
from naqala.display.decisions import decision_title, option_label
from naqala.display.html import score_table_html
from naqala.display.svg import seat_label, svg_parts
from naqala.native.choice import PYTHON
from naqala.native.seated import follow_play, table_agents
from naqala.web.bar import final_line, holding_line
from naqala.web.cards import card_catalogue, cards_in_play, own_cards
from naqala.web.gains import gains_words
from naqala.web.glossary import glossary
from naqala.web.preview import drop_warnings, move_preview
from naqala.web.recent import logged_words, turns_since
from naqala.web.score import score_in_sight
from naqala.web.updates import Pictures, catalogue_digest, lighten
from naqala.web.words import option_words

#: the AI that plays a human seat whose person asked for "play for me"
STAND_IN = "greedy"
#: how many of the latest actions a seat's page lists
LOG_LINES = 40
#: the shape of game ids and seat tokens (nothing else ever names a file or a game)
GAME_ID = re.compile(r"^[0-9a-f]{16}$")
TOKEN = re.compile(r"^[A-Za-z0-9_-]{22}$")


class Refused(Exception):
    """An action, click or undo the game does not allow now; the game is unchanged.
    ``status`` is the HTTP status the server answers with."""

    def __init__(self, reason: str, status: int = 409) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


def new_game_id() -> str:
    return secrets.token_hex(8)


def new_token() -> str:
    return secrets.token_urlsafe(16)


class Game:
    """A game in progress (or over) on the server."""

    def __init__(
        self,
        game_id: str,
        rules: Rules,
        record: GameRecord,
        states: Sequence[State],
        tokens: Sequence[str | None],
        autoplay: Sequence[int] = (),
        engine: str = PYTHON,
    ) -> None:
        if len(tokens) != record.players:
            raise ValueError(f"{record.players} seats need {record.players} tokens")
        self.id = game_id
        self.rules = rules
        self.record = record
        self.states = list(states)
        #: the secret of each human seat (None for an AI seat)
        self.tokens = tuple(tokens)
        #: human seats the stand-in AI plays for ("play for me")
        self.autoplay = set(autoplay)
        #: grows by one at every change; pages reload what they show when it does
        self.version = 0
        #: what each logged action gave the players, by (action index, seat), kept with
        #: the two states it was read from (an undo replaces them, and the entry with them)
        self._gains: dict[tuple[int, int], tuple[State, State, str]] = {}
        #: the engine of the AI seats' decisions (``native``: the kernel makes the greedy
        #: and mcts seats' decisions, the same ones; the game itself stays Python)
        self.engine = engine
        #: why the game cannot go on (an AI seat's decision failed), in one line, or None;
        #: its pages and the API say it, and no seat may move until a person changes
        #: who plays (``set_autoplay``)
        self.stopped: str | None = None
        #: whether ``stopped`` is for good (the server cannot play the game as asked),
        #: or only until a person changes who plays
        self._halted = False
        #: the latest undo (the version it made, the seat and how many actions it took
        #: back), which the other pages of the game say when they show that version
        self.last_undo: tuple[int, int, int] | None = None
        #: the move preview of the latest version (a page asks for it at every change)
        self._preview: tuple[int, list[dict[str, Any]]] = (-1, [])
        #: the pictures the pages were sent lately, so an update sends only new pieces
        self.pictures = Pictures()
        self.agents: list[Agent | None] = []
        self._reset_agents()

    # -- seats ---------------------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.states[-1]

    def seat_of(self, token: str) -> int | None:
        """The human seat holding ``token`` (compared in constant time), or None."""
        found = None
        for seat, secret in enumerate(self.tokens):
            if secret is not None and secrets.compare_digest(secret, token):
                found = seat
        return found

    def human_seats(self) -> list[int]:
        return [seat for seat, kind in enumerate(self.record.seats) if kind == HUMAN]

    def _reset_agents(self) -> None:
        """Fresh agents, made to draw what they drew for the states so far, so a resumed or
        undone game goes on exactly as one that was never interrupted (as ``naqala play``)."""
        self.agents = table_agents(self.rules, self.record, self.engine)
        replay_draws(self.rules, self.agents, self.states[:-1])

    def next_player(self) -> tuple[int, Agent] | None:
        """The seat and agent that must decide now without a person: an AI seat, or a human
        seat played for; None when a person decides or the game is over."""
        state = self.state
        if self.stopped is not None or state.is_over or state.decision.player == NOBODY:
            return None
        seat = state.decision.player
        agent = self.agents[seat]
        if agent is not None:
            return seat, agent
        if seat in self.autoplay:
            return seat, make_agent(self.rules, STAND_IN, agent_seed(self.record.seed, seat))
        return None

    # -- changing the game -------------------------------------------------------------------

    def play(self, action: Action) -> None:
        """Apply an action (``IllegalAction`` if it is not legal, the game unchanged)."""
        state = self.rules.apply(self.state, action)
        record = with_action(self.record, action)
        if state.is_over:
            record = with_final_scores(record, self.rules.scores(state))
        follow_play(self.agents, self.state, action, state)
        self.states.append(state)
        self.record = record
        self.version += 1

    def stop(self, seat: int, failure: BaseException) -> None:
        """The AI deciding for ``seat`` failed: the game stops, saying who and why."""
        self.stopped = f"the AI of {self.who(seat)} failed to decide: {failure_line(failure)}"
        self.version += 1

    def halt(self, reason: str) -> None:
        """The server cannot play this game as it was asked to (its AI seats' engine): it
        stays stopped with ``reason``, whoever plays for whom."""
        self.stopped = reason
        self._halted = True
        self.version += 1

    def _check_turn(self, seat: int) -> None:
        state = self.state
        if self.stopped is not None:
            raise Refused(f"the game cannot continue: {self.stopped}")
        if state.is_over:
            raise Refused("the game is over")
        if state.decision.player != seat:
            who = state.decision.player
            if who == NOBODY:
                raise Refused("nobody decides now")
            raise Refused(f"it is {seat_label(who)}'s decision, not yours ({seat_label(seat)})")
        if seat in self.autoplay:
            raise Refused("the AI is playing for you; stop it first")

    def act(self, seat: int, text: str) -> Action:
        """Play the action written ``text`` for ``seat``; ``Refused`` with the engine's reason
        if it cannot be played now."""
        self._check_turn(seat)
        options = self.rules.legal_actions(self.state)
        try:
            action = resolve_typed(parse_typed(text), options)
        except NotationError as exc:
            raise Refused(f"not an action: {exc}", 422) from None
        try:
            self.play(action)
        except IllegalAction as exc:
            raise Refused(str(exc)) from None
        return action

    def click(self, seat: int, target: str) -> list[Action]:
        """What a click on ``target`` (a tile like ``c3``, a card id, a spot's label)
        means: the one option it names is played (and returned alone), several are
        returned to choose from (nothing played); none is refused with the engine's
        reason for the action the click stands for."""
        self._check_turn(seat)
        options = self.rules.legal_actions(self.state)
        key = target.strip().lower()
        named = [a for a in options if key in _parts(a)]
        if len(named) == 1:
            self.play(named[0])
        if named:
            return named
        raise Refused(self._reason(key, options))

    def _reason(self, target: str, options: Sequence[Action]) -> str:
        """The engine's reason against the action a refused click stands for: a legal
        option with its first argument of the clicked kind (a tile for a tile, a number for
        a number, else a word) replaced by the target."""
        kind = _token_kind(target)
        for option in options:
            for index, arg in enumerate(option.args):
                if _token_kind(arg) == kind:
                    args = (*option.args[:index], target, *option.args[index + 1 :])
                    try:
                        guess = Action(option.kind, args)
                    except NotationError:
                        break
                    return self.rules.explain(self.state, guess)
        title = decision_title(self.rules, self.state)
        return f"{shorten(target)!r} is not part of any option of this decision ({title})"

    def undo(self, seat: int) -> None:
        """Back to this seat's previous decision by the policy of ``naqala play``
        (``naqala.core.session.undo_point``): not past a card or meeple draw, and, as
        each person has a browser of their own, not past another person's decision."""
        self._check_turn(seat)
        now = len(self.states) - 1
        try:
            target = undo_point(self.states[:-1], self.state, seat, self.human_seats())
        except UndoRefused as exc:
            raise Refused(exc.reason) from None
        self.record = without_last(self.record, now - target)
        self.states = self.states[: target + 1]
        self._reset_agents()
        self.version += 1
        self.last_undo = (self.version, seat, now - target)

    def set_autoplay(self, seat: int, on: bool) -> None:
        """Play for ``seat`` or stop; either may let a stopped game go on (the AI is
        tried again, or the person decides), so it is no longer stopped, unless halted."""
        if not self._halted:
            self.stopped = None
        if on:
            self.autoplay.add(seat)
        else:
            self.autoplay.discard(seat)
        self.version += 1

    # -- what a seat sees --------------------------------------------------------------------

    def who(self, seat: int) -> str:
        kind = self.record.seats[seat]
        return f"{seat_label(seat)} ({'person' if kind == HUMAN else kind})"

    def seen_action(self, index: int, seat: int) -> str:
        """Action ``index`` of the record as ``seat`` may know it, in the options' words: a
        choice among cards hidden from ``seat`` (another player keeping one of the items
        revealed to them) is said without the card."""
        before = self.states[index]
        text = self.record.actions[index]
        if _hides_revealed(before, seat):
            action = parse_action(text)
            if _parts(action) & set(before.turn.revealed if before.turn else ()):
                return f"{action.kind} (a card you do not see)"
        words = logged_words(self.rules, before, text)
        gained = self.gained(index, seat)
        return f"{words} → {gained}" if gained else words

    def gained(self, index: int, seat: int) -> str:
        """What action ``index`` gave each player, as ``seat`` may know it (``web.gains``):
        the draws and automatic takes the option's words do not name."""
        before, after = self.states[index], self.states[index + 1]
        kept = self._gains.get((index, seat))
        if kept is not None and kept[0] is before and kept[1] is after:
            return kept[2]
        action = parse_action(self.record.actions[index])
        was, now = (view_for(self.rules, s, seat) for s in (before, after))
        words = gains_words(self.rules, was, now, action, seat)
        self._gains[(index, seat)] = (before, after, words)
        return words

    def log(self, seat: int) -> list[str]:
        """The latest actions as ``seat`` may know them (``seen_action``), each with who
        took it, oldest first."""
        start = max(0, len(self.record.actions) - LOG_LINES)
        lines = []
        for index in range(start, len(self.record.actions)):
            before = self.states[index]
            player = before.decision.player
            who = seat_label(player) if player != NOBODY else "—"
            lines.append(f"{index + 1}. R{before.round} {who}: {self.seen_action(index, seat)}")
        return lines

    def preview(self) -> list[dict[str, Any]]:
        """Where the move under way can end (``web.preview``), worked out once a version."""
        if self._preview[0] != self.version:
            self._preview = (self.version, move_preview(self.rules, self.state))
        return self._preview[1]

    def others_turns(self, seat: int) -> list[dict[str, Any]]:
        """The other players' turns since ``seat`` last decided (``web.recent``)."""
        return turns_since(
            self.states,
            len(self.record.actions),
            seat,
            lambda index: self.seen_action(index, seat),
        )

    def update(self, seat: int, picture: str, cards: str) -> dict[str, Any]:
        """The seat's page for a page that shows the picture whose digest is ``picture``
        and holds the catalogue whose digest is ``cards`` (``web.updates``): the picture
        as new pieces and references, the catalogue only if it changed."""
        parts = svg_parts(self.rules, self.state, seat=seat, picks=True)
        page = self.page(seat, parts)
        page["svg_hash"] = self.pictures.keep(parts)
        return lighten(page, parts, self.pictures.get(picture) if picture else None, cards)

    def page(self, seat: int, parts: list[str] | None = None) -> dict[str, Any]:
        """Everything ``seat``'s page shows, and nothing another seat may hide from it:
        the picture and the engine's view as this seat sees them, the options when it
        decides, the score as this seat may see it during the game and the score table
        once it is over."""
        rules, state = self.rules, self.state
        mine = not state.is_over and self.stopped is None and state.decision.player == seat
        options = rules.legal_actions(state) if mine else []
        targets = sorted({part for a in options for part in _parts(a)})
        decider = state.decision.player
        if state.is_over:
            status = "The game is over."
        elif self.stopped is not None:
            status = f"The game cannot continue: {self.stopped}"
        elif decider == NOBODY:
            status = state.decision.stage
        else:
            # another seat's title could name the cards revealed to it: then only the stage
            hidden = not mine and _hides_revealed(state, seat)
            title = state.decision.stage if hidden else decision_title(rules, state)
            prefix = "Your decision" if mine else f"{self.who(decider)} decides"
            status = f"{prefix}: {title}"
        view = view_for(rules, state, seat)
        cards = card_catalogue(rules, state)
        return {
            "game": self.id,
            "seat": seat,
            "you": seat_label(seat),
            "version": self.version,
            "over": state.is_over,
            "stopped": self.stopped,
            "round": state.round,
            "deciding": None if decider == NOBODY else decider,
            "yours": mine,
            "status": status,
            "options": with_warnings(
                [option_entry(rules, state, a) for a in options],
                drop_warnings(rules, state, options) if mine else {},
            ),
            "targets": targets,
            "autoplay": seat in self.autoplay,
            "seats": [self.who(s) for s in range(len(self.record.seats))],
            "log": self.log(seat),
            "svg": "".join(parts or svg_parts(rules, state, seat=seat, picks=True)),
            "scores": (
                score_table_html(rules, state, self.record.seats, final=True)
                if state.is_over
                else ""
            ),
            "view": view,
            "score": None if state.is_over else score_in_sight(rules, state, seat),
            "cards": cards,
            "cards_hash": catalogue_digest(cards),
            "mine": own_cards(rules, view, seat),
            "in_play": cards_in_play(rules, state, view, seat),
            "undo": self._undo_note(),
            "others": self.others_turns(seat) if not state.is_over else [],
            "preview": self.preview() if mine else [],
            "holding": holding_line(rules, state, seat),
            "final": final_line(rules, state) if state.is_over else None,
            "glossary": glossary(rules, state),
        }

    def _undo_note(self) -> dict[str, Any] | None:
        """The latest undo as the pages say it: its version, who and how far back."""
        if self.last_undo is None:
            return None
        version, seat, back = self.last_undo
        actions = f"{back} action{'s' if back != 1 else ''}"
        return {
            "version": version,
            "by": seat_label(seat),
            "words": f"{seat_label(seat)} undid: {actions} taken back, to their previous decision",
        }


#: the most characters of a failure's message a page shows (a reason is one line)
FAILURE_CHARS = 300


def failure_line(failure: BaseException) -> str:
    """``Kind: message`` of a failure in one line (its first), shortened to
    :data:`FAILURE_CHARS`."""
    if is_engine_panic(failure):  # the kernel's bug, said as every command says it
        text = blame(failure)
    else:
        lines = str(failure).strip().splitlines()
        text = f"{type(failure).__name__}: {lines[0]}" if lines else type(failure).__name__
    return text if len(text) <= FAILURE_CHARS else text[: FAILURE_CHARS - 1] + "…"


def option_entry(rules: Rules, state: State, action: Action) -> dict[str, str]:
    """An option as a page lists it: the notation (``action``), what it does in words
    (``words``, :mod:`naqala.web.words`) and the terminal's short label (``label``)."""
    return {
        "action": str(action),
        "words": option_words(rules, state, action),
        "label": option_label(rules, state, action),
    }


def with_warnings(entries: list[dict[str, str]], warnings: dict[str, str]) -> list[dict[str, str]]:
    """The options' entries, each with its ``warning`` (``web.preview.drop_warnings``)
    where it has one."""
    return [
        {**entry, "warning": warnings[entry["action"]]} if entry["action"] in warnings else entry
        for entry in entries
    ]


def _hides_revealed(state: State, seat: int) -> bool:
    """Whether cards are being chosen from in ``state`` that ``seat`` may not see."""
    turn = state.turn
    return turn is not None and bool(turn.revealed) and not sees_revealed(state, seat)


def _token_kind(token: str) -> str:
    if re.fullmatch(r"[a-z]\d+", token, re.IGNORECASE):
        return "tile"
    if token.isdigit():
        return "number"
    return "word"


def _parts(action: Action) -> set[str]:
    """What a click can name in an action: its kind, each argument, and each card of an
    argument that joins several with ``+`` (``buy fakir+fish``)."""
    parts = {action.kind}
    for arg in action.args:
        low = arg.lower()
        parts.add(low)
        parts.update(low.split("+"))
    return parts
