"""``allfives history``: the past games in the terminal, and ``history import``.

``allfives history [--search WORDS] [-n N] [--json]`` lists the games, newest
first. ``allfives history import FILE_OR_FOLDER ...`` adds saved records
(ctrl+s copies, old ``current.json`` files; a folder's ``*.json`` files),
skipping duplicates (the same game id, or an earlier save of a stored game;
a later save of a stored game replaces it);
a file that is no sound record (or that the history cannot take: a seed or a
target out of range) gets one line, ``allfives: FILE: problem``, and the command
exits 2 after importing the rest; an empty path is refused before anything is
imported. No Textual is loaded.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from allfives_tui.locale import N_, _, formats, ngettext, pgettext
from allfives_tui.store import wording
from allfives_tui.store.history import History, HistoryError, history_path, quoted
from allfives_tui.store.settings_file import load_settings
from allfives_tui.store.summary import GameSummary
from allfives_tui.table.places import owner_key
from allfives_tui.table.problems import problem_text
from allfives_tui.table.words import one_line, printable
from engine.errors import RecordError
from engine.record import load_game

PROG = "allfives"
COLUMNS = (N_("Game"), N_("Started"), N_("Players"), N_("Opponents"), N_("Result"), N_("Hands"))
"""The list's columns (marked for the catalog)."""
PATH_CHARS = 200
"""How much of a file's name an error line shows (a name is what the line is about,
so it is cut only when absurdly long)."""


def _fail(message: str) -> int:
    print(f"{PROG}: {one_line(message)}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    """List the games, or import records."""
    if getattr(args, "action", None) == "import":
        return import_paths(args.paths)
    return list_games(args)


def _row(game: GameSummary, name: str) -> dict[str, object]:
    return {
        "id": game.game_id,
        "started": game.started.isoformat(),
        "players": game.players,
        "partnerships": game.partnerships,
        "seats": [
            {"name": s.name, "kind": s.kind, "level": s.level} for s in game.seats
        ],
        "finished": game.finished,
        "winner": game.winner,
        "scores": list(game.scores),
        "hands": game.hands,
        "result": game.result(name),
    }


def list_games(args: argparse.Namespace) -> int:
    """Print the past games, newest first (those matching ``--search``)."""
    path = history_path()
    if not path.exists():
        if args.json:
            print("[]")
        else:
            print(_("No games in the history yet: every game played from now on is kept."))
        return 0
    name = owner_key(load_settings().name)
    try:
        with History(path) as history:
            if history.notice:
                print(f"{PROG}: {history.notice}", file=sys.stderr)
            games = history.games(limit=None if args.search else args.limit)
    except HistoryError as err:
        return _fail(str(err))
    if args.search:
        games = [g for g in games if wording.matches(g, args.search, name)]
    if args.limit:
        games = games[: args.limit]
    if args.json:
        print(json.dumps([_row(g, name) for g in games], indent=1))
        return 0
    if not games:
        print(_("No game matches.") if args.search else _("No games in the history yet."))
        return 0
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    table = Table(box=None, pad_edge=False, header_style="bold")
    for column in COLUMNS:  # in a narrow terminal, a long word goes on the next line
        table.add_column(
            escape(_(column)), justify="right" if column == "Hands" else "left", overflow="fold"
        )
    for g in games:
        players = formats.number(g.players)
        if g.partnerships:
            players = pgettext(
                "allfives history: the players, in two partnerships", "{players} partners"
            ).format(players=players)
        table.add_row(
            g.game_id[:8], wording.started(g), escape(players),
            escape(printable(wording.others(g, name))), escape(wording.result(g, name)),
            formats.number(g.hands),
        )
    console = Console(highlight=False)
    console.print(table)
    console.print(
        escape(_("Replay one with: {command} (the first characters do)").format(
            command=f"{PROG} replay --game ID"
        ))
    )
    return 0


def _files(paths: list[str]) -> tuple[list[Path], list[str]]:
    """The record files named (a folder's ``*.json``), and one line per path that is
    neither a file nor a folder."""
    files: list[Path] = []
    bad: list[str] = []
    for text in paths:
        path = Path(text).expanduser()
        if path.is_dir():
            try:
                files.extend(sorted(p for p in path.glob("*.json") if not p.is_dir()))
            except OSError as err:
                bad.append(f"{PROG}: " + _("{folder}: cannot read the folder: {why}").format(
                    folder=quoted(text, PATH_CHARS), why=err.strerror or err
                ))
        else:
            files.append(path)
    return files, bad


def _why(err: Exception) -> str:
    """An unexpected failure in one line."""
    if isinstance(err, HistoryError):
        return one_line(str(err))
    return _("cannot be added to the history: {error}: {message}").format(
        error=type(err).__name__, message=quoted(one_line(str(err)))
    )


def import_paths(paths: list[str]) -> int:
    """Import records; 0 when every file was a record, else 2."""
    if any(not text for text in paths):
        return _fail(_("history import: an empty path names no file nor folder"))
    files, problems = _files(paths)
    for line in problems:
        print(line, file=sys.stderr)
    bad = len(problems)
    added = same = extended = 0
    try:
        with History() as history:
            if history.notice:
                print(f"{PROG}: {history.notice}", file=sys.stderr)
            for file in files:
                name = quoted(str(file), PATH_CHARS)
                try:
                    game = load_game(file)
                except RecordError as err:
                    print(f"{PROG}: {name}: {problem_text(err)}", file=sys.stderr)
                    bad += 1
                    continue
                except Exception as err:  # one line a file, never a traceback
                    print(f"{PROG}: " + _("{file}: not a game record: {why}").format(
                        file=name, why=_why(err)), file=sys.stderr)
                    bad += 1
                    continue
                if not game.record.hands:
                    print(f"{PROG}: " + _("{file}: the record holds no hands").format(file=name),
                          file=sys.stderr)
                    bad += 1
                    continue
                try:
                    outcome = history.import_game(game).outcome
                except Exception as err:  # one line a file, never a traceback
                    print(f"{PROG}: {name}: {_why(err)}", file=sys.stderr)
                    bad += 1
                    continue
                if outcome == "added":
                    added += 1
                elif outcome == "extended":
                    extended += 1
                else:
                    same += 1
    except HistoryError as err:
        return _fail(str(err))
    print(import_summary(added, same, extended, bad))
    return 2 if bad else 0


def import_summary(added: int, same: int, extended: int, bad: int) -> str:
    """What an import did, in one sentence: games added and skipped, and those that
    replaced an earlier save or could not be read (when there are some)."""
    counts = {
        "added": ngettext("{count} game", "{count} games", added).format(
            count=formats.number(added)
        ),
        "same": formats.number(same),
        "extended": formats.number(extended),
        "bad": formats.number(bad),
    }
    if extended and bad:
        text = _(
            "Added {added}, skipped {same} already in the history, {extended} replaced an "
            "earlier save of the same game, {bad} could not be read."
        )
    elif extended:
        text = _(
            "Added {added}, skipped {same} already in the history, {extended} replaced an "
            "earlier save of the same game."
        )
    elif bad:
        text = _("Added {added}, skipped {same} already in the history, {bad} could not be read.")
    else:
        text = _("Added {added}, skipped {same} already in the history.")
    return text.format(**counts)
