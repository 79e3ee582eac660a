# mypy: disable-error-code="empty-body"
"""Hook specifications: every point where a plugin can add to or change the game.

Each hook says when it is called and how the results of several plugins combine. Results
are combined in ways that do not depend on registration order wherever the hook allows it
(union, sum, concatenation sorted by the engine, all/any). The three provider hooks (layout,
flow, new game) have one provider — the base game's ``trylast`` answer unless another
plugin provides one; two others are refused naming both unless one lists the hook in
``REPLACES`` — and any number of wrappers (``hookimpl(wrapper=True)``), applied in an order
that does not depend on registration (``Rules.provide``).
The full reference with examples is docs/hooks.md; a test keeps the two in step.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pluggy

if TYPE_CHECKING:
    from naqala.core.actions import Action
    from naqala.core.agents import AgentFactory
    from naqala.core.costs import CostCode
    from naqala.core.effects import EffectSpec
    from naqala.core.encoding import ActionKind, ObservationPart
    from naqala.core.engine import Rules
    from naqala.core.events import Event, ScoreLine, Verdict
    from naqala.core.metrics import Metric
    from naqala.core.powers import Power
    from naqala.core.rng import Rng
    from naqala.core.stage import Flow, Stage
    from naqala.core.state import Layout, State
    from naqala.core.turnfields import TurnField
    from naqala.core.validate import Problem
    from naqala.display.hints import Display

PROJECT = "naqala"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


# -- content and components ---------------------------------------------------------------


@hookspec
def naqala_content_files() -> Iterable[Path]:
    """Content TOML files this plugin ships (tiles, colours, tokens, cards, djinns, settings).

    Called once when the rules are built. Combined: concatenated in registration order and
    merged; list entries add up, settings tables are overridden key by key by later plugins,
    and a duplicate id is an error naming both files.
    """


@hookspec
def naqala_stages(rules: Rules) -> Mapping[str, Stage]:
    """Flow stages this plugin provides, by name (``bid``, ``pick``, ``drop``, ``sell``…).

    ``rules`` is optional for an implementation (ask for it only if you need it): its
    content is loaded and indexed, nothing else (the base game registers a stage for each
    choice content offers, ``choose:…``).

    Called once when the rules are built. Combined: merged into one table; two plugins
    providing the same name is an error naming both.
    """


@hookspec
def naqala_tribe_actions() -> Mapping[str, Stage]:
    """The tribe action of each meeple colour this plugin owns, by colour id.

    Called once when the rules are built; each becomes the stage ``tribe:<colour>``, entered
    after a meeple move collects meeples of that colour. Combined like ``naqala_stages``.
    """


@hookspec
def naqala_tile_actions(rules: Rules) -> Mapping[str, Stage]:
    """The action of each tile kind this plugin owns, by kind (``village``, ``oasis``…).

    ``rules`` is optional for an implementation (ask for it only if you need it): its
    content is loaded and indexed, nothing else (the base game registers the tile actions
    content describes whole, ``[[tile_action]] at = "instead"``).

    Called once when the rules are built; each becomes the stage ``tile:<kind>``, entered
    after the tribe action on the tile where the move ended. Combined like ``naqala_stages``.
    """


@hookspec
def naqala_card_powers(rules: Rules) -> Mapping[str, Power]:
    """The power of each card kind this plugin owns, keyed ``<deck>:<kind>`` (a djinn
    ``djinns:kumarbi``, an item ``items:flying-carpet``…; a power in content needs none).

    ``rules`` is optional for an implementation: its content is loaded and indexed,
    nothing else (the base game registers the powers content describes, ``[[power]]``).

    Called once per rules build. The one card router asks the power of every card a
    player holds, following its deck's ``[[deck]]`` policy. Combined: merged; a key offered
    by two plugins is an error naming both, unless one lists it in ``REPLACES``.
    """


@hookspec
def naqala_cost_codes() -> Mapping[str, CostCode]:
    """The cost codes this plugin's cards may name (``cost = "E+(E/F)"``), each a
    ``naqala.core.costs.CostCode``: the payments it allows, in the order offered, and its
    words.

    Called once per rules build, on first use (``Rules.cost_codes``). Combined: merged
    into one table; a code offered by two plugins is an error naming both, unless one
    lists ``cost:<code>`` in ``REPLACES``.
    """


@hookspec
def naqala_check_rules(rules: Rules) -> Iterable[str]:
    """Problems with the meaning of the content this plugin reads (a cost code it does
    not know, a track bidding cannot use, too few meeples for the board…), each a line
    naming the setting or entry. Called once when the rules are built, after every
    registry is filled; any problem stops the build with a ``ContentError`` that names
    this plugin. Combined: concatenated.
    """


@hookspec
def naqala_check_state(rules: Rules, state: State) -> Iterable[Problem]:
    """Problems with the components and rules this plugin adds in ``state`` (its pieces
    all accounted for, its counters in range, its decisions consistent), each a
    ``naqala.core.validate.Problem`` naming the JSON path of the state document.

    Called when a state file is loaded and by ``naqala.testing.invariants``, only once
    the core's own components (meeples, cards, tokens, camels, markers, the decision)
    are sound. Combined: concatenated.
    """


@hookspec
def naqala_flags() -> Iterable[str]:
    """Names of the flags this plugin sets on a state (``State.with_flag``): the base game's
    ``last-camel`` and ``no-moves``. A state whose ``flags`` holds a name no plugin
    declares is refused when loaded (``naqala.core.validate``), and so is a flag given
    twice. Combined: union.
    """


@hookspec
def naqala_player_counters() -> Iterable[str]:
    """Names of the counters this plugin keeps in a player's ``extras`` (the Whims'
    ``whims.claimed``); a name ending in ``*`` stands for every name that begins so (the
    base game's ``round-used:*``, one counter per card). A piece still to place besides
    camels is declared by its own name by the plugin that gives it (the Artisans'
    ``piece.tent``). A state whose ``players[].extras`` holds another name is refused when
    loaded (``naqala.core.validate``). The effects language reads a counter declared by
    its one name (``counter("whims.claimed")``), and never sets it. Combined: union.
    """


@hookspec
def naqala_writable_counters() -> Iterable[str]:
    """Names of this plugin's own counters (declared by ``naqala_player_counters`` or
    ``naqala_state_counters``) that the effects language may ``set``: counters no code of
    the plugin keeps in step with anything, which its content keeps (the Whims'
    ``whims.claimed``, counted up by each whim's power). Combined: union.
    """


@hookspec
def naqala_events() -> Iterable[str]:
    """Names of the events this plugin fires (the Whims' ``whim-taken`` and
    ``whim-claimed``), which the effects language's ``fire`` may fire too: a plugin's
    hooks (``naqala_event``) hear them. The base game's events are the rules' own, fired
    by the rules alone. Combined: union.
    """


@hookspec
def naqala_state_counters() -> Iterable[str]:
    """Names of the counters this plugin keeps in a state's own ``extras`` (the Artisans'
    ``flute.tile``, the solo mode's ``sultan.*``), a name ending in ``*`` standing for
    every name that begins so; the core's ``effects.<card>`` and ``aside.<kind>.<id>``
    need no declaring. A state whose ``extras`` holds another name is refused when loaded
    (``naqala.core.validate``), as a player's are. The effects language reads a counter
    declared by its one name, as the game's. Combined: union.
    """


@hookspec
def naqala_turn_fields() -> Iterable[TurnField[Any]]:
    """The fields this plugin keeps in the turn in progress besides the core's own
    (``naqala.core.turnfields``: ``count_field``, ``text_field``, ``tiles_field``): the
    base game's assassins' ``reach``, ``kills`` and ``target``, the Artisans' tiles
    ``claimed``. Plugin code reads one with ``FIELD.of(turn)`` and sets it with
    ``FIELD.on(turn, value)``; the values live in ``Turn.fields``.

    Called once when the rules are built (``Rules.turn_fields``, read by the state JSON,
    the checks of a state and the native engine's content). Combined: merged
    by name; a name declared by two plugins is refused naming both, unless one lists
    ``turn:<name>`` in ``REPLACES``, and so is one of the core's own (``marker``, ``path``…).
    The state JSON writes every declared field of the rules and reads a missing one as its
    default; a field no plugin of the rules declares is refused when it holds anything.
    """


@hookspec
def naqala_hidden_decks(rules: Rules) -> Iterable[str]:
    """Names of decks whose cards in a player's hand the other players cannot see.

    Called when a view of a state is made for one seat and when a state is determinized
    (``naqala.core.views``): the hidden cards of the other players are shown as a count,
    and a determinization deals them again from the cards that seat has not seen (with
    the deck's draw pile, whose order and contents are always hidden). Combined: union.
    The base game hides resource cards; the Artisans hide items, the Whims whims in hand.
    """


# -- setup ---------------------------------------------------------------------------------


@hookspec(firstresult=True)
def naqala_board_layout(rules: Rules, players: int, rng: Rng) -> tuple[Layout, Rng] | None:
    """Lay out the board for a new game: grid size and which tile lies where.

    Provider: one plugin answers (the base game's answer is the default; two others are
    refused unless one lists the hook in ``REPLACES``) and wrappers change the answer.
    Return the layout and the advanced generator. Impassable tiles and walls are added
    afterwards from ``naqala_impassable_tiles`` and ``naqala_blocked_edges``.
    """


@hookspec
def naqala_impassable_tiles(rules: Rules, layout: Layout) -> Iterable[int]:
    """Tiles no meeple may enter or leave (the chasm, the Great Lake…).

    Called once per new game on the laid-out board. Combined: union.
    """


@hookspec
def naqala_blocked_edges(rules: Rules, layout: Layout) -> Iterable[tuple[int, int]]:
    """Edges between orthogonal neighbours that meeples may not cross (mountains).

    Called once per new game on the laid-out board. Combined: union (pairs are sorted).
    """


@hookspec(firstresult=True)
def naqala_flow(rules: Rules) -> Flow | None:
    """The flow of play: how a game starts and which stage follows a finished one.

    Provider, like ``naqala_board_layout``. A variant that splices a step into the turn
    wraps the flow (``hookimpl(wrapper=True)`` returning a ``WrappedFlow``), so several
    such variants combine.
    """


@hookspec(firstresult=True)
def naqala_new_game(rules: Rules, players: int, seed: int) -> State | None:
    """Build the initial state of a game for ``players`` players from ``seed``.

    Provider, like ``naqala_board_layout``: wrap it to change the setup.
    """


@hookspec
def naqala_adjust_new_game(rules: Rules, state: State) -> State | None:
    """Change a freshly set-up game (give each player a tent, deal a card…); None leaves
    it. Called by the base setup once the state is complete. Combined: folded in
    registration order — keep changes independent of each other.
    """


# -- during play ---------------------------------------------------------------------------


@hookspec
def naqala_extra_options(rules: Rules, state: State) -> Iterable[Action]:
    """Options a player may take at the pending decision besides the stage's own
    (djinn powers, magic items). Called for every decision. Combined: concatenated, then
    sorted canonically by the engine. Each option must lead to a legal completion.
    """


@hookspec(firstresult=True)
def naqala_apply_extra(rules: Rules, state: State, action: Action) -> State | None:
    """Apply an option this plugin offered through ``naqala_extra_options``.

    Provider: return the new state for your own options, None for anybody else's.
    """


@hookspec(firstresult=True)
def naqala_explain(rules: Rules, state: State, action: Action) -> str | None:
    """Why ``action`` — of a kind this plugin offers at times (a card, a power) — is not
    legal now, in words for the person who typed it.

    Called only for an action that is not legal, when the pending stage has nothing to
    say. Provider: the first non-None answer is shown; None lets the engine answer.
    """


@hookspec
def naqala_event(rules: Rules, state: State, event: Event) -> State | None:
    """React to an event (a tile taken, a meeple dropped, a djinn taken, a palace placed,
    a kill…). Return the changed state, or None to leave it.

    Called by the rules that cause the event. Combined: folded — each implementation gets
    the state left by the previous one, in registration order. Keep reactions commutative
    (pay coins, draw a card) so the order does not matter.
    """


@hookspec
def naqala_tile_effects(rules: Rules, state: State, kind: str, at: str) -> Iterable[EffectSpec]:
    """Effects of the effects language (``EffectSpec``: coins, a draw, kills, Fakirs
    discarded) for the player whose turn it is, ``before`` or ``after`` (``at``) the
    action of a tile of kind ``kind``, as a ``[[tile_action]]`` of content says them;
    None or nothing runs nothing. Called where content's tile actions run, after them.
    Combined: concatenated, in registration order, then run. The native engine calls
    it back with a read-only view and runs the effects itself (docs/hooks.md).
    """


@hookspec
def naqala_protected_meeples(rules: Rules, state: State, player: int) -> Iterable[str]:
    """Colour ids of the meeples in front of ``player`` that assassins may not kill
    (Boaz). Called whenever kill targets are listed. Combined: union.
    """


@hookspec
def naqala_game_ends(rules: Rules, state: State) -> bool:
    """Whether the game ends when the current round is over (end triggers).

    Called at the end of every round. Combined: any.
    """


# -- scoring -------------------------------------------------------------------------------


@hookspec
def naqala_score_lines(rules: Rules, state: State, player: int) -> Iterable[ScoreLine]:
    """Score lines for ``player`` (coins, viziers, tiles…). Called for each player whenever
    a score is asked for. Combined: concatenated; a player's score is the sum of the lines.
    """


@hookspec
def naqala_adjust_score_lines(
    rules: Rules, state: State, player: int, lines: tuple[ScoreLine, ...]
) -> Iterable[ScoreLine]:
    """Extra lines that change a category computed by ``naqala_score_lines`` (a djinn
    making palm trees worth more adds a line in the ``palm-trees`` category naming itself).

    Called after all score lines are known. Combined: concatenated to the lines.
    """


@hookspec(firstresult=True)
def naqala_verdict(rules: Rules, state: State) -> Verdict | None:
    """Who won the finished game ``state`` and why, when it is not simply the highest
    score (the solo mode: the player wins by surviving with more viziers than the Sultan).

    Called whenever the winners of a game are asked for (``Rules.winners``, the end
    screen, ``naqala simulate``). One plugin at most implements it (two are refused when
    the rules are built, naming both); None leaves the highest score (ties share the win).
    """


# -- display -------------------------------------------------------------------------------


@hookspec
def naqala_public_notes(rules: Rules, state: State) -> Iterable[str]:
    """Short lines of public information about components this plugin adds that the
    board picture cannot show by itself (which whim lies on which city).

    Called whenever a position is drawn for people. Combined: concatenated in
    registration order.
    """


@hookspec
def naqala_display(rules: Rules, state: State) -> Display | None:
    """How this plugin's components look in a picture of ``state`` (SVG, HTML replay):
    colours and labels of its tile kinds, meeple colours and tokens, the turn-order
    labels, text on tiles (the whim on a city), labelled lines for the side panel, the
    decks whose face-up row is offered as cards, and the name and lines of the area
    beside the board where a non-player's components are set aside.

    Called whenever a position is drawn as a picture. Combined: merged in registration
    order, key by key (a later plugin may restyle an earlier one's component); rows are
    concatenated. A plugin that implements it is trusted to show its public information
    there, so its ``naqala_public_notes`` are not repeated in the picture.
    """


# -- encoding for learning programs ---------------------------------------------------------


@hookspec
def naqala_action_kinds(rules: Rules) -> Iterable[ActionKind]:
    """Every action this plugin's stages, options and card powers can ever offer, as
    ``naqala.core.encoding.ActionKind`` shapes (a kind and a domain per argument), read
    from the content and never from a game in progress.

    Called once when an action codec is built (``naqala.envs.codec``). Combined: shapes
    of the same kind and arity are united argument by argument, then ordered by kind and
    arity, so the codec does not depend on registration order. An action no plugin
    declares cannot be encoded: the codec refuses it, naming it.
    """


@hookspec
def naqala_observation_parts(rules: Rules) -> Iterable[ObservationPart]:
    """Fixed-size numeric parts of a seat's observation for this plugin's components
    (``naqala.core.encoding.ObservationPart``), each read from the seat's view
    (``naqala.core.views.view_for``), so it can hold nothing the seat may not see.

    Called once when an observation encoder is built (``naqala.envs.observation``).
    Combined: concatenated in registration order after the encoder's own parts; two
    parts of the same name are an error naming it.
    """


# -- players ------------------------------------------------------------------------------


@hookspec
def naqala_agents() -> Mapping[str, AgentFactory]:
    """AI players this plugin offers, by name (``coiny``: seated as ``ai:coiny``), each a
    ``naqala.core.agents.AgentFactory``: ``factory(seed, setting)`` makes the agent of
    one seat (``setting`` is what follows a second colon, ``ai:mcts:200``, or ``""``),
    raising ``ValueError`` with a one-line reason for a setting it refuses.

    Called once per rules build, when a seat is first resolved (``Rules.agents``).
    Answered by the game's plugins and by the installed players (entry-point group
    ``naqala.agents``: the shipped ones). Combined: merged into one table; a name offered
    by two is an error naming both, unless one lists ``ai:<name>`` in ``REPLACES``.
    Names are lower case letters, digits and ``-_.``; ``human`` and ``ai`` are seats.
    """


@hookspec
def naqala_metrics() -> Iterable[Metric]:
    """Metrics this plugin offers ``naqala extremes`` (``naqala.core.metrics.Metric``): a
    house rule that makes something new can be searched for its extreme, as
    ``--metric NAME`` when the plugin is in the game.

    Called once per search, after the rules are built (``naqala.lab.extremes.metrics_of``).
    Combined: merged with the shipped metrics (``points-in-a-turn``, ``coins-in-a-turn``,
    ``rounds``) into one table; a name offered twice is an error naming both, unless one
    plugin lists ``metric:<name>`` in ``REPLACES``. A metric
    only reads states, so offering one keeps the game's engine as it was.
    """


# -- engines ------------------------------------------------------------------------------


@hookspec
def naqala_native_support() -> bool:
    """Whether this plugin's hooks are ported: the native engine (``kernel/``) plays every
    rule it provides (stages, powers, setup, flow, events, scoring) step for step as the
    Python code does, and the differential harness (``naqala.native.differential``) plays
    its games with zero differences.

    A claim, checked against who provides each rule (``Rules.provided``): the kernel
    plays a game only when every rule's provider is a plugin module it implements (the
    shipped boxes), so ``True`` from any other plugin changes nothing, and a stage a
    plugin replaces under its own name is never played as the old one. ``False`` or no
    answer keeps any game with this plugin's rules on the Python engine. Hooks that only
    read a state (pictures, notes, words, checks, encodings, commands) need no port and
    no answer: they run in Python on the states they are shown. Called once per rules
    build, when a command asks which engine can play (never during a game). Combined:
    asked of each plugin on its own.
    """


# -- command line --------------------------------------------------------------------------


@hookspec
def naqala_cli(app: Any) -> None:
    """Add subcommands to the ``naqala`` typer app. Called once at program start for every
    installed plugin that loads; a plugin that fails to load never stops the program.
    """
