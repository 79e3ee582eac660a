"""The rules of one game: plugins, content and stages, and the pure state functions.

``Rules`` is built per game from an ordered list of plugins (there is no global plugin
manager). It answers ``legal_actions(state)`` and ``apply(state, action)``; both are pure:
the same state and action always give the same result, and states are never changed.
"""

from __future__ import annotations

import importlib
import inspect
import pickle
import re
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

import pluggy
from pluggy import HookImpl

from naqala.core import hookspecs
from naqala.core.actions import SORT_KEY, Action, shorten
from naqala.core.content import (
    DECK_NAMES,
    CardSpec,
    Content,
    ContentError,
    DeckSpec,
    TileSpec,
    load_content,
)
from naqala.core.costs import CostCode
from naqala.core.events import Event, ScoreLine, Verdict
from naqala.core.meaning import check_rules
from naqala.core.metrics import Metric
from naqala.core.native import Provided, provided_rules
from naqala.core.plugins import (
    LOADED_HOUSE_RULES,
    HouseRuleFile,
    PluginError,
    PluginInfo,
    installed_players,
    order_plugins,
    resolve,
)
from naqala.core.powers import Power
from naqala.core.rng import check_seed
from naqala.core.stage import Flow, Stage
from naqala.core.state import Deck, Layout, PlayerState, State, evolve
from naqala.core.tie_break import highest_score
from naqala.core.turnfields import CORE_FIELDS, TurnField
from naqala.core.without import WithoutError, declared_without, leave_out

if TYPE_CHECKING:
    from naqala.core.agents import AgentFactory


#: hooks that provide stages, and the prefix of their stage names
STAGE_HOOKS = (
    ("naqala_stages", ""),
    ("naqala_tribe_actions", "tribe:"),
    ("naqala_tile_actions", "tile:"),
)


#: hooks with a single answer: one plugin provides it (the base game's answers are the
#: defaults, marked ``trylast``) and any number of plugins wrap it (``wrapper=True``)
PROVIDER_HOOKS = ("naqala_board_layout", "naqala_flow", "naqala_new_game")

#: what an AI player may be called: a seat names it after ``ai:`` and a setting after a
#: colon, in any case (``ai:MCTS:200``), so a name is lower case without colons or commas
AGENT_NAME = re.compile(r"[a-z0-9][a-z0-9_.-]{0,39}")
#: a turn field's name: a key of the state JSON's ``turn``
TURN_FIELD_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
#: names a player cannot take: they are seats of their own
RESERVED_SEATS = ("human", "ai")


class IllegalAction(ValueError):
    """An action that is not among the legal actions of the pending decision."""


class Rules:
    """Everything about a game that is not its state: plugins, hooks, content, stages."""

    def __init__(self, plugins: Sequence[PluginInfo]) -> None:
        self.plugins = tuple(plugins)
        #: what plugins derive from these rules (content, powers) and keep for the game,
        #: by a key of their own (``cards.powers_with``): filled on first use
        self.memo: dict[str, Any] = {}
        self._register_plugins()
        files = self._load_content()
        self._index_content()
        self._register_stages()
        self._register_powers()
        self._register_turn_fields()
        self._providers = {name: self._provider_chain(name) for name in PROVIDER_HOOKS}
        flow = self.provide("naqala_flow", rules=self)
        if flow is None:
            raise PluginError("no plugin provides the flow of play (is the base plugin enabled?)")
        self.flow: Flow = flow
        check_rules(self, files)  # what the content means to these plugins
        self._resolve_hot_hooks()
        try:  # cards a house rule leaves out, exactly as ``--without`` does
            declared_without(self)
        except WithoutError as exc:
            raise ContentError([str(exc)]) from None

    def __reduce__(self) -> tuple[Any, ...]:
        """Rules pickle as how to build them again, as the lab's workers rebuild theirs:
        installed plugins by id and version, house-rule files as the bytes that were
        hashed, plugin objects by reference, the cards left out. A process that unpickles
        them builds fresh rules (``Rules`` holds modules and caches, which never travel)."""
        plugins = [i for i in self.plugins if i.source == "entry-point"]
        houses = []
        for info in self.plugins:
            if info.source == "house-rule":
                file = LOADED_HOUSE_RULES.get(info.sha256)
                if file is None:
                    raise pickle.PicklingError(f"the house rule {info.path} was never read")
                houses.append(file)
        objects = [
            ("module", o.module.__name__)
            if isinstance(o.module, ModuleType)
            else ("object", o.module)
            for o in self.plugins
            if o.source not in ("entry-point", "house-rule")
        ]
        recipe = (
            tuple(i.id for i in plugins if i.id != "base"),
            {i.id: i.version for i in plugins},
            tuple(houses),
            tuple(objects),
            self.without,
        )
        return _rebuilt_rules, recipe

    # -- construction steps, in the order ``__init__`` takes them ------------------------

    def _register_plugins(self) -> None:
        """One plugin manager per game (no global one), so two games with different
        plugins never see each other's hooks; refuses plugins that cannot be combined."""
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
        _refuse_conflicts(self.plugins)
        judges = sorted(i.plugin_name for i in self.hook.naqala_verdict.get_hookimpls())
        if len(judges) > 1:
            raise PluginError(
                f"naqala_verdict is answered by {' and '.join(map(repr, judges))}: "
                "one plugin at most may decide who wins"
            )

    def _load_content(self) -> list[tuple[str, Path]]:
        """Read every plugin's content files in content order (base first, then each
        plugin after what it requires), so later files change earlier ones predictably;
        returns the files with their plugins, for the meaning checks' messages."""
        providers: dict[str, Callable[[], Iterable[str | Path]]] = {
            impl.plugin_name: cast(Callable[[], Iterable[str | Path]], impl.function)
            for impl in self.hook.naqala_content_files.get_hookimpls()
        }
        files = [
            (info.name, Path(path))
            for info in content_order(self.plugins)
            if info.name in providers
            for path in providers[info.name]()
        ]
        texts = {  # content-only house rules: their content as hashed (core/content_rule.py)
            Path(path): text
            for info in self.plugins
            for path, text in getattr(info.module, "CONTENT_TEXTS", {}).items()
        }
        self.content: Content = load_content(
            [path for _, path in files], {path: name for name, path in files}, texts
        )
        #: the cards left out of the content (``djinn:ID``…: ``naqala.core.without``)
        self.without: tuple[str, ...] = ()
        return files

    def _index_content(self) -> None:
        """The lookups every decision needs (colour and token indices, tiles and cards by
        id, decks by name and index), computed once rather than searched each time."""
        self.colours = self.content.colours
        self.letters = "".join(c.letter for c in self.colours)
        self.colour_index = {c.id: i for i, c in enumerate(self.colours)}
        self.tokens = self.content.tokens
        self.token_index = {t.id: i for i, t in enumerate(self.tokens)}
        self.tile_specs = _tile_table(self.content.tiles)
        #: every card of every deck, by id (ids are unique across decks)
        self.card_specs: dict[str, CardSpec] = {c.id: c for c in self.content.cards}
        extra_decks = dict.fromkeys(c.deck for c in self.content.cards if c.deck not in DECK_NAMES)
        self.deck_names: tuple[str, ...] = DECK_NAMES + tuple(extra_decks)
        self.deck_index = {name: i for i, name in enumerate(self.deck_names)}
        #: each deck's policy (how its cards are held and used), by deck index
        self.deck_specs: tuple[DeckSpec, ...] = tuple(
            self.content.deck_spec(name) for name in self.deck_names
        )

    def _register_stages(self) -> None:
        """Every stage, tribe action and tile action by its full name (``tile:village``),
        a name offered twice refused unless one plugin ``REPLACES`` it."""
        #: the plugin that provides each stage and power (``tile:village``, ``djinn:enki``)
        self.providers: dict[str, str] = {}
        #: the same by what each entry is (``("stage", "tile:village")``), and the plugins
        #: whose offer of an entry another plugin replaced (``REPLACES``): what the native
        #: engine is told of who provides each rule (``naqala.core.native``)
        self.entry_providers: dict[tuple[str, str], str] = {}
        #: the hook that registered each entry (``naqala_tile_actions`` for ``tile:village``)
        self.entry_hooks: dict[tuple[str, str], str] = {}
        self.replaced: dict[tuple[str, str], tuple[str, ...]] = {}
        self.stages: dict[str, Stage] = {}
        for hook_name, prefix in STAGE_HOOKS:
            for name, stage in self._registry(hook_name, prefix, "stage").items():
                stage.name = name
                self.stages[name] = cast(Stage, stage)

    def _register_powers(self) -> None:
        """The power of each card kind by ``<deck>:<kind>``, and of each card by id, so
        the card router finds a card's power with one lookup."""
        #: the power of each card kind, by (deck, kind)
        self.powers: dict[tuple[str, str], Power] = {}
        for key, power in self._registry("naqala_card_powers", "", "card kind").items():
            deck, sep, kind = key.partition(":")
            if not sep or not deck or not kind:
                raise PluginError(f"card power {key!r} must be named '<deck>:<kind>'")
            power.deck, power.kind = deck, kind
            self.powers[deck, kind] = cast(Power, power)
        #: the power of every card that has one, by card id (looked up for every hand)
        self.card_powers: dict[str, Power] = {
            card.id: self.powers[card.deck, card.kind]
            for card in self.card_specs.values()
            if (card.deck, card.kind) in self.powers
        }

    def _register_turn_fields(self) -> None:
        """Every field a plugin keeps in the turn in progress, by name, sorted: the
        plugins' answers to ``naqala_turn_fields`` merged like the stages (a name declared
        twice is refused naming both, unless one lists ``turn:<name>`` in ``REPLACES``);
        a name of the core's own ``Turn`` is refused."""
        #: the plugins' turn fields by name (``naqala.core.turnfields``)
        self.turn_fields: dict[str, TurnField[Any]] = {}
        merged = self._registry("naqala_turn_fields", "turn:", "turn field")
        for key, field in sorted(merged.items()):
            name = key.removeprefix("turn:")
            if name in CORE_FIELDS or not TURN_FIELD_NAME.fullmatch(name) or field.name != name:
                raise PluginError(
                    f"plugin {self.providers[key]!r}: turn field {shorten(name)!r} must be "
                    "named in lower case letters, digits and _, and not as one of the "
                    f"core's own ({', '.join(sorted(CORE_FIELDS))})"
                )
            self.turn_fields[name] = field

    def _resolve_hot_hooks(self) -> None:
        """The hooks called for every decision, resolved once into plain functions (the
        fast path of a playout, docs/architecture.md), and the empty legality cache."""
        self._event_impls: list[Callable[..., State | None]] = [
            _by_position(impl, ("rules", "state", "event"))
            for impl in self.hook.naqala_event.get_hookimpls()
        ]
        self._extra_options = HotHook(self.hook.naqala_extra_options)
        self._apply_extra = HotHook(self.hook.naqala_apply_extra)
        self._protected = HotHook(self.hook.naqala_protected_meeples)
        self._game_ends = HotHook(self.hook.naqala_game_ends)
        self._score_lines = HotHook(self.hook.naqala_score_lines)
        self._adjust_score_lines = HotHook(self.hook.naqala_adjust_score_lines)
        #: the score lines (and totals) of the last state scored
        self._sheet = _Sheet(None)
        #: the last state asked about, its sorted options, and each legal option mapped to
        #: whether its stage offers it (True) or a power does (False)
        self._legal_state: State | None = None
        self._legal_list: list[Action] = []
        self._legal: dict[Action, bool] = {}

    # -- construction helpers ----------------------------------------------------------

    def _in_order(self, hook_name: str, **kwargs: Any) -> list[Any]:
        """Results of a hook in plugin registration order (pluggy returns them reversed)."""
        return list(reversed(getattr(self.hook, hook_name)(**kwargs)))

    def _registry(
        self, hook_name: str, prefix: str, what: str, more: Sequence[tuple[str, Any]] = ()
    ) -> dict[str, Any]:
        """Merge the mappings a hook returns (or the named declarations, each keyed by its
        ``name``), keys prefixed (``tribe:red``), with those of
        ``more`` (named plugin objects outside the rules, answering the same hook). A key
        offered by several plugins goes to the one whose ``REPLACES`` names it; without
        exactly one such plugin it is an error naming them all. Registration order plays
        no part."""
        offers: dict[str, list[tuple[str, Any]]] = {}
        answers = [
            (impl.plugin_name, impl.function, "rules" in impl.argnames)
            for impl in getattr(self.hook, hook_name).get_hookimpls()
        ]
        answers += [
            (owner, answer := getattr(module, hook_name), _takes_rules(answer))
            for owner, module in more
        ]
        outside = dict(more)
        for owner, answer, with_rules in answers:
            found = answer(self) if with_rules else answer()
            pairs = found.items() if isinstance(found, Mapping) else ((v.name, v) for v in found)
            for key, value in pairs:
                offers.setdefault(prefix + key, []).append((owner, value))
        merged: dict[str, Any] = {}
        for name, candidates in offers.items():
            self.entry_hooks[what, name] = hook_name
            if len(candidates) == 1:
                merged[name] = candidates[0][1]
                self.providers[name] = self.entry_providers[what, name] = candidates[0][0]
                continue
            replacing = [c for c in candidates if name in self._replaces(c[0], outside.get(c[0]))]
            owners = " and ".join(repr(owner) for owner, _ in candidates)
            if len(replacing) != 1:
                raise PluginError(
                    f"{what} {name!r} is provided by both {owners}; "
                    f"a plugin that means to replace it must list {name!r} in its REPLACES"
                )
            merged[name] = replacing[0][1]
            self.providers[name] = self.entry_providers[what, name] = replacing[0][0]
            self.replaced[what, name] = tuple(o for o, _ in candidates if o != replacing[0][0])
        return merged

    def _provider_chain(self, hook_name: str) -> tuple[list[HookImpl], list[HookImpl]]:
        """Who answers a provider hook, and the wrappers of the answer, innermost first.

        Plain implementations are providers. The defaults (``trylast``: the base game)
        answer only when no other provider does; two other providers are an error naming
        both unless exactly one lists the hook in ``REPLACES`` (then it alone answers).
        Wrappers all apply, in content order — base, then each plugin after what it
        requires, ties by name — so the result never depends on registration order."""
        impls = getattr(self.hook, hook_name).get_hookimpls()
        for impl in impls:
            if impl.hookwrapper:
                raise PluginError(
                    f"plugin {impl.plugin_name!r}: {hook_name} is wrapped with "
                    "hookimpl(wrapper=True) (a generator: answer = yield; return the change), "
                    "not hookwrapper=True"
                )
        plain = [impl for impl in impls if not impl.wrapper]
        answering = self._one_provider(hook_name, [i for i in plain if not i.trylast])
        answering += self._one_provider(hook_name, [i for i in plain if i.trylast])
        position = {info.name: n for n, info in enumerate(content_order(self.plugins))}
        wrappers = sorted(
            (impl for impl in impls if impl.wrapper), key=lambda i: position[i.plugin_name]
        )
        return answering, wrappers

    def _one_provider(self, hook_name: str, candidates: list[HookImpl]) -> list[HookImpl]:
        if len(candidates) <= 1:
            return candidates
        replacing = [i for i in candidates if hook_name in self._replaces(i.plugin_name)]
        if len(replacing) == 1:
            return replacing
        owners = " and ".join(repr(name) for name in sorted(i.plugin_name for i in candidates))
        raise PluginError(
            f"{hook_name} is provided by both {owners}; a plugin that means to replace the "
            f"other must list {hook_name!r} in its REPLACES, and one that only changes the "
            "answer can wrap it instead (hookimpl(wrapper=True), docs/hooks.md)"
        )

    def provide(self, hook_name: str, **kwargs: Any) -> Any:
        """The answer of a provider hook (``PROVIDER_HOOKS``): the first non-None answer
        of its provider or the defaults, then changed by each wrapper in turn."""
        answering, wrappers = self._providers[hook_name]
        result: Any = None
        for impl in answering:
            result = impl.function(*(kwargs[arg] for arg in impl.argnames))
            if result is not None:
                break
        for impl in wrappers:
            steps = cast(
                Generator[None, Any, Any], impl.function(*(kwargs[arg] for arg in impl.argnames))
            )
            try:
                next(steps)
                steps.send(result)
            except StopIteration as done:
                result = done.value
            else:
                steps.close()
                raise PluginError(f"plugin {impl.plugin_name!r}: {hook_name} yields more than once")
            if result is None:
                raise PluginError(
                    f"plugin {impl.plugin_name!r}: its {hook_name} wrapper returned nothing "
                    "(return the changed answer it received from yield)"
                )
        return result

    def _replaces(self, plugin_name: str, plugin: Any = None) -> tuple[str, ...]:
        plugin = self.pm.get_plugin(plugin_name) if plugin is None else plugin
        return tuple(getattr(plugin, "REPLACES", ()))

    # -- the players -------------------------------------------------------------------

    @property
    def agents(self) -> Mapping[str, AgentFactory]:
        """The AI players these rules can seat, by name: the installed players' (group
        ``naqala.agents``) and this game's plugins' (hook ``naqala_agents``), merged like
        the stages (a name offered twice is refused naming both, unless one lists
        ``ai:<name>`` in ``REPLACES``). Built on first use: a command that seats no AI
        never loads a player."""
        found: dict[str, AgentFactory] | None = self.memo.get("naqala.agents")
        if found is None:
            merged = self._registry("naqala_agents", "ai:", "AI player", installed_players())
            found = {}
            for seat, factory in sorted(merged.items()):
                name = seat.removeprefix("ai:")
                if not AGENT_NAME.fullmatch(name) or name in RESERVED_SEATS:
                    raise PluginError(
                        f"plugin {self.providers[seat]!r}: AI player {shorten(name)!r} must be "
                        "named in lower case letters, digits and - _ . (not 'human' or 'ai')"
                    )
                found[name] = factory
            self.memo["naqala.agents"] = found
        return found

    # -- the metrics -------------------------------------------------------------------

    def metrics(self, shipped: Sequence[tuple[str, Any]] = ()) -> Mapping[str, Metric]:
        """The metrics a search of these rules can push, by name: the ``shipped`` ones
        (named objects outside the rules answering ``naqala_metrics``: the lab's) and this
        game's plugins', merged like the stages (a name offered twice is refused naming
        both, unless one lists ``metric:<name>`` in ``REPLACES``)."""
        merged = self._registry("naqala_metrics", "metric:", "metric", shipped)
        return {key.removeprefix("metric:"): metric for key, metric in sorted(merged.items())}

    # -- the native engine ---------------------------------------------------------------

    @property
    def hook_providers(self) -> Mapping[str, tuple[list[HookImpl], list[HookImpl]]]:
        """Who answers each provider hook (``PROVIDER_HOOKS``) and who wraps the answer."""
        return self._providers

    @property
    def provided(self) -> tuple[Provided, ...]:
        """Every rule of these rules with the plugin that provides it: each stage, card
        power, cost code and turn field, each provider hook's answer and wrapper, and every
        other hook that changes play (``naqala.core.native``). The native engine is told
        these, and plays a game only when it implements every one's provider."""
        found: tuple[Provided, ...] | None = self.memo.get("naqala.provided")
        if found is None:
            found = self.memo["naqala.provided"] = provided_rules(self)
        return found

    # -- cost codes --------------------------------------------------------------------

    @property
    def cost_codes(self) -> Mapping[str, CostCode]:
        """Every cost code a card may name, by code: the plugins' answers to
        ``naqala_cost_codes`` merged like the stages (a code offered twice is refused
        naming both, unless one lists ``cost:<code>`` in ``REPLACES``)."""
        found: dict[str, CostCode] | None = self.memo.get("naqala.cost_codes")
        if found is None:
            merged = self._registry("naqala_cost_codes", "cost:", "cost code")
            found = {key.removeprefix("cost:"): code for key, code in merged.items()}
            self.memo["naqala.cost_codes"] = found
        return found

    # -- identity ----------------------------------------------------------------------

    @property
    def ruleset(self) -> tuple[str, ...]:
        """The plugins as states and records store them (their ids, in registration
        order): a renamed plugin keeps its old name here, so old files still match."""
        return tuple(info.id for info in self.plugins)

    @property
    def names(self) -> tuple[str, ...]:
        """The plugins by the names people type and read (``whims``), in registration
        order: what a front end shows; files store ``ruleset``."""
        return tuple(info.name for info in self.plugins)

    def tile(self, tile_id: str) -> TileSpec:
        return self.tile_specs[tile_id]

    def deck_in(self, state: State, deck: str) -> Deck:
        """The deck named ``deck`` (``"resources"``, ``"whims"``) in ``state``."""
        return state.decks[self.deck_index[deck]]

    def hand_of(self, player: PlayerState, deck: str) -> tuple[str, ...]:
        """The cards of the deck named ``deck`` in ``player``'s hand."""
        return player.hand(self.deck_index[deck])

    def power_of(self, card: CardSpec) -> Power | None:
        """The power behind ``card`` (None for cards without one, such as resources)."""
        return self.powers.get((card.deck, card.kind))

    # -- the state functions -----------------------------------------------------------

    def new_game(self, players: int, seed: int) -> State:
        """The initial state for ``players`` players, fully determined by ``seed`` (a
        seed outside ``0 … 2**64-1`` is a ``SeedError``, a ValueError)."""
        check_seed(seed)
        state = self.provide("naqala_new_game", rules=self, players=players, seed=seed)
        if state is None:
            raise PluginError("no plugin sets up a new game (is the base plugin enabled?)")
        return self.flow.start(self, state)

    def legal_actions(self, state: State) -> list[Action]:
        """The options of the pending decision, in canonical order (empty at game end)."""
        if self._legal_state is state:
            return self._legal_list
        legal: dict[Action, bool] = {}
        if not state.is_over:
            legal = dict.fromkeys(self.stages[state.decision.stage].legal(self, state), True)
            for group in self._extra_options.positional(self, state):
                for option in group:
                    legal.setdefault(option, False)
        actions = sorted(legal, key=SORT_KEY) if len(legal) > 1 else list(legal)
        self._legal_state, self._legal_list, self._legal = state, actions, legal
        return actions

    def stage_options(self, state: State) -> frozenset[Action]:
        """The options the pending stage itself offers (not the extra options of powers)."""
        self.legal_actions(state)
        return frozenset(option for option, own in self._legal.items() if own)

    def is_legal(self, state: State, action: Action) -> bool:
        self.legal_actions(state)
        return action in self._legal

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
        if self._legal_state is not state:
            self.legal_actions(state)
        own = self._legal.get(action)
        if own is None:
            raise IllegalAction(self.explain(state, action))
        if own:
            return self.stages[state.decision.stage].apply(self, state, action)
        result: State | None = self._apply_extra.first(rules=self, state=state, action=action)
        if result is None:
            raise PluginError(f"no plugin applies the offered option '{action}'")
        return result

    def apply_on_view(self, state: State, action: Action) -> State:
        """The state after ``action``, an option of the game, played on a seat's view of it.

        A player judges the game's options on a determinization, where what the seat
        cannot see is dealt again. A rule that reads the hidden part (a house rule that
        protects a poor player's meeples reads their coins) may forbid an option there
        that the game offers. It is applied all the same, by its stage or by the plugin
        that offers it, as the kernel's players apply it, so both engines judge it alike.
        """
        if self.is_legal(state, action):
            return self.apply(state, action)
        result: State | None = self._apply_extra.first(rules=self, state=state, action=action)
        if result is not None:
            return result
        return self.stages[state.decision.stage].apply(self, state, action)

    # -- used by plugins ---------------------------------------------------------------

    def enter(self, state: State, stage: str) -> State:
        """Enter ``stage``: it does its automatic work and waits or hands on."""
        return self.stages[stage].enter(self, state)

    def proceed(self, state: State, finished: str) -> State:
        """Called by a stage that has finished: the flow decides what comes next."""
        return self.flow.proceed(self, state, finished)

    def call(self, state: State, stage: str, caller: str) -> State:
        """Enter ``stage`` as a step of stage ``caller`` (the assassins' kill, the artisans'
        item to keep). The caller is remembered in the turn; when the step is done it
        calls ``return_to_caller`` and play goes on as if ``caller`` had finished, so a
        stage registered under any name gets control back."""
        turn = state.turn
        if turn is None:
            raise ValueError(f"stage {caller!r} calls {stage!r} outside a turn")
        return self.enter(evolve(state, turn=evolve(turn, callers=(*turn.callers, caller))), stage)

    def return_to_caller(self, state: State) -> State:
        """Called by a step entered with ``call`` when it is done: the stage that entered
        it has finished."""
        turn = state.turn
        if turn is None or not turn.callers:
            raise ValueError(f"stage {state.decision.stage!r} was not entered by another stage")
        caller = turn.callers[-1]
        state = evolve(state, turn=evolve(turn, callers=turn.callers[:-1]))
        return self.proceed(state, caller)

    def fire(self, state: State, event: Event) -> State:
        """Let every trigger react to ``event``, in registration order."""
        for function in self._event_impls:
            changed = function(self, state, event)
            if changed is not None:
                state = changed
        return state

    # -- scoring -----------------------------------------------------------------------

    def score_lines(self, state: State, player: int) -> tuple[ScoreLine, ...]:
        """``player``'s score lines: the plugins' lines, then their adjustments. Kept for
        the last state scored (by identity, as the legality cache), so a score sheet,
        ``scores``, ``winners`` and ``verdict`` of one state read them once."""
        sheet = self._sheet
        if sheet.state is state:
            found = sheet.lines.get(player)
            if found is not None:
                return found
        lines: list[ScoreLine] = []
        for group in reversed(self._score_lines.positional(self, state, player)):
            lines.extend(group)
        frozen = tuple(lines)
        extra: list[ScoreLine] = []
        for group in reversed(self._adjust_score_lines.positional(self, state, player, frozen)):
            extra.extend(group)
        result = frozen + tuple(extra)
        sheet = self._sheet  # a plugin may have scored another state meanwhile
        if sheet.state is not state:
            sheet = self._sheet = _Sheet(state)
        sheet.lines[player] = result
        return result

    def scores(self, state: State) -> tuple[int, ...]:
        """Every player's score: the sum of their score lines (kept with them)."""
        sheet = self._sheet
        if sheet.state is state and sheet.totals is not None:
            return sheet.totals
        totals = tuple(
            sum(line.points for line in self.score_lines(state, p))
            for p in range(len(state.players))
        )
        sheet = self._sheet  # read once: another thread may score another state
        if sheet.state is state:
            sheet.totals = totals
        return totals

    def winners(self, state: State) -> tuple[int, ...]:
        """The players who won (``verdict``): by default those with the highest score."""
        return self.verdict(state).winners

    def verdict(self, state: State, scores: Sequence[int] | None = None) -> Verdict:
        """Who won and why: a plugin's answer (hook ``naqala_verdict``), else the players
        with the highest score, a tie shared or broken as ``verdict.tie_break`` says.
        ``scores``: ``self.scores(state)`` when the caller has summed the score sheets
        already (each costs every plugin's score lines)."""
        found: Verdict | None = self.hook.naqala_verdict(rules=self, state=state)
        if found is not None:
            return found
        if scores is None:
            scores = self.scores(state)
        return highest_score(self.content, state, scores)

    def protected(self, state: State, player: int) -> frozenset[str]:
        """Colour ids in front of ``player`` that assassins may not kill."""
        found: set[str] = set()
        for group in self._protected(rules=self, state=state, player=player):
            found.update(group)
        return frozenset(found)

    def with_terrain(self, layout: Layout) -> Layout:
        """``layout``'s tiles with the impassable tiles and walls where they lie: the tiles
        whose kind content makes impassable (``impassable = true``), and those plugins
        declare (hooks ``naqala_impassable_tiles``, ``naqala_blocked_edges``): what a new
        board gets, and what a loaded state must have."""
        bare = Layout(layout.rows, layout.cols, layout.tiles)
        blocked = {i for i, tile in enumerate(layout.tiles) if self.tile(tile).impassable}
        for found in self.hook.naqala_impassable_tiles(rules=self, layout=bare):
            blocked.update(found)
        walls: set[tuple[int, int]] = set()
        for found in self.hook.naqala_blocked_edges(rules=self, layout=bare):
            walls.update((min(a, b), max(a, b)) for a, b in found)
        return Layout(layout.rows, layout.cols, layout.tiles, frozenset(blocked), frozenset(walls))

    def public_notes(self, state: State) -> list[str]:
        """Lines of public information plugins add to the picture of ``state``."""
        return [
            line
            for group in self._in_order("naqala_public_notes", rules=self, state=state)
            for line in group
        ]

    def game_ends(self, state: State) -> bool:
        return any(self._game_ends(rules=self, state=state))


def _refuse_conflicts(plugins: Sequence[PluginInfo]) -> None:
    """A plugin's ``CONFLICTS`` (name → reason) names the plugins it cannot be played
    with; rules with both are refused, naming both and the reason."""
    for info in plugins:
        for other, reason in dict(getattr(info.module, "CONFLICTS", {})).items():
            for them in plugins:
                if them is not info and other in them.known_as:
                    raise PluginError(
                        f"plugin {info.name!r} cannot be played with {them.name!r}: {reason}"
                    )


def _takes_all_arguments(impl: HookImpl, arguments: Sequence[str]) -> Callable[..., Any]:
    """The implementation, callable with every argument of its hook by keyword even when
    it asks only for some (as pluggy allows); called directly on the hot path."""
    function = cast(Callable[..., Any], impl.function)
    wanted = tuple(impl.argnames)
    if set(wanted) == set(arguments):
        return function

    def some(**kwargs: Any) -> Any:
        return function(**{name: kwargs[name] for name in wanted})

    return some


def _by_position(impl: HookImpl, arguments: Sequence[str]) -> Callable[..., Any]:
    """The implementation, callable with every argument of its hook by position."""
    function = cast(Callable[..., Any], impl.function)
    wanted = tuple(impl.argnames)
    if wanted == tuple(arguments):
        return function
    picks = [arguments.index(name) for name in wanted]

    def some(*values: Any) -> Any:
        return function(*(values[i] for i in picks))

    return some


class _Sheet:
    """The score lines read so far of one state (by identity) and, once read, the totals;
    replaced as a whole when another state is scored, so a reader never mixes two."""

    __slots__ = ("lines", "state", "totals")

    def __init__(self, state: State | None) -> None:
        self.state = state
        self.lines: dict[int, tuple[ScoreLine, ...]] = {}
        self.totals: tuple[int, ...] | None = None


class HotHook:
    """A hook called for every decision, resolved once into plain functions called in
    pluggy's own order (last registered first, ``tryfirst``/``trylast`` respected), so
    the answers are pluggy's without its dispatch on every call. A hook with wrappers
    keeps going through pluggy."""

    def __init__(self, caller: pluggy.HookCaller) -> None:
        impls = caller.get_hookimpls()
        self.caller = caller
        self.functions: tuple[Callable[..., Any], ...] | None = None
        #: the same functions called with the hook's arguments by position, in the order
        #: the hook declares them (``positional``)
        self.by_position: tuple[Callable[..., Any], ...] = ()
        if not any(impl.wrapper or impl.hookwrapper for impl in impls):
            arguments = tuple(caller.spec.argnames) if caller.spec is not None else ()
            self.functions = tuple(
                _takes_all_arguments(impl, arguments) for impl in reversed(impls)
            )
            self.by_position = tuple(_by_position(impl, arguments) for impl in reversed(impls))
        self.arguments = tuple(caller.spec.argnames) if caller.spec is not None else ()

    def positional(self, *values: Any) -> list[Any]:
        """Like calling the hook with its arguments by position, in declared order (the
        cheapest call on the hot path)."""
        if self.functions is None:
            return self(**dict(zip(self.arguments, values, strict=True)))
        found = []
        for function in self.by_position:
            answer = function(*values)
            if answer is not None:
                found.append(answer)
        return found

    def __call__(self, **kwargs: Any) -> list[Any]:
        """Every answer that is not None, as pluggy collects them."""
        if self.functions is None:
            return cast(list[Any], self.caller(**kwargs))
        found = []
        for function in self.functions:
            answer = function(**kwargs)
            if answer is not None:
                found.append(answer)
        return found

    def first(self, **kwargs: Any) -> Any:
        """The first answer that is not None (a ``firstresult`` hook)."""
        if self.functions is None:
            return self.caller(**kwargs)
        for function in self.functions:
            answer = function(**kwargs)
            if answer is not None:
                return answer
        return None


def content_order(plugins: Sequence[PluginInfo]) -> list[PluginInfo]:
    """The order content files are merged in, whatever order the plugins were registered
    in: base first, then each plugin after what it requires, ties by id (what saved games
    call a plugin, which a renamed plugin keeps: renaming one never reorders the cards)."""
    return order_plugins(sorted(plugins, key=lambda info: info.id))


def _takes_rules(function: Callable[..., Any]) -> bool:
    """Whether a registry hook's answer asks for the rules (content loaded and indexed:
    the effects language registers the powers and tile actions content describes)."""
    return "rules" in inspect.signature(function).parameters


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
    house_rules: Sequence[Path | HouseRuleFile] = (),
    extra_plugins: Sequence[Any] = (),
    versions: Mapping[str, str] | None = None,
) -> Rules:
    """Rules for a game with the base game, ``expansions`` (names), house-rule files (paths
    or files already read: ``plugins.read_house_rule``) and plugin objects, registered in
    the deterministic order of ``plugins.order_plugins``; ``versions`` plays named plugins
    at the older versions a saved game was made with."""
    return Rules(resolve(expansions, house_rules, extra_plugins, versions))


def _rebuilt_rules(
    expansions: tuple[str, ...],
    versions: dict[str, str],
    house_rules: tuple[HouseRuleFile, ...],
    objects: tuple[tuple[str, Any], ...],
    without: tuple[str, ...],
) -> Rules:
    """Rules unpickled: built again from what ``Rules.__reduce__`` kept."""
    extra = [importlib.import_module(o) if kind == "module" else o for kind, o in objects]
    rules = build_rules(expansions, house_rules, extra, versions)
    return leave_out(rules, without) if without else rules


def same_plugins(rules: Rules, names: Sequence[str]) -> bool:
    """Whether ``names`` are the plugins of ``rules`` in order, each by any name it is
    known as (the ids a state stores, or names and aliases)."""
    return len(names) == len(rules.plugins) and all(
        name in info.known_as for name, info in zip(names, rules.plugins, strict=False)
    )


def rules_for_ruleset(ruleset: Sequence[str], versions: Mapping[str, str] | None = None) -> Rules:
    """Rules for the plugin names recorded in a state or a record (installed plugins, at
    ``versions`` where the game names older ones). A name may be any a plugin is known
    by (``whims`` for the box stored as ``djinns``): the rules store its id."""
    rules = build_rules([n for n in ruleset if n != "base"], versions=versions)
    if not same_plugins(rules, ruleset):
        raise PluginError(
            f"plugins {list(ruleset)} give the rules {list(rules.ruleset)}; is one missing?"
        )
    return rules
