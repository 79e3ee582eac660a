"""Drawn programs of the effects language, for proving its two interpreters equal.

A rule made of existing effects needs no code in either engine, so the two interpreters
(``plugins/base/effects.py`` and ``kernel/src/effects.rs``) are proven once, as
interpreters: Hypothesis draws content-only house rules from the whole vocabulary
(triggers at every moment, tile actions before, after and instead of every base tile
kind, a new djinn with a reacting, scoring or used power, a used one dealt to every
player at setup so that the games use it; choices ending a whole tile
action or a used power; counters of a player and of the game, set and read; every name,
count and operator of the expressions; a deck of the program's own lying on a tile kind,
its cards' powers content and a tile action taking the card lying there; over the Whims
box, its counts read, its counter set and its events fired) and the
differential harness plays each on both engines, comparing every state, legal list and
score sheet (``tests/test_effects_programs.py``,
``bench/effects.py`` for thousands).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from naqala.core.effects import EVENTS, SCORING, TURN_END, USE
from naqala.core.plugins import HouseRuleFile

#: the counts of a player's tiles, meeples, hands and move, each over the base game
HOLDINGS = (
    "held_all()",
    'most_held("yellow")',
    'most_held("white")',
    'tiles_of("oasis")',
    'valued("red")',
    "tile_kinds()",
    "largest_group()",
    "merchandise_kinds()",
    "most_merchandise()",
    'hand("djinns")',
    "path()",
    "collected()",
    'near("oasis")',
    'beside("village")',
)
#: leaves of an expression: names, numbers, card params and settings, counts
LEAVES = (
    "me",
    "actor",
    "coins",
    "event.count",
    "event.tile_owner",
    "event.victim",
    "event.this_card",
    "turn.killed",
    "turn.used",
    "param.x",
    "param.y",
    "setting.vizier_vp",
    "setting.elder_vp",
    'here("palm-tree")',
    'here("palace")',
    'bank("palace")',
    'owned("palm-tree")',
    'owned("palace")',
    'held("yellow")',
    'held("white")',
    'tribe("yellow")',
    'tribe("blue")',
    'killed("yellow")',
    'killed("green")',
    'around("blue")',
    'around("red")',
    'cards("fakir")',
    'cards("ivory")',
    'holds("jafaar")',
    'holds("sloar")',
    "tiles()",
    "pile()",
    "djinns()",
    'vp("palace")',
    'counter("mine")',
    'counter("ours")',
    "camels()",
    "bag()",
    "target.owner",
    "target.meeples",
    "target.tokens",
    "target.holds_meeples",
    'on_target("palm-tree")',
    'on_target("palace")',
    *HOLDINGS,
)
#: a used power's target: a tile an opponent holds with a camel
OPPONENTS_TILE = "target.owner >= 0 and target.owner != me"
#: conditions on a used power's target tile, as the shipped djinns write them
TARGET_TESTS = (
    OPPONENTS_TILE,
    "target.owner == -1 and target.meeples == 0 and target.tokens == 0",
    "target.owner == -1 and target.meeples > 0",
    "target.owner != me",
    "target.tokens > 0 or target.holds_meeples",
)
#: what a used power's ``place`` puts on its target tile, and what ``remove`` takes off
#: (the camel and the meeples first: Hypothesis draws the first entries most)
PLACED = ("palace", "palm-tree", "camel")
REMOVED = ("camel", "yellow", "red", "palace", "palm-tree", "white", "green", "blue")
#: what ``remove`` names to take the meeples a used power's action names
#: (``target_meeples``)
MEEPLES_NAMED = "meeples"
#: what ``move`` takes from a used power's target tile to its second tile, and where
MOVED = ("camel", "palm-tree", "yellow", "palace", "red", "white")
SECOND_TILES = (
    "target.owner == -1 and target.meeples == 0 and target.tokens == 0",
    "target.owner == -1",
    "target.tokens == 0",
    "target.holds_meeples",
)
#: the counters every drawn program declares: one per player, one for the game
COUNTERS = '[[counter]]\nid = "mine"\nof = "player"\n\n[[counter]]\nid = "ours"\nof = "game"'

_BINARY = ("+", "-", "*", "//", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or")
#: decisions of a turn a used power may be offered at
STAGES = ("pick", "drop", "kill", "sell", "tribe:red", "tribe:blue", "tile:village", "tile:oasis")
#: the copies of a used djinn, one dealt to each player at setup (5 at most); those not
#: dealt are taken as any djinn is
DEALT = 5
#: the base game's tile kinds (every one has an action)
TILE_KINDS = ("village", "oasis", "small-market", "large-market", "sacred-place")


#: the leaves that read the counters every drawn program declares (``COUNTERS``)
COUNTER_LEAVES = ('counter("mine")', 'counter("ours")')


def expressions(
    depth: int = 3, counters: bool = True, more: tuple[str, ...] = ()
) -> st.SearchStrategy[str]:
    """Formulas of the language, as an author writes them (reading the drawn programs'
    counters, unless ``counters`` is false, and the ``more`` leaves a box adds)."""
    leaves = LEAVES if counters else tuple(x for x in LEAVES if x not in COUNTER_LEAVES)
    leaves += more
    leaf = st.one_of(st.integers(-12, 12).map(str), st.sampled_from(leaves))
    if depth <= 0:
        return leaf
    inner = expressions(depth - 1, counters, more)
    return st.one_of(
        leaf,
        st.tuples(inner, st.sampled_from(_BINARY), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        inner.map(lambda e: f"(-{e})"),
        inner.map(lambda e: f"(not {e})"),
        st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
        st.tuples(st.sampled_from(("min", "max")), st.lists(inner, min_size=1, max_size=3)).map(
            lambda t: f"{t[0]}({', '.join(t[1])})"
        ),
        inner.map(lambda e: f"abs({e})"),
        inner.map(lambda e: f"merchandise({e})"),
    )


def _effects(
    scoring: bool, counters: bool = True, kill: bool = False
) -> st.SearchStrategy[list[Effect]]:
    amount = expressions(counters=counters)
    condition = st.none() | expressions(2, counters)
    if scoring:
        one = st.builds(
            lambda score, when, category: (
                {"score": score, "category": category} | ({"if": when} if when else {})
            ),
            amount,
            condition,
            st.sampled_from(("coins", "djinns", "extra")),
        )
    else:
        draw = amount.map(lambda e: f"min(2, {e})")
        plain = st.builds(
            lambda verb, value, when: {verb: value} | ({"if": when} if when else {}),
            st.sampled_from(("coins", "coins", "draw", "kills", "discard_fakirs")),
            st.one_of(amount, draw),
            condition,
        ).map(lambda e: e if "draw" not in e else {**e, "draw": f"min(2, {e['draw']})"})
        counted = st.builds(
            lambda counter, value, when: (
                {"set": counter, "to": value} | ({"if": when} if when else {})
            ),
            st.sampled_from(("mine", "ours")),
            amount,
            condition,
        )
        # a new row of resources (not a hook's answer: ``effect_answers.ANSWERABLE``)
        dealt = st.builds(
            lambda value, when: {"deal_row": f"min(9, {value})"} | ({"if": when} if when else {}),
            amount,
            condition,
        )
        one = st.one_of(plain, plain, plain, counted, dealt) if counters else plain
        if kill:  # at a kill, the meeple killed may be kept
            kept = condition.map(lambda when: {"keep_killed": 1} | ({"if": when} if when else {}))
            one = st.one_of(one, one, kept)
    return st.lists(one, min_size=1, max_size=3)


def effect_lists() -> st.SearchStrategy[list[Effect]]:
    """Lists of effects a plugin's tile-action hook may answer (no score line, no choice,
    no counter: a hook's rule declares none), as drawn dicts of ``EffectSpec`` fields
    (``if`` for ``when``)."""
    return _effects(False, counters=False)


#: an effect as drawn: verbs to formulas, or ``choose`` to its options
Effect = dict[str, Any]


def _choices() -> st.SearchStrategy[Effect]:
    """A choice of 2 or 3 options, each a list of effects with its words, maybe with an
    ``if`` (read once the effects before it have run)."""
    option = st.builds(
        lambda words, effects: {"words": words, "effects": effects},
        st.sampled_from(("Take it", "Leave it", "Both", "Neither")),
        _effects(False),
    )
    return st.builds(
        lambda options, when: {"choose": options} | ({"if": when} if when else {}),
        st.lists(option, min_size=2, max_size=3),
        st.none() | expressions(2),
    )


def _value(text: str) -> str:
    return json.dumps(text)


def _inline(effect: Effect) -> str:
    def field(key: str, value: Any) -> str:
        if key != "choose":
            return f"{key} = {_value(value)}"
        options = (
            f"{{ words = {_value(o['words'])}, "
            f"effects = [{', '.join(map(_inline, o['effects']))}] }}"
            for o in value
        )
        return f"choose = [{', '.join(options)}]"

    return "{ " + ", ".join(field(key, value) for key, value in effect.items()) + " }"


def _entry(section: str, fields: dict[str, str], effects: list[Effect]) -> str:
    lines = [f"[[{section}]]"]
    lines += [f"{key} = {value}" for key, value in fields.items()]
    lines.append(f"effects = [{', '.join(_inline(e) for e in effects)}]")
    return "\n".join(lines)


@st.composite
def triggers(draw: st.DrawFn, index: int) -> str:
    moment = draw(st.sampled_from((*EVENTS, TURN_END, SCORING)))
    fields = {"id": _value(f"drawn-{index}"), "on": _value(moment)}
    if draw(st.booleans()):
        fields["if"] = _value(draw(expressions(2)))
    fields["params"] = f"{{ x = {draw(st.integers(-5, 5))}, y = {draw(st.integers(0, 5))} }}"
    return _entry("trigger", fields, draw(_effects(moment == SCORING, kill=moment == "kill")))


def _place(draw: st.DrawFn, kind: str, taken: set[str]) -> str:
    """Where a drawn tile action of ``kind`` goes: before, after or instead of the usual
    one; one whole action a kind (``taken`` holds the kinds that have one)."""
    at: str = draw(st.sampled_from(("before", "after", "instead")))
    if at == "instead" and kind in taken:
        at = "after"
    if at == "instead":
        taken.add(kind)
    return at


@st.composite
def tile_actions(draw: st.DrawFn, index: int, taken: set[str]) -> str:
    kind = draw(st.sampled_from(TILE_KINDS))
    at = _place(draw, kind, taken)
    fields = {"id": _value(f"drawn-tile-{index}"), "tile": _value(kind), "at": _value(at)}
    if draw(st.booleans()):
        fields["if"] = _value(draw(expressions(2)))
    fields["params"] = f"{{ x = {draw(st.integers(-5, 5))} }}"
    effects = draw(_effects(False))
    if at == "instead" and draw(st.sampled_from((True, True, False))):  # ends with a choice
        effects.append(draw(_choices()))
    return _entry("tile_action", fields, effects)


def _cards(kind: str, name: str, copies: int, fields: str, x: int, y: int) -> str:
    """``copies`` cards of ``kind``: ids ``<kind>``, ``<kind>-2``…, with ``fields``."""
    return "\n\n".join(
        "\n".join(
            [
                "[[djinn]]",
                f'id = "{kind}{"" if copy == 1 else f"-{copy}"}"',
                f'name = "{name}{"" if copy == 1 else f" {copy}"}"',
                fields,
                f'kind = "{kind}"',
                f"params = {{ x = {x}, y = {y} }}",
            ]
        )
        for copy in range(1, copies + 1)
    )


def _placer(kind: str, index: int, token: str) -> str:
    """A free djinn (``<kind>p``, dealt to every player) that places ``token`` on a
    village or an oasis: its placement waits for a power that redirects it."""
    placer = f"{kind}p"
    fields = {"deck": '"djinns"', "kind": _value(placer), "on": _value(USE)}
    fields["target_kind"] = _value("village" if token == "palace" else "oasis")
    cards = _cards(placer, f"Qarin {index} placer", DEALT, 'vp = 1\ncost = ""', 0, 0)
    return cards + "\n\n" + _entry("power", fields, [{"place": token}])


@st.composite
def rows_on_tiles(draw: st.DrawFn, index: int, taken: set[str]) -> str:
    """A deck of the program's own whose row lies on a drawn tile kind (``lies_on``: laid
    at setup, laid again at clean-up, maybe too few cards for every tile), its cards
    scoring or reacting to an event in content, and a tile action of that kind taking the
    card lying there among drawn effects."""
    deck, kind = f"row-{index}", f"relic-{index}"
    tile = draw(st.sampled_from(TILE_KINDS))
    copies = draw(st.integers(1, 12))
    held = expressions(2, more=(f'hand("{deck}")',))
    card = "\n".join(
        [
            "[[deck]]",
            f'id = "{deck}"',
            f'lies_on = "{tile}"',
            'limit = "none"',
            "",
            "[[card]]",
            f'deck = "{deck}"',
            f'id = "{kind}"',
            f'name = "Relic {index}"',
            f'kind = "{kind}"',
            f"count = {copies}",
            f"params = {{ x = {draw(st.integers(-5, 5))}, y = {copies} }}",
        ]
    )
    power = {"deck": _value(deck), "kind": _value(kind)}
    if draw(st.booleans()):
        power["on"] = _value(SCORING)
        effects = [{"score": draw(held), "category": "relics"}]
    else:
        moment = draw(st.sampled_from(EVENTS))
        power["on"] = _value(moment)
        effects = draw(_effects(False, kill=moment == "kill"))
    at = _place(draw, tile, taken)
    action = {"id": _value(f"drawn-row-{index}"), "tile": _value(tile), "at": _value(at)}
    taking = draw(_effects(False))
    taking.insert(draw(st.integers(0, len(taking))), {"take_lying": deck})
    return "\n\n".join(
        [card, _entry("power", power, effects), _entry("tile_action", action, taking)]
    )


#: the most decks of its own a drawn program lays on tiles: with the three boxes' five,
#: within the kernel's eight (``MAX_DECKS``)
MOST_ROWS = 2


#: the piles a drawn used power may name a card of (``target_card``)
CARD_TARGETS = ("djinns.row", "resources.row", "djinns.discard", "resources.discard")


@st.composite
def djinn_powers(draw: st.DrawFn, index: int) -> str:
    """A new djinn (``qarin-N``) and its power: reacting, scoring, protecting, or used in
    its owner's turn (then paid with a drawn cost, and maybe reacting to an event too)."""
    kind = f"qarin-{index}"
    # half are used in their owner's turn: the moment with the most to prove (targets,
    # stages, costs, the decisions a use asks)
    moment = USE if draw(st.booleans()) else draw(st.sampled_from((*EVENTS, SCORING)))
    cost = draw(st.sampled_from(("", "F", "E/F", "E+(E/F)"))) if moment == USE else ""
    vp, x, y = draw(st.integers(0, 8)), draw(st.integers(-3, 6)), draw(st.integers(0, 4))
    # a used djinn is dealt to every player at setup (DEALT copies, ``programs``), so that
    # the games use it and reach the decisions it asks, not only once it is taken
    copies = DEALT if moment == USE else 1
    card = _cards(kind, f"Qarin {index}", copies, f'vp = {vp}\ncost = "{cost}"', x, y)
    fields = {"deck": '"djinns"', "kind": _value(kind), "on": _value(moment)}
    if draw(st.booleans()):
        fields["if"] = _value(draw(expressions(2)))
    effects = draw(_effects(moment == SCORING, kill=moment == "kill"))
    if moment == USE and draw(st.booleans()):  # offered at some decisions only
        stages = draw(st.lists(st.sampled_from(STAGES), min_size=1, max_size=3, unique=True))
        fields["stages"] = "[" + ", ".join(_value(stage) for stage in stages) + "]"
    if moment == USE and draw(st.booleans()):  # a target tile, and maybe a piece on it
        target = draw(st.sampled_from(("kind", "test", "both")))
        if target != "test":
            fields["target_kind"] = _value(draw(st.sampled_from(TILE_KINDS)))
        if target != "kind":
            fields["target"] = _value(draw(st.sampled_from(TARGET_TESTS) | expressions(2)))
        if draw(st.booleans()) or draw(st.booleans()):  # a piece put on it or taken off
            verb = draw(st.sampled_from(("place", "remove", "meeples")))
            pieces = PLACED if verb == "place" else REMOVED
            piece = {
                verb: f"min(3, {draw(expressions(1))})"
                if verb == "meeples"
                else draw(st.sampled_from(pieces))
            }
            if piece.get("remove") == "camel":
                fields["target"] = _value(OPPONENTS_TILE)  # a camel there to remove
                fields.pop("target_kind", None)
            effects.insert(draw(st.integers(0, len(effects))), piece)
        second = draw(st.sampled_from(("meeples", "move", None)))
        if second == "meeples":  # meeples of it its action names, taken away
            named = draw(st.sampled_from(("1", "2", "3", "4", "param.y")))
            if named == "param.y" and not 1 <= y <= 4:
                named = "2"  # a card's number is 1 to 4 meeples
            fields["target_meeples"] = _value(named) if named == "param.y" else named
            if "target_kind" in fields and draw(st.booleans()):
                fields.pop("target", None)  # any tile of its kind: used more often
            effects.insert(draw(st.integers(0, len(effects))), {"remove": MEEPLES_NAMED})
            if draw(st.booleans()):  # and the tile, if that empties it (the Scimitar)
                effects.append({"place": "camel", "if": "target.meeples == 0"})
        elif second == "move":  # a piece of it moved to a second tile
            moved = draw(st.sampled_from(MOVED))
            if moved == "camel" and draw(st.booleans()):
                fields["target"] = _value(
                    draw(st.sampled_from(("target.owner == me", OPPONENTS_TILE)))
                )
            fields["target_to"] = _value(draw(st.sampled_from(SECOND_TILES) | expressions(2)))
            effects.insert(draw(st.integers(0, len(effects))), {"move": moved})
    if moment == USE and draw(st.integers(0, 3)) == 0:  # it puts a placement elsewhere
        token = draw(st.sampled_from(("palace", "palm-tree")))
        fields["redirects"] = _value(token)
        tiles = draw(st.lists(st.sampled_from(TILE_KINDS), max_size=2, unique=True))
        fields["stages"] = "[" + ", ".join(_value(f"tile:{kind}") for kind in tiles) + "]"
        if not tiles:
            fields.pop("stages")
        fields.pop("target_kind", None)
        fields.pop("target_to", None)
        fields.pop("target_meeples", None)
        effects[:] = [e for e in effects if "move" not in e and e.get("remove") != MEEPLES_NAMED]
        if draw(st.booleans()):  # or some of the tiles around only
            fields["target"] = _value(draw(st.sampled_from(TARGET_TESTS) | expressions(2)))
        else:
            fields.pop("target", None)
        if draw(st.integers(0, 4)):  # mostly the token goes there (else it is lost)
            effects.insert(draw(st.integers(0, len(effects))), {"place": token})
        if draw(st.booleans()):  # and a free djinn placing that token, dealt too
            card += "\n\n" + _placer(kind, index, token)
    tile = "target_kind" in fields or "target" in fields or "redirects" in fields
    if moment == USE and not tile and draw(st.integers(0, 2)) == 0:  # it names a card
        fields["target_card"] = _value(draw(st.sampled_from(CARD_TARGETS)))
        if draw(st.integers(0, 4)):  # mostly it takes that card
            taken = "1" if draw(st.integers(0, 3)) else draw(expressions(1))
            effects.insert(draw(st.integers(0, len(effects))), {"take_card": taken})
    targeted = tile or "target_card" in fields
    ending = draw(st.sampled_from(("choice", "djinn", None)))
    if moment == USE and not targeted and ending == "choice":
        effects.append(draw(_choices()))  # the power ends with a choice
    elif moment == USE and not targeted and ending == "djinn" and draw(st.booleans()):
        effects.append({"draw_djinns": f"min(3, {draw(expressions(1))})"})  # to keep one
    elif moment == USE and not targeted and ending == "djinn":  # or a face-up one taken
        effects.append({"take_djinn": "1" if draw(st.booleans()) else draw(expressions(1))})
    if moment not in (SCORING, USE) and draw(st.booleans()):
        fields["protects"] = _value(draw(st.sampled_from(("yellow", "white"))))
        fields["protects"] = f"[{fields['protects']}]"
    entries = [_entry("power", fields, effects)]
    if moment == USE and draw(st.booleans()):  # its card reacts too, as Echidna's
        if draw(st.booleans()):  # the use does nothing but what the reaction reads
            effects[:] = [e for e in effects if {"choose", "draw_djinns", "take_djinn"} & e.keys()]
            fields.pop("target_to", None)  # nothing is moved any more
            fields.pop("target_meeples", None)  # nor taken
            entries[0] = _entry("power", fields, effects)
        reaction = {"deck": '"djinns"', "kind": _value(kind)}
        on = draw(st.sampled_from(EVENTS))
        reaction["on"] = _value(on)
        reaction["if"] = _value(draw(st.sampled_from(("turn.used", "actor == me and turn.used"))))
        entries.append(_entry("power", reaction, draw(_effects(False, kill=on == "kill"))))
    return card + "\n\n" + "\n\n".join(entries)


#: what a program drawn over the Whims box reads besides the base game's leaves: its
#: counts of the lake, the cities and the whims in hand, and its own counter
WHIMS_LEAVES = (
    'near("great-lake")',
    'beside("great-lake")',
    'tiles_of("city")',
    'hand("whims")',
    'counter("whims.claimed")',
    'lying("whims")',
)
#: the Whims box's events, which content may fire (``naqala_events``)
WHIMS_EVENTS = ("whim-claimed", "whim-taken")


@st.composite
def whims_entries(draw: st.DrawFn, index: int) -> str:
    """A trigger, or a used djinn dealt to every player, over the Whims box: it reads the
    box's counts, sets the counter the box lets effects write (``whims.claimed``, which
    Qareen scores) and fires the box's events."""
    amount = expressions(2, more=WHIMS_LEAVES)
    effect = st.one_of(
        st.builds(lambda e, n: {"fire": e, "count": n}, st.sampled_from(WHIMS_EVENTS), amount),
        st.sampled_from(WHIMS_EVENTS).map(lambda e: {"fire": e}),
        amount.map(lambda n: {"set": "whims.claimed", "to": f"min(9, {n})"}),
        amount.map(lambda n: {"coins": n}),
    )
    effects = draw(st.lists(effect, min_size=1, max_size=3))
    condition = draw(st.none() | expressions(2, more=WHIMS_LEAVES))
    if draw(st.booleans()):
        moment = draw(st.sampled_from((*EVENTS, TURN_END)))
        fields = {"id": _value(f"drawn-whims-{index}"), "on": _value(moment)}
        if condition:
            fields["if"] = _value(condition)
        return _entry("trigger", fields, effects)
    kind = f"qarin-{index}"
    cost = draw(st.sampled_from(("", "F", "E/F")))
    card = _cards(kind, f"Qarin {index}", DEALT, f'vp = 1\ncost = "{cost}"', 1, 1)
    fields = {"deck": '"djinns"', "kind": _value(kind), "on": _value(USE)}
    if condition:
        fields["if"] = _value(condition)
    if draw(st.booleans()):  # aimed at a city, as Dalhan is, maybe taking its whim
        fields["target_kind"] = _value("city")
        tests = ('lying("whims") > 0', 'lying("whims") == 0', "target.owner == me")
        fields["target"] = _value(draw(st.sampled_from(tests) | expressions(1, more=WHIMS_LEAVES)))
        if draw(st.integers(0, 3)):
            effects.insert(draw(st.integers(0, len(effects))), {"take_lying": "whims"})
    return card + "\n\n" + _entry("power", fields, effects)


@st.composite
def programs(draw: st.DrawFn, whims: bool = False) -> str:
    """A content-only house rule of one to four entries of the language (over the Whims
    box, with ``whims``: one more entry reading, setting and firing what the box adds)."""
    taken: set[str] = set()
    makers = st.sampled_from(("trigger", "tile", "power", "trigger", "tile", "power", "row"))
    parts = [
        "[house-rule]",
        'name = "drawn"',
        'version = "1.0"',
        'description = "a drawn program of the effects language"',
    ]
    settings = []
    rounds = draw(st.sampled_from((0, 2, 3, 4)))
    if rounds:  # shorter games: more programs proven per second
        settings.append(f"end.after_round = {rounds}")
    entries, rows = [], 0
    for index in range(draw(st.integers(1, 4))):
        maker = draw(makers)
        if maker == "trigger":
            entries.append(draw(triggers(index)))
        elif maker == "power":
            entries.append(draw(djinn_powers(index)))
        elif maker == "tile" or rows == MOST_ROWS:
            entries.append(draw(tile_actions(index, taken)))
        else:
            rows += 1
            entries.append(draw(rows_on_tiles(index, taken)))
    if whims:
        entries.append(draw(whims_entries(len(entries))))
    dealt = re.findall(rf'id = "(qarin-\d+p?)-{DEALT}"', "\n".join(entries))
    if dealt:
        deals = ", ".join(f'{{deck = "djinns", kind = "{kind}", count = 1}}' for kind in dealt)
        settings.append(f"start.cards = [{deals}]")
    if settings:
        parts.append("[settings]\n" + "\n".join(settings))
    return "\n\n".join([*parts, COUNTERS, *entries]) + "\n"


def as_house_rule(text: str) -> HouseRuleFile:
    """A drawn program as a house-rule file read from nowhere (``drawn.toml``)."""
    data = text.encode("utf-8")
    return HouseRuleFile(Path("drawn.toml"), data, hashlib.sha256(data).hexdigest())
