"""``necropolis balance``: Ray against local processes, a stopped run taken up again, and
the statistics it rests on (the report of each game in Chromium: tests/web)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from necropolis.analysis.balance import (
    PlanMismatchError,
    make_plan,
    play_balance_match,
    read_matches,
    run_balance,
)
from necropolis.analysis.balance_report import write_report
from necropolis.analysis.balance_stats import chi_square_uniform
from necropolis.cli.main import app
from necropolis.engine.balance import Variant, components_digest
from necropolis.engine.options import Option
from necropolis.games import register, unregister
from tests.analysis.balance_cases import GAMES, changed_file, figures
from tests.engine.toy import HighCard
from tests.raycluster import ray_head


def test_ray_cluster_gives_the_figures_of_local_processes(tmp_path: Path) -> None:
    components = changed_file("luxor2001", tmp_path)
    args = ["balance", "luxor2001", "--bots", "random", "-p", "2", "-p", "3", "-n", "12"]
    args += ["--components", str(components), "--seed", "5"]
    runner = CliRunner()
    local = runner.invoke(app, [*args, "--out", str(tmp_path / "local"), "-w", "2"])
    assert local.exit_code == 0, local.output
    sim = ["simulate", "luxor2001", "-n", "20", "--seed", "3", "--json"]
    tour = ["tournament", "luxor2001", "--bots", "random,heuristic", "-n", "4", "--json"]
    sim_local = runner.invoke(app, [*sim, "-w", "2"])
    tour_local = runner.invoke(app, [*tour, "--out", str(tmp_path / "t1.json")])
    assert sim_local.exit_code == 0 and tour_local.exit_code == 0
    with ray_head(cpus=2) as address:
        on_ray = runner.invoke(app, [*args, "--out", str(tmp_path / "ray"), "--ray", address])
        assert on_ray.exit_code == 0, on_ray.output
        sim_ray = runner.invoke(app, [*sim, "--ray", address])
        tour_ray = runner.invoke(app, [*tour, "--out", str(tmp_path / "t2.json"), "--ray", address])
    assert figures(tmp_path / "ray") == figures(tmp_path / "local")
    summary = json.loads((tmp_path / "ray" / "summary.json").read_text())
    # The printed variants, alone and together; the pillars' order, display only, is not one.
    variants = {c["variant"] for c in summary["cells"]} - {"defaults"}
    assert variants == {"curse", "sphinx", "curse+sphinx"}
    assert sim_ray.exit_code == 0, sim_ray.output
    assert json.loads(sim_ray.stdout) == json.loads(sim_local.stdout)
    assert tour_ray.exit_code == 0, tour_ray.output
    matches = [
        {k: v for k, v in m.items() if k != "decision_seconds"}
        for m in json.loads((tmp_path / "t2.json").read_text())["matches"]
    ]
    expected = [
        {k: v for k, v in m.items() if k != "decision_seconds"}
        for m in json.loads((tmp_path / "t1.json").read_text())["matches"]
    ]
    assert matches == expected


def test_a_stopped_report_goes_on_to_the_figures_of_an_unbroken_one(tmp_path: Path) -> None:
    components = changed_file("luxor2001", tmp_path).read_text()
    plan = make_plan(
        "luxor2001",
        ["random", "heuristic"],
        [2, 3],
        10,
        seed=2,
        components=components,
        components_name="changed.toml",
    )
    whole = run_balance(plan, tmp_path / "whole", workers=1, components=components)
    write_report(plan, whole, tmp_path / "whole")

    stopped = tmp_path / "stopped"
    seen = 0

    def interrupt(_: object) -> None:
        nonlocal seen
        seen += 1
        if seen == 37:
            raise KeyboardInterrupt  # what Ctrl-C raises in the main thread

    with pytest.raises(KeyboardInterrupt):
        run_balance(plan, stopped, workers=2, components=components, on_match=interrupt)
    kept = read_matches(stopped / "matches.jsonl")
    assert len(kept) == 37
    # A stop in the middle of writing leaves half a line: it is dropped, not misread.
    with (stopped / "matches.jsonl").open("a") as log:
        log.write('{"cell":0,"index":')
    again = run_balance(plan, stopped, workers=2, components=components)
    write_report(plan, again, stopped)
    assert len(again) == len(whole) == len(plan.cells()) * plan.matches
    assert again == whole
    assert figures(stopped) == figures(tmp_path / "whole")


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_stops_the_command_and_the_same_command_goes_on(tmp_path: Path) -> None:
    # One cell (the options fixed: no variants) of matches slow enough to stop midway.
    fixed = ["-o", "curse=false", "-o", "sphinx=false", "-o", "pillar_order="]
    args = ["balance", "luxor2001", "--bots", "heuristic", "-p", "4", "-n", "120", *fixed]
    total = 120
    stopped, whole = tmp_path / "stopped", tmp_path / "whole"
    command = [sys.executable, "-m", "necropolis.cli.main", *args, "-w", "2"]
    # As a terminal does: SIGINT to the command's whole process group, workers included.
    run = subprocess.Popen(
        [*command, "--out", str(stopped)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        # As a terminal's foreground job has it: a suite started in the background (a
        # shell's `&`) runs with SIGINT ignored, and the command would inherit that.
        preexec_fn=_default_sigint,
    )
    log = stopped / "matches.jsonl"
    deadline = time.monotonic() + 120
    while not (log.exists() and log.read_text().count("\n") >= 30):
        assert run.poll() is None and time.monotonic() < deadline, "no matches to stop"
        time.sleep(0.05)
    os.killpg(run.pid, signal.SIGINT)
    output = run.communicate(timeout=60)[0].decode()
    assert run.returncode == 130, output
    assert "run the same command again" in output
    kept = len(read_matches(log))
    assert 30 <= kept < total
    assert not (stopped / "summary.json").exists()
    runner = CliRunner()
    again = runner.invoke(app, [*args, "-w", "2", "--out", str(stopped)])
    assert again.exit_code == 0, again.output
    assert f"{total - kept} played now" in again.output
    unbroken = runner.invoke(app, [*args, "--out", str(whole)])
    assert unbroken.exit_code == 0, unbroken.output
    assert figures(stopped) == figures(whole)


def test_a_folder_of_another_plan_is_refused(tmp_path: Path) -> None:
    plan = make_plan("luxor2001", ["random"], [2], 2)
    run_balance(plan, tmp_path)
    other = make_plan("luxor2001", ["random"], [2], 3)
    with pytest.raises(PlanMismatchError, match="matches"):
        run_balance(other, tmp_path)


def test_a_worker_refuses_a_match_meant_for_other_components() -> None:
    options = {"players": 2, "curse": False, "sphinx": False, "pillar_order": ""}
    with pytest.raises(RuntimeError, match="component file"):
        play_balance_match(0, 0, "luxor2001", options, "random", 1, components_digest("x"))
    played = play_balance_match(0, 0, "luxor2001", options, "random", 1, None)
    assert played["rounds"] == 20 and played["early"] is None  # 40 cards, 2 a round


def test_no_advantage_test_tells_a_lopsided_table_from_an_even_one() -> None:
    assert chi_square_uniform([50, 50, 50])[1] == pytest.approx(1.0)
    statistic, p = chi_square_uniform([90, 30, 30])
    assert statistic == pytest.approx(48.0) and p < 1e-9


def test_a_game_without_balance_answers_gets_the_defaults() -> None:
    from necropolis.bots import make_bot
    from necropolis.engine.driver import play_match
    from tests.engine.toy import HighCard

    # Each yes/no option switched from its default, alone; no rounds, no early end.
    (variant,) = HighCard.balance_variants()
    assert variant.options == {"redraws": False}
    game = HighCard(players=3)
    final, _ = play_match(game, [make_bot("random")] * 3, seed=4)
    facts = game.balance_facts(final)
    assert (facts.rounds, facts.ended_early, facts.seats) == (None, None, ({}, {}, {}))
    assert HighCard.components_file() is None


def test_what_if_compares_each_seat_feature_and_variant_with_its_interval(
    tmp_path: Path,
) -> None:
    # No pharaoh bonus: the same random play from the same seeds (a bot that picks at
    # random does not look at the scores), so every seat with a pharaoh card scores the
    # same or less, and the curse and the Sphinx variants lose it too.
    components = changed_file("luxor2001", tmp_path).read_text()
    plan = make_plan(
        "luxor2001",
        ["random"],
        [3],
        30,
        seed=4,
        components=components,
        components_name="no-bonus.toml",
    )
    matches = run_balance(plan, tmp_path / "report", components=components)
    summary = write_report(plan, matches, tmp_path / "report")

    features = summary["what_if_features"]
    assert {f["feature"] for f in features} == {"pharaoh"}
    assert len(features) >= 3  # a pharaoh card per seat, dealt from the seven animals
    for f in features:
        score = f["score"]
        assert score["pairs"] > 1 and score["changed"] <= score["shipped"]
        low, high = score["ci95"]
        assert low <= score["difference"] <= high and score["difference"] <= 0
        assert f["win"]["ci95"] is not None
    # The bonus was worth something: for some card, clearly (the interval below 0).
    assert any(f["score"]["ci95"][1] < 0 for f in features)

    variants = {w["variant"]: w for w in summary["what_if_variants"]}
    assert set(variants) == {name for name, _ in plan.variants}
    assert all(w["level"] == "random" and w["players"] == 3 for w in variants.values())
    for name in ("curse", "sphinx", "curse+sphinx"):
        scores = variants[name]["measures"]["scores"]
        assert scores["pairs"] == 30
        low, high = scores["ci95"]
        assert scores["difference"] < 0 and low <= scores["difference"] <= high
        assert len(variants[name]["seats"]) == 3

    page = (tmp_path / "report" / "index.html").read_text()
    assert "Seat features on the changed file" in page
    assert "Variants and options on the changed file" in page
    assert "curse+sphinx" in page.split("Variants and options on the changed file")[1]
    for name in ("what_if_features.png", "what_if_variants.png"):
        assert (tmp_path / "report" / name).stat().st_size > 0


def test_the_documented_what_if_file_is_the_shipped_one_but_for_its_bonus() -> None:
    # docs/rules/luxor2001.md quotes a what-if run on this file: a change to the shipped
    # data file must reach it too, or the document compares more than the bonus.
    shipped = (GAMES / "luxor2001" / "luxor2001.toml").read_text(encoding="utf-8")
    docs = GAMES.parents[2] / "docs" / "balance" / "luxor2001-pharaoh-bonus-4.toml"
    lines = docs.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[0].startswith('# A "what if"')
    body = "".join(lines[2:])  # after its own two lines of comment
    assert "pharaoh_bonus = 7\n" in shipped
    assert body == shipped.replace("pharaoh_bonus = 7\n", "pharaoh_bonus = 4\n")


class _Shown(HighCard):
    """The toy game with an option that only changes how it is shown."""

    id = "highcard_shown"
    extra_options = (
        *HighCard.extra_options,
        Option("mirror", bool, False, "draw the cards mirrored", display_only=True),
    )

    @classmethod
    def balance_variants(cls) -> tuple[Variant, ...]:
        return (
            *super().balance_variants(),
            Variant("mirrored", {"mirror": True}),
            Variant("mirrored, no redraws", {"mirror": True, "redraws": False}),
        )


def test_display_only_options_are_never_swept() -> None:
    # the default variants skip them...
    assert [v.name for v in super(_Shown, _Shown).balance_variants()] == ["redraws=False"]
    register(_Shown)
    try:
        plan = make_plan(_Shown.id, ["random"], [2], 2)
    finally:
        unregister(_Shown.id)
    # ...and a plan leaves out a variant that sets display-only options alone
    assert [name for name, _ in plan.variants] == ["redraws=False", "mirrored, no redraws"]
    luxor2001 = make_plan("luxor2001", ["random"], [3], 2)
    assert [name for name, _ in luxor2001.variants] == ["curse", "sphinx", "curse+sphinx"]
