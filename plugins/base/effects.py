"""The Python interpreter of the effects language (``naqala.core.effects``).

Content says what happens (``[[trigger]]``, ``[[tile_action]]``, ``[[power]]``); this
module does it on a state: it evaluates the compiled expressions and carries out the
effects. The kernel's ``effects.rs`` is the other interpreter of the same trees; the two
are compared over drawn programs (``naqala.testing.effect_programs``), so a rule made of
existing effects needs no code in either engine.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any

import attrs

from naqala.core.actions import Action
from naqala.core.content import DJINNS, RESOURCES, CardSpec
from naqala.core.effect_answers import plugin_counters, require_tile_answer
from naqala.core.effects import (
    CAMEL,
    CHOOSE,
    COUNTER_MOST,
    DEAL_ROW,
    FIELD,
    FIRE,
    MEEPLES,
    MOST_WILDS,
    MOVE,
    READING,
    SCORING,
    SET,
    TAKE_CARD,
    TAKE_LYING,
    USE,
    CounterSpec,
    EffectSpec,
    PowerSpec,
    Source,
    TileActionSpec,
    Tree,
    TriggerSpec,
    compile_expression,
    is_reading,
    nested,
)
from naqala.core.encoding import board_squares, card_ids
from naqala.core.engine import Rules
from naqala.core.events import Event, ScoreLine
from naqala.core.powers import Power
from naqala.core.stage import Stage
from naqala.core.state import (
    NOBODY,
    Decision,
    State,
    add_at,
    count_effect,
    evolve,
    get_extra,
    replace_at,
)
from naqala.core.validate import MAX_COINS
from naqala.plugins.base import events
from naqala.plugins.base.cards import (
    MEEPLES_SETTLED,
    PICK,
    Activated,
    leaves_a_pick,
    resume_interrupted,
)
from naqala.plugins.base.common import (
    FAKIR,
    KEEP_DJINN,
    KILLS,
    TAKE_DJINN,
    TARGET,
    add_cards,
    change_kept,
    discard_cards,
    draw_cards,
    give_cards,
    marked_by_stand_in,
    owned_tiles,
    place_token,
    release_tile,
    set_deck,
    take_tile,
    tiles_around,
)
from naqala.plugins.base.effect_counts import PLAYER_COUNTS, move_count
from naqala.plugins.base.lying import EMPTY, lying_on, take_lying
from naqala.plugins.base.merchandise import best_with_wilds, merchandise_types
from naqala.plugins.base.placing import leave_placing, pending_tile, place_token_for
from naqala.plugins.base.placing import stage_name as placing_stage
from naqala.plugins.base.tiles import final_tile, take_djinn_card

#: every intermediate value is held within ±BOUND, in both engines, so no formula can
#: overflow the kernel's integers or grow Python's without end
BOUND = 1_000_000_000
#: the most coins an effect leaves a player: ``MAX_COINS`` less room for what the game
#: itself pays afterwards (a sale, a market), so no state passes the bound
MOST_COINS = MAX_COINS - 100_000


@lru_cache(maxsize=4096)
def tree(source: Source) -> Tree:
    """The compiled tree of an expression (files were checked when read)."""
    return compile_expression(source)


@attrs.frozen
class Scope:
    """What an expression is evaluated for: the player ``me``, the event's ``actor``,
    the event itself (or None), the numbers ``param.*`` reads and the card (for
    ``event.this_card``)."""

    me: int
    actor: int
    event: Event | None = None
    params: Mapping[str, int] = attrs.field(factory=dict)
    card: str = ""
    #: the tile a used power targets (or a candidate while its targets are listed), else
    #: NOBODY
    target: int = NOBODY
    #: the token a used power redirects: placing one goes straight on the target, as the
    #: placement it replaces (never asked to go elsewhere again)
    redirected: str = ""
    #: the card a used power targets: its deck, its pile (``row``, ``discard``) and its id
    target_card: tuple[str, str, str] | None = None
    #: the second tile a used power names, where ``move`` puts a piece of its target,
    #: else NOBODY
    target_to: int = NOBODY
    #: the colours of the meeples a used power's action names on its target tile
    #: (``target_meeples``), one entry per meeple, in colour order
    target_group: tuple[int, ...] = ()


def _clamp(value: int) -> int:
    return max(-BOUND, min(BOUND, value))


def _floor_div(a: int, b: int) -> int:
    return 0 if b == 0 else a // b


def _mod(a: int, b: int) -> int:
    return 0 if b == 0 else a % b


_OPERATORS: dict[str, Callable[[int, int], int]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "//": _floor_div,
    "%": _mod,
    "==": lambda a, b: int(a == b),
    "!=": lambda a, b: int(a != b),
    "<": lambda a, b: int(a < b),
    "<=": lambda a, b: int(a <= b),
    ">": lambda a, b: int(a > b),
    ">=": lambda a, b: int(a >= b),
    "and": lambda a, b: int(bool(a) and bool(b)),
    "or": lambda a, b: int(bool(a) or bool(b)),
}


def evaluate(rules: Rules, state: State, node: Tree, scope: Scope) -> int:
    """The value of a compiled expression, an integer within ±``BOUND``."""
    if "num" in node:
        return _clamp(int(node["num"]))
    if "bin" in node:
        a = evaluate(rules, state, node["a"], scope)
        b = evaluate(rules, state, node["b"], scope)
        return _clamp(_OPERATORS[node["bin"]](a, b))
    if "var" in node:
        return _clamp(_variable(rules, state, node["var"], scope))
    if "param" in node:
        return _clamp(scope.params.get(node["param"], 0))
    if "setting" in node:
        return _clamp(rules.content.settings.get(node["setting"], 0))
    if "count" in node:
        return _clamp(_count(rules, state, node["count"], node["of"], scope))
    if "neg" in node:
        return _clamp(-evaluate(rules, state, node["neg"], scope))
    if "not" in node:
        return int(not evaluate(rules, state, node["not"], scope))
    if "if" in node:
        branch = node["then"] if evaluate(rules, state, node["if"], scope) else node["else"]
        return evaluate(rules, state, branch, scope)
    values = [evaluate(rules, state, arg, scope) for arg in node["args"]]
    function = node["call"]
    if function == "abs":
        return _clamp(abs(values[0]))
    if function == "merchandise":
        return _clamp(_merchandise(rules, state, scope.me, values[0]))
    return min(values) if function == "min" else max(values)


def _merchandise(rules: Rules, state: State, me: int, wilds: int) -> int:
    """``merchandise(n)``: ``me``'s best merchandise score with ``n`` jokers (0 for no
    player)."""
    if me == NOBODY:
        return 0
    kinds = merchandise_types(rules)
    goods = [card for card in state.players[me].cards if card in kinds]
    return best_with_wilds(rules, goods, max(0, min(MOST_WILDS, wilds)))


def _variable(rules: Rules, state: State, name: str, scope: Scope) -> int:
    event = scope.event
    if name == "me":
        return scope.me
    if name == "actor":
        return scope.actor
    if name == "coins":
        return state.players[scope.me].coins if scope.me != NOBODY else 0
    if name == "turn.killed":
        return int(state.turn is not None and bool(TARGET.of(state.turn)))
    if name == "turn.used":
        return int(state.turn is not None and bool(scope.card) and scope.card in state.turn.used)
    if name.startswith("target."):
        return _target(rules, state, name, scope.target)
    if event is None:
        return {"event.count": 1, "event.this_card": 0}.get(name, NOBODY)
    if name == "event.count":
        return event.count
    if name == "event.tile_owner":
        return state.board.owners[event.tile] if event.tile != NOBODY else NOBODY
    if name == "event.victim":
        return event.victim
    return int(bool(scope.card) and event.what == scope.card)  # event.this_card


def _target(rules: Rules, state: State, name: str, tile: int) -> int:
    """What ``target.<name>`` reads of a used power's target tile (none: -1, or 0)."""
    if tile == NOBODY:
        return NOBODY if name == "target.owner" else 0
    if name == "target.owner":
        return state.board.owners[tile]
    if name == "target.meeples":
        return sum(state.board.meeples[tile])
    if name == "target.tokens":
        return sum(state.board.tokens[tile])
    return int(rules.tile(state.layout.tiles[tile]).holds_meeples)  # target.holds_meeples


def _count(rules: Rules, state: State, what: str, of: str, scope: Scope) -> int:
    me, event = scope.me, scope.event
    if what == "killed":
        colour = rules.colour_index.get(of)
        if colour is None or event is None or event.name != events.KILL:
            return 0
        return int(event.colour == colour)
    if what == "around":
        if event is None or event.tile == NOBODY:
            return 0
        return tiles_around(rules, state, event.tile, of)
    if what == "vp":
        index = rules.token_index.get(of)
        return 0 if index is None else rules.tokens[index].vp
    if what == "bank":
        token = rules.token_index.get(of)
        return 0 if token is None else state.pool[token]
    if what in ("pile", "djinns"):
        deck = state.decks[rules.deck_index[RESOURCES if what == "pile" else DJINNS]]
        return len(deck.draw) + len(deck.discard)
    if what == "counter":
        return _read_counter(rules, state, of, me)
    if what == "bag":
        return sum(state.bag)
    if what == "on_target":
        token = rules.token_index.get(of)
        if token is None or scope.target == NOBODY:
            return 0
        return state.board.tokens[scope.target][token]
    if what == "lying":
        if scope.target == NOBODY or of not in rules.deck_index:
            return 0
        return int(lying_on(rules, state, of, scope.target) != EMPTY)
    if what == "tribe":
        moved = rules.colour_index.get(of)
        return int(moved is not None and state.turn is not None and state.turn.colour == moved)
    if what in ("path", "collected"):
        return move_count(state.turn, what)
    if me == NOBODY:
        return 0
    if what in PLAYER_COUNTS:
        return PLAYER_COUNTS[what](rules, state, me, of)
    if what == "held":
        colour = rules.colour_index.get(of)
        return 0 if colour is None else state.players[me].meeples[colour]
    if what == "cards":
        return state.players[me].cards.count(of)
    if what == "holds":
        resources, specs = rules.deck_index[RESOURCES], rules.card_specs
        hands = [hand for deck, hand in enumerate(state.players[me].hands) if deck != resources]
        return sum(1 for hand in hands for card in hand if specs[card].kind == of)
    if what == "camels":
        return state.players[me].camels
    owned = owned_tiles(state, me)
    if what == "tiles":
        return len(owned)
    token = rules.token_index.get(of)
    if token is None:
        return 0
    if what == "here":
        # before the pick (a djinn used first) the turn is on no tile yet: nothing here
        if state.turn is None or state.turn.here == NOBODY:
            return 0
        return state.board.tokens[state.turn.here][token]
    return sum(state.board.tokens[t][token] for t in owned)  # owned


def _here(state: State) -> int:
    """The tile of the turn in progress (NOBODY before the pick, or outside a turn)."""
    return NOBODY if state.turn is None else state.turn.here


def holds(rules: Rules, state: State, condition: Source | None, scope: Scope) -> bool:
    """Whether an ``if`` holds (no ``if``: always)."""
    return condition is None or evaluate(rules, state, tree(condition), scope) != 0


def run(rules: Rules, state: State, effects: Iterable[EffectSpec], scope: Scope) -> State:
    """Carry out effects in order for ``scope.me``; score lines are left to scoring."""
    for effect in effects:
        if not holds(rules, state, effect.when, scope):
            continue
        verb, amount = effect.verb()
        if verb == CHOOSE:
            continue  # the last effect of its list: ``choosing`` offers it once run
        if verb == "place":
            if scope.target != NOBODY and amount == CAMEL:
                state = take_tile(rules, state, scope.me, scope.target)
            elif scope.target != NOBODY and amount == scope.redirected:
                state = place_token(rules, state, scope.me, scope.redirected, scope.target)
            elif scope.target != NOBODY:
                state = place_token_for(rules, state, scope.me, str(amount), scope.target)
            continue
        if verb == "remove" and amount == MEEPLES:
            if scope.target != NOBODY:
                state = _remove_group(state, scope.target, scope.target_group)
            continue
        if verb == "remove":
            if scope.target != NOBODY:
                state = _remove(rules, state, str(amount), scope.target)
            continue
        if verb == TAKE_LYING:
            tile = scope.target if scope.target != NOBODY else _here(state)
            if tile != NOBODY:
                state = take_lying(rules, state, scope.me, str(amount), tile)
            continue
        if verb == MOVE:
            if scope.target != NOBODY and scope.target_to != NOBODY:
                state = _move(rules, state, str(amount), scope.target, scope.target_to)
            continue
        value = evaluate(rules, state, tree(amount), scope)
        if verb == FIRE:
            event = Event(str(effect.fire), scope.me, count=value, what=scope.card)
            state = rules.fire(state, event)
        elif verb == "coins":
            player = state.players[scope.me]
            coins = max(0, min(MOST_COINS, player.coins + value))
            state = state.replace_player(scope.me, evolve(player, coins=coins))
        elif verb == "kills" and state.turn is not None:
            kills = max(0, KILLS.of(state.turn) + value)
            state = evolve(state, turn=KILLS.on(state.turn, kills))
        elif verb == "discard_fakirs" and value > 0:
            held = state.players[scope.me].cards.count(FAKIR)
            state = discard_cards(state, scope.me, (FAKIR,) * min(held, value))
        elif verb == "draw" and value > 0:
            state, drawn = draw_cards(state, rules.deck_index[RESOURCES], value)
            state = add_cards(state, scope.me, drawn)
        elif verb == MEEPLES and scope.target != NOBODY and value > 0:
            state = _meeples_from_bag(state, scope.target, value)
        elif verb == SET and effect.set is not None:
            state = _set_counter(rules, state, effect.set, scope.me, value)
        elif verb == "draw_djinns" and value > 0 and state.turn is not None:
            state = _djinns_to_keep(rules, state, scope.me, value)
        elif verb == "take_djinn" and value > 0 and state.turn is not None:
            state = _djinn_to_take(rules, state, scope.me)
        elif verb == "keep_killed" and value > 0:
            state = _keep_killed(rules, state, scope)
        elif verb == DEAL_ROW and value > 0:
            state = _deal_row(rules, state, value)
        elif verb == TAKE_CARD and value > 0 and scope.target_card is not None:
            state = _take_card(rules, state, scope.me, scope.target_card)
    return state


def _take_card(rules: Rules, state: State, me: int, where: tuple[str, str, str]) -> State:
    """The card ``where`` names (deck, pile, id) out of its pile into ``me``'s hand, if it
    is still there; a djinn fires ``djinn-taken``, as at a sacred place."""
    deck_id, pile, card = where
    index = rules.deck_index[deck_id]
    deck = state.decks[index]
    cards = list(getattr(deck, pile))
    if card not in cards:
        return state  # an effect before this one moved it
    cards.remove(card)
    state = set_deck(state, index, evolve(deck, **{pile: tuple(cards)}))
    if deck_id == DJINNS:
        return take_djinn_card(rules, state, me, card)
    return give_cards(rules, state, me, index, (card,))


def _deal_row(rules: Rules, state: State, count: int) -> State:
    """The face-up resource cards to the discards, then ``count`` dealt from the pile as
    the new row (the discards, those just discarded included, reshuffled when the pile
    runs out)."""
    index = rules.deck_index[RESOURCES]
    deck = state.decks[index]
    state = set_deck(state, index, evolve(deck, row=(), discard=deck.discard + deck.row))
    state, dealt = draw_cards(state, index, count)
    return set_deck(state, index, evolve(state.decks[index], row=dealt))


def _keep_killed(rules: Rules, state: State, scope: Scope) -> State:
    """The meeple a ``kill`` sent to the bag goes in front of ``me`` instead, if its
    colour is one players keep (a vizier, an elder)."""
    event = scope.event
    if event is None or event.name != events.KILL or event.colour == NOBODY:
        return state
    kept = rules.colours[event.colour].kept
    if not kept or scope.me == NOBODY or not state.bag[event.colour]:
        return state
    return change_kept(state, scope.me, event.colour, 1)


def _djinns_to_keep(rules: Rules, state: State, me: int, count: int) -> State:
    """``count`` djinns drawn for ``me`` to keep one (the ``keep-djinn`` decision, which
    then resumes the decision this one interrupted); none drawn: nothing to decide."""
    state, drawn = draw_cards(state, rules.deck_index[DJINNS], count)
    turn = state.turn
    if not drawn or turn is None:
        return state
    return evolve(
        state,
        turn=evolve(turn, revealed=drawn, resume=state.decision.stage),
        decision=Decision(KEEP_DJINN, me),
    )


def _djinn_to_take(rules: Rules, state: State, me: int) -> State:
    """``me`` takes one of the face-up djinns (the ``take-djinn`` decision, which then
    resumes the decision this one interrupted); none face up: nothing to decide."""
    turn = state.turn
    if turn is None or not rules.deck_in(state, DJINNS).row:
        return state
    return evolve(
        state,
        turn=evolve(turn, resume=state.decision.stage),
        decision=Decision(TAKE_DJINN, me),
    )


def _meeples_from_bag(state: State, tile: int, count: int) -> State:
    """``count`` meeples drawn at random from the bag onto ``tile`` (all that are left,
    if fewer)."""
    here, bag, rng = state.board.meeples[tile], state.bag, state.rng
    for _ in range(min(count, sum(bag))):
        colour, rng = rng.choice_weighted(bag)
        bag = add_at(bag, colour, -1)
        here = add_at(here, colour, 1)
    board = evolve(state.board, meeples=replace_at(state.board.meeples, tile, here))
    return evolve(state, board=board, bag=bag, rng=rng)


def counters(rules: Rules) -> dict[str, CounterSpec]:
    """The declared counters by id (``[[counter]]``), worked out once per rules."""
    found: dict[str, CounterSpec] | None = rules.memo.get("effects.counters")
    if found is None:
        found = rules.memo["effects.counters"] = {c.id: c for c in rules.content.counters}
    return found


def _set_counter(rules: Rules, state: State, counter: str, me: int, value: int) -> State:
    """A counter set to ``value`` held from 0 to ``COUNTER_MOST``; at 0 it leaves the
    state's ``extras``, as an unset counter reads 0. A plugin's own counter that its
    plugin lets effects write is kept by its name."""
    holder, key = _counter_of(rules, counter)
    value = max(0, min(COUNTER_MOST, value))
    if holder == "game":
        return evolve(state, extras=_with_counter(state.extras, key, value))
    if me == NOBODY:
        return state
    player = state.players[me]
    extras = _with_counter(player.extras, key, value)
    return state.replace_player(me, evolve(player, extras=extras))


def _with_counter(
    extras: tuple[tuple[str, int], ...], key: str, value: int
) -> tuple[tuple[str, int], ...]:
    """``extras`` with ``key`` at ``value``, or without it at 0."""
    kept = {k: v for k, v in extras if k != key}
    return tuple(sorted({**kept, key: value}.items() if value else kept.items()))


def _counter_of(rules: Rules, counter: str) -> tuple[str | None, str]:
    """Whose ``counter`` is (``player``, ``game``; None if no one's) and its name in
    ``extras``: a ``[[counter]]``'s, or a plugin's own by its name."""
    spec = counters(rules).get(counter)
    return (spec.of, spec.key) if spec else (plugin_counters(rules).get(counter), counter)


def _read_counter(rules: Rules, state: State, counter: str, me: int) -> int:
    holder, key = _counter_of(rules, counter)
    if holder == "game":
        return get_extra(state.extras, key)
    if holder is None or me == NOBODY:
        return 0
    return get_extra(state.players[me].extras, key)


def _remove(rules: Rules, state: State, piece: str, tile: int) -> State:
    """What ``remove`` names, from ``tile``: its camel back to its owner, a token back to
    the bank, or a meeple of a colour back to the bag (nothing there: nothing)."""
    if piece == CAMEL:  # a tile a tent marks keeps it: the tent stands for the camel
        marked = marked_by_stand_in(rules, state, tile)
        return state if marked else release_tile(state, tile)
    token = rules.token_index.get(piece)
    if token is not None:
        here = state.board.tokens[tile]
        if here[token] == 0:
            return state
        tokens = replace_at(state.board.tokens, tile, add_at(here, token, -1))
        board = evolve(state.board, tokens=tokens)
        return evolve(state, board=board, pool=add_at(state.pool, token, 1))
    colour = rules.colour_index[piece]
    here = state.board.meeples[tile]
    if here[colour] == 0:
        return state
    meeples = replace_at(state.board.meeples, tile, add_at(here, colour, -1))
    board = evolve(state.board, meeples=meeples)
    return evolve(state, board=board, bag=add_at(state.bag, colour, 1))


def _remove_group(state: State, tile: int, colours: Iterable[int]) -> State:
    """The meeples of ``colours`` (one entry each) from ``tile`` back to the bag (one no
    longer there, as an effect before took it: that one stays put)."""
    here, bag = state.board.meeples[tile], state.bag
    for colour in colours:
        if here[colour]:
            here, bag = add_at(here, colour, -1), add_at(bag, colour, 1)
    board = evolve(state.board, meeples=replace_at(state.board.meeples, tile, here))
    return evolve(state, board=board, bag=bag)


def _groups(rules: Rules, here: tuple[int, ...], most: int) -> list[str]:
    """Each distinct group of ``most`` of the meeples ``here`` (all of them when fewer),
    as their letters in colour order, sorted; none on an empty tile."""
    pool = [colour for colour, n in enumerate(here) for _ in range(n)]
    size = min(most, len(pool))
    if size == 0:
        return []
    return [
        "".join(rules.letters[c] for c in g)
        for g in sorted(set(itertools.combinations(pool, size)))
    ]


def _move(rules: Rules, state: State, piece: str, tile: int, to: int) -> State:
    """What ``move`` names, from ``tile`` to ``to``: its camel, keeping its owner (not
    onto a tile with a camel, nor off one a stand-in marks), a token or a meeple of a
    colour (none there: nothing). Nothing is placed or taken, so no event fires."""
    board = state.board
    if piece == CAMEL:
        owner = board.owners[tile]
        if owner == NOBODY or board.owners[to] != NOBODY:
            return state
        if marked_by_stand_in(rules, state, tile):
            return state
        owners = replace_at(replace_at(board.owners, tile, NOBODY), to, owner)
        return evolve(state, board=evolve(board, owners=owners))
    token = rules.token_index.get(piece)
    if token is not None:
        if board.tokens[tile][token] == 0:
            return state
        tokens = replace_at(board.tokens, tile, add_at(board.tokens[tile], token, -1))
        tokens = replace_at(tokens, to, add_at(tokens[to], token, 1))
        return evolve(state, board=evolve(board, tokens=tokens))
    colour = rules.colour_index[piece]
    if board.meeples[tile][colour] == 0:
        return state
    meeples = replace_at(board.meeples, tile, add_at(board.meeples[tile], colour, -1))
    meeples = replace_at(meeples, to, add_at(meeples[to], colour, 1))
    return evolve(state, board=evolve(board, meeples=meeples))


def choosing(
    rules: Rules, state: State, effects: list[EffectSpec], scope: Scope
) -> EffectSpec | None:
    """The choice ending ``effects`` (they have run), if there is one and its ``if``
    holds: the player is then asked (``ChoiceStage``)."""
    last = effects[-1] if effects else None
    if last is None or last.choose is None or not holds(rules, state, last.when, scope):
        return None
    return last


def score_lines(
    rules: Rules, state: State, effects: Iterable[EffectSpec], scope: Scope, source: str
) -> list[ScoreLine]:
    """The score lines of effects at final scoring, each named after its ``source``."""
    lines = []
    for effect in effects:
        if effect.score is None or not holds(rules, state, effect.when, scope):
            continue
        points = evaluate(rules, state, tree(effect.score), scope)
        detail = FIELD.sub(
            lambda m: str(evaluate(rules, state, tree(m.group(1)), scope)), effect.detail
        )
        lines.append(ScoreLine(effect.category, points, source, detail))
    return lines


# -- where effects attach ------------------------------------------------------------


def _listening(rules: Rules, moment: str) -> tuple[TriggerSpec, ...]:
    key = f"effects.triggers.{moment}"
    found: tuple[TriggerSpec, ...] | None = rules.memo.get(key)
    if found is None:
        found = rules.memo[key] = tuple(t for t in rules.content.triggers if t.on == moment)
    return found


def on_event(rules: Rules, state: State, event: Event) -> State:
    """The triggers listening to ``event``, in content order, each for the event's
    player (at ``turn-end``: the player whose turn ended)."""
    for trigger in _listening(rules, event.name):
        scope = Scope(event.player, event.player, event, trigger.params)
        if holds(rules, state, trigger.when, scope):
            state = run(rules, state, trigger.effects, scope)
    return state


def turn_end(rules: Rules, state: State) -> State:
    """Fire ``turn-end`` for the player whose sale just ended."""
    return rules.fire(state, Event(events.TURN_END, state.decision.player))


def scoring_lines(rules: Rules, state: State, player: int) -> list[ScoreLine]:
    """The score lines of the ``scoring`` triggers for ``player``."""
    lines: list[ScoreLine] = []
    for trigger in _listening(rules, SCORING):
        scope = Scope(player, player, None, trigger.params)
        if holds(rules, state, trigger.when, scope):
            lines.extend(score_lines(rules, state, trigger.effects, scope, trigger.id))
    return lines


def tile_effects(rules: Rules, state: State, kind: str, at: str) -> State:
    """The ``before`` or ``after`` effects of a tile kind's action, for the player whose
    turn it is: content's, then those plugins answer (``naqala_tile_effects``)."""
    for action in rules.content.tile_actions:
        if action.tile == kind and action.at == at:
            state = _run_tile(rules, state, action)
    answers = rules.hook.naqala_tile_effects(rules=rules, state=state, kind=kind, at=at)
    if answers:  # a plugin's code answers with effects (hooks.md, naqala_tile_effects)
        me = state.decision.player
        effects = [effect for answer in reversed(answers) for effect in answer or ()]
        require_tile_answer(rules, kind, at, effects)
        state = run(rules, state, effects, Scope(me, me))
    return state


def _run_tile(rules: Rules, state: State, action: TileActionSpec) -> State:
    me = state.decision.player
    scope = Scope(me, me, None, action.params)
    if holds(rules, state, action.when, scope):
        state = run(rules, state, action.effects, scope)
    return state


class EffectsTile(Stage):
    """A tile kind's whole action in content (``at = "instead"``): its effects, then the
    turn goes on. It asks nothing, unless its effects end with a choice: then the
    choice is its step (``rules.call``), and the turn goes on once it is made."""

    def __init__(self, action: TileActionSpec) -> None:
        self.action = action

    def enter(self, rules: Rules, state: State) -> State:
        me = state.decision.player
        scope = Scope(me, me, None, self.action.params)
        if not holds(rules, state, self.action.when, scope):
            return rules.proceed(state, self.name)
        state = run(rules, state, self.action.effects, scope)
        if choosing(rules, state, self.action.effects, scope) is not None:
            return rules.call(state, tile_choice(self.action), self.name)
        return rules.proceed(state, self.name)

    def legal(self, rules: Rules, state: State) -> list[Any]:
        return []

    def summary(self, rules: Rules) -> str | None:
        """The action's ``text``, its fields filled from its numbers and the rules'."""
        if not self.action.text:
            return None
        scope = Scope(NOBODY, NOBODY, None, self.action.params)
        return FIELD.sub(lambda m: str(_static(rules, tree(m.group(1)), scope)), self.action.text)


def tile_stages(rules: Rules) -> dict[str, Stage]:
    """The tile actions content gives whole (``instead``), by tile kind."""
    return {a.tile: EffectsTile(a) for a in rules.content.tile_actions if a.at == "instead"}


# -- choices ---------------------------------------------------------------------------


def tile_choice(action: TileActionSpec) -> str:
    """The stage of the choice ending a whole tile action's effects."""
    return f"{CHOOSE}:tile:{action.id}"


def card_choice(card: CardSpec) -> str:
    """The stage of the choice ending a card's used power."""
    return f"{CHOOSE}:card:{card.id}"


class ChoiceStage(Stage):
    """A choice between lists of effects (``choose = [{ words, effects }, …]``), the last
    effect of a whole tile action or of a used power: ``choose <n>`` runs option ``n``
    (from 1), each option's note its words. The stage's name says whose choice it is, so
    a game saved while it waits loads as any other. Once chosen, a tile action's turn goes
    on (``return_to_caller``) and a used power's interrupted decision comes back
    (``Turn.resume``, as Sibittis's)."""

    def __init__(
        self, choice: EffectSpec, params: Mapping[str, int], card: str, whose: str
    ) -> None:
        assert choice.choose is not None
        self.options = choice.choose
        self.params = params
        self.card = card
        self.whose = whose

    def title(self, rules: Rules, state: State) -> str:
        return f"{self.whose}: choose one"

    def legal(self, rules: Rules, state: State) -> list[Action]:
        return [Action(CHOOSE, (str(n),)) for n in range(1, len(self.options) + 1)]

    def option_note(self, rules: Rules, state: State, action: Action) -> str | None:
        return self.options[int(action.args[0]) - 1].words if action.args else None

    def apply(self, rules: Rules, state: State, action: Action) -> State:
        me = state.decision.player
        option = self.options[int(action.args[0]) - 1]
        state = run(rules, state, option.effects, Scope(me, me, None, self.params, self.card))
        if not self.card:
            return rules.return_to_caller(state)
        return resume_interrupted(state, me)


def choice_stages(rules: Rules) -> dict[str, Stage]:
    """A stage for each choice content ends an effect list with: each whole tile action's,
    and each card's whose kind's used power offers one (a card's own params)."""
    found: dict[str, Stage] = {}
    for action in rules.content.tile_actions:
        last = action.effects[-1] if action.effects else None
        if action.at == "instead" and last is not None and last.choose is not None:
            whose = action.tile.replace("-", " ").capitalize()
            found[tile_choice(action)] = ChoiceStage(last, action.params, "", whose)
    for power in rules.content.powers:
        last = power.effects[-1] if power.effects else None
        if power.on != USE or last is None or last.choose is None:
            continue
        for card in rules.content.cards:
            if card.deck == power.deck and card.kind == power.kind:
                found[card_choice(card)] = ChoiceStage(last, card.params, card.id, card.name)
    return found


# -- card powers -----------------------------------------------------------------------


class EffectPower(Power):
    """A card kind's power in content: words from its ``when_text`` and ``effect_text``
    (with ``{expression}`` fields filled from the card's numbers)."""

    def __init__(self, spec: PowerSpec) -> None:
        self.spec = spec
        self.when = spec.when_text
        self.stages = frozenset(spec.stages) if spec.stages else None
        #: the token whose placements for its owner it may put elsewhere (placing.py)
        self.redirects = spec.redirects
        if spec.redirects:
            self.stages = frozenset({*spec.stages, placing_stage(spec.redirects)})

    def describe(self, rules: Rules, card: CardSpec) -> str:
        scope = Scope(NOBODY, NOBODY, None, card.params, card.id)

        def field(found: re.Match[str]) -> str:
            name = found.group(1)
            if is_reading(name):
                words = self.spec.readings.get(name[len(READING) :], [])
                index = card.params.get(name[len(READING) :], 0)
                return words[index] if 0 <= index < len(words) else ""
            return str(_static(rules, tree(name), scope))

        return FIELD.sub(field, self.spec.effect_text)

    def broken_promise(self, rules: Rules, card: CardSpec) -> str | None:
        """The printed text promises ``promised`` (2 VP more a piece); these rules' numbers
        give ``promise`` (a setting or an override may turn it into a penalty)."""
        spec = self.spec
        if spec.promise is None or not card.text:  # a card without words promises nothing
            return None
        scope = Scope(NOBODY, NOBODY, None, card.params, card.id)
        now = _static(rules, tree(spec.promise), scope)
        if now == spec.promised:
            return None
        if now < 0:
            words = f"a penalty of {-now} VP"
        else:
            words = "nothing more" if now == 0 else f"{now} VP more"
        return (
            f"{card.deck.rstrip('s')} {card.id!r}: its text promises {spec.promise_words} "
            f"{spec.promised} VP more ({card.text!r}), but these rules make it {words}: "
            "write the card's params relative to what they improve on, or say so in the "
            "rule's description"
        )

    def _fires(self, rules: Rules, state: State, owner: int, card: CardSpec, event: Event) -> bool:
        return event.name == self.spec.on and holds(
            rules, state, self.spec.when, Scope(owner, event.player, event, card.params, card.id)
        )


def _static(rules: Rules, node: Tree, scope: Scope) -> int:
    """A text field's value: numbers of the card and the rules only (no state)."""
    return evaluate(rules, _NO_STATE, node, scope)


#: words are written without a game: a text field reading the state reads nothing
_NO_STATE: Any = None


class ReactingPower(EffectPower):
    """A power that reacts to an event: it counts as used once each time its ``if``
    holds, whatever its effects change (unless ``counted`` is false: the reaction of a
    card that is used, whose use counted)."""

    def __init__(self, spec: PowerSpec, counted: bool = True) -> None:
        super().__init__(spec)
        self.counted = counted

    def on_event(
        self, rules: Rules, state: State, owner: int, card: CardSpec, event: Event
    ) -> State | None:
        if not self._fires(rules, state, owner, card, event):
            return None
        scope = Scope(owner, event.player, event, card.params, card.id)
        state = run(rules, state, self.spec.effects, scope)
        return count_effect(state, card.id) if self.counted else state


class ScoringPower(EffectPower):
    """A power that adds score lines at final scoring, named after its card."""

    def score_lines(
        self, rules: Rules, state: State, owner: int, card: CardSpec, lines: tuple[ScoreLine, ...]
    ) -> Iterable[ScoreLine]:
        scope = Scope(owner, owner, None, card.params, card.id)
        if not holds(rules, state, self.spec.when, scope):
            return []
        return score_lines(rules, state, self.spec.effects, scope, card.id)


class ProtectingPower(EffectPower):
    """A power that hides meeples in front of its owner from the assassins."""

    def protects(self, rules: Rules, state: State, owner: int, card: CardSpec) -> Iterable[str]:
        return tuple(self.spec.protects)


class ProtectingReactingPower(ProtectingPower, ReactingPower):
    """Both: a power that protects, and counts each time its protection hides a target."""


def _removes_meeples(rules: Rules, effects: Iterable[EffectSpec]) -> bool:
    """Whether an effect of the list takes a meeple off a tile: ``remove`` or ``move``
    naming a colour, or the meeples the action names."""
    return any(
        piece is not None and piece != CAMEL and piece not in rules.token_index
        for _, e in nested(effects)
        for piece in (e.remove, e.move)
    )


class UsedPower(EffectPower, Activated):
    """A power its owner uses in their own turn (``on = "use"``), paid with the card's
    ``cost``, at most as often as its deck allows; offered while its ``if`` holds. One
    that takes meeples off a tile (always on a target, so never in a choice) waits during
    the move and the assassins' kill, and at the pick is offered only where it leaves a
    legal pick."""

    def __init__(self, spec: PowerSpec, takes_meeples: bool) -> None:
        super().__init__(spec)
        #: ``_removes_meeples`` of its effects, worked out once for the rules it is built in
        self.takes_meeples = takes_meeples

    def usable(self, rules: Rules, state: State, owner: int, card: CardSpec) -> bool:
        if self.takes_meeples and state.decision.stage in MEEPLES_SETTLED:
            return False
        return holds(rules, state, self.spec.when, Scope(owner, owner, None, card.params, card.id))

    def explain(self, rules: Rules, state: State, owner: int, card: CardSpec) -> str | None:
        """The card's ``unmet_text`` (its fields read in the game) and its words, when its
        ``if`` does not hold."""
        scope = Scope(owner, owner, None, card.params, card.id)
        if not self.spec.unmet_text or holds(rules, state, self.spec.when, scope):
            return None
        unmet = FIELD.sub(
            lambda m: str(evaluate(rules, state, tree(m.group(1)), scope)), self.spec.unmet_text
        )
        name = card.name or card.id
        return f"{name} {unmet}: {card.text}" if card.text else f"{name} {unmet}"

    def target_domains(self, rules: Rules, card: CardSpec) -> tuple[tuple[str, ...], ...]:
        if self.spec.card_pile is not None:
            return (card_ids(rules, self.spec.card_pile[0]),)
        if self.spec.target_to is not None:
            return (board_squares(rules), board_squares(rules))
        if self.spec.target_meeples is not None:
            most = self.spec.meeples_named(card.params)
            groups = (
                "".join(group)
                for size in range(1, most + 1)
                for group in itertools.combinations_with_replacement(rules.letters, size)
            )
            return (board_squares(rules), tuple(groups))
        return (board_squares(rules),) if self.spec.targeted else ()

    def targets(
        self, rules: Rules, state: State, owner: int, card: CardSpec
    ) -> Iterable[tuple[str, ...]]:
        """Where it may act (``_aimed``); at the pick, if it takes meeples off a tile,
        only where it leaves a pick to make."""
        found = self._aimed(rules, state, owner, card)
        if not self.takes_meeples or state.decision.stage != PICK:
            return found
        return [t for t in found if self._pick_left_after(rules, state, owner, card, t)]

    def _pick_left_after(
        self, rules: Rules, state: State, owner: int, card: CardSpec, target: tuple[str, ...]
    ) -> bool:
        """Whether some pick is still legal once its effects have run on ``target``."""
        after = run(rules, state, self.spec.effects, self._scope(rules, state, owner, card, target))
        return leaves_a_pick(rules, evolve(after, decision=state.decision))

    def _aimed(
        self, rules: Rules, state: State, owner: int, card: CardSpec
    ) -> list[tuple[str, ...]]:
        """The tiles it may act on: never an impassable one; of ``target_kind``, where
        ``target`` holds (each given); around the tile a token it redirects would go
        (none left in the bank: none); with each other tile where ``target_to`` holds,
        when it names a second one, or each distinct group of its ``target_meeples``
        meeples there (all of them when fewer), when it names some. Or each distinct
        card of its ``target_card`` pile."""
        spec = self.spec
        if spec.card_pile is not None:
            deck, pile = spec.card_pile
            return [(c,) for c in sorted(set(getattr(rules.deck_in(state, deck), pile))) if c]
        if not spec.targeted:
            return [()]
        geo, layout = state.geometry, state.layout
        tiles: Iterable[int] = range(geo.size)
        if spec.redirects:
            if state.pool[rules.token_index[spec.redirects]] == 0:
                return []
            origin = self._origin(state)
            tiles = (t for t in geo.area[origin] if t != origin)
        found: list[tuple[str, ...]] = []
        for t in tiles:
            if t in layout.blocked:
                continue
            if spec.target_kind and rules.tile(layout.tiles[t]).kind != spec.target_kind:
                continue
            scope = Scope(owner, owner, None, card.params, card.id, t)
            if holds(rules, state, spec.target, scope):
                found.append((geo.name(t),))
        if spec.target_meeples is not None:
            most = spec.meeples_named(card.params)
            return [
                (name, group)
                for (name,) in found
                for group in _groups(rules, state.board.meeples[geo.parse(name)], most)
            ]
        if spec.target_to is None or not found:
            return found
        ends = [
            geo.name(t)
            for t in range(geo.size)
            if t not in layout.blocked
            and holds(
                rules, state, spec.target_to, Scope(owner, owner, None, card.params, card.id, t)
            )
        ]
        return [(start, end) for (start,) in found for end in ends if end != start]

    def _origin(self, state: State) -> int:
        """Where the token it redirects would go: the tile of the ``placing:<token>``
        step, else the turn's tile (a village's, an oasis's own placement)."""
        token = self.spec.redirects
        if state.decision.stage == placing_stage(token):
            return pending_tile(state, token)
        return final_tile(state)

    def act(
        self, rules: Rules, state: State, owner: int, card: CardSpec, target: tuple[str, ...]
    ) -> State:
        scope = self._scope(rules, state, owner, card, target)
        if self.spec.card_pile is not None:
            return run(rules, state, self.spec.effects, scope)
        if self.spec.redirects:
            return self._redirect(rules, state, scope)
        state = run(rules, state, self.spec.effects, scope)
        if choosing(rules, state, self.spec.effects, scope) is None:
            return state
        turn = state.turn
        assert turn is not None  # used in its owner's turn
        return evolve(
            state,
            turn=evolve(turn, resume=state.decision.stage),
            decision=Decision(card_choice(card), owner),
        )

    def _scope(
        self, rules: Rules, state: State, owner: int, card: CardSpec, target: tuple[str, ...]
    ) -> Scope:
        """What its effects read for the target its action names: a card of its pile,
        or a tile with a second tile or a group of meeples (their colours' letters)."""
        aimed = Scope(owner, owner, None, card.params, card.id)
        pile = self.spec.card_pile
        if pile is not None:
            return attrs.evolve(aimed, target_card=(*pile, target[0]))
        if not target:
            return aimed
        tile = state.geometry.parse(target[0])
        aimed = attrs.evolve(aimed, target=tile, redirected=self.spec.redirects)
        if self.spec.target_meeples is not None:
            return attrs.evolve(aimed, target_group=tuple(map(rules.letters.index, target[1])))
        if len(target) > 1:
            return attrs.evolve(aimed, target_to=state.geometry.parse(target[1]))
        return aimed

    def _redirect(self, rules: Rules, state: State, scope: Scope) -> State:
        """Its effects are the placement it redirects: an effect's (the step ends, and
        play returns to the decision the effect was used at) or its ``stages``' own (a
        village's palace: the tile's action is done)."""
        token = self.spec.redirects
        if state.decision.stage == placing_stage(token):
            return run(rules, leave_placing(state, token), self.spec.effects, scope)
        stage = state.decision.stage
        return rules.proceed(run(rules, state, self.spec.effects, scope), stage)


def power_of(rules: Rules, spec: PowerSpec, counted: bool = True) -> Power:
    """The power a ``[[power]]`` entry describes in these rules (only the methods it uses
    overridden, so the card router asks it nothing else); ``counted``: whether its
    reactions count as uses of the card."""
    if spec.on == SCORING:
        return ScoringPower(spec)
    if spec.on == USE:
        return UsedPower(spec, _removes_meeples(rules, spec.effects))
    if spec.protects:
        if not spec.on:
            return ProtectingPower(spec)
        return ProtectingReactingPower(spec, counted)
    return ReactingPower(spec, counted) if spec.on else EffectPower(spec)


class CardPowers(Power):
    """A card kind's power written as several entries, one per moment (Echidna: used in
    the turn, then reacting as its owner's builders are paid). The used entry (else the
    first) speaks for the card: its words, its options; every entry reacts, scores and
    protects as it says, in content order."""

    def __init__(self, parts: list[Power]) -> None:
        self.parts = parts
        self.speaker = next((p for p in parts if isinstance(p, UsedPower)), parts[0])
        self.when = self.speaker.when
        self.redirects = getattr(self.speaker, "redirects", "")

    def describe(self, rules: Rules, card: CardSpec) -> str:
        return self.speaker.describe(rules, card)

    def broken_promise(self, rules: Rules, card: CardSpec) -> str | None:
        return next(
            (b for p in self.parts if (b := p.broken_promise(rules, card)) is not None), None
        )

    def options(self, rules: Rules, state: State, owner: int, card: CardSpec) -> Iterable[Action]:
        return self.speaker.options(rules, state, owner, card)

    def arguments(self, rules: Rules, card: CardSpec) -> Iterable[tuple[tuple[str, ...], ...]]:
        return self.speaker.arguments(rules, card)

    def apply(
        self, rules: Rules, state: State, owner: int, card: CardSpec, action: Action
    ) -> State:
        return self.speaker.apply(rules, state, owner, card, action)

    def explain(self, rules: Rules, state: State, owner: int, card: CardSpec) -> str | None:
        return self.speaker.explain(rules, state, owner, card)

    def on_event(
        self, rules: Rules, state: State, owner: int, card: CardSpec, event: Event
    ) -> State | None:
        changed = None
        for part in self.parts:
            after = part.on_event(rules, changed or state, owner, card, event)
            changed = after if after is not None else changed
        return changed

    def score_lines(
        self, rules: Rules, state: State, owner: int, card: CardSpec, lines: tuple[ScoreLine, ...]
    ) -> Iterable[ScoreLine]:
        return [
            line for p in self.parts for line in p.score_lines(rules, state, owner, card, lines)
        ]

    def protects(self, rules: Rules, state: State, owner: int, card: CardSpec) -> Iterable[str]:
        return tuple(
            dict.fromkeys(c for p in self.parts for c in p.protects(rules, state, owner, card))
        )


def card_powers(rules: Rules) -> dict[str, Power]:
    """The powers content gives, keyed ``<deck>:<kind>``: a kind written as several
    entries (one per moment) is one power (``CardPowers``), whose reactions count no use
    of their own when it is used (its use counted)."""
    entries: dict[str, list[PowerSpec]] = {}
    for spec in rules.content.powers:
        entries.setdefault(f"{spec.deck}:{spec.kind}", []).append(spec)
    found: dict[str, Power] = {}
    for key, specs in entries.items():
        used = any(spec.on == USE for spec in specs)
        parts = [power_of(rules, spec, counted=not used) for spec in specs]
        found[key] = parts[0] if len(parts) == 1 else CardPowers(parts)
    return found
