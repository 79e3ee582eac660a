"""A theft, step by step: the thief's owner uses it at the tribe action of its colour
(the ``thief`` step), each opponent in turn gives something up (``thief-give``, decided
by that opponent), and the owner keeps part of what was given (``thief-keep``).

``Theft`` is the base class of the six thieves' powers (``thieves:<kind>``, one card
model: the thieves deck's policy discards a used thief). A power says what an opponent
can give up, what giving it does, what the owner can keep and what keeping does; this
module runs the steps. While a theft runs, the turn is inside a power's own decision
(``Turn.resume``), so no other card interrupts it, and ``state.extras`` records it:
``thieves.running.<card>``, ``thieves.victim.<seat>`` for each opponent still to give,
and ``thieves.given.<what>`` for what was given up that is not a card (cards wait in
``Turn.revealed``).
"""

from __future__ import annotations

from collections.abc import Iterable

from naqala.core.actions import Action
from naqala.core.content import CardSpec
from naqala.core.engine import Rules
from naqala.core.events import ScoreLine
from naqala.core.stage import Stage
from naqala.core.state import Decision, State, Turn, evolve, get_extra, set_extra, turn_owner
from naqala.plugins.base.api import SKIP, Activated
from naqala.plugins.thieves import immunity

#: the plugin's name, the source of the thieves' score lines
NAME = "thieves"
#: the decision where the owner may use a thief, after the tribe action of its colour
STEP = "thief"
#: an opponent gives something up
GIVE = "thief-give"
#: the owner keeps part of what was given
KEEP = "thief-keep"
#: ``Turn.used`` marks: the thief step was offered this turn; a thief taken this turn
OFFERED = "thieves.offered"
TAKEN = "thieves.taken."
#: ``state.extras`` keys of a theft in progress
RUNNING = "thieves.running."
VICTIM = "thieves.victim."
GIVEN = "thieves.given."


def mark(turn: Turn, used: str) -> Turn:
    """The turn with ``used`` among the things done this turn."""
    return evolve(turn, used=tuple(sorted({*turn.used, used})))


def with_extra(state: State, key: str, value: int) -> State:
    """``state.extras[key] = value``; a value of 0 removes the key."""
    extras = dict(state.extras)
    if value:
        extras[key] = value
    else:
        extras.pop(key, None)
    return evolve(state, extras=tuple(sorted(extras.items())))


def given(state: State, what: str) -> int:
    return get_extra(state.extras, GIVEN + what)


def add_given(state: State, what: str, count: int) -> State:
    return evolve(state, extras=set_extra(state.extras, GIVEN + what, given(state, what) + count))


def given_keys(state: State) -> list[str]:
    """What was given up that is not a card (``tile.12``, ``token.palace``, ``meeples``)."""
    return [k[len(GIVEN) :] for k, v in state.extras if k.startswith(GIVEN) and v > 0]


def running(rules: Rules, state: State) -> CardSpec | None:
    """The thief whose theft is in progress, if any."""
    for key, value in state.extras:
        if key.startswith(RUNNING) and value:
            return rules.card_specs.get(key[len(RUNNING) :])
    return None


def opponents(state: State, owner: int) -> list[int]:
    """The owner's opponents, from the owner's left (the next seat) round the table."""
    count = len(state.players)
    return [(owner + k) % count for k in range(1, count)]


class Theft(Activated):
    """A thief: usable at the ``thief`` step of the owner's turn when the tribe action just
    done is of its colour (``subject``), not in the turn it was taken, and only when some
    opponent can give something up and the owner could keep it. Using it discards it."""

    stages = frozenset({STEP})
    when = "at the tribe action of its colour (not in the turn you took it)"
    give_verb = "give"
    keep_verb = "keep"

    # -- what a kind of thief says ------------------------------------------------------

    def gifts(
        self, rules: Rules, state: State, victim: int, card: CardSpec
    ) -> list[tuple[str, ...]]:
        """The distinct choices ``victim`` has of what to give up (empty: nothing)."""
        raise NotImplementedError

    def give(
        self, rules: Rules, state: State, victim: int, card: CardSpec, choice: tuple[str, ...]
    ) -> State:
        """``victim`` gives up ``choice``."""
        raise NotImplementedError

    def can_keep(self, rules: Rules, state: State, owner: int, card: CardSpec) -> bool:
        """Whether the owner could keep something at all (a camel for a tile…)."""
        return True

    def keeps(
        self, rules: Rules, state: State, owner: int, card: CardSpec
    ) -> list[tuple[str, ...]]:
        """The distinct choices of what to keep among what was given (empty: nothing)."""
        raise NotImplementedError

    def keep(
        self, rules: Rules, state: State, owner: int, card: CardSpec, choice: tuple[str, ...]
    ) -> State:
        raise NotImplementedError

    def put_away(self, rules: Rules, state: State, card: CardSpec) -> State:
        """What was given up and not kept goes where it belongs (after ``keep``)."""
        return state

    def score_lines(
        self, rules: Rules, state: State, owner: int, card: CardSpec, lines: tuple[ScoreLine, ...]
    ) -> Iterable[ScoreLine]:
        """An unused thief is worth its VP at the end (a used one was discarded)."""
        return [ScoreLine("thieves", card.vp, NAME, f"{card.name} unused")]

    # -- the card model -----------------------------------------------------------------

    def usable(self, rules: Rules, state: State, owner: int, card: CardSpec) -> bool:
        turn = state.turn
        return (
            turn is not None
            and turn.colour >= 0
            and rules.colours[turn.colour].id == card.subject
            and TAKEN + card.id not in turn.used
        )

    def victims(self, rules: Rules, state: State, owner: int, card: CardSpec) -> list[int]:
        """The opponents this thief targets: not immune, with something to give up."""
        return [
            seat
            for seat in opponents(state, owner)
            if not immunity.immune(rules, state, seat) and self.gifts(rules, state, seat, card)
        ]

    def targets(
        self, rules: Rules, state: State, owner: int, card: CardSpec
    ) -> Iterable[tuple[str, ...]]:
        if not self.can_keep(rules, state, owner, card):
            return []
        return [()] if self.victims(rules, state, owner, card) else []

    def act(
        self, rules: Rules, state: State, owner: int, card: CardSpec, target: tuple[str, ...]
    ) -> State:
        victims = self.victims(rules, state, owner, card)
        state = with_extra(state, RUNNING + card.id, 1)
        for seat in victims:
            state = with_extra(state, f"{VICTIM}{seat}", 1)
        turn = state.turn
        assert turn is not None
        return next_victim(rules, evolve(state, turn=evolve(turn, resume=STEP)))


def power_of(rules: Rules, card: CardSpec) -> Theft:
    power = rules.power_of(card)
    assert isinstance(power, Theft)
    return power


def next_victim(rules: Rules, state: State) -> State:
    """Let each opponent still to give up do so: at once when they have one choice, else
    they decide (``thief-give``); then the owner keeps."""
    card = running(rules, state)
    assert card is not None
    power = power_of(rules, card)
    for seat in opponents(state, turn_owner(state)):
        if not get_extra(state.extras, f"{VICTIM}{seat}"):
            continue
        choices = power.gifts(rules, state, seat, card)
        if len(choices) > 1:
            return evolve(state, decision=Decision(GIVE, seat))
        state = with_extra(state, f"{VICTIM}{seat}", 0)
        if choices:
            state = power.give(rules, state, seat, card, choices[0])
    return keeping(rules, state, card)


def keeping(rules: Rules, state: State, card: CardSpec) -> State:
    """The owner keeps: decides when there is a choice, else keeps the one thing (or
    nothing); then the theft is over."""
    owner = turn_owner(state)
    power = power_of(rules, card)
    choices = power.keeps(rules, state, owner, card)
    if len(choices) > 1:
        return evolve(state, decision=Decision(KEEP, owner))
    if choices:
        state = power.keep(rules, state, owner, card, choices[0])
    return finish(rules, state, card)


def finish(rules: Rules, state: State, card: CardSpec) -> State:
    """Put away what was not kept, forget the theft and go on with the turn."""
    state = power_of(rules, card).put_away(rules, state, card)
    extras = tuple((k, v) for k, v in state.extras if not k.startswith((RUNNING, VICTIM, GIVEN)))
    turn = state.turn
    assert turn is not None
    state = evolve(
        state,
        extras=extras,
        turn=evolve(turn, resume="", revealed=()),
        decision=Decision(STEP, turn_owner(state)),
    )
    return rules.return_to_caller(state)


class ThiefStep(Stage):
    """After the tribe action of a thief's colour: use the thief (its own option, offered
    by the card router) or ``skip``."""

    def title(self, rules: Rules, state: State) -> str:
        return "Thief: use your thief of this tribe's colour, or skip"

    def legal(self, rules: Rules, state: State) -> list[Action]:
        return [SKIP]

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        return rules.return_to_caller(state)


class GiveStage(Stage):
    """An opponent of the thief's owner chooses what to give up."""

    owner_decides = False

    def _card(self, rules: Rules, state: State) -> CardSpec:
        card = running(rules, state)
        assert card is not None
        return card

    def title(self, rules: Rules, state: State) -> str:
        card = self._card(rules, state)
        return f"{card.name} of player {turn_owner(state) + 1}: {card.text} Choose what you give up"

    def legal(self, rules: Rules, state: State) -> list[Action]:
        card = self._card(rules, state)
        power = power_of(rules, card)
        seat = state.decision.player
        return [Action(power.give_verb, c) for c in power.gifts(rules, state, seat, card)]

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        card = self._card(rules, state)
        seat = state.decision.player
        state = power_of(rules, card).give(rules, state, seat, card, action.args)
        return next_victim(rules, with_extra(state, f"{VICTIM}{seat}", 0))


class KeepStage(Stage):
    """The thief's owner chooses what to keep of what was given up."""

    def title(self, rules: Rules, state: State) -> str:
        card = running(rules, state)
        assert card is not None
        return f"{card.name}: choose what you keep"

    def legal(self, rules: Rules, state: State) -> list[Action]:
        card = running(rules, state)
        assert card is not None
        power = power_of(rules, card)
        owner = state.decision.player
        return [Action(power.keep_verb, c) for c in power.keeps(rules, state, owner, card)]

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        card = running(rules, state)
        assert card is not None
        state = power_of(rules, card).keep(rules, state, state.decision.player, card, action.args)
        return finish(rules, state, card)


def stages() -> dict[str, Stage]:
    return {STEP: ThiefStep(), GIVE: GiveStage(), KEEP: KeepStage()}
