"""The game as every layer sees it: the attributes and operations of a game, declared once.

Each layer of the interpreter programs against :class:`GameAPI` and never imports the layers above it: an effect
that makes a Unit lose Soldiers calls ``game.suffer`` (phases/casualties.py) through this declaration, and a
mechanism that draws a card fires its triggers through ``game.fire`` (effects/events.py). The concrete
:class:`~ddaydice.interpreter.game.Game` is assembled from one part per layer (``interpreter/game/``), each of
which implements some of these operations. Policies and tools read a game through the same declaration
(``GameView``).
"""

from __future__ import annotations

import abc
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeAlias

from mypy_extensions import mypyc_attr, trait

from ddaydice.dsl.compile import EffectContext, EffectSource, ModifierHook, UseHook
from ddaydice.dsl.loader import Content
from ddaydice.dsl.schema import BattleMap, Sector, SideDef, Variant
from ddaydice.dsl.vocab import QueryInfo
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.core.inplay import InPlay, Modifier, RulesIndex, SectorIndex, SectorsIndex, Use
from ddaydice.interpreter.core.option_rules import OptionRules
from ddaydice.interpreter.core.precedence import Derivation
from ddaydice.interpreter.core.state import Die, GameState, Unit
from ddaydice.interpreter.core.values import MAX_TURNS, FixedMove, HookKind, Move, OpenRoll, Pending


class Decider(Protocol):
    """Answers a decision with the indices of the options it picks."""

    def decide(self, game: GameAPI, decision: Decision) -> tuple[int, ...]: ...


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class KeysDecider:
    """A decider that answers from the options' keys alone, no Decision built (a fixed policy, as the reference
    policy): the engine's fast protocol (``Kernel.pick``), which a compiled engine calls natively. A decider of
    one's own need not derive from it: a ``decide_keys`` method of the same signature is called through
    :class:`KeysMethod`."""

    @abc.abstractmethod
    def decide_keys(self, game: GameAPI, unit: str, kind: str, keys: tuple[Any, ...], min_picks: int
                    ) -> tuple[int, ...]: ...


class KeysMethod(KeysDecider):
    """The ``decide_keys`` method of a decider that is not a :class:`KeysDecider`, as one."""

    def __init__(self, method: Callable[..., tuple[int, ...]]) -> None:
        self.method = method

    def decide_keys(self, game: GameAPI, unit: str, kind: str, keys: tuple[Any, ...], min_picks: int
                    ) -> tuple[int, ...]:
        return self.method(game, unit, kind, keys, min_picks)


class Watcher(Protocol):
    """What a tool sees of a game at its moments: ``dday simulate --check-invariants`` checks the rules after each
    phase (tools/invariants.py), ``dday compare`` gives the forced cards once the starts are chosen
    (tools/forced.py), tests/test_index.py checks each read of the index of the effects in play. A game calls each
    of its watchers' methods at that moment (``suffering``, ``moving``, ``at_point`` and ``granted`` before the
    engine acts); a game with no watcher calls nothing. A watcher extends core/watching.py's ``Watching`` (every
    moment doing nothing) and writes the moments it needs. Tools extend a game this way, never by overriding its
    methods, which a compiled engine (compiled.txt) would not call."""

    def starts_chosen(self, game: GameAPI) -> None: ...

    def phase_begins(self, game: GameAPI, phase: str) -> None: ...

    def phase_ends(self, game: GameAPI, phase: str) -> None: ...

    def game_ends(self, game: GameAPI) -> None: ...

    def at_point(self, game: GameAPI, unit: Unit, point: str) -> None: ...

    def moving(self, game: GameAPI, unit: Unit, move: Move) -> None: ...

    def suffering(self, game: GameAPI, unit: Unit, amount: int, cause: str) -> None: ...

    def granted(self, game: GameAPI, unit: Unit, card: str, source: EffectSource) -> None: ...

    def index_read(self, game: GameAPI, index: InPlay) -> None: ...


@trait
@mypyc_attr(allow_interpreted_subclasses=True)
class GameAPI:
    """A game: its content and plan, its state, and the operations the layers offer each other."""

    # ------------------------------------------------------------ the game
    content: Content
    state: GameState
    rng: random.Random
    tracing: bool
    deciders: list[Decider]
    #: When a list (a scenario sets it), each question not asked because it had a single legal option is noted
    #: here as (player, kind, prompt, option), so a scripted answer left for it can be explained.
    unasked: list[tuple[str, str, str, str]] | None
    #: When set, (turn, phase): the turn raises ``Paused`` at the end of that phase of that turn (after the end of the
    #: turn for its last phase), leaving the game there (tools/capture.py).
    pause_after: tuple[int, str] | None
    #: The tools' watchers of this game (``Watcher``), called at their moments; empty for a plain game.
    watchers: tuple[Watcher, ...]
    #: Cards a tool puts into this game that its set-up would not (tools/forced.py): counted among the cards that
    #: can come into play while the plan is worked out.
    extra_cards: frozenset[str]
    # ------------------------------------------------------------ the plan (shared by the games of a simulation)
    map: BattleMap
    variant: Variant | None
    options: list[str]
    option_rules: OptionRules
    ignore: set[str]
    keep_faces: set[str] | None
    sectors: dict[str, Sector]
    tier_index: dict[str, int]
    queries: Mapping[str, QueryInfo]
    moves: dict[str, list[tuple[str, str, int, bool, bool]]]
    courage_to_bunker: dict[str, int]
    move_rank: dict[str, tuple[int, int]]
    front_row: frozenset[str]
    next_to_bunker: frozenset[str]
    side_defs: dict[str, SideDef]
    global_sources: list[EffectSource]
    rwb_sources: dict[str, EffectSource]
    side_rwb: dict[str, dict[str, EffectSource]]
    side_sources: dict[str, list[EffectSource]]
    rwb_faces: dict[str, str]
    live_queries: frozenset[str]
    own_prices: dict[str, EffectSource]  # cards whose effect says their own price while they wait (game/plan.py)
    live_events: frozenset[str]
    until_events: frozenset[str]  # events that end a modifier granted 'until EVENT' (game/plan.py)
    live_windows: frozenset[tuple[str, str]]
    live_points: frozenset[str]
    static_flags: dict[str, bool]
    static_values: dict[str, int]
    defaults: dict[str, int]  # a permission's as a bool, read by its truth (core/precedence.py)
    _faces: list[str]
    _face_set: frozenset[str]
    # Per RWB table (a Unit's: "", another side's: its id): the Skulls' RWB, and the others with the (face, colour)
    # pairs each needs free in the Final Tally (filled as asked, shared by the games of the plan).
    _rwb_plan: dict[str, tuple[str, tuple[tuple[str, frozenset[tuple[str | None, str]]], ...]]]
    _layout: list[tuple[int, str]]
    _role: dict[str, str]
    _kind_side: dict[str, str]
    _soldier_faces: dict[str, int]
    _side_layout: dict[str, list[tuple[int, str]]]
    _setup_tpl: dict[str, Any]
    _fixed_moves: dict[str, list[FixedMove]] | None
    _fixed_capacity: int
    move_queries: frozenset[str]
    _req_cache: dict[tuple[str, int], list[tuple[str | int, ...]]]
    _point_uses: dict[tuple[str, str], tuple[tuple[int, UseHook], ...]]
    _sector_index: dict[tuple[str, tuple[str, ...], tuple[int, ...]], SectorIndex]
    # Every Sector's part at once, by the Sectors' attributes (effects/sources.py ``_sectors_part``)
    _sectors_index: dict[tuple[object, ...], SectorsIndex]
    _rules_index: list[RulesIndex]  # the rules' part of the index, once worked out (effects/sources.py)
    _rule_uses: dict[str, list[Use]]  # the rules' uses at each moment of the turn (effects/uses.py)
    printed_costs: dict[str, int]  # each card's printed cost (0: none), for the cost queries' base
    kind_of: dict[str, str]  # each card's kind (content.card_kinds, as a dict)
    effect_of: dict[str, EffectSource]  # each owner's effect (content.effects, as a dict: read natively)
    query_minimum: dict[str, int | None]  # each query's least value (None: no clamp)
    printed_def: dict[str, tuple[int, ...]]  # each Sector's printed DEF (one per turn there, the last repeated)
    printed_mgf: dict[str, int]  # each Sector's printed MGF symbols
    _side_mods: dict[str, dict[str, list[tuple[EffectSource, int, ModifierHook]]]]
    # ------------------------------------------------------------ the turn's working values
    pending_casualties: int
    pending: list[Pending]  # the pending events whose triggers are running, innermost last (effects/events.py)
    open_roll: OpenRoll | None  # a roll offered at use point 'after-roll' (effects/uses.py after_roll)
    drawing: str | None
    use_at: str | None  # the use point whose uses a player is being offered (effects/uses.py use_point), for policies
    _losing: str | None
    _decoy: str | None
    _face_worth: dict[str, tuple[str, int]]  # what each face of a Final Tally is worth (filled once per plan)
    # ------------------------------------------------------------ the effects in play (effects/sources.py)
    epoch: int
    _index: InPlay | None
    #: A watched game's index of the effects in play, kept here and not in ``_index`` (which stays None), so that
    #: each read of it reaches the watchers (effects/sources.py ``_read_index``); None in a game with no watcher.
    _watched_index: InPlay | None
    _decider_of: dict[str, Decider]
    _fast_of: dict[str, KeysDecider | None]

    @abc.abstractmethod
    def d6(self) -> int: ...

    @abc.abstractmethod
    def roll_with_edge(self, count: int, edge: int, *, lower_is_better: bool = True) -> list[int]: ...

    @abc.abstractmethod
    def log(self, kind: str, detail: str, unit: Unit | None = None, source: str = "", tier: str = "",
            **data: Any) -> None: ...

    @abc.abstractmethod
    def ask(self, unit: Unit, decision: Decision) -> tuple[int, ...]: ...

    @abc.abstractmethod
    def ask_one(self, unit: Unit, kind: str, prompt: str, options: Sequence[str], keys: Sequence[Any] = (),
                topic: str = "", detail: Any = None) -> int: ...

    @abc.abstractmethod
    def ask_keys(self, unit: Unit, kind: str, prompt: str | Callable[[], str], keys: Sequence[Any],
                 labeler: Callable[[Any], str], detail: Any = None) -> int: ...

    @abc.abstractmethod
    def pick(self, unit: Unit, kind: str, prompt: str | Callable[[], str], keys: tuple[Any, ...], min_picks: int,
             max_picks: int, labeler: Callable[[Any], str], detail: Any = None) -> tuple[int, ...]: ...

    @abc.abstractmethod
    def _unavailable(self, card: str) -> bool: ...

    @abc.abstractmethod
    def _number(self, sector: str) -> int: ...

    @abc.abstractmethod
    def _setup_template(self) -> dict[str, Any]: ...

    @abc.abstractmethod
    def choose_starts(self) -> None: ...

    @abc.abstractmethod
    def context(self, unit: Unit | None, owner: Unit | None, source: EffectSource, sector: str | None,
                card: str | None = None) -> EffectContext: ...

    @abc.abstractmethod
    def _sector_sources(self, sector: str) -> list[EffectSource]: ...

    @abc.abstractmethod
    def held_cards(self, u: Unit) -> list[str]: ...

    @abc.abstractmethod
    def _tier(self, src: EffectSource) -> int: ...

    @abc.abstractmethod
    def _scoped(self, owner: Unit | None, scope: str | None, unit: Unit | None, sector: str | None,
                sector_subject: bool) -> bool: ...

    @abc.abstractmethod
    def touched(self, name: str, sector: str | None) -> bool: ...

    @abc.abstractmethod
    def _candidates(self, name: str, sector: str | None, unit: Unit | None = None) -> list[Modifier]: ...

    @abc.abstractmethod
    def sources_changed(self) -> None: ...

    @abc.abstractmethod
    def in_play(self) -> InPlay: ...

    @abc.abstractmethod
    def _limit_key(self, owner: str, hook: HookKind, index: int, limit: str) -> str: ...

    @abc.abstractmethod
    def _limit_count(self, served: Unit | None, holder: Unit | None, owner: str, hook: HookKind, index: int,
                     limit: str, sector: str | None = None) -> tuple[Unit | None, str]: ...

    @abc.abstractmethod
    def hand_over(self, giver: Unit, taker: Unit, card: str) -> None: ...

    @abc.abstractmethod
    def _limit_left(self, counter: Unit, key: str, holder: Unit | None, owner: str, limit: str) -> int: ...

    @abc.abstractmethod
    def _limit_used(self, unit: Unit, holder: Unit, owner: str, index: int, limit: str) -> bool: ...

    @abc.abstractmethod
    def _holder_of(self, unit: Unit, card: str) -> Unit: ...

    @abc.abstractmethod
    def _name_of(self, owner: str) -> str: ...

    @abc.abstractmethod
    def query(self, name: str, unit: Unit | None, *, sector: str | None = None, card: str | None = None,
              base: int | None = None, explain: bool = False, consume: bool = False,
              clamp: bool = True) -> tuple[int, Derivation | None]: ...

    @abc.abstractmethod
    def value(self, name: str, unit: Unit | None, sector: str | None = None, card: str | None = None,
              base: int | None = None) -> int: ...

    @abc.abstractmethod
    def card_values(self, name: str, unit: Unit, cards: list[str]) -> list[int]: ...

    @abc.abstractmethod
    def flag(self, name: str, unit: Unit | None, sector: str | None = None, card: str | None = None,
             use: bool = False) -> bool: ...

    @abc.abstractmethod
    def used_up(self, name: str, unit: Unit, card: str | None = None) -> list[str]: ...

    @abc.abstractmethod
    def _base(self, name: str, unit: Unit | None, sector: str | None, card: str | None, label: bool = True
              ) -> tuple[int, str]: ...

    @abc.abstractmethod
    def fire(self, event: str, unit: Unit, *, sector: str | None = None, only: EffectSource | None = None,
             sector_only: bool = False, owners: frozenset[str] | None = None, heard_once: bool = False,
             rules_heard: bool = False) -> None: ...

    @abc.abstractmethod
    def fire_moment(self, event: str) -> None: ...

    @abc.abstractmethod
    def would(self, event: str, unit: Unit, left: Callable[[], bool] | None = None) -> bool: ...

    @abc.abstractmethod
    def available_uses(self, unit: Unit, point: str) -> list[tuple[EffectSource, int, UseHook, str]]: ...

    @abc.abstractmethod
    def use_point(self, unit: Unit, point: str) -> None: ...

    @abc.abstractmethod
    def after_roll(self, unit: Unit, name: str, dice: list[int]) -> list[int]: ...

    @abc.abstractmethod
    def perform_use(self, unit: Unit, src: EffectSource, index: int, hook: UseHook, card: str) -> None: ...

    @abc.abstractmethod
    def run(self, max_turns: int = MAX_TURNS) -> str: ...

    @abc.abstractmethod
    def run_turn(self) -> None: ...

    @abc.abstractmethod
    def begin_turn(self) -> None: ...

    @abc.abstractmethod
    def run_phase(self, phase: str) -> None: ...

    @abc.abstractmethod
    def players(self) -> list[Unit]: ...

    @abc.abstractmethod
    def side_players(self) -> list[Unit]: ...

    @abc.abstractmethod
    def order(self) -> list[Unit]: ...

    @abc.abstractmethod
    def acting(self) -> list[Unit]: ...

    @abc.abstractmethod
    def end_of_turn(self) -> None: ...

    @abc.abstractmethod
    def end(self, outcome: str, reason: str) -> None: ...

    @abc.abstractmethod
    def _continue_after_loss(self) -> bool: ...

    @abc.abstractmethod
    def phase_roll(self) -> None: ...

    @abc.abstractmethod
    def counts_face(self, face: str) -> bool: ...

    @abc.abstractmethod
    def phase_upkeep(self) -> None: ...

    @abc.abstractmethod
    def skulls_cancel(self, unit: Unit, *, use: bool = False) -> bool: ...

    @abc.abstractmethod
    def _cancel(self, unit: Unit, exclude: list[Die]) -> None: ...

    @abc.abstractmethod
    def phase_purchase(self) -> None: ...

    @abc.abstractmethod
    def recruitable(self, unit: Unit) -> list[tuple[str, int]]: ...

    @abc.abstractmethod
    def findable(self, unit: Unit, *, free: bool = False) -> list[tuple[str, int]]: ...

    @abc.abstractmethod
    def _side_kind(self, unit: Unit, role: str) -> str: ...

    @abc.abstractmethod
    def buy(self, unit: Unit, kind: str, card: str) -> bool: ...

    @abc.abstractmethod
    def gain_card(self, unit: Unit, card: str) -> None: ...

    @abc.abstractmethod
    def _came_into_play(self, unit: Unit, card: str) -> None: ...

    @abc.abstractmethod
    def abandon_vehicle(self, unit: Unit) -> None: ...

    @abc.abstractmethod
    def trade(self, unit: Unit) -> None: ...

    @abc.abstractmethod
    def phase_movement(self) -> None: ...

    @abc.abstractmethod
    def legal_moves(self, unit: Unit) -> list[Move]: ...

    @abc.abstractmethod
    def explain_entry(self, unit: Unit, to: str) -> tuple[bool, Derivation]: ...

    @abc.abstractmethod
    def _requirements(self, sector: str) -> list[tuple[str | int, ...]]: ...

    @abc.abstractmethod
    def do_move(self, unit: Unit, move: Move) -> None: ...

    @abc.abstractmethod
    def landmines(self, unit: Unit) -> None: ...

    @abc.abstractmethod
    def phase_combat(self) -> None: ...

    @abc.abstractmethod
    def soldier_count(self, unit: Unit) -> int: ...

    @abc.abstractmethod
    def suffer(self, unit: Unit, amount: int, cause: str) -> int: ...

    @abc.abstractmethod
    def lose_specialist(self, unit: Unit, spec: str, *, forced: bool, casualty: bool = False) -> None: ...

    @abc.abstractmethod
    def sacrifice_choice(self, unit: Unit, prompt: str) -> None: ...

    @abc.abstractmethod
    def wipe_out(self, unit: Unit, why: str) -> None: ...


GameView: TypeAlias = GameAPI
"""What policies and tools read of a game (the same declaration)."""
