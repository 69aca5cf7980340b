"""argparse in our words: its own messages through the catalog, our help's layout,
and how an error line quotes a bad value."""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from allfives_tui.locale import N_, _, ngettext, supported
from engine.errors import shown

QUOTED_CHARS = 80
"""The most of a bad value an error line quotes."""


def quoted(value: object) -> str:
    """A bad value as an error line quotes it: its repr, at most :data:`QUOTED_CHARS` long."""
    return shown(value, QUOTED_CHARS)


def cut(text: str) -> str:
    """``text`` on one line, at most :data:`QUOTED_CHARS` characters (then "…")."""
    text = " ".join(text.split())
    return text if len(text) <= QUOTED_CHARS else text[:QUOTED_CHARS] + "…"


ARGPARSE_WORDS = (
    N_("usage: "),
    N_("options"),
    N_("positional arguments"),
    N_("show this help message and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("the following arguments are required: %s"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("one of the arguments %s is required"),
    N_("unrecognized arguments: %s"),
)
"""argparse's own messages that an ``allfives`` command line can show: in the template, so
they are translated (:func:`speak_argparse` has argparse look them up in our catalog)."""


def _argparse_ngettext(singular: str, plural: str, n: int) -> str:
    return ngettext(singular, plural, n)


def speak_argparse() -> None:
    """Have argparse word its own messages in the current language (through our catalog)."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = _argparse_ngettext  # type: ignore[attr-defined]


class Formatter(argparse.RawDescriptionHelpFormatter):
    """The help's layout as written, its "usage: " in the current language."""

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


def worded(parser: argparse.ArgumentParser) -> None:
    """A parser's own words in the current language: its groups' titles and ``--help``."""
    parser._positionals.title = _("positional arguments")
    parser._optionals.title = _("options")
    parser.add_argument("-h", "--help", action="help", help=_("show this help message and exit"))
    codes = ", ".join(supported())
    parser.add_argument(
        "--lang", metavar="CODE", help=_("the language of the words ({codes})").format(codes=codes)
    )
