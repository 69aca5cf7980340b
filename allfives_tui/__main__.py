"""``python -m allfives_tui``: the ``allfives`` command."""

from allfives_tui.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
