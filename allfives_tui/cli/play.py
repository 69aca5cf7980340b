"""``allfives [play]``: play All Fives full-screen against computer opponents.

Each option's value was checked on its own by :class:`Settings` while parsing;
here the remembered settings and the options are checked together, again by
:class:`Settings` (which asks the engine's rules about the target). A
remembered setting that is no longer valid is dropped with a notice; it never
keeps the player out.

One process at a time autosaves the game in progress (:class:`GameLock`): a
second ``allfives`` on the same data folder says so and offers a separate game
that is not autosaved, or quitting. A crash exits with status 1 and one line
naming where the game is kept and the crash log.
"""

from __future__ import annotations

import argparse
import sys
import traceback

from pydantic import ValidationError

from allfives_tui.cli.arguments import describe
from allfives_tui.cli.parser import FLAGS, PROG, error_lines
from allfives_tui.locale import _, pgettext
from allfives_tui.store.folder import current_path, write_crash_log
from allfives_tui.store.lock import GameLock
from allfives_tui.store.saves import load_current, move_current_aside
from allfives_tui.store.settings_file import load_settings, read_settings
from allfives_tui.table.problems import problem_text
from allfives_tui.table.settings import PERSON, SEAT_PLACES, Settings
from engine.errors import RecordError
from engine.players import LEVELS

_OPTIONS = ("players", "partnerships", "hand_size", "target", "name", "seed", "speed", "auto_draw")
"""Settings fields set by the option of the same name."""


def settings_from(
    args: argparse.Namespace, remembered: Settings | None = None
) -> Settings:
    """The remembered settings (``remembered``, else read now), overridden by the
    command's options.

    Raises :class:`~pydantic.ValidationError` when they do not go together.
    """
    data = (remembered or load_settings()).model_dump()
    for field in _OPTIONS:
        value = getattr(args, field)
        if value is not None and value is not False:  # a switch only ever turns a setting on
            data[field] = value
    if args.players is not None and args.players != 4 and not args.partnerships:
        data["partnerships"] = False  # remembered for four players, not asked for now
    if args.level is not None:
        data["levels"] = [args.level] * 3
    given: set[str] = set()
    for place, who in args.seats or ():
        places = SEAT_PLACES.get(data["players"], ())
        if place not in places:
            at = ", ".join(places)
            players = data["players"]
            raise SeatError(
                _("there is no {place} seat with {players} players ({places})").format(
                    place=place, players=players, places=at
                )
            )
        if place in given:
            raise SeatError(
                _("the {place} seat is given twice: give each seat once").format(place=place)
            )
        given.add(place)
        i = places.index(place)
        if who in LEVELS:
            data["levels"][i] = who
        else:
            data["levels"][i], data["names"][i] = PERSON, who
    return Settings.model_validate(data)


class SeatError(ValueError):
    """A ``--seat`` that names a place the table does not have, or a place given twice."""


def _bad_option(err: ValidationError) -> int:
    loc = err.errors()[0]["loc"]
    field = str(loc[0]) if loc else ""
    problem = describe(err)
    if field in FLAGS:
        problem = _("argument {option}: {problem}").format(option=FLAGS[field], problem=problem)
    print(error_lines(PROG, problem), file=sys.stderr)
    return 2


YES = ("y", "yes")
"""The answers that say yes to a ``[y/N]`` question in every language."""


def yes_answers() -> frozenset[str]:
    """Every answer that says yes to a ``[y/N]`` question: :data:`YES`, and the current
    language's short and full answers (each may list several, ``|`` between)."""
    # TRANSLATORS: the one-letter answer "yes" to a [y/N] question, shown
    # in its brackets; "y" is accepted too. Several: "|" between ("s|j").
    short = pgettext("answer to a [y/N] question", "y")
    # TRANSLATORS: the answer "yes" to a [y/N] question, in full; "yes" is
    # accepted too. Several spellings: "|" between ("sì|si").
    full = pgettext("answer to a [y/N] question", "yes")
    words = {*YES, *short.split("|"), *full.split("|")}
    return frozenset(w.strip().casefold() for w in words if w.strip())


def is_yes(answer: str) -> bool:
    """True when ``answer`` (as typed) says yes to a ``[y/N]`` question."""
    return answer.strip().casefold() in yes_answers()


def yes_no() -> str:
    """The brackets after a question whose default answer is no: ``[y/N]``."""
    short = pgettext("answer to a [y/N] question", "y").split("|")[0].strip() or YES[0]
    # TRANSLATORS: the one-letter answer "no" to a [y/N] question, a
    # capital: the answer Enter alone gives.
    default = pgettext("answer to a [y/N] question", "N")
    return f"[{short}/{default}]"


def _ask_for_a_separate_game(lock: GameLock) -> bool:
    """Another process autosaves the game: True if the player wants a separate game here."""
    pid = lock.other
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        text = (
            _(
                "{prog}: the game in progress is open in another allfives (process {pid}): "
                "quit it there first (or run this one in a terminal to start a separate game)"
            )
            if pid
            else _(
                "{prog}: the game in progress is open in another allfives: quit it there "
                "first (or run this one in a terminal to start a separate game)"
            )
        )
        print(text.format(prog=PROG, pid=pid), file=sys.stderr)
        return False
    said = (
        _("The game in progress is open in another allfives (process {pid}), which autosaves it.")
        if pid
        else _("The game in progress is open in another allfives, which autosaves it.")
    )
    print(said.format(pid=pid))
    try:
        answer = input(
            _(
                "Start a separate game here? It will not be autosaved (ctrl+s saves a copy). "
                "{answers} "
            ).format(answers=yes_no())
        )
    except (EOFError, KeyboardInterrupt):
        print()
        answer = ""
    if is_yes(answer):
        return True
    quit_text = (
        _("{prog}: quit; the game stays open in another allfives (process {pid})")
        if pid
        else _("{prog}: quit; the game stays open in another allfives")
    )
    print(quit_text.format(prog=PROG, pid=pid))
    return False


def _crashed(error: BaseException) -> str:
    """One line for a crash outside the app's own handling (the traceback goes to a log)."""
    text = "".join(traceback.format_exception(error))
    try:
        log = _("the crash log with the traceback is {path}").format(path=write_crash_log(text))
    except OSError as err:
        log = _("no crash log could be written ({reason})").format(reason=err.strerror or err)
    kind = type(error).__name__
    kept = current_path()
    game = (
        _("the game is kept in {path}").format(path=kept)
        if kept.is_file()
        else _("no game was saved")
    )
    return _("{prog} crashed ({kind}: {error}): {game}; {log}").format(
        prog=PROG, kind=kind, error=str(error)[:120], game=game, log=log
    )


def _cannot_continue(problem: str, lock: GameLock) -> str:
    """A saved game that cannot be resumed, set aside as damaged (as a new game's start
    does) when this process holds the autosave; one line saying so."""
    path = current_path()
    said = _("the saved game {path} cannot be continued: {problem}").format(
        path=path, problem=problem
    )
    if not lock.held:
        return said
    try:
        aside = move_current_aside()
    except OSError as err:
        return _("{said}; it could not be set aside ({reason})").format(
            said=said, reason=err.strerror or err
        )
    return _("{said}; it is set aside as {path}").format(said=said, path=aside)


def run(args: argparse.Namespace) -> int:
    """Run the game: 0 when it ends normally; 2 for options that do not go together or a
    saved game that cannot be continued; 1 when there is nothing to continue, the game
    is open elsewhere, or the app crashed."""
    remembered, notices = read_settings()
    for notice in notices:
        print(f"{PROG}: {notice}", file=sys.stderr)
    try:
        settings = settings_from(args, remembered)
    except ValidationError as err:
        return _bad_option(err)
    except SeatError as err:
        problem = _("argument {option}: {problem}").format(option="--seat", problem=err)
        print(error_lines(PROG, problem), file=sys.stderr)
        return 2
    lock = GameLock()
    if not lock.acquire():
        if args.resume:
            text = (
                _(
                    "{prog}: the game in progress is open in another allfives "
                    "(process {pid}): continue it there"
                )
                if lock.other
                else _(
                    "{prog}: the game in progress is open in another allfives: continue it there"
                )
            )
            print(text.format(prog=PROG, pid=lock.other), file=sys.stderr)
            return 1
        if not _ask_for_a_separate_game(lock):
            return 1
    resume = None
    if args.resume:
        try:
            resume = load_current()
        except RecordError as err:
            print(f"{PROG}: {_cannot_continue(problem_text(err), lock)}", file=sys.stderr)
            return 2
        if resume is None:
            print(
                _("{prog}: there is no unfinished game to continue (start one with `{prog}`)")
                .format(prog=PROG),
                file=sys.stderr,
            )
            return 1
    from allfives_tui.ui.app import AllFivesApp

    app = AllFivesApp(
        settings, resume=resume, start=args.start, speed=args.speed, lock=lock, notices=notices
    )
    try:
        app.run()
    except Exception as err:  # a crash before the app could handle it
        print(_crashed(err), file=sys.stderr)
        return 1
    finally:
        lock.release()
    for notice in app.notices[len(notices):]:  # the settings' notices were printed first
        print(f"{PROG}: {notice}", file=sys.stderr)
    if app.crash_report is not None:
        print(app.crash_report, file=sys.stderr)
        return 1
    if app.saved_on_exit is not None:
        print(
            _("Game saved. Continue it with: {prog} --continue   ({path})").format(
                prog=PROG, path=app.saved_on_exit
            )
        )
    return app.return_code or 0
