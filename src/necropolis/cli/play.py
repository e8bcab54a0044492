"""``necropolis play``: a match at the terminal, people and bots at the same table.

Each person is shown one screen (see :mod:`necropolis.cli.screen`): the game's drawing of
their seat's view, their own log with what is new since their last turn in bright text,
whose turn it is with what they are asked, and their choices, numbered, from the game's
action descriptors (two steps for a long list: see :mod:`necropolis.cli.choices`). A
choice is taken by its number or a unique part of its text; ``board``, ``log``, ``rules``,
``undo``, ``hint``, ``help``, ``save`` and ``quit`` are commands, and bad input gets a
message on the same screen. Nothing is lost: quitting, Ctrl-C (which exits with status
130) or the end of the input saves the match record first, and ``--resume`` continues from
it; a finished match is saved under ``matches/``. With several people at one screen (hot
seat) the screen and its scrollback are wiped before it is passed on.

The match runs on the true state, as any driver does, but a person is only ever shown
what their seat may know: its view, its own log, its prompt and its descriptors.

``undo`` takes back a person's last decision of the turn while nothing has been revealed
since (``State.reveals``: no chance outcome, no other seat's move, nothing hidden shown),
as the web table does; a decision taken back leaves the record as if never made.

``hint`` shows the seat's three best moves as the analysis rates them from its window
alone (:func:`necropolis.analysis.explain.hints`), each with the seat's chance to win,
and notes in every person's log that the seat asked (the record keeps only the moves).
"""

from __future__ import annotations

import os
import random
import secrets
import shlex
import shutil
import signal
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.columns import Columns
from rich.console import Console, Group
from rich.markdown import Markdown
from rich.markup import escape
from rich.text import Text

from necropolis.analysis.explain import Depth, hints, judge_for
from necropolis.bots import BOTS, make_bot
from necropolis.bots.levels import Level
from necropolis.cli.choices import Choice, Menu, Opened, Picked, Refused
from necropolis.cli.common import (
    GAME_HELP,
    console,
    fail,
    interruptible,
    open_game,
    parse_options,
)
from necropolis.cli.screen import (
    Screen,
    Terminal,
    board_text,
    breakdown_table,
    entry_text,
    seat_colour,
    seats_legend,
)
from necropolis.engine.driver import Player, player_rngs, sample_chance
from necropolis.engine.errors import MatchRecordError, NecropolisError
from necropolis.engine.language import LogEntry
from necropolis.engine.protocol import CHANCE, Game, State
from necropolis.engine.record import MatchRecord
from necropolis.engine.seat import SeatWindow
from necropolis.games import game_class, load_game

HUMAN = "human"
#: Who fills the seats that the command line leaves open.
DEFAULT_BOT = Level.EASY
#: The exit status after Ctrl-C, as a shell reports a process ended by SIGINT.
INTERRUPTED = 130

HELP = """\
# Commands

Type the **number** of a choice, or a **part of its text** that only it has.
When the choices come in two steps (a card, then where it goes), `back` returns to the
first step.

| command | what it does |
| --- | --- |
| `board` | show the whole board (scroll it when it is bigger than the screen) |
| `log` | the whole log of your seat, oldest first |
| `rules` | the rules of the game, in short |
| `more` | the next page of choices, when they do not all fit |
| `undo` | take back your last move of this turn, if nothing was revealed since |
| `hint` | the three best moves by the analysis, your chance after each (noted in the log) |
| `save [FILE]` | write the match record (to FILE, or the match's own file) |
| `quit` | save and leave; the match can be taken up again later |
| `help` | this page |

In the pager, `q` comes back to the table.
"""

#: The input line's prompt.
INPUT = "[bold]>[/] "
#: Seconds between two redraws while bots play.
PROGRESS_EVERY = 0.5

HINT = "Type a number or part of a choice's text · help for commands"
HINT_UNDO = "Type a number or part of a choice's text · undo takes your last move back"
#: What ``ask`` answers when the person takes their last decision back.
UNDO = "undo"


class Taken:
    """The table before a decision that may still be taken back."""

    def __init__(self, match: TerminalMatch) -> None:
        self.state = match.state.clone()
        self.actions = len(match.record.actions)
        self.logs = {seat: len(log) for seat, log in match.logs.items()}
        self.seen = dict(match.seen)


def default_record_path(game_id: str) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path("matches") / f"{game_id}-{stamp}.json"


def resume_hint(path: Path) -> str:
    """A command that takes the match up again, written so that it works as typed here."""
    program = "necropolis"
    invoked = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if invoked is not None and invoked.name == "necropolis" and shutil.which("necropolis") is None:
        # Not on PATH (a virtual environment that is not activated, as ./play runs it).
        program = str(invoked) if invoked.is_absolute() else os.path.relpath(invoked)
        if "/" not in program:
            program = f"./{program}"
    return f"{shlex.quote(program)} play --resume {shlex.quote(str(path))}"


class TerminalMatch:
    """One match at the terminal; holds the true state but shows each seat its own side."""

    def __init__(
        self,
        game: Game,
        record: MatchRecord,
        path: Path,
        out: Console = console,
    ) -> None:
        self.game = game
        self.record = record
        self.path = path
        self.out = out
        self.term = Terminal(out)
        self.seats = record.seats
        self.humans = [i for i, name in enumerate(self.seats) if name == HUMAN]
        self.bots: dict[int, Player] = {
            i: make_bot(name) for i, name in enumerate(self.seats) if name != HUMAN
        }
        seed = record.seed if record.seed is not None else 0
        done = len(record.actions)
        # A new match draws exactly as necropolis.play_match does with the same seed; a
        # resumed one from a stream seeded by the seed and the number of actions so far.
        self.chance_rng = random.Random(seed if not done else f"{seed}:{done}")
        self.rngs = player_rngs(seed + done, len(self.seats))
        self.state: State = record.final_state(load_game)
        # Each person's log, built once and then extended action by action.
        self.logs: dict[int, list[LogEntry]] = {s: self.state.log(s) for s in self.humans}
        # The history index from which a seat's log entries are new to it: what followed
        # its last decision (a resumed match tells what happened since then).
        self.seen: dict[int, int] = {
            s: max((e["index"] + 1 for e in self.logs[s] if e["seat"] == s), default=0)
            for s in self.humans
        }
        self.last_human: int | None = None
        self.last_draw = 0.0
        # The screen waiting for an answer, redrawn when the terminal is resized.
        self.waiting: Screen | None = None
        # The current person's decisions of this turn that may still be taken back, each
        # as the table was before it (emptied by anything that reveals).
        self.taken: list[Taken] = []

    # --- names --------------------------------------------------------------------------

    def kind(self, seat: int) -> str:
        name = self.seats[seat]
        return "at this screen" if name == HUMAN else f"{name} bot"

    def header(self, viewer: int | None) -> Columns:
        kinds = [self.kind(s) for s in range(len(self.seats))]
        return seats_legend(kinds, viewer)

    # --- the loop -----------------------------------------------------------------------

    def run(self) -> bool:
        """Play until the end (True) or until a person leaves (False)."""
        if self.term.live and hasattr(signal, "SIGWINCH"):
            signal.signal(signal.SIGWINCH, self.resized)
        try:
            return self._run()
        finally:
            if self.term.live and hasattr(signal, "SIGWINCH"):
                signal.signal(signal.SIGWINCH, signal.SIG_DFL)

    def resized(self, signum: int, frame: object) -> None:
        """Lay the waiting screen out again for the terminal's new size."""
        if self.waiting is not None:
            self.term.draw(self.waiting)
            self.out.print(INPUT, end="")
            self.out.file.flush()

    def _run(self) -> bool:
        while not self.state.is_terminal():
            state = self.state
            seat = state.current_player()
            keep = False
            if seat == CHANCE:
                action = sample_chance(state, self.chance_rng)
            elif seat in self.bots:
                self.show_progress(seat)
                action = self.bots[seat].choose(SeatWindow(state, seat), self.rngs[seat])
            else:
                chosen = self.ask(seat)
                if chosen is None:
                    return False
                if chosen == UNDO:
                    self.take_back()
                    continue
                action = int(chosen)
                keep = not state.reveals(action)
                if keep:
                    self.taken.append(Taken(self))
                self.seen[seat] = state.move_number() + 1
            if not keep:
                self.taken.clear()
            self.apply(action)
        self.finish()
        return True

    def take_back(self) -> None:
        """Put the table back as it was before the person's last decision in hand."""
        taken = self.taken.pop()
        self.state = taken.state
        del self.record.actions[taken.actions :]
        for seat, length in taken.logs.items():
            del self.logs[seat][length:]
        self.seen = taken.seen

    def apply(self, action: int) -> None:
        before = self.state.clone()
        self.state.apply_action(action)
        self.record.actions.append(action)
        for seat in self.humans:
            self.logs[seat].extend(self.state.narrate(before, action, seat))

    def show_progress(self, bot: int) -> None:
        """While bots play, redraw the last person's screen now and then, so that their
        moves appear as they are made (and a slow bot is seen thinking)."""
        viewer = self.last_human
        if viewer is None and len(self.humans) == 1:
            viewer = self.humans[0]
        now = time.monotonic()
        if not self.term.live or viewer is None or now - self.last_draw < PROGRESS_EVERY:
            return
        screen = self.screen(viewer)
        screen.turn = Text("● ", style=seat_colour(bot))
        screen.turn.append(f"Player {bot + 1}", style=f"bold {seat_colour(bot)}")
        screen.turn.append(f" ({self.kind(bot)}) is thinking…")
        screen.hint = Text("Ctrl-C saves the match and leaves", style="dim")
        self.term.draw(screen)
        self.last_draw = now

    # --- asking a person ----------------------------------------------------------------

    def screen(self, seat: int | None) -> Screen:
        """What ``seat`` sees now (None: the table as any spectator sees it)."""
        log = self.logs[seat] if seat is not None else self.state.log(None)
        return Screen(
            header=self.header(seat),
            board=board_text(self.game.render_view(self.state.view(seat))),
            title=self.game.title,
            log=log,
            viewer=seat,
            new_from=self.seen.get(seat, 0) if seat is not None else 0,
        )

    def pass_screen(self, seat: int) -> bool:
        """Wipe the screen and its scrollback and wait for ``seat``'s person; False: leave."""
        self.term.wipe()
        invite = Text("Pass the screen to ")
        invite.append(f"Player {seat + 1}", style=f"bold {seat_colour(seat)}")
        invite.append(" — press Enter")
        self.out.print(invite)
        try:
            self.out.input("")
        except EOFError:
            return False
        return True

    def ask(self, seat: int) -> int | str | None:
        """The action a person picks for ``seat``; :data:`UNDO` when they take their last
        decision back; None when they leave."""
        if len(self.humans) > 1 and self.last_human != seat and not self.pass_screen(seat):
            return None
        self.last_human = seat
        menu = Menu([self.state.action_info(a) for a in self.state.legal_actions(seat)])
        group: Choice | None = None
        page = 0
        message: Text | None = None
        new = sum(1 for e in self.logs[seat] if int(e["index"]) >= self.seen[seat])
        if len(self.humans) > 1 and self.seen[seat] and new:
            message = Text(
                f"{new} {'thing' if new == 1 else 'things'} happened since your last turn:"
                " bright in the log.",
            )
        while True:
            screen = self.screen(seat)
            screen.turn = self.turn_line(seat)
            screen.choices = menu.inside(group) if group is not None else menu.top
            screen.page = page
            hint = (
                (HINT_UNDO if self.taken else HINT)
                if group is None
                else (f"{group.label} · back for the other choices")
            )
            screen.hint = message if message is not None else Text(hint, style="dim")
            self.term.draw(screen)
            self.last_draw = time.monotonic()
            message = None
            self.waiting = screen
            try:
                text = self.out.input(INPUT).strip()
            except EOFError:
                self.out.print()
                return None
            finally:
                self.waiting = None
            if not text:
                continue
            command, _, rest = text.partition(" ")
            command = command.lower()
            if command in ("help", "?"):
                self.term.page(_markdown(HELP))
            elif command == "board":
                self.term.page(screen.board)
            elif command == "log":
                self.term.page(self.whole_log(seat))
            elif command == "rules":
                self.term.page(_markdown(self.game.rules_summary()))
            elif command == "more":
                page += 1
            elif command == "save":
                message = self.save(Path(rest.strip()) if rest.strip() else self.path)
            elif command in ("quit", "exit"):
                return None
            elif command == "hint" and not rest.strip():
                self.term.page(self.hint(seat))
                message = Text("Your hint is noted in every seat's log.", style="dim")
            elif command == "undo" and not rest.strip():
                if self.taken:
                    return UNDO
                message = Text(
                    "Nothing to take back: what was revealed stays.", style="bold yellow"
                )
            else:
                answer = menu.answer(text, group)
                if isinstance(answer, Picked):
                    return answer.action
                if isinstance(answer, Opened):
                    group, page = answer.group, 0
                elif isinstance(answer, Refused):
                    message = Text(answer.reason, style="bold yellow")

    def hint(self, seat: int) -> Group:
        """The seat's three best moves with its chances, noted in every person's log."""
        best = hints(SeatWindow(self.state, seat), Depth(), judge_for(self.game))
        index = self.state.move_number()
        for viewer in self.humans:
            self.logs[viewer].append(self.state.entry(index, "hint_used", seat, {}, viewer))
        lines = [Text("Hint: the best moves the analysis finds, with your chance to win")]
        for rank, (action, chance) in enumerate(best, 1):
            line = Text(f"{rank}. {self.state.action_info(action)['text']} ")
            line.append(f"({100 * chance:.0f}%)", style="bold")
            lines.append(line)
        return Group(*lines)

    def turn_line(self, seat: int) -> Text:
        line = Text("● ", style=seat_colour(seat))
        line.append(f"Your turn (Player {seat + 1})", style=f"bold {seat_colour(seat)}")
        prompt = self.state.prompt(seat)
        if prompt is not None and prompt.get("text"):
            line.append(": ")
            line.append(str(prompt["text"]))
        return line

    def whole_log(self, seat: int) -> Group:
        lines = [Text(f"{self.game.title}: your log, oldest first", style="bold")]
        lines += [entry_text(e, seat, True) for e in self.logs[seat]]
        return Group(*lines)

    # --- saving and the end -------------------------------------------------------------

    def save(self, path: Path) -> Text:
        """Write the record to ``path``; what happened, to show."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.record.save(path)
        except OSError as exc:
            return Text(f"Could not save to {path}: {exc.strerror or exc}", style="bold red")
        return Text(f"Match record saved to {path}")

    def leave(self) -> None:
        """Save, and say how to come back (after a quit, the end of input or Ctrl-C)."""
        self.term.release()
        self.out.print(self.save(self.path), soft_wrap=True)
        self.out.print(f"Resume with: {escape(resume_hint(self.path))}", soft_wrap=True)

    def finish(self) -> None:
        viewer = self.humans[0] if len(self.humans) == 1 else None
        if len(self.humans) > 1:
            # With its scrollback: the last person's hand must not stay for the others.
            self.term.wipe()
        screen = self.screen(viewer)
        screen.turn = Text("The match is over.", style="bold")
        self.term.draw_final(screen)
        kinds = [self.kind(s) for s in range(len(self.seats))]
        self.out.print(
            breakdown_table(self.state.score_breakdown(viewer), self.state.returns(), viewer, kinds)
        )
        self.out.print(self.save(self.path), soft_wrap=True)


def _markdown(text: str) -> Markdown:
    return Markdown(text)


def play(
    game_id: Annotated[str | None, typer.Argument(metavar="GAME", help=GAME_HELP)] = None,
    seats: Annotated[
        str | None,
        typer.Option(
            "--seats",
            "-s",
            help=f"one entry per seat, comma-separated: {HUMAN} or a bot ({', '.join(BOTS)});"
            f" seats left out are played by the {DEFAULT_BOT} bot",
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="seed for the dice and draws (default: random)")
    ] = None,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help="a game option, name=value")
    ] = None,
    save: Annotated[Path | None, typer.Option("--save", help="the match record's file")] = None,
    resume: Annotated[
        Path | None, typer.Option("--resume", help="continue the match saved in this file")
    ] = None,
) -> None:
    """Play a game in the terminal, against bots or with friends at one screen."""
    if resume is not None:
        try:
            record = MatchRecord.load(resume)
            record.check_seats([HUMAN, *BOTS])
            record.final_state(load_game)
        except MatchRecordError as exc:
            raise fail(str(exc)) from None
        if game_id is not None and game_id != record.game:
            raise fail(f"{resume} holds a {record.game} match, not {game_id}")
        if seats is not None:
            record.seats = _parse_seats(seats, len(record.seats))
        game = open_game(record.game, record.options)
        path = save or resume
    else:
        if game_id is None:
            raise fail("name a game to play, e.g. necropolis play luxor2001")
        options = parse_options(option)
        names = _seat_names(game_id, seats, options)
        options["players"] = len(names)
        game = open_game(game_id, options)
        record = MatchRecord.start(game, names, seed if seed is not None else _fresh_seed())
        path = save or default_record_path(game.id)
    match = TerminalMatch(game, record, path)
    interruptible()
    try:
        finished = match.run()
    except KeyboardInterrupt:
        console.file.write("\n")  # ^C leaves the cursor after the typed text
        match.leave()
        raise typer.Exit(INTERRUPTED) from None
    if not finished:
        match.leave()


def _seat_names(game_id: str, seats: str | None, options: dict[str, object]) -> list[str]:
    """Who sits where: the seats given, then the default bot up to the players asked for."""
    try:
        cls = game_class(game_id)
    except NecropolisError as exc:
        raise fail(str(exc)) from None
    names = _parse_seats(seats, None) if seats is not None else [HUMAN]
    wanted = options.get("players")
    if wanted is None:
        # Seats enough for a match stand as given; fewer are joined by the default bot.
        count = len(names) if len(names) >= cls.min_players else cls.default_players
    else:
        text = str(wanted).strip()
        if not text.isdigit():
            raise fail(f"players must be a whole number, not {wanted!r}")
        count = int(text)
        if len(names) > count:
            raise fail(f"--seats names {len(names)} seats but players={wanted}")
    return names + [DEFAULT_BOT] * (count - len(names))


def _parse_seats(text: str, expected: int | None) -> list[str]:
    names = [name.strip().lower() for name in text.split(",")]
    for name in names:
        if name != HUMAN and name not in BOTS:
            raise fail(f"unknown seat {name!r}: use {HUMAN} or one of {', '.join(BOTS)}")
    if expected is not None and len(names) != expected:
        raise fail(f"this match has {expected} seats; --seats names {len(names)}")
    return names


def _fresh_seed() -> int:
    return secrets.randbelow(2**31)
