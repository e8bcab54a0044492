"""The inline shuffles and draws give what the standard library's give, state included.

Determinizations use them in place of ``rng.shuffle`` and ``rng.randrange`` so that a seed
keeps drawing the world it always drew; these tests hold them to that against the very
``random.Random`` the interpreter ships (a change there would show here first).
"""

from __future__ import annotations

import random

import pytest

from necropolis.engine.draws import randbelow, shuffle, shuffle_tail

SIZES = [*range(0, 40), 49, 64, 65, 100, 255, 256, 1023, 1024, 1500]


@pytest.mark.parametrize("size", SIZES)
def test_shuffle_is_the_standard_shuffle(size: int) -> None:
    for seed in range(40 if size < 200 else 4):
        ours, theirs = random.Random(seed), random.Random(seed)
        a, b = list(range(size)), list(range(size))
        shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
        assert ours.getstate() == theirs.getstate()


@pytest.mark.parametrize("size", SIZES)
def test_a_tail_shuffle_settles_the_tail_and_spends_the_same_numbers(size: int) -> None:
    for k in sorted({0, 1, 2, 3, size // 2, size - 1, size, size + 3}):
        if k < 0:
            continue
        for seed in range(12 if size < 200 else 2):
            ours, theirs = random.Random(seed), random.Random(seed)
            # repeated items, as in a pool of card kinds
            a, b = [x % 7 for x in range(size)], [x % 7 for x in range(size)]
            shuffle_tail(ours, a, k)
            theirs.shuffle(b)
            settled = min(k, size)
            assert a[size - settled :] == b[size - settled :], (size, k, seed)
            assert sorted(a) == sorted(b)
            assert ours.getstate() == theirs.getstate(), (size, k, seed)


def test_randbelow_is_randrange() -> None:
    ours, theirs = random.Random(5), random.Random(5)
    for n in [*range(1, 300), 511, 512, 513, 1023, 1024, 1025, 10**9]:
        for _ in range(20):
            assert randbelow(ours, n) == theirs.randrange(n)
    assert ours.getstate() == theirs.getstate()
    for n in (0, -3):
        with pytest.raises(ValueError):
            randbelow(ours, n)


def test_other_generators_use_their_own_methods() -> None:
    class Counting(random.Random):
        """A subclass whose draws the inline path would not reproduce."""

        def random(self) -> float:
            return 0.5

    a, b = list(range(30)), list(range(30))
    shuffle(Counting(1), a)
    Counting(1).shuffle(b)
    assert a == b
    c = list(range(30))
    shuffle_tail(Counting(1), c, 3)
    assert c == b
    assert randbelow(Counting(1), 10) == Counting(1).randrange(10)
