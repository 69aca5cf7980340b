"""Friends in different languages at one networked table, each in their own process.

A host (``allfives host --no-seat``, speaking the pseudo-locale) and three joiners in
real terminals: Ana in the pseudo-locale (``--lang``), Bob and Cleo in English (Bob by
``LANGUAGE``, Cleo by default). The host sends codes, never words, so each reads every
notice in their own language: who joined, the game's start, the moves, a drop and a
rejoin, a refusal, the end. The language is a process's (one current language in
:mod:`allfives_tui.locale`): each player runs their own ``allfives``, so the test runs a
process for each, as friends do.

The test plays the people's turns by keyboard, each action chosen from the host's own
record of the game (its ``record.json``, saved before every change is sent).
"""

from __future__ import annotations

import re
import signal
from pathlib import Path

from allfives_tui.net.protocol import NoticeCode, RefusalCode
from allfives_tui.net.wording import NOTICES, REFUSALS
from allfives_tui.table.table import Table
from allfives_tui.ui.widgets.hand import display_order
from engine import Draw, Pass, Play
from engine.errors import RecordError
from engine.record import load_game
from tests.locale.pseudo import CLOSE, OPEN, pseudo, unmarked
from tests.serve.browser import free_port
from tests.terminal import Terminal
from tests.waiting import block_until

SEED, TARGET = 7, 10
"""A game of three that the first legal moves end within its first hand."""
WAIT = 40.0
"""Seconds a process may take to show something (two cores, many tests)."""


def word(message: str, *, translated: bool) -> str:
    """The longest word of ``message`` as shown (in the pseudo-locale when
    ``translated``), without its placeholders: one that no line wrap splits."""
    shown = pseudo(message) if translated else message
    text = re.sub(r"\{[^{}]*\}", " ", shown).replace(OPEN, " ").replace(CLOSE, " ")
    return max((w.rstrip("ŵ") for w in text.split()), key=len)


def reads(term: Terminal, message: str, *, translated: bool) -> None:
    """Wait until ``term`` shows ``message`` in its language: whole if it is short and
    whole (no placeholder), else its longest word."""
    shown = pseudo(message) if translated else message
    if "{" in message or len(shown) > 40:
        shown = word(message, translated=translated)
    term.expect(re.escape(shown), WAIT)


class Table3:
    """The three joiners' terminals by seat, and the host's record of the game."""

    def __init__(self, record: Path) -> None:
        self.record = record
        self.seats: dict[str, Terminal] = {}

    def table(self) -> Table:
        return Table.from_record(load_game(self.record))

    def actions(self) -> int:
        try:
            return len(load_game(self.record).state.actions)
        except RecordError:  # not written yet
            return 0

    def move(self) -> bool:
        """The person to act takes their first legal action by keyboard (again, if the
        keys came before their screen took them); False once the game is over."""
        table = self.table()
        if table.is_over:
            return False
        seat = table.to_act
        assert seat is not None, "the game waits for a summary: the seed should end it"
        name = table.seats[seat].name
        assert name is not None, "every seat here is named"
        term = self.seats[name]
        legal = table.view(seat).legal_actions()
        if isinstance(legal[0], Draw):
            keys = "d"
        elif isinstance(legal[0], Pass):
            keys = "p"
        else:
            play = next(a for a in legal if isinstance(a, Play))
            ends = [a for a in legal if isinstance(a, Play) and a.tile == play.tile]
            index = display_order(table.view(seat).hand).index(play.tile) + 1
            keys = f"{index}\r" + ("\r" if len(ends) > 1 else "")
        before = len(table.state.actions)
        for _try in range(10):
            term.send(keys)
            try:
                block_until(lambda: self.actions() > before, 3, "the move")
                return True
            except AssertionError:
                continue
        raise AssertionError(f"seat {seat} never moved; its screen:\n{term.text[-2000:]}")


def joiner(name: str, port: int, folder: Path, *lang: str, env: dict[str, str]) -> Terminal:
    return Terminal.allfives(
        *lang, "join", f"127.0.0.1:{port}", "--name", name, data_dir=folder, env=env
    )


def test_each_player_reads_the_table_in_their_own_language(
    pseudo_locale: str, tmp_path: Path
) -> None:
    port = free_port()
    pseudo_run = ("--lang", pseudo_locale)
    english = {"LANGUAGE": "en", "LANG": "C.UTF-8"}
    none = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": ""}
    host_dir, ana_dir, bob_dir, cleo_dir = (tmp_path / n for n in ("host", "a", "b", "c"))
    record = host_dir / f"host-{port}" / "record.json"
    game = Table3(record)
    terms: list[Terminal] = []

    def run(term: Terminal) -> Terminal:
        terms.append(term)
        return term

    try:
        host = run(Terminal.allfives(
            *pseudo_run, "host", "--no-seat", "--players", "3", "--target", str(TARGET),
            "--seed", str(SEED), "--port", str(port), data_dir=host_dir, env=none,
        ))
        reads(host, "Friends join with: {command}", translated=True)
        # the joins: each reads the waiting room, and who is in it, in their own words
        ana = run(joiner("Ana", port, ana_dir, *pseudo_run, env=english))
        ana.expect(re.escape(pseudo("Waiting room")), WAIT)
        bob = run(joiner("Bob", port, bob_dir, env=english))
        bob.expect("Waiting room", WAIT)
        bob.expect(r"Ana\s+here", WAIT)
        ana.expect("Bob", WAIT)
        reads(ana, "here", translated=True)
        cleo = run(joiner("Cleo", port, cleo_dir, env=none))
        game.seats = {"Ana": ana, "Bob": bob, "Cleo": cleo}
        # the game's start
        for term, translated in ((ana, True), (bob, False), (cleo, False)):
            reads(term, "Hand {hand} dealt; {name} leads.", translated=translated)
        reads(host, "The game starts: {seats}; to {target} points.", translated=True)
        # a move each: each reads the others' in their own words
        assert game.move() and game.move() and game.move()
        for term, translated in ((ana, True), (bob, False), (cleo, False)):
            reads(term, "{name} plays {tile} on the {end} end — ends total {total}.",
                  translated=translated)

        # a drop and a rejoin: Bob's process is killed, then run again (his token)
        bob.process.send_signal(signal.SIGKILL)
        reconnecting, back = NOTICES[NoticeCode.RECONNECTING], NOTICES[NoticeCode.BACK]
        ana.expect(re.escape(pseudo(reconnecting).format(name="Bob")), WAIT)
        cleo.expect(re.escape(reconnecting.format(name="Bob")), WAIT)
        reads(host, "{name} lost the connection: their seat is kept for them.", translated=True)
        bob = game.seats["Bob"] = run(joiner("Bob", port, bob_dir, env=english))
        bob.expect("Back at the table.", WAIT)
        ana.expect(re.escape(pseudo(back).format(name="Bob")), WAIT)
        cleo.expect(re.escape(back.format(name="Bob")), WAIT)
        reads(host, "{name} rejoined ({place}).", translated=True)

        # a refusal: a newer connection takes each one's seat; the older one is told why
        refused = REFUSALS[RefusalCode.NEWER_CONNECTION]
        for name, folder, args, env, translated in (
            ("Ana", ana_dir, pseudo_run, english, True),
            ("Bob", bob_dir, (), english, False),
        ):
            older = game.seats[name]
            newer = game.seats[name] = run(joiner(name, port, folder, *args, env=env))
            assert older.wait(WAIT) == 1
            said = " ".join(older.printed)
            assert (pseudo(refused) if translated else refused) in said, said
            reads(newer, "Back at the table.", translated=translated)
        ana, bob = game.seats["Ana"], game.seats["Bob"]
        cleo.expect(re.escape(back.format(name="Ana")), WAIT)

        # the game to its end, each reading every move in their own words
        while game.move():
            pass
        for term, translated in ((ana, True), (bob, False), (cleo, False)):
            reads(term, "The host has closed the table.", translated=translated)
        reads(host, "The game is over; its record is {path}.", translated=True)
        assert host.wait(WAIT) == 0
        # the host's own commentary, every line of it, in the host's language (the join
        # command's tokens, the record's path and Babel's "and", which has no pseudo-locale,
        # excepted)
        tokens = {"allfives", "join", "name", "NAME", "ws", "json", "and", "Ana", "Bob", "Cleo"}
        tokens.update(re.findall(r"[A-Za-z]+", str(record)))
        assert unmarked(host.text, tokens) == [], host.text
    finally:
        for term in terms:
            term.close()
    # nothing any joiner read in English came in the pseudo-locale, nor the reverse
    for term in terms[1:]:
        if "--lang" in term.argv:
            for english_words in ("is reconnecting", "is back.", "Back at", "closed the table"):
                assert english_words not in term.text, english_words
        else:
            assert OPEN not in term.text, term.text[-2000:]
