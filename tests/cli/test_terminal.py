"""The terminal table as a person sees it: ``necropolis play`` in a 100×30 pseudo-terminal.

pexpect types, pyte is the terminal; at every prompt the test saves the match (with the
table's own ``save`` command), rebuilds the seat's side from the record, and checks that
the screen shows that seat's board and its newest log entry, that every panel is whole
(nothing overflowed or wrapped), and that no internal name reached the screen. Set
``NECROPOLIS_SCREEN_CAPTURES`` to a folder to keep a text dump of each game's screens.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from functools import partial
from pathlib import Path

import pytest
from rich.text import Text

from necropolis.engine.record import MatchRecord
from necropolis.games import load_game
from tests.cli.pseudo_terminal import Tty

#: What must never reach a person's screen: ids, phase names, Python values.
INTERNAL = [
    re.compile(r"\b[a-z]+_[a-z_]+\b"),  # snake_case ids (play_card, wait_for)
    re.compile(r"\bNone\b|\bTrue\b|\bFalse\b"),
    re.compile(r"\bawaiting\b", re.IGNORECASE),
    re.compile(r"\bseat \d", re.IGNORECASE),
    re.compile(r"\[/?(?:bold|red|blue|green|reverse)\]"),  # markup printed as text
]


# --- reading the screen -----------------------------------------------------------------


def plain(rendered: str) -> str:
    try:
        return Text.from_markup(rendered).plain
    except Exception:
        return rendered


def panels(display: list[str]) -> dict[str, tuple[int, int, int, int]]:
    """Each titled panel's box: (top row, bottom row, left column, right column)."""
    found = {}
    for row, line in enumerate(display):
        for match in re.finditer(r"╭─ (\w+) ", line):
            left = match.start()
            right = line.index("╮", left)
            bottom = next(r for r in range(row + 1, len(display)) if display[r][left] == "╰")
            found[match.group(1)] = (row, bottom, left, right)
    return found


def panel_text(display: list[str], name: str) -> str:
    top, bottom, left, right = panels(display)[name]
    return "\n".join(display[r][left + 1 : right].strip() for r in range(top + 1, bottom))


def flat(text: str) -> str:
    return " ".join(text.split())


def check_panels_whole(display: list[str]) -> None:
    """Every panel's frame is unbroken: no line of it overflowed or wrapped."""
    boxes = panels(display)
    assert {"board", "log"} <= boxes.keys(), "\n".join(display)
    for name, (top, bottom, left, right) in boxes.items():
        assert display[bottom][right] == "╯", name
        for row in range(top + 1, bottom):
            assert display[row][left] == "│" and display[row][right] == "│", (name, row)


def outside_board(display: list[str]) -> str:
    """What the terminal itself wrote: everything but the game's board (and the path of a
    saved record, which holds the test's folder name)."""
    top, bottom, left, right = panels(display)["board"]
    lines = [
        line[: left + 1] + " " * (right - left - 1) + line[right:] if top < row < bottom else line
        for row, line in enumerate(display)
    ]
    return "\n".join(line for line in lines if "Match record saved" not in line)


def internal_names(text: str) -> list[str]:
    return [m.group(0) for pattern in INTERNAL for m in pattern.finditer(text)]


def check_prompt_screen(tty: Tty, cwd: Path, seat: int) -> None:
    """Save, then check the screen against the seat's side rebuilt from the record."""
    tty.send("save")
    tty.wait_input()
    record_path = the_record(cwd)
    display = tty.display()
    assert display[-1].startswith("> ")
    assert "Match record saved" in tty.text()
    check_panels_whole(display)
    record = MatchRecord.load(record_path)
    state = record.final_state(load_game)
    assert state.current_player() == seat
    game = state.game
    board = plain(game.render_view(state.view(seat))).splitlines()
    header = next(line for line in board if line.strip())
    assert flat(header) in flat(panel_text(display, "board")), tty.text()
    log = state.log(seat)
    if log:
        newest = log[-1]["text"]
        assert flat(newest) in flat(panel_text(display, "log")), (newest, tty.text())
    else:
        assert "Nothing has happened yet" in panel_text(display, "log")
    assert "Your turn" in tty.text()
    assert internal_names(outside_board(display)) == [], tty.text()
    assert internal_names(panel_text(display, "board")) == [], tty.text()


def first_choice(display: list[str]) -> str:
    """The number of the first choice shown under the hint line."""
    below = display[max(i for i, line in enumerate(display) if "╯" in line) + 3 :]
    for line in below:
        match = re.match(r"\s*(\d+) ", line)
        if match:
            return match.group(1)
    raise AssertionError("no choice on screen:\n" + "\n".join(display))


def capture(tty: Tty, name: str) -> None:
    folder = os.environ.get("NECROPOLIS_SCREEN_CAPTURES")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / f"{name}.txt").write_text(tty.text() + "\n", encoding="utf-8")


def the_record(cwd: Path) -> Path:
    (path,) = (cwd / "matches").glob("*.json")
    return path


END = "how the points were made"  # the score breakdown's column: the match is over


def play_prompts(tty: Tty, cwd: Path, seat: int, prompts: int | None, name: str) -> int:
    """Answer ``prompts`` prompts (None: to the end) with the first choice, checking each."""
    answered = 0
    while prompts is None or answered < prompts:
        tty.until(lambda: tty.at_input() or END in tty.text(), "a prompt or the end")
        if not tty.at_input():
            break
        capture(tty, name)  # the last prompt's screen is kept
        check_prompt_screen(tty, cwd, seat)
        tty.send(first_choice(tty.display()))
        tty.until(lambda: tty.at_input() or END in tty.text(), "a prompt or the end")
        if "back for the other choices" in tty.text():  # the second step
            if answered == 0:
                capture(tty, f"{name}-second-step")
                tty.send("back")
                tty.wait_input()
                assert "back for the other choices" not in tty.text()
                tty.send(first_choice(tty.display()))
                tty.wait_input()
            tty.send(first_choice(tty.display()))
        answered += 1
    return answered


# --- whole games and rounds -------------------------------------------------------------


def test_a_whole_luxor2001_game_against_bots(tmp_path: Path) -> None:
    tty = Tty(["play", "luxor2001", "--seats", "human,easy,easy", "--seed", "11"], tmp_path)
    answered = play_prompts(tty, tmp_path, 0, None, "luxor2001")
    tty.wait_text("Match record saved")
    capture(tty, "luxor2001-end")
    assert tty.exit_status() == 0
    assert answered > 5
    # The end's table may be taller than the terminal: its heading scrolls off the top.
    text = tty.history() + "\n" + tty.text()
    heading = text.rfind("Scores")
    assert heading != -1 and END in text[heading:]  # the heading, then the end's table
    assert "Player 1 (you)" in text and "Player 3 (easy bot)" in text
    assert "wins" in text or "Nobody wins" in text
    record = MatchRecord.load(the_record(tmp_path))  # a finished match is kept in matches/
    assert record.final_state(load_game).is_terminal()


@pytest.mark.parametrize(("game", "prompts"), [("horus", 20), ("luxor", 15)])
def test_rounds_of_a_game_against_bots(tmp_path: Path, game: str, prompts: int) -> None:
    tty = Tty(["play", game, "--seats", "human,easy,easy", "--seed", "5"], tmp_path)
    assert play_prompts(tty, tmp_path, 0, prompts, game) == prompts
    tty.wait_input()
    tty.send("quit")
    assert tty.exit_status() == 0


# --- commands ---------------------------------------------------------------------------


def in_pager(tty: Tty, text: str) -> bool:
    """``text`` is shown by the pager (less), which holds the whole screen."""
    return text in tty.text() and not tty.display()[-1].startswith(">")


def test_rules_log_help_and_bad_input(tmp_path: Path) -> None:
    tty = Tty(["play", "luxor2001", "--seed", "2"], tmp_path)
    tty.wait_input()
    tty.send("dance")
    tty.wait_text("No choice matches 'dance'")
    for command, expected in [
        ("rules", load_game("luxor2001").rules_summary().splitlines()[0].lstrip("# ")),
        ("log", "your log, oldest first"),
        ("help", "Commands"),
    ]:
        tty.send(command)
        tty.until(partial(in_pager, tty, expected), f"{command} in the pager")
        tty.press("q")
        tty.wait_input()
        check_panels_whole(tty.display())
    tty.send("quit")
    assert tty.exit_status() == 0


def test_a_hint_names_three_moves_and_is_noted_in_the_log(tmp_path: Path) -> None:
    tty = Tty(["play", "luxor2001", "--seed", "2"], tmp_path)
    tty.wait_input()
    tty.send("hint")
    tty.until(partial(in_pager, tty, "Hint: the best moves"), "the hint in the pager")
    text = tty.text()
    assert all(re.search(rf"^{rank}\. Insert .* \(\d+%\)", text, re.M) for rank in (1, 2, 3))
    tty.press("q")
    tty.wait_input()
    assert "You asked for a hint" in flat(panel_text(tty.display(), "log"))
    check_panels_whole(tty.display())
    assert internal_names(outside_board(tty.display())) == [], tty.text()
    tty.send("quit")
    assert tty.exit_status() == 0


# --- hot seat ---------------------------------------------------------------------------


def private_lines(record_path: Path, seat: int) -> list[str]:
    """The lines of ``seat``'s board that show its hand (its cards and pharaoh card)."""
    state = MatchRecord.load(record_path).final_state(load_game)
    board = plain(state.game.render_view(state.view(seat))).splitlines()
    return [line.strip() for line in board if "hand:" in line.lower()]


def test_hot_seat_wipes_the_screen_and_scrollback_between_people(tmp_path: Path) -> None:
    tty = Tty(["play", "luxor2001", "--seats", "human,human", "--seed", "3"], tmp_path)
    tty.wait_text("Pass the screen to Player 1 — press Enter")
    tty.send("")
    tty.wait_input()
    tty.send("save")
    tty.wait_input()
    secret = private_lines(the_record(tmp_path), 0)
    assert secret and all(line in tty.text() for line in secret)  # the hand is shown to 1
    tty.send("1")
    tty.wait_input()
    tty.send("1")
    tty.wait_text("Pass the screen to Player 2 — press Enter")
    for line in secret:
        assert line not in tty.text() and line not in tty.history()
    assert [line.strip() for line in tty.display() if line.strip()] == [
        "Pass the screen to Player 2 — press Enter"
    ]
    assert tty.history() == ""
    tty.send("")
    tty.wait_input()
    tty.send("save")
    tty.wait_input()
    secret += private_lines(the_record(tmp_path), 0)  # the hand Player 1 holds now
    for line in secret:
        assert line not in tty.text() and line not in tty.history()
    assert "Player 1 inserted" in tty.text()  # what happened since, from Player 2's log
    tty.send("1")
    tty.wait_input()
    tty.send("1")
    tty.wait_text("Pass the screen to Player 1")
    tty.send("")
    tty.wait_input()
    assert "happened since your last turn" in tty.text()
    assert "Player 2 inserted" in tty.text()
    tty.send("quit")
    assert tty.exit_status() == 0


# --- leaving and coming back ------------------------------------------------------------


def test_ctrl_c_saves_and_exits_130_on_a_line_of_its_own(tmp_path: Path) -> None:
    tty = Tty(["play", "horus", "--seed", "4", "--save", "m.json"], tmp_path)
    tty.wait_input()
    tty.interrupt()
    assert tty.exit_status() == 130
    lines = tty.display()
    assert any(line.startswith("Match record saved to m.json") for line in lines), tty.text()
    assert any(line.startswith("Resume with: ") for line in lines)
    assert MatchRecord.load(tmp_path / "m.json").game == "horus"


def test_ctrl_c_works_when_started_as_a_background_job(tmp_path: Path) -> None:
    """A shell starts a background job (``./test &``) with SIGINT ignored, and everything
    it runs inherits that: the game at its terminal must still hear Ctrl-C."""
    tty = Tty(["play", "horus", "--seed", "4", "--save", "m.json"], tmp_path, ignore_sigint=True)
    tty.wait_input()
    tty.interrupt()
    assert tty.exit_status() == 130
    assert any(line.startswith("Match record saved to m.json") for line in tty.display())


def test_five_players_fill_with_the_default_bot(tmp_path: Path) -> None:
    tty = Tty(["play", "horus", "-o", "players=5", "--seed", "9", "--save", "m.json"], tmp_path)
    tty.wait_input()
    assert "Player 5 (easy bot)" in flat(" ".join(tty.display()[:2]))
    tty.send("quit")
    assert tty.exit_status() == 0
    assert MatchRecord.load(tmp_path / "m.json").seats == ["human"] + ["easy"] * 4


def resume_line(tty: Tty) -> str:
    (line,) = [line for line in tty.display() if line.startswith("Resume with: ")]
    return line.removeprefix("Resume with: ").strip()


@pytest.mark.parametrize("on_path", [False, True])
def test_the_resume_hint_works_as_typed(tmp_path: Path, on_path: bool) -> None:
    bin_dir = str(Path(sys.executable).parent)
    path = os.environ.get("PATH", "/usr/bin:/bin").split(os.pathsep)
    path = [p for p in path if p and Path(p).resolve() != Path(bin_dir).resolve()]
    if on_path:
        path.insert(0, bin_dir)
    search = os.pathsep.join(path)
    assert (shutil.which("necropolis", path=search) is not None) is on_path
    tty = Tty(["play", "luxor", "--seed", "6", "--save", "saved.json"], tmp_path, path=search)
    tty.wait_input()
    tty.send("1")
    tty.wait_input()
    tty.send("quit")
    assert tty.exit_status() == 0
    hint = resume_line(tty)
    assert hint.endswith("play --resume saved.json")
    assert hint.startswith("necropolis ") is on_path
    before = MatchRecord.load(tmp_path / "saved.json").actions
    again = Tty([], tmp_path, command=hint, path=search)
    again.wait_input()
    assert "Luxor" in again.text()
    again.send("1")
    again.wait_input()
    again.send("quit")
    assert again.exit_status() == 0
    after = MatchRecord.load(tmp_path / "saved.json").actions
    assert after[: len(before)] == before and len(after) > len(before)


def panel_rows(columns: int, lines: int, cwd: Path) -> int:
    """The rows the board and the log get on a terminal of ``columns`` × ``lines``."""
    tty = Tty(["play", "horus", "--seed", "7"], cwd, columns=columns, lines=lines)
    tty.wait_input()
    display = tty.display()
    assert len(display) == lines and display[-1].startswith("> ")
    check_panels_whole(display)
    boxes = panels(display)
    assert max(right for _, _, _, right in boxes.values()) == columns - 1
    tty.send("quit")
    assert tty.exit_status() == 0
    return sum(bottom - top - 1 for top, bottom, _, _ in boxes.values())


def test_the_screen_adapts_to_larger_terminals(tmp_path: Path) -> None:
    assert panel_rows(140, 45, tmp_path) >= panel_rows(100, 30, tmp_path) + 10


def test_replay_steps_on_the_same_screen_and_ends_with_the_breakdown(tmp_path: Path) -> None:
    bots = Tty(
        ["play", "luxor2001", "--seats", "easy,easy", "--seed", "8", "--save", "m.json"], tmp_path
    )
    assert bots.exit_status() == 0
    tty = Tty(["replay", "m.json", "--seat", "2", "--step"], tmp_path)
    tty.wait_input()
    check_panels_whole(tty.display())
    assert "Decision 1 of" in tty.text() and "Player 2 (you)" in tty.text()
    tty.send("")
    tty.wait_input()
    assert "Decision 2 of" in tty.text()
    state = MatchRecord.load(tmp_path / "m.json").final_state(load_game)
    tty.send("a")
    tty.wait_text(END)
    assert tty.exit_status() == 0
    text = tty.text()
    assert flat(state.log(1)[-1]["text"]) in flat(tty.history() + text)
    assert "wins" in text or "Nobody wins" in text


def test_a_resized_terminal_is_laid_out_again_at_once(tmp_path: Path) -> None:
    tty = Tty(["play", "luxor2001", "--seed", "12"], tmp_path)
    tty.wait_input()
    tty.resize(140, 45)
    tty.wait_input()
    display = tty.display()
    assert len(display) == 45 and len(display[0]) == 140
    check_panels_whole(display)
    assert max(right for _, _, _, right in panels(display).values()) == 139
    tty.send("1")  # the answer still goes through
    tty.wait_input()
    assert "back for the other choices" in tty.text()
    tty.send("quit")
    assert tty.exit_status() == 0
