"""The rules of one game: plugins, content and stages, and the pure state functions.

``Rules`` is built per game from an ordered list of plugins (there is no global plugin
manager). It answers ``legal_actions(state)`` and ``apply(state, action)``; both are pure:
the same state and action always give the same result, and states are never changed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, cast

import pluggy

from naqala.core import hookspecs
from naqala.core.actions import Action, shorten, sorted_actions
from naqala.core.content import Content, TileSpec, load_content
from naqala.core.events import Event, ScoreLine
from naqala.core.plugins import PluginError, PluginInfo, order_plugins, resolve
from naqala.core.powers import Power
from naqala.core.stage import Flow, Stage
from naqala.core.state import State

#: deck indices in ``State.decks``
RESOURCES = 0
DJINNS = 1
#: the decks every game has; plugins add more through ``[[card]]`` content (``rules.deck_names``)
DECK_NAMES = ("resources", "djinns")


#: hooks that provide stages, and the prefix of their stage names
STAGE_HOOKS = (
    ("naqala_stages", ""),
    ("naqala_tribe_actions", "tribe:"),
    ("naqala_tile_actions", "tile:"),
)


class IllegalAction(ValueError):
    """An action that is not among the legal actions of the pending decision."""


class Rules:
    """Everything about a game that is not its state: plugins, hooks, content, stages."""

    def __init__(self, plugins: Sequence[PluginInfo]) -> None:
        self.plugins = tuple(plugins)
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        for info in self.plugins:
            try:
                self.pm.register(info.module, name=info.name)
            except (ValueError, pluggy.PluginValidationError) as exc:
                raise PluginError(f"plugin {info.name!r} cannot be registered: {exc}") from exc
        try:
            self.pm.check_pending()
        except pluggy.PluginValidationError as exc:
            raise PluginError(f"plugin {exc.plugin!r}: {exc}") from exc
        self.hook = self.pm.hook

        providers: dict[str, Callable[[], Iterable[str | Path]]] = {
            impl.plugin_name: cast(Callable[[], Iterable[str | Path]], impl.function)
            for impl in self.hook.naqala_content_files.get_hookimpls()
        }
        paths = [
            Path(path)
            for info in content_order(self.plugins)
            if info.name in providers
            for path in providers[info.name]()
        ]
        self.content: Content = load_content(paths)
        self.colours = self.content.colours
        self.letters = "".join(c.letter for c in self.colours)
        self.colour_index = {c.id: i for i, c in enumerate(self.colours)}
        self.tokens = self.content.tokens
        self.token_index = {t.id: i for i, t in enumerate(self.tokens)}
        self.tile_specs = _tile_table(self.content.tiles)
        self.djinn_specs = {d.id: d for d in self.content.djinns}
        self.card_specs = {c.id: c for c in self.content.cards}
        extra_decks = dict.fromkeys(c.deck for c in self.content.cards)
        self.deck_names: tuple[str, ...] = DECK_NAMES + tuple(extra_decks)
        self.deck_index = {name: i for i, name in enumerate(self.deck_names)}

        self.stages: dict[str, Stage] = {}
        for hook_name, prefix in STAGE_HOOKS:
            for name, stage in self._registry(hook_name, prefix, "stage").items():
                stage.name = name
                self.stages[name] = cast(Stage, stage)
        self.powers: dict[str, Power] = {}
        for kind, power in self._registry("naqala_djinn_powers", "djinn:", "djinn kind").items():
            power.kind = kind.removeprefix("djinn:")
            self.powers[power.kind] = cast(Power, power)
        self.card_powers: dict[str, Power] = {}
        for kind, power in self._registry("naqala_card_powers", "card:", "card kind").items():
            power.kind = kind.removeprefix("card:")
            self.card_powers[power.kind] = cast(Power, power)
        flow = self.hook.naqala_flow(rules=self)
        if flow is None:
            raise PluginError("no plugin provides the flow of play (is the base plugin enabled?)")
        self.flow: Flow = flow
        self._event_impls: list[Callable[..., State | None]] = [
            cast(Callable[..., State | None], impl.function)
            for impl in self.hook.naqala_event.get_hookimpls()
        ]
        #: the last state asked about, its sorted options, and which came from its stage
        self._legal_cache: tuple[State | None, list[Action], frozenset[Action], frozenset[Action]]
        self._legal_cache = (None, [], frozenset(), frozenset())

    # -- construction helpers ----------------------------------------------------------

    def _in_order(self, hook_name: str, **kwargs: Any) -> list[Any]:
        """Results of a hook in plugin registration order (pluggy returns them reversed)."""
        return list(reversed(getattr(self.hook, hook_name)(**kwargs)))

    def _registry(self, hook_name: str, prefix: str, what: str) -> dict[str, Any]:
        """Merge the mappings a hook returns, keys prefixed (``tribe:red``). A key offered
        by several plugins goes to the one whose ``REPLACES`` names it; without exactly
        one such plugin it is an error naming them all. Registration order plays no part."""
        offers: dict[str, list[tuple[str, Any]]] = {}
        for impl in getattr(self.hook, hook_name).get_hookimpls():
            for key, value in impl.function().items():
                offers.setdefault(prefix + key, []).append((impl.plugin_name, value))
        merged: dict[str, Any] = {}
        for name, candidates in offers.items():
            if len(candidates) == 1:
                merged[name] = candidates[0][1]
                continue
            replacing = [c for c in candidates if name in self._replaces(c[0])]
            owners = " and ".join(repr(owner) for owner, _ in candidates)
            if len(replacing) != 1:
                raise PluginError(
                    f"{what} {name.removeprefix('djinn:')!r} is provided by both {owners}; "
                    f"a plugin that means to replace it must list {name!r} in its REPLACES"
                )
            merged[name] = replacing[0][1]
        return merged

    def _replaces(self, plugin_name: str) -> tuple[str, ...]:
        plugin = self.pm.get_plugin(plugin_name)
        return tuple(getattr(plugin, "REPLACES", ()))

    # -- identity ----------------------------------------------------------------------

    @property
    def ruleset(self) -> tuple[str, ...]:
        return tuple(info.name for info in self.plugins)

    def tile(self, tile_id: str) -> TileSpec:
        return self.tile_specs[tile_id]

    # -- the state functions -----------------------------------------------------------

    def new_game(self, players: int, seed: int) -> State:
        """The initial state for ``players`` players, fully determined by ``seed``."""
        state = self.hook.naqala_new_game(rules=self, players=players, seed=seed)
        if state is None:
            raise PluginError("no plugin sets up a new game (is the base plugin enabled?)")
        return self.flow.start(self, state)

    def legal_actions(self, state: State) -> list[Action]:
        """The options of the pending decision, in canonical order (empty at game end)."""
        if self._legal_cache[0] is state:
            return self._legal_cache[1]
        own: list[Action] = []
        found: list[Action] = []
        if not state.is_over:
            own = self.stages[state.decision.stage].legal(self, state)
            found = list(own)
            for group in self.hook.naqala_extra_options(rules=self, state=state):
                found.extend(group)
        actions = sorted_actions(found)
        self._legal_cache = (state, actions, frozenset(own), frozenset(actions))
        return actions

    def stage_options(self, state: State) -> frozenset[Action]:
        """The options the pending stage itself offers (not the extra options of powers)."""
        self.legal_actions(state)
        return self._legal_cache[2]

    def is_legal(self, state: State, action: Action) -> bool:
        self.legal_actions(state)
        return action in self._legal_cache[3]

    def explain(self, state: State, action: Action) -> str:
        """Why ``action`` cannot be played now (for people typing moves)."""
        if state.is_over:
            return "the game is over"
        stage = self.stages[state.decision.stage]
        reason = stage.explain(self, state, action) or self.hook.naqala_explain(
            rules=self, state=state, action=action
        )
        if reason:
            return str(reason)
        kinds = sorted({a.kind for a in self.legal_actions(state)})
        typed = shorten(str(action))
        if action.kind not in kinds:
            return (
                f"'{typed}' is not an option now: the decision is {state.decision.stage!r}, "
                f"which takes {', '.join(kinds)}"
            )
        return f"'{typed}' is not one of the legal options of {state.decision.stage!r}"

    def apply(self, state: State, action: Action) -> State:
        """The state after ``action``; ``IllegalAction`` (state untouched) if not legal."""
        if not self.is_legal(state, action):
            raise IllegalAction(self.explain(state, action))
        if action in self._legal_cache[2]:  # filled by is_legal for this very state
            return self.stages[state.decision.stage].apply(self, state, action)
        result: State | None = self.hook.naqala_apply_extra(rules=self, state=state, action=action)
        if result is None:
            raise PluginError(f"no plugin applies the offered option '{action}'")
        return result

    # -- used by plugins ---------------------------------------------------------------

    def enter(self, state: State, stage: str) -> State:
        """Enter ``stage``: it does its automatic work and waits or hands on."""
        return self.stages[stage].enter(self, state)

    def proceed(self, state: State, finished: str) -> State:
        """Called by a stage that has finished: the flow decides what comes next."""
        return self.flow.proceed(self, state, finished)

    def fire(self, state: State, event: Event) -> State:
        """Let every trigger react to ``event``, in registration order."""
        for function in self._event_impls:
            changed = function(rules=self, state=state, event=event)
            if changed is not None:
                state = changed
        return state

    # -- scoring -----------------------------------------------------------------------

    def score_lines(self, state: State, player: int) -> tuple[ScoreLine, ...]:
        lines: list[ScoreLine] = []
        for group in self._in_order("naqala_score_lines", rules=self, state=state, player=player):
            lines.extend(group)
        frozen = tuple(lines)
        extra: list[ScoreLine] = []
        for group in self._in_order(
            "naqala_adjust_score_lines", rules=self, state=state, player=player, lines=frozen
        ):
            extra.extend(group)
        return frozen + tuple(extra)

    def scores(self, state: State) -> tuple[int, ...]:
        return tuple(
            sum(line.points for line in self.score_lines(state, p))
            for p in range(len(state.players))
        )

    def winners(self, state: State) -> tuple[int, ...]:
        """The players with the highest score (ties share the win)."""
        scores = self.scores(state)
        best = max(scores)
        return tuple(p for p, s in enumerate(scores) if s == best)

    def protected(self, state: State, player: int) -> frozenset[str]:
        """Colour ids in front of ``player`` that assassins may not kill."""
        found: set[str] = set()
        for group in self.hook.naqala_protected_meeples(rules=self, state=state, player=player):
            found.update(group)
        return frozenset(found)

    def public_notes(self, state: State) -> list[str]:
        """Lines of public information plugins add to the picture of ``state``."""
        return [
            line
            for group in self._in_order("naqala_public_notes", rules=self, state=state)
            for line in group
        ]

    def game_ends(self, state: State) -> bool:
        return any(self.hook.naqala_game_ends(rules=self, state=state))


def content_order(plugins: Sequence[PluginInfo]) -> list[PluginInfo]:
    """The order content files are merged in, whatever order the plugins were registered
    in: base first, then each plugin after what it requires, ties by name."""
    return order_plugins(sorted(plugins, key=lambda info: info.name))


def _tile_table(specs: Sequence[TileSpec]) -> dict[str, TileSpec]:
    table: dict[str, TileSpec] = {}
    numbers: dict[str, int] = {}
    for spec in specs:
        for _ in range(spec.count):
            numbers[spec.kind] = numbers.get(spec.kind, 0) + 1
            table[f"{spec.kind}-{numbers[spec.kind]}"] = spec
    return table


def build_rules(
    expansions: Sequence[str] = (),
    house_rules: Sequence[Path] = (),
    extra_plugins: Sequence[Any] = (),
) -> Rules:
    """Rules for a game with the base game, ``expansions`` (names), house-rule files and
    plugin objects, registered in the deterministic order of ``plugins.order_plugins``."""
    return Rules(resolve(expansions, house_rules, extra_plugins))


def rules_for_ruleset(ruleset: Sequence[str]) -> Rules:
    """Rules for the plugin names recorded in a state or a record (installed plugins)."""
    rules = build_rules([n for n in ruleset if n != "base"])
    if rules.ruleset != tuple(ruleset):
        raise PluginError(
            f"plugins {list(ruleset)} give the rules {list(rules.ruleset)}; is one missing?"
        )
    return rules
