"""The terminal table's screen: one Rich layout with the board, the log and the prompt.

``necropolis play`` and ``necropolis replay`` draw the same pieces. A :class:`Screen`
holds what one seat is shown (the game's rendering of its view, its own log entries, the
prompt and the numbered choices); :func:`compose` lays it out for a terminal of a given
size so that the board, the newest log entries and the prompt all stay in view (the log
beside the board when the terminal is wide enough, below it otherwise; choices that do
not fit are paged), and :class:`Terminal` draws it in place, each time from the top, so
that a screen never scrolls. Seats are named one way everywhere ("you" for the viewer,
"Player N" for the others) and coloured with the kernel's seat colours. Nothing here sees
a state: callers pass views, log entries and descriptors, which carry only what the
seat may know.
"""

from __future__ import annotations

import contextlib
import math
import os
import re
import shutil
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.errors import MarkupError
from rich.layout import Layout
from rich.pager import Pager
from rich.panel import Panel
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text

from necropolis.cli.choices import Choice
from necropolis.engine.language import SEAT_COLOURS, LogEntry, SeatScore

#: The fewest columns the log panel gets beside the board; narrower, it goes below.
LOG_MIN_WIDTH = 30
#: The fewest lines of choices shown before the board is cut to make room.
CHOICE_ROWS = 4
#: The fewest lines the log panel shows below the board when it cannot stand beside it.
LOG_MIN_LINES = 4


# --- seats ------------------------------------------------------------------------------


def seat_colour(seat: int) -> str:
    """The seat's colour (hex), the same in every game and on every screen."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)][1]


def seat_name(seat: int, viewer: int | None) -> str:
    """ "you" for the viewer, "Player N" (counting from 1) for anyone else."""
    return "you" if seat == viewer else f"Player {seat + 1}"


def seat_badge(seat: int, viewer: int | None, what: str | None = None) -> Text:
    """ "● Player 2 (easy bot)" in the seat's colour; "Player 1 (you)" for the viewer."""
    note = "you" if seat == viewer else what
    text = Text("● ", style=seat_colour(seat))
    text.append(f"Player {seat + 1}", style=Style(color=seat_colour(seat), bold=True))
    if note:
        text.append(f" ({note})")
    return text


_NAMES = re.compile(r"\b(?:Player (\d+)|[Yy]ou(?:rs?)?)\b")


def coloured(text: str, viewer: int | None, style: str = "") -> Text:
    """``text`` with every seat it names ("Player 2", "you") in that seat's colour."""
    result = Text(text, style=style)
    for match in _NAMES.finditer(text):
        number = match.group(1)
        seat = int(number) - 1 if number is not None else viewer
        if seat is not None and seat >= 0:
            result.stylize(Style(color=seat_colour(seat), bold=True), *match.span())
    return result


def seats_legend(kinds: Sequence[str], viewer: int | None) -> Columns:
    """Every seat with its colour and what plays it: one line, or more without breaking
    a seat's name across two."""
    parts = [seat_badge(seat, viewer, kind) for seat, kind in enumerate(kinds)]
    return Columns(parts, padding=(0, 2))


# --- pieces -----------------------------------------------------------------------------


def board_text(rendered: str) -> Text:
    """A game's rendering of a view (Rich markup where the game uses it) as text; a line
    wider than the screen is cut rather than wrapped, so the board keeps its shape."""
    rendered = "\n".join(line.rstrip() for line in rendered.rstrip().split("\n"))
    try:
        text = Text.from_markup(rendered)
    except MarkupError:
        text = Text(rendered)
    text.no_wrap, text.overflow = True, "crop"
    return text


def entry_text(entry: LogEntry, viewer: int | None, new: bool) -> Text:
    """One log entry, its seats coloured; entries the seat has seen before are dimmed."""
    return coloured(str(entry["text"]), viewer, "" if new else "dim")


def breakdown_table(
    breakdown: Sequence[SeatScore],
    returns: Sequence[float],
    viewer: int | None,
    kinds: Sequence[str] | None = None,
) -> Table:
    """The final scores: each seat's parts, its total, the tiebreak and who won."""
    table = Table(title="Scores", title_style="bold", show_lines=True)
    table.add_column("seat")
    table.add_column("how the points were made")
    table.add_column("total", justify="right")
    has_tiebreak = any(score.get("tiebreak") for score in breakdown)
    if has_tiebreak:
        table.add_column("tiebreak")
    table.add_column("result")
    for score in breakdown:
        seat = int(score["seat"])
        parts = Table.grid(padding=(0, 2))
        parts.add_column()
        parts.add_column(justify="right")
        for part in score["parts"]:
            parts.add_row(coloured(str(part["text"]), viewer), _points(part["points"]))
        result = ""
        if returns[seat] == 1:
            result = "wins"
        elif returns[seat] > 0:
            result = "shares the win"
        row: list[RenderableType] = [
            seat_badge(seat, viewer, kinds[seat] if kinds else None),
            parts,
            Text(_points(score["total"]), style="bold"),
        ]
        if has_tiebreak:
            row.append(Text("\n".join(str(t["text"]) for t in score.get("tiebreak") or [])))
        row.append(Text(result, style="bold"))
        table.add_row(*row)
    if not any(returns):
        table.caption = "Nobody wins this match."
    return table


def _points(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


# --- the screen -------------------------------------------------------------------------


@dataclass
class Screen:
    """What one seat is shown at one moment."""

    #: The line at the top: the seats, their colours and who plays them.
    header: RenderableType
    #: The game's rendering of the seat's view.
    board: Text
    #: The seat's own log entries, oldest first.
    log: Sequence[LogEntry] = ()
    #: Who the log is written for (None: a spectator).
    viewer: int | None = None
    #: Entries at or after this history index are new to the seat (shown bright).
    new_from: int = 0
    #: Whose turn it is and what they are asked.
    turn: Text = field(default_factory=Text)
    #: One line of guidance under the turn line (or a message that replaces it).
    hint: Text = field(default_factory=Text)
    #: The numbered choices shown now.
    choices: Sequence[Choice] = ()
    #: Which page of the choices is shown, when they do not all fit.
    page: int = 0
    #: The game's title, on the board's frame.
    title: str = ""


@dataclass
class Composed:
    """A composed screen: the renderable and the number of lines it takes."""

    renderable: RenderableType
    height: int


class _Lines:
    """Already rendered lines, drawn as they are (for Layout regions)."""

    def __init__(self, lines: list[list[Segment]]) -> None:
        self.lines = lines

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for line in self.lines:
            yield from line
            yield Segment.line()


def _text_width(text: Text) -> int:
    return max((line.cell_len for line in text.split("\n")), default=0)


def _choice_cells(screen: Screen, width: int) -> tuple[list[Text], int, int]:
    """The choices as cells, how many columns fit ``width``, and each column's width."""
    cells = []
    for choice in screen.choices:
        cell = Text()
        cell.append(f"{choice.number:>2} ", style="bold cyan")
        cell.append_text(coloured(choice.label, screen.viewer))
        if choice.is_group:
            cell.append(" ›", style="cyan")
        cells.append(cell)
    widest = max((c.cell_len for c in cells), default=0) + 2
    columns = max(1, min(4, width // max(widest, 1)))
    return cells, columns, max(1, width // columns)


def _choice_grid(cells: list[Text], columns: int, column_width: int, rows: int) -> Table:
    """Cells laid out down the columns (1, 2, 3 under each other), cut to one line each."""
    grid = Table.grid(expand=False)
    for _ in range(columns):
        grid.add_column(width=column_width, no_wrap=True, overflow="ellipsis")
    for row in range(rows):
        line: list[RenderableType] = []
        for column in range(columns):
            index = column * rows + row
            line.append(cells[index] if index < len(cells) else Text(""))
        grid.add_row(*line)
    return grid


def _log_lines(
    console: Console, screen: Screen, width: int, height: int
) -> tuple[list[list[Segment]], int]:
    """The newest log entries that fit ``height`` lines of ``width``; and how many new ones
    did not fit."""
    options = console.options.update(width=width, height=None, no_wrap=False)
    kept: list[list[list[Segment]]] = []
    used = 0
    new_shown = 0
    for entry in reversed(screen.log):
        new = int(entry["index"]) >= screen.new_from
        lines = console.render_lines(entry_text(entry, screen.viewer, new), options, pad=True)
        if used + len(lines) > height:
            if not kept:  # even the newest entry is too long: show its end
                kept.append(lines[-height:])
                new_shown += new
            break
        kept.append(lines)
        used += len(lines)
        new_shown += new
    new_total = sum(1 for e in screen.log if int(e["index"]) >= screen.new_from)
    flat = [line for block in reversed(kept) for line in block]
    if not screen.log:
        flat = console.render_lines(Text("Nothing has happened yet.", style="dim"), options)
    return flat, new_total - new_shown


def compose(console: Console, screen: Screen, width: int, height: int | None) -> Composed:
    """``screen`` laid out for ``width`` × ``height`` (None: as tall as it needs)."""
    board_height = len(screen.board.plain.rstrip("\n").split("\n"))
    board_width = _text_width(screen.board)

    beside = width - (board_width + 4) >= LOG_MIN_WIDTH
    board_panel_width = min(board_width + 4, width) if beside else width
    log_width = width - board_panel_width if beside else width

    cells, columns, column_width = _choice_cells(screen, width)
    wanted_rows = math.ceil(len(cells) / columns) if cells else 0
    # The header (two lines when many seats need them), the turn line (as many for a long
    # prompt) and the hint.
    full_width = console.options.update_width(width)
    header_lines = min(2, len(console.render_lines(screen.header, full_width)))
    turn_lines = min(2, len(console.render_lines(screen.turn, full_width)))
    fixed = header_lines + turn_lines + 1
    top_wanted = board_height + 2 + (0 if beside else LOG_MIN_LINES + 2)

    natural = height is None
    if height is None:
        rows = wanted_rows
        height = fixed + top_wanted + rows
    else:
        # The choices get what the board leaves, and at least CHOICE_ROWS lines (a board
        # taller than the screen is cut at the bottom rather than the choices).
        least = min(wanted_rows, CHOICE_ROWS)
        rows = max(least, min(wanted_rows, height - fixed - top_wanted))
        rows = max(0, min(rows, height - fixed - 5))

    # One column of long choices wraps each onto several lines when they all fit so;
    # otherwise every choice keeps one line (cut with an ellipsis) and they are paged.
    wrapped = 0
    if columns == 1 and cells:
        label_width = console.options.update_width(max(1, width - 3))
        wrapped = sum(
            len(console.render_lines(coloured(c.label, screen.viewer), label_width))
            for c in screen.choices
        )
        room = max(rows, height - fixed - top_wanted)
        if wrapped > len(cells) and (natural or wrapped <= room):
            rows = wrapped
        else:
            wrapped = 0

    per_page = rows * columns
    pages = 1
    shown = cells
    if cells and not wrapped and per_page < len(cells):
        per_page = max(1, per_page - 1)  # one cell says how to see the rest
        pages = math.ceil(len(cells) / per_page)
        page = screen.page % pages
        shown = cells[page * per_page : (page + 1) * per_page]
        shown.append(Text(f"   more › page {(page + 1) % pages + 1} of {pages}", style="cyan"))
    if not wrapped:
        rows = math.ceil(len(shown) / columns) if shown else 0
    if natural:
        height = fixed + top_wanted + rows
    top = height - fixed - rows
    choices: RenderableType = Text("")
    if wrapped:
        # Under each other, a wrapped text indented past its number.
        grid = Table.grid()
        grid.add_column(width=3, no_wrap=True)
        grid.add_column()
        for choice in screen.choices:
            label = coloured(choice.label, screen.viewer)
            grid.add_row(Text(f"{choice.number:>2} ", style="bold cyan"), label)
        choices = grid
    elif rows:
        choices = _choice_grid(shown, columns, column_width, rows)

    title = f"board · {screen.title}" if screen.title else "board"
    board_panel = Panel(screen.board, title=title, title_align="left", padding=(0, 1))
    layout = Layout()
    hint = screen.hint.copy()
    hint.no_wrap, hint.overflow = True, "ellipsis"
    bottom = Layout(name="bottom", size=turn_lines + 1 + rows)
    bottom.split_column(
        Layout(Group(screen.turn, hint), size=turn_lines + 1),
        Layout(choices, size=rows),
    )
    if beside:
        log_height = max(1, top - 2)
        log_segments, hidden = _log_lines(console, screen, log_width - 4, log_height)
        top_layout = Layout(name="top", size=top)
        top_layout.split_row(
            Layout(board_panel, size=board_panel_width),
            Layout(_log_panel(log_segments, hidden)),
        )
    else:
        # The board takes what it needs up to two thirds; the log the rest, so that both
        # grow with the terminal.
        board_part = min(board_height + 2, max(3, top - LOG_MIN_LINES - 2, top * 2 // 3))
        log_height = max(1, top - board_part - 2)
        log_segments, hidden = _log_lines(console, screen, log_width - 4, log_height)
        top_layout = Layout(name="top", size=top)
        top_layout.split_column(
            Layout(board_panel, size=board_part), Layout(_log_panel(log_segments, hidden))
        )
    layout.split_column(Layout(screen.header, size=header_lines), top_layout, bottom)
    return Composed(layout, height)


def _log_panel(lines: list[list[Segment]], hidden_new: int) -> Panel:
    subtitle = f"{hidden_new} more new above: type log" if hidden_new else None
    return Panel(
        _Lines(lines),
        title="log",
        title_align="left",
        subtitle=subtitle,
        subtitle_align="right",
        padding=(0, 1),
    )


# --- drawing ----------------------------------------------------------------------------


class Terminal:
    """Draws screens on a console: in place on a terminal, one after another otherwise."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.live = console.is_terminal
        self._drawn = False

    def size(self) -> tuple[int, int | None]:
        width = self.console.width
        return width, (self.console.height - 1 if self.live else None)

    def draw(self, screen: Screen) -> None:
        """Draw ``screen``, leaving the cursor on the line below it for the input."""
        width, height = self.size()
        composed = compose(self.console, screen, width, height)
        if self.live:
            # Home and overwrite rather than clear: a clear pushes the old screen into the
            # scrollback on some terminals, and the screen is redrawn at every answer.
            self._write("\x1b[H" if self._drawn else "\x1b[H\x1b[2J")
            self._drawn = True
        self.console.print(composed.renderable, height=composed.height, crop=True)
        if self.live:
            self._write("\x1b[J")

    def draw_final(self, screen: Screen, clear: bool = True) -> None:
        """Draw ``screen`` as tall as it needs (from the top of a clear screen unless told
        not to), for what is printed below it to follow (the end of a match)."""
        if self.live and clear:
            self._write("\x1b[H\x1b[2J")
        composed = compose(self.console, screen, self.console.width, None)
        self.console.print(composed.renderable, height=composed.height, crop=True)
        self._drawn = False

    def wipe(self) -> None:
        """Clear the screen and the scrollback, so that nothing of the last seat is left."""
        if self.live:
            self._write("\x1b[H\x1b[2J\x1b[3J")
            self._drawn = True
        else:
            self.console.print()

    def release(self) -> None:
        """Let ordinary printing go on below (the end of a match)."""
        self._drawn = False

    def _write(self, control: str) -> None:
        self.console.file.write(control)
        self.console.file.flush()

    def page(self, renderable: RenderableType) -> None:
        """Show ``renderable`` through a pager (less -R where there is one)."""
        if not self.live:
            self.console.print(renderable)
            return
        with self.console.pager(pager=_LessPager(), styles=True):
            self.console.print(renderable)
        self._drawn = False


class _LessPager(Pager):
    """``$PAGER``, else ``less -R`` (which keeps the colours), else Python's pager."""

    def show(self, content: str) -> None:
        command = os.environ.get("PAGER")
        if command is None and shutil.which("less"):
            command = "less -R"
        if command is None:
            import pydoc

            pydoc.pager(content)
            return
        with contextlib.suppress(OSError, KeyboardInterrupt):
            subprocess.run(command, shell=True, input=content.encode(), check=False)
