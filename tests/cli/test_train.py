"""``necropolis train``: a short run through the command line, its folder, its export, and
clear refusals of what it cannot do."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from necropolis.analysis.training import Trainer
from necropolis.bots.judgement import Network
from necropolis.cli.main import app

runner = CliRunner()


def test_a_short_run_prints_its_progress_and_exports_its_kept_model(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    args = ["train", "luxor2001", "--dir", str(folder), "--rounds", "2", "--nice", "0"]
    args += ["--hidden", "8", "--generation-matches", "10", "--gate-deals", "1"]
    args += ["--reference-deals", "0", "--seed", "6"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert "20 matches" in result.output and "generation 0, the first, kept" in result.output
    assert "gate of generation 1 against generation-0" in result.output
    record = json.loads((folder / "record.json").read_text())
    assert record["seed"] == 6 and len(record["generations"]) == 2
    assert record["command"].startswith("necropolis train luxor2001")
    assert (folder / "progress.log").read_text().count("\n") >= 4
    out = tmp_path / "model.npz"
    result = runner.invoke(app, ["train", "luxor2001", "--dir", str(folder), "--export", str(out)])
    assert result.exit_code == 0, result.output
    assert Network.load(out).meta["game"] == "luxor2001"
    report = tmp_path / "report"
    args = ["train", "luxor2001", "--dir", str(folder), "--report", str(report)]
    result = runner.invoke(app, [*args, "--calibration-matches", "2"])
    assert result.exit_code == 0, result.output
    training = json.loads((report / "training-luxor2001.json").read_text())
    # each generation says the matches it played, and all so far
    assert [g["matches"] for g in training["generations"]] == [10, 10]
    assert [g["total_matches"] for g in training["generations"]] == [10, 20]
    table = json.loads((report / "calibration-luxor2001.json").read_text())
    assert len(table["bands"]) == len(table["predicted"]) == len(table["positions"]) == 10
    assert sum(table["positions"]) > 0 and table["matches"] == 2
    # the estimate judged the same positions
    assert sum(table["estimate"]["positions"]) == sum(table["positions"])
    assert 0.0 <= table["brier"] <= 1.0 and 0.0 <= table["estimate"]["brier"] <= 1.0
    assert table["command"].startswith("necropolis train luxor2001")
    for name in ("training-luxor2001.png", "calibration-luxor2001.png"):
        assert (report / name).read_bytes()[:4] == b"\x89PNG"


def test_bad_requests_are_refused_clearly(tmp_path: Path) -> None:
    cases = [
        (["train", "luxor2001", "--players", "5"], "2 to 4 players"),
        (["train", "luxor2001", "--dir", str(tmp_path), "--hidden", "big"], "--hidden"),
        (["train", "luxor2001", "--dir", str(tmp_path), "--export", "x.npz"], "no kept model"),
        (["train", "nogame"], "no game called"),
        (
            [
                *["train", "luxor2001", "--dir", str(tmp_path), "--reference-gate"],
                *["--reference-deals", "0"],
            ],
            "--reference-gate needs --reference-deals",
        ),
    ]
    for args, message in cases:
        result = runner.invoke(app, args)
        assert result.exit_code != 0
        assert message in " ".join(result.output.split()), result.output


def test_the_calibration_of_a_game_s_estimate_and_of_a_model_beside_it(tmp_path: Path) -> None:
    out = tmp_path / "calibration-luxor2001.json"
    args = ["strength", "calibration", "luxor2001", "--matches", "3", "--out", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    table = json.loads(out.read_text())
    # luxor2001 ships a recalibration, so its estimate is judged through it unless --raw
    assert table["model"] == {"judge": "recalibrated estimate", "worlds": 1}
    assert "estimate" not in table
    assert table["command"].startswith("necropolis strength calibration luxor2001 --players 2")
    raw = tmp_path / "raw.json"
    result = runner.invoke(app, [*args[:-1], str(raw), "--raw"])
    assert result.exit_code == 0, result.output
    unmapped = json.loads(raw.read_text())
    assert unmapped["model"] == {"judge": "estimate", "worlds": 1}
    assert "--raw" in unmapped["command"]
    assert sum(unmapped["positions"]) == sum(table["positions"])  # the same positions
    assert unmapped["predicted"] != table["predicted"]
    assert sum(table["positions"]) > 0 and table["matches"] == 3
    # every position of both seats is judged once, its prediction inside its band
    for (low, high), p, n in zip(
        table["bands"], table["predicted"], table["positions"], strict=True
    ):
        assert n == 0 or low - 1e-9 <= p <= high + 1e-9
    assert out.with_suffix(".png").stat().st_size > 0
    kept = Path(__file__).resolve().parents[2] / "docs" / "strength" / "models"
    beside = tmp_path / "beside.json"
    args = ["strength", "calibration", "luxor2001", "--matches", "3", "--out", str(beside)]
    result = runner.invoke(app, [*args, "--model", str(kept / "luxor2001-2p.npz")])
    assert result.exit_code == 0, result.output
    both = json.loads(beside.read_text())
    assert both["model"]["generation"] == 0 and "--model" in both["command"]
    # the same matches' positions, judged by the estimate beside the model
    assert both["estimate"]["positions"] == table["positions"]
    assert both["estimate"]["predicted"] == table["predicted"]
    # the estimate's mean over worlds drawn from each view: the same positions
    mean = tmp_path / "mean.json"
    args_mean = ["strength", "calibration", "luxor2001", "-n", "3", "--worlds", "4"]
    result = runner.invoke(app, [*args_mean, "--out", str(mean)])
    assert result.exit_code == 0, result.output
    averaged = json.loads(mean.read_text())
    assert averaged["model"]["worlds"] == 4 and "--worlds 4" in averaged["command"]
    assert sum(averaged["positions"]) == sum(table["positions"])
    assert averaged["predicted"] != table["predicted"]
    wrong = runner.invoke(app, [*args, "--model", str(kept / "horus-2p.npz")])
    assert wrong.exit_code != 0
    assert "is a model of horus at 2 players, not luxor2001" in " ".join(wrong.output.split())


@pytest.mark.parametrize("workers", [1, 2])
def test_sigterm_ends_a_background_run_at_a_round_s_end_with_nothing_lost(
    tmp_path: Path, workers: int
) -> None:
    # A run started in the background by a script ignores SIGINT; SIGTERM is how it is
    # stopped, and the matches it reported before the signal must be in its checkpoint.
    # The whole process group is signalled, as a shell's kill of a job is: the forked
    # workers of a run on several processes must not keep it from ending.
    folder = tmp_path / "run"
    args = [sys.executable, "-m", "necropolis.cli.main", "train", "luxor2001"]
    args += ["--dir", str(folder), "--nice", "0", "--hidden", "8", "--seed", "3"]
    args += ["--workers", str(workers)]
    args += ["--generation-matches", "1000", "--reference-deals", "0"]
    process = subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        bufsize=1,
        start_new_session=True,
    )
    assert process.stdout is not None
    reported = 0
    for line in process.stdout:
        if "matches," in line:  # a round's progress line
            reported = int(line.split(": ")[1].split(" matches")[0])
            os.killpg(process.pid, signal.SIGTERM)
            break
    output = process.stdout.read()
    assert process.wait(timeout=120) == 0, output
    assert "stopped at the end of a round" in output
    # the round under way when the signal came was finished and kept, not thrown away
    resumed = Trainer("luxor2001", folder, say=lambda line: None)
    assert resumed.run.matches >= reported >= 10
    assert resumed.run.matches % resumed.run.settings.round_matches == 0
