"""Self-play training of a game's judgement: TD(λ) on the model's own play, gated.

The model (:class:`~necropolis.bots.judgement.Network` on the game's
:class:`~necropolis.engine.protocol.Features`) plays itself with its one-ply policy
(:class:`~necropolis.bots.judgement.JudgementBot`, a random move a share ``epsilon`` of
the time). At every real decision of a match every seat's view is recorded; when the
match ends, each seat's positions get TD(λ) targets (as TD-Gammon did): the last its true
outcome (who won, or nobody, and its margin over the best other seat), each earlier one
``(1 - λ)`` times the model's judgement of the seat's next position plus ``λ`` times the
next one's target. So the judgement learns from what its own moves led to, not from a
fixed strategy's positions. Targets are worked out afresh with the current model before
every training step, over the matches of a replay window; the loss is the cross entropy
of the outcome distribution plus a share of the margin's squared error, minimised by Adam.

A *generation* is ``generation_matches`` self-play matches. At its end the model is
**gated**: it plays the last kept model on ``gate_deals`` duplicate deals, each in both
seatings (:mod:`necropolis.analysis.duel`), each model played as self-play plays it (the
one-ply bot, or with expert iteration the search on the model), and is kept if its score
share is above a half. A fresh run keeps its first generation as it is; a run begun from
a kept model (``start``) gates against that model until it keeps one. It also plays the
heuristic on ``reference_deals`` deals of one bank, the same every generation, which
gives the curve of strength by generation and pairs each generation with the last kept
one deal by deal; with ``reference_gate`` a generation that does worse there is not
kept either. Self-play goes on from the trained model either way; what is kept is what
ships.

A run lives in a folder (outside the repository): ``checkpoint.npz`` (the model, the
optimiser, the replay window and every counter, written at round boundaries, so a
stopped run resumes exactly where its last checkpoint left it), ``kept.npz`` and
``generation-NNN.npz`` (models, each with its meta: the command and seed that made it),
``reference-NNN.jsonl`` (each generation's matches against the reference bot),
``record.json`` (every generation's gate and reference figures) and ``progress.log``. The
same seed and settings give the same models, whether the run was stopped and resumed or
not (on one machine: the floating point of another may differ in the last bits).
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, fields
from functools import lru_cache, partial
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from necropolis.analysis.batch import match_seed, run_matches
from necropolis.bots import ISMCTSBot, make_bot
from necropolis.bots.judgement import (
    Array,
    EstimateEvaluator,
    Evaluator,
    JudgementBot,
    LearnedEvaluator,
    Network,
    model_bot,
    recalibration,
)
from necropolis.engine.driver import Player, player_rngs
from necropolis.engine.protocol import CHANCE, Features, Game, State, sample_chance
from necropolis.engine.seat import SeatWindow
from necropolis.games import load_game

#: Margins are learned in units of the game's margin scale, clipped to this many.
MARGIN_CLIP = 3.0

#: Where a run begun from a kept model (``start``) keeps that model, in its folder.
START_MODEL = "start.npz"


@dataclass(frozen=True)
class Settings:
    """How a run trains; kept in its checkpoint, so a resumed run goes on as it began."""

    players: int = 2
    hidden: tuple[int, ...] = (64,)
    #: TD(λ)'s λ: how far back along a match each outcome reaches at once.
    lam: float = 0.8
    #: The share of self-play decisions made at random.
    epsilon: float = 0.05
    learning_rate: float = 0.001
    batch: int = 128
    #: The margin's share of the loss.
    margin_weight: float = 0.25
    #: Self-play matches between training steps (a round; checkpoints fall between rounds).
    round_matches: int = 10
    #: The most recent matches whose positions are trained on.
    replay_matches: int = 200
    #: How often each new position is drawn into a training batch, on average.
    passes: float = 2.0
    generation_matches: int = 2000
    gate_deals: int = 500
    reference_deals: int = 100
    #: The bot every generation is measured against (the curve of strength).
    reference: str = "heuristic"
    #: Keep a generation only if, besides passing its gate, it also scores at least as
    #: much against the reference bot as the last kept one did on the same deals (the
    #: paired difference of their runs, each kept in the run's folder): self-play may
    #: improve along a line that the reference's play does not test.
    reference_gate: bool = False
    #: The first matches, played by the reference bot in every seat (a random move at
    #: ``epsilon`` too), so the judgement starts from play that knows the game rather
    #: than from a random model's; self-play takes over after them.
    warm_matches: int = 0
    #: The share of the matches after the warm-up in which one seat (turn about) is the
    #: reference bot instead of the model: self-play alone may settle into a way of playing
    #: that only the model itself plays (in horus, both seats walking out at once), and
    #: the positions of these matches show it what a strong opponent does.
    reference_share: float = 0.0
    #: The one-ply bot's look at the rest of the mover's turn
    #: (:attr:`~necropolis.bots.judgement.JudgementBot.turn_leaves`).
    turn_leaves: int = 0
    #: Expert iteration instead of the one-ply bot: the matches are played by hard's
    #: search with this many iterations a decision, its leaves judged by the model (and
    #: anchored to the level strategy as hard is), and the model learns to judge where
    #: that play leads; its gates are played by the same search. 0: the one-ply bot. Far
    #: dearer a match (a lent machine's cores).
    search_iterations: int = 0

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Settings:
        known = {f.name for f in fields(cls)}
        values = {k: v for k, v in data.items() if k in known}
        if "hidden" in values:
            values["hidden"] = tuple(values["hidden"])
        return cls(**values)


@dataclass
class MatchData:
    """One self-play match as training needs it."""

    #: Features of every seat's view at every real decision, a row each (float32 keeps
    #: the replay window small and a checkpoint exact).
    x: NDArrayF32
    #: The seat each row was seen from.
    seats: NDArrayI
    #: Per seat, in seat order: the outcome distribution over seats (plus nobody) and the
    #: margin over the best other seat (in the game's margin scale, clipped).
    outcome: Array
    margins: Array


NDArrayF32 = np.ndarray[Any, np.dtype[np.float32]]
NDArrayI = np.ndarray[Any, np.dtype[np.int64]]


def outcome_of(returns: Sequence[float], nobody: bool) -> list[float]:
    """The outcome distribution of a finished match (seat order, then nobody if the game
    has that outcome): the returns, or all on nobody where nobody won."""
    if nobody:
        won = any(returns)
        return [*(float(r) for r in returns), 0.0 if won else 1.0]
    total = sum(returns)
    n = len(returns)
    return [float(r) / total if total else 1.0 / n for r in returns]


def relative(outcome: Array, seat: int, n: int) -> Array:
    """``outcome`` (seat order, then nobody) listed from ``seat`` on, as the model's
    outputs are."""
    out = outcome.copy()
    out[:n] = np.roll(outcome[:n], -seat)
    return out


class Exploring:
    """A bot that plays a random legal move a share ``epsilon`` of the time."""

    def __init__(self, bot: Player, epsilon: float) -> None:
        self.bot = bot
        self.epsilon = epsilon
        self.name = bot.name

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        actions = window.legal_actions()
        if len(actions) > 1 and rng.random() < self.epsilon:
            return actions[rng.randrange(len(actions))]
        return self.bot.choose(window, rng)


def play_one(
    game_id: str,
    settings: Settings,
    layers: list[tuple[Array, Array]],
    seed: int,
    index: int,
) -> MatchData:
    """Match ``index`` of a run seeded ``seed``, with the model ``layers``: self-play, or
    the reference bot in every seat during the warm-up, or in one seat (turn about) in the
    share of matches ``settings.reference_share`` draws."""
    game = load_game(game_id, players=settings.players)
    features = game.features()
    assert features is not None
    judge = LearnedEvaluator(game, Network(layers), features)
    model: Player
    if settings.search_iterations:
        model = Exploring(_searcher(settings.search_iterations, judge), settings.epsilon)
    else:
        model = JudgementBot(judge, epsilon=settings.epsilon, turn_leaves=settings.turn_leaves)
    n = settings.players
    match = match_seed(seed, index)
    lineup: list[Player] = [model] * n
    if index < settings.warm_matches:
        lineup = [Exploring(make_bot(settings.reference), settings.epsilon)] * n
    elif settings.reference_share and random.Random(match).random() < settings.reference_share:
        lineup[index % n] = Exploring(make_bot(settings.reference), settings.epsilon)
    return self_play(game, features, lineup, match, features.margin_scale)


def _searcher(iterations: int, judge: LearnedEvaluator, name: str = "search") -> Player:
    """Hard's search (its cutoff and exploration, anchored as hard is) with
    ``iterations`` iterations a decision and its leaves judged by the model: the player of
    expert iteration, whose play the model then learns to judge."""
    from necropolis.bots.levels import HARD_CUTOFF, HARD_EXPLORATION

    return ISMCTSBot(
        iterations=iterations,
        exploration=HARD_EXPLORATION,
        cutoff=HARD_CUTOFF,
        anchor="game",
        name=name,
        judgement=judge,
    )


def search_bot(path: str, iterations: int) -> Player:
    """Expert iteration's player on the model in the file ``path`` (its meta names the
    game and players), for gates whose bots are made in worker processes."""
    network = Network.load(path)
    game = load_game(str(network.meta["game"]), players=int(network.meta["players"]))
    return _searcher(iterations, LearnedEvaluator(game, network), name=Path(path).stem)


def _player_of(settings: Settings, path: Path) -> Callable[[], Player]:
    """How a gate makes the player of the model in ``path``: the one-ply bot, or with
    expert iteration the search on the model, since that is the player the model is
    trained to serve (a model judged by the one-ply bot alone is gated on play it never
    makes)."""
    if settings.search_iterations:
        return partial(search_bot, str(path), settings.search_iterations)
    return partial(model_bot, str(path))


def self_play(
    game: Game, features: Features, lineup: Sequence[Player], seed: int, margin_scale: float
) -> MatchData:
    """One match of ``lineup`` (a player a seat; self-play: the model in every seat),
    every seat's view recorded at each real decision."""
    n = game.num_players
    chance = random.Random(seed)
    rngs = player_rngs(seed, n)
    state = game.new_initial_state()
    rows: list[list[float]] = []
    seats: list[int] = []
    while not state.is_terminal():
        seat = state.current_player()
        if seat == CHANCE:
            state.apply_legal_action(sample_chance(state, chance))
            continue
        window = SeatWindow(state, seat)
        if len(window.legal_actions()) > 1:
            for q in range(n):
                rows.append(features.encode(state.view(q)))
                seats.append(q)
        state.apply_action(lineup[seat].choose(window, rngs[seat]))
    returns = state.returns()
    scores = state.scores()
    margins = []
    for q in range(n):
        best = max(s for i, s in enumerate(scores) if i != q)
        margins.append(max(-MARGIN_CLIP, min(MARGIN_CLIP, (scores[q] - best) / margin_scale)))
    return MatchData(
        np.array(rows, dtype=np.float32).reshape(len(rows), features.size(n)),
        np.array(seats, dtype=np.int64),
        np.array(outcome_of(returns, features.nobody)),
        np.array(margins),
    )


def td_targets(network: Network, match: MatchData, lam: float) -> tuple[Array, Array, Array, Array]:
    """The rows of ``match`` with their TD(λ) targets: features, outcome distributions
    (each row's seats from its viewer on), margins, and the model's own predictions of
    each row's outcome (for calibration)."""
    x = match.x.astype(np.float64)
    probs, margins = network.forward(x)
    n = len(match.margins)
    target = np.empty_like(probs)
    target_margin = np.empty(len(x))
    for q in range(n):
        rows = np.flatnonzero(match.seats == q)
        # target[t] = sum over later k of (1 - λ) λ^(k - t - 1) prediction[k]
        #             + λ^(L - 1 - t) outcome, as one matrix product per seat
        weights, last = _lambda_weights(len(rows), lam)
        target[rows] = weights @ probs[rows] + np.outer(last, relative(match.outcome, q, n))
        target_margin[rows] = weights @ margins[rows] + last * float(match.margins[q])
    return x, target, target_margin, probs


@lru_cache(maxsize=512)
def _lambda_weights(length: int, lam: float) -> tuple[Array, Array]:
    """The weights of TD(λ)'s targets along a seat's ``length`` positions: of each later
    position's prediction, and of the outcome."""
    t = np.arange(length)
    gap = t[None, :] - t[:, None]
    weights = np.where(gap >= 1, (1.0 - lam) * lam ** np.maximum(gap - 1, 0), 0.0)
    last = lam ** (length - 1 - t).astype(np.float64)
    return weights.astype(np.float64), last.astype(np.float64)


class Adam:
    """Adam over a network's weights (its moments kept for checkpoints)."""

    def __init__(self, network: Network, rate: float) -> None:
        self.rate = rate
        self.step = 0
        self.m = [np.zeros_like(p) for layer in network.layers for p in layer]
        self.v = [np.zeros_like(p) for layer in network.layers for p in layer]

    def apply(self, network: Network, grads: list[Array]) -> None:
        self.step += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        params = [p for layer in network.layers for p in layer]
        c1 = 1 - b1**self.step
        c2 = 1 - b2**self.step
        for p, g, m, v in zip(params, grads, self.m, self.v, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            p -= self.rate * (m / c1) / (np.sqrt(v / c2) + eps)


def gradients(
    network: Network, x: Array, target: Array, target_margin: Array, margin_weight: float
) -> tuple[list[Array], float, float]:
    """The loss's gradients for every weight (in layer order), the cross entropy and the
    margin's mean squared error on the batch."""
    activations = [x]
    h = x
    for w, b in network.layers[:-1]:
        h = np.tanh(h @ w + b)
        activations.append(h)
    w_last, b_last = network.layers[-1]
    out = h @ w_last + b_last
    logits = out[:, :-1]
    logits = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(logits)
    probs = e / e.sum(axis=1, keepdims=True)
    margin = out[:, -1]
    size = len(x)
    cross = float(-(target * np.log(np.maximum(probs, 1e-12))).sum(axis=1).mean())
    error = margin - target_margin
    mse = float((error * error).mean())
    delta = np.empty_like(out)
    delta[:, :-1] = (probs - target) / size
    delta[:, -1] = margin_weight * error / size
    grads: list[Array] = []
    for i in range(len(network.layers) - 1, -1, -1):
        w, _ = network.layers[i]
        a = activations[i]
        grads.append(delta.sum(axis=0))  # bias
        grads.append(a.T @ delta)  # weights
        if i:
            delta = (delta @ w.T) * (1.0 - a * a)
    grads.reverse()  # now weights, bias of layer 0, then of layer 1, ...
    return grads, cross, mse


def calibration(predicted: Array, observed: Array, bins: int = 10) -> list[dict[str, float]]:
    """Reliability: positions binned by predicted chance, with each bin's mean prediction
    and observed share of wins."""
    edges = np.linspace(0.0, 1.0, bins + 1)
    rows = []
    which = np.minimum((predicted * bins).astype(int), bins - 1)
    for b in range(bins):
        mask = which == b
        count = int(mask.sum())
        rows.append(
            {
                "low": float(edges[b]),
                "high": float(edges[b + 1]),
                "positions": count,
                "predicted": float(predicted[mask].mean()) if count else 0.0,
                "observed": float(observed[mask].mean()) if count else 0.0,
            }
        )
    return rows


def band_intervals(
    predicted: Array,
    observed: Array,
    match: NDArrayI,
    matches: int,
    bins: int = 10,
    seed: int = 0,
    draws: int = 2000,
) -> list[tuple[float, float]]:
    """Each band's 95% interval of the share won, from resampling whole matches
    (``match[i]`` is the match of position ``i``): positions of one match share its
    outcome, so they are not independent evidence."""
    which = np.minimum((predicted * bins).astype(int), bins - 1)
    # Per match and band: the positions and the wins there.
    counts = np.zeros((matches, bins))
    wins = np.zeros((matches, bins))
    np.add.at(counts, (match, which), 1.0)
    np.add.at(wins, (match, which), observed)
    rng = np.random.default_rng(seed)
    # How often each match is drawn in each resample, and so each band's positions and wins.
    times = rng.multinomial(matches, np.full(matches, 1.0 / matches), size=draws).astype(float)
    total = times @ counts
    won = times @ wins
    share = np.divide(won, total, out=np.full_like(won, np.nan), where=total > 0)
    out = []
    for b in range(bins):
        column = share[:, b][~np.isnan(share[:, b])]
        if len(column) == 0:
            out.append((0.0, 0.0))
            continue
        lo, hi = np.quantile(column, [0.025, 0.975])
        out.append((float(lo), float(hi)))
    return out


def calibration_error(rows: list[dict[str, float]]) -> float:
    """The positions' mean distance between predicted and observed, bin by bin."""
    total = sum(r["positions"] for r in rows)
    if not total:
        return 0.0
    return sum(r["positions"] * abs(r["predicted"] - r["observed"]) for r in rows) / total


@dataclass
class Run:
    """A training run's state: what a checkpoint holds."""

    game_id: str
    seed: int
    settings: Settings
    network: Network
    optimiser: Adam
    rng: np.random.Generator
    matches: int = 0
    positions: int = 0
    generation: int = 0
    replay: list[MatchData] = field(default_factory=list)
    #: Per generation: its gate and reference figures, kept or not.
    record: list[dict[str, Any]] = field(default_factory=list)
    kept_generation: int | None = None
    command: str = ""


class Trainer:
    """Runs (and resumes) a training run in its folder (see the module's docstring)."""

    def __init__(
        self,
        game_id: str,
        folder: Path,
        seed: int = 0,
        settings: Settings | None = None,
        command: str = "",
        say: Callable[[str], None] = print,
        start: Path | None = None,
    ) -> None:
        self.folder = folder
        self.say = say
        #: Set (by :meth:`request_stop`, e.g. from a signal handler) to end the run at
        #: the end of the round under way, with a checkpoint, as ``hours`` ending does.
        self.stop_requested = False
        folder.mkdir(parents=True, exist_ok=True)
        checkpoint = folder / "checkpoint.npz"
        if checkpoint.exists():
            self.run = load_checkpoint(checkpoint)
            if self.run.game_id != game_id:
                raise ValueError(f"{folder} holds a run of {self.run.game_id}, not {game_id}")
            self.say(
                f"resuming {game_id} from {checkpoint}: {self.run.matches} matches, "
                f"generation {self.run.generation}"
            )
        else:
            chosen = settings or Settings()
            game = load_game(game_id, players=chosen.players)
            features = game.features()
            if features is None:
                raise ValueError(f"{game_id} describes no features to learn a judgement on")
            n = chosen.players
            sizes = [features.size(n), *chosen.hidden, n + int(features.nobody) + 1]
            rng = np.random.default_rng(seed)
            network = Network.fresh(sizes, rng)
            if start is not None:
                # A new run from a kept model's weights (a lost checkpoint, a new setting).
                begun = Network.load(start)
                shapes = [(w.shape, b.shape) for w, b in begun.layers]
                if shapes != [(w.shape, b.shape) for w, b in network.layers]:
                    raise ValueError(f"{start} is not a model of {game_id} with these layers")
                network = Network(begun.layers)
                # Kept beside the run: its first generation is gated against it, as any
                # later one is against the last kept (not kept blindly, as a fresh run's is).
                begun.meta = begun.meta | {"game": game_id, "players": n}
                begun.save(folder / START_MODEL)
            self.run = Run(
                game_id, seed, chosen, network, Adam(network, chosen.learning_rate), rng,
                command=command,
            )  # fmt: skip
        settings = self.run.settings
        self.game = load_game(game_id, players=settings.players)
        features = self.game.features()
        assert features is not None
        self.features = features

    # --- self-play and learning ---------------------------------------------------------

    def play_round(self, workers: int = 1) -> list[MatchData]:
        """The round's matches, on ``workers`` processes (the same matches however many:
        each depends only on its number, the run's seed and the model of the round)."""
        run = self.run
        s = run.settings
        first = run.matches
        layers = [(w.copy(), b.copy()) for w, b in run.network.layers]
        jobs = (
            (run.game_id, s, layers, run.seed, index)
            for index in range(first, first + s.round_matches)
        )
        played = list(run_matches(play_one, jobs, workers, chunk=1, in_order=True))
        run.matches += len(played)
        return played

    def learn(self, fresh: list[MatchData]) -> dict[str, float]:
        """Add ``fresh`` matches to the replay window and take the round's training steps;
        returns the round's loss and calibration on the fresh positions."""
        run = self.run
        s = run.settings
        run.replay.extend(fresh)
        del run.replay[: max(0, len(run.replay) - s.replay_matches)]
        new_rows = sum(len(m.x) for m in fresh)
        run.positions += new_rows
        parts = [td_targets(run.network, m, s.lam) for m in run.replay]
        x = np.concatenate([p[0] for p in parts])
        target = np.concatenate([p[1] for p in parts])
        target_margin = np.concatenate([p[2] for p in parts])
        # calibration of the model as it was, on the fresh positions: the viewer's chance
        # against whether it won
        fresh_parts = parts[len(parts) - len(fresh) :]
        predicted = np.concatenate([p[3][:, 0] for p in fresh_parts])
        observed = np.concatenate(
            [np.array([relative(m.outcome, q, len(m.margins))[0] for q in m.seats]) for m in fresh]
        )
        steps = max(1, round(s.passes * new_rows / s.batch))
        cross = mse = 0.0
        for _ in range(steps):
            pick = run.rng.integers(0, len(x), s.batch)
            grads, c, e = gradients(
                run.network, x[pick], target[pick], target_margin[pick], s.margin_weight
            )
            run.optimiser.apply(run.network, grads)
            cross += c
            mse += e
        return {
            "cross_entropy": cross / steps,
            "margin_mse": mse / steps,
            "calibration_error": calibration_error(calibration(predicted, observed)),
            "positions": float(new_rows),
        }

    # --- generations and gates ------------------------------------------------------------

    def model_meta(self) -> dict[str, Any]:
        run = self.run
        return {
            "game": run.game_id,
            "players": run.settings.players,
            "generation": run.generation,
            "matches": run.matches,
            "positions": run.positions,
            "seed": run.seed,
            "command": run.command,
            "settings": asdict(run.settings),
        }

    def gate(self, workers: int = 1) -> dict[str, Any]:
        """Save the generation's model, gate it against the last kept one (or the
        reference bot), measure it against the reference, and keep it if it passed."""
        from necropolis.analysis.duel import Contender, DuelRun, compare, paired

        run = self.run
        s = run.settings
        path = self.folder / f"generation-{run.generation:03d}.npz"
        model = run.network.copy()
        model.meta = self.model_meta()
        model.save(path)
        candidate = Contender(f"generation-{run.generation}", _player_of(s, path))
        kept_path = self.folder / "kept.npz"
        bank = run.seed + 1
        started = time.perf_counter()
        # What the generation must beat: the last kept one, or the model the run began
        # from until one is kept; nothing for a fresh run's first.
        baseline: tuple[Contender, Path] | None = None
        if run.kept_generation is not None:
            baseline = (
                Contender(f"generation-{run.kept_generation}", _player_of(s, kept_path)),
                self.reference_run(run.kept_generation),
            )
        elif (self.folder / START_MODEL).exists():
            baseline = (
                Contender("start", _player_of(s, self.folder / START_MODEL)),
                self.folder / "reference-start.jsonl",
            )
        gate_figures: dict[str, Any] | None = None
        if baseline is not None:
            gate = compare(candidate, baseline[0], run.game_id, s.gate_deals, bank, workers)
            gate_figures = gate.figures()
        reference_figures: dict[str, Any] | None = None
        against_kept: dict[str, Any] | None = None
        if s.reference_deals:
            reference = compare(
                candidate, s.reference, run.game_id, s.reference_deals, bank + 1, workers
            )
            reference_figures = reference.figures()
            # Every generation meets the reference on the same deals: kept, its run pairs
            # with any later generation's.
            reference.write(self.reference_run(run.generation))
            if baseline is not None:
                contender, kept_reference = baseline
                if run.kept_generation is None and not kept_reference.exists():
                    # The model the run began from meets the reference once, on the
                    # same deals, so that the first generations pair with it.
                    compare(
                        contender, s.reference, run.game_id, s.reference_deals, bank + 1, workers
                    ).write(kept_reference)
                if kept_reference.exists():
                    figures = paired(reference, DuelRun.read(kept_reference))
                    against_kept = {k: figures[k] for k in ("deals", "difference", "ci95")}
        # A fresh run's first generation has nothing to be gated against: it is kept, and
        # measured.
        kept = gate_figures is None or gate_figures["score_share"] > 0.5
        if s.reference_gate and against_kept is not None:
            kept = kept and against_kept["difference"] >= 0.0
        entry = {
            "generation": run.generation,
            "matches": run.matches,
            "positions": run.positions,
            "against": gate_figures["against"][0] if gate_figures else None,
            "gate": _summary(gate_figures) if gate_figures else None,
            "reference": _summary(reference_figures) if reference_figures else None,
            "reference_against_kept": against_kept,
            "kept": kept,
            "seconds": round(time.perf_counter() - started, 1),
        }
        run.record.append(entry)
        if kept:
            model.save(kept_path)
            run.kept_generation = run.generation
        return entry

    # --- the loop --------------------------------------------------------------------------

    def train(
        self,
        hours: float | None = None,
        rounds: int | None = None,
        workers: int = 1,
        checkpoint_seconds: float = 120.0,
    ) -> None:
        """Train until ``hours`` have passed or ``rounds`` rounds are done (whichever
        first; neither: for ever), checkpointing at least every ``checkpoint_seconds``
        and at every generation's end."""
        run = self.run
        s = run.settings
        deadline = time.monotonic() + hours * 3600 if hours is not None else math.inf
        last_save = time.monotonic()
        done = 0
        while (
            time.monotonic() < deadline
            and (rounds is None or done < rounds)
            and not self.stop_requested
        ):
            # CPU seconds where the matches are played here, else the wall clock's
            clock = time.process_time if workers == 1 else time.perf_counter
            started = clock()
            fresh = self.play_round(workers)
            played = clock() - started
            stats = self.learn(fresh)
            done += 1
            self.say(
                f"{run.game_id} gen {run.generation}: {run.matches} matches, "
                f"{run.positions} positions, loss {stats['cross_entropy']:.4f} "
                f"(margin {stats['margin_mse']:.3f}), calibration off by "
                f"{stats['calibration_error']:.3f}, {played / len(fresh):.3f} s a match"
                + self.last_gate()
            )
            if run.matches >= (run.generation + 1) * s.generation_matches:
                entry = self.gate(workers)
                self.say(self.describe_gate(entry))
                run.generation += 1
                self.save()
                last_save = time.monotonic()
            elif time.monotonic() - last_save >= checkpoint_seconds:
                self.save()
                last_save = time.monotonic()
        self.save()

    def reference_run(self, generation: int) -> Path:
        """Where a generation's matches against the reference bot are kept."""
        return self.folder / f"reference-{generation:03d}.jsonl"

    def request_stop(self) -> None:
        """End :meth:`train` once the round (or the gate) under way is done, with a
        checkpoint: nothing played is lost. Safe to call from a signal handler."""
        self.stop_requested = True

    def last_gate(self) -> str:
        if not self.run.record:
            return ""
        entry = self.run.record[-1]
        return f"; last gate: gen {entry['generation']} {'kept' if entry['kept'] else 'not kept'}"

    @staticmethod
    def describe_gate(entry: dict[str, Any]) -> str:
        gate = entry["gate"]
        if gate is None:
            text = f"generation {entry['generation']}, the first, kept"
        else:
            text = (
                f"gate of generation {entry['generation']} against {entry['against']}: "
                f"{gate['score_share']:.3f} ({gate['ci95'][0]:.3f}-{gate['ci95'][1]:.3f}) "
                f"of {gate['matches']} matches, {'kept' if entry['kept'] else 'not kept'}"
            )
        ref = entry.get("reference")
        if ref:
            text += (
                f"; against the reference {ref['score_share']:.3f} "
                f"({ref['ci95'][0]:.3f}-{ref['ci95'][1]:.3f}) of {ref['matches']}"
            )
        versus = entry.get("reference_against_kept")
        if versus:
            low, high = versus["ci95"]
            text += (
                f", {versus['difference']:+.3f} ({low:+.3f} to {high:+.3f}) on the "
                f"same {versus['deals']} deals as the last kept"
            )
        return text

    def save(self) -> None:
        save_checkpoint(self.run, self.folder / "checkpoint.npz")
        (self.folder / "record.json").write_text(
            json.dumps(
                {
                    "game": self.run.game_id,
                    "seed": self.run.seed,
                    "command": self.run.command,
                    "settings": asdict(self.run.settings),
                    "matches": self.run.matches,
                    "positions": self.run.positions,
                    "kept_generation": self.run.kept_generation,
                    "generations": self.run.record,
                },
                indent=1,
            )
            + "\n"
        )


def _summary(figures: dict[str, Any]) -> dict[str, Any]:
    keep = ("matches", "deals", "score_share", "ci95", "elo", "elo_ci95", "nobody_out")
    out = {k: figures[k] for k in keep if k in figures}
    out["score_margin"] = figures["score_margin"]["mean"]
    return out


# --- checkpoints ---------------------------------------------------------------------------


def save_checkpoint(run: Run, path: Path) -> None:
    """Everything a run needs to go on exactly, in one ``.npz`` (written aside, then moved
    into place, so a stop while writing leaves the last one whole)."""
    arrays: dict[str, Any] = {}
    for i, (w, b) in enumerate(run.network.layers):
        arrays[f"w{i}"] = w
        arrays[f"b{i}"] = b
    for i, (m, v) in enumerate(zip(run.optimiser.m, run.optimiser.v, strict=True)):
        arrays[f"m{i}"] = m
        arrays[f"v{i}"] = v
    if run.replay:
        arrays["replay_x"] = np.concatenate([m.x for m in run.replay])
        arrays["replay_seats"] = np.concatenate([m.seats for m in run.replay])
        arrays["replay_sizes"] = np.array([len(m.x) for m in run.replay], dtype=np.int64)
        arrays["replay_outcome"] = np.stack([m.outcome for m in run.replay])
        arrays["replay_margins"] = np.stack([m.margins for m in run.replay])
    meta = {
        "game": run.game_id,
        "seed": run.seed,
        "settings": asdict(run.settings),
        "matches": run.matches,
        "positions": run.positions,
        "generation": run.generation,
        "record": run.record,
        "kept_generation": run.kept_generation,
        "command": run.command,
        "adam_step": run.optimiser.step,
        "rng": run.rng.bit_generator.state,
        "network_meta": run.network.meta,
    }
    arrays["meta"] = np.array(json.dumps(meta))
    partial_path = path.with_suffix(".partial.npz")
    with partial_path.open("wb") as out:
        np.savez(out, **arrays)
    partial_path.replace(path)


def load_checkpoint(path: Path) -> Run:
    """The run a checkpoint holds."""
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
        layers = []
        i = 0
        while f"w{i}" in data:
            layers.append((data[f"w{i}"].copy(), data[f"b{i}"].copy()))
            i += 1
        network = Network(layers, meta.get("network_meta", {}))
        settings = Settings.from_json(meta["settings"])
        optimiser = Adam(network, settings.learning_rate)
        optimiser.step = int(meta["adam_step"])
        optimiser.m = [data[f"m{j}"].copy() for j in range(len(optimiser.m))]
        optimiser.v = [data[f"v{j}"].copy() for j in range(len(optimiser.v))]
        replay: list[MatchData] = []
        if "replay_sizes" in data:
            x, seats = data["replay_x"], data["replay_seats"]
            start = 0
            for k, size in enumerate(data["replay_sizes"]):
                end = start + int(size)
                replay.append(
                    MatchData(
                        x[start:end].copy(),
                        seats[start:end].copy(),
                        data["replay_outcome"][k].copy(),
                        data["replay_margins"][k].copy(),
                    )
                )
                start = end
    rng = np.random.default_rng()
    rng.bit_generator.state = meta["rng"]
    return Run(
        game_id=meta["game"],
        seed=int(meta["seed"]),
        settings=settings,
        network=network,
        optimiser=optimiser,
        rng=rng,
        matches=int(meta["matches"]),
        positions=int(meta["positions"]),
        generation=int(meta["generation"]),
        replay=replay,
        record=list(meta["record"]),
        kept_generation=meta["kept_generation"],
        command=str(meta.get("command", "")),
    )


# --- research contenders: hard's search on the learned judgement ------------------------


def hard_judged() -> Player:
    """Hard's search without its clock (as ``hard-unclocked`` of
    :mod:`necropolis.analysis.headroom`) with its cut-off leaves judged by the game's
    evaluator (its shipped learned judgement; its estimate where it ships none), anchored
    as hard is: on the same bank as ``hard-unclocked`` the two pair deal by deal.
    Research, not a level (``necropolis strength`` plays it as
    ``necropolis.analysis.training:hard_judged``)."""
    from necropolis.analysis.headroom import HardSearch

    bot = HardSearch(1, "hard-judged")
    bot.judgement = True
    return bot


def hard_judged_free() -> Player:
    """:func:`hard_judged` without the anchor: the search on the learned judgement alone."""
    from necropolis.analysis.headroom import HardSearch

    bot = HardSearch(1, "hard-judged-free")
    bot.judgement = True
    bot.anchor = None
    return bot


class EstimateOnePly:
    """A one-ply look on the game's hand-written estimate: in one world drawn from the
    seat's window, each legal move applied and the seat's :meth:`State.estimate_returns`
    of the position compared (research: what a one-ply look is worth on a judgement
    fitted by hand, beside the learned one-ply bot)."""

    name = "estimate-one-ply"

    def choose(self, window: SeatWindow, rng: random.Random) -> int:
        actions = window.legal_actions()
        if len(actions) == 1:
            return actions[0]
        world = window.resample(rng)
        best: list[int] = []
        top = -math.inf
        for action in actions:
            child = world.clone()
            child.apply_legal_action(action)
            value = child.estimate_returns()[window.seat]
            if value > top + 1e-12:
                best, top = [action], value
            elif value > top - 1e-12:
                best.append(action)
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


def estimate_one_ply() -> Player:
    """:class:`EstimateOnePly` (``necropolis.analysis.training:estimate_one_ply``)."""
    return EstimateOnePly()


# --- reports: reliability and the generations' strength --------------------------------------

#: The bands of predicted chance a reliability table counts positions in.
BANDS = 10


#: What a judge of :func:`judged_matches` says about one position.
Said = TypeVar("Said")


def judged_matches(
    game: Game,
    matches: int | range,
    seed: int,
    judge: Callable[[int, State], list[Said]],
    player: str = "heuristic",
    every: int = 1,
) -> Iterator[tuple[int, list[Said], list[float]]]:
    """Matches of ``player`` in every seat (match ``i`` from ``match_seed(seed, i)``, as
    a tournament seeds it), with ``judge(i, state)`` asked at every ``every``-th real
    decision: per match, its index, what the judge said (in order) and the returns.
    These are the positions of sound play that calibration and recalibration read.
    ``matches`` is a count (the first so many) or the matches' indices."""
    if every < 1:
        raise ValueError("every is 1 or more: every decision, or every so many")
    players = game.num_players
    for i in range(matches) if isinstance(matches, int) else matches:
        lineup = [make_bot(player) for _ in range(players)]
        seed_i = match_seed(seed, i)
        chance = random.Random(seed_i)
        rngs = player_rngs(seed_i, players)
        state = game.new_initial_state()
        said: list[Said] = []
        decisions = 0
        while not state.is_terminal():
            mover = state.current_player()
            if mover == CHANCE:
                state.apply_legal_action(sample_chance(state, chance))
                continue
            window = SeatWindow(state, mover)
            real = len(window.legal_actions()) > 1
            decisions += real
            if real and (decisions - 1) % every == 0:
                said.extend(judge(i, state))
            state.apply_action(lineup[mover].choose(window, rngs[mover]))
        yield i, said, state.returns()


def reliability(
    game_id: str,
    network: Network | None,
    matches: int,
    seed: int,
    player: str = "heuristic",
    players: int = 2,
    worlds: int = 1,
    every: int = 1,
    recalibrated: bool = True,
    workers: int = 1,
) -> dict[str, Any]:
    """How well a judgement's chances come true: the model's beside the game's
    hand-written estimate, or (``network`` None) the estimate's alone; the estimate is
    the mean over ``worlds`` worlds drawn from each window, as the analysis averages it.
    ``matches`` matches of ``player`` in every seat (positions of sound play, which the
    analysis and hard's search judge), every seat's view at every real decision judged,
    each seat's predicted chance to win binned against whether it won (a match nobody won
    counts as lost, as the chance is of winning). The estimate is recalibrated where
    the game ships a map, unless ``recalibrated`` is False. With ``every`` above one, only every
    ``every``-th real decision of a match is judged, so that more matches fit the time.
    With ``workers`` above one, the matches are shared among that many processes; the
    table comes out the same.

    A match's positions all share its outcome, so a band's share won varies with the
    matches far more than its count of positions says: each band's ``observed_ci95`` is a
    95% interval from resampling whole matches (2,000 times, seeded).

    Returned in the form ``docs/strength/summary.json`` copies: the bands, the mean
    prediction, the share observed and the positions in each band, and the Brier score
    (the mean squared error); beside a model, the same of the estimate (``estimate``).
    ``model`` names what was judged (a model's generation, matches, seed and command, or
    ``{"judge": "estimate"}``).
    """
    game = load_game(game_id, players=players)
    parts = share_matches(
        _reliability_rows,
        matches,
        workers,
        game_id,
        network,
        seed,
        player,
        players,
        worlds,
        every,
        recalibrated,
    )
    # Back into the matches' order, as one process would have judged them.
    rows = sorted((row for part in parts for row in part), key=lambda row: row[3])
    predicted = [row[0] for row in rows]
    guessed = [row[1] for row in rows]
    observed = [row[2] for row in rows]
    which = [row[3] for row in rows]
    won = np.array(observed)
    table = calibration(np.array(predicted), won, BANDS)
    other = calibration(np.array(guessed), won, BANDS)
    spread = band_intervals(np.array(predicted), won, np.array(which), matches, BANDS, seed)
    mapped = recalibrated and recalibration(game) is not None
    judged = (
        {"judge": "recalibrated estimate" if mapped else "estimate", "worlds": worlds}
        if network is None
        else {k: network.meta.get(k) for k in ("generation", "matches", "seed", "command")}
    )
    table_of = {
        "game": game_id,
        "players": players,
        "model": judged,
        "positions_of": f"{player} in every seat",
        "matches": matches,
        "seed": seed,
        "every": every,
        "bands": [[round(r["low"], 2), round(r["high"], 2)] for r in table],
        "predicted": [round(r["predicted"], 4) for r in table],
        "observed": [round(r["observed"], 4) for r in table],
        "observed_ci95": [[round(lo, 4), round(hi, 4)] for lo, hi in spread],
        "positions": [int(r["positions"]) for r in table],
        "error": round(calibration_error(table), 4),
        "brier": round(float(((np.array(predicted) - won) ** 2).mean()), 4),
    }
    if network is None:
        return table_of
    return table_of | {
        "estimate": {
            "predicted": [round(r["predicted"], 4) for r in other],
            "observed": [round(r["observed"], 4) for r in other],
            "positions": [int(r["positions"]) for r in other],
            "error": round(calibration_error(other), 4),
            "brier": round(float(((np.array(guessed) - won) ** 2).mean()), 4),
        },
    }


Share = TypeVar("Share")


def share_matches(
    work: Callable[..., Share], matches: int, workers: int, *arguments: Any
) -> list[Share]:
    """``work(which, *arguments)`` for the matches ``range(matches)``, dealt round among
    ``workers`` processes (one: in this one), each share's result in the order of the
    shares; a match's seed is its index's, so the shares judge what one process would."""
    if workers < 1:
        raise ValueError("workers is 1 or more")
    if workers == 1:
        return [work(range(matches), *arguments)]
    shares = [range(matches)[w::workers] for w in range(workers)]
    with ProcessPoolExecutor(workers) as pool:
        jobs = [pool.submit(work, share, *arguments) for share in shares]
        return [job.result() for job in jobs]


def _reliability_rows(
    which: range,
    game_id: str,
    network: Network | None,
    seed: int,
    player: str,
    players: int,
    worlds: int,
    every: int,
    recalibrated: bool,
) -> list[tuple[float, float, float, int]]:
    """:func:`reliability`'s judged views of the matches ``which``: per view, the
    judgement's chance, the estimate's, the seat's return and the match's index."""
    game = load_game(game_id, players=players)
    estimate = EstimateEvaluator(game, worlds=worlds, recalibrated=recalibrated)
    judge: Evaluator = estimate if network is None else LearnedEvaluator(game, network)

    def seats(_: int, state: State) -> list[tuple[float, float, int]]:
        windows = [SeatWindow(state, q) for q in range(players)]
        learned = judge.judge(windows).chances
        hand = learned if judge is estimate else estimate.judge(windows).chances
        return [(learned[q, q], hand[q, q], q) for q in range(players)]

    rows: list[tuple[float, float, float, int]] = []
    for i, said, returns in judged_matches(game, which, seed, seats, player, every):
        rows.extend((float(mine), float(theirs), returns[q], i) for mine, theirs, q in said)
    return rows


def training_record(record: dict[str, Any]) -> dict[str, Any]:
    """A run's ``record.json`` in the form ``docs/strength/summary.json`` copies: each
    generation with the self-play matches it played (``matches``) and in all so far."""
    generations = []
    before = 0
    for entry in record["generations"]:
        generations.append(
            entry | {"matches": entry["matches"] - before, "total_matches": entry["matches"]}
        )
        before = entry["matches"]
    return {
        "game": record["game"],
        "seed": record["seed"],
        "command": record["command"],
        "settings": record["settings"],
        "kept_generation": record["kept_generation"],
        "generations": generations,
    }


def _worlds(count: int) -> str:
    return "1 world" if count == 1 else f"{count} worlds"


def plot_reliability(data: dict[str, Any], path: Path) -> None:
    """The reliability diagram of :func:`reliability`'s table, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 5))
    ax.plot([0, 1], [0, 1], color="grey", linewidth=1, label="perfect")
    shown = [
        (p, o, n)
        for p, o, n in zip(data["predicted"], data["observed"], data["positions"], strict=True)
        if n
    ]
    ax.plot(
        [p for p, _, _ in shown],
        [o for _, o, _ in shown],
        "o-",
        label=f"{data['model'].get('judge', 'learned')} (Brier {data['brier']:.3f})",
    )
    for p, o, n in shown:
        ax.annotate(f"{n}", (p, o), textcoords="offset points", xytext=(4, -10), fontsize=7)
    spread = data.get("observed_ci95")
    if spread:  # the bands' intervals over whole matches
        kept = [
            (p, o, lo, hi)
            for p, o, n, (lo, hi) in zip(
                data["predicted"], data["observed"], data["positions"], spread, strict=True
            )
            if n
        ]
        ax.errorbar(
            [p for p, _, _, _ in kept],
            [o for _, o, _, _ in kept],
            yerr=[[o - lo for _, o, lo, _ in kept], [hi - o for _, o, _, hi in kept]],
            fmt="none",
            ecolor="C0",
            capsize=3,
            linewidth=1,
        )
    hand = data.get("estimate")
    if hand:
        pairs = [
            (p, o)
            for p, o, n in zip(hand["predicted"], hand["observed"], hand["positions"], strict=True)
            if n
        ]
        ax.plot(
            [p for p, _ in pairs],
            [o for _, o in pairs],
            "s--",
            alpha=0.7,
            label=f"hand-written estimate (Brier {hand['brier']:.3f})",
        )
    ax.set_xlabel("predicted chance to win")
    ax.set_ylabel("share of those positions won")
    model = data["model"]
    judged = (
        f"the {model['judge']} ({_worlds(model.get('worlds', 1))} a view)"
        if "judge" in model
        else f"generation {model.get('generation')}"
    )
    ax.set_title(
        f"{data['game']}, {data['players']} players: {judged},\n"
        f"{data['matches']} matches, {data['positions_of']}",
        fontsize=9,
    )
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)


def plot_generations(record: dict[str, Any], path: Path) -> None:
    """Strength by generation: each generation's score share against the reference bot
    and in its gate, with their 95% intervals, as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    started = any(g.get("against") == "start" for g in record["generations"])
    fig, ax = plt.subplots(figsize=(7, 4))
    for key, label in (
        ("reference", f"against {record['settings']['reference']}"),
        ("gate", "against the last kept" + (" or the start model" if started else "")),
    ):
        points = [
            (g["total_matches"], g[key]["score_share"], g[key]["ci95"])
            for g in record["generations"]
            if g.get(key)
        ]
        if not points:
            continue
        xs = [x for x, _, _ in points]
        ys = [y for _, y, _ in points]
        err = [[y - c[0] for _, y, c in points], [c[1] - y for _, y, c in points]]
        ax.errorbar(xs, ys, yerr=err, fmt="o-", capsize=3, label=label)
    ax.axhline(0.5, color="grey", linewidth=1)
    ax.set_xlabel("self-play matches")
    ax.set_ylabel("score share (nobody out: half)")
    ax.set_ylim(0, 1)
    iterations = record["settings"].get("search_iterations", 0)
    player = (
        f"the {iterations}-iteration search on the model" if iterations else "the one-ply model"
    )
    ax.set_title(f"{record['game']}: {player} by generation", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
