"""The one card router: what the cards in players' hands offer, do, react to, score and
protect, for every deck (resources, djinns, items, whims, any deck a plugin adds).

Each card's power is looked up by its deck and kind (``rules.power_of``); what differs
between decks is the deck's small policy (``DeckSpec`` in content): whether a card is used
once per turn per card or per deck, the claim verb, whether a used card is discarded and
where its score lines go. ``Activated`` is the one base class of cards used in the owner's
turn: it checks the policy, takes the payment of the card's ``cost`` and lets the power
act, so a power only says what it targets and what it does.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from naqala.core.actions import Action, action_of
from naqala.core.content import DJINNS, CardSpec, DeckSpec
from naqala.core.engine import Rules
from naqala.core.events import Event, ScoreLine
from naqala.core.powers import Power
from naqala.core.state import (
    Decision,
    PlayerState,
    State,
    Turn,
    count_effect,
    evolve,
    get_extra,
    replace_at,
    set_extra,
)
from naqala.plugins.base.common import discard_from_hand, fakirs_held, kept
from naqala.plugins.base.costs import cost_payments
from naqala.plugins.base.tiles import pay_elders_fakirs
from naqala.plugins.base.tribes import ELDER


def can_pay(rules: Rules, state: State, player: int, payment: str) -> bool:
    elders = kept(state, player, rules.colour_index[ELDER])
    return elders >= payment.count("E") and fakirs_held(state, player) >= payment.count("F")


def payments(rules: Rules, state: State, player: int, card: CardSpec) -> list[str]:
    """The ways ``player`` can pay ``card``'s cost now (empty if they cannot)."""
    return [p for p in cost_payments(rules, card.cost) if can_pay(rules, state, player, p)]


#: the steps where a token an effect placed waits for a power that puts it elsewhere
#: (``placing.stage_name``)
PLACING_STEP = "placing:"


def own_turn(state: State, player: int) -> Turn | None:
    """The turn in progress if it is ``player``'s and they are deciding, outside any
    power's own decision; None otherwise."""
    turn = state.turn
    if (
        turn is None
        or turn.resume
        or turn.revealed  # cards are being chosen from: finish that first
        or state.decision.player != player
        or state.markers[turn.marker] != player
    ):
        return None
    return turn


#: decisions where nothing takes meeples off a tile: a drop and the assassins' kill, whose
#: options were worked out for the meeples as they stand
MEEPLES_SETTLED = frozenset({"drop", "kill"})
#: the decision before the move, where a power may not take away the last legal start
PICK = "pick"


def leaves_a_pick(rules: Rules, state: State) -> bool:
    """At the pick, whether some move can still start: the rules offer only moves that can
    end, so a power used there may not take the last one away. Elsewhere, yes."""
    stage = state.decision.stage
    return stage != PICK or bool(rules.stages[PICK].legal(rules, state))


def resume_interrupted(state: State, player: int) -> State:
    """The decision a power's own decision interrupted (the turn's ``resume``) goes on,
    ``player`` deciding, and no power is deciding any more."""
    turn = state.turn
    assert turn is not None  # a power is used in its owner's turn
    return evolve(state, turn=evolve(turn, resume=""), decision=Decision(turn.resume, player))


def mark_used(state: State, mark: str) -> State:
    turn = state.turn
    assert turn is not None
    return evolve(state, turn=evolve(turn, used=tuple(sorted((*turn.used, mark)))))


def use_mark(deck: DeckSpec, card: CardSpec) -> str:
    """What a use of ``card`` marks in ``Turn.used``: the card, its deck, or nothing."""
    limit = deck.limit
    return card.id if limit == "card" else deck.id if limit == "deck" else ""


#: the content setting choosing how long "once per turn" lasts at two players
ROUND_LIMIT = "djinn_limit_round_2p"


def round_limited(rules: Rules, state: State, card: CardSpec) -> bool:
    """Whether ``card``'s limit lasts the round rather than the marker's turn: a paid
    djinn at two players, when the content setting ``djinn_limit_round_2p`` is 1 (each
    player plays two turns a round; docs/rules-notes.md)."""
    return (
        len(state.players) == 2
        and bool(card.cost)
        and card.deck == DJINNS
        and bool(rules.content.setting(ROUND_LIMIT))
    )


#: the player counters of the cards used in a round (``round-used:<card id>``: the round)
ROUND_USED = "round-used:"


def _round_key(card: CardSpec) -> str:
    return f"{ROUND_USED}{card.id}"


def used_this_round(state: State, owner: int, card: CardSpec) -> bool:
    """Whether ``owner`` used ``card`` earlier in this round (kept only when limited)."""
    return get_extra(state.players[owner].extras, _round_key(card)) == state.round


def mark_used_this_round(state: State, owner: int, card: CardSpec) -> State:
    player = state.players[owner]
    extras = set_extra(player.extras, _round_key(card), state.round)
    return evolve(state, players=replace_at(state.players, owner, evolve(player, extras=extras)))


def policy(rules: Rules, card: CardSpec) -> DeckSpec:
    return rules.deck_specs[rules.deck_index[card.deck]]


def card_action(deck: DeckSpec, card: CardSpec, args: tuple[str, ...]) -> Action:
    """The action using ``card``: ``<card> args…``, or ``<verb> <card> args…``."""
    return action_of(deck.verb, card.id, *args) if deck.verb else action_of(card.id, *args)


class Activated(Power):
    """A card used during the owner's own turn: at most once a turn per card or per deck
    (the deck's ``limit``), paid with its ``cost``, discarded if the deck says so.

    Options are ``<card> [target…] [payment]`` (or ``<verb> <card>…``); ``stages`` limits
    the decisions where it is offered (None: every decision of the owner's turn). A
    ``placing:<token>`` step offers only the powers that put that token elsewhere
    (``redirects``): it asks where one placement goes, so no other power starts another
    placement while it waits."""

    stages: frozenset[str] | None = None
    #: the token whose placements for its owner it may put elsewhere (``placing.py``)
    redirects: str = ""

    def targets(
        self, rules: Rules, state: State, owner: int, card: CardSpec
    ) -> Iterable[tuple[str, ...]]:
        """Argument tuples naming what the power acts on (``(tile,)``…); ``[()]`` if none."""
        return [()]

    def target_domains(self, rules: Rules, card: CardSpec) -> tuple[tuple[str, ...], ...]:
        """A domain per argument ``targets`` can give (``(board_squares(rules),)``), for
        the action codec; none by default, as the default target is ``()``."""
        return ()

    def arguments(self, rules: Rules, card: CardSpec) -> list[tuple[tuple[str, ...], ...]]:
        """The targets' domains, followed by the payment when the cost asks for one."""
        domains = self.target_domains(rules, card)
        ways = cost_payments(rules, card.cost)
        paid = tuple(way for way in ways if way)
        found = [domains] if "" in ways else []
        return [*found, (*domains, paid)] if paid else found

    def usable(self, rules: Rules, state: State, owner: int, card: CardSpec) -> bool:
        """More conditions of the power itself (the turn and the limit are checked)."""
        return True

    def options(self, rules: Rules, state: State, owner: int, card: CardSpec) -> Iterable[Action]:
        turn = own_turn(state, owner)
        if turn is None:
            return ()
        deck = policy(rules, card)
        mark = use_mark(deck, card)
        stage = state.decision.stage
        if (
            (mark and mark in turn.used)
            or (self.stages is not None and stage not in self.stages)
            or (stage.startswith(PLACING_STEP) and stage != f"{PLACING_STEP}{self.redirects}")
            or (round_limited(rules, state, card) and used_this_round(state, owner, card))
            or not self.usable(rules, state, owner, card)
        ):
            return ()
        ways = payments(rules, state, owner, card)
        if not ways:
            return ()
        return [
            card_action(deck, card, (*target, way) if way else target)
            for target in self.targets(rules, state, owner, card)
            for way in ways
        ]

    def apply(
        self, rules: Rules, state: State, owner: int, card: CardSpec, action: Action
    ) -> State:
        deck = policy(rules, card)
        target = list(action.args[1:] if deck.verb else action.args)
        payment = target.pop() if card.cost else ""
        state = pay_elders_fakirs(rules, state, owner, payment)
        mark = use_mark(deck, card)
        if mark:
            state = mark_used(state, mark)
        if round_limited(rules, state, card):
            state = mark_used_this_round(state, owner, card)
        if deck.discard:
            state = discard_from_hand(state, owner, rules.deck_index[card.deck], (card.id,))
        state = count_effect(state, card.id)
        return self.act(rules, state, owner, card, tuple(target))

    def act(
        self, rules: Rules, state: State, owner: int, card: CardSpec, target: tuple[str, ...]
    ) -> State:
        """The effect, once paid for."""
        raise NotImplementedError


# -- the router: what the base plugin's hooks answer -----------------------------------------


def held_by(rules: Rules, state: State, owner: int) -> Iterator[tuple[CardSpec, Power]]:
    """(card, power) for every card ``owner`` holds whose kind has a power, deck by deck
    (a card held twice comes twice)."""
    specs = rules.card_specs
    powers = rules.card_powers
    for hand in state.players[owner].hands:
        for card_id in hand:
            power = powers.get(card_id)
            if power is not None:
                yield specs[card_id], power


_MEMO_KEYS: dict[str, str] = {}
_HELD_KEYS: dict[str, str] = {}


def powers_with(rules: Rules, method: str) -> tuple[dict[str, Power], tuple[int, ...]]:
    """The cards whose power overrides ``Power.<method>`` (``on_event``, ``options``), by
    card id, and the decks (by index) holding any: the only cards worth asking (the
    others answer nothing) and the only hands worth looking through."""
    key = _MEMO_KEYS.get(method) or _MEMO_KEYS.setdefault(method, f"cards.powers_with.{method}")
    found: tuple[dict[str, Power], tuple[int, ...]] | None = rules.memo.get(key)
    if found is None:
        base = getattr(Power, method)
        powers = {
            card_id: power
            for card_id, power in rules.card_powers.items()
            if getattr(type(power), method) is not base
        }
        decks = sorted({rules.deck_index[rules.card_specs[card_id].deck] for card_id in powers})
        found = rules.memo[key] = (powers, tuple(decks))
    return found


def held_with(
    rules: Rules, seat: int, player: PlayerState, method: str
) -> list[tuple[CardSpec, Power]]:
    """(card, power) for the cards ``player`` (in ``seat``) holds whose power overrides
    ``Power.<method>``, deck by deck in hand order (for ``options`` each card once).
    Kept per seat for the hands last asked about (by identity: most actions change no
    hand, and every decision and every event asks)."""
    key = _HELD_KEYS.get(method) or _HELD_KEYS.setdefault(method, f"cards.held_with.{method}")
    per_seat: dict[int, tuple[object, list[tuple[CardSpec, Power]]]] | None = rules.memo.get(key)
    if per_seat is None:
        per_seat = rules.memo[key] = {}
    hands = player.hands
    known = per_seat.get(seat)
    if known is not None and known[0] is hands:
        return known[1]
    powers, decks = powers_with(rules, method)
    specs = rules.card_specs
    mine = [
        (specs[card_id], power)
        for deck in decks
        if deck < len(hands)
        for card_id in hands[deck]
        if (power := powers.get(card_id)) is not None
    ]
    if method == "options":  # each distinct card is asked once
        mine = list({card.id: (card, power) for card, power in mine}.values())
    per_seat[seat] = (hands, mine)
    return mine


def options(rules: Rules, state: State) -> list[Action]:
    """What the cards of the deciding player offer now, each distinct card asked once."""
    player = state.decision.player
    if player < 0:
        return []
    found: list[Action] = []
    for card, power in held_with(rules, player, state.players[player], "options"):
        found.extend(power.options(rules, state, player, card))
    return found


def _card_named(rules: Rules, action: Action) -> CardSpec | None:
    """The card an action names: its kind, or the first argument of a deck's verb."""
    spec = rules.card_specs.get(action.kind)
    if spec is not None and not policy(rules, spec).verb:
        return spec
    if action.args:
        spec = rules.card_specs.get(action.args[0])
        if spec is not None and policy(rules, spec).verb == action.kind:
            return spec
    return None


def apply(rules: Rules, state: State, action: Action) -> State | None:
    """Carry out a card's option; None if the action names no card the player holds."""
    player = state.decision.player
    card = _card_named(rules, action)
    if card is None or card.id not in state.players[player].hand(rules.deck_index[card.deck]):
        return None
    power = rules.power_of(card)
    assert power is not None  # it was offered
    return power.apply(rules, state, player, card, action)


def explain(rules: Rules, state: State, action: Action) -> str | None:
    """Why a typed use of a card by a deck's verb (``claim <whim>``) is refused: no such
    card, not in hand, not your turn, or what the power itself says."""
    verbs = {d.verb: d for d in rules.deck_specs if d.verb}
    if action.kind not in verbs:
        return None
    deck = verbs[action.kind]
    if len(action.args) != 1:
        return f"name the {deck.noun} to {deck.verb}: {deck.verb} <{deck.noun}>"
    card = _card_named(rules, action)
    if card is None:
        return f"there is no {deck.noun} {action.args[0]!r}"
    deck = policy(rules, card)
    player = state.decision.player
    if player < 0 or card.id not in state.players[player].hand(rules.deck_index[card.deck]):
        return f"you do not hold the {deck.noun} {card.name or card.id}"
    if own_turn(state, player) is None:
        return f"{deck.noun}s are {deck.verb}ed during your own turn"
    power = rules.power_of(card)
    return None if power is None else power.explain(rules, state, player, card)


def on_event(rules: Rules, state: State, event: Event) -> State | None:
    """Let the power of every card held react to ``event``, players in seat order (only
    the cards whose power reacts to events at all are asked)."""
    changed = False
    for owner in range(len(state.players)):
        # the hands as they are now: an earlier reaction may have changed them
        for card, power in held_with(rules, owner, state.players[owner], "on_event"):
            result = power.on_event(rules, state, owner, card, event)
            if result is not None:
                state, changed = result, True
    return state if changed else None


def score_lines(
    rules: Rules, state: State, player: int, lines: tuple[ScoreLine, ...], deck: str = ""
) -> list[ScoreLine]:
    """The score lines of ``player``'s cards: of the decks scored ``after`` every plugin
    (given those ``lines``), or of the one ``deck`` whose plugin places them itself."""
    found: list[ScoreLine] = []
    for card, power in held_by(rules, state, player):
        scored = policy(rules, card).scored
        if (card.deck == deck) if deck else scored == "after":
            found.extend(power.score_lines(rules, state, player, card, lines))
    return found


def protected(rules: Rules, state: State, player: int) -> set[str]:
    found: set[str] = set()
    for card, power in held_by(rules, state, player):
        found.update(power.protects(rules, state, player, card))
    return found
