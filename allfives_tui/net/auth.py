"""Signing in to the host: a hello gets a challenge, the right answer a seat.

A client says hello (its name, maybe a seat's rejoin token) and gets a nonce;
its answer proves the password (:func:`~allfives_tui.net.protocol.proof_matches`).
Failed sign-ins are counted per address (:class:`SignInLimiter`): after each one
that address waits longer before its next try, unless it holds a seat's token.
"""

from __future__ import annotations

import asyncio
import math
import secrets
import time
from collections.abc import Callable

from allfives_tui.net.protocol import Auth, Challenge, Hello, RefusalCode, Refused, proof_matches
from allfives_tui.net.seating import Seating
from allfives_tui.net.transport import Session

HELLO_TIMEOUT = 10.0
"""Seconds a connection has to sign in (hello and the challenge answered) before it is closed."""
SIGN_IN_DELAY = 1.0
"""Seconds an address waits after its first failed sign-in; each further failure doubles it."""
SIGN_IN_DELAY_MAX = 60.0
"""The longest wait after failed sign-ins."""
SIGN_IN_FORGET = 900.0
"""Seconds after its last failure when an address's failures are forgotten."""
TRACKED_ADDRESSES = 4096
"""Addresses whose failures are kept at most (the forgotten ones are dropped first)."""


class SignInLimiter:
    """Failed sign-ins per address, and how long each address waits before its next try."""

    def __init__(
        self,
        delay: float = SIGN_IN_DELAY,
        longest: float = SIGN_IN_DELAY_MAX,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.delay = delay
        self.longest = longest
        self.clock = clock
        self._failures: dict[str, tuple[int, float]] = {}
        """address -> (failures in a row, when the last one was)."""

    def delay_after(self, failures: int) -> float:
        """Seconds to wait after ``failures`` failures in a row."""
        if failures <= 0 or self.delay <= 0:
            return 0.0
        return float(min(self.delay * 2 ** min(failures - 1, 32), self.longest))

    def failures(self, address: str) -> int:
        """Failures in a row from ``address``."""
        entry = self._failures.get(address)
        return entry[0] if entry is not None else 0

    def wait(self, address: str) -> float:
        """Seconds ``address`` must still wait before its next try (0: it may try now)."""
        entry = self._failures.get(address)
        if entry is None:
            return 0.0
        count, last = entry
        return max(0.0, last + self.delay_after(count) - self.clock())

    def failed(self, address: str) -> None:
        """``address`` failed to sign in."""
        now = self.clock()
        count, last = self._failures.pop(address, (0, now))
        if now - last > SIGN_IN_FORGET:
            count = 0
        if len(self._failures) >= TRACKED_ADDRESSES:
            self._failures = {
                a: e for a, e in self._failures.items() if now - e[1] <= SIGN_IN_FORGET
            }
            while len(self._failures) >= TRACKED_ADDRESSES:
                del self._failures[next(iter(self._failures))]
        self._failures[address] = (count + 1, now)

    def succeeded(self, address: str) -> None:
        """``address`` signed in: its failures are forgotten."""
        self._failures.pop(address, None)


class Doorkeeper:
    """Signs clients in and hands each one that may sit to ``sit`` (under ``lock``)."""

    def __init__(
        self,
        seating: Seating,
        *,
        password: str,
        limiter: SignInLimiter,
        lock: asyncio.Lock,
        started: Callable[[], bool],
        sit: Callable[[Session, int], None],
    ) -> None:
        self.seating = seating
        self.password = password
        self.limiter = limiter
        self.lock = lock
        self.started = started
        """True once the game has started (no seat is open then)."""
        self.sit = sit

    def unreadable(self, session: Session, refused: Refused) -> None:
        """A frame that is not a message: ``refused``, fatal only before the sign-in (a
        version mismatch is preceded by a challenge naming the host's version)."""
        fatal = refused.fatal and not session.signed_in
        if fatal and refused.code is RefusalCode.VERSION_MISMATCH:
            # a client of any version reads the challenge's version first
            session.deliver(Challenge(nonce="", password=bool(self.password)))
        session.deliver(refused.model_copy(update={"fatal": fatal}))
        if fatal:
            session.close()

    def hello(self, session: Session, hello: Hello) -> None:
        """A client's hello: its name and token noted, a challenge sent."""
        if session.nonce is not None or session.signed_in:
            session.deliver(Refused(code=RefusalCode.HELLO_TWICE))
            return
        session.name, session.token = hello.name, hello.token
        session.nonce = secrets.token_hex(16)
        session.deliver(Challenge(nonce=session.nonce, password=bool(self.password)))

    async def auth(self, session: Session, auth: Auth) -> None:
        """A client's answer to the challenge: a seat, or a fatal refusal."""
        if session.signed_in:
            session.deliver(Refused(code=RefusalCode.SIGNED_IN_ALREADY))
            return
        if session.nonce is None:
            session.deliver(Refused(code=RefusalCode.HELLO_FIRST))
            return
        nonce, session.nonce = session.nonce, None
        holder = self.seating.token_seat(session.token) is not None
        wait = 0.0 if holder else self.limiter.wait(session.address)
        if wait > 0:
            _turn_away(
                session, Refused(code=RefusalCode.TOO_MANY_FAILURES, wait_s=math.ceil(wait))
            )
            return
        right = proof_matches(self.password, nonce, session.name, auth.proof)
        async with self.lock:
            seat = self.seating.seat_for(session, self.started()) if right else None
            if seat is None:
                self.limiter.failed(session.address)
                _turn_away(session, Refused(code=self._refusal(right, holder)))
                return
            if not holder:  # a seat's token says nothing of the others from its address
                self.limiter.succeeded(session.address)
            self.sit(session, seat)

    def _refusal(self, right: bool, holder: bool) -> RefusalCode:
        """Why a sign-in is refused: with a password, a caller without a seat's token is told
        the same whether the password was wrong or there is no seat for it."""
        started = self.started()
        if not self.password and right:
            return RefusalCode.STARTED_TOKEN_ONLY if started else RefusalCode.SEATS_TAKEN
        if not self.password or holder or self.seating.open_seat(started) is not None:
            return RefusalCode.WRONG_PASSWORD
        if started:
            return RefusalCode.WRONG_PASSWORD_OR_STARTED
        return RefusalCode.WRONG_PASSWORD_OR_SEATS_TAKEN


def _turn_away(session: Session, refused: Refused) -> None:
    """Send ``refused`` as fatal and close the connection."""
    session.deliver(refused.model_copy(update={"fatal": True}))
    session.close()
