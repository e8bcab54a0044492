"""``undo`` at the terminal table: a person takes back their own decisions of a turn while
nothing was revealed since, never across a reveal, and a decision taken back leaves no
trace in the match record.

The match is a real :class:`~necropolis.cli.play.TerminalMatch` on a console that reads
typed lines from a list; where the test makes a decision it hands the action to the match
as a person's pick would be, and ``undo`` is always typed, through the table's own
command line.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from rich.console import Console

from necropolis.cli.play import HUMAN, UNDO, TerminalMatch
from necropolis.engine import CHANCE
from necropolis.engine.record import MatchRecord
from necropolis.games import load_game


class Typist(Console):
    """A console whose input is the lines the test queued."""

    def __init__(self) -> None:
        super().__init__(file=io.StringIO(), width=100, height=30, force_terminal=False)
        self.lines: list[str] = []

    def input(self, *args: Any, **kwargs: Any) -> str:
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


class Person(TerminalMatch):
    """Plays the first choice, but once takes back a decision kept in hand (typing
    ``undo``), and tries ``undo`` after a reveal."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.typist: Typist = self.out  # type: ignore[assignment]
        self.before: tuple[list[int], Any] | None = None
        self.undone: int | None = None
        self.refused_after_reveal = False
        self.decisions = 0

    def ask(self, seat: int) -> int | str | None:
        state = self.state
        legal = state.legal_actions(seat)
        held = [a for a in legal if not state.reveals(a)]
        if self.undone is None and self.before is None and held:
            # Keep a decision in hand, then take it back.
            self.before = (list(self.record.actions), state.view(seat))
            self.undone = held[-1]
            return held[-1]
        if self.before is not None and self.undone is not None and self.taken:
            self.typist.lines.append("undo")
            answer = super().ask(seat)
            assert answer == UNDO
            return answer
        if self.before is not None:
            actions, view = self.before
            # Taken back: the record and the seat's view are as before it.
            assert self.record.actions == actions and state.view(seat) == view
            self.before = None
        if self.undone is not None and not self.taken and not self.refused_after_reveal:
            # Nothing in hand: typed undo is refused with a message, and the table goes on.
            self.typist.lines.extend(["undo", "quit"])
            self.refused_after_reveal = super().ask(seat) is None
            return self.first(legal)
        self.decisions += 1
        if self.decisions > 60:
            return None
        return self.first(legal)

    def first(self, legal: list[int]) -> int:
        # Not the decision taken back, so that the record shows it was never made.
        rest = [a for a in legal if a != self.undone]
        return rest[0] if rest else legal[0]


def test_undo_takes_back_a_decision_in_hand_and_never_one_across_a_reveal(
    tmp_path: Path,
) -> None:
    game = load_game("luxor", players=2)
    record = MatchRecord.start(game, [HUMAN, "easy"], 5)
    match = Person(game, record, tmp_path / "m.json", Typist())
    assert match.run() is False  # the person left after 60 decisions
    assert match.undone is not None and match.before is None
    assert match.refused_after_reveal
    screen = match.typist.file.getvalue()  # type: ignore[attr-defined]
    assert "Nothing to take back: what was revealed stays." in screen
    # The record replays to the same match, and every decision in it was made.
    replayed = record.final_state(load_game)
    assert replayed.history() == match.state.history() == record.actions


class AcrossReveals(TerminalMatch):
    """Each turn keeps a decision in hand when it can, then makes the decision that ends
    the turn; at its next turn, once a chance outcome or another seat's move came between,
    it types ``undo``: refused each time, and the decisions before the reveal stay."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.typist: Typist = self.out  # type: ignore[assignment]
        #: Who made each action of the record (CHANCE for a chance outcome).
        self.actors: list[int] = []
        replay = self.game.new_initial_state()
        for action in self.record.actions:
            self.actors.append(replay.current_player())
            replay.apply_action(action)
        #: The person's decisions: where each went in the record, and what it was.
        self.mine: list[int] = []
        self.made: list[tuple[int, int]] = []
        self.held_then_revealed = 0
        #: What came between the person's last decision and each refused undo.
        self.refused_across: list[set[int]] = []

    def apply(self, action: int) -> None:
        self.actors.append(self.state.current_player())
        super().apply(action)

    def ask(self, seat: int) -> int | str | None:
        state = self.state
        legal = state.legal_actions(seat)
        if self.mine and not self.taken:
            between = set(self.actors[self.mine[-1] + 1 :])
            if between - {seat}:
                before = list(self.record.actions)
                if len(self.mine) > 1 and self.mine[-2] == self.mine[-1] - 1:
                    self.held_then_revealed += 1
                self.typist.lines.extend(["undo", "quit"])
                answer = super().ask(seat)
                # Refused: the person's answer is the quit that follows, nothing was undone.
                assert answer is None, f"undo across a reveal was answered with {answer}"
                assert self.record.actions == before
                assert self.state.history() == before
                self.refused_across.append(between - {seat})
        if len(self.refused_across) >= 6:
            return None
        held = [a for a in legal if not state.reveals(a)]
        chosen = held[0] if held else legal[-1]
        self.mine.append(len(self.record.actions))
        self.made.append((len(self.record.actions), chosen))
        # Keep a decision in hand when one is there, so the turn had something to take back.
        return chosen


def test_undo_is_refused_across_a_chance_outcome_and_another_seats_move(
    tmp_path: Path,
) -> None:
    game = load_game("horus", players=2)
    record = MatchRecord.start(game, [HUMAN, "easy"], 11)
    match = AcrossReveals(game, record, tmp_path / "m.json", Typist())
    assert match.run() is False  # the person left after six refusals
    assert len(match.refused_across) == 6
    came = set().union(*match.refused_across)
    assert CHANCE in came, "a chance outcome came between a decision and undo"
    assert 1 in came, "the other seat's move came between a decision and undo"
    screen = match.typist.file.getvalue()  # type: ignore[attr-defined]
    assert screen.count("Nothing to take back: what was revealed stays.") == 6
    # Every decision the person made is in the record, in order: none was taken back.
    assert match.held_then_revealed >= 1, "a turn kept a decision in hand before its reveal"
    # Every decision the person made is in the record where it was made: none taken back.
    assert all(match.record.actions[i] == action for i, action in match.made)
    replayed = record.final_state(load_game)
    assert replayed.history() == match.state.history() == record.actions
