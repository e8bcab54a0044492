"""Shuffles and draws that give exactly what :class:`random.Random`'s own would, faster.

Determinizations redraw hidden cards at every iteration of a search, and the standard
library's ``shuffle`` and ``randrange`` spend most of their time in a Python call per
element. These do the same work inline: from one generator they return the same items
in the same places and leave the generator in the same state as ``rng.shuffle(items)``
and ``rng.randrange(n)`` (a test checks it against the standard library), so a world
drawn from a seed is the one it always was and every recorded match still replays.
:func:`shuffle_tail` goes further for a caller that takes its draws from the end of the
pool and only counts the rest: it settles only those last places and spends the rest of
the shuffle's random numbers without moving anything.

Only a plain :class:`random.Random` takes the inline path; any other generator (a
subclass, ``SystemRandom``) is handed to its own methods.
"""

from __future__ import annotations

import random
from typing import Any

_Random = random.Random
#: ``n.bit_length()`` for the pool sizes met in the games (a list lookup is cheaper).
_BITS: tuple[int, ...] = tuple(n.bit_length() for n in range(1024))


def randbelow(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n >= 1``: the same number, the same generator state."""
    if type(rng) is not _Random or not 0 < n < len(_BITS):
        return rng.randrange(n)
    getrandbits = rng.getrandbits
    k = _BITS[n]
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)``: the same order, the same generator state afterwards."""
    shuffle_tail(rng, items, len(items))


def shuffle_tail(rng: random.Random, items: list[Any], k: int) -> None:
    """``rng.shuffle(items)`` as far as the last ``k`` places are concerned.

    Those places (all of them if ``k >= len(items)``) end up holding exactly what the full
    shuffle would put there, and the generator is left exactly as the full shuffle leaves
    it; the places before them hold the remaining items in an order of no meaning.
    The shuffle fills places from the last one down, so the last ``k`` are settled after
    its first ``k`` steps; the later steps only draw their numbers.
    """
    size = len(items)
    if type(rng) is not _Random or size >= len(_BITS):
        rng.shuffle(items)
        return
    getrandbits = rng.getrandbits
    bits = _BITS
    stop = size - max(k, 0) if k < size else 1
    for i in range(size - 1, stop - 1, -1):
        n = i + 1
        b = bits[n]
        j = getrandbits(b)
        while j >= n:
            j = getrandbits(b)
        items[i], items[j] = items[j], items[i]
    # The remaining steps (places stop-1 down to 1) draw below stop, stop-1, ..., 2.
    for n in range(stop, 1, -1):
        b = bits[n]
        while getrandbits(b) >= n:
            pass
