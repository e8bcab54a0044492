"""Judgement: each seat's chance to win, and the expected margin, from one seat's view.

One evaluator per game serves the hard bot (its search's leaves), the analysis of
finished games and hints. :func:`evaluator` gives a game's: a learned model where the
game ships one for its player count (``judgement-<N>p.npz`` beside the game's module,
made by ``necropolis train``), else the game's hand-written estimate
(:meth:`State.estimate_returns`) of a world drawn from the seat's window.

A learned model reads only the game's :class:`~necropolis.engine.protocol.Features` of
the seat's view, so it can know nothing that seat may not see; it is a small network in
plain numpy (one or two hidden layers) whose outputs are a softmax over the seats (the
viewer first, then the seats after it, plus "nobody" where a match can end with nobody
winning) and the viewer's margin over the best other seat. Evaluations are batched: a
decision's candidates go through the network as one matrix.

Every evaluator answers :meth:`Evaluator.judge` for a batch of seat windows (a window onto
the true state of a finished match, onto a world a search drew, or onto a table's state
in play: it reads only the window's view, and for the estimate a world the window
draws), with :meth:`Evaluator.win_chances` for one.
"""

from __future__ import annotations

import itertools
import json
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from numpy.typing import NDArray

from necropolis.engine.protocol import Features, Game, State, View
from necropolis.engine.seat import SeatWindow

Array = NDArray[np.float64]

#: The file name of a game's shipped model for ``players`` seats, in the game's package.
MODEL_FILE = "judgement-{players}p.npz"


class Judgement(NamedTuple):
    """A batch of judgements, one row per window judged.

    ``chances[i, s]`` is seat ``s``'s chance to win (seats in seat order, not relative to
    the viewer), ``nobody[i]`` the chance that the match ends with nobody winning (0 in a
    game where it cannot), ``margins[i]`` the viewer's expected score minus the best other
    seat's, in points.
    """

    chances: Array
    nobody: Array
    margins: Array


class Evaluator(ABC):
    """A game's judgement of positions from a seat's view (see the module's docstring)."""

    #: What the judgement is, in words, for reports ("learned model, generation 3", ...).
    description: str

    def __init__(self, game: Game) -> None:
        self.game = game

    @abstractmethod
    def judge(self, windows: Sequence[SeatWindow]) -> Judgement:
        """The judgement of each window's position from its own seat's view."""

    def win_chances(self, window: SeatWindow) -> list[float]:
        """Each seat's chance to win (seat order) as ``window``'s seat may judge it."""
        return [float(x) for x in self.judge([window]).chances[0]]


@dataclass
class Network:
    """A small multilayer perceptron: tanh hidden layers, then a softmax over the
    outcomes and a linear margin (the last output).

    ``layers`` holds each layer's weight matrix and bias, input side first; ``meta`` what
    the file says of it (game, players, features, the command and seed that made it...).
    """

    layers: list[tuple[Array, Array]]
    meta: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def fresh(cls, sizes: Sequence[int], rng: np.random.Generator) -> Network:
        """Random small weights for layer sizes ``sizes`` (inputs, hidden..., outputs)."""
        layers = []
        for i, (a, b) in enumerate(itertools.pairwise(sizes)):
            last = i == len(sizes) - 2
            scale = 0.1 / np.sqrt(a) if last else 1.0 / np.sqrt(a)
            layers.append((rng.normal(0.0, scale, (a, b)), np.zeros(b)))
        return cls(layers)

    @property
    def inputs(self) -> int:
        return int(self.layers[0][0].shape[0])

    @property
    def outcomes(self) -> int:
        """Softmax outputs (seats, plus "nobody" where the game has it)."""
        return int(self.layers[-1][0].shape[1]) - 1

    def forward(self, x: Array) -> tuple[Array, Array]:
        """The outcome probabilities (rows sum to 1) and the margins of the rows of ``x``."""
        h = x
        for w, b in self.layers[:-1]:
            h = np.tanh(h @ w + b)
        w, b = self.layers[-1]
        out = h @ w + b
        logits = out[:, :-1]
        logits = logits - logits.max(axis=1, keepdims=True)
        e = np.exp(logits)
        return e / e.sum(axis=1, keepdims=True), out[:, -1]

    def copy(self) -> Network:
        return Network([(w.copy(), b.copy()) for w, b in self.layers], dict(self.meta))

    def save(self, path: Path) -> None:
        """Write the network (and its meta as JSON) to an ``.npz`` file."""
        arrays: dict[str, Any] = {"meta": np.array(json.dumps(self.meta, sort_keys=True))}
        for i, (w, b) in enumerate(self.layers):
            arrays[f"w{i}"] = w
            arrays[f"b{i}"] = b
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as out:
            np.savez_compressed(out, **arrays)

    @classmethod
    def load(cls, source: Any) -> Network:
        """A network from an ``.npz`` file (a path or an open binary file)."""
        with np.load(source, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            layers = []
            i = 0
            while f"w{i}" in data:
                layers.append((data[f"w{i}"].astype(np.float64), data[f"b{i}"].astype(np.float64)))
                i += 1
        if not layers:
            raise ValueError("a judgement model file holds no layers")
        return cls(layers, meta)


def encode_views(features: Features, views: Sequence[View]) -> Array:
    """The features of ``views`` as one matrix, a row each."""
    return np.array([features.encode(v) for v in views], dtype=np.float64)


class LearnedEvaluator(Evaluator):
    """A learned model's judgement (:class:`Network` on the game's features), blended
    with the game's estimate where the model says so.

    ``blend`` (None: the model file's ``meta["blend"]``, else 1) is the model's share of
    each chance to win; the rest is the estimate's, as :class:`EstimateEvaluator` judges
    a window and as a search backs it up at a leaf (:meth:`leaf_returns`). Two judges about
    equally well calibrated that err in different places err less averaged; luxor's first
    model and its estimate, so averaged at hard's leaves, scored +0.7 points (-2.5 to
    +3.9) over hard on 1,000 matches (``docs/strength.md``, "A learned judgement"), so no
    game ships a blend yet. The margin is the model's alone, since the estimate projects none.
    """

    def __init__(
        self,
        game: Game,
        network: Network,
        features: Features | None = None,
        blend: float | None = None,
    ) -> None:
        super().__init__(game)
        found = features if features is not None else game.features()
        if found is None:
            raise ValueError(f"{game.id} describes no features for a learned judgement")
        self.features: Features = found
        n = game.num_players
        expected = n + (1 if found.nobody else 0)
        if network.inputs != found.size(n) or network.outcomes != expected:
            raise ValueError(
                f"the model has {network.inputs} inputs and {network.outcomes} outcomes; "
                f"{game.id} at {n} players needs {found.size(n)} and {expected}"
            )
        self.network = network
        share = float(network.meta.get("blend", 1.0)) if blend is None else float(blend)
        if not 0.0 <= share <= 1.0:
            raise ValueError(f"a blend is the model's share of a judgement, 0 to 1: not {share}")
        #: The model's share of each chance to win (1: the model alone).
        self.blend = share
        self._estimate = EstimateEvaluator(game) if share < 1.0 else None
        #: How far the one-ply bot looked at the rest of a turn in the self-play that
        #: trained the model (:attr:`JudgementBot.turn_leaves`): it plays best looking so.
        self.turn_leaves = int(network.meta.get("settings", {}).get("turn_leaves", 0))
        generation = network.meta.get("generation")
        self.description = (
            "learned model"
            + (f", generation {generation}" if generation is not None else "")
            + (f", {share:g} of it blended with the estimate" if share < 1.0 else "")
        )

    def judge(self, windows: Sequence[SeatWindow]) -> Judgement:
        found = self.judge_views([w.view() for w in windows])
        if self._estimate is None:
            return found
        other = self._estimate.judge(windows)
        w = self.blend
        return Judgement(
            w * found.chances + (1.0 - w) * other.chances,
            w * found.nobody + (1.0 - w) * other.nobody,
            found.margins,
        )

    def judge_views(self, views: Sequence[View]) -> Judgement:
        """The model's own judgement of each view (never blended: a view alone gives the
        estimate no world), from the seat it was built for (``view["seat"]``)."""
        probs, margins = self.network.forward(encode_views(self.features, views))
        return self.absolute(probs, margins, [int(v["seat"]) for v in views])

    def leaf_returns(self, state: State, viewer: int) -> list[float]:
        """Each seat's chance to win in ``state`` as ``viewer`` judges it from its view:
        the value a search backs up from a leaf of a world it drew from the viewer's
        window (nobody winning counts as nothing, as in the game's returns)."""
        if state.is_terminal():
            return state.returns()
        x = np.array([self.features.encode(state.view(viewer))])
        probs, _ = self.network.forward(x)
        n = self.game.num_players
        learned = [float(p) for p in np.roll(probs[0, :n], viewer)]
        if self.blend >= 1.0:
            return learned
        # The world is one the viewer's search drew, so the estimate may read all of it,
        # as the search does at a leaf with no model.
        w = self.blend
        estimate = state.estimate_returns()
        return [w * a + (1.0 - w) * b for a, b in zip(learned, estimate, strict=True)]

    def absolute(self, probs: Array, margins: Array, seats: Sequence[int]) -> Judgement:
        """The network's outputs (seats relative to each row's viewer) in seat order."""
        n = self.game.num_players
        k = len(seats)
        chances = np.empty((k, n))
        for i, seat in enumerate(seats):
            chances[i] = np.roll(probs[i, :n], seat)  # relative r is seat (seat + r) % n
        nobody = probs[:, n] if probs.shape[1] > n else np.zeros(k)
        return Judgement(chances, nobody, margins * self.features.margin_scale)


#: The file name of a game's recalibration of its estimate for ``players`` seats.
RECALIBRATION_FILE = "calibration-{players}p.json"
#: Chances are mapped in logit space, clipped this far from 0 and 1.
_EDGE = 1e-4


def _logit(p: Array) -> Array:
    q = np.clip(p, _EDGE, 1.0 - _EDGE)
    return np.asarray(np.log(q / (1.0 - q)), dtype=np.float64)


#: How many chance draws :func:`to_move` resolves, at most, before it gives up.
_CHANCE_MOST = 64


def to_move(state: State) -> int | None:
    """The seat that decides next in ``state``: its current player, or after a chance
    node (a card dealt at the end of a turn) the seat that decides once the chance is
    resolved, each draw taken as its likeliest outcome on a copy; None at the end.

    Which seat moves next is public (a world drawn from a seat's window agrees on it), and
    an estimate of whole positions misjudges that seat: the turn it is about to play is
    worth something the position's facts do not show yet (``docs/strength.md``, "the seat
    to move"). A chance node between two turns belongs to the turn that follows it.
    """
    player = state.current_player()
    if player >= 0 or state.is_terminal():
        return player if player >= 0 else None
    world = state.clone()
    for _ in range(_CHANCE_MOST):
        if world.is_terminal():
            return None
        if not world.is_chance_node():
            player = world.current_player()
            return player if player >= 0 else None
        outcomes = world.chance_outcomes()
        world.apply_action(max(outcomes, key=lambda outcome: outcome[1])[0])
    return None


@dataclass(frozen=True)
class Recalibration:
    """A monotone map of a seat's estimated chance to the chance that comes true.

    The hand-written estimates are fitted on whole states, and a softmax of a few facts
    is too sure of itself in some bands and too shy in others (``docs/strength.md``,
    "Calibration"). A seat's chance from its view is the estimate's mean over worlds
    drawn from the view, and the map takes that mean (not a single world's estimate,
    whose noise from what the seat cannot see a map would learn to doubt) to the share
    that comes true. It is piecewise linear in logit space through ``knots`` (logits of
    the mean) and ``values`` (logits of the share won), at slope one beyond the ends, fitted on
    positions of sound play (:mod:`necropolis.analysis.recalibration`); ``mover`` more
    logits go to the seat that decides next (:func:`to_move`), whose coming turn the
    estimate of the position does not count. It serves the
    judgement people see (the analysis, hints, the evaluator); hard's search backs up
    the estimate of single worlds, so its moves do not change with it.
    """

    knots: tuple[float, ...]
    values: tuple[float, ...]
    meta: dict[str, Any] = field(default_factory=dict, compare=False)
    mover: float = 0.0

    def __post_init__(self) -> None:
        if len(self.knots) < 2 or len(self.knots) != len(self.values):
            raise ValueError("a recalibration needs two or more knots, each with its value")
        if any(b <= a for a, b in itertools.pairwise(self.knots)):
            raise ValueError("a recalibration's knots must rise")
        if any(b < a for a, b in itertools.pairwise(self.values)):
            raise ValueError("a recalibration must not lower a better chance")

    def map(self, chances: Array, moving: Array | bool = False) -> Array:
        """Each chance mapped, element by element; ``moving`` says (for all, or element by
        element) whether the chance is that of the seat that decides next."""
        x = _logit(np.asarray(chances, dtype=np.float64))
        mapped = np.interp(x, self.knots, self.values)
        # Beyond the end knots the map moves as the estimate does (slope one in logits):
        # held flat, it gave every view surer than the last bin's mean that bin's share.
        low, high = self.knots[0], self.knots[-1]
        mapped = np.where(x > high, self.values[-1] + (x - high), mapped)
        mapped = np.where(x < low, self.values[0] + (x - low), mapped)
        mapped = mapped + self.mover * np.asarray(moving, dtype=np.float64)
        return np.asarray(1.0 / (1.0 + np.exp(-mapped)), dtype=np.float64)

    def apply(self, returns: Sequence[float], mover: int | None = None) -> list[float]:
        """A position's estimated chances (one a seat), each recalibrated as the map was
        fitted, seat by seat (``mover``, the seat that decides next, given its term);
        scaled down only where they would add up to more than one.
        (Scaling them to add up to what they did would undo the map where it matters: a
        seat far ahead, once nobody-wins is out of the question, is where the estimate
        is shy.)"""
        moving = np.arange(len(returns)) == (-1 if mover is None else mover)
        mapped = self.map(np.asarray(returns, dtype=np.float64), moving)
        total = float(mapped.sum())
        if total > 1.0:
            mapped /= total
        return [float(x) for x in mapped]

    def to_json(self) -> dict[str, Any]:
        page: dict[str, Any] = {"knots": list(self.knots), "values": list(self.values)}
        if self.mover:
            page["mover"] = self.mover
        page["meta"] = self.meta
        return page

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Recalibration:
        return cls(
            tuple(float(x) for x in data["knots"]),
            tuple(float(x) for x in data["values"]),
            dict(data.get("meta", {})),
            float(data.get("mover", 0.0)),
        )


def _shipped(game: Game, name: str) -> Traversable | None:
    """The file ``name`` (a template of ``players``) in the game's package for its player
    count, where the game ships one."""
    package = type(game).__module__
    if not package.startswith("necropolis.games."):
        return None
    package = ".".join(package.split(".")[:3])
    page = resources.files(package) / name.format(players=game.num_players)
    return page if page.is_file() else None


@cache
def recalibration(game: Game) -> Recalibration | None:
    """The recalibration the game ships for its player count, or None."""
    page = _shipped(game, RECALIBRATION_FILE)
    return None if page is None else Recalibration.from_json(json.loads(page.read_text()))


class EstimateEvaluator(Evaluator):
    """The game's hand-written estimate (:meth:`State.estimate_returns`) of worlds drawn
    from the seat's window, their mean recalibrated where the game ships a
    :class:`Recalibration`, for a game or player count with no learned model.

    Each window is judged in ``worlds`` worlds drawn by a generator seeded with ``seed``
    afresh for every window, so the same position is always judged the same. The margin
    is the seat's score in the world minus the best other seat's (the game's scores so
    far, not a projection).
    """

    description = "hand-written estimate"

    def __init__(
        self, game: Game, worlds: int = 1, seed: int = 0, recalibrated: bool = True
    ) -> None:
        super().__init__(game)
        if worlds < 1:
            raise ValueError("the estimate needs at least one world")
        self.worlds = worlds
        self.seed = seed
        #: Whether the game's recalibration (where it ships one) maps the mean; False
        #: gives the raw estimate, to measure what the map changes.
        self.recalibrated = recalibrated

    def judge(self, windows: Sequence[SeatWindow]) -> Judgement:
        n = self.game.num_players
        k = len(windows)
        chances = np.zeros((k, n))
        margins = np.zeros(k)
        mapping = recalibration(self.game) if self.recalibrated else None
        for i, window in enumerate(windows):
            rng = random.Random(self.seed)
            finished = True
            mover: int | None = None
            for k in range(self.worlds):
                world = window.resample(rng)
                finished = finished and world.is_terminal()
                if k == 0 and mapping is not None and mapping.mover:
                    mover = to_move(world)  # public: every world agrees on it
                chances[i] += world.estimate_returns()
                margins[i] += _margin(world, window.seat)
            chances[i] /= self.worlds
            if mapping is not None and not finished:
                chances[i] = mapping.apply(chances[i], mover)
        margins /= self.worlds
        return Judgement(chances, np.clip(1.0 - chances.sum(axis=1), 0.0, 1.0), margins)


def _margin(state: State, seat: int) -> float:
    scores = state.scores()
    others = [s for i, s in enumerate(scores) if i != seat]
    return scores[seat] - max(others) if others else 0.0


def shipped_model(game: Game) -> Network | None:
    """The model the game ships for its player count, or None."""
    page = _shipped(game, MODEL_FILE)
    if page is None:
        return None
    with page.open("rb") as source:
        return Network.load(source)


@cache
def _evaluator(game: Game) -> Evaluator:
    network = shipped_model(game) if game.features() is not None else None
    if network is None:
        return EstimateEvaluator(game)
    return LearnedEvaluator(game, network)


def evaluator(game: Game) -> Evaluator:
    """The game's evaluator: its shipped learned model for its player count where it has
    one, else its hand-written estimate. Made once per game and options."""
    return _evaluator(game)


class JudgementBot:
    """A one-ply player on a learned judgement: in ``worlds`` worlds drawn from the seat's
    window, each legal move is applied, and the move whose positions the judgement rates
    best for the seat on average (read from the seat's view of each) is played. With
    ``turn_leaves``, a move after which the seat alone decides again is worth the best of
    its next moves (as far as that many leaves), so that a move is judged where the turn
    it begins can end, not half played. A move
    that ends the match is rated by its true returns. With ``epsilon``, a random legal
    move is played that share of the time instead (self-play's exploration). Without a
    ``judge``, the game's shipped one (:func:`evaluator`; a game with none is refused).

    What a move is worth: the seat's chance to win, as the game's returns count it (a
    match nobody wins is lost by all; counting it as a share, as the strength figures do,
    made horus's self-play settle on both seats staying in until they were shut in, a
    coin flip to a judgement that counts nobody as half). Equal ones are drawn between.
    """

    def __init__(
        self,
        judge: LearnedEvaluator | None = None,
        epsilon: float = 0.0,
        name: str = "judgement",
        worlds: int = 1,
        turn_leaves: int | None = None,
    ) -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError("epsilon is a share of the decisions: 0 to 1")
        if worlds < 1:
            raise ValueError("a one-ply judgement needs at least one world")
        self.judge = judge
        self.epsilon = epsilon
        self.name = name
        self.worlds = worlds
        #: How many of the seat's own further moves a decision may look at while its turn
        #: goes on alone (the rest of a turn of several decisions, its best way judged):
        #: 0, the position right after each move; None, as the judge's model was trained.
        self.turn_leaves = turn_leaves
        #: Whether the last decision was a random (exploring) one.
        self.explored = False

    def judge_of(self, game: Game) -> LearnedEvaluator:
        if self.judge is not None:
            return self.judge
        found = evaluator(game)
        if not isinstance(found, LearnedEvaluator):
            raise ValueError(f"{game.id} ships no learned judgement for {game.num_players} players")
        return found

    def values(self, window: SeatWindow, actions: Sequence[int], rng: random.Random) -> Array:
        """What each of ``actions`` is worth to the window's seat, over the drawn worlds."""
        judge = self.judge_of(window.game)
        seat = window.seat
        values = np.zeros(len(actions))
        for _ in range(self.worlds):
            world = window.resample(rng)
            views: list[View] = []
            budget = [self.turn_leaves if self.turn_leaves is not None else judge.turn_leaves]
            nodes = []
            for action in actions:
                child = world.clone()
                child.apply_legal_action(action)
                nodes.append(self._node(child, seat, views, budget))
            worth = np.zeros(0)
            if views:
                probs, _ = judge.network.forward(encode_views(judge.features, views))
                worth = probs[:, 0]
            values += [_value(node, worth) for node in nodes]
        return values / self.worlds

    def _node(self, state: State, seat: int, views: list[View], budget: list[int]) -> _Node:
        """``state`` as a node of the seat's turn: a finished match's share, the best of
        the seat's own next moves while its turn goes on alone (within the leaves left in
        ``budget``), else a position to judge (its view appended to ``views``)."""
        if state.is_terminal():
            return float(state.returns()[seat])
        if budget[0] > 0 and state.acting_seats() == (seat,):
            actions = state.legal_actions()
            budget[0] -= len(actions)
            children = []
            for action in actions:
                child = state.clone()
                child.apply_legal_action(action)
                children.append(self._node(child, seat, views, budget))
            return children
        views.append(state.view(seat))
        return -len(views)  # a leaf: the position judged in row len(views) - 1

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        actions = window.legal_actions()
        self.explored = False
        if len(actions) == 1:
            return actions[0]
        if self.epsilon and rng.random() < self.epsilon:
            self.explored = True
            return actions[rng.randrange(len(actions))]
        values = self.values(window, actions, rng)
        top = values.max()
        best = [a for a, v in zip(actions, values, strict=True) if v >= top - 1e-12]
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


#: A node of a turn's moves: a finished match's share (a float), a leaf (``-1 - row``
#: of the judged positions), or the seat's own next moves (a list of nodes).
_Node = float | int | list[Any]


def _value(node: _Node, worth: Array) -> float:
    if isinstance(node, list):
        return max(_value(child, worth) for child in node)
    if isinstance(node, int):
        return float(worth[-1 - node])
    return node


def one_ply() -> JudgementBot:
    """The one-ply bot on the game's shipped judgement, a world a decision (research)."""
    return JudgementBot(name="one-ply")


def one_ply_8() -> JudgementBot:
    """The one-ply bot on the game's shipped judgement, eight worlds a decision (research)."""
    return JudgementBot(name="one-ply-8", worlds=8)


@cache
def _model_file(path: str, stamp: int) -> Network:
    return Network.load(Path(path))


def model_bot(path: str, name: str | None = None) -> JudgementBot:
    """A :class:`JudgementBot` on the model in the file ``path`` (its meta names the game
    and players), for comparisons whose bots are made in worker processes."""
    network = _model_file(path, Path(path).stat().st_mtime_ns)  # a rewritten file is read again
    from necropolis.games import load_game

    game = load_game(str(network.meta["game"]), players=int(network.meta["players"]))
    return JudgementBot(LearnedEvaluator(game, network), name=name or Path(path).stem)
