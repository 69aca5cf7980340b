"""A small owned random generator, so a seed deals the same game everywhere.

Python's ``random`` does not promise the same shuffle across versions; this
SplitMix64 generator and its Fisher-Yates shuffle are fully specified here.

The computer players' sampling draws from a :class:`RandomSource`: anything
with a ``random()`` method, in practice a :class:`random.Random` (fast, in
C). Of it only ``random()`` is used, because it is the one method
Python promises to keep: the same int seed gives the same ``random()`` sequence
in every version. ``shuffle``, ``sample``, ``choice`` and ``randrange`` carry
no such promise (their algorithms have changed between versions), so
:func:`shuffle` here builds a Fisher-Yates shuffle on ``random()`` alone; with
IEEE-754 arithmetic, which every platform Python runs on rounds alike, a seed
then gives the same draws on every machine and Python version.
"""

from __future__ import annotations

import sys
from collections.abc import MutableSequence, Sequence
from typing import Protocol, TypeVar

from engine.errors import AllFivesError, shown

T = TypeVar("T")
_MASK = (1 << 64) - 1

SEED_LIMIT = 2**63
"""A game's seed is a whole number ``0 <= seed < SEED_LIMIT`` (what an SQLite integer holds)."""


_GAMMA = 0x9E3779B97F4A7C15
_LIMITS = [0] + [(1 << 64) - ((1 << 64) % n) for n in range(1, 257)]
_NEVER_REJECTED = (1 << 64) - 256
"""Below every rejection limit of a bound up to 256: an output under it is always kept."""

_LANES_MAX = 64 if sys.byteorder == "little" else 0
"""The longest sequence shuffled with all draws computed at once (see :func:`_outputs`)."""
_LANE_CONSTANTS = [
    (
        sum(1 << (128 * i) for i in range(k)),  # the seed once in every lane
        sum(((i + 1) * _GAMMA) << (128 * i) for i in range(k)),  # the i-th step's increment
        sum(_MASK << (128 * i) for i in range(k)),  # the low 64 bits of every lane
    )
    for k in range(_LANES_MAX)
]


def _outputs(state: int, count: int) -> memoryview:
    """The next ``count`` SplitMix64 outputs from ``state``, computed together.

    Each output sits in a 128-bit lane of one big integer, so every step of
    the mix runs once for all of them (masking each lane back to 64 bits
    after every shift and product); the same numbers as ``count`` calls of
    :meth:`Rng.next64`, about twice as fast in pure Python.
    """
    ones, steps, low = _LANE_CONSTANTS[count]
    z = (state * ones + steps) & low
    z ^= (z >> 30) & low
    z = (z * 0xBF58476D1CE4E5B9) & low
    z ^= (z >> 27) & low
    z = (z * 0x94D049BB133111EB) & low
    z ^= (z >> 31) & low
    return memoryview(z.to_bytes(16 * count, "little")).cast("Q")[::2]


class Rng:
    """SplitMix64: deterministic 64-bit outputs from an integer seed.

    Any whole number seeds it (reduced to 64 bits, see :func:`check_seed`);
    a game's own seed is checked by :func:`check_game_seed` where a game takes it.
    """

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = check_seed(seed) & _MASK

    def next64(self) -> int:
        """The next 64-bit output."""
        self._state = (self._state + _GAMMA) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)`` (rejection sampling, no modulo bias)."""
        if type(n) is not int or n <= 0:
            raise AllFivesError(f"below() needs a whole number above 0, not {shown(n)}")
        limit = _LIMITS[n] if n < len(_LIMITS) else (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A Fisher-Yates shuffled copy of ``items`` (each swap index from :meth:`below`)."""
        out = list(items)
        size = len(out)
        if 2 <= size <= _LANES_MAX:
            # Every draw at once (this deals every hand); a draw that below()
            # would reject (a chance of about 2**-56 each) shifts every later
            # draw, and then the one-at-a-time loop below gives the shuffle.
            lanes = _outputs(self._state, size - 1)
            if max(lanes) < _NEVER_REJECTED:
                i = size - 1
                for z in lanes:
                    j = z % (i + 1)
                    out[i], out[j] = out[j], out[i]
                    i -= 1
                self._state = (self._state + (size - 1) * _GAMMA) & _MASK
                return out
        for i in range(size - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out



class RandomSource(Protocol):
    """A source of uniform floats in [0, 1): all that playouts and world sampling use."""

    def random(self) -> float:
        """The next float in [0, 1)."""
        ...


def shuffle(items: MutableSequence[T], source: RandomSource) -> None:
    """Shuffle ``items`` in place (Fisher-Yates) with draws from ``source.random()`` only.

    Swap ``i`` (from the end down) takes index ``int(random() * (i + 1))``:
    a float below 1 times a count is always below the count, and the
    truncation's bias, under ``n / 2**53``, is far below anything a playout
    could show. Unlike :meth:`random.Random.shuffle` it gives the same order
    for the same draws in every Python version.
    """
    rnd = source.random
    for i in range(len(items) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        items[i], items[j] = items[j], items[i]


def check_game_seed(seed: object) -> int:
    """``seed`` if it is a game's seed: a whole number ``0 <= seed <`` :data:`SEED_LIMIT`.

    Not a bool, a float or text. Raises :class:`~engine.errors.AllFivesError`
    (a ``ValueError``) naming the bad value (at most 80 characters of it).
    """
    if isinstance(seed, int) and not isinstance(seed, bool) and 0 <= seed < SEED_LIMIT:
        return seed
    raise AllFivesError(
        f"a seed must be a whole number from 0 to {SEED_LIMIT - 1}, not {shown(seed, 80)}",
        code="game-seed",
        details={"value": shown(seed, 80), "most": SEED_LIMIT - 1},
    )


def check_seed(seed: object) -> int:
    """``seed`` if it is a whole number (not a bool, a float or text), of any size.

    What a generator (:class:`Rng`, a computer player) takes: its seed is
    reduced to 64 bits, so a derived value (a game's seed times 8 plus a
    seat) is as good as any. Raises :class:`~engine.errors.AllFivesError`.
    """
    if isinstance(seed, int) and not isinstance(seed, bool):
        return seed
    raise AllFivesError(f"a seed must be a whole number, not {shown(seed, 80)}")


def derive_seed(seed: int, *parts: int) -> int:
    """Mix ``seed`` with further integers into an independent 64-bit seed."""
    state = check_seed(seed) & _MASK
    for part in parts:
        state = Rng(state ^ ((part * 0xD1B54A32D192ED03) & _MASK)).next64()
    return state
