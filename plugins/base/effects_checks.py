"""What the effects language's entries mean, checked when the rules are built.

The loader checks a formula's shape (``core/effects.py``); this checks it against the
rules in play, so a wrong name is refused naming its entry rather than counting nothing
in the middle of a game: ids that no token, colour or card has, a score line outside
scoring, a tile kind without an action to run before or after, a power for a card kind
no card has or whose power is already code, words that read the state.
"""

from __future__ import annotations

import attrs

from naqala.core.content import DECK_NAMES
from naqala.core.effect_answers import (
    plugin_counters,
    plugin_events,
    trees,
    unknown_ids,
    writable_counters,
)
from naqala.core.effects import (
    CAMEL,
    CARD_TARGET_WORDS,
    FIELD,
    FIRE,
    MEEPLES,
    MOMENTS,
    MOST_TARGET_MEEPLES,
    NAMING_VERBS,
    READING,
    SCORING,
    SET,
    TAKE_LYING,
    USE,
    EffectSpec,
    PowerSpec,
    Source,
    is_reading,
    nested,
)
from naqala.core.engine import Rules
from naqala.plugins.base.events import EVENTS as BASE_EVENTS
from naqala.plugins.base.placing import stage_name as placing_stage

#: where a token, a camel or meeples may be placed, removed or moved: a used power's target
_TARGET_ONLY = (
    "a token, a camel or meeples are placed, removed or moved by a used power on its target "
    "tile only"
)
#: where a piece is moved to: the second tile a used power names
_MOVE_ONLY = "a piece is moved (move) by a used power with a target_to only"
#: where a card is taken: the card a used power targets
_CARD_ONLY = "a card is taken (take_card) by a used power with a target_card only"
#: where a card lying on a tile is taken from
_LYING_ONLY = (
    "a card lying on a tile is taken (take_lying) by a used power with a tile target, or "
    "by a tile action from its tile"
)
#: leaves a card's words may read: its numbers and the rules', never the state
_STATIC = ("num", "param", "setting", "bin", "neg", "not", "if", "call")


def problems(rules: Rules, code_powers: set[str]) -> list[str]:
    """Every problem of the content's triggers, tile actions and powers; ``code_powers``
    are the ``<deck>:<kind>`` keys the base game's code already gives a power."""
    content = rules.content
    found: list[str] = []
    for trigger in content.triggers:
        where = f"trigger {trigger.id!r}"
        found += _asking_problems(where, trigger.effects, frozenset())
        if any(_on_target(e) for _, e in nested(trigger.effects)):
            found.append(f"{where}: {_TARGET_ONLY}")
        if _takes_a_card(trigger.effects):
            found.append(f"{where}: {_CARD_ONLY}")
        if _takes_lying(trigger.effects):
            found.append(f"{where}: {_LYING_ONLY}")
        found += _effect_problems(rules, where, trigger.on, trigger.effects, trigger.when)
    kinds = {tile.kind for tile in content.tiles}
    for action in content.tile_actions:
        where = f"tile_action {action.id!r}"
        offers = frozenset({"choose"} if action.at == "instead" else ())
        found += _asking_problems(where, action.effects, offers)
        if any(_on_target(e) for _, e in nested(action.effects)):
            found.append(f"{where}: {_TARGET_ONLY}")
        if _takes_a_card(action.effects):
            found.append(f"{where}: {_CARD_ONLY}")
        for field in FIELD.findall(action.text):
            found += _static_problems(where, field)
        found += _effect_problems(rules, where, "", action.effects, action.when)
        if action.tile not in kinds:
            found.append(f"{where}: no tile of kind {action.tile!r} in these rules")
        elif action.at != "instead" and f"tile:{action.tile}" not in rules.stages:
            found.append(
                f"{where}: tiles of kind {action.tile!r} have no action to run {action.at}; "
                'give it whole with at = "instead"'
            )
    for power in content.powers:
        key = f"{power.deck}:{power.kind}"
        where = f"power {key!r}"
        found += _effect_problems(rules, where, power.on, power.effects, power.when)
        asks = power.on == USE and not power.targeted and power.card_pile is None
        found += _asking_problems(where, power.effects, _EVERY_ASKING if asks else frozenset())
        alone = not any(
            p.deck == power.deck and p.kind == power.kind and p.on != USE for p in content.powers
        )
        if power.on == USE and not power.effects and alone:
            found.append(
                f"{where}: a used power does something (effects = […]), or its card reacts "
                "to what follows (another [[power]] of its kind, on an event)"
            )
        on_target = [e for _, e in nested(power.effects) if _on_target(e) is not None]
        if on_target and (power.on != USE or not power.targeted):
            found.append(f"{where}: {_TARGET_ONLY}")
        if _takes_lying(power.effects) and (power.on != USE or not power.targeted):
            found.append(f"{where}: {_LYING_ONLY}")
        found += [
            f"{where}: {_removal_problem(rules, piece, verb)}"
            for e in on_target
            for verb, piece in (("remove", e.remove), ("move", e.move))
            if piece is not None
            and not (verb == "remove" and piece == MEEPLES)
            and _removal_problem(rules, piece, verb)
        ]
        found += _second_tile_problems(where, power)
        found += _named_meeples_problems(rules, where, power)
        found += [
            f"{where}: no token {e.place!r} in these rules (or {CAMEL!r}: the tile, with a camel)"
            for e in on_target
            if e.place is not None and e.place != CAMEL and e.place not in rules.token_index
        ]
        for condition in (power.target, power.target_to):
            if condition is not None:
                found += unknown_ids(rules, where, condition)
        if power.redirects:
            found += _redirect_problems(rules, where, power)
        found += _card_target_problems(rules, where, power)
        if power.target_kind and power.target_kind not in kinds:
            found.append(f"{where}: no tile of kind {power.target_kind!r} in these rules")
        if key in code_powers:
            found.append(f"{where}: the base game's code gives this card kind its power")
        if not any(c.deck == power.deck and c.kind == power.kind for c in content.cards):
            found.append(f"{where}: no card of kind {power.kind!r} in deck {power.deck!r}")
        for colour in power.protects:
            spec = next((c for c in content.colours if c.id == colour), None)
            if spec is None or not spec.kept:
                found.append(f"{where}: protects {colour!r}, no meeple kept in front of a player")
        fields = FIELD.findall(power.effect_text)
        for name in (f[len(READING) :] for f in fields if is_reading(f)):
            if name not in power.readings:
                found.append(f"{where}: effect_text reads {name!r}, which readings lack")
        words: list[Source] = [f for f in fields if not is_reading(f)]
        words += [power.promise] if power.promise is not None else []
        for field in words:
            found += _static_problems(where, field)
    return found


def _effect_problems(
    rules: Rules, where: str, moment: str, effects: list[EffectSpec], when: Source | None
) -> list[str]:
    found: list[str] = []
    sources: list[Source] = [] if when is None else [when]
    for path, effect in nested(effects):
        verb, amount = effect.verb()
        sources += [amount] if verb not in (*NAMING_VERBS, "choose") else []
        sources += [] if effect.when is None else [effect.when]
        sources += FIELD.findall(effect.detail)
        at = f"{where}: {path}"
        if verb == "score" and moment != SCORING:
            found.append(f'{at}: a score line is given at scoring only (on = "scoring")')
        if verb != "score" and moment == SCORING:
            found.append(f"{at}: at scoring, effects give score lines only (score = …)")
        if verb == "keep_killed" and moment != "kill":
            found.append(f'{at}: the meeple killed is kept at a kill only (on = "kill")')
        if verb == "score" and not effect.category:
            found.append(f'{at}: a score line names its category (category = "coins"…)')
        if verb == SET and effect.set in plugin_counters(rules):
            if effect.set not in writable_counters(rules):
                found.append(
                    f"{at}: {effect.set!r} is a plugin's own counter: read it, never set it"
                )
        elif verb == SET and effect.set not in {c.id for c in rules.content.counters}:
            found.append(
                f"{at}: no counter {effect.set!r} in these rules (declare it: [[counter]])"
            )
        if verb == FIRE and effect.fire not in plugin_events(rules):
            found.append(f"{at}: {_fire_problem(rules, str(effect.fire))}")
        lies = effect.take_lying in {d.id for d in rules.deck_specs if d.lies_on}
        if verb == TAKE_LYING and not lies:
            found.append(f"{at}: take_lying names a deck whose row lies on tiles (lies_on)")
    for source in sources:
        found += unknown_ids(rules, where, source)
    return found


def _fire_problem(rules: Rules, event: str) -> str:
    """Why ``fire`` cannot fire ``event``: the base game's events are the rules' own."""
    if event in MOMENTS or event in BASE_EVENTS:
        return f"{event!r} is the rules' own event: only a plugin's events are fired (fire)"
    declared = ", ".join(sorted(plugin_events(rules))) or "none"
    return f"no plugin in these rules fires an event {event!r} (naqala_events: {declared})"


def _removal_problem(rules: Rules, piece: str, verb: str = "remove") -> str:
    """Why ``remove`` (or ``move``) cannot name ``piece`` in these rules ("" when it can):
    a camel, a token or a meeple's colour. A token standing in for a camel (the Artisans'
    tent) goes with its tile, not alone."""
    token = rules.token_index.get(piece)
    if piece == CAMEL or (token is None and piece in rules.colour_index):
        return ""
    if token is None:
        return (
            f"no token {piece!r} in these rules (or {CAMEL!r}: the tile's camel, or a "
            "colour: one of its meeples)"
        )
    if rules.tokens[token].replaces_camel:
        return f"a {piece} stands for a camel: it is not {verb}d alone"
    return ""


def _second_tile_problems(where: str, power: PowerSpec) -> list[str]:
    """A second tile (``target_to``) is where a used power with a tile target moves a
    piece of it: it comes with ``move``, and ``move`` with it."""
    moves = any(e.move is not None for _, e in nested(power.effects))
    if power.target_to is None:
        return [f"{where}: {_MOVE_ONLY}"] if moves else []
    found = []
    if power.on != USE or not (power.target_kind or power.target is not None):
        found.append(
            f"{where}: target_to is the second tile of a used power with a tile target "
            "(target or target_kind)"
        )
    if power.redirects or power.card_pile is not None:
        found.append(f"{where}: target_to names no second tile for a redirect or a card target")
    if not moves:
        found.append(f"{where}: target_to is where a piece is moved: its effects move one")
    return found


def _named_meeples_problems(rules: Rules, where: str, power: PowerSpec) -> list[str]:
    """A group of meeples (``target_meeples``) is named by a used power's action on its
    target tile, for ``remove = "meeples"`` to take, and every card of its kind names
    1 to ``MOST_TARGET_MEEPLES`` of them."""
    removes = any(e.remove == MEEPLES for _, e in nested(power.effects))
    if power.target_meeples is None:
        return [f'{where}: remove = "meeples" takes the meeples target_meeples names'] * removes
    found = []
    if power.on != USE:
        found.append(f'{where}: meeples are named by a used power only (on = "use")')
    if power.redirects or power.card_pile is not None or power.target_to is not None:
        found.append(
            f"{where}: target_meeples names meeples on the target tile, not beside a redirect, "
            "a card target or a second tile"
        )
    if not removes:
        found.append(f'{where}: target_meeples names meeples for remove = "meeples" to take')
    for card in rules.content.cards:
        if card.deck != power.deck or card.kind != power.kind:
            continue
        named = power.meeples_named(card.params)
        if not 1 <= named <= MOST_TARGET_MEEPLES:
            found.append(
                f"{where}: card {card.id!r} names {named} meeples (target_meeples = "
                f"{power.target_meeples!r}): 1 to {MOST_TARGET_MEEPLES}"
            )
    return found


def _redirect_problems(rules: Rules, where: str, power: PowerSpec) -> list[str]:
    """A power redirects a token's placements when it is used, at a tile's action (its
    ``stages``: the move is done, so the tile is known) or where an effect's placement
    waits for it; only a token whose placement waits (a ``placing:<token>`` step) can be."""
    if power.on != USE:
        return [f'{where}: a placement is redirected by a used power only (on = "use")']
    found = [
        f"{where}: stages: {stage!r}: a placement is redirected at a tile's action "
        '("tile:<kind>") or where an effect places it, no other decision'
        for stage in power.stages
        if not stage.startswith("tile:")
    ]
    if placing_stage(power.redirects) not in rules.stages:
        prefix = placing_stage("")
        waiting = sorted(s.removeprefix(prefix) for s in rules.stages if s.startswith(prefix))
        found.append(
            f"{where}: redirects {power.redirects!r}, whose placements no power can redirect "
            f"in these rules (these can: {', '.join(waiting) or 'none'})"
        )
    return found


def _card_target_problems(rules: Rules, where: str, power: PowerSpec) -> list[str]:
    """A card target is a used power's, instead of a tile, in a deck of these rules; a
    card is taken only from it."""
    if power.card_pile is None:
        return [f"{where}: {_CARD_ONLY}"] if _takes_a_card(power.effects) else []
    deck, pile = power.card_pile
    found = []
    if pile == "row" and deck not in DECK_NAMES:
        found.append(f"{where}: target_card: {power.target_card!r}: {CARD_TARGET_WORDS}")
    if power.on != USE:
        found.append(f'{where}: a card is targeted by a used power only (on = "use")')
    if power.targeted:
        found.append(f"{where}: a used power targets a tile or a card, not both")
    if deck not in rules.deck_index:
        decks = ", ".join(rules.deck_index)
        found.append(f"{where}: target_card: no deck {deck!r} in these rules ({decks})")
    return found


def _takes_a_card(effects: list[EffectSpec]) -> bool:
    return any(e.take_card is not None for _, e in nested(effects))


def _takes_lying(effects: list[EffectSpec]) -> bool:
    return any(e.take_lying is not None for _, e in nested(effects))


def deck_problems(rules: Rules) -> list[str]:
    """A row laid on tiles lies on a tile kind the rules have and fires, when a card of
    it is taken, an event a plugin declares."""
    kinds = {tile.kind for tile in rules.content.tiles}
    found = []
    for deck in rules.content.decks.values():
        if deck.lies_on and deck.lies_on not in kinds:
            found.append(f"deck {deck.id!r}: lies_on {deck.lies_on!r}: no such tile kind")
        if deck.taken_event and deck.taken_event not in plugin_events(rules):
            found.append(f"deck {deck.id!r}: taken_event: {_fire_problem(rules, deck.taken_event)}")
    return found


def _on_target(effect: EffectSpec) -> str | None:
    """What an effect does on the power's target tile (a token placed or removed, a
    camel, meeples from the bag), if it acts there."""
    if effect.meeples is not None:
        return MEEPLES
    return next((p for p in (effect.place, effect.remove, effect.move) if p is not None), None)


@attrs.frozen
class _Asking:
    """An effect that asks its player a decision of its own (a choice, djinns to keep
    one of), and the words refusing it where it may not stand."""

    field: str
    elsewhere: str
    in_option: str
    not_last: str


#: where a decision-asking effect may stand: last in the effects that may offer it
_ASKING = (
    _Asking(
        "choose",
        'a choice is offered by a whole tile action (at = "instead") or a used power '
        'without a target (on = "use") only',
        "an option offers no choice of its own",
        "a choice comes last in its effects (put what follows in each option)",
    ),
    _Asking(
        "draw_djinns",
        'djinns are drawn to keep one by a used power without a target (on = "use") only',
        "an option asks no decision of its own",
        "drawing djinns to keep one comes last in its effects",
    ),
    _Asking(
        "take_djinn",
        'a face-up djinn is taken by a used power without a target (on = "use") only',
        "an option asks no decision of its own",
        "taking a face-up djinn comes last in its effects",
    ),
)


#: a used power without a target may ask every kind of decision
_EVERY_ASKING = frozenset(asking.field for asking in _ASKING)


def _asking_problems(where: str, effects: list[EffectSpec], offers: frozenset[str]) -> list[str]:
    """Where an effect asking a decision may stand: last in the effects of what offers
    it (``offers``: a whole tile action a choice, a used power without a target both),
    never in an option (each resumes the decision it interrupted, once)."""
    found = []
    last = f"effects[{len(effects) - 1}]"
    for path, effect in nested(effects):
        for asking in _ASKING:
            if getattr(effect, asking.field) is None:
                continue
            at = f"{where}: {path}"
            if asking.field not in offers:
                found.append(f"{at}: {asking.elsewhere}")
            elif ".choose[" in path:
                found.append(f"{at}: {asking.in_option}")
            elif path != last:
                found.append(f"{at}: {asking.not_last}")
    return found


def _static_problems(where: str, source: Source) -> list[str]:
    for node in trees(source):
        if not any(key in node for key in _STATIC) and node.get("count") != "vp":
            return [f"{where}: {source!r}: a card's words read its numbers only, not the game"]
    return []
