"""allfives: All Fives dominoes played full-screen in the terminal (Textual).

``allfives_tui.__version__`` is the installed package's version, looked up
only when asked for.
"""

from __future__ import annotations

DISTRIBUTION = "allfives"
UNKNOWN = "0+unknown"


def _version() -> str:
    """The installed version; else the source tree's ``pyproject.toml``; else "0+unknown"."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:
        pass
    import tomllib
    from pathlib import Path

    try:
        with (Path(__file__).resolve().parent.parent / "pyproject.toml").open("rb") as fh:
            project = tomllib.load(fh).get("project", {})
    except (OSError, tomllib.TOMLDecodeError):
        return UNKNOWN
    found = project.get("version") if project.get("name") == DISTRIBUTION else None
    return found if isinstance(found, str) else UNKNOWN


def __getattr__(name: str) -> str:
    if name == "__version__":
        return _version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
