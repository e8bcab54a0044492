"""Information-set Monte Carlo tree search (single-observer IS-MCTS) over a seat's window.

The bot builds one tree for the seat that must decide, and never looks at the true state:
every iteration draws a determinization with :meth:`SeatWindow.resample` (a whole state
consistent with what the seat can see), walks the tree in that world, and plays the world
out with the game's cheap :meth:`State.rollout_action`. Because each world may allow
different moves, selection uses UCB restricted to the actions legal in the current world,
with each edge's exploration term counted over the selections in which it was available
(its *availability*), not over its parent's visits. Nodes are keyed by the sequence of
events from the root decision: a decision by ``seat * num_distinct_actions + action``,
a chance event by what the searching seat would be told of it
(:meth:`State.describe_action`), so that a public die roll branches the tree while an
opponent's hidden draw does not (the searcher cannot tell those worlds apart, and a tree
that branched on them would let its own later choices depend on secrets). Every node
records the seat that moved into it and the returns that seat obtained, so several
players are handled by each maximizing its own share of the win. The budget is a number
of iterations, a number of seconds, or both (whichever ends first).

Rollouts may be cut short: with a ``cutoff`` of D, a rollout stops after D actions
(chance included) and backs up the game's :meth:`State.estimate_returns` of the position
it reached instead of the true returns. Long games (hundreds of actions) spend nearly all
of an iteration in the rollout, so a cutoff buys several times more iterations per second,
at the price of trusting the game's estimate. Without a cutoff every rollout runs to the
end, as before. A search may judge its cut-off leaves by a learned judgement instead
(:mod:`necropolis.bots.judgement`): each seat's chance to win as the searching seat
judges it from its own view of the world the iteration drew, which holds nothing that
seat may not know.

A search may be anchored to the game's heuristic policy (:meth:`Game.level_policy`: a
stronger tuning of it where the game has one): the bot asks the policy for its
move as well, and plays the search's choice only if that choice's mean return beats the
policy move's by at least ``anchor`` (and the policy move was searched at all); otherwise
it plays the policy's move. Where a game's estimate has blind spots that a short search
walks into (it cannot see the consequences of a move that only show many actions later),
the anchor keeps the bot at least as good as the heuristic while the search still
corrects the moves it can see clearly wrong.

Every iteration draws a fresh determinization. Reusing one world for several iterations
was considered and rejected: resampling costs 6–46 µs in the bundled games, a small part
of an iteration even with a short cutoff, while reuse would correlate consecutive
iterations (a run of them would all see the same hidden cards) for almost no gain.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from necropolis.engine.driver import sample_chance
from necropolis.engine.protocol import CHANCE, TERMINAL, State
from necropolis.engine.seat import SeatWindow

if TYPE_CHECKING:
    from necropolis.bots.judgement import LearnedEvaluator

#: The UCB exploration constant. Returns lie in [0, 1] (a win is 1, shared wins split it),
#: a scale on which 0.7 is the usual choice for IS-MCTS.
DEFAULT_EXPLORATION = 0.7


class _Node:
    """One tree node: the edge into it (who moved, how it did) and the edges out of it."""

    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        # Keys: decisions as seat * num_distinct_actions + action (ints), chance events as
        # the searcher's description of them (strs); both kinds can hang off one node when
        # worlds disagree on whether chance or a seat moves next.
        self.children: dict[int | str, _Node] = {}
        self.mover = mover  # the seat whose decision led here; CHANCE for chance edges
        self.visits = 0
        self.total = 0.0  # sum of the mover's returns over the visits
        self.available = 0  # selections at the parent in which this edge was legal


class SearchStats:
    """What the last search did: iterations, time, and the root's visit counts."""

    __slots__ = ("anchored", "iterations", "policy_action", "root_values", "root_visits", "seconds")

    def __init__(self) -> None:
        self.iterations = 0
        self.seconds = 0.0
        self.root_visits: dict[int, int] = {}
        self.root_values: dict[int, float] = {}
        #: The heuristic policy's move (anchored searches only; else -1), and whether the
        #: bot played it over the search's own choice.
        self.policy_action = -1
        self.anchored = False


class ISMCTSBot:
    """Single-observer IS-MCTS with UCB selection and rollouts to the end of the match.

    ``iterations`` and ``seconds`` bound the search of each decision (at least one must be
    given; with both, the first reached ends it). ``cutoff`` (None: play every rollout
    to the end) is the number of rollout actions after which the game's estimate of the
    position is backed up instead. A decision with one legal action is played at once.
    The chosen action is the root's most visited one, unless an ``anchor`` (a margin in
    share of the win; ``"game"``: the game's :attr:`Game.search_anchor`) keeps the
    heuristic policy's move (see the module's docstring).
    """

    def __init__(
        self,
        iterations: int | None = 1000,
        seconds: float | None = None,
        exploration: float = DEFAULT_EXPLORATION,
        cutoff: int | None = None,
        anchor: float | Literal["game"] | None = None,
        name: str = "ismcts",
        game_iterations: bool = False,
        judgement: bool | LearnedEvaluator = False,
    ) -> None:
        if iterations is None and seconds is None:
            raise ValueError("IS-MCTS needs a budget: iterations, seconds or both")
        if iterations is not None and iterations < 1:
            raise ValueError("IS-MCTS needs at least one iteration")
        if cutoff is not None and cutoff < 0:
            raise ValueError("a rollout cutoff cannot be negative")
        if anchor is not None and anchor != "game" and not anchor >= 0.0:
            raise ValueError("an anchor is a margin of win share: 0 or more, or 'game'")
        self.anchor = anchor
        self.iterations = iterations
        #: Whether a game's :attr:`Game.hard_iterations` replaces ``iterations``.
        self.game_iterations = game_iterations
        self.seconds = seconds
        self.exploration = exploration
        self.cutoff = cutoff
        #: Whether a cut-off rollout is judged by a learned judgement, read from the
        #: searcher's view of the world, instead of the game's estimate: True, the game's
        #: where it ships one for its player count (:func:`~necropolis.bots.judgement.evaluator`),
        #: or the one given.
        self.judgement = judgement
        self.name = name
        self.last = SearchStats()

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        legal = window.legal_actions()
        if len(legal) == 1:
            self.last = SearchStats()
            return legal[0]
        started = time.perf_counter()
        anchor = window.game.search_anchor if self.anchor == "game" else self.anchor
        policy = window.game.level_policy() if anchor is not None else None
        # The policy's thinking counts against the clock: hard promises a second in all.
        policy_action = policy(window, rng) if policy is not None else -1
        iterations = self.iterations
        if self.game_iterations and window.game.hard_iterations is not None:
            iterations = window.game.hard_iterations
        root = self.search(window, rng, started, iterations)
        seat = window.seat
        width = window.game.num_distinct_actions()
        best = legal[0]
        best_key = (-1, -1.0)
        stats = self.last
        for action in legal:
            child = root.children.get(seat * width + action)
            if child is None:
                continue
            mean = child.total / child.visits if child.visits else 0.0
            stats.root_visits[action] = child.visits
            stats.root_values[action] = mean
            # Most visited wins; the mean breaks ties; then the lowest action id.
            if (child.visits, mean) > best_key:
                best, best_key = action, (child.visits, mean)
        stats.policy_action = policy_action
        if policy_action >= 0 and best != policy_action:
            assert anchor is not None
            policy_value = stats.root_values.get(policy_action)
            if policy_value is None or best_key[1] < policy_value + anchor:
                stats.anchored = True
                return policy_action
        return best

    def _learned(self, window: SeatWindow) -> LearnedEvaluator | None:
        if self.judgement is False or self.cutoff is None:
            return None
        from necropolis.bots.judgement import LearnedEvaluator, evaluator

        if isinstance(self.judgement, LearnedEvaluator):
            return self.judgement

        judge = evaluator(window.game)
        return judge if isinstance(judge, LearnedEvaluator) else None

    def search(
        self,
        window: SeatWindow,
        rng: random.Random,
        started: float | None = None,
        iterations: int | None = None,
    ) -> _Node:
        """Run the search from ``window``'s decision; returns the root of the tree.

        The clock (``seconds``) runs from ``started`` (a ``time.perf_counter()`` reading)
        if given, else from now; at least one iteration is always made. ``iterations``
        replaces the bot's own count for this search.
        """
        seat = window.seat
        width = window.game.num_distinct_actions()
        c = self.exploration
        cutoff = self.cutoff
        judge = self._learned(window)
        log = math.log
        sqrt = math.sqrt
        root = _Node(CHANCE)
        if iterations is None:
            iterations = self.iterations
        limit = iterations if iterations is not None else -1
        start = time.perf_counter() if started is None else started
        deadline = start + self.seconds if self.seconds is not None else math.inf
        done = 0
        path: list[_Node] = []
        while done != limit:
            if done and time.perf_counter() >= deadline:
                break
            world = window.resample(rng)
            future = self._future()
            node = root
            path.clear()
            path.append(root)
            # Selection and expansion: walk down until one new decision node is added.
            while True:
                player = world.current_player()
                if player == TERMINAL:
                    break
                if player == CHANCE:
                    outcome = sample_chance(world, rng) if future is None else future(world)
                    ckey: int | str = world.describe_action(outcome, seat)
                    world.apply_legal_action(outcome)
                    child = node.children.get(ckey)
                    if child is None:
                        child = node.children[ckey] = _Node(CHANCE)
                    node = child
                    path.append(node)
                    continue
                children = node.children
                offset = player * width
                fresh: list[int] = []
                chosen: _Node | None = None
                chosen_action = -1
                best = -math.inf
                for action in world.legal_actions():
                    child = children.get(offset + action)
                    if child is None:
                        fresh.append(action)
                        continue
                    child.available += 1
                    if fresh:
                        continue  # expansion comes first; availability still counts
                    value = child.total / child.visits + c * sqrt(
                        log(child.available) / child.visits
                    )
                    if value > best:
                        best, chosen, chosen_action = value, child, action
                if fresh:
                    action = fresh[rng.randrange(len(fresh))] if len(fresh) > 1 else fresh[0]
                    child = children[offset + action] = _Node(player)
                    child.available = 1
                    world.apply_legal_action(action)
                    path.append(child)
                    break
                assert chosen is not None
                world.apply_legal_action(chosen_action)
                node = chosen
                path.append(node)
            # Rollout with the game's default policy, then back up every seat's return
            # (or, past the cutoff, the game's estimate of them).
            if future is not None:
                self._foreseen_rollout(world, rng, future, cutoff)
            elif cutoff is None:
                while not world.is_terminal():
                    world.apply_legal_action(world.rollout_action(rng))
            else:
                steps = 0
                while steps < cutoff and not world.is_terminal():
                    world.apply_legal_action(world.rollout_action(rng))
                    steps += 1
            if cutoff is None:
                returns = world.returns()
            else:
                returns = (
                    judge.leaf_returns(world, seat)
                    if judge is not None
                    else world.estimate_returns()
                )
            for visited in path:
                visited.visits += 1
                if visited.mover >= 0:
                    visited.total += returns[visited.mover]
            done += 1
        stats = SearchStats()
        stats.iterations = done
        stats.seconds = time.perf_counter() - start
        self.last = stats
        return root

    def _future(self) -> Callable[[State], int] | None:
        """The chance of one iteration: None, so that every chance node is sampled by its
        probabilities, as a fair search must. Only a research oracle that is told the
        coming draws (:class:`necropolis.analysis.headroom.ClairvoyantBot`) returns the
        match's own draws here."""
        return None

    @staticmethod
    def _foreseen_rollout(
        world: State, rng: random.Random, future: Callable[[State], int], cutoff: int | None
    ) -> None:
        """A rollout whose chance nodes take ``future``'s outcomes (the oracle's)."""
        steps = 0
        while (cutoff is None or steps < cutoff) and not world.is_terminal():
            if world.is_chance_node():
                world.apply_legal_action(future(world))
            else:
                world.apply_legal_action(world.rollout_action(rng))
            steps += 1
