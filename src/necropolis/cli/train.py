"""``necropolis train``: learn a game's judgement by self-play, resumably, at low priority.

Runs :class:`~necropolis.analysis.training.Trainer` in a folder of its own (by default
``training/GAME-Np`` under the current directory): a folder that holds a checkpoint is
taken up again where it stopped, with the settings it began with. Progress is printed a
line a round (matches, positions, loss, calibration, the last gate) and kept in the
folder's ``progress.log``; every generation's gate is in its ``record.json``. SIGTERM
stops a run at the end of its round with a checkpoint (a second SIGTERM, or Ctrl-C, at
once, back to the last checkpoint). ``--export`` writes the last kept model to a file (a
game ships it as ``judgement-<N>p.npz``).
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from necropolis.cli.common import console, fail
from necropolis.engine.errors import NecropolisError
from necropolis.games import game_class

if TYPE_CHECKING:
    from necropolis.analysis.training import Trainer


def train(
    game_id: Annotated[str, typer.Argument(metavar="GAME")],
    hours: Annotated[
        float | None,
        typer.Option("--hours", min=0.0, help="stop after this long (default: never)"),
    ] = None,
    rounds: Annotated[
        int | None, typer.Option("--rounds", min=1, help="stop after this many rounds")
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="the run's seed (a new run only)")] = 0,
    players: Annotated[int, typer.Option("--players", "-p", min=2, help="seats")] = 2,
    folder: Annotated[
        Path | None,
        typer.Option("--dir", help="the run's folder (default: training/GAME-Np)"),
    ] = None,
    hidden: Annotated[
        str, typer.Option("--hidden", help="hidden layer sizes, comma-separated (a new run)")
    ] = "64",
    generation: Annotated[
        int, typer.Option("--generation-matches", min=1, help="self-play matches a generation")
    ] = 2000,
    gate_deals: Annotated[
        int,
        typer.Option("--gate-deals", min=1, help="duplicate deals of a gate (two matches each)"),
    ] = 500,
    reference_deals: Annotated[
        int,
        typer.Option(
            "--reference-deals", min=0, help="deals against the reference bot a generation"
        ),
    ] = 100,
    warm: Annotated[
        int,
        typer.Option("--warm", min=0, help="first matches played by the reference bot"),
    ] = 0,
    reference_share: Annotated[
        float,
        typer.Option(
            "--reference-share",
            min=0.0,
            max=1.0,
            help="share of the self-play matches with the reference bot in one seat",
        ),
    ] = 0.0,
    reference_gate: Annotated[
        bool,
        typer.Option(
            "--reference-gate",
            help="keep a generation only if it also does no worse against the reference "
            "bot than the last kept one, on the same deals",
        ),
    ] = False,
    turn_leaves: Annotated[
        int,
        typer.Option(
            "--turn-leaves",
            min=0,
            help="positions the one-ply bot may judge of the rest of the mover's turn",
        ),
    ] = 0,
    search: Annotated[
        int,
        typer.Option(
            "--search-iterations",
            min=0,
            help="expert iteration: matches played by hard's search with this many "
            "iterations on the model (0: the one-ply bot)",
        ),
    ] = 0,
    epsilon: Annotated[
        float, typer.Option("--epsilon", min=0.0, max=1.0, help="random moves in self-play")
    ] = 0.05,
    lam: Annotated[float, typer.Option("--lambda", min=0.0, max=1.0, help="TD(λ)'s λ")] = 0.8,
    workers: Annotated[
        int, typer.Option("--workers", "-w", min=1, help="processes for self-play and gates")
    ] = 1,
    niceness: Annotated[
        int, typer.Option("--nice", min=0, max=19, help="run at least this nice")
    ] = 19,
    start: Annotated[
        Path | None,
        typer.Option(
            "--start-from",
            help="a new run begins from this model's weights (e.g. a kept model whose "
            "run's checkpoint is gone), and gates its first generation against it",
        ),
    ] = None,
    export: Annotated[
        Path | None,
        typer.Option("--export", help="write the last kept model to this file, and stop"),
    ] = None,
    report: Annotated[
        Path | None,
        typer.Option(
            "--report",
            help="write the run's record and its plot (training-GAME.json, .png) into this "
            "folder, and stop",
        ),
    ] = None,
    calibration_matches: Annotated[
        int,
        typer.Option(
            "--calibration-matches",
            min=0,
            help="with --report: also the kept model's reliability, beside the game's "
            "estimate, on this many matches of the heuristic (calibration-GAME.json, .png)",
        ),
    ] = 0,
) -> None:
    """Learn GAME's judgement (win chances and margin from a seat's view) by self-play."""
    from necropolis.analysis.training import Settings, Trainer

    try:
        cls = game_class(game_id)
    except NecropolisError as exc:
        raise fail(str(exc)) from None
    if not cls.min_players <= players <= cls.max_players:
        raise fail(f"{game_id} is played by {cls.min_players} to {cls.max_players} players")
    run_folder = folder or Path("training") / f"{game_id}-{players}p"
    if export is not None:
        kept = run_folder / "kept.npz"
        if not kept.exists():
            raise fail(f"{run_folder} holds no kept model yet")
        export.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(kept, export)
        console.print(f"wrote {export}")
        return
    if report is not None:
        _report(game_id, run_folder, report, calibration_matches, seed)
        return
    try:
        sizes = tuple(int(x) for x in hidden.split(","))
    except ValueError:
        raise fail(f"--hidden takes sizes such as 64 or 64,32, not {hidden!r}") from None
    if not sizes or min(sizes) < 1:
        raise fail("--hidden needs at least one layer of at least one unit")
    if reference_gate and not reference_deals:
        raise fail("--reference-gate needs --reference-deals: the deals it is judged on")
    if os.nice(0) < niceness:
        os.nice(niceness - os.nice(0))
    settings = Settings(
        players=players,
        hidden=sizes,
        lam=lam,
        epsilon=epsilon,
        generation_matches=generation,
        gate_deals=gate_deals,
        reference_deals=reference_deals,
        warm_matches=warm,
        reference_share=reference_share,
        reference_gate=reference_gate,
        turn_leaves=turn_leaves,
        search_iterations=search,
    )
    # What makes the same run again (how long it ran is not part of it).
    words = ["necropolis", "train", game_id, "--seed", str(seed), "--players", str(players)]
    words += ["--dir", str(run_folder), "--hidden", hidden]
    words += ["--generation-matches", str(generation), "--gate-deals", str(gate_deals)]
    words += ["--reference-deals", str(reference_deals), "--warm", str(warm)]
    words += ["--reference-share", str(reference_share), "--turn-leaves", str(turn_leaves)]
    words += ["--search-iterations", str(search)]
    if reference_gate:
        words += ["--reference-gate"]
    words += ["--epsilon", str(epsilon), "--lambda", str(lam)]
    command = shlex.join(words)
    log = run_folder / "progress.log"
    run_folder.mkdir(parents=True, exist_ok=True)

    def say(line: str) -> None:
        console.print(line, markup=False, soft_wrap=True)
        with log.open("a") as out:
            out.write(line + "\n")

    if start is not None:
        words += ["--start-from", str(start)]
        command = shlex.join(words)
    try:
        trainer = Trainer(
            game_id, run_folder, seed, settings, command=command, say=say, start=start
        )
    except (ValueError, OSError) as exc:
        raise fail(str(exc)) from None
    if trainer.run.settings != settings and (run_folder / "checkpoint.npz").exists():
        say("(the run goes on with the settings it began with)")
    with _stopped_by_sigterm(trainer, say):
        try:
            trainer.train(hours=hours, rounds=rounds, workers=workers)
        except KeyboardInterrupt:
            say("stopped; the last checkpoint is where it resumes")
            raise typer.Exit(130) from None
    if trainer.stop_requested:
        say("stopped at the end of a round, checkpointed: nothing played is lost")


@contextmanager
def _stopped_by_sigterm(trainer: Trainer, say: Callable[[str], None]) -> Iterator[None]:
    """While training, the first SIGTERM ends the run at the end of its round, checkpointed
    (a run started in the background by a script ignores SIGINT, so SIGTERM is how it is
    stopped); a second one stops it at once, as Ctrl-C does, losing what the last
    checkpoint does not hold."""

    home = os.getpid()

    def on_term(signum: int, frame: object) -> None:
        if os.getpid() != home:
            # A worker forked while training (a kill of the whole job reaches it too)
            # goes on: its round is what the first SIGTERM waits for, and the main
            # process ends the pool.
            return
        if trainer.stop_requested:
            raise KeyboardInterrupt
        trainer.request_stop()
        say("SIGTERM: stopping at the end of this round (again: at once)")

    try:
        before = signal.signal(signal.SIGTERM, on_term)
    except ValueError:  # not the main thread (a test's runner): no handler to install
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


def _report(game_id: str, run_folder: Path, out: Path, matches: int, seed: int) -> None:
    """The run's record and plot, and with ``matches`` its kept model's reliability."""
    import json

    from necropolis.analysis.training import (
        plot_generations,
        plot_reliability,
        reliability,
        training_record,
    )
    from necropolis.bots.judgement import Network

    path = run_folder / "record.json"
    if not path.exists():
        raise fail(f"{run_folder} holds no training record yet")
    record = training_record(json.loads(path.read_text()))
    out.mkdir(parents=True, exist_ok=True)
    (out / f"training-{game_id}.json").write_text(json.dumps(record, indent=1) + "\n")
    plot_generations(record, out / f"training-{game_id}.png")
    console.print(f"wrote {out / f'training-{game_id}.json'} and its plot")
    if matches:
        kept = run_folder / "kept.npz"
        if not kept.exists():
            raise fail(f"{run_folder} holds no kept model yet")
        network = Network.load(kept)
        table = reliability(game_id, network, matches, seed, players=int(network.meta["players"]))
        words = ["necropolis", "train", game_id, "--dir", str(run_folder), "--report", str(out)]
        words += ["--calibration-matches", str(matches), "--seed", str(seed)]
        table["command"] = shlex.join(words)
        (out / f"calibration-{game_id}.json").write_text(json.dumps(table, indent=1) + "\n")
        plot_reliability(table, out / f"calibration-{game_id}.png")
        console.print(
            f"wrote {out / f'calibration-{game_id}.json'}: off by {table['error']:.3f} on "
            f"{sum(table['positions'])} positions"
        )
