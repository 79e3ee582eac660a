"""A position's score lines as a sheet, for every table that shows them (the terminal's
and the HTML replay page's): one row per category and source, where a card that changed
a category gets a row of its own, in the order the lines first appear; and the score one
seat may see during a game (``visible_scores``): its own in full, the others' public
points, with no hidden value of another seat in it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import attrs

from naqala.core.engine import Rules
from naqala.core.events import ScoreLine
from naqala.core.hands import with_hand
from naqala.core.state import NOBODY, State, evolve
from naqala.core.views import hidden_decks

#: a row of the sheet: the category and the card that scored in it ("" for the rules)
Row = tuple[str, str]


def score_sheet(rules: Rules, state: State) -> tuple[list[Row], list[dict[Row, int]]]:
    """The rows, and each player's points per row (a row a player did not score is absent)."""
    return sheet_of(rules, [rules.score_lines(state, p) for p in range(len(state.players))])


def sheet_of(
    rules: Rules, lines: Sequence[Iterable[ScoreLine]]
) -> tuple[list[Row], list[dict[Row, int]]]:
    """``score_sheet`` of given lines, one sequence per player (what a seat may see)."""
    rows: list[Row] = []
    points: list[dict[Row, int]] = []
    for player_lines in lines:
        mine: dict[Row, int] = {}
        for line in player_lines:
            source = "" if line.source in rules.ruleset else line.source
            key = (line.category, source)
            mine[key] = mine.get(key, 0) + line.points
            if key not in rows:
                rows.append(key)
        points.append(mine)
    return rows, points


def row_label(row: Row) -> str:
    """``palaces`` or ``viziers (jafaar)``."""
    category, source = row
    return f"{category} ({source})" if source else category


def result_line(
    rules: Rules, state: State, label: Callable[[int], str] = lambda p: f"P{p + 1}"
) -> str:
    """Who won a finished game, with how many points; when a plugin decides the winners
    otherwise than by the highest score (the solo mode), its reason too, and a game
    nobody won says so (``label`` names a player: ``P1``)."""
    verdict = rules.verdict(state)
    winners = verdict.winners
    scores = rules.scores(state)
    if not winners and len(scores) == 1:
        return f"{label(0)} loses with {scores[0]} points: {verdict.reason}."
    if not winners:
        points = ", ".join(f"{label(p)} {score}" for p, score in enumerate(scores))
        return f"Nobody wins: {verdict.reason}. Points: {points}."
    names = " and ".join(label(w) for w in winners)
    default = rules.hook.naqala_verdict(rules=rules, state=state) is None
    why = "" if default else f": {verdict.reason}"
    if len(winners) > 1:
        return f"{names} share the win with {scores[winners[0]]} points{why}."
    return f"{names} wins with {scores[winners[0]]} points{why}."


# -- the score a seat may see ----------------------------------------------------------------


@attrs.frozen
class SeenScore:
    """What one seat may see of one player's score now.

    ``lines`` are the score lines the seat may know: the player's full lines for the seat
    itself (its coins and hidden cards counted), the public ones for everybody else.
    ``public`` is the player's public total (what every other seat sees of it), and
    ``hidden`` how many cards of each hidden deck are not counted in ``lines`` (the
    player's coins are not counted either when ``full`` is False). ``unknown`` names the
    score categories whose points the seat cannot know (they follow the player's hidden
    coins), so a table shows ``?`` there rather than a 0 that only means "not counted"."""

    player: int
    lines: tuple[ScoreLine, ...]
    public: int
    full: bool
    hidden: tuple[tuple[str, int], ...] = ()
    unknown: frozenset[str] = frozenset()

    @property
    def total(self) -> int:
        """The points the seat may see: every line summed."""
        return sum(line.points for line in self.lines)


def public_part(rules: Rules, state: State, keep: int = NOBODY, coins: int = 0) -> State:
    """``state`` without the secrets of every player but ``keep``: their coins are
    ``coins`` (0: nothing) and their hands of hidden decks empty. Scored through the hooks,
    it gives the points of theirs anyone may count, since no line can read what is no
    longer there."""
    decks = hidden_decks(rules)
    players = list(state.players)
    for index, player in enumerate(players):
        if index == keep:
            continue
        player = evolve(player, coins=coins)
        for deck in decks:
            player = with_hand(rules, player, deck, ())
        players[index] = player
    return evolve(state, players=tuple(players))


def visible_scores(rules: Rules, state: State, seat: int) -> tuple[SeenScore, ...]:
    """Every player's score as ``seat`` may see it (``NOBODY``: a spectator, who sees only
    public points). Every line comes from the score hooks, so every box counts; the lines
    are computed from ``public_part`` of the state, so nothing another seat hides (its
    coins, its hidden cards, and what the other lines could derive from them) can change
    what ``seat`` is shown."""
    public = public_part(rules, state)
    # the same with one coin each: a category whose points move follows the hidden coins
    probe = public_part(rules, state, coins=1)
    seen = public_part(rules, state, keep=seat) if 0 <= seat < len(state.players) else public
    decks = sorted(hidden_decks(rules))
    scores = []
    for player in range(len(state.players)):
        public_lines = rules.score_lines(public, player)
        mine = player == seat
        hidden = (
            ()
            if mine
            else tuple(
                (rules.deck_names[d], n) for d in decks if (n := len(state.players[player].hand(d)))
            )
        )
        scores.append(
            SeenScore(
                player=player,
                lines=rules.score_lines(seen, player) if mine else public_lines,
                public=sum(line.points for line in public_lines),
                full=mine,
                hidden=hidden,
                unknown=frozenset()
                if mine
                else _moved(public_lines, rules.score_lines(probe, player)),
            )
        )
    return tuple(scores)


def _moved(lines: Iterable[ScoreLine], probed: Iterable[ScoreLine]) -> frozenset[str]:
    """The categories whose points differ between two scorings of one player."""
    totals: dict[str, int] = {}
    for line in lines:
        totals[line.category] = totals.get(line.category, 0) + line.points
    for line in probed:
        totals[line.category] = totals.get(line.category, 0) - line.points
    return frozenset(category for category, points in totals.items() if points)
