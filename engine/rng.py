"""A small owned random generator, so a seed deals the same game everywhere.

Python's ``random`` does not promise the same shuffle across versions; this
SplitMix64 generator and its Fisher-Yates shuffle are fully specified here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


_LIMITS = [0] + [(1 << 64) - ((1 << 64) % n) for n in range(1, 257)]
_STEPS = [tuple((n, _LIMITS[n]) for n in range(size, 1, -1)) for size in range(len(_LIMITS))]
"""``_STEPS[size]``: the (bound, rejection limit) of each Fisher-Yates swap of ``size`` items."""


class Rng:
    """SplitMix64: deterministic 64-bit outputs from an integer seed."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def next64(self) -> int:
        """The next 64-bit output."""
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        limit = _LIMITS[n] if n < len(_LIMITS) else (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return (self.next64() >> 11) / float(1 << 53)

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A Fisher-Yates shuffled copy of ``items`` (each swap index from :meth:`below`)."""
        out = list(items)
        if len(out) >= len(_LIMITS):
            for i in range(len(out) - 1, 0, -1):
                j = self.below(i + 1)
                out[i], out[j] = out[j], out[i]
            return out
        # next64() and below() inlined: this deals every hand.
        state = self._state
        for n, limit in _STEPS[len(out)]:
            state = (state + 0x9E3779B97F4A7C15) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            while z >= limit:  # rejected (a chance of about n in 2**64): draw again
                state = (state + 0x9E3779B97F4A7C15) & _MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                z ^= z >> 31
            j = z % n
            i = n - 1
            out[i], out[j] = out[j], out[i]
        self._state = state
        return out

    def choice(self, items: Sequence[T]) -> T:
        """One element of a non-empty sequence, uniformly."""
        return items[self.below(len(items))]


def derive_seed(seed: int, *parts: int) -> int:
    """Mix ``seed`` with further integers into an independent 64-bit seed."""
    state = seed & _MASK
    for part in parts:
        state = Rng(state ^ ((part * 0xD1B54A32D192ED03) & _MASK)).next64()
    return state
