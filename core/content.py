"""Content loading: TOML files → cattrs → frozen attrs records.

Game content (tiles, meeple colours, tokens, cards, djinns, track costs, setup numbers) is
data. Each plugin ships TOML files; they are parsed with tomli, structured strictly (unknown
keys and wrong types are errors) and merged in plugin order. Every problem is reported with
the file and the path inside it, and all problems of all files are reported together.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

from naqala.core.documents import DocumentError, parse_toml
from naqala.core.effects import (
    CounterSpec,
    PowerSpec,
    Source,
    TileActionSpec,
    TriggerSpec,
    structure_source,
)
from naqala.core.files import CONTENT_LIMIT, FileRefused, read_text_bounded
from naqala.core.overrides import (
    MAX_COPIES,
    MAX_NUMBER,
    MAX_PLAYERS,
    MAX_POINTS,
    Located,
    OverrideSpec,
    apply_overrides,
    targets,
)
from naqala.core.setting_values import (
    Scalar,
    SettingValue,
    choice_lists,
    flatten,
    frozen,
    is_number,
    kind,
    setting_values,
)
from naqala.core.structured import (
    OutOfBounds,
    at_most,
    numbers_within,
    problems,
    strict_converter,
)


def at_least(least: int) -> Callable[[Any, Any, Any], None]:
    """An attrs validator: an integer field is at least ``least`` (a count of copies), so
    the strict converter reports it at its own path (``$.tile[0].count``)."""

    def check(_instance: Any, attribute: Any, value: Any) -> None:
        if isinstance(value, int) and value < least:
            raise OutOfBounds(attribute.name, f"must be at least {least}")

    return check


def one_of(*choices: str) -> Callable[[Any, Any, Any], None]:
    """An attrs validator: a text field is one of ``choices``, named in the message."""

    def check(_instance: Any, attribute: Any, value: Any) -> None:
        if value not in choices:
            raise OutOfBounds(attribute.name, f"must be one of {', '.join(map(repr, choices))}")

    return check


def _capital_letter(_instance: Any, attribute: Any, value: Any) -> None:
    """An attrs validator: a colour's letter is one capital letter (a board file and a
    meeple string spell colours with it)."""
    if not (len(value) == 1 and value.isupper()):
        raise OutOfBounds(attribute.name, "must be one capital letter")


class ContentError(Exception):
    """One or more problems in content files; ``problems`` lists them all."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


@attrs.frozen
class ColourSpec:
    """A meeple colour (a tribe)."""

    id: str
    letter: str = attrs.field(validator=_capital_letter)
    name: str
    count: int = attrs.field(validator=at_most(MAX_COPIES))
    kept: bool = False  # kept in front of the player, where assassins may kill them


@attrs.frozen
class TokenSpec:
    """A kind of token placed on tiles from a bank (palm trees, palaces)."""

    id: str
    name: str
    count: int = attrs.field(validator=at_most(MAX_COPIES))
    vp: int = attrs.field(validator=at_most(MAX_POINTS))
    replaces_camel: bool = False  # placed instead of a camel to mark an owned tile (a tent)


@attrs.frozen
class TileSpec:
    """Tiles of one kind with one VP value; ``count`` copies, ids ``{kind}-{n}``."""

    kind: str
    vp: int = attrs.field(validator=at_most(MAX_POINTS))
    #: "blue", "red" or "" (valueless terrain such as the chasm)
    value: str = attrs.field(default="", validator=one_of("blue", "red", ""))
    count: int = attrs.field(default=1, validator=[at_most(MAX_COPIES), at_least(1)])
    holds_meeples: bool = True
    #: no meeple ever enters it or stands on it (the Artisans' chasm, the Great Lake):
    #: every tile of the kind is impassable wherever it lies
    impassable: bool = False
    printed: str = ""  # the value printed on the tile, for displays, if not ``vp`` ("5+")


@attrs.frozen
class CardSpec:
    """One card of any deck: ``count`` copies of ``id`` in the deck ``deck``.

    ``kind`` names the power behind the card (hook ``naqala_card_powers``, keyed
    ``<deck>:<kind>``); a deck without powers gives it a meaning of its own (the base
    game's resources are merchandise or fakirs, checked by the base plugin).
    ``cost`` is a payment code (see the base plugin), ``params`` the numbers the power
    uses and ``subject`` a content id the power is about (a colour, a tile kind, a token).
    """

    deck: str
    id: str
    kind: str
    count: int = attrs.field(default=1, validator=[at_most(MAX_COPIES), at_least(1)])
    vp: int = attrs.field(default=0, validator=at_most(MAX_POINTS))
    cost: str = ""
    name: str = ""
    text: str = ""
    params: dict[str, int] = attrs.field(factory=dict, validator=numbers_within(MAX_NUMBER))
    subject: str = ""
    #: a colour, token or tile kind this card belongs with: without it in the game (no
    #: plugin declares it) the card is left out of its deck (the Thieves' purple thief
    #: needs the Artisans' purple meeples)
    needs: str = ""

    def param(self, key: str) -> int:
        return _param(self.params, f"card {self.id!r}", key)


@attrs.frozen
class ResourceEntry:
    """``[[resource]]``: shorthand for a card of the ``resources`` deck."""

    id: str
    kind: str
    count: int = attrs.field(validator=[at_most(MAX_COPIES), at_least(1)])
    name: str = ""

    def card(self) -> CardSpec:
        return CardSpec(
            deck=RESOURCES, id=self.id, kind=self.kind, count=self.count, name=self.name
        )


@attrs.frozen
class DjinnEntry:
    """``[[djinn]]``: shorthand for one card of the ``djinns`` deck."""

    id: str
    name: str
    vp: int = attrs.field(validator=at_most(MAX_POINTS))
    kind: str
    cost: str = ""
    text: str = ""
    params: dict[str, int] = attrs.field(factory=dict, validator=numbers_within(MAX_NUMBER))

    def card(self) -> CardSpec:
        return CardSpec(
            deck=DJINNS,
            id=self.id,
            kind=self.kind,
            vp=self.vp,
            cost=self.cost,
            name=self.name,
            text=self.text,
            params=dict(self.params),
        )


#: the decks every game has (``[[resource]]`` and ``[[djinn]]`` fill them), by name: the
#: one definition of their names. Code finds a deck by name (``rules.deck_index``,
#: ``rules.deck_in``, ``rules.hand_of``), never by a number of its own
RESOURCES = "resources"
DJINNS = "djinns"
#: the decks every game has, first in ``rules.deck_names`` in this order (the state JSON
#: lists the decks and each hand by deck index); plugins add more through ``[[card]]``
DECK_NAMES = (RESOURCES, DJINNS)


@attrs.frozen
class DeckSpec:
    """How the cards of one deck are held and used: the small per-deck policy the one
    card router follows. A deck with cards but no ``[[deck]]`` entry gets the defaults."""

    id: str
    noun: str = "card"  # one card of the deck, in messages ("whim")
    #: a hand is kept "sorted" or in the order "taken"
    order: str = attrs.field(default="sorted", validator=one_of("sorted", "taken"))
    #: activated at most once a turn per "card", per "deck", or "none"
    limit: str = attrs.field(default="card", validator=one_of("card", "deck", "none"))
    verb: str = ""  # "": actions are `<card> [target] [payment]`; "claim": `claim <card>`
    discard: bool = False  # a used card goes face up to the deck's discard pile
    #: score lines "after" every plugin's, or placed "by-plugin"
    scored: str = attrs.field(default="after", validator=one_of("after", "by-plugin"))
    #: a tile kind: the face-up row lies on the tiles of that kind, one place each in
    #: board order (the Whims' whims on the cities); "" for a row in front of the players
    lies_on: str = ""
    #: the event fired when a card lying on a tile is taken (``take_lying``): one a
    #: plugin declares (``naqala_events``), with ``tile`` and ``what`` (the card)
    taken_event: str = ""


@attrs.frozen
class ExtraMeeplesSpec:
    """More meeples of a colour declared elsewhere (an expansion's extra meeples)."""

    colour: str
    count: int = attrs.field(validator=[at_most(MAX_COPIES), at_least(1)])


def _param(params: Mapping[str, int], owner: str, key: str) -> int:
    """A number of a card's ``params``; a ContentError naming the card if it is missing."""
    try:
        return params[key]
    except KeyError:
        raise ContentError([f"content: {owner} has no params.{key}"]) from None


#: the table that, when set, lists the only player counts the rules allow, of those the
#: ``[[player_count]]`` entries describe (the solo mode allows 1 and no other)
PLAYER_COUNTS = "player_counts"


@attrs.frozen
class PlayerCountSpec:
    """Components each player gets at one player count."""

    players: int = attrs.field(validator=[at_most(MAX_PLAYERS), at_least(1)])
    camels: int = attrs.field(validator=[at_most(MAX_COPIES), at_least(0)])
    markers: int = attrs.field(validator=[at_most(MAX_PLAYERS), at_least(1)])


@attrs.frozen
class ContentFile:
    """The shape of one content TOML file. Tables merge key by key, lists concatenate."""

    colour: list[ColourSpec] = attrs.field(factory=list)
    token: list[TokenSpec] = attrs.field(factory=list)
    tile: list[TileSpec] = attrs.field(factory=list)
    resource: list[ResourceEntry] = attrs.field(factory=list)
    djinn: list[DjinnEntry] = attrs.field(factory=list)
    card: list[CardSpec] = attrs.field(factory=list)
    deck: list[DeckSpec] = attrs.field(factory=list)
    override: list[OverrideSpec] = attrs.field(factory=list)
    player_count: list[PlayerCountSpec] = attrs.field(factory=list)
    extra_meeples: list[ExtraMeeplesSpec] = attrs.field(factory=list)
    trigger: list[TriggerSpec] = attrs.field(factory=list)
    tile_action: list[TileActionSpec] = attrs.field(factory=list)
    power: list[PowerSpec] = attrs.field(factory=list)
    counter: list[CounterSpec] = attrs.field(factory=list)
    #: numbers, booleans, texts and short arrays (``core/setting_values.py``), by dotted name
    settings: dict[str, Any] = attrs.field(factory=dict, validator=setting_values)
    #: the texts a text setting may take, declared by the plugin that reads it
    setting_choices: dict[str, list[str]] = attrs.field(factory=dict, validator=choice_lists)
    tables: dict[str, list[int]] = attrs.field(factory=dict, validator=numbers_within(MAX_NUMBER))


@attrs.frozen
class Content:
    """All content of a game, merged from its plugins' files in registration order."""

    colours: tuple[ColourSpec, ...]
    tokens: tuple[TokenSpec, ...]
    tiles: tuple[TileSpec, ...]
    cards: tuple[CardSpec, ...]  # every deck's cards, in content order
    decks: Mapping[str, DeckSpec]
    player_counts: tuple[PlayerCountSpec, ...]
    #: the settings that are numbers
    settings: Mapping[str, int]
    tables: Mapping[str, tuple[int, ...]]
    #: the settings of every other type (booleans, texts, arrays), by dotted name
    typed_settings: Mapping[str, SettingValue] = attrs.field(factory=dict)
    #: the texts each text setting may take (``[setting_choices]``)
    setting_choices: Mapping[str, tuple[str, ...]] = attrs.field(factory=dict)
    #: the effects language's entries (``core/effects.py``), in content order
    triggers: tuple[TriggerSpec, ...] = ()
    tile_actions: tuple[TileActionSpec, ...] = ()
    powers: tuple[PowerSpec, ...] = ()
    #: the counters effects set and read (``[[counter]]``), in content order
    counters: tuple[CounterSpec, ...] = ()

    def setting(self, key: str) -> int:
        try:
            return self.settings[key]
        except KeyError:
            raise ContentError([f"content: no plugin sets settings.{key}"]) from None

    def typed_setting(self, key: str) -> SettingValue:
        """A setting that is no number (``verdict.tie_break``, ``start.cards``)."""
        try:
            return self.typed_settings[key]
        except KeyError:
            raise ContentError([f"content: no plugin sets settings.{key}"]) from None

    def text_setting(self, key: str) -> str:
        """A text setting (one of its declared choices)."""
        value = self.typed_setting(key)
        if not isinstance(value, str):
            raise ContentError([f"content: settings.{key} is {kind(value)}, not a string"])
        return value

    def names_setting(self, key: str) -> tuple[str, ...]:
        """A setting that is an array of texts (``assassins.protect``)."""
        value = self.typed_setting(key)
        if not isinstance(value, tuple) or not all(isinstance(v, str) for v in value):
            raise ContentError([f"content: settings.{key} is not an array of strings"])
        return tuple(str(v) for v in value)

    def tables_setting(self, key: str) -> tuple[Mapping[str, Scalar], ...]:
        """A setting that is an array of small tables (``start.cards``); ``[]`` too."""
        value = self.typed_setting(key)
        if not isinstance(value, tuple) or not all(isinstance(v, Mapping) for v in value):
            raise ContentError([f"content: settings.{key} is not an array of tables"])
        return tuple(v for v in value if isinstance(v, Mapping))

    def table(self, key: str) -> tuple[int, ...]:
        try:
            return self.tables[key]
        except KeyError:
            raise ContentError([f"content: no plugin sets tables.{key}"]) from None

    def deck(self, deck: str) -> tuple[CardSpec, ...]:
        """The cards of one deck, in content order."""
        return tuple(c for c in self.cards if c.deck == deck)

    def card(self, card_id: str) -> CardSpec:
        for spec in self.cards:
            if spec.id == card_id:
                return spec
        raise KeyError(card_id)

    def deck_spec(self, deck: str) -> DeckSpec:
        """The policy of ``deck`` (the defaults if no plugin declares it)."""
        return self.decks.get(deck) or DeckSpec(id=deck)


#: the table of a content-only house rule (``naqala.core.content_rule``), which the
#: content itself does not hold
HOUSE_RULE_TABLE = "house-rule"

_CONVERTER = strict_converter()
_CONVERTER.register_structure_hook_func(lambda t: t == (Source | None), structure_source)
#: each section of a content file and its type (``list[TileSpec]``)
_FIELD_TYPES = typing.get_type_hints(ContentFile)


def parse_content_file(path: Path, text: str | None = None) -> tuple[ContentFile | None, list[str]]:
    """One file's records, or the list of its problems (each naming the file and path)."""
    raw, problems = _read_toml(path, text)
    if raw is None:
        return None, problems
    return _structured(path, raw)


def _read_toml(path: Path, text: str | None) -> tuple[Any, list[str]]:
    """The parsed TOML of one file (bounded), or None and why not."""
    try:
        raw_text = read_text_bounded(path, CONTENT_LIMIT, "content file") if text is None else text
    except FileRefused as exc:
        return None, [str(exc)]
    try:
        raw = parse_toml(raw_text)
    except DocumentError as exc:  # not TOML, nested too deep, numbers Python cannot read
        return None, [f"{path}: {exc}"]
    raw.pop(HOUSE_RULE_TABLE, None)  # a content-only house rule's name: not content
    problems: list[str] = []
    if isinstance(raw, dict):
        for section in ("settings", "setting_choices"):  # `end.after_round`: one name
            if section in raw:
                raw[section] = flatten(raw[section], problems, f"{path}: $.{section}")
    if problems:
        return None, problems
    return raw, []


def _structured(path: Path, raw: Any) -> tuple[ContentFile | None, list[str]]:
    try:
        return _CONVERTER.structure(raw, ContentFile), []
    except Exception as exc:  # cattrs raises exception groups with every problem inside
        return None, [f"{path}: {where}: {reason}" for where, reason in problems(exc)]


def _sound_part(raw: Any) -> ContentFile:
    """The entries of a refused file that are sound on their own, so that merging them
    still reports what is wrong between files (a duplicate id, extra meeples of an
    unknown colour) alongside the file's own problems. A table's keys are kept one by one
    and checked as the file checks them (``[settings]`` and ``[tables]`` numbers within
    ``MAX_NUMBER``), so what is kept always makes a file."""
    if not isinstance(raw, dict):
        return ContentFile()
    sound: dict[str, Any] = {}
    for field in attrs.fields(ContentFile):
        value, kind = raw.get(field.name), _FIELD_TYPES[field.name]
        if isinstance(value, list) and typing.get_origin(kind) is list:
            (entry_kind,) = typing.get_args(kind)
            sound[field.name] = [entry for entry in value if _sound(entry, entry_kind)]
        elif isinstance(value, dict) and typing.get_origin(kind) is dict:
            sound[field.name] = {
                key: entry
                for key, entry in value.items()
                if _sound({field.name: {key: entry}}, ContentFile)
            }
        elif value is not None and _sound({field.name: value}, ContentFile):
            sound[field.name] = value
    return _CONVERTER.structure(sound, ContentFile)


def _sound(value: Any, kind: Any) -> bool:
    try:
        _CONVERTER.structure(value, kind)
    except Exception:  # any problem: the entry is reported by the file's own structuring
        return False
    return True


def merge_content(
    files: Iterable[tuple[Path, ContentFile]], owners: Mapping[Path, str] | None = None
) -> Content:
    """Merge parsed files in order, then apply their ``[[override]]`` entries; duplicate
    ids, bad values and conflicting overrides are reported together. ``owners`` names the
    plugin of each file, for messages. (Each field's own checks are the records'
    validators, reported when the file is parsed.)"""
    merged = _Merging(owners or {})
    for path, data in files:
        merged.add(path, data)
    return merged.finish()


@attrs.define
class _Merging:
    """The content of the files read so far, and every problem found on the way: ids
    claimed by section, and which settings a later file re-stated."""

    owners: Mapping[Path, str]
    problems: list[str] = attrs.field(factory=list)
    overrides: list[Located] = attrs.field(factory=list)
    colours: list[ColourSpec] = attrs.field(factory=list)
    tokens: list[TokenSpec] = attrs.field(factory=list)
    tiles: list[TileSpec] = attrs.field(factory=list)
    cards: list[CardSpec] = attrs.field(factory=list)
    decks: dict[str, DeckSpec] = attrs.field(factory=dict)
    player_counts: dict[int, PlayerCountSpec] = attrs.field(factory=dict)
    extra_meeples: list[tuple[Path, int, ExtraMeeplesSpec]] = attrs.field(factory=list)
    settings: dict[str, Any] = attrs.field(factory=dict)
    setting_choices: dict[str, tuple[str, ...]] = attrs.field(factory=dict)
    tables: dict[str, tuple[int, ...]] = attrs.field(factory=dict)
    triggers: list[TriggerSpec] = attrs.field(factory=list)
    tile_actions: list[TileActionSpec] = attrs.field(factory=list)
    powers: list[PowerSpec] = attrs.field(factory=list)
    counters: list[CounterSpec] = attrs.field(factory=list)
    seen: dict[tuple[str, str], Path] = attrs.field(factory=dict)
    restated: dict[tuple[str, str], Path] = attrs.field(factory=dict)

    def claim(self, section: str, key: str, path: Path, index: int) -> None:
        """Each id once per section: a second definition names the file of the first."""
        if (section, key) in self.seen:
            self.problems.append(
                f"{path}: $.{section}[{index}]: {section} {key!r} is already defined in "
                f"{self.seen[(section, key)]}"
            )
        self.seen[(section, key)] = path

    def claim_card(self, section: str, card: str, path: Path, index: int) -> None:
        """Card ids are unique across every deck (an action names a card by its id)."""
        if (section, card) not in self.seen and ("card-id", card) in self.seen:
            self.problems.append(
                f"{path}: $.{section}[{index}]: card {card!r} is already defined in "
                f"{self.seen[('card-id', card)]}"
            )
        self.claim(section, card, path, index)
        self.seen[("card-id", card)] = path

    def add(self, path: Path, data: ContentFile) -> None:
        """One file's entries, after those of the files before it."""
        self.add_components(path, data)
        self.add_cards(path, data)
        for i, override in enumerate(data.override):
            who = f"plugin {self.owners[path]!r}" if path in self.owners else str(path)
            self.overrides.append(Located(path, i, override, who))
        self.add_tables(path, data)
        self.add_effects(path, data)

    def add_effects(self, path: Path, data: ContentFile) -> None:
        """Triggers and tile actions by id, powers by card kind and moment: one of each
        name, and a card kind's powers all in one file."""
        for i, trigger in enumerate(data.trigger):
            self.claim("trigger", trigger.id, path, i)
            self.triggers.append(trigger)
        for i, action in enumerate(data.tile_action):
            self.claim("tile_action", action.id, path, i)
            self.tile_actions.append(action)
        for i, power in enumerate(data.power):
            kind = f"{power.deck}:{power.kind}"
            if power.revises:
                self.revise(power, path, i)
            if self.seen.get(("power", kind)) != path:  # a kind's entries are one file's
                self.claim("power", kind, path, i)
            moment = f" on {power.on}" if power.on else ""
            self.claim("power", f"{kind}{moment}", path, i)
            self.powers.append(power)
        for i, counter in enumerate(data.counter):
            self.claim("counter", counter.id, path, i)
            self.counters.append(counter)

    def revise(self, power: PowerSpec, path: Path, index: int) -> None:
        """A power that ``revises`` its kind's: the entries an earlier file gave that kind
        go (an expansion's revised card, a house rule's rewritten djinn); revising none is
        refused, as a misspelt kind would otherwise add a power silently."""
        kind = f"{power.deck}:{power.kind}"
        first = self.seen.get(("power", kind))
        if first == path:
            return  # the file's own first entry of the kind revised the earlier ones
        if first is None:
            self.problems.append(
                f"{path}: $.power[{index}]: power {kind!r} revises no earlier power of its kind"
            )
            return
        self.powers = [p for p in self.powers if (p.deck, p.kind) != (power.deck, power.kind)]
        for key in [k for k in self.seen if k[0] == "power" and k[1].split(" on ")[0] == kind]:
            del self.seen[key]

    def add_components(self, path: Path, data: ContentFile) -> None:
        """Colours (and their letters), tokens, tiles, player counts and extra meeples;
        extra meeples are added in ``finish``, as their colour may come from a later file."""
        for i, colour in enumerate(data.colour):
            self.claim("colour", colour.id, path, i)
            self.claim("colour-letter", colour.letter, path, i)
            self.colours.append(colour)
        for i, token in enumerate(data.token):
            self.claim("token", token.id, path, i)
            self.tokens.append(token)
        self.tiles.extend(data.tile)
        for pc in data.player_count:
            self.player_counts[pc.players] = pc
        self.extra_meeples.extend((path, i, more) for i, more in enumerate(data.extra_meeples))

    def add_cards(self, path: Path, data: ContentFile) -> None:
        """Cards of every deck (the shorthand sections first) and the decks' policies."""
        for i, resource in enumerate(data.resource):
            self.claim_card("resource", resource.id, path, i)
            self.cards.append(resource.card())
        for i, djinn in enumerate(data.djinn):
            self.claim_card("djinn", djinn.id, path, i)
            self.cards.append(djinn.card())
        for i, extra in enumerate(data.card):
            self.claim_card("card", extra.id, path, i)
            if extra.deck in CARD_SECTIONS:
                self.problems.append(
                    f"{path}: $.card[{i}].deck: {extra.deck!r} has its own section"
                )
            self.cards.append(extra)
        for i, deck in enumerate(data.deck):
            self.claim("deck", deck.id, path, i)
            self.decks[deck.id] = deck

    def add_tables(self, path: Path, data: ContentFile) -> None:
        """Settings and tables merge key by key: a later plugin may deliberately re-state
        a value, but two later plugins re-stating it differently is a conflict."""
        restated: tuple[tuple[str, Mapping[str, object], dict[str, Any]], ...] = (
            ("settings", data.settings, self.settings),
            (
                "setting_choices",
                {k: tuple(v) for k, v in data.setting_choices.items()},
                self.setting_choices,
            ),
            ("tables", {k: tuple(v) for k, v in data.tables.items()}, self.tables),
        )
        for section, values, merged in restated:
            for key, value in values.items():
                if key in merged and (section, key) in self.restated and merged[key] != value:
                    self.problems.append(
                        f"{path}: $.{section}.{key}: {value!r} conflicts with {merged[key]!r} "
                        f"set by {self.restated[(section, key)]}"
                    )
                if key in merged:
                    self.restated[(section, key)] = path
                merged[key] = value

    def finish(self) -> Content:
        """What needs every file read: the overrides, the extra meeples, the cards whose
        component is in the game and the narrowed player counts; then the content, or one
        ``ContentError`` with every problem."""
        colours, tokens, tiles, cards = self.colours, self.tokens, self.tiles, self.cards
        if self.overrides:
            colours, tokens, tiles, cards = _overridden(
                (colours, tokens, tiles, cards), self.player_counts, self.settings, self.overrides,
                self.problems,
            )  # fmt: skip
        colours = _add_meeples(colours, self.extra_meeples, self.problems)
        cards = _present(cards, colours, tokens, tiles)
        player_counts = self.allowed_player_counts()
        if self.problems:
            raise ContentError(self.problems)
        return Content(
            colours=tuple(colours),
            tokens=tuple(tokens),
            tiles=tuple(tiles),
            cards=tuple(cards),
            decks=dict(self.decks),
            player_counts=tuple(player_counts[k] for k in sorted(player_counts)),
            settings={k: v for k, v in self.settings.items() if is_number(v)},
            tables=dict(self.tables),
            typed_settings={k: frozen(v) for k, v in self.settings.items() if not is_number(v)},
            setting_choices={k: tuple(v) for k, v in self.setting_choices.items()},
            triggers=tuple(self.triggers),
            tile_actions=tuple(self.tile_actions),
            powers=tuple(self.powers),
            counters=tuple(self.counters),
        )

    def allowed_player_counts(self) -> dict[int, PlayerCountSpec]:
        """The player counts described, narrowed when a plugin lists the only ones it
        allows (``tables.player_counts``: the solo mode's 1), each of which must be
        described."""
        allowed = self.tables.get(PLAYER_COUNTS)
        if allowed is None:
            return self.player_counts
        for count in allowed:
            if count not in self.player_counts:
                self.problems.append(
                    f"content: tables.{PLAYER_COUNTS}: {count} players, but no "
                    "[[player_count]] says what a player of that count gets"
                )
        return {k: v for k, v in self.player_counts.items() if k in allowed}


def _overridden(
    records: tuple[list[ColourSpec], list[TokenSpec], list[TileSpec], list[CardSpec]],
    player_counts: dict[int, PlayerCountSpec],
    settings: dict[str, Any],
    found: list[Located],
    problems: list[str],
) -> tuple[list[ColourSpec], list[TokenSpec], list[TileSpec], list[CardSpec]]:
    """The merged records with the overrides applied (see ``naqala.core.overrides``);
    ``player_counts`` and ``settings`` are changed in place."""
    colours, tokens, tiles, cards = records
    counts = {players: [spec] for players, spec in player_counts.items()}
    holders: dict[str, list[list[Any]]] = {
        name: [[r] for r in records]
        for name, records in (
            ("colours", colours),
            ("tokens", tokens),
            ("tiles", tiles),
            ("cards", cards),
        )
    }
    named: list[tuple[str, list[Any]]] = [
        *((f"colour:{h[0].id}", h) for h in holders["colours"]),
        *((f"token:{h[0].id}", h) for h in holders["tokens"]),
        *((f"tile:{h[0].kind}", h) for h in holders["tiles"]),
        *((f"{CARD_SECTIONS.get(h[0].deck, 'card')}:{h[0].id}", h) for h in holders["cards"]),
        *((f"card:{h[0].id}", h) for h in holders["cards"] if h[0].deck in CARD_SECTIONS),
        *((f"player_count:{players}", h) for players, h in counts.items()),
    ]
    apply_overrides(targets(named), found, problems, settings)
    player_counts.update({players: h[0] for players, h in counts.items()})
    return (
        [h[0] for h in holders["colours"]],
        [h[0] for h in holders["tokens"]],
        [h[0] for h in holders["tiles"]],
        [h[0] for h in holders["cards"]],
    )


def _present(
    cards: list[CardSpec],
    colours: list[ColourSpec],
    tokens: list[TokenSpec],
    tiles: list[TileSpec],
) -> list[CardSpec]:
    """The cards whose ``needs`` (a colour, token or tile kind) is in the game: a box's
    card about another box's component joins the deck only when both are played."""
    known = {c.id for c in colours} | {t.id for t in tokens} | {t.kind for t in tiles}
    return [c for c in cards if not c.needs or c.needs in known]


#: the shorthand section of the cards of the two decks every game has
CARD_SECTIONS = {RESOURCES: "resource", DJINNS: "djinn"}


def _add_meeples(
    colours: list[ColourSpec],
    extra: list[tuple[Path, int, ExtraMeeplesSpec]],
    problems: list[str],
) -> list[ColourSpec]:
    """Colours with the extra meeples of later files added (a colour may be declared in
    any file, so this runs once every file is read)."""
    counts = {c.id: c.count for c in colours}
    for path, i, more in extra:
        if more.colour not in counts:
            known = ", ".join(sorted(counts)) or "none"
            problems.append(
                f"{path}: $.extra_meeples[{i}].colour: no colour {more.colour!r} (colours: {known})"
            )
            continue
        counts[more.colour] += more.count
        if counts[more.colour] > MAX_COPIES:
            problems.append(
                f"{path}: $.extra_meeples[{i}].count: makes {counts[more.colour]} meeples of "
                f"{more.colour!r}, more than {MAX_COPIES}"
            )
            counts[more.colour] = MAX_COPIES
    return [attrs.evolve(c, count=counts[c.id]) for c in colours]


def load_content(
    paths: Iterable[Path],
    owners: Mapping[Path, str] | None = None,
    texts: Mapping[Path, str] | None = None,
) -> Content:
    """Parse and merge ``paths`` in order; raise one ``ContentError`` listing every problem.
    ``owners`` names the plugin shipping each file, for messages; ``texts`` holds the text
    of files already read (a content-only house rule, parsed from the bytes it was
    hashed from)."""
    parsed: list[tuple[Path, ContentFile]] = []
    problems: list[str] = []
    for path in paths:
        raw, errors = _read_toml(path, (texts or {}).get(path))
        data = None
        if raw is not None:
            data, errors = _structured(path, raw)
            if data is None:
                parsed.append((path, _sound_part(raw)))
        problems.extend(errors)
        if data is not None:
            parsed.append((path, data))
    if problems:
        # still merge what parsed, so duplicate ids are reported alongside type errors
        try:
            merge_content(parsed, owners)
        except ContentError as more:
            problems.extend(more.problems)
        raise ContentError(problems)
    return merge_content(parsed, owners)


def tile_ids(spec: TileSpec, start: int) -> list[str]:
    """Ids for the copies of a tile spec: ``{kind}-{n}`` numbered from ``start``."""
    return [f"{spec.kind}-{n}" for n in range(start, start + spec.count)]
