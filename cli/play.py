"""``naqala play``: a game in the terminal between people and AI players.

People type an option's number, its notation, or a whole meeple move in one line
(``c3 d3W d4R``: the start tile, then each tile with the colour dropped there). Anything
illegal gets a one-line reason and the same prompt again, with the game unchanged.
``help``, ``board``, ``undo``, ``save FILE`` and ``quit`` work at every prompt.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, NoReturn

import attrs
import typer
from rich.columns import Columns
from rich.console import Console

from naqala.cli.hint import hint_lines
from naqala.cli.render import render_state
from naqala.cli.scores import score_table, winners_line
from naqala.core.actions import Action, NotationError, parse_action
from naqala.core.agents import Agent, RandomAgent
from naqala.core.content import ContentError
from naqala.core.engine import IllegalAction, Rules, build_rules
from naqala.core.plugins import PluginError
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
from naqala.core.simulate import agent_seed
from naqala.core.state import State
from naqala.plugins.base.agents import AGENTS, agent_known, make_agent

HUMAN = "human"
#: the seat number the hint's seed is derived for (no real seat has it)
HINT_SEAT = 99
HELP = """\
Type one of:
  a number            the option with that number
  an action           e.g. "bid 12", "pick c3", "drop d3 W", "kill p2 Y", "end",
                      "claim mystic" (a Sultan's Whim whose condition holds)
  a whole move        at the pick: start tile, then each tile and the colour dropped
                      there, e.g. "c3 d3W d4R" (or "c3 d3 W d4 R")
  board               show the board again
  hint                the AI's three best options now, with why (changes nothing)
  undo                go back to your previous decision (not past a card or meeple draw)
  save FILE           save the game (a record of its actions) to FILE
  quit                stop playing (you are offered to save first)
Tiles are named like chess squares: column letter, row number, a1 top left.
Meeple colours: Y vizier, W elder, G merchant, B builder, R assassin."""
_STEP = re.compile(r"^([a-z]\d+)([A-Z])$")


class SeatError(ValueError):
    """A --seats value that names no known kind of seat."""


def is_seat(seat: str) -> bool:
    """True for a canonical seat: ``human`` or ``ai:<kind>`` of a known AI."""
    return seat == HUMAN or (seat.startswith("ai:") and agent_known(seat[3:]))


def parse_seats(text: str) -> list[str]:
    """``human,ai,ai:random`` → canonical seats; ``ai`` alone means the greedy AI."""
    seats = []
    for raw in text.split(","):
        seat = raw.strip().lower()
        if seat == "ai":
            seat = "ai:greedy"
        if not is_seat(seat):
            known = ", ".join([HUMAN, "ai", *(f"ai:{name}" for name in sorted(AGENTS))])
            raise SeatError(f"unknown seat {raw.strip()!r}; seats are {known}")
        seats.append(seat)
    if len(seats) < 2:
        raise SeatError("a game needs at least 2 seats, e.g. --seats human,ai")
    return seats


def expand_move(text: str) -> list[Action] | None:
    """The actions of a whole move typed in one line, or None if ``text`` is not one."""
    tokens = text.split()
    if len(tokens) < 2 or not re.fullmatch(r"[a-z]\d+", tokens[0]):
        return None
    steps: list[Action] = [Action("pick", (tokens[0],))]
    rest = tokens[1:]
    i = 0
    while i < len(rest):
        match = _STEP.match(rest[i])
        if match:
            steps.append(Action("drop", match.groups()))
            i += 1
        elif i + 1 < len(rest) and re.fullmatch(r"[a-z]\d+", rest[i]) and rest[i + 1].isupper():
            steps.append(Action("drop", (rest[i], rest[i + 1])))
            i += 2
        else:
            return None
    return steps


def drew_since(before: State, after: State) -> bool:
    """True if chance revealed something between two states: the generator advanced (a
    shuffle, meeples drawn from the bag) or a card left a draw pile (the piles are shuffled
    at setup, so drawing from them does not advance the generator)."""
    return before.rng != after.rng or any(
        old.draw != new.draw for old, new in zip(before.decks, after.decks, strict=True)
    )


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
    ) -> None:
        self.rules = rules
        self.state = state
        self.record = record
        self.console = console
        self.ask = ask
        self.agents: list[Agent | None] = [
            None if seat == HUMAN else make_agent(seat[3:], agent_seed(record.seed, i))
            for i, seat in enumerate(record.seats)
        ]
        self.history: list[Snapshot] = []
        self.pending_ai: list[str] = []

    def catch_up(self, history: list[State]) -> None:
        """After loading, let each random AI make the draws it made before, so a resumed
        game goes on exactly as the uninterrupted one would have (the greedy AI has no
        chance in it and needs nothing)."""
        for past in history:
            agent = self.agents[past.decision.player] if not past.is_over else None
            if isinstance(agent, RandomAgent):
                agent.choose(self.rules, past, self.rules.legal_actions(past))

    # -- the game loop ---------------------------------------------------------------------

    def run(self) -> None:
        try:
            while not self.state.is_over:
                agent = self.agents[self.state.decision.player]
                if agent is None:
                    self._flush_ai()
                    self.human_decision()
                else:
                    self.ai_decision(agent)
            self._flush_ai()
            self.finish()
        except Quit:
            self._flush_ai()
            self.console.print("Game stopped.")

    def play(self, action: Action) -> None:
        self.state = self.rules.apply(self.state, action)
        self.record = with_action(self.record, action)

    def ai_decision(self, agent: Agent) -> None:
        player = self.state.decision.player
        before = (self.state.round, self.state.turn is None, player)
        action = agent.choose(self.rules, self.state, self.rules.legal_actions(self.state))
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
            except EOFError:
                raise Quit from None
            except KeyboardInterrupt:
                self.say("")
                self.quit()  # Ctrl-C at the prompt: like quit, offering to save
            if self.command(line):
                return

    def show(self) -> None:
        player = self.state.decision.player
        self.console.print(render_state(self.rules, self.state, viewer=player))
        options = self.rules.legal_actions(self.state)
        self.console.print(
            f"P{player + 1}, decide: {self.state.decision.stage} "
            f"({len(options)} options; type help for help)",
            highlight=False,
        )
        self.console.print(
            Columns([f"{i}) {a}" for i, a in enumerate(options, start=1)], padding=(0, 2)),
        )

    def say(self, message: str) -> None:
        self.console.print(message, markup=False, highlight=False)

    def command(self, line: str) -> bool:
        """Handle one line typed at the prompt; True when the decision was made."""
        if not line:
            return False
        word, _, rest = line.partition(" ")
        word = word.lower()
        if word in ("help", "?"):
            self.say(HELP)
            return False
        if word == "board":
            self.show()
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
        if line.isdigit():
            number = int(line)
            if not 1 <= number <= len(options):
                self.say(f"illegal: there is no option {number} (1 to {len(options)})")
                return False
            self.play(options[number - 1])
            return True
        move = expand_move(line) if self.state.decision.stage == "pick" else None
        if move is not None:
            return self.whole_move(move)
        try:
            action = parse_action(line)
        except NotationError as exc:
            self.say(f"illegal: {exc} (type help)")
            return False
        try:
            self.play(action)
        except IllegalAction as exc:
            self.say(f"illegal: {exc}")
            return False
        return True

    def hint(self) -> str:
        """The hint's lines; its seed comes from the game and the number of actions, not
        from any AI seat, so asking changes nothing in the game."""
        seed = agent_seed(self.record.seed, HINT_SEAT) + len(self.record.actions)
        return "\n".join(hint_lines(self.rules, self.state, seed))

    def whole_move(self, steps: list[Action]) -> bool:
        """Apply a whole move, all or nothing."""
        state = self.state
        for number, step in enumerate(steps, start=1):
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
        """Back to this seat's previous decision, unless chance revealed something since."""
        player = self.state.decision.player
        earlier = [
            i for i, snap in enumerate(self.history[:-1]) if snap.state.decision.player == player
        ]
        if not earlier:
            self.say("nothing to undo: this is your first decision")
            return False
        target = self.history[earlier[-1]]
        if drew_since(target.state, self.state):
            self.say("cannot undo: cards or meeples were drawn since your previous decision")
            return False
        self.history = self.history[: earlier[-1]]
        self.record = without_last(
            self.record, len(self.record.actions) - len(target.record.actions)
        )
        self.state = target.state
        self.say("undone: back to your previous decision")
        return True

    def save(self, name: str) -> bool:
        if not name:
            self.say("save needs a file name: save FILE")
            return False
        try:
            save_record(Path(name), self.record)
        except OSError as exc:
            self.say(f"not saved: {exc.strerror or exc}")
            return False
        self.say(f"saved to {name} ({len(self.record.actions)} actions)")
        return True

    def quit(self) -> NoReturn:
        try:
            answer = self.ask("Save the game before quitting? [y/N] ").strip().lower()
            if answer in ("y", "yes"):
                name = self.ask("File name [naqala-save.json]: ").strip() or "naqala-save.json"
                self.save(name)
        except (EOFError, KeyboardInterrupt):
            pass
        raise Quit

    # -- the end -------------------------------------------------------------------------------

    def finish(self) -> None:
        self.record = with_final_scores(self.record, self.rules.scores(self.state))
        self.console.print(render_state(self.rules, self.state, reveal=True))
        self.console.print(score_table(self.rules, self.state, self.record.seats))
        self.console.print(winners_line(self.rules, self.state), highlight=False)


def _fail(message: str) -> NoReturn:
    typer.echo(f"naqala: {message}", err=True)
    raise typer.Exit(2)


def play_command(
    seats: Annotated[
        str,
        typer.Option(
            help="Comma-separated seats: human, ai (greedy), ai:greedy, ai:random, "
            "ai:mcts, ai:mcts:2000 (iterations), ai:mcts:1.5s (CPU seconds)."
        ),
    ] = "human,ai,ai",
    expansion: Annotated[
        list[str] | None,
        typer.Option("--expansion", "-x", help="Enable an expansion (repeatable)."),
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of all chance (random if not set).")
    ] = None,
    house_rules: Annotated[
        list[Path] | None,
        typer.Option("--house-rules", help="A house-rule Python file (repeatable)."),
    ] = None,
    load: Annotated[Path | None, typer.Option(help="Resume a saved game.")] = None,
    save: Annotated[
        Path | None, typer.Option(help="Save the game record here when it ends.")
    ] = None,
) -> None:
    """Play a game in the terminal: people and AI players, any mix."""
    console = Console(highlight=False)
    try:
        if load is not None:
            record = load_record(load)
            for index, seat in enumerate(record.seats):
                if not is_seat(seat):
                    raise RecordError(f"{load}: $.seats[{index}]: unknown seat {seat!r}")
            rules = rules_for_record(record, house_rules or [])
            history = replay(record, rules)
            state = history[-1]
            console.print(f"Resumed {load}: {len(record.actions)} actions, seed {record.seed}")
        else:
            seat_list = parse_seats(seats)
            rules = build_rules(expansion or [], house_rules or [])
            game_seed = secrets.randbelow(1_000_000) if seed is None else seed
            state = rules.new_game(len(seat_list), game_seed)
            record = new_record(rules, game_seed, len(seat_list), seat_list)
            console.print(
                f"New game · seed {game_seed} · seats {', '.join(seat_list)} · "
                f"plugins {', '.join(rules.ruleset)}"
            )
    except (RecordError, SeatError, PluginError, ContentError, ValueError) as exc:
        message = str(exc)
        if load is not None and not message.startswith(f"{load}:"):
            message = f"{load}: {message}"  # name the file, as naqala replay does
        _fail(message)
    session = Session(rules, state, record, console, input)
    if load is not None:
        session.catch_up(history[:-1])
    session.run()
    if save is not None and not session.save(str(save)):
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add the ``play`` command to ``app``."""
    app.command("play")(play_command)
