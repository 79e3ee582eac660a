"""The effects language: triggers, tile actions and card powers as content data.

A content file may say what happens, not only what numbers the game uses:

- ``[[trigger]]``: when an event fires (``tile-taken``, ``kill``…), at the end of a turn
  (``turn-end``) or at final scoring (``scoring``);
- ``[[tile_action]]``: before, after or instead of a tile kind's action;
- ``[[power]]``: the power of a card kind (a djinn), reacting to an event, scoring, or
  protecting meeples.

Each runs a list of **effects** (gain or pay coins, draw cards, a score line), each with
an optional ``if``. Amounts and conditions are **expressions**: integers, names
(``me``, ``actor``, ``coins``, ``param.self``, ``setting.vizier_vp``, ``event.count``…),
counts (``here("palm-tree")``, ``held("yellow")``…), arithmetic, comparisons and
``a if c else b``. An expression is compiled here once, when the file is read, into a
small tree of plain data; the base plugin interprets the tree in Python
(``naqala.plugins.base.effects``) and the kernel in Rust (``kernel/src/effects.rs``), and
the differential harness proves the two agree over drawn programs
(``naqala.testing.effect_programs``). docs/effects.md is the reference.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import attrs

from naqala.core.overrides import MAX_NUMBER
from naqala.core.parsing import PARSE_LOCK
from naqala.core.structured import OutOfBounds, ShapeError, json_type, numbers_within

#: an expression as a file writes it: a whole number or a formula
Source = int | str
#: an expression compiled to plain data (``{"bin": "+", "a": …, "b": …}``)
Tree = dict[str, Any]

#: the events a trigger or a power may listen to, besides ``turn-end`` and ``scoring``:
#: the base game's (``plugins/base/events.py``), which both engines fire with these fields
EVENTS = (
    "meeple-dropped",
    "tile-taken",
    "kill",
    "builders-paid",
    "palace-placed",
    "palm-tree-placed",
    "djinn-taken",
    "kill-prevented",
    "sell",
    "round-end",
    "turn-start",
    "before-tribe-action",
    "after-tribe-action",
)
#: the end of a turn, once the sale is done; the player is the one whose turn it was
TURN_END = "turn-end"
#: final scoring: effects run once per player and may only add score lines
SCORING = "scoring"
#: every moment a trigger or power may name in ``on``
MOMENTS = (*EVENTS, TURN_END, SCORING)
#: a power used by its owner in their own turn, paid with its card's ``cost``
USE = "use"

#: plain names an expression may use
NAMES = {
    "me": "the player the effect is for (a seat)",
    "actor": "the player who caused the event (at other moments: ``me``)",
    "coins": "the coins ``me`` holds",
}
#: dotted names: ``event.<field>`` and ``turn.<field>``
DOTTED = {
    "event.count": "the event's count (the coins of ``builders-paid`` or ``sell``; else 1)",
    "event.tile_owner": "the owner of the event's tile, -1 if none (or no tile)",
    "event.victim": "the player whose meeples were hidden (``kill-prevented``), else -1",
    "event.this_card": "1 if the event is about this very card (``djinn-taken``), else 0",
    "turn.killed": "1 once the assassins of this turn have killed, else 0",
    "turn.used": "1 once this card's power has been used this turn (``use``), else 0",
    "target.owner": "the owner of the used power's target tile, -1 if none (or no target)",
    "target.meeples": "the meeples on the target tile",
    "target.tokens": "the tokens (palm trees, palaces…) on the target tile",
    "target.holds_meeples": "1 if meeples may stand on the target tile's kind, else 0",
}
#: counting functions: name -> what the argument names
COUNTS = {
    "here": "token",  # tokens of that kind on the tile of the turn in progress
    "on_target": "token",  # tokens of that kind on the used power's target tile
    "owned": "token",  # tokens of that kind on the tiles ``me`` owns
    "held": "colour",  # meeples of that colour in front of ``me``
    "tribe": "colour",  # 1 if the meeples moved this turn are of that colour, else 0
    "killed": "colour",  # 1 if the event is a kill of a meeple of that colour, else 0
    "around": "value",  # tiles of that value (blue, red) around the event's tile, itself in
    "cards": "card",  # copies of that card id in ``me``'s resource hand
    "holds": "kind",  # cards of that kind in ``me``'s hands of the other decks (djinns, items…)
    "vp": "token",  # the victory points a token of that kind is worth
    "tiles": "",  # the tiles ``me`` owns
    "pile": "",  # the resource cards left to draw: the pile and its discards
    "bank": "token",  # tokens of that kind left in the bank
    # a counter's value (``[[counter]]``, or a plugin's own by its full name): ``me``'s, or
    # the game's
    "counter": "counter",
    "camels": "",  # the camels ``me`` has left to place
    "bag": "",  # the meeples left in the bag
    "djinns": "",  # the djinns left to draw: the pile and its discards
    "held_all": "",  # the meeples in front of ``me``, of every colour
    "most_held": "colour",  # as ``held``, when more than each other player holds; else 0
    "tiles_of": "tile",  # the tiles of that kind ``me`` owns
    "valued": "value",  # the tiles of that value (blue, red) ``me`` owns
    "tile_kinds": "",  # the kinds among the tiles ``me`` owns
    "largest_group": "",  # the most of ``me``'s tiles joined edge to edge
    "merchandise_kinds": "",  # the different merchandise in ``me``'s resource hand
    "most_merchandise": "",  # the most copies of one merchandise in ``me``'s resource hand
    "hand": "deck",  # the cards in ``me``'s hand of that deck
    "path": "",  # the tiles dropped on in this turn's move
    "collected": "",  # the meeples collected at the end of this turn's move
    # ``me``'s tiles with a tile of that kind among the 8 around (``near``) or the 4 that
    # share an edge (``beside``), not of that kind themselves
    "near": "tile",
    "beside": "tile",
    # 1 if a card of that deck lies on the used power's target tile (its row lies on
    # tiles: ``[[deck]] lies_on``), else 0
    "lying": "row on tiles",
}
#: functions of numbers: ``merchandise(n)`` is ``me``'s best merchandise score with ``n``
#: jokers that each stand for any merchandise (0 to ``MOST_WILDS``)
FUNCTIONS = ("min", "max", "abs", "merchandise")
#: the most jokers ``merchandise(n)`` counts (a larger ``n`` counts as this many): no hand
#: holds more, and the search stays short
MOST_WILDS = 99
#: binary operators, as the tree writes them
_BINARY: Mapping[type, str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.FloorDiv: "//",
    ast.Mod: "%",
}
_COMPARE: Mapping[type, str] = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
}
#: longest formula accepted, and deepest nesting: a file is data, never a program
MAX_LENGTH = 400
MAX_DEPTH = 24


#: the metadata key of a field whose key in a file is not its name (``if``)
KEY = "key"


def structure_source(value: Any, _type: Any) -> Source | None:
    """An expression field as a file gives it: a whole number or a formula (strict, as
    every field: a boolean is neither)."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ShapeError(f"expected a whole number or a formula, got {json_type(value)}")
    return value


class ExpressionError(ValueError):
    """A formula that is not one of the language's: the reason in words."""


def compile_expression(source: Source) -> Tree:
    """The tree of one expression, or ``ExpressionError`` saying what is wrong."""
    if isinstance(source, bool):
        raise ExpressionError("expected a whole number or a formula, got a boolean")
    if isinstance(source, int):
        return {"num": _bounded(source)}
    if len(source) > MAX_LENGTH:
        raise ExpressionError(f"a formula of {len(source)} characters; at most {MAX_LENGTH}")
    try:
        with PARSE_LOCK:
            parsed = ast.parse(source.strip(), mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(f"{source!r} is no formula: {exc.msg}") from None
    return _Compiler(source).node(parsed.body, 0)


def _bounded(number: int) -> int:
    if abs(number) > MAX_NUMBER:
        raise ExpressionError(f"{number} is beyond ±{MAX_NUMBER}")
    return number


@attrs.frozen
class _Compiler:
    source: str

    def refuse(self, what: str) -> ExpressionError:
        return ExpressionError(f"{self.source!r}: {what}")

    def node(self, node: ast.expr, depth: int) -> Tree:
        if depth > MAX_DEPTH:
            raise self.refuse(f"nested more than {MAX_DEPTH} deep")
        deeper = depth + 1
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, int):
                raise self.refuse(f"{node.value!r} is not a whole number")
            return {"num": _bounded(node.value)}
        if isinstance(node, ast.Name):
            if node.id not in NAMES:
                raise self.refuse(f"unknown name {node.id!r} (names: {', '.join(NAMES)})")
            return {"var": node.id}
        if isinstance(node, ast.Attribute):
            return self.dotted(node)
        if isinstance(node, ast.Call):
            return self.call(node, deeper)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            return {
                "bin": _BINARY[type(node.op)],
                "a": self.node(node.left, deeper),
                "b": self.node(node.right, deeper),
            }
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return {"neg": self.node(node.operand, deeper)}
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return {"not": self.node(node.operand, deeper)}
        if isinstance(node, ast.Compare):
            if len(node.ops) != 1 or type(node.ops[0]) not in _COMPARE:
                raise self.refuse("compare two values at a time (==, !=, <, <=, >, >=)")
            return {
                "bin": _COMPARE[type(node.ops[0])],
                "a": self.node(node.left, deeper),
                "b": self.node(node.comparators[0], deeper),
            }
        if isinstance(node, ast.BoolOp):
            op = "and" if isinstance(node.op, ast.And) else "or"
            tree = self.node(node.values[0], deeper)
            for value in node.values[1:]:
                tree = {"bin": op, "a": tree, "b": self.node(value, deeper)}
            return tree
        if isinstance(node, ast.IfExp):
            return {
                "if": self.node(node.test, deeper),
                "then": self.node(node.body, deeper),
                "else": self.node(node.orelse, deeper),
            }
        raise self.refuse(f"{ast.unparse(node)!r} is not part of the language")

    def dotted(self, node: ast.Attribute) -> Tree:
        parts: list[str] = []
        current: ast.expr = node
        while isinstance(current, ast.Attribute):
            parts.append(current.attr)
            current = current.value
        if not isinstance(current, ast.Name):
            raise self.refuse(f"{ast.unparse(node)!r} is not a name")
        parts.append(current.id)
        head, rest = parts[-1], ".".join(reversed(parts[:-1]))
        if head in ("param", "setting"):
            return {head: rest}
        name = f"{head}.{rest}"
        if name not in DOTTED:
            raise self.refuse(f"unknown name {name!r} (known: {', '.join(DOTTED)})")
        return {"var": name}

    def call(self, node: ast.Call, depth: int) -> Tree:
        if not isinstance(node.func, ast.Name) or node.keywords:
            raise self.refuse(f"{ast.unparse(node)!r} is not a call of the language")
        name = node.func.id
        if name in FUNCTIONS:
            wanted = 1 if name in ("abs", "merchandise") else None
            if not node.args or (wanted is not None and len(node.args) != wanted):
                raise self.refuse(f"{name}() takes {'one value' if wanted else 'values'}")
            return {"call": name, "args": [self.node(a, depth) for a in node.args]}
        if name not in COUNTS:
            known = ", ".join([*COUNTS, *FUNCTIONS])
            raise self.refuse(f"unknown function {name!r} (functions: {known})")
        what = COUNTS[name]
        if not what:
            if node.args:
                raise self.refuse(f"{name}() takes nothing")
            return {"count": name, "of": ""}
        if len(node.args) != 1 or not isinstance(node.args[0], ast.Constant):
            raise self.refuse(f'{name}() takes the id of a {what}, in quotes: {name}("...")')
        of = node.args[0].value
        if not isinstance(of, str) or not of:
            raise self.refuse(f"{name}() takes the id of a {what}, in quotes")
        return {"count": name, "of": of}


def expression(attribute_name: str) -> Callable[[Any, Any, Any], None]:
    """An attrs validator: the field is an expression of the language (``None`` allowed),
    so a wrong formula is reported at its own path like a wrong type."""

    def check(_instance: Any, attribute: Any, value: Any) -> None:
        if value is None:
            return
        try:
            compile_expression(value)
        except ExpressionError as exc:
            raise OutOfBounds(attribute_name, str(exc)) from None

    return check


def template(attribute_name: str) -> Callable[[Any, Any, Any], None]:
    """An attrs validator: every ``{expression}`` field of a text is a formula of the
    language (``{reading.<param>}`` apart), so words never fail in the middle of a game."""

    def check(_instance: Any, attribute: Any, value: str) -> None:
        for field in FIELD.findall(value):
            if is_reading(field):
                continue
            try:
                compile_expression(field)
            except ExpressionError as exc:
                raise OutOfBounds(attribute_name, str(exc)) from None

    return check


_VERBS = (
    "coins",
    "draw",
    "score",
    "place",
    "remove",
    "kills",
    "discard_fakirs",
    "choose",
    "set",
    "meeples",
    "draw_djinns",
    "take_djinn",
    "keep_killed",
    "deal_row",
    "take_card",
    "move",
    "fire",
    "take_lying",
)
#: the verb discarding the face-up resource cards for a new row
DEAL_ROW = "deal_row"
#: the verb taking a used power's target card into its player's hand
TAKE_CARD = "take_card"
#: the piles a used power's card target may lie in: a deck's discards, or the face-up row
#: of one of the two decks every game has (``content.DECK_NAMES``, checked with the rules:
#: a box's row laid in fixed places, as the Whims' cities, has empty places and is none)
CARD_PILES = ("row", "discard")
#: what a card target may name, in words
CARD_TARGET_WORDS = "a card target lies in <deck>.discard, resources.row or djinns.row"
#: the verb moving a piece of the used power's target tile to its second tile
MOVE = "move"
#: the verbs naming a piece (a token, a camel, a colour) on the used power's target tile,
#: not an amount
TOKEN_VERBS = ("place", "remove", MOVE)
#: what ``place`` names to take the target tile with one of the player's camels
CAMEL = "camel"
#: the verb putting meeples drawn from the bag on the target tile; also what ``remove``
#: names to take the meeples a used power's action names (``target_meeples``) to the bag
MEEPLES = "meeples"
#: the most meeples a used power's action names on its target tile (``target_meeples``):
#: the group is part of the action (``burning-scimitar d3 GB``), its letters a key's
MOST_TARGET_MEEPLES = 4
#: the verbs acting on a used power's target tile
TARGET_VERBS = (*TOKEN_VERBS, MEEPLES)
#: the fewest and the most options a choice offers (``choose 1`` … ``choose 9``)
FEWEST_OPTIONS = 2
MOST_OPTIONS = 9
#: the verb of the action taking an option of a choice: ``choose 2``
CHOOSE = "choose"
#: the verb setting a counter (``{ set = "tolls", to = 'counter("tolls") + 1' }``)
SET = "set"
#: the verb taking the card lying on a tile (the used power's target, or the tile of the
#: tile action) into the player's hand: ``{ take_lying = "whims" }``
TAKE_LYING = "take_lying"
#: the verbs naming a thing rather than an amount
NAMING_VERBS = (*TOKEN_VERBS, TAKE_LYING)
#: the verb firing a plugin's event (``{ fire = "whim-claimed", count = "param.coins" }``)
FIRE = "fire"
#: the values a counter holds (a state's counters are 0 to 1,000,000: ``validate``)
COUNTER_MOST = 1_000_000
#: a counter's name in a state's (or a player's) ``extras``: ``counter.<id>``
COUNTER_PREFIX = "counter."
#: whose a counter is: each player's own, or one for the whole game
COUNTER_HOLDERS = ("player", "game")
#: the longest counter id (a state's counter names are at most 64 characters)
COUNTER_ID_MOST = 48


def _one_verb(instance: EffectSpec, _attribute: Any, _value: Any) -> None:
    given = [verb for verb in _VERBS if getattr(instance, verb) is not None]
    if len(given) != 1:
        raise OutOfBounds(
            "coins" if not given else given[1],
            f"an effect does one thing: exactly one of {', '.join(_VERBS)}"
            + (f" (got {', '.join(given)})" if given else ""),
        )
    if instance.count is not None and instance.fire is None:
        raise OutOfBounds("count", "a count is the count of the event an effect fires (fire)")
    if (instance.set is None) != (instance.to is None):
        raise OutOfBounds(
            "to" if instance.set is not None else "set",
            'a counter is set to a value: set = "<counter>", to = <amount>',
        )


def _options(_instance: Any, _attribute: Any, value: list[OptionSpec] | None) -> None:
    if value is not None and not FEWEST_OPTIONS <= len(value) <= MOST_OPTIONS:
        raise OutOfBounds(
            "choose",
            f"a choice offers {FEWEST_OPTIONS} to {MOST_OPTIONS} options, not {len(value)}",
        )


def _words(_instance: Any, _attribute: Any, value: str) -> None:
    if not value.strip():
        raise OutOfBounds("words", "an option says in words what it does")


@attrs.frozen
class EffectSpec:
    """One effect: ``coins`` gained (a negative amount pays, down to 0 coins), cards
    drawn from the resource deck (``draw``), a ``score`` line (at ``scoring`` only, in
    ``category``) or a token placed on the target (``place``); ``if`` skips it when
    false (0)."""

    coins: Source | None = attrs.field(default=None, validator=expression("coins"))
    draw: Source | None = attrs.field(default=None, validator=expression("draw"))
    score: Source | None = attrs.field(default=None, validator=expression("score"))
    #: a token from the bank on the power's target tile (a used power with a target),
    #: through the same placement as the hand-written djinns (Hagis and Lamia may put it
    #: elsewhere); ``"camel"``: the player takes the tile with one of their camels
    place: str | None = None
    #: a token of this kind from the power's target tile back to the bank, its camel back
    #: to its owner, or a meeple of this colour back to the bag (none there: nothing);
    #: ``"meeples"``: the meeples its action names (``target_meeples``) back to the bag
    remove: str | None = None
    #: the power's camel, a token of this kind or a meeple of this colour from its target
    #: tile to its second tile (``target_to``): nothing when none is there, and a camel
    #: neither onto a tile with one nor off a tile a stand-in (a tent) marks; no event
    #: fires, as nothing is placed or taken
    move: str | None = None
    #: more meeples the assassins of this turn kill (Iblis: ``kills = "param.kills - 1"``)
    kills: Source | None = attrs.field(default=None, validator=expression("kills"))
    #: meeples drawn at random from the bag onto the power's target tile (all that are
    #: left, if fewer)
    meeples: Source | None = attrs.field(default=None, validator=expression("meeples"))
    #: djinns drawn from the top of the djinn pile (fewer if fewer are left, reshuffling
    #: the discards if it runs out), of which the player keeps one and discards the others
    #: (a decision of its own, ``keep <djinn>``, then the interrupted one goes on)
    draw_djinns: Source | None = attrs.field(default=None, validator=expression("draw_djinns"))
    #: when more than 0 and a djinn is face up: the player takes one of the face-up djinns,
    #: free (a decision of its own, ``keep <djinn>``, then the interrupted one goes on);
    #: ``djinn-taken`` fires, as at a sacred place
    take_djinn: Source | None = attrs.field(default=None, validator=expression("take_djinn"))
    #: at a ``kill``, when more than 0: the meeple killed goes in front of the effect's
    #: player instead of into the bag (Kandicha's viziers and elders)
    keep_killed: Source | None = attrs.field(default=None, validator=expression("keep_killed"))
    #: when more than 0: the face-up resource cards discarded and that many dealt from the
    #: pile as the new row (the discards, those included, reshuffled when the pile runs
    #: out; fewer when both run out): the Horn of Plenty
    deal_row: Source | None = attrs.field(default=None, validator=expression("deal_row"))
    #: when more than 0: the used power's target card (``target_card``) into the player's
    #: hand, from the pile it lies in (a djinn fires ``djinn-taken``, as at a sacred place)
    take_card: Source | None = attrs.field(default=None, validator=expression("take_card"))
    #: Fakirs discarded from the hand to the discard pile (as many as held, at most)
    discard_fakirs: Source | None = attrs.field(
        default=None, validator=expression("discard_fakirs")
    )
    #: a choice offered to the player: one of these lists of effects, by its words
    #: (a decision of its own, ``choose <n>``)
    choose: list[OptionSpec] | None = attrs.field(default=None, validator=_options)
    #: a counter declared by ``[[counter]]``, set ``to`` a value (held from 0 to
    #: ``COUNTER_MOST``): the effect's player's counter, or the game's
    set: str | None = None
    to: Source | None = attrs.field(default=None, validator=expression("to"))
    #: an event a plugin fires (``naqala_events``), fired for the effect's player about the
    #: card whose power it is, with ``count`` (1 if none) as its count
    fire: str | None = None
    count: Source | None = attrs.field(default=None, validator=expression("count"))
    #: a deck whose row lies on tiles (``lies_on``): the card of it lying on the used
    #: power's target tile, or on the tile of the tile action, into the player's hand
    #: (none there: nothing); the deck's ``taken_event`` fires
    take_lying: str | None = None
    category: str = ""
    #: the score line's detail, with ``{expression}`` fields (``{held("yellow")} viziers``)
    detail: str = attrs.field(default="", validator=template("detail"))
    when: Source | None = attrs.field(
        default=None, validator=[expression("if"), _one_verb], metadata={KEY: "if"}
    )

    def verb(self) -> tuple[str, Source]:
        """The effect's verb and its amount (a place's token; a choice's: 0; a set's: the
        value it sets, ``to``; a fire's: the event's ``count``)."""
        for verb in _VERBS:
            amount = getattr(self, verb)
            if amount is not None:
                if verb == SET:
                    assert self.to is not None  # _one_verb checked it
                    return verb, self.to
                if verb == FIRE:
                    return verb, 1 if self.count is None else self.count
                return verb, 0 if verb == CHOOSE else amount
        raise AssertionError("an effect has a verb")  # _one_verb checked it


@attrs.frozen
class OptionSpec:
    """One option of a choice: its words (the option's note when offered) and the
    effects it runs."""

    words: str = attrs.field(validator=_words)
    effects: list[EffectSpec] = attrs.field(factory=list)


attrs.resolve_types(EffectSpec, globals(), locals())


def _moment(_instance: Any, attribute: Any, value: str) -> None:
    if value not in MOMENTS:
        raise OutOfBounds(attribute.name, f"{value!r} is no moment ({', '.join(MOMENTS)})")


def _power_moment(instance: Any, attribute: Any, value: str) -> None:
    if value and value != USE:
        _moment(instance, attribute, value)


def _tile_when(_instance: Any, attribute: Any, value: str) -> None:
    if value not in ("before", "after", "instead"):
        raise OutOfBounds(attribute.name, f"{value!r}: one of before, after, instead")


@attrs.frozen
class TriggerSpec:
    """Effects run when something happens to anyone (a house rule's trigger)."""

    id: str
    on: str = attrs.field(validator=_moment)
    effects: list[EffectSpec] = attrs.field(factory=list)
    when: Source | None = attrs.field(
        default=None, validator=expression("if"), metadata={KEY: "if"}
    )
    params: dict[str, int] = attrs.field(factory=dict, validator=numbers_within(MAX_NUMBER))
    text: str = ""


@attrs.frozen
class TileActionSpec:
    """Effects run by a tile kind's action: before or after the usual one, or instead
    of it (a new tile kind's whole action)."""

    id: str
    tile: str
    at: str = attrs.field(validator=_tile_when)
    effects: list[EffectSpec] = attrs.field(factory=list)
    when: Source | None = attrs.field(
        default=None, validator=expression("if"), metadata={KEY: "if"}
    )
    params: dict[str, int] = attrs.field(factory=dict, validator=numbers_within(MAX_NUMBER))
    #: what a whole action (``instead``) does, in words, for the list of what each tile
    #: does; ``{expression}`` fields read its numbers and the rules' (``{setting.city_vp}``)
    text: str = attrs.field(default="", validator=template("text"))


def _meeple_count(_instance: Any, attribute: Any, value: int | str | None) -> None:
    """How many meeples a used power's action names: a number, or a card's number (the
    action's domain is the card's, so nothing read in the game)."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ShapeError(f"expected a whole number or 'param.<name>', got {json_type(value)}")
    if isinstance(value, str) and not re.fullmatch(r"param\.[a-z_][a-z0-9_]*", value):
        raise OutOfBounds(attribute.name, f"{value!r}: a whole number or 'param.<name>'")
    if isinstance(value, int) and not 1 <= value <= MOST_TARGET_MEEPLES:
        raise OutOfBounds(attribute.name, f"{value}: 1 to {MOST_TARGET_MEEPLES} meeples")


def _card_pile(_instance: Any, attribute: Any, value: str) -> None:
    if value and value.partition(".")[2] not in CARD_PILES:
        raise OutOfBounds(attribute.name, f"{value!r}: {CARD_TARGET_WORDS}")


@attrs.frozen
class PowerSpec:
    """The power of every card of ``kind`` in ``deck``: effects for its owner at a
    moment (``on``), and colours of the meeples in front of the owner that assassins
    cannot kill (``protects``). A kind may have one entry per moment (a used power and
    the event it then changes, as Echidna's). ``when_text`` and ``effect_text`` are its
    words for the card reference, with ``{expression}`` fields filled from the card's
    numbers."""

    deck: str
    kind: str
    on: str = attrs.field(default="", validator=_power_moment)
    effects: list[EffectSpec] = attrs.field(factory=list)
    when: Source | None = attrs.field(
        default=None, validator=expression("if"), metadata={KEY: "if"}
    )
    protects: list[str] = attrs.field(factory=list)
    #: a used power's target: any tile of this kind (the action names it: ``enki d4 F``)
    target_kind: str = ""
    #: a used power's target: any tile where this holds (``target.*`` reads the tile);
    #: with ``target_kind``, a tile of that kind where it holds
    target: Source | None = attrs.field(default=None, validator=expression("target"))
    #: a used power's second tile, where ``move`` puts a piece of its target: any other
    #: tile where this holds, read through ``target.*`` and ``on_target`` as the target
    #: is (the action names both: ``tempest-talisman a1 c4``)
    target_to: Source | None = attrs.field(default=None, validator=expression("target_to"))
    #: a used power's target: a tile and a group of this many of its meeples, any colours
    #: (all of them when fewer stand there), a number or ``param.<name>`` up to
    #: ``MOST_TARGET_MEEPLES``; the action names both (``burning-scimitar d3 GB``), and
    #: ``remove = "meeples"`` takes the group to the bag
    target_meeples: int | str | None = attrs.field(default=None, validator=_meeple_count)
    #: a used power's target: a card of this pile, ``<deck>.discard`` or the face-up
    #: ``resources.row`` or ``djinns.row`` (the action names it: ``fabulous-lamp jafaar``)
    target_card: str = attrs.field(default="", validator=_card_pile)
    #: the decisions of its owner's turn at which a used power is offered (none: all)
    stages: list[str] = attrs.field(factory=list)
    #: a used power that puts a token placed for its owner elsewhere (``"palace"``):
    #: offered where that token is placed (the ``placing:<token>`` step and its
    #: ``stages``), on the tiles around, and its effects are that placement
    redirects: str = ""
    when_text: str = ""
    effect_text: str = attrs.field(default="", validator=template("effect_text"))
    #: what follows the card's name when its owner may not use it because its ``if`` does
    #: not hold, with ``{expression}`` fields read in the game (``is not fulfilled yet (you
    #: have {held("yellow")})``); the card's text then says what it asks
    unmet_text: str = attrs.field(default="", validator=template("unmet_text"))
    #: what the card's printed text promises, as a number (``promised``: "worth 4 VP
    #: instead of 2" promises 2) and as an expression of these rules' numbers
    #: (``promise``); ``naqala content check`` warns when the two differ
    promise: Source | None = attrs.field(default=None, validator=expression("promise"))
    promised: int = 0
    promise_words: str = ""
    #: words that depend on a card param (a reading): ``{reading.<param>}`` in
    #: ``effect_text`` is the param's value's entry (0: the first)
    readings: dict[str, list[str]] = attrs.field(factory=dict)
    #: replaces the powers an earlier file gave its kind (an expansion's revised card, a
    #: house rule's rewritten djinn), instead of being refused as a second definition
    revises: bool = False

    @property
    def targeted(self) -> bool:
        """Whether the power acts on a tile its action names (a kind, a condition, a
        group of meeples, or a tile around a placement it redirects)."""
        return (
            bool(self.target_kind)
            or self.target is not None
            or self.target_meeples is not None
            or bool(self.redirects)
        )

    def meeples_named(self, params: Mapping[str, int]) -> int:
        """How many meeples its action names on the target tile, for a card with these
        numbers (0 when it names none)."""
        count = self.target_meeples
        if isinstance(count, str):
            return params.get(count.removeprefix("param."), 0)
        return count or 0

    @property
    def card_pile(self) -> tuple[str, str] | None:
        """The deck and the pile (``row``, ``discard``) of the card its action names, if
        it acts on a card."""
        deck, _, pile = self.target_card.partition(".")
        return (deck, pile) if self.target_card else None


def _counter_id(_instance: Any, attribute: Any, value: str) -> None:
    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", value) or len(value) > COUNTER_ID_MOST:
        raise OutOfBounds(
            attribute.name,
            f"{value!r}: a counter's id is lower-case letters, digits, - and _, "
            f"at most {COUNTER_ID_MOST} characters",
        )


def _holder(_instance: Any, attribute: Any, value: str) -> None:
    if value not in COUNTER_HOLDERS:
        raise OutOfBounds(attribute.name, f"{value!r}: one of {', '.join(COUNTER_HOLDERS)}")


@attrs.frozen
class CounterSpec:
    """A number the rules keep for each player (``of = "player"``) or for the game
    (``"game"``), 0 at the start: effects set it (``set``) and expressions read it
    (``counter("id")``). It is part of the state, saved and compared like every other."""

    id: str = attrs.field(validator=_counter_id)
    of: str = attrs.field(default="player", validator=_holder)
    text: str = ""

    @property
    def key(self) -> str:
        """The counter's name in ``extras``."""
        return f"{COUNTER_PREFIX}{self.id}"


#: ``{expression}`` fields of a text (a detail, a card's words)
FIELD = re.compile(r"\{([^{}]+)\}")


#: a text field naming a reading of a card param (``{reading.per_assassination}``)
READING = "reading."


def is_reading(field: str) -> bool:
    return field.startswith(READING)


def compiled(spec: EffectSpec) -> Tree:
    """One effect as the kernel reads it."""
    verb, amount = spec.verb()
    placed = verb in NAMING_VERBS
    tree: Tree = {
        "verb": verb,
        "amount": compile_expression(1 if placed else amount),
        "if": None if spec.when is None else compile_expression(spec.when),
        "category": spec.category,
        "token": str(amount) if placed else (spec.set or spec.fire or ""),
    }
    if spec.choose is not None:
        tree["options"] = [[compiled(e) for e in option.effects] for option in spec.choose]
    return tree


def nested(
    effects: Iterable[EffectSpec], path: str = "effects"
) -> Iterator[tuple[str, EffectSpec]]:
    """Every effect of a list with its path (``effects[1].choose[0].effects[2]``), the
    options' effects after their choice's."""
    for i, effect in enumerate(effects):
        at = f"{path}[{i}]"
        yield at, effect
        for j, option in enumerate(effect.choose or ()):
            yield from nested(option.effects, f"{at}.choose[{j}].effects")


def _names_in(node: Tree, key: str) -> set[str]:
    """The names a tree reads under ``key`` (``setting``: the settings it reads)."""
    found = {node[key]} if key in node else set()
    for value in node.values():
        if isinstance(value, dict):
            found |= _names_in(value, key)
        elif isinstance(value, list):
            for item in value:
                found |= _names_in(item, key)
    return found


def sources_of(
    triggers: Iterable[TriggerSpec],
    tile_actions: Iterable[TileActionSpec],
    powers: Iterable[PowerSpec],
) -> list[Source]:
    """Every expression of these entries: conditions, amounts and texts' fields."""
    found: list[Source] = []
    entries: list[TriggerSpec | TileActionSpec | PowerSpec] = [*triggers, *tile_actions, *powers]
    for entry in entries:
        if entry.when is not None:
            found.append(entry.when)
        for _, effect in nested(entry.effects):
            verb, amount = effect.verb()
            found.extend(s for s in (effect.when, None if verb in NAMING_VERBS else amount) if s)
            found.extend(FIELD.findall(effect.detail))
        if isinstance(entry, TileActionSpec):
            found.extend(FIELD.findall(entry.text))
        if isinstance(entry, PowerSpec):
            found.extend(f for f in FIELD.findall(entry.effect_text) if not is_reading(f))
            found.extend(FIELD.findall(entry.unmet_text))
            found.extend(t for t in (entry.target, entry.target_to) if t is not None)
            if entry.promise is not None:
                found.append(entry.promise)
    return found


def settings_read(sources: Iterable[Source]) -> set[str]:
    """The settings these expressions read (``setting.rich_village_coins``): a content-only
    house rule may set a setting its own effects read."""
    found: set[str] = set()
    for source in sources:
        try:
            found |= _names_in(compile_expression(source), "setting")
        except ExpressionError:
            continue  # reported where the file is read
    return found
