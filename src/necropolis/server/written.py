"""What people write (a seat's or an account's name, a chat line), made safe to show.

Names and chat lines reach other people's pages, so control characters (a terminal's
bell, a NUL) and the characters that reorder text around them (U+202E and its family)
are dropped here, on the way in, and each page isolates what it shows as well. One place
for the rule, so that a name is cleaned the same way wherever it is given.
"""

from __future__ import annotations

import unicodedata

#: The characters that change the direction of the text around them.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def _kept(text: str) -> str:
    """``text`` less control and bidirectional control characters; tabs, line breaks and
    paragraph separators become spaces."""
    return "".join(
        " " if c in "\t\n\r" or unicodedata.category(c) in ("Zl", "Zp") else c
        for c in text
        if c in "\t\n\r" or (unicodedata.category(c) not in ("Cc", "Cs") and c not in BIDI_CONTROLS)
    )


def clean_name(text: str) -> str:
    """A name as given, cleaned, with its runs of white space made one space and its ends
    trimmed."""
    return " ".join(_kept(text).split())


def clean_text(text: str) -> str:
    """A chat line as written, cleaned, its ends trimmed (its inner spaces kept)."""
    return _kept(text).strip()
