"""The five tribe actions (rulebook 2.4), entered after the control check.

``state.turn.colour`` and ``state.turn.taken`` say which meeples the move collected.
"""

from __future__ import annotations

import functools

from naqala.core.actions import Action, action_of
from naqala.core.board import Geometry
from naqala.core.content import RESOURCES
from naqala.core.engine import Rules
from naqala.core.events import Event
from naqala.core.stage import Stage
from naqala.core.state import State, Turn, add_at, evolve
from naqala.plugins.base import events
from naqala.plugins.base.common import (
    FAKIR,
    KILLS,
    REACH,
    TARGET,
    add_cards,
    change_kept,
    current,
    discard_cards,
    fakirs_held,
    gain_coins,
    keep_meeples,
    set_deck,
    take_tile,
    tiles_around,
)

VIZIER = "yellow"
ELDER = "white"


def _turn(state: State) -> Turn:
    assert state.turn is not None
    return state.turn


def return_to_bag(state: State) -> State:
    """Put the collected meeples back in the bag (merchants, builders, assassins)."""
    turn = _turn(state)
    return evolve(state, bag=add_at(state.bag, turn.colour, turn.taken))


class KeepTribe(Stage):
    """Viziers and Elders: the player keeps them in front of them."""

    def enter(self, rules: Rules, state: State) -> State:
        turn = _turn(state)
        state = keep_meeples(state, current(state), turn.colour, turn.taken)
        return rules.proceed(state, self.name)


class Merchants(Stage):
    """Return them to the bag; take that many cards from the front of the resource row."""

    def enter(self, rules: Rules, state: State) -> State:
        state = return_to_bag(state)
        deck = rules.deck_in(state, RESOURCES)
        n = min(_turn(state).taken, len(deck.row))
        state = set_deck(state, rules.deck_index[RESOURCES], evolve(deck, row=deck.row[n:]))
        state = add_cards(state, current(state), deck.row[:n])
        return rules.proceed(state, self.name)


def blue_tiles_around(rules: Rules, state: State, tile: int) -> int:
    """Blue-valued tiles in the 3×3 block around ``tile``, ``tile`` included."""
    return tiles_around(rules, state, tile, "blue")


class Builders(Stage):
    """Return them to the bag; earn (builders + Fakirs discarded) × blue tiles around the
    final tile. ``fakirs <n>`` chooses how many Fakirs to discard."""

    def enter(self, rules: Rules, state: State) -> State:
        state = return_to_bag(state)
        if self._blue(rules, state) and fakirs_held(state, current(state)):
            return super().enter(rules, state)
        return self._pay(rules, state, 0)

    def _blue(self, rules: Rules, state: State) -> int:
        return blue_tiles_around(rules, state, _turn(state).here)

    def title(self, rules: Rules, state: State) -> str:
        return f"Builders: discard Fakirs? Each earns {self._blue(rules, state)} more coins"

    def legal(self, rules: Rules, state: State) -> list[Action]:
        return [action_of("fakirs", str(n)) for n in range(fakirs_held(state, current(state)) + 1)]

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        return self._pay(rules, state, int(action.args[0]))

    def _pay(self, rules: Rules, state: State, fakirs: int) -> State:
        player = current(state)
        if fakirs:
            state = discard_cards(state, player, (FAKIR,) * fakirs)
        amount = (_turn(state).taken + fakirs) * self._blue(rules, state)
        state = gain_coins(state, player, amount)
        state = rules.fire(
            state, Event(events.BUILDERS_PAID, player, tile=_turn(state).here, count=amount)
        )
        return rules.proceed(state, self.name)


class Assassins(Stage):
    """Return them to the bag; kill one meeple within (assassins + Fakirs) orthogonal steps
    of the final tile, or a Vizier or Elder in front of an opponent. ``fakirs <n>`` first
    (when the player holds Fakirs and more range could matter), then the ``kill`` stage."""

    def enter(self, rules: Rules, state: State) -> State:
        state = return_to_bag(state)
        if fakirs_held(state, current(state)) and self._useful_fakirs(state):
            return super().enter(rules, state)
        return self._to_kill(rules, state, 0)

    def _useful_fakirs(self, state: State) -> int:
        """Fakirs beyond this many cannot reach any further tile."""
        geo = state.geometry
        here = _turn(state).here
        farthest = max(geo.distance(here, t) for t in range(geo.size))
        return max(0, farthest - _turn(state).taken)

    def title(self, rules: Rules, state: State) -> str:
        return f"Assassins: discard Fakirs? Each reaches 1 tile further than {_turn(state).taken}"

    def legal(self, rules: Rules, state: State) -> list[Action]:
        top = min(fakirs_held(state, current(state)), self._useful_fakirs(state))
        return [action_of("fakirs", str(n)) for n in range(top + 1)]

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        return self._to_kill(rules, state, int(action.args[0]))

    def _to_kill(self, rules: Rules, state: State, fakirs: int) -> State:
        player = current(state)
        if fakirs:
            state = discard_cards(state, player, (FAKIR,) * fakirs)
        turn = _turn(state)
        state = evolve(state, turn=REACH.on(turn, turn.taken + fakirs))
        state = report_protection(rules, state)
        if kill_targets(rules, state):
            return rules.call(state, "kill", self.name)
        return rules.proceed(state, self.name)


def kill_targets(rules: Rules, state: State, protection: bool = True) -> list[Action]:
    """``kill <tile> <colour>`` within range and ``kill p<seat> <Y|W>`` against opponents,
    leaving out meeples protected in front of their owner (``rules.protected``).

    The range is the turn's ``reach`` (assassins plus Fakirs discarded). After a first
    kill of several (its ``target`` set), only the same tile or the same opponent is a
    target."""
    options, in_front = _all_targets(rules, state)
    if not protection:
        return options + [option for _, _, option in in_front]
    safe: dict[int, frozenset[str]] = {}
    for other, colour_id, option in in_front:
        if other not in safe:
            safe[other] = rules.protected(state, other)
        if colour_id not in safe[other]:
            options.append(option)
    return options


@functools.lru_cache(maxsize=4096)
def within(geo: Geometry, here: int, reach: int) -> tuple[int, ...]:
    """The tiles at most ``reach`` orthogonal steps from ``here``, in board order."""
    return tuple(tile for tile in range(geo.size) if geo.distance(here, tile) <= reach)


def _all_targets(rules: Rules, state: State) -> tuple[list[Action], list[tuple[int, str, Action]]]:
    """The targets on tiles, and (opponent, colour id, option) for each meeple in front
    of an opponent, protected or not."""
    turn = _turn(state)
    geo = state.geometry
    letters = rules.letters
    names = geo.names
    options: list[Action] = []
    target, reach = TARGET.of(turn), REACH.of(turn)
    if target.startswith("p"):
        tiles: tuple[int, ...] = ()
    elif target:
        tile = geo.parse(target)
        tiles = (tile,) if geo.distance(turn.here, tile) <= reach else ()
    else:
        tiles = within(geo, turn.here, reach)
    meeples = state.board.meeples
    for tile in tiles:
        for colour, n in enumerate(meeples[tile]):
            if n:
                options.append(action_of("kill", names[tile], letters[colour]))
    player = current(state)
    in_front: list[tuple[int, str, Action]] = []
    for other, holdings in enumerate(state.players):
        seat = f"p{other + 1}"
        if other == player or (target and target != seat):
            continue
        for colour_id in killable_in_front(rules):
            colour = rules.colour_index[colour_id]
            if holdings.meeples[colour]:
                in_front.append((other, colour_id, action_of("kill", seat, letters[colour])))
    return options, in_front


def killable_in_front(rules: Rules) -> tuple[str, ...]:
    """Colours that assassins may kill in front of an opponent: the colours the content
    marks ``kept`` (viziers and elders in the base game)."""
    return tuple(c.id for c in rules.colours if c.kept)


def report_protection(rules: Rules, state: State) -> State:
    """Fire ``kill-prevented`` for each opponent whose protection hides a target now."""
    if TARGET.of(_turn(state)):
        return state
    _, in_front = _all_targets(rules, state)
    safe: dict[int, frozenset[str]] = {}
    hidden: set[int] = set()
    for other, colour_id, _ in in_front:
        if other not in safe:
            safe[other] = rules.protected(state, other)
        if colour_id in safe[other]:
            hidden.add(other)
    for victim in sorted(hidden):
        state = rules.fire(state, Event(events.KILL_PREVENTED, current(state), victim=victim))
    return state


class KillStage(Stage):
    """Choose the assassins' victim. When a kill empties an unowned tile, the killer takes it
    with a camel if one is left; the tile's action is never done. When the assassins kill
    more than one meeple this turn (the turn's ``kills``), the next victims must come from the
    same tile or the same opponent."""

    def title(self, rules: Rules, state: State) -> str:
        return "Assassins: choose the meeple to kill (p<seat>: one in front of a player)"

    def legal(self, rules: Rules, state: State) -> list[Action]:
        return kill_targets(rules, state)

    def explain(self, rules: Rules, state: State, action: Action) -> str | None:
        """Why a typed ``kill`` is not a target: no such colour, tile or player, the first
        victim's place binds the next, out of reach (with the distance), nobody of that
        colour there, or protected in front of its owner."""
        if action.kind != "kill" or len(action.args) != 2:
            return None
        where, letter = action.args[0].lower(), action.args[1].upper()
        if letter not in rules.letters:
            return f"{letter!r} is no meeple colour; the colours are {', '.join(rules.letters)}"
        colour = rules.colours[rules.letters.index(letter)]
        turn = _turn(state)
        target = TARGET.of(turn)
        if target and where != target:
            return f"the assassins kill again where they killed first: {target}"
        if where.startswith("p"):
            return _why_not_in_front(rules, state, where, colour.id)
        geo = state.geometry
        try:
            tile = geo.parse(where)
        except ValueError as exc:
            return str(exc)
        distance = geo.distance(turn.here, tile)
        if distance > REACH.of(turn):
            return (
                f"{where} is out of reach: {distance} steps from {geo.name(turn.here)}, "
                f"and the assassins reach {REACH.of(turn)}"
            )
        if not state.board.meeples[tile][rules.colour_index[colour.id]]:
            return f"nobody there: no {colour.name.lower()} on {where}"
        return None

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        where, letter = action.args
        colour = rules.letters.index(letter)
        player = current(state)
        if where.startswith("p"):
            victim = int(where[1:]) - 1
            state = change_kept(state, victim, colour, -1)
            state = rules.fire(state, Event(events.KILL, player, colour=colour, victim=victim))
        else:
            tile = state.geometry.parse(where)
            counts = add_at(state.board.meeples[tile], colour, -1)
            state = evolve(
                state,
                board=state.board.with_meeples_at(tile, counts),
                bag=add_at(state.bag, colour, 1),
            )
            state = rules.fire(state, Event(events.KILL, player, tile=tile, colour=colour))
            if not any(counts):
                state = take_tile(rules, state, player, tile)
        turn = _turn(state)
        kills = max(0, KILLS.of(turn) - 1)  # an effect may have left none to kill
        state = evolve(state, turn=TARGET.on(KILLS.on(turn, kills), where))
        if kills > 0 and kill_targets(rules, state):
            return state
        return rules.return_to_caller(state)


def _why_not_in_front(rules: Rules, state: State, seat: str, colour_id: str) -> str | None:
    """Why ``kill p<n> <colour>`` is not a target: no such opponent, a colour not kept in
    front of players, none of it there, or protected (``rules.protected``)."""
    players = len(state.players)
    number = seat[1:]
    if not (number.isascii() and number.isdigit() and len(number) < 4) or not (
        1 <= int(number) <= players
    ):
        return f"there is no player {seat} (p1 to p{players})"
    victim = int(number) - 1
    name = rules.colours[rules.colour_index[colour_id]].name.lower()
    if victim == current(state):
        return "the assassins kill another player's meeple, not yours"
    kept = killable_in_front(rules)
    if colour_id not in kept:
        names = " or ".join(rules.colours[rules.colour_index[c]].name.lower() for c in kept)
        return f"in front of a player only a {names} can be killed, not a {name}"
    if not state.players[victim].meeples[rules.colour_index[colour_id]]:
        return f"nobody there: P{victim + 1} has no {name} in front of them"
    if colour_id in rules.protected(state, victim):
        return f"P{victim + 1}'s {name}s are protected from the assassins"
    return None


def tribe_actions() -> dict[str, Stage]:
    return {
        "yellow": KeepTribe(),
        "white": KeepTribe(),
        "green": Merchants(),
        "blue": Builders(),
        "red": Assassins(),
    }
