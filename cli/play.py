"""``naqala play``: a game in the terminal between people and AI players.

People type an option's number, its notation, or a whole meeple move in one line
(``c3 d3W d4R``: the start tile, then each tile with the colour dropped there). Anything
illegal gets a one-line reason and the same prompt again, with the game unchanged.
``help``, ``board``, ``undo``, ``save FILE`` and ``quit`` work at every prompt.
"""

from __future__ import annotations

import os
import re
import secrets
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, NoReturn

import attrs
import typer
from rich.columns import Columns
from rich.console import Console
from rich.text import Text

from naqala.agents.mcts import MAX_PLAYOUTS, MAX_SECONDS
from naqala.cli.common import Expansions, Without, fail, read_house_rules, seed_option
from naqala.cli.decisions import djinns_in_play
from naqala.cli.engine import Engine, asked_engine
from naqala.cli.hint import hint_lines
from naqala.cli.saving import SavePathError, save_path, shown
from naqala.cli.scores import score_table, seen_score_table, winners_line
from naqala.core.actions import (
    Action,
    NotationError,
    ascii_digits,
    parse_action,
    resolve_typed,
    shorten,
)
from naqala.core.agents import HUMAN, Agent, SeatError, canonical_seat
from naqala.core.content import ContentError
from naqala.core.engine import IllegalAction, Rules, build_rules
from naqala.core.failures import is_game_failure
from naqala.core.plugins import HouseRuleFile, PluginError
from naqala.core.record import (
    GameRecord,
    RecordError,
    load_record,
    new_record,
    replay,
    rules_for_record,
    save_record,
    with_action,
    with_final_scores,
    without_last,
)
from naqala.core.session import (
    UndoRefused,
    ai_move,
    replay_draws,
    seat_agents,
    undo_point,
    with_canonical_seats,
)
from naqala.core.simulate import agent_seed
from naqala.core.state import State
from naqala.core.without import leave_out, without_text
from naqala.display.decisions import decision_title, option_label
from naqala.display.text import render_state
from naqala.web.preview import move_preview
from naqala.web.words import option_words

#: the screen at a decision says at most this many options in words, one a line (more
#: are listed short, in columns; ``options`` lists every one in words)
WORDS_ON_SCREEN = 10
#: the room an option's number takes on its line (``512) ``)
OPTION_NUMBER = 5
#: a decision with more options than this lists only the first ``OPTIONS_PREVIEW`` of
#: them (a sale from a hand of eight kinds of merchandise has 256); ``options`` lists all
OPTIONS_LISTED = 30
OPTIONS_PREVIEW = 6
#: decisions listed in full however many options they have: every start tile at the pick
LISTED_IN_FULL = frozenset({"pick"})
#: the seat number the hint's seed is derived for (no real seat has it)
HINT_SEAT = 99
HELP = """\
Type one of:
  a number            the option with that number
  an action           e.g. "bid 12", "pick c3", "drop d3 W", "kill p2 Y", "end",
                      "claim mystic" (a Sultan's Whim whose condition holds)
  a tile              at the pick: the start tile alone, e.g. "c3" (for "pick c3")
  a whole move        at the pick: start tile, then each tile and the colour dropped
                      there, e.g. "c3 d3W d4R" (or "c3 d3 W d4 R")
  board               show the board again
  options             list every option of a long decision (also: list)
  djinns              what the djinns held and face up do (also: djinn, help djinns)
  score               the score now, line by line: yours in full, the others' public
                      points (their coins and face-down cards are not counted)
  hint                the AI's three best options now, with why (changes nothing)
  undo                go back to your previous decision (not past a card or meeple draw;
                      after --load, into the loaded part of the game too)
  save FILE           save the game (a record of its actions) to FILE
  quit                stop, offering to save first (Ctrl-D and Ctrl-C too)
Tiles are named like chess squares: column letter, row number, a1 top left.
On the board, * marks who decides now; ? hides other players' coins and cards, and
a score of 31+? is what you can count of theirs (their coins and cards add to it).
Meeple colours: Y vizier, W elder, G merchant, B builder, R assassin."""
_TILE = re.compile(r"[a-z]\d+", re.IGNORECASE)
_STEP = re.compile(r"^([a-z]\d+)([a-z])$", re.IGNORECASE)


def counted(number: int, noun: str) -> str:
    """``1 option``, ``2 options``."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


def parse_seats(rules: Rules, text: str) -> list[str]:
    """``human,ai,ai:random`` → canonical seats of ``rules`` (``naqala.core.agents.
    canonical_seat``); ``ai`` alone means the greedy AI. How many seats a game takes is
    the rules' business (the solo mode takes one)."""
    return [canonical_seat(rules, raw) for raw in text.split(",")]


def expand_move(text: str) -> list[Action] | None:
    """The actions of a whole move typed in one line, or None if ``text`` is not one."""
    tokens = text.split()
    if len(tokens) < 2 or not _TILE.fullmatch(tokens[0]):
        return None
    steps: list[Action] = [Action("pick", (tokens[0],))]
    rest = tokens[1:]
    i = 0
    while i < len(rest):
        match = _STEP.match(rest[i])
        if match:
            steps.append(Action("drop", match.groups()))
            i += 1
        elif i + 1 < len(rest) and _TILE.fullmatch(rest[i]) and len(rest[i + 1]) == 1:
            steps.append(Action("drop", (rest[i], rest[i + 1])))
            i += 2
        else:
            return None
    return steps


@attrs.define
class Snapshot:
    """A human decision point to come back to with ``undo``."""

    state: State
    record: GameRecord


class Quit(Exception):
    """The person asked to stop."""


class Session:
    """One game in the terminal: the rules, the state, the record, the seats."""

    def __init__(
        self,
        rules: Rules,
        state: State,
        record: GameRecord,
        console: Console,
        ask: Callable[[str], str],
        errors: Console | None = None,
        save_as: Path | None = None,
        agents: Sequence[Agent | None] | None = None,
    ) -> None:
        self.rules = rules
        self.state = state
        self.record = record
        self.console = console
        self.ask = ask
        #: where failures to save are reported (stderr in the command)
        self.errors = errors or console
        #: the file name offered when saving at quit (``--save``, if given)
        self.save_as = save_as
        #: the AI seats' players (by default the rules' own, on the Python engine)
        self.agents: list[Agent | None] = (
            seat_agents(rules, record) if agents is None else list(agents)
        )
        self.history: list[Snapshot] = []
        self.pending_ai: list[str] = []

    def catch_up(self, history: list[State]) -> None:
        """After loading, let each random AI make the draws it made before, so a resumed
        game goes on exactly as the uninterrupted one would have (the greedy AI has no
        chance in it and needs nothing)."""
        replay_draws(self.rules, self.agents, history)

    def remember(self, history: list[State]) -> None:
        """After loading: keep every earlier decision of a person in the loaded game (the
        states ``replay`` went through, one per action), so that ``undo`` goes back into
        the loaded part of the game as it would have in the uninterrupted one."""
        done = len(self.record.actions)
        for index, past in enumerate(history[:done]):
            player = past.decision.player
            if not past.is_over and 0 <= player < len(self.agents) and self.agents[player] is None:
                self.history.append(Snapshot(past, without_last(self.record, done - index)))

    # -- the game loop ---------------------------------------------------------------------

    def run(self) -> None:
        try:
            while not self.state.is_over:
                try:
                    self.next_decision()
                except KeyboardInterrupt:  # Ctrl-C while the AI plays: like quit
                    self.say("")
                    self.quit()
            self._flush_ai()
            self.finish()
        except Quit:
            self._flush_ai()
            self.console.print("Game stopped.")

    def next_decision(self) -> None:
        agent = self.agents[self.state.decision.player]
        if agent is None:
            self._flush_ai()
            self.human_decision()
        else:
            self.ai_decision(agent)

    def play(self, action: Action) -> None:
        from naqala.native.seated import follow_play

        before = self.state
        self.state = self.rules.apply(self.state, action)
        self.record = with_action(self.record, action)
        follow_play(self.agents, before, action, self.state)

    def ai_decision(self, agent: Agent) -> None:
        player = self.state.decision.player
        before = (self.state.round, self.state.turn is None, player)
        action = ai_move(self.rules, self.state, agent)
        self.play(action)
        self.pending_ai.append(str(action))
        after = (self.state.round, self.state.turn is None, self.state.decision.player)
        if after != before:
            self._flush_ai(player)

    def _flush_ai(self, player: int | None = None) -> None:
        if not self.pending_ai:
            return
        who = "" if player is None else f"P{player + 1} ({self.record.seats[player]}): "
        self.console.print(f"  {who}{', '.join(self.pending_ai)}", markup=False, highlight=False)
        self.pending_ai = []

    # -- people ------------------------------------------------------------------------------

    def human_decision(self) -> None:
        self.history.append(Snapshot(self.state, self.record))
        self.show()
        while True:
            try:
                line = self.ask(f"P{self.state.decision.player + 1}> ").strip()
            except (EOFError, KeyboardInterrupt):
                self.say("")
                self.quit()  # Ctrl-D or Ctrl-C at the prompt: like quit, offering to save
            if self.command(line):
                return

    def show(self) -> None:
        player = self.state.decision.player
        self.console.print(render_state(self.rules, self.state, viewer=player))
        options = self.rules.legal_actions(self.state)
        self.console.print(
            f"P{player + 1}, decide: {decision_title(self.rules, self.state)} "
            f"({counted(len(options), 'option')})",
            highlight=False,
            markup=False,
        )
        in_full = len(options) <= OPTIONS_LISTED or self.state.decision.stage in LISTED_IN_FULL
        shown = options if in_full else options[:OPTIONS_PREVIEW]
        # in words when they fit the screen; else short, and `options` says them in words
        self.list_options(shown, in_words=len(shown) <= WORDS_ON_SCREEN)
        if len(shown) < len(options):
            self.say(
                f"… and {len(options) - len(shown)} more: type options to list them all, "
                f"or type one (e.g. {str(options[-1])!r})"
            )

    def list_options(self, options: list[Action], in_words: bool = True) -> None:
        """The options numbered from 1, in columns as the width allows, in words (or
        short, ``leta a1 EE``, when ``in_words`` is false); at the pick, a start tile by
        its name alone (``12) c3``: every one of them is listed)."""
        picking = self.state.decision.stage == "pick"
        labels = [
            a.args[0]
            if picking and a.kind == "pick"
            else self.option_text(a)
            if in_words
            else option_label(self.rules, self.state, a)
            for a in options
        ]
        self.console.print(
            Columns(
                [Text(f"{i}) {label}") for i, label in enumerate(labels, start=1)], padding=(0, 2)
            ),
            markup=False,
        )

    def option_text(self, action: Action) -> str:
        """An option in the web page's words, its notation (what may be typed) after it
        in brackets: ``drop a Builder on d3 [drop d3 B]``. Long words are cut short with
        an ellipsis so that an option is one line and its notation is always whole (the
        screen at a decision stays about 50 rows)."""
        words = option_words(self.rules, self.state, action)
        notation = str(action)
        if words == notation:
            return option_label(self.rules, self.state, action)
        room = self.console.width - len(notation) - len(" []") - OPTION_NUMBER
        if len(words) > room:
            words = words[: max(room - 1, 1)].rstrip() + "…"
        return f"{words} [{notation}]"

    def say(self, message: str, *, whole_lines: bool = False) -> None:
        """Print a message; ``whole_lines`` keeps a line with a file path unbroken so it
        can be copied (the terminal, not rich, wraps it)."""
        self.console.print(message, markup=False, highlight=False, soft_wrap=whole_lines)

    def command(self, line: str) -> bool:
        """Handle one line typed at the prompt; True when the decision was made."""
        if not line:
            return False
        word, _, rest = line.partition(" ")
        word = word.lower()
        asked = rest.strip().lower()
        if (word in ("djinn", "djinns") and not asked) or (
            word in ("help", "?") and asked in ("djinn", "djinns")
        ):
            self.say("\n".join(djinns_in_play(self.rules, self.state)))
            return False
        if word in ("help", "?"):
            self.say(HELP)
            return False
        if word == "board":
            self.show()
            return False
        if word in ("options", "list") and not asked:
            self.list_options(self.rules.legal_actions(self.state))
            return False
        if word == "score" and not asked:
            viewer = self.state.decision.player
            self.console.print(seen_score_table(self.rules, self.state, viewer, self.record.seats))
            return False
        if word == "hint":
            self.say(self.hint())
            return False
        if word == "undo":
            return self.undo()
        if word == "save":
            self.save(rest.strip())
            return False
        if word in ("quit", "exit"):
            self.quit()
        options = self.rules.legal_actions(self.state)
        typed = ascii_digits(line)  # digits of any script count as 0-9 ("١٢", "１２")
        if typed.isascii() and typed.isdigit():
            return self.numbered(typed, options)
        try:
            picking = self.state.decision.stage == "pick"
            move = expand_move(typed) if picking else None
            if move is not None:
                return self.whole_move(move)
            if picking and _TILE.fullmatch(typed):  # a start tile by its name alone
                typed = f"pick {typed}"
            action = resolve_typed(parse_action(typed), options)
        except NotationError as exc:
            self.say(f"illegal: {exc} (type help)")
            return False
        try:
            self.play(action)
        except IllegalAction as exc:
            self.say(f"illegal: {exc}")
            return False
        return True

    def numbered(self, line: str, options: list[Action]) -> bool:
        """Play the option numbered ``line`` (digits only), if there is one."""
        number = int(line) if len(line) <= 6 else 0  # no int() of thousands of digits
        if not 1 <= number <= len(options):
            self.say(f"illegal: there is no option {shorten(line)} (1 to {len(options)})")
            return False
        self.play(options[number - 1])
        return True

    def hint(self) -> str:
        """The hint's lines; its seed comes from the game and the number of actions, not
        from any AI seat, so asking changes nothing in the game."""
        seed = agent_seed(self.record.seed, HINT_SEAT) + len(self.record.actions)
        ends = move_preview(self.rules, self.state)
        preview = ["where this hand can end:"] if ends else []
        preview += [f"  {end['words']}" for end in ends]
        return "\n".join([*preview, *hint_lines(self.rules, self.state, seed)])

    def whole_move(self, steps: list[Action]) -> bool:
        """Apply a whole move, all or nothing."""
        state = self.state
        for number, typed in enumerate(steps, start=1):
            step = resolve_typed(typed, self.rules.legal_actions(state))
            steps[number - 1] = step
            if not self.rules.is_legal(state, step):
                self.say(f"illegal: step {number} ({step}): {self.rules.explain(state, step)}")
                return False
            state = self.rules.apply(state, step)
            if number < len(steps) and state.decision.stage != "drop":
                self.say(f"illegal: the move is over after step {number} ({step})")
                return False
        if state.decision.stage == "drop":
            self.say("illegal: that move is not finished (meeples are still in hand)")
            return False
        for step in steps:
            self.play(step)
        return True

    def undo(self) -> bool:
        """Back to this seat's previous decision, unless chance revealed something since
        (``naqala.core.session.undo_point``; people at one terminal share it, so another
        person's decision since does not stand in the way)."""
        earlier = [snap.state for snap in self.history[:-1]]
        try:
            index = undo_point(earlier, self.state, self.state.decision.player)
        except UndoRefused as exc:
            self.say(exc.reason)
            return False
        target = self.history[index]
        self.history = self.history[:index]
        self.record = without_last(
            self.record, len(self.record.actions) - len(target.record.actions)
        )
        self.state = target.state
        self.say("undone: back to your previous decision")
        return True

    def save(self, name: str) -> bool:
        """Save the record to ``name`` (``~`` expanded); say why not on the error console."""
        if not name:
            self.say("save needs a file name: save FILE")
            return False
        try:
            path = save_path(name)
            save_record(path, self.record)
        except SavePathError as exc:
            self.errors.print(f"not saved: {exc}", markup=False, highlight=False, soft_wrap=True)
            return False
        except OSError as exc:
            reason = exc.strerror or exc
            self.errors.print(
                f"not saved: {shown(name)}: {reason}", markup=False, highlight=False, soft_wrap=True
            )
            return False
        actions = counted(len(self.record.actions), "action")
        self.say(f"saved to {name} ({actions})", whole_lines=True)
        return True

    def quit(self) -> NoReturn:
        if self.save_as is not None:
            self.say(f"The game will be saved to {self.save_as} (--save).", whole_lines=True)
            raise Quit
        try:
            answer = self.ask("Save the game before quitting? [y/N] ").strip().lower()
            if answer in ("y", "yes"):
                self.save_asking()
        except (EOFError, KeyboardInterrupt):
            self.say("")  # no answer: not saved ("Game stopped." on a line of its own)
        raise Quit

    def save_asking(self) -> None:
        """Ask for a file name until the game is saved; after a failure an empty answer
        gives up (the first time it means the default name). If the input ends first, the
        game is kept in a temporary file (``keep_somewhere``)."""
        try:
            name = self.ask("File name [naqala-save.json]: ").strip() or "naqala-save.json"
        except (EOFError, KeyboardInterrupt):
            self.say("")
            self.keep_somewhere()  # a save was wanted and no one is left to name a file
            return
        if not self.save(name):
            self.save_again()

    def save_again(self) -> bool:
        """After a failed save: ask for other file names until one works (True) or the
        answer is empty (False: the person gives up). If the input ends first, the game is
        kept in a temporary file (``keep_somewhere``) and the answer is False too."""
        try:
            while name := self.ask("Another file name (empty: do not save): ").strip():
                if self.save(name):
                    return True
        except (EOFError, KeyboardInterrupt):
            self.say("")
            self.keep_somewhere()  # a save was wanted and no one is left to name a file
        return False

    def keep_somewhere(self) -> Path | None:
        """The last resort when the game cannot be saved where asked: the record goes to a
        new file in the system's temporary folder, named on the error console so that the
        game can be resumed (``--load``). None if even that fails (said as well)."""
        try:
            handle, name = tempfile.mkstemp(prefix="naqala-game-", suffix=".json")
            os.close(handle)
            path = Path(name)
            save_record(path, self.record)
        except OSError as exc:
            reason = exc.strerror or exc
            self.errors.print(f"not saved anywhere: {reason}", markup=False, highlight=False)
            return None
        self.errors.print(
            f"the game ({counted(len(self.record.actions), 'action')}) is kept in {path}; "
            f"resume it with: naqala play --load {path}",
            markup=False,
            highlight=False,
            soft_wrap=True,  # the path stays on one line, to be copied
        )
        return path

    # -- the end -------------------------------------------------------------------------------

    def finish(self) -> None:
        self.record = with_final_scores(self.record, self.rules.scores(self.state))
        self.console.print(render_state(self.rules, self.state, reveal=True))
        self.console.print(score_table(self.rules, self.state, self.record.seats))
        self.console.print(winners_line(self.rules, self.state), highlight=False)


#: the seats of a new game when --seats is not given, if the rules allow three players
DEFAULT_SEATS = "human,ai,ai"


def default_seats(rules: Rules) -> list[str]:
    """The seats of a new game without ``--seats``: ``DEFAULT_SEATS`` when the rules allow
    that many players, else one person and greedy AIs for the fewest players they allow
    (``human`` alone in the solo mode)."""
    seats = parse_seats(rules, DEFAULT_SEATS)
    allowed = sorted(count.players for count in rules.content.player_counts)
    if not allowed or len(seats) in allowed:
        return seats
    return [HUMAN, *["ai:greedy"] * (allowed[0] - 1)]


def play_command(
    seats: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated seats: human, ai (greedy), ai:greedy, ai:random, "
            f"ai:mcts, ai:mcts:2000 (playouts, at most {MAX_PLAYOUTS}), ai:mcts:1.5s (CPU "
            f"seconds, at most {MAX_SECONDS:g}), ai:ismcts (tree search on the native engine; "
            "ai:ismcts:strong thinks 4 times as long, ai:ismcts:deep 16 times, ai:ismcts:2s "
            "2 CPU seconds), or ai:NAME of a player a house rule adds "
            f"[default: {DEFAULT_SEATS}; human in a solo game]."
        ),
    ] = None,
    expansion: Expansions = None,
    without: Without = None,
    seed: Annotated[
        int | None, seed_option("Seed of all chance (random if not set).", short=False)
    ] = None,
    house_rules: Annotated[
        list[Path] | None,
        typer.Option(
            "--house-rules",
            help="A house-rule file, .py or .toml content (repeatable); with --load, the "
            "files the saved game was played with (matched by sha256).",
        ),
    ] = None,
    load: Annotated[Path | None, typer.Option(help="Resume a saved game.")] = None,
    save: Annotated[
        Path | None,
        typer.Option(help="Save the game record here when it ends (checked before it starts)."),
    ] = None,
    engine: Engine = None,
) -> None:
    """Play a game in the terminal: people and AI players, any mix."""
    console = Console(highlight=False)
    asked = asked_engine(engine)
    save_as = _checked_save(save)
    history: list[State] = []
    if load is not None:
        _refuse_unused_options(seats, expansion, seed, without)
        load = _home_expanded(load)
        record, rules, history = _resume(load, read_house_rules(house_rules))
        agents = _table_agents(rules, record, asked)
        state = history[-1]
        left_out = f", {without_text(record.without)}" if record.without else ""
        console.print(
            f"Resumed {load}: {len(record.actions)} actions, seed {record.seed}{left_out}",
            markup=False,
            soft_wrap=True,  # the path stays on one line, to be copied
        )
    else:
        record, rules, state = _new_game(seats, expansion, seed, house_rules, without)
        agents = _table_agents(rules, record, asked)
        left_out = f" · {without_text(rules.without)}" if rules.without else ""
        console.print(
            f"New game · seed {record.seed} · seats {', '.join(record.seats)} · "
            f"plugins {', '.join(rules.names)}{left_out} · type help for help",
            markup=False,
        )
    errors = Console(stderr=True, highlight=False)
    session = Session(rules, state, record, console, input, errors, save_as, agents)
    session.catch_up(history[:-1])
    session.remember(history)
    try:
        session.run()
    except BaseException as exc:
        if not is_game_failure(exc):  # Ctrl-C and exits are the session's own
            raise
        # keep the game up to the failure (where --save said, else in a temporary file),
        # then report the failure (a kernel panic too, which `except Exception` misses)
        if save_as is None or not session.save(str(save_as)):
            session.keep_somewhere()
        raise
    if save_as is not None and not session.save(str(save_as)) and not session.save_again():
        raise typer.Exit(1)


def _table_agents(rules: Rules, record: GameRecord, asked: str) -> list[Agent | None]:
    """The AI seats' players on the engine ``asked`` (``--engine`` or ``NAQALA_ENGINE``;
    ``kernel.seated.table_engine``): auto's fallback said in one line, an impossible
    ``native`` refused before the game starts."""
    from naqala.native.choice import EngineError
    from naqala.native.seated import table_agents, table_engine

    try:
        choice = table_engine(rules, record.seats, asked)
    except EngineError as exc:
        fail(str(exc))
    for line in choice.lines:
        typer.echo(f"naqala: {line}", err=True)
    return table_agents(rules, record, choice.engine)


def _checked_save(save: Path | None) -> Path | None:
    """The ``--save`` path, ``~`` expanded, refused now if it could not be written later."""
    if save is None:
        return None
    try:
        return save_path(save)
    except SavePathError as exc:
        fail(f"--save {exc}")


def _home_expanded(path: Path) -> Path:
    """``path`` with ``~`` expanded as ``--save`` does (unchanged for ``~nobody``: the
    file is then reported as not found)."""
    try:
        return path.expanduser()
    except RuntimeError:
        return path


def _refuse_unused_options(
    seats: str | None,
    expansion: list[str] | None,
    seed: int | None,
    without: list[str] | None = None,
) -> None:
    """``--load`` plays on with the saved seats, expansions, cards left out and seed:
    asking for others would be silently ignored, so it is refused."""
    options = (
        ("--seats", seats),
        ("-x/--expansion", expansion),
        ("--without", without),
        ("--seed", seed),
    )
    given = [name for name, value in options if value not in (None, [])]
    if given:
        fail(
            f"--load resumes a saved game with its own seats, expansions, cards left out "
            f"and seed; leave out {', '.join(given)}"
        )


def _resume(load: Path, house_rules: list[HouseRuleFile]) -> tuple[GameRecord, Rules, list[State]]:
    """The saved record (seats made canonical), its rules (house rules only from
    ``house_rules``, matched by sha256) and every state it went through."""
    try:
        record = load_record(load)
        rules = rules_for_record(record, house_rules)
        record = with_canonical_seats(rules, record, str(load))
        return record, rules, replay(record, rules)
    except (RecordError, PluginError, ContentError, ValueError) as exc:
        message = str(exc)
        if not message.startswith(f"{load}:"):
            message = f"{load}: {message}"  # name the file, as naqala replay does
        fail(message)


def _new_game(
    seats: str | None,
    expansion: list[str] | None,
    seed: int | None,
    house_rules: list[Path] | None,
    without: list[str] | None = None,
) -> tuple[GameRecord, Rules, State]:
    try:
        rules = leave_out(build_rules(expansion or [], house_rules or []), without or [])
        seat_list = default_seats(rules) if seats is None else parse_seats(rules, seats)
        game_seed = secrets.randbelow(1_000_000) if seed is None else seed
        state = rules.new_game(len(seat_list), game_seed)
    except (SeatError, PluginError, ContentError, ValueError) as exc:
        fail(str(exc))
    return new_record(rules, game_seed, len(seat_list), seat_list), rules, state


def register(app: typer.Typer) -> None:
    """Add the ``play`` command to ``app``."""
    app.command("play")(play_command)
