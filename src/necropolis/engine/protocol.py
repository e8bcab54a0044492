"""The game and state protocol that every necropolis game implements.

The shape follows OpenSpiel's state API with Python names, so that the OpenSpiel and
PettingZoo adapters stay thin. A game is a rules object built from checked options; a
state is one position in a match. Randomness is explicit: every die roll, draw, shuffle
and hidden placement is a chance node whose outcomes the caller picks (a driver samples
them from a seeded generator, a test chooses them), so nothing inside a game ever calls a
random generator of its own. Hidden information leaves a state only through
:meth:`State.view`; bots rebuild a plausible whole state with :meth:`State.resample`. Such a
*determinization* knows how many actions led to it but not which (the true ones would
rebuild what its seat may not see): its history is sealed (see :meth:`State.history`).

A *window* is a moment in which several seats may act at once (a race to claim
something). :meth:`State.acting_seats` lists them; :meth:`State.current_player` still
names one of them, the next in turn order that has not yet passed, which is the
sequential reading that OpenSpiel, PettingZoo and the bots use. Live tables instead
apply claims in the order they arrive; the engine stays deterministic given that order.
"""

from __future__ import annotations

import operator
import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from necropolis.engine import language
from necropolis.engine.balance import MatchFacts, Variant
from necropolis.engine.errors import HiddenHistoryError, IllegalActionError
from necropolis.engine.events import Event
from necropolis.engine.language import ActionInfo, LogEntry, Prompt, SeatScore, Statistic
from necropolis.engine.options import Option, OptionValue, players_option, resolve_options

#: ``current_player()`` at a chance node (same value as OpenSpiel's kChancePlayerId).
CHANCE = -1
#: ``current_player()`` once the match is over (same value as OpenSpiel's kTerminalPlayerId).
TERMINAL = -4

if TYPE_CHECKING:
    from collections.abc import Callable

    from necropolis.engine.seat import SeatWindow

    #: A strategy: an action for the seat behind the window, from what that seat may see.
    Policy = Callable[[SeatWindow, random.Random], int]

View = dict[str, Any]
S = TypeVar("S", bound="State")
#: What a game's narration makes of one event for a log: ``(kind, seat, params)``.
Told = tuple[str, int | None, dict[str, Any]]
#: A figure of a finished match as a game counts it: ``(kind, params, one value per seat)``.
Figure = tuple[str, dict[str, Any], list[int | float]]


class PlayerCount(int):
    """The number of seats, readable both ways: ``game.num_players()`` as OpenSpiel names
    it (the form to use), and ``game.num_players`` as a plain int, the form this project
    used first. The attribute form is deprecated for new code; it stays working because
    much code, and others' code, reads it (an int compares, counts and indexes as one).
    """

    __slots__ = ()

    def __call__(self) -> int:
        return int(self)


class TurnPlanner(Protocol):
    """A game's planner of whole turns, for searches that play worlds a round on.

    It works on a determinized world (a whole state a search drew from a seat's window),
    never on a state in play: it may read everything the world holds, since the world
    holds no more than the searching seat could know.
    """

    def act(self, state: State, rng: random.Random) -> int:
        """The move the deciding seat of ``state`` makes toward its best plan for the turn."""
        ...

    def value(self, state: State, seat: int) -> float:
        """How well ``seat`` stands at ``state``, on the planner's own scale (higher is
        better; only comparisons between positions of one decision are made), counting
        the best the seat can do with the turn it is about to take or is taking."""
        ...

    def worth(self, state: State, seat: int) -> float:
        """How the game's heuristic rates ``state`` as the end of a plan of ``seat``'s
        turn, on its own scale: the measure by which it picks its own move (the plan it
        rates highest is the one it plays), for searches that keep its best plans."""
        ...


class Features(Protocol):
    """A game's description of a position for a learned judgement, read from one seat's
    view (so it can hold nothing that seat may not see).

    :meth:`encode` lists the seats relative to the viewer: the viewer first, then the
    seats after it in seat order. A judgement learned on these numbers
    (:mod:`necropolis.bots.judgement`) answers in the same order: each seat's chance to
    win (and, where :attr:`nobody` is set, the chance that nobody does), and the viewer's
    expected margin over the best other seat, in units of :attr:`margin_scale` points.
    """

    #: Whether a match can end with nobody winning: the judgement then has that outcome too.
    nobody: bool
    #: Points a margin is divided by for learning: about a typical winning margin.
    margin_scale: float

    def size(self, players: int) -> int:
        """The length of :meth:`encode`'s list at ``players`` seats."""
        ...

    def encode(self, view: View) -> list[float]:
        """The numbers describing ``view`` (a seat's, never a spectator's), each of them
        about 0 to 1 in size, the seats relative to the viewer."""
        ...


class Game(ABC):
    """The rules of one game with one set of options; a factory of initial states.

    Subclasses set the class attributes and implement the abstract methods. Options are
    passed as keywords and checked against :meth:`declared_options`.
    """

    #: The id used by ``necropolis.load_game`` and on the command line.
    id: ClassVar[str]
    #: The game's printed title.
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    default_players: ClassVar[int]
    #: Options beyond ``players``.
    extra_options: ClassVar[tuple[Option, ...]] = ()
    #: How much better (in share of the win, 0 to 1) a search's move must look than the
    #: heuristic policy's before the game's search levels play it instead (None: they
    #: trust the search alone). For games whose position estimate a short search can
    #: exploit; see :class:`~necropolis.bots.ismcts.ISMCTSBot`.
    search_anchor: ClassVar[float | None] = None
    #: The iterations of the ``hard`` level's search in this game (None: the level's
    #: default), for a game whose iterations are cheap enough to afford more within the
    #: level's second a decision (``docs/strength.md`` measures the time they take).
    hard_iterations: ClassVar[int | None] = None
    #: How often the ``easy`` and ``medium`` levels play a random legal move instead of
    #: the heuristic's (0 to 1). The rates space the levels: each should beat the one
    #: below in about 65-80% of two-player matches, which a game measures and sets
    #: (``docs/strength.md``, "Levels"); these defaults are a starting point.
    easy_blunder_rate: ClassVar[float] = 1 / 3
    medium_blunder_rate: ClassVar[float] = 0.15
    #: One paragraph for the lobby: what the game is and how it feels to play.
    description: ClassVar[str] = ""
    #: Whether the rules let a player give up their turn (do nothing more in it): a
    #: table with a clock may then skip a seat whose time runs out (see
    #: :meth:`State.skip_action`). False for a game whose every turn must be played.
    skips_turns: ClassVar[bool] = False
    #: The English template of every message kind the game's log entries, prompts, action
    #: descriptors and score parts use (see :mod:`necropolis.engine.language`).
    messages: ClassVar[Mapping[str, str]] = {}

    def __init__(self, **options: Any) -> None:
        self.options: dict[str, OptionValue] = resolve_options(
            self.id, self.declared_options(), options
        )
        #: The number of seats: call it (``num_players()``, as OpenSpiel does); reading it
        #: as an int (``num_players``) is the deprecated form, kept for existing callers.
        self.num_players: PlayerCount = PlayerCount(self.options["players"])

    @classmethod
    def declared_options(cls) -> tuple[Option, ...]:
        """Every option this game accepts, ``players`` first."""
        players = players_option(cls.min_players, cls.max_players, cls.default_players)
        return (players, *cls.extra_options)

    @abstractmethod
    def new_initial_state(self) -> State:
        """The position before setup's first chance event or decision."""

    @abstractmethod
    def num_distinct_actions(self) -> int:
        """An upper bound (exclusive) on the decision action ids."""

    @abstractmethod
    def max_chance_outcomes(self) -> int:
        """An upper bound (exclusive) on the chance action ids."""

    @abstractmethod
    def max_game_length(self) -> int:
        """An upper bound on the number of actions (decisions and chance) in a match."""

    def min_utility(self) -> float:
        """The lowest value :meth:`State.returns` can give a seat."""
        return 0.0

    def max_utility(self) -> float:
        """The highest value :meth:`State.returns` can give a seat."""
        return 1.0

    def observation_size(self) -> int:
        """The length of :meth:`encode_view`'s vectors (the observation tensor)."""
        raise NotImplementedError(f"{self.id} has no observation tensor encoding yet")

    def encode_view(self, view: View) -> list[float]:
        """A fixed-length vector of numbers in [0, 1] encoding ``view``.

        Tensors are computed from views, never from states, so they cannot carry more than
        the view shows. Each game documents its encoding in its rules document.
        """
        raise NotImplementedError(f"{self.id} has no observation tensor encoding yet")

    def heuristic_policy(self) -> Policy | None:
        """The game's hand-written strategy for the heuristic bot (None: it has none).

        It decides from a :class:`~necropolis.engine.seat.SeatWindow`, as every bot does.
        """
        return None

    def level_policy(self) -> Policy | None:
        """The strategy the levels play: easy and medium with a random move now and then,
        hard (an anchored search) unless its search finds a move clearly better
        (:attr:`search_anchor`). The heuristic's, unless the game has tuned a stronger
        one; the heuristic bot keeps :meth:`heuristic_policy`, the fixed reference the
        levels are measured by."""
        return self.heuristic_policy()

    def turn_planner(self) -> TurnPlanner | None:
        """The game's planner of whole turns (None: it has none), for the searches that
        play worlds a round on (:class:`~necropolis.bots.rollout.RolloutBot`,
        :class:`~necropolis.bots.plans.PlanBot`)."""
        return None

    def features(self) -> Features | None:
        """The game's description of a seat's view for a learned judgement (None: it has
        none, and the bots judge by :meth:`State.estimate_returns` alone)."""
        return None

    def board_layout(self) -> dict[str, Any]:
        """The board's fixed geometry, from the game's data file, for drawing it.

        JSON-ready; what it holds is the game's own (documented in its rules document).
        The web table draws the board from it, so a corrected data file redraws it.
        """
        return {}

    def balance_facts(self, state: State) -> MatchFacts:
        """What the finished match ``state`` says for a balance report.

        The default knows no rounds, no early end and no per-seat features; games say
        what a round is, what ending early means, and what distinguishes their seats.
        """
        return MatchFacts(seats=tuple({} for _ in range(self.num_players)))

    @classmethod
    def balance_variants(cls) -> tuple[Variant, ...]:
        """Option sets a balance report compares with the defaults.

        The default: each yes/no option switched from its default, alone (but those that
        only change the display). A report leaves out any variant that sets display-only
        options alone.
        """
        return tuple(
            Variant(f"{option.name}={not option.default}", {option.name: not option.default})
            for option in cls.extra_options
            if option.kind is bool and not option.display_only
        )

    @classmethod
    def components_file(cls) -> str | None:
        """The name of the game's component data file in its package (None: it has none).

        Its text is read with :func:`necropolis.engine.balance.read_components`, so that a
        balance report's "what if" can play the game on a changed copy.
        """
        return None

    def rules_summary(self, language: str = "en") -> str:
        """The game's rules in a few screens of Markdown, in ``language`` where written.

        Read from ``rules.<language>.md`` beside the game's module, else ``rules.en.md``.
        """
        import sys
        from importlib import resources

        # A game's class may live in its package's __init__ (the module is the package)
        # or in a module inside it.
        module = type(self).__module__
        package = module if hasattr(sys.modules[module], "__path__") else module.rsplit(".", 1)[0]
        folder = resources.files(package)
        for name in (f"rules.{language}.md", "rules.en.md"):
            page = folder / name
            if page.is_file():
                return page.read_text(encoding="utf-8")
        return f"# {self.title}\n\nNo rules summary has been written for this game yet.\n"

    def message(self, kind: str, params: Mapping[str, Any], viewer: int | None) -> str:
        """The English text of the message ``kind`` with ``params``, written for ``viewer``."""
        return language.message(self.messages, kind, params, viewer)

    def narrate_event(self, event: Event) -> list[Told]:
        """The log entries (``(kind, seat, params)``) that ``event``, already as a viewer
        may know it (:meth:`Event.seen_by <necropolis.engine.events.Event.seen_by>`), makes
        in that viewer's log: the game's narration. A game whose rules emit no events
        leaves it alone, and its log tells each action by :meth:`State.describe_action`.
        """
        raise NotImplementedError(f"{self.id} narrates no events")

    def narrate_events(self, events: list[Event], actor: int | None) -> list[Told]:
        """The log entries of one action's ``events`` (each already as the viewer may know
        it), ``actor`` the seat that decided it (None: chance): by default each event's
        own (:meth:`narrate_event`), in order. A game whose log groups an action's
        entries otherwise (by what they concern) overrides this instead."""
        return [told for event in events for told in self.narrate_event(event)]

    def statistics(self, events: list[Event]) -> list[Figure]:
        """The telling figures of a finished match, per seat, counted from every event of
        its rules in order (``State.statistics`` gives them with their text). None by
        default: a game whose rules emit no events has none."""
        return []

    def tells_events(self) -> bool:
        """Whether the game's log is its rules' events, narrated by :meth:`narrate_events`."""
        cls = type(self)
        return (
            cls.narrate_event is not Game.narrate_event
            or cls.narrate_events is not Game.narrate_events
        )

    def render_view(self, view: View) -> str:
        """Text for a terminal showing ``view``; games override with a readable board."""
        import json

        return json.dumps(view, indent=2, sort_keys=True)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"load_game({self.id!r}, {opts})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and (self.id, self.options) == (other.id, other.options)

    def __hash__(self) -> int:
        return hash((self.id, tuple(sorted(self.options.items()))))


#: ``object.__new__``, read once: a clone makes a bare instance of its state's class.
_new_bare = object.__new__


class State(ABC):
    """One position of a match. Subclasses keep plain slotted fields and clone by hand."""

    __slots__ = ("_history", "_past", "_sealed", "game", "sink")

    def __init__(self, game: Game) -> None:
        self.game = game
        #: The actions applied, in two parts: ``_past`` (a tuple, never changed, so that
        #: clones share it) then ``_history`` (the latest, appended to). A clone moves the
        #: latest into the past first (see :meth:`_clone_base`), so cloning a state again
        #: and again, as a search does at its root, copies no history at all.
        self._past: tuple[int, ...] = ()
        self._history: list[int] = []
        #: How many actions, applied before ``_past``'s first, this state does not carry:
        #: 0, or for a determinization the move it was sampled at.
        self._sealed = 0
        #: Where the rules append the events of the action being applied
        #: (:mod:`necropolis.engine.events`); None, as in every search, when nobody asked.
        self.sink: list[Event] | None = None

    # --- whose move -------------------------------------------------------------------

    @abstractmethod
    def current_player(self) -> int:
        """A seat ``0..n-1``, :data:`CHANCE` or :data:`TERMINAL`."""

    def acting_seats(self) -> tuple[int, ...]:
        """Every seat that may act now: one seat, or several inside a window."""
        player = self.current_player()
        return (player,) if player >= 0 else ()

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    # --- actions ----------------------------------------------------------------------

    @abstractmethod
    def _legal_actions(self, seat: int) -> list[int]:
        """Sorted legal actions of ``seat``, which is known to be acting now."""

    def legal_actions(self, seat: int | None = None) -> list[int]:
        """Sorted legal actions of ``seat`` (default: the current player).

        Empty at chance and terminal nodes and for a seat that may not act now.
        """
        if seat is None:
            seat = self.current_player()
            if seat < 0:
                return []
        elif seat not in self.acting_seats():
            return []
        return self._legal_actions(seat)

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``[(action, probability)]`` at a chance node, sorted by action; else empty."""

    def chance_kind(self) -> str:
        """What this chance node draws, in the game's words (a die, a card of a named
        deck, a falling block): every node of one kind draws from one stream.

        Duplicate deals (:mod:`necropolis.analysis.duel`) give the k-th node of each kind
        the same random number in every seating of a deal, so that the same die comes
        up and the same card is drawn however the bots play, as far as the game allows.
        A kind tied to one seat (that seat's own die) names the seat, so that one seat
        rolling more often does not shift the others' rolls. One kind for every node by
        default; called only at a chance node.
        """
        return "chance"

    def is_legal(self, action: int) -> bool:
        """Whether :meth:`apply_action` would accept ``action`` now."""
        if self.current_player() == CHANCE:
            return any(a == action for a, _ in self.chance_outcomes())
        return any(action in self._legal_actions(seat) for seat in self.acting_seats())

    def apply_action(self, action: int) -> None:
        """Play ``action``; an illegal one raises :class:`IllegalActionError`, changing nothing."""
        if type(action) is not int:
            action = _whole_number(action)
        if not self.is_legal(action):
            raise IllegalActionError(
                action,
                f"action {action!r} is not legal here"
                + (" (the match is over)" if self.is_terminal() else ""),
            )
        self._apply(action)
        self._history.append(action)

    def apply_events(self, action: int) -> list[Event]:
        """Play ``action`` as :meth:`apply_action` does, and return the events its rules
        emitted on the way (the whole truth: redact each with ``Event.seen_by`` before it
        leaves for a viewer)."""
        sink: list[Event] = []
        self.sink = sink
        try:
            self.apply_action(action)
        finally:
            self.sink = None
        return sink

    def apply_legal_events(self, action: int) -> list[Event]:
        """:meth:`apply_legal_action`, returning the events its rules emitted on the way as
        :meth:`apply_events` does (for the server's chance outcomes, drawn from the state's
        own list)."""
        sink: list[Event] = []
        self.sink = sink
        try:
            self.apply_legal_action(action)
        finally:
            self.sink = None
        return sink

    def apply_legal_action(self, action: int) -> None:
        """Play an action the caller has just taken from this very state's legal actions
        or chance outcomes, without checking it again.

        Search rollouts pick from those lists and would otherwise pay for the check twice;
        everything else uses :meth:`apply_action`. An action from anywhere else may corrupt
        the state.
        """
        self._apply(action)
        self._history.append(action)

    @abstractmethod
    def _apply(self, action: int) -> None:
        """Carry out a legal ``action``."""

    def history(self) -> list[int]:
        """Every action applied since the initial state, chance outcomes included.

        A determinization (a world from :meth:`resample`) has no such list: the true
        actions would rebuild the hidden things its seat may not see, so it does not carry
        them, and it raises :class:`HiddenHistoryError`. Its :meth:`move_number` still
        counts every action, and :meth:`history_since` gives those applied to it since it
        was sampled.
        """
        if self._sealed:
            raise HiddenHistoryError(
                f"this state was resampled at move {self._sealed} and does not carry the "
                "actions that led there (a determinization's past is not its own)"
            )
        return [*self._past, *self._history]

    def history_start(self) -> int:
        """The first move whose action this state carries: 0, or for a determinization the
        move it was sampled at."""
        return self._sealed

    def history_since(self, move: int) -> list[int]:
        """The actions applied from move ``move`` on (not before :meth:`history_start`)."""
        if move < self._sealed:
            raise HiddenHistoryError(
                f"this state was resampled at move {self._sealed}: it has no action {move}"
            )
        skip = move - self._sealed
        past = self._past
        if skip >= len(past):
            return self._history[skip - len(past) :]
        return [*past[skip:], *self._history]

    def move_number(self) -> int:
        """How many actions (decisions and chance outcomes) have been applied."""
        return self._sealed + len(self._past) + len(self._history)

    # --- reveals (what a seat may take back) ----------------------------------------------

    def reveals(self, action: int, after: State | None = None) -> bool:
        """Whether the decision ``action`` (legal now) ends its seat's undoable stretch.

        A seat may take back its own decisions until something is revealed to it, never
        across (Board Game Arena's rule). A decision reveals unless all of these hold: its
        seat was the only one that could act (a race is never taken back: another seat's
        claim depends on it), the match goes on, that same seat alone acts next (so no
        chance outcome and no other seat's decision follows), and the game declares that
        the decision shows its seat nothing hidden (:meth:`_shows_hidden`, which is
        conservative by default). ``after``, if given, is this state with ``action``
        applied (it saves applying it again).
        """
        seat = self.current_player()
        if seat < 0 or self.acting_seats() != (seat,):
            return True
        if after is None:
            after = self.clone()
            after.apply_action(action)
        if after.is_terminal() or after.acting_seats() != (seat,):
            return True
        if after.current_player() != seat:
            return True
        return self._shows_hidden(action)

    def _shows_hidden(self, action: int) -> bool:
        """Whether the decision ``action`` shows its own seat something it did not know.

        Called only for a decision after which the same seat acts alone again. The default
        says yes to every decision (nothing can be taken back); a game overrides it with
        the decisions that look at or draw something hidden. The conformance tests check
        each game's answer: for a decision said to show nothing, every world consistent
        with the seat's view (:meth:`resample`) gives the seat the same view after it.
        """
        return True

    def forfeits(self, action: int) -> bool:
        """Whether the decision ``action`` gives up for good something its seat could still
        use (leaving the game, ending a turn with actions left): a table asks its seat to
        confirm such a decision. None does by default."""
        return False

    def skip_action(self, seat: int) -> int | None:
        """The decision by which ``seat`` lets the rest of its turn go by, doing nothing
        more, where the rules allow it now (ending a turn with actions left, keeping
        one's cards); None where the rules make the seat decide. A table whose seat's
        time runs out plays it for the seat under the rule "skip". None by default."""
        return None

    # --- text -------------------------------------------------------------------------

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """The full text of ``action`` in this state (chance outcomes named plainly)."""

    def describe_action(self, action: int, observer: int | None) -> str:
        """What ``observer`` (a seat, or ``None`` for a spectator) learns of ``action``.

        Called before the action is applied. The default hides every chance outcome;
        games override it to say what is public (a die roll) or private to one seat.
        """
        if self.current_player() == CHANCE:
            return "a hidden chance event"
        return self.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        """The action whose :meth:`action_to_string` is ``text`` (case and spaces ignored)."""
        wanted = _normalise(text)
        if self.current_player() == CHANCE:
            candidates = [a for a, _ in self.chance_outcomes()]
        else:
            candidates = sorted({a for s in self.acting_seats() for a in self._legal_actions(s)})
        for action in candidates:
            if _normalise(self.action_to_string(action)) == wanted:
                return action
        raise IllegalActionError(-1, f"no legal action reads {text!r}")

    def rollout_action(self, rng: random.Random) -> int:
        """A cheap default-policy move for search rollouts on a determinized state.

        Uniformly random by default (chance nodes sampled by their probabilities); a game
        may override it with something smarter that stays fast.
        """
        if self.current_player() == CHANCE:
            return sample_chance(self, rng)
        actions = self.legal_actions()
        return actions[rng.randrange(len(actions))]

    # --- the table language -----------------------------------------------------------

    def narrate(self, before: State, action: int, viewer: int | None) -> list[LogEntry]:
        """The log entries that ``action``, applied to ``before`` to give this state, makes
        for ``viewer`` (a seat, or None for a spectator): one per event, each only as much
        as ``viewer`` may know.

        A game whose rules emit events (:meth:`Game.tells_events`) replays ``action`` on a
        copy of ``before`` to collect them and narrates each as ``viewer`` may know it;
        otherwise the entry is one per action, from :meth:`describe_action`.
        """
        if self.game.tells_events():
            index, actor = before.move_number(), before.current_player()
            return self.narrate_events(index, self.happened(before, action), viewer, actor)
        seat = before.current_player()
        kind = "chance" if seat == CHANCE else "action"
        params = {"description": before.describe_action(action, viewer)}
        return [self.entry(before.move_number(), kind, seat if seat >= 0 else None, params, viewer)]

    def happened(self, before: State, action: int) -> list[Event]:
        """The events ``action``, applied to ``before`` to give this state, made: replayed
        on a copy of ``before`` (none for a game whose rules emit none)."""
        return before.clone().apply_events(action) if self.game.tells_events() else []

    def told(
        self,
        before: State,
        action: int,
        viewers: Sequence[int | None],
        events: list[Event] | None = None,
    ) -> tuple[list[Event], dict[int | None, list[LogEntry]]]:
        """What ``action`` (applied to ``before``, giving this state) made, worked out
        once for several viewers: its events (the whole truth; none for a game whose
        rules emit none) and each viewer's log entries (:meth:`narrate`'s). ``events``:
        those :meth:`apply_events` returned as it made this state, if the caller has them
        (else the action is played again on a copy of ``before`` to collect them)."""
        if not self.game.tells_events():
            return [], {viewer: self.narrate(before, action, viewer) for viewer in viewers}
        if events is None:
            events = before.clone().apply_events(action)
        index, actor = before.move_number(), before.current_player()
        return events, {
            viewer: self.narrate_events(index, events, viewer, actor) for viewer in viewers
        }

    def narrate_events(
        self, index: int, events: list[Event], viewer: int | None, actor: int
    ) -> list[LogEntry]:
        """The log entries of ``events`` (the whole truth of action ``index``, which
        ``actor`` took: a seat, or :data:`CHANCE`) for ``viewer``: each event redacted for
        it (:meth:`Event.seen_by`), then narrated by the game."""
        seen = [e for e in (event.seen_by(viewer) for event in events) if e is not None]
        told = self.game.narrate_events(seen, actor if actor >= 0 else None)
        return [self.entry(index, kind, seat, params, viewer) for kind, seat, params in told]

    def entry(
        self, index: int, kind: str, seat: int | None, params: dict[str, Any], viewer: int | None
    ) -> LogEntry:
        """A log entry with its English text (``seat`` is the acting seat, or None)."""
        text = self.game.message(kind, {"seat": seat, **params}, viewer)
        return {"index": index, "kind": kind, "seat": seat, "params": params, "text": text}

    def log(self, seat: int | None) -> list[LogEntry]:
        """The match so far as ``seat`` may know it (None: a spectator), event by event.

        Computed on demand by replaying the history, so that playouts never pay for it;
        a live table narrates each new action once with :meth:`narrate` instead. A
        determinization has no history to replay and raises :class:`HiddenHistoryError`.
        """
        history = self.history()
        state = self.game.new_initial_state()
        entries: list[LogEntry] = []
        if self.game.tells_events():
            for action in history:
                index, actor = state.move_number(), state.current_player()
                entries.extend(state.narrate_events(index, state.apply_events(action), seat, actor))
            return entries
        for action in history:
            before = state.clone()
            state.apply_action(action)
            entries.extend(state.narrate(before, action, seat))
        return entries

    def statistics(self) -> list[Statistic]:
        """The figures of the match, one value per seat (pairs made, wounds taken), once it
        is over (empty before): counted by the game (:meth:`Game.statistics`) from every
        event of the match, replayed from its history. A finished match hides nothing, so
        every viewer is told the same figures."""
        if not self.is_terminal() or not self.game.tells_events():
            return []
        state = self.game.new_initial_state()
        events: list[Event] = []
        for action in self.history():
            events.extend(state.apply_events(action))
        return [
            {
                "kind": kind,
                "params": params,
                "text": self.game.message(kind, params, None),
                "values": values,
            }
            for kind, params, values in self.game.statistics(events)
        ]

    def prompt(self, seat: int | None) -> Prompt | None:
        """What ``seat`` is asked now, and why; None when it is asked nothing."""
        if seat is None or seat not in self.acting_seats():
            return None
        kind = "choose_action"
        return {"kind": kind, "params": {}, "text": self.game.message(kind, {}, seat)}

    def action_info(self, action: int) -> ActionInfo:
        """The descriptor of a legal decision: its kind, parameters and board targets.

        Called only for an action legal now, for the seat that may take it (the only one
        it is shown to), so it may say what that seat knows of the consequence.
        """
        params = {"description": self.action_to_string(action)}
        seat = self.current_player()
        text = self.game.message("do", params, seat if seat >= 0 else None)
        return {"action": action, "kind": "do", "params": params, "targets": [], "text": text}

    def score_breakdown(self, viewer: int | None = None) -> list[SeatScore]:
        """Per seat, named parts that add up exactly to its score, as ``viewer`` may know it.

        During play, what is public, and in ``viewer``'s own row also what that seat may
        see of its own hidden values (``None``, a spectator: only what is public); never
        anything of another seat's hidden values, even one ``viewer`` has seen. Everything
        once the match is over, when each ``total`` equals :meth:`scores` for every viewer.
        The default is a single part per seat, for games whose scores are public.
        """
        scores = self.scores()
        return [
            {
                "seat": seat,
                "parts": [
                    {
                        "kind": "score",
                        "params": {"points": points},
                        "points": points,
                        "text": self.game.message("score", {"points": points}, seat),
                    }
                ],
                "total": points,
                "tiebreak": [],
            }
            for seat, points in enumerate(scores)
        ]

    # --- outcome ----------------------------------------------------------------------

    @abstractmethod
    def returns(self) -> list[float]:
        """Per-seat utility: winners share 1 (1/k each for k tied winners), others 0.

        All zeros before the end, and at the end of a match that nobody wins.
        """

    def estimate_returns(self) -> list[float]:
        """A guess at :meth:`returns` from a position that is not over yet.

        Searches that cut their rollouts short evaluate the position with it. The default
        treats the current scores as final (the leaders share the win, and an all-even
        table shares it evenly); a game overrides it with something that knows its play.
        At a terminal state it is :meth:`returns`.
        """
        if self.is_terminal():
            return self.returns()
        return winners_share(self.scores())

    def scores(self) -> list[float]:
        """Per-seat score as the game counts it (defaults to :meth:`returns`)."""
        return self.returns()

    # --- copies and views -------------------------------------------------------------

    @abstractmethod
    def clone(self: S) -> S:
        """An independent copy; implementations copy fields by hand, never deepcopy."""

    def __deepcopy__(self: S, memo: dict[int, Any]) -> S:
        # copy.deepcopy (which pyspiel's Clone of a Python state uses) gets the fast clone.
        return self.clone()

    def _clone_base(self: S) -> S:
        """A new bare instance with the protocol's own fields copied, for :meth:`clone`.

        The actions are shared, not copied: the latest move into the past first (the
        same actions, so this state is unchanged), which both then hold. A game's
        :meth:`_resample` may start from a clone at no cost for a long history, since
        :meth:`resample` drops the actions of the world it builds.
        """
        new = _new_bare(type(self))
        new.game = self.game
        latest = self._history
        if latest:
            self._past += tuple(latest)
            latest.clear()
        new._past = self._past
        new._history = []
        new._sealed = self._sealed
        new.sink = None
        return new

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """A JSON-ready dict of everything ``seat`` may see (``None``: a spectator)."""

    def resample(self: S, seat: int, rng: random.Random) -> S:
        """A determinization: a whole state consistent with ``seat``'s view, its hidden
        parts drawn by ``rng`` (the game's :meth:`_resample`).

        Nothing reachable from it depends on more than the seat's information and ``rng``:
        its history is sealed at this move (:meth:`history` raises, :meth:`move_number`
        goes on counting), since the true history would rebuild the true hidden things.
        """
        world = self._resample(seat, rng)
        world._sealed = self.move_number()
        world._past = ()
        world._history = []
        return world

    @abstractmethod
    def _resample(self: S, seat: int, rng: random.Random) -> S:
        """A new state whose ``view(seat)`` equals this one's, every hidden part redrawn
        by ``rng``: its fields must depend on the seat's view and ``rng`` alone (in
        particular, an order drawn from must never depend on a hidden value). The kernel
        seals the copy's history afterwards."""

    def __str__(self) -> str:
        import json

        return json.dumps(self.view(None), sort_keys=True)


class ChanceNode(Protocol):
    """Anything with chance outcomes: our states, and OpenSpiel's in the benchmark."""

    def chance_outcomes(self) -> list[tuple[int, float]]: ...


def sample_chance(node: ChanceNode, rng: random.Random) -> int:
    """One outcome of the chance node ``node``, drawn with its probability."""
    outcomes = node.chance_outcomes()
    r = rng.random()
    total = 0.0
    for action, probability in outcomes:
        total += probability
        if r < total:
            return action
    return outcomes[-1][0]  # rounding left r above the running total


def _whole_number(action: object) -> int:
    """``action`` as a plain int if it is a whole number of any integral type (a NumPy
    integer from a research loop, say); a bool, float or anything else is refused."""
    if not isinstance(action, bool):
        try:
            return operator.index(action)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise IllegalActionError(-1, f"an action is a whole number, not {action!r}")


def _normalise(text: str) -> str:
    return " ".join(text.lower().split())


def winners_share(scores: Sequence[float], tiebreak: Sequence[Any] | None = None) -> list[float]:
    """Returns for a finished match: the best score (then tiebreak) wins; ties share 1."""
    keys = [(s, tiebreak[i] if tiebreak is not None else 0) for i, s in enumerate(scores)]
    best = max(keys)
    winners = [i for i, k in enumerate(keys) if k == best]
    share = 1.0 / len(winners)
    return [share if i in winners else 0.0 for i in range(len(scores))]


def options_summary(options: Mapping[str, OptionValue]) -> str:
    """``players=3, curse=True`` for messages and headers."""
    return ", ".join(f"{k}={v}" for k, v in options.items())
