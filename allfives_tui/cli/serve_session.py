"""One browser session of ``allfives serve``: the app, served, in a folder of its own.

textual-serve runs ``python -m allfives_tui.cli.serve_session ROOT --lang CODE``
for each browser that connects, ``CODE`` the visitor's language (the app
speaks it; without ``--lang``, the environment's). This makes a new private
folder under ``ROOT`` (``session-XXXXXXXX``, mode 0700), points the data folder at it
(``ALLFIVES_DATA_DIR``) and works from it, then runs the app as
:class:`~allfives_tui.ui.served.ServedApp` (``served=True``). Sessions
therefore never share the autosave's lock, an autosave or settings, and a
session only ever sees its own files. A session that leaves no game behind
removes its folder when it ends.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from allfives_tui.locale import UnknownLanguage, _, choose, use_language
from allfives_tui.store.folder import CURRENT, ENV_DATA_DIR

USAGE = "usage: python -m allfives_tui.cli.serve_session ROOT [--lang CODE]"


def new_session_folder(root: Path) -> Path:
    """A new, private folder for one session under ``root`` (made if need be)."""
    root.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix="session-", dir=root))


def kept_games(folder: Path) -> list[Path]:
    """The game files a session left in ``folder`` (its autosave, copies, uploads)."""
    found = [folder / CURRENT] if (folder / CURRENT).is_file() else []
    for sub in ("saved", "uploaded"):
        found.extend(sorted((folder / sub).glob("*.json")) if (folder / sub).is_dir() else [])
    return found


def main(argv: Sequence[str] | None = None) -> int:
    """Run one served session; its exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    asked = None
    if len(args) == 3 and args[1] == "--lang":
        args, asked = args[:1], args[2]
    if len(args) != 1:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        use_language(choose(asked, None, os.environ))
    except UnknownLanguage:
        use_language("en")
    try:
        folder = new_session_folder(Path(args[0]))
    except OSError as err:  # shown in the server's log; the page says the session ended
        words = _("cannot make a session folder in {folder}: {reason}")
        line = words.format(folder=args[0], reason=err.strerror or err)
        print(f"allfives serve: {line}", file=sys.stderr)
        return 1
    os.environ[ENV_DATA_DIR] = str(folder)
    os.chdir(folder)  # nothing relative can point outside the session's folder

    from allfives_tui.ui.served import ServedApp

    app = ServedApp()
    try:
        app.run()
    finally:
        if not kept_games(folder):
            shutil.rmtree(folder, ignore_errors=True)
    if app.crash_report is not None:
        print(app.crash_report, file=sys.stderr)
        return 1
    return app.return_code or 0


if __name__ == "__main__":
    raise SystemExit(main())
