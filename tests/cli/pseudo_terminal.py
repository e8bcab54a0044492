"""A pseudo-terminal for the terminal table's tests: pexpect drives ``necropolis``, pyte
plays the terminal, so a test reads the screen a person would see (and its scrollback)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pexpect
import pyte

#: The terminal the table must fit.
COLUMNS, LINES = 100, 30
#: Seconds to wait for the program; generous, for a loaded two-core machine.
TIMEOUT = 120.0
NECROPOLIS = str(Path(sys.executable).parent / "necropolis")


class Tty:
    """``necropolis`` running in a pseudo-terminal of ``columns`` × ``lines``."""

    def __init__(
        self,
        args: list[str],
        cwd: Path,
        columns: int = COLUMNS,
        lines: int = LINES,
        command: str | None = None,
        path: str | None = None,
        ignore_sigint: bool = False,
    ) -> None:
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "PAGER")}
        env["TERM"] = "xterm-256color"
        env["LESS"] = ""
        if path is not None:
            env["PATH"] = path
        self.screen = pyte.HistoryScreen(columns, lines, history=10_000)
        self.screen.set_mode(pyte.modes.LNM)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = b""
        #: Where the output stood when the last line was sent.
        self.sent_at = 0
        # As a shell starts a background job (``./test &``) and all it runs: SIGINT ignored.
        start = _ignore_sigint if ignore_sigint else None
        if command is None:
            self.child = pexpect.spawn(
                NECROPOLIS,
                args,
                cwd=str(cwd),
                env=env,
                dimensions=(lines, columns),
                preexec_fn=start,
            )
        else:
            self.child = pexpect.spawn(
                "/bin/bash", ["-c", command], cwd=str(cwd), env=env, dimensions=(lines, columns)
            )

    # --- reading --------------------------------------------------------------------

    def pump(self, seconds: float = 0.05) -> tuple[bool, bool]:
        """Feed what the program wrote to the emulator: (still running, anything read)."""
        try:
            data = self.child.read_nonblocking(65536, timeout=seconds)
        except pexpect.TIMEOUT:
            return True, False
        except pexpect.EOF:
            return False, False
        self.raw += data
        self.stream.feed(data)
        return True, True

    def until(self, condition: Callable[[], bool], what: str, timeout: float = TIMEOUT) -> None:
        """Read until ``condition`` holds of the screen and the program has gone quiet."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            alive, _ = self.pump()
            if condition():
                # A screen still being drawn may satisfy the condition halfway: wait for
                # a pause in the output, then look again.
                while True:
                    alive, read = self.pump(0.2)
                    if not read:
                        break
                if condition():
                    return
            if not alive:
                break
        raise AssertionError(f"waited for {what}; the screen shows:\n{self.text()}")

    def display(self) -> list[str]:
        return list(self.screen.display)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.display())

    def history(self) -> str:
        """The lines scrolled off the top (pyte's history)."""
        lines = []
        for row in self.screen.history.top:
            lines.append("".join(row[x].data for x in sorted(row)).rstrip())
        return "\n".join(lines)

    def at_input(self) -> bool:
        """The table waits for an answer: the input line "> " at the bottom, cursor after it,
        on a screen drawn since the last line was sent (each drawing starts at home)."""
        bottom = self.display()[-1]
        return (
            bottom.rstrip() == ">"
            and (self.screen.cursor.y, self.screen.cursor.x) == (self.screen.lines - 1, 2)
            and b"\x1b[H" in self.raw[self.sent_at :]
        )

    def wait_input(self, timeout: float = TIMEOUT) -> None:
        self.until(self.at_input, "the input line", timeout)

    def wait_text(self, text: str, timeout: float = TIMEOUT) -> None:
        self.until(lambda: text in self.text(), repr(text), timeout)

    # --- writing --------------------------------------------------------------------

    def send(self, line: str) -> None:
        self.sent_at = len(self.raw)
        self.child.send(line + "\r")

    def resize(self, columns: int, lines: int) -> None:
        """Resize the terminal, as a person dragging the window's corner does."""
        self.sent_at = len(self.raw)
        self.screen.resize(lines, columns)
        self.child.setwinsize(lines, columns)

    def press(self, keys: str) -> None:
        """Keys without Enter (to a pager)."""
        self.sent_at = len(self.raw)
        self.child.send(keys)

    def interrupt(self) -> None:
        self.child.sendintr()

    def exit_status(self, timeout: float = TIMEOUT) -> int:
        end = time.monotonic() + timeout
        while self.pump()[0] and time.monotonic() < end:
            pass
        if self.child.isalive():
            # Still running: say where it stands and which signals it blocks and ignores,
            # for the failure to be understood.
            dump = subprocess.run(
                [str(Path(sys.executable).parent / "py-spy"), "dump", "--pid", str(self.child.pid)],
                capture_output=True,
                text=True,
                check=False,
            )
            self.hung = f"{_signal_masks(self.child.pid)}\n{dump.stdout}{dump.stderr}"
            print(f"the program did not end: {self.hung}", file=sys.stderr)
        self.child.close()
        status = self.child.exitstatus
        if status is None and self.child.signalstatus is not None:
            return 128 + self.child.signalstatus
        assert status is not None
        return status


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _signal_masks(pid: int) -> str:
    try:
        lines = Path(f"/proc/{pid}/status").read_text().splitlines()
    except OSError:
        return "gone"
    return " ".join(line for line in lines if line.startswith(("SigBlk", "SigIgn", "SigCgt")))
