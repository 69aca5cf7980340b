"""Numbers, percentages and dates in the current language, and a language's own name,
formatted by Babel.

Each function formats for :func:`allfives_tui.locale.current`; a code Babel does not
know (a test's pseudo-locale) is formatted as English. Babel is imported on first use,
so a command that formats nothing does not load it.
"""

from __future__ import annotations

import datetime as _dt
from functools import lru_cache
from typing import TYPE_CHECKING, Literal

from allfives_tui.locale import SOURCE, current

if TYPE_CHECKING:
    from babel import Locale

DateLength = Literal["short", "medium", "long", "full"]


@lru_cache(maxsize=16)
def _locale(code: str) -> Locale:
    from babel import Locale, UnknownLocaleError

    try:
        return Locale.parse(code)
    except (UnknownLocaleError, ValueError):
        return Locale.parse(SOURCE)


@lru_cache(maxsize=32)
def language_name(code: str, *, capital: bool = False) -> str:
    """The language ``code`` names, in that language, as Babel writes it ("English",
    "italiano", "français"; with ``capital``, its first letter a capital: "Italiano");
    the code itself for a language Babel does not know (a test's pseudo-locale). English
    is named without loading Babel."""
    if code == SOURCE:
        return "English"
    from babel import Locale, UnknownLocaleError

    try:
        name = Locale.parse(code).get_display_name(code) or code
    except (UnknownLocaleError, ValueError):
        return code
    return name[:1].upper() + name[1:] if capital else name


def locale() -> Locale:
    """Babel's :class:`~babel.Locale` for the language spoken now."""
    return _locale(current())


def number(value: float, digits: int = 0) -> str:
    """``value`` with the language's digit grouping and decimal sign, ``digits`` decimals
    at most (trailing zeros dropped)."""
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "#" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=locale())


def fixed(value: float, digits: int = 1) -> str:
    """``value`` with exactly ``digits`` decimals, in the language's decimal sign."""
    from babel.numbers import format_decimal

    pattern = "#,##0" + ("." + "0" * digits if digits else "")
    return format_decimal(value, format=pattern, locale=locale())


def percent(share: float, digits: int = 0) -> str:
    """``share`` (``0.5`` for half) as a percentage, ``digits`` decimals, the language's
    way (``50 %`` in French, ``50%`` in English)."""
    from babel.numbers import format_percent

    pattern = None
    if digits:
        base = locale().percent_formats[None].pattern
        pattern = base.replace("0", "0." + "0" * digits, 1) if "." not in base else base
    return format_percent(share, format=pattern, locale=locale())


def date(value: _dt.date, length: DateLength = "medium") -> str:
    """``value`` as the language writes a date (``5 Dec 2026``, ``5 dic 2026``)."""
    from babel.dates import format_date

    return format_date(value, format=length, locale=locale())


def date_time(value: _dt.datetime, length: DateLength = "short") -> str:
    """``value`` as the language writes a date and time."""
    from babel.dates import format_datetime

    return format_datetime(value, format=length, locale=locale())


def time(value: _dt.time | _dt.datetime, length: DateLength = "short") -> str:
    """``value``'s time of day the language's way (``14:05``, ``2:05 PM``)."""
    from babel.dates import format_time

    return format_time(value, format=length, locale=locale())


def listing(items: list[str], style: Literal["standard", "or"] = "standard") -> str:
    """``items`` joined the language's way: ``a, b and c`` (``or``: ``a, b or c``)."""
    from babel.lists import format_list

    return format_list(items, style=style, locale=locale())


def signed(value: float, digits: int = 1) -> str:
    """``value`` with exactly ``digits`` decimals and its sign, ``+`` too, the language's
    way (``+17.2``, ``-3.0``; ``+17,2`` in Italian), rounded as Python rounds
    ``f"{value:+.{digits}f}"``."""
    from babel.numbers import get_minus_sign_symbol, get_plus_sign_symbol

    rounded = round(value, digits)
    negative = rounded < 0 or (rounded == 0 and str(rounded).startswith("-"))
    sign = get_minus_sign_symbol(locale()) if negative else get_plus_sign_symbol(locale())
    return sign + fixed(abs(rounded), digits)


_FIELDS = frozenset("GyYuUQqMLlwWdDFgEecabBhHKkjJmsSAzZOvVXx")
"""The letters a CLDR date pattern may hold outside quotes (each names a field)."""


def is_pattern(pattern: str) -> bool:
    """True when every letter of ``pattern`` outside quotes names a field of a date."""
    quoted = False
    for ch in pattern:
        if ch == "'":
            quoted = not quoted
        elif not quoted and ch.isalpha() and ch not in _FIELDS:
            return False
    return True


def dated(value: _dt.date, pattern: str, source: str) -> str:
    """``value`` written by the CLDR ``pattern`` (``dd/MM/yyyy``: the language's order and
    separators, a translated message), with the language's names of months and days;
    by the English ``source`` pattern when ``pattern`` is not one (see :func:`is_pattern`)."""
    from babel.dates import format_date, format_datetime

    use = pattern if is_pattern(pattern) else source
    if isinstance(value, _dt.datetime):
        return format_datetime(value, format=use, locale=locale())
    return format_date(value, format=use, locale=locale())
