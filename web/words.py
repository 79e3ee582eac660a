"""Options in words: what each option of a decision does, for the buttons of a seat's page
(``bid 12: pay 12 coins for the second turn-order space``, ``Boaz: pay 2 elders, take
it (6 VP) — …``, ``sell 3 kinds: 13 coins``), its notation shown under it.

One function, :func:`option_words`, words every option, in this order:

1. an option that names a card with a power (a djinn, an item, a whim, a thief, a card of
   a deck a plugin adds): the card's name, what is paid, and the power's own words
   (``Power.describe``), so a new card reads right with no change here;
2. the describer registered for the option's kind (:data:`DESCRIBERS`, the base game's
   kinds; :func:`describes` adds one and refuses a kind described twice);
3. the stage's own note on the option (``Stage.option_note``): how a plugin words the
   options of a stage it adds;
4. the notation itself.
"""

from __future__ import annotations

from collections.abc import Callable

from naqala.core.actions import Action
from naqala.core.board import parse_tile
from naqala.core.content import CardSpec
from naqala.core.engine import Rules
from naqala.core.state import NOBODY, State
from naqala.plugins.base.api import cost_words, turn_order_costs
from naqala.plugins.base.api import payment_words as payment_in_words

__all__ = ["DESCRIBERS", "ORDINALS", "card_facts", "describes", "option_words", "payment_words"]

#: words for one kind of option, or None to leave it to the stage's note
Describer = Callable[[Rules, State, Action], str | None]

#: the describer of each option kind, by kind (``bid``, ``sell``…)
DESCRIBERS: dict[str, Describer] = {}

ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def describes(kind: str) -> Callable[[Describer], Describer]:
    """Register the describer of option ``kind``; a second one for a kind is refused."""

    def register(describer: Describer) -> Describer:
        if kind in DESCRIBERS:
            raise ValueError(f"options of kind {kind!r} already have a describer")
        DESCRIBERS[kind] = describer
        return describer

    return register


def option_words(rules: Rules, state: State, action: Action) -> str:
    """What ``action`` does, in words, for the pending decision of ``state``."""
    card = _card_named(rules, action)
    if card is not None:
        return _card_option(rules, state, action, card)
    describer = DESCRIBERS.get(action.kind)
    words = describer(rules, state, action) if describer is not None else None
    if words:
        return words
    stage = rules.stages.get(state.decision.stage)
    note = stage.option_note(rules, state, action) if stage is not None else None
    return f"{action}: {note}" if note else str(action)


def payment_words(payment: str) -> str | None:
    """``2 elders``, ``1 elder and 1 Fakir``: a payment written as letters, or None when
    ``payment`` is not one (the base game's letters, ``PAYMENT_UNITS``, joined by "and")."""
    return payment_in_words(payment, " and ")


def card_facts(rules: Rules, card: CardSpec) -> dict[str, str]:
    """A card as a page shows it: name, the deck's noun, VP, cost, when and what it does
    (the power's own words, with this card's numbers)."""
    power = rules.power_of(card)
    deck = rules.content.decks.get(card.deck)
    noun = deck.noun if deck is not None else "card"
    return {
        "id": card.id,
        "name": card.name or card.id,
        "deck": card.deck,
        "noun": noun,
        "vp": str(card.vp) if card.vp else "",
        "cost": cost_words(rules, card.cost) if card.cost else "",
        "when": power.when if power is not None else "",
        "effect": (power.describe(rules, card) if power is not None else "") or card.text,
    }


def _card_named(rules: Rules, action: Action) -> CardSpec | None:
    """The card with a power an option names: its kind (a power's own option, ``enki b1
    E``) or its first argument (``djinn boaz EE``, ``claim mystic``, ``keep crown``)."""
    for name in (action.kind, *action.args[:1]):
        card = rules.card_specs.get(name)
        if card is not None and rules.power_of(card) is not None:
            return card
    return None


def _card_option(rules: Rules, state: State, action: Action, card: CardSpec) -> str:
    """``Enki on b1: pay 1 elder, place a palm tree…`` (a power used), ``Fabulous Lamp
    (Hagis): …`` (a card it names), ``Boaz: pay 2 elders, take it (6 VP) — …`` (a card
    taken: the verb is the deck's noun), ``Mystic: claim it — …`` (any other verb)."""
    facts = card_facts(rules, card)
    args = list(action.args if action.kind == card.id else action.args[1:])
    paid = payment_words(args[-1]) if args else None
    if paid is not None:
        args.pop()
    named = [rules.card_specs[a].name or a for a in args if a in rules.card_specs]
    places = [a for a in args if a not in rules.card_specs]
    what = facts["name"] + (f" on {', '.join(places)}" if places else "")
    what += f" ({', '.join(named)})" if named else ""
    pay = f"pay {paid}, " if paid else ""
    effect = _first_sentence(facts["effect"])
    if action.kind == card.id:  # the power of a card held: use it
        return f"{what}: {pay}{_lower_first(effect)}"
    if action.kind == facts["noun"]:  # ``djinn boaz EE``, ``thief red-thief EE``
        verb = f"take it ({facts['vp']} VP)" if facts["vp"] else "take it"
    else:  # ``claim mystic``, ``keep crown``
        verb = f"{action.kind} it"
    return f"{what}: {pay}{verb} — {effect}"


#: the longest card text an option repeats whole; a longer one is cut after its first
#: sentence (the card's sheet on the page has all of it)
SHORT_TEXT = 160


def _first_sentence(text: str) -> str:
    text = text.rstrip(".")
    if len(text) <= SHORT_TEXT or ". " not in text:
        return text
    return text.split(". ", 1)[0] + " …"


def _a(noun: str) -> str:
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _lower_first(text: str) -> str:
    """``Pick an empty tile`` → ``pick an empty tile`` after a comma; a word in capitals
    (an acronym, a lone ``A``) is left as it is."""
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def _colour_name(rules: Rules, letter: str) -> str:
    index = rules.letters.find(letter.upper())
    return rules.colours[index].name if index >= 0 and len(letter) == 1 else letter


def _meeples_on(state: State, square: str) -> int | None:
    geometry = state.geometry
    try:
        index = parse_tile(square, geometry.rows, geometry.cols)
    except ValueError:
        return None
    return sum(state.board.meeples[index])


# -- the base game's options ----------------------------------------------------------------


@describes("bid")
def _bid(rules: Rules, state: State, action: Action) -> str | None:
    if len(action.args) != 1 or not action.args[0].isdigit():
        return None
    cost = int(action.args[0])
    costs = turn_order_costs(rules, len(state.players))
    spots = [i for i, c in enumerate(costs) if c == cost]
    if not spots:
        return None
    free = [i for i in spots if state.turn_track[i] == NOBODY]
    spot = (free or spots)[0]
    place = ORDINALS[spot] if spot < len(ORDINALS) else f"{spot + 1}th"
    pay = "pay nothing" if cost == 0 else f"pay {cost} coin{'s' if cost != 1 else ''}"
    return f"bid {cost}: {pay} for the {place} turn-order space"


@describes("pick")
def _pick(rules: Rules, state: State, action: Action) -> str | None:
    if len(action.args) != 1:
        return None
    square = action.args[0]
    count = _meeples_on(state, square)
    meeples = f"its {count} meeple{'s' if count != 1 else ''}" if count else "its meeples"
    return f"start at {square}: take {meeples} in hand"


@describes("drop")
def _drop(rules: Rules, state: State, action: Action) -> str | None:
    if len(action.args) != 2:
        return None
    square, letter = action.args
    return f"drop {_a(_colour_name(rules, letter))} on {square}"


@describes("kill")
def _kill(rules: Rules, state: State, action: Action) -> str | None:
    if len(action.args) != 2:
        return None
    where, letter = action.args
    colour = _colour_name(rules, letter)
    if where.lower().startswith("p") and where[1:].isdigit():
        return f"assassinate {_a(colour)} in front of {where.upper()}"
    return f"assassinate {_a(colour)} on {where}"


@describes("fakirs")
def _fakirs(rules: Rules, state: State, action: Action) -> str | None:
    if len(action.args) != 1 or not action.args[0].isdigit():
        return None
    count = int(action.args[0])
    if count == 0:
        return "use no Fakir"
    return f"discard {count} Fakir{'s' if count != 1 else ''}"


@describes("sell")
def _sell(rules: Rules, state: State, action: Action) -> str | None:
    if len(action.args) != 1:
        return None
    size = len(action.args[0].split("+"))
    values = rules.content.table("suit_values")
    if not 0 < size <= len(values):
        return None
    kinds = "1 kind" if size == 1 else f"{size} kinds"
    coins = values[size - 1]
    return f"sell {kinds}: {coins} coin{'s' if coins != 1 else ''}"


@describes("end")
def _end(rules: Rules, state: State, action: Action) -> str | None:
    return "end your turn" if not action.args else None


@describes("skip")
def _skip(rules: Rules, state: State, action: Action) -> str | None:
    return "skip this action" if not action.args else None


@describes("place")
def _place(rules: Rules, state: State, action: Action) -> str | None:
    stage = rules.stages.get(state.decision.stage)
    title = stage.title(rules, state) if stage is not None else None
    if len(action.args) != 1 or not title or ": " not in title:
        return None
    what = title.split(": ", 1)[1]  # "place a palm tree"
    return f"{what} on {action.args[0]}"


@describes("buy")
def _buy(rules: Rules, state: State, action: Action) -> str | None:
    if len(action.args) != 1:
        return None
    names = [
        (rules.card_specs[c].name or c) if c in rules.card_specs else c
        for c in action.args[0].split("+")
    ]
    stage = rules.stages.get(state.decision.stage)
    note = stage.option_note(rules, state, action) if stage is not None else None
    return f"buy {' and '.join(names)}" + (f" for {note}" if note else "")


@describes("tent")
def _tent(rules: Rules, state: State, action: Action) -> str | None:
    if len(action.args) != 1:
        return None
    return f"put your tent on {action.args[0]} instead of a camel"
