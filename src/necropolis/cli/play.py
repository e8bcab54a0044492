"""``necropolis play``: a match at the terminal, people and bots at the same table.

A person sees only their seat's view, rendered by the game, and a numbered list of
their legal actions; an action is chosen by its number or by its text. Everything else
at the prompt (``save``, ``board``, ``help``, ``quit``) is a command, and bad input gets
a message and the prompt again. Nothing is lost: quitting, Ctrl-C or end of input saves
the match record first, and ``--resume`` continues from it. With several people at one
screen (hot seat) the table asks to pass the screen before showing a private view.
"""

from __future__ import annotations

import random
import secrets
from datetime import datetime
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from necropolis.bots import BOTS, make_bot
from necropolis.cli.common import console, fail, open_game, parse_options
from necropolis.engine.driver import Player, player_rngs, sample_chance
from necropolis.engine.errors import IllegalActionError, MatchRecordError
from necropolis.engine.protocol import CHANCE, Game, State
from necropolis.engine.record import MatchRecord
from necropolis.engine.seat import SeatWindow

HUMAN = "human"
HELP = """\
Type the number of an action, or its text. Other commands:
  board         show the board again
  save [FILE]   write the match record (to FILE, or the match's file)
  quit          save and leave; resume later with: necropolis play --resume FILE
  help          this text"""


def default_record_path(game_id: str) -> Path:
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path("matches") / f"{game_id}-{stamp}.json"


def seat_label(seat: int, seats: list[str]) -> str:
    return f"Seat {seat} ({seats[seat]})"


class TerminalMatch:
    """One match at the terminal; holds the true state but shows each seat its view."""

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
        self.seats = record.seats
        self.humans = [i for i, name in enumerate(self.seats) if name == HUMAN]
        # With one person the narration is told from their seat; with several at one
        # screen, from a spectator's, so that nobody's secrets are said aloud.
        self.narrator: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.bots: dict[int, Player] = {
            i: make_bot(name) for i, name in enumerate(self.seats) if name != HUMAN
        }
        seed = record.seed if record.seed is not None else 0
        done = len(record.actions)
        # A new match draws exactly as necropolis.play_match does with the same seed; a
        # resumed one from a stream seeded by the seed and the number of actions so far.
        self.chance_rng = random.Random(seed if not done else f"{seed}:{done}")
        self.rngs = player_rngs(seed + done, len(self.seats))
        self.state: State = record.final_state()
        self.last_human: int | None = None

    # --- the loop ---------------------------------------------------------------------

    def run(self) -> bool:
        """Play until the end (True) or until a person quits (False)."""
        state = self.state
        while not state.is_terminal():
            seat = state.current_player()
            if seat == CHANCE:
                action = sample_chance(state, self.chance_rng)
                self.narrate(f"  · {state.describe_action(action, self.narrator)}")
            elif seat in self.bots:
                action = self.bots[seat].choose(SeatWindow(state, seat), self.rngs[seat])
                said = state.describe_action(action, self.narrator)
                self.narrate(f"{seat_label(seat, self.seats)}: {said}")
            else:
                chosen = self.ask(seat)
                if chosen is None:
                    self.save(self.path)
                    self.out.print(
                        f"Resume with: necropolis play --resume {self.path}", soft_wrap=True
                    )
                    return False
                action = chosen
            state.apply_action(action)
            self.record.actions.append(action)
        self.finish()
        return True

    def narrate(self, text: str) -> None:
        self.out.print(escape(text))

    def show_board(self, seat: int | None) -> None:
        self.out.print(self.game.render_view(self.state.view(seat)))

    def ask(self, seat: int) -> int | None:
        """The action a person picks for ``seat``, or None when they quit."""
        if len(self.humans) > 1 and self.last_human != seat:
            self.out.rule(f"{seat_label(seat, self.seats)}: your turn")
            try:
                self.out.input("Pass the screen to this seat, then press Enter. ")
            except (EOFError, KeyboardInterrupt):
                return None
        self.last_human = seat
        self.show_board(seat)
        self.list_actions()
        while True:
            try:
                text = self.out.input(f"[bold]{seat_label(seat, self.seats)}[/] > ").strip()
            except (EOFError, KeyboardInterrupt):
                self.out.print()
                return None
            action = self.interpret(text, seat)
            if action is not None:
                return action if action >= 0 else None

    def list_actions(self) -> None:
        for number, action in enumerate(self.state.legal_actions(), 1):
            self.out.print(f"  [cyan]{number:>3}[/]  {escape(self.state.action_to_string(action))}")

    def interpret(self, text: str, seat: int) -> int | None:
        """An action for ``text``; -1 to quit; None to ask again (after saying why)."""
        if not text:
            return None
        word, _, rest = text.partition(" ")
        command = word.lower()
        if command in ("help", "?"):
            self.out.print(escape(HELP))
            return None
        if command in ("board", "b"):
            self.show_board(seat)
            self.list_actions()
            return None
        if command == "save":
            self.save(Path(rest.strip()) if rest.strip() else self.path)
            return None
        if command in ("quit", "exit", "q"):
            return -1
        legal = self.state.legal_actions()
        if text.isdigit():
            number = int(text)
            if 1 <= number <= len(legal):
                return legal[number - 1]
            self.out.print(f"There is no action {number}: choose 1 to {len(legal)}.")
            return None
        try:
            return self.state.string_to_action(text)
        except IllegalActionError:
            pass
        # A unique part of an action's text is enough.
        lowered = text.lower()
        matches = [a for a in legal if lowered in self.state.action_to_string(a).lower()]
        if len(matches) == 1:
            return matches[0]
        if matches:
            self.out.print(
                f"{len(matches)} actions match {escape(text)!r}; say more, or use a number."
            )
        else:
            self.out.print(f"No legal action matches {escape(text)!r}. Type help for commands.")
        return None

    def save(self, path: Path) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self.record.save(path)
        except OSError as exc:
            self.out.print(f"Could not save to {escape(str(path))}: {exc.strerror or exc}")
            return
        self.out.print(f"Match record saved to {escape(str(path))}", soft_wrap=True)

    def finish(self) -> None:
        self.out.rule("The match is over")
        self.show_board(None)
        table = Table(title="Final scores")
        table.add_column("seat")
        table.add_column("score", justify="right")
        table.add_column("result")
        returns = self.state.returns()
        for seat, score in enumerate(self.state.scores()):
            result = "wins" if returns[seat] == 1 else "shares the win" if returns[seat] else ""
            table.add_row(seat_label(seat, self.seats), f"{score:g}", result)
        self.out.print(table)
        if not any(returns):
            self.out.print("Nobody wins this match.")
        self.save(self.path)


def play(
    game_id: Annotated[
        str | None, typer.Argument(metavar="GAME", help="the game: see necropolis games")
    ] = None,
    seats: Annotated[
        str | None,
        typer.Option(
            "--seats",
            "-s",
            help=f"one entry per seat, comma-separated: {HUMAN} or a bot ({', '.join(BOTS)})",
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
            record.final_state()
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
        names = _parse_seats(seats or f"{HUMAN},random", None)
        if "players" in options and str(options["players"]) != str(len(names)):
            raise fail(f"--seats names {len(names)} seats but players={options['players']}")
        options["players"] = len(names)
        game = open_game(game_id, options)
        record = MatchRecord.start(game, names, seed if seed is not None else _fresh_seed())
        path = save or default_record_path(game.id)
    console.rule(f"{game.title}: {', '.join(record.seats)}  (seed {record.seed})")
    TerminalMatch(game, record, path).run()


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
