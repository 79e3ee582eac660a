"""Content loading: TOML files → cattrs → frozen attrs records.

Game content (tiles, meeple colours, tokens, cards, djinns, track costs, setup numbers) is
data. Each plugin ships TOML files; they are parsed with tomli, structured strictly (unknown
keys and wrong types are errors) and merged in plugin order. Every problem is reported with
the file and the path inside it, and all problems of all files are reported together.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import attrs

from naqala.core.documents import DocumentError, parse_toml
from naqala.core.files import CONTENT_LIMIT, FileRefused, read_text_bounded
from naqala.core.overrides import (
    MAX_COPIES,
    MAX_NUMBER,
    MAX_POINTS,
    Located,
    OverrideSpec,
    apply_overrides,
    targets,
)
from naqala.core.structured import at_most, numbers_within, problems, strict_converter

#: the most players any content may describe (a number, not a design: games have 1-5)
MAX_PLAYERS = 100


class ContentError(Exception):
    """One or more problems in content files; ``problems`` lists them all."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


@attrs.frozen
class ColourSpec:
    """A meeple colour (a tribe)."""

    id: str
    letter: str
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
    value: str = ""  # "blue", "red" or "" (valueless terrain such as the chasm)
    count: int = attrs.field(default=1, validator=at_most(MAX_COPIES))
    holds_meeples: bool = True
    printed: str = ""  # the value printed on the tile, for displays, if not ``vp`` ("5+")


@attrs.frozen
class CardSpec:
    """One card of any deck: ``count`` copies of ``id`` in the deck ``deck``.

    ``kind`` names the power behind the card (hook ``naqala_card_powers``, keyed
    ``<deck>:<kind>``); resources use it for merchandise or fakir and have no power.
    ``cost`` is a payment code (see the base plugin), ``params`` the numbers the power
    uses and ``subject`` a content id the power is about (a colour, a tile kind, a token).
    """

    deck: str
    id: str
    kind: str
    count: int = attrs.field(default=1, validator=at_most(MAX_COPIES))
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
    count: int = attrs.field(validator=at_most(MAX_COPIES))
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


#: the decks every game has (``[[resource]]`` and ``[[djinn]]`` fill them)
RESOURCES = "resources"
DJINNS = "djinns"


@attrs.frozen
class DeckSpec:
    """How the cards of one deck are held and used: the small per-deck policy the one
    card router follows. A deck with cards but no ``[[deck]]`` entry gets the defaults."""

    id: str
    noun: str = "card"  # one card of the deck, in messages ("whim")
    order: str = "sorted"  # a hand is kept "sorted" or in the order "taken"
    limit: str = "card"  # activated at most once a turn per "card", per "deck", or "none"
    verb: str = ""  # "": actions are `<card> [target] [payment]`; "claim": `claim <card>`
    discard: bool = False  # a used card goes face up to the deck's discard pile
    scored: str = "after"  # score lines "after" every plugin's, or placed "by-plugin"


DECK_CHOICES = {
    "order": ("sorted", "taken"),
    "limit": ("card", "deck", "none"),
    "scored": ("after", "by-plugin"),
}


@attrs.frozen
class ExtraMeeplesSpec:
    """More meeples of a colour declared elsewhere (an expansion's extra meeples)."""

    colour: str
    count: int = attrs.field(validator=at_most(MAX_COPIES))


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

    players: int = attrs.field(validator=at_most(MAX_PLAYERS))
    camels: int = attrs.field(validator=at_most(MAX_COPIES))
    markers: int = attrs.field(validator=at_most(MAX_PLAYERS))


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
    settings: dict[str, int] = attrs.field(factory=dict, validator=numbers_within(MAX_NUMBER))
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
    settings: Mapping[str, int]
    tables: Mapping[str, tuple[int, ...]]

    def setting(self, key: str) -> int:
        try:
            return self.settings[key]
        except KeyError:
            raise ContentError([f"content: no plugin sets settings.{key}"]) from None

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


def parse_content_file(path: Path, text: str | None = None) -> tuple[ContentFile | None, list[str]]:
    """One file's records, or the list of its problems (each naming the file and path)."""
    try:
        raw_text = read_text_bounded(path, CONTENT_LIMIT, "content file") if text is None else text
    except FileRefused as exc:
        return None, [str(exc)]
    try:
        raw = parse_toml(raw_text)
    except DocumentError as exc:  # not TOML, nested too deep, numbers Python cannot read
        return None, [f"{path}: {exc}"]
    raw.pop(HOUSE_RULE_TABLE, None)  # a content-only house rule's name: not content
    try:
        return _CONVERTER.structure(raw, ContentFile), []
    except Exception as exc:  # cattrs raises exception groups with every problem inside
        return None, [f"{path}: {where}: {reason}" for where, reason in problems(exc)]


def merge_content(
    files: Iterable[tuple[Path, ContentFile]], owners: Mapping[Path, str] | None = None
) -> Content:
    """Merge parsed files in order, then apply their ``[[override]]`` entries; duplicate
    ids, bad values and conflicting overrides are reported together. ``owners`` names the
    plugin of each file, for messages."""
    problems: list[str] = []
    found_overrides: list[Located] = []
    colours: list[ColourSpec] = []
    tokens: list[TokenSpec] = []
    tiles: list[TileSpec] = []
    cards: list[CardSpec] = []
    decks: dict[str, DeckSpec] = {}
    player_counts: dict[int, PlayerCountSpec] = {}
    extra_meeples: list[tuple[Path, int, ExtraMeeplesSpec]] = []
    settings: dict[str, int] = {}
    tables: dict[str, tuple[int, ...]] = {}
    seen: dict[tuple[str, str], Path] = {}
    overridden: dict[tuple[str, str], Path] = {}

    def claim(section: str, key: str, path: Path, index: int) -> None:
        if (section, key) in seen:
            problems.append(
                f"{path}: $.{section}[{index}]: {section} {key!r} is already defined in "
                f"{seen[(section, key)]}"
            )
        seen[(section, key)] = path

    def claim_card(section: str, card: str, path: Path, index: int) -> None:
        """Card ids are unique across every deck (an action names a card by its id)."""
        if (section, card) not in seen and ("card-id", card) in seen:
            problems.append(
                f"{path}: $.{section}[{index}]: card {card!r} is already defined in "
                f"{seen[('card-id', card)]}"
            )
        claim(section, card, path, index)
        seen[("card-id", card)] = path

    for path, data in files:
        for i, colour in enumerate(data.colour):
            claim("colour", colour.id, path, i)
            claim("colour-letter", colour.letter, path, i)
            if len(colour.letter) != 1 or not colour.letter.isupper():
                problems.append(f"{path}: $.colour[{i}].letter: must be one capital letter")
            colours.append(colour)
        for i, token in enumerate(data.token):
            claim("token", token.id, path, i)
            tokens.append(token)
        for i, tile in enumerate(data.tile):
            if tile.count < 1:
                problems.append(f"{path}: $.tile[{i}].count: must be at least 1")
            if tile.value not in ("blue", "red", ""):
                problems.append(f"{path}: $.tile[{i}].value: must be 'blue', 'red' or ''")
            tiles.append(tile)
        for i, resource in enumerate(data.resource):
            claim_card("resource", resource.id, path, i)
            if resource.kind not in ("merchandise", "fakir"):
                problems.append(f"{path}: $.resource[{i}].kind: must be merchandise or fakir")
            cards.append(resource.card())
        for i, djinn in enumerate(data.djinn):
            claim_card("djinn", djinn.id, path, i)
            cards.append(djinn.card())
        for i, extra in enumerate(data.card):
            claim_card("card", extra.id, path, i)
            if extra.deck in (RESOURCES, DJINNS):
                problems.append(f"{path}: $.card[{i}].deck: {extra.deck!r} has its own section")
            if extra.count < 1:
                problems.append(f"{path}: $.card[{i}].count: must be at least 1")
            cards.append(extra)
        for i, deck in enumerate(data.deck):
            claim("deck", deck.id, path, i)
            for field, choices in DECK_CHOICES.items():
                if getattr(deck, field) not in choices:
                    problems.append(
                        f"{path}: $.deck[{i}].{field}: must be one of {', '.join(choices)}"
                    )
            decks[deck.id] = deck
        for i, override in enumerate(data.override):
            who = f"plugin {owners[path]!r}" if owners and path in owners else str(path)
            found_overrides.append(Located(path, i, override, who))
        for i, pc in enumerate(data.player_count):
            if pc.players < 1 or pc.camels < 0 or pc.markers < 1:
                problems.append(f"{path}: $.player_count[{i}]: counts must be positive")
            player_counts[pc.players] = pc
        for i, more in enumerate(data.extra_meeples):
            if more.count < 1:
                problems.append(f"{path}: $.extra_meeples[{i}].count: must be at least 1")
            extra_meeples.append((path, i, more))
        # tables merge key by key: a later plugin may deliberately re-state a setting,
        # but two later plugins re-stating it differently is a conflict
        restated: tuple[tuple[str, Mapping[str, object], dict[str, Any]], ...] = (
            ("settings", data.settings, settings),
            ("tables", {k: tuple(v) for k, v in data.tables.items()}, tables),
        )
        for section, values, merged in restated:
            for key, value in values.items():
                if key in merged and (section, key) in overridden and merged[key] != value:
                    problems.append(
                        f"{path}: $.{section}.{key}: {value!r} conflicts with {merged[key]!r} "
                        f"set by {overridden[(section, key)]}"
                    )
                if key in merged:
                    overridden[(section, key)] = path
                merged[key] = value
    if found_overrides:
        colours, tokens, tiles, cards = _overridden(
            colours, tokens, tiles, cards, found_overrides, problems
        )
    colours = _add_meeples(colours, extra_meeples, problems)
    cards = _present(cards, colours, tokens, tiles)
    allowed = tables.get(PLAYER_COUNTS)
    if allowed is not None:  # a plugin narrows the player counts (the solo mode: 1)
        for count in allowed:
            if count not in player_counts:
                problems.append(
                    f"content: tables.{PLAYER_COUNTS}: {count} players, but no "
                    "[[player_count]] says what a player of that count gets"
                )
        player_counts = {k: v for k, v in player_counts.items() if k in allowed}
    if problems:
        raise ContentError(problems)
    return Content(
        colours=tuple(colours),
        tokens=tuple(tokens),
        tiles=tuple(tiles),
        cards=tuple(cards),
        decks=dict(decks),
        player_counts=tuple(player_counts[k] for k in sorted(player_counts)),
        settings=dict(settings),
        tables=dict(tables),
    )


def _overridden(
    colours: list[ColourSpec],
    tokens: list[TokenSpec],
    tiles: list[TileSpec],
    cards: list[CardSpec],
    found: list[Located],
    problems: list[str],
) -> tuple[list[ColourSpec], list[TokenSpec], list[TileSpec], list[CardSpec]]:
    """The merged records with the overrides applied (see ``naqala.core.overrides``)."""
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
    ]
    apply_overrides(targets(named), found, problems)
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
        data, errors = parse_content_file(path, (texts or {}).get(path))
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
