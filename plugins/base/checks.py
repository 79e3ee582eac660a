"""What the base game's rules need of content and of a state, checked before play.

``rules_problems`` runs when the rules are built (hook ``naqala_check_rules``), so a
number the base game cannot play with is refused at once, naming the setting, instead of
crashing mid-game. ``state_problems`` checks a loaded state's pieces still to place
against the bank, its turn-order track, that
the move in progress fits the decision and that the assassins' target is a tile or a
player (hook ``naqala_check_state``).
"""

from __future__ import annotations

from collections.abc import Iterable

from naqala.core.content import ContentError
from naqala.core.engine import Rules
from naqala.core.state import NOBODY, State, get_extra
from naqala.core.validate import Problem, shown
from naqala.plugins.base.bidding import turn_order_costs
from naqala.plugins.base.common import PIECES, RESOURCE_KINDS, TARGET
from naqala.plugins.base.costs import cost_problems
from naqala.plugins.base.lying import place_problems
from naqala.plugins.base.setup import board_shape
from naqala.plugins.base.variants import variant_problems

#: settings the base game reads, which must be at least this much
MINIMUM_SETTINGS = {
    "meeples_per_tile": 1,
    "starting_coins": 0,
    "resource_row": 0,
    "djinn_row": 0,
    "vizier_vp": 0,
    "vizier_bonus": 0,
    "elder_vp": 0,
    "small_market_cost": 0,
    "small_market_reach": 1,
    "small_market_take": 1,
    "large_market_cost": 0,
    "large_market_reach": 1,
    "large_market_take": 1,
    "sacred_place_elders": 1,
    "end.after_round": 0,
}


def rules_problems(rules: Rules) -> list[str]:
    """Every way the content breaks what the base game's rules need."""
    content = rules.content
    problems: list[str] = []
    for key, least in MINIMUM_SETTINGS.items():
        value = content.settings.get(key)
        if value is None:
            problems.append(f"settings.{key}: not set (the base game needs it)")
        elif value < least:
            problems.append(f"settings.{key}: {value} is less than {least}")
    for spec in content.deck("resources"):
        if spec.kind not in RESOURCE_KINDS:
            kinds = " or ".join(RESOURCE_KINDS)
            problems.append(f"resource {spec.id!r}: kind {spec.kind!r} is not {kinds}")
    problems.extend(cost_problems(rules))
    problems.extend(_track_problems(rules))
    problems.extend(_suit_problems(rules))
    problems.extend(_meeple_problems(rules))
    problems.extend(variant_problems(rules))
    if uses_board_shape(rules, "base"):
        problems.extend(shape_problems(rules))
    return problems


def uses_board_shape(rules: Rules, plugin: str) -> bool:
    """Whether ``plugin`` lays out the board (``board_shape``): it is the only plugin that
    does, or base is laying it out beside it as the fallback."""
    owners = [i.plugin_name for i in rules.hook.naqala_board_layout.get_hookimpls()]
    return [o for o in owners if o != "base"] in ([], [plugin])


def shape_problems(rules: Rules) -> list[str]:
    """The board shape for the tiles in play, or why there is none. A ``board_<n>``
    table that does not fit its ``n`` tiles is the core's to report (``core/meaning.py``),
    so it is not said twice."""
    if f"board_{len(rules.tile_specs)}" in rules.content.tables:
        return []
    try:
        board_shape(rules)
    except ContentError as exc:
        return [p.removeprefix("content: ") for p in exc.problems]
    return []


def _track_problems(rules: Rules) -> Iterable[str]:
    """Each turn-order track in play is non-empty, dearest first, never negative, with a
    spot for every marker of the player counts that use it."""
    tables = rules.content.tables
    names = [k for k in tables if k == "turn_order_costs" or k.startswith("turn_order_costs_")]
    if "turn_order_costs" not in tables:
        yield "tables.turn_order_costs: not set (the base game needs it)"
    for name in sorted(names):
        costs = tables[name]
        if not costs:
            yield f"tables.{name}: the track has no spots"
        elif list(costs) != sorted(costs, reverse=True) or costs[-1] < 0:
            yield f"tables.{name}: {list(costs)} must list costs dearest first, none negative"
    if "turn_order_costs" not in tables:
        return
    for count in rules.content.player_counts:
        costs = turn_order_costs(rules, count.players)
        markers = count.players * count.markers
        if len(costs) < markers:
            track = f"turn_order_costs_{count.players}"
            name = track if track in tables else "turn_order_costs"
            spots = f"{len(costs)} spot" + ("s" if len(costs) != 1 else "")
            yield (
                f"tables.{name}: {spots} for the {markers} markers of a {count.players}-player game"
            )


def _suit_problems(rules: Rules) -> Iterable[str]:
    """A value for every suit size, rising by steps that never shrink (the sale picks the
    largest suits, which is best only then)."""
    values = rules.content.tables.get("suit_values")
    kinds = sum(1 for c in rules.content.deck("resources") if c.kind == "merchandise")
    if values is None:
        yield "tables.suit_values: not set (the base game needs it)"
        return
    steps = [b - a for a, b in zip((0, *values), values, strict=False)]
    if len(values) < kinds:
        yield f"tables.suit_values: {len(values)} values for {kinds} kinds of merchandise"
    if any(step < 0 for step in steps) or steps != sorted(steps):
        yield f"tables.suit_values: {list(values)} must rise by steps that never shrink"


def _meeple_problems(rules: Rules) -> Iterable[str]:
    """Enough meeples to put ``meeples_per_tile`` on every tile that holds meeples."""
    per_tile = rules.content.settings.get("meeples_per_tile", 1)
    tiles = sum(1 for spec in rules.tile_specs.values() if spec.holds_meeples)
    meeples = sum(c.count for c in rules.colours)
    if meeples < tiles * per_tile:
        yield (
            f"tiles: {tiles} tiles hold meeples, {per_tile} each (settings.meeples_per_tile) "
            f"need {tiles * per_tile}, but the colours have {meeples}"
        )


def state_problems(rules: Rules, state: State) -> Iterable[Problem]:
    """The turn-order track has the spots of this player count, and the move in progress
    fits the decision: ``pick`` before any meeple is picked up, ``drop`` with meeples in
    hand, the tribe and tile actions and ``kill`` after a move collected a colour."""
    yield from _piece_problems(rules, state)
    yield from place_problems(rules, state)
    players = len(state.players)
    if players in {pc.players for pc in rules.content.player_counts}:
        spots = len(turn_order_costs(rules, players))
        if len(state.turn_track) != spots:
            yield Problem(
                "$.turn_track",
                f"{len(state.turn_track)} spots; the track of a {players}-player game has {spots}",
            )
    turn, stage = state.turn, state.decision.stage
    if turn is None:
        return
    if stage == "pick" and (turn.start != NOBODY or turn.path):
        yield Problem("$.turn.start", "the meeples are already picked up at 'pick'")
    elif stage == "pick" and any(turn.hand):
        yield Problem("$.turn.hand", "nothing is in hand before the meeples are picked up")
    if stage == "drop" and (turn.start == NOBODY or not any(turn.hand)):
        yield Problem("$.turn.hand", "'drop' needs meeples picked up and still in hand")
    if (stage == "kill" or stage.startswith(("tribe:", "tile:"))) and turn.colour == NOBODY:
        yield Problem("$.turn.colour", f"{stage!r} follows a move, but no colour was collected")
    if stage.startswith("tribe:") and turn.colour != NOBODY:
        colour = rules.colours[turn.colour].id
        if stage != f"tribe:{colour}":
            yield Problem("$.turn.colour", f"the move collected {colour}, not {stage!r}")
    target = TARGET.of(turn)
    if target and target not in state.geometry.names and target not in _seats(players):
        yield Problem(
            "$.turn.target",
            f"{target[:40]!r} is neither a tile of the board nor a player (p1…p{players})",
        )


def _seats(players: int) -> frozenset[str]:
    return frozenset(f"p{seat + 1}" for seat in range(players))


def _piece_problems(rules: Rules, state: State) -> Iterable[Problem]:
    """A piece still to place (a ``piece.<token>`` counter a plugin declares) that is a
    token of the rules is one of the bank's: the players' pieces of a kind are at most
    the bank's tokens of that kind (a forged count would end the game late or never)."""
    for k, token in enumerate(rules.tokens):
        key = PIECES + token.id
        held = [(seat, get_extra(p.extras, key)) for seat, p in enumerate(state.players)]
        total = sum(count for _, count in held)
        if total > state.pool[k]:
            seat = max(held, key=lambda pair: pair[1])[0]
            yield Problem(
                f"$.players[{seat}].extras.{key}",
                f"{shown(total)} {token.id} pieces still to place in all, but the bank holds "
                f"{state.pool[k]}",
            )
