"""The words of the current language: gettext's ``_``, ``ngettext``, ``pgettext``, and the choice.

One gettext domain, :data:`DOMAIN`, its catalogs in this folder
(``<lang>/LC_MESSAGES/allfives.mo``, compiled from the ``.po`` beside it; the
template is ``allfives.pot``). English is the source language: it has no
catalog and costs nothing, the messages are their own translation. Code marks
a message with :func:`_` where it is shown, and with the no-op :func:`N_`
where it is defined at module level (a table of descriptions), translating it
with :func:`_` where it is shown.

:func:`use_language` switches the language of every later message;
:func:`choose` says which language a run speaks (``--lang``, the remembered
setting, then the environment). Folders named by :data:`EXTRA_ENV` (a
translator's catalogs, tried before they are installed) are searched before
this one. No Textual, no Babel: only the standard library's :mod:`gettext`.
"""

from __future__ import annotations

import gettext as _gettext
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

DOMAIN = "allfives"
"""The one gettext domain: ``allfives.po`` / ``allfives.mo``."""
SOURCE = "en"
"""The source language (the messages as written in the code)."""
LOCALE_DIR = Path(__file__).resolve().parent
"""The package's catalogs: ``<lang>/LC_MESSAGES/allfives.mo``."""
EXTRA_ENV = "ALLFIVES_LOCALES"
"""Environment variable: folders (``os.pathsep`` between) of more catalogs, searched first."""
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""The environment variables that name a language, first one set wins."""
NEUTRAL = frozenset({"c", "posix"})
"""Locale names that name no language (English)."""

_translations: _gettext.NullTranslations = _gettext.NullTranslations()
_current = SOURCE


class UnknownLanguage(ValueError):
    """A language code that names none of the :func:`supported` languages."""

    def __init__(self, code: str, offered: Sequence[str]) -> None:
        super().__init__(code)
        self.code = code
        self.offered = tuple(offered)


def _(message: str) -> str:
    """``message`` in the current language."""
    return _translations.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` that agrees with ``n``, in the current language."""
    return _translations.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from its twins by ``context``."""
    return _translations.pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` with a ``context``."""
    return _translations.npgettext(context, singular, plural, n)


def N_(message: str) -> str:
    """``message`` itself: marks a module-level string for the template, translated where shown."""
    return message


CONTEXT_MARK = "\x04"
"""Between a context and its message in a string marked with :func:`NP_` (gettext's own
separator: no message holds it)."""


def NP_(context: str, message: str) -> str:
    """Marks a module-level ``message`` in ``context`` for the template (a key's label whose
    English word has other senses); :func:`marked` translates it where it is shown."""
    return f"{context}{CONTEXT_MARK}{message}"


def marked(text: str) -> str:
    """A string marked with :func:`N_` or :func:`NP_`, in the current language."""
    context, mark, message = text.partition(CONTEXT_MARK)
    if mark:
        return pgettext(context, message)
    return _(text)


def current() -> str:
    """The code of the language spoken now (:data:`SOURCE` for English)."""
    return _current


def _folders() -> list[Path]:
    extra = os.environ.get(EXTRA_ENV, "")
    return [*(Path(p) for p in extra.split(os.pathsep) if p), LOCALE_DIR]


def _catalog(code: str) -> Path | None:
    for folder in _folders():
        path = folder / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
        if path.is_file():
            return path
    return None


def supported() -> tuple[str, ...]:
    """The languages there are words for: English first, then each catalog's code, sorted."""
    found: set[str] = set()
    for folder in _folders():
        if folder.is_dir():
            found.update(
                p.parent.parent.name for p in folder.glob(f"*/LC_MESSAGES/{DOMAIN}.mo")
            )
    found.discard(SOURCE)
    return (SOURCE, *sorted(found))


def normalize(code: str) -> str:
    """``code`` as a catalog folder is named: ``it-IT.UTF-8@euro`` -> ``it_IT``, ``IT`` -> ``it``.
    """
    code = code.strip().split(".")[0].split("@")[0].replace("-", "_")
    language, _sep, region = code.partition("_")
    return f"{language.lower()}_{region.upper()}" if region else language.lower()


def match(code: str, offered: Iterable[str]) -> str | None:
    """The offered language ``code`` names: itself, else its language (``it_CH`` -> ``it``),
    else the first offered of that language (``pt`` -> ``pt_BR``); ``None`` for none
    (``C`` and ``POSIX`` name English)."""
    offered = tuple(offered)
    name = normalize(code)
    if name.lower() in NEUTRAL:
        return SOURCE
    if not name:
        return None
    if name in offered:
        return name
    language = name.partition("_")[0]
    if language in offered:
        return language
    return next((o for o in offered if o.partition("_")[0] == language), None)


def from_environment(environ: Mapping[str, str], offered: Iterable[str]) -> str:
    """The language the environment asks for: the first of :data:`ENVIRONMENT` set decides
    (``LANGUAGE`` is a colon-separated list: its first offered language); English if it
    names none offered."""
    offered = tuple(offered)
    for variable in ENVIRONMENT:
        value = environ.get(variable, "")
        if value:
            for code in value.split(":"):
                found = match(code, offered) if code else None
                if found is not None:
                    return found
            return SOURCE
    return SOURCE


def choose(
    asked: str | None,
    remembered: str | None,
    environ: Mapping[str, str],
    offered: Iterable[str] | None = None,
) -> str:
    """The language a run speaks: ``asked`` (``--lang``; :class:`UnknownLanguage` if it
    names none offered), else ``remembered`` (the setting, if it still names one), else the
    environment's (:func:`from_environment`)."""
    offered = supported() if offered is None else tuple(offered)
    if asked is not None:
        found = match(asked, offered)
        if found is None:
            raise UnknownLanguage(asked, offered)
        return found
    if remembered:
        found = match(remembered, offered)
        if found is not None:
            return found
    return from_environment(environ, offered)


def translations(code: str) -> tuple[str, _gettext.NullTranslations]:
    """The words of ``code`` (a supported language, see :func:`match`) without speaking
    it: the code found and its translations (``gettext``, ``ngettext``, ``pgettext``…),
    for words said to someone else than this run's user (a browser's visitor).
    :class:`UnknownLanguage` if there is no catalog for it."""
    offered = supported() if code != SOURCE else (SOURCE,)
    found = match(code, offered)
    if found is None:
        raise UnknownLanguage(code, offered)
    if found == SOURCE:
        return SOURCE, _gettext.NullTranslations()
    path = _catalog(found)
    assert path is not None  # found among supported(): its catalog is there
    with path.open("rb") as mo:
        return found, _gettext.GNUTranslations(mo)


def use_language(code: str) -> str:
    """Speak ``code`` (a supported language, see :func:`match`) from now on; returns the
    code spoken. :class:`UnknownLanguage` if there is no catalog for it."""
    global _translations, _current
    _current, _translations = translations(code)
    return _current
