"""A pseudo-locale built from the template: every message wrapped in markers, accented and
lengthened by a third, so that a word shown untranslated stands out (:func:`unmarked`)."""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from allfives_tui.locale import DOMAIN, LOCALE_DIR

CODE = "en_XA"
"""The pseudo-locale's code (the usual one for an accented pseudo-English)."""
OPEN, CLOSE = "⟦", "⟧"
"""The markers around every translated message."""
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"

_ACCENTED = dict(zip(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "áƀçđéƒĝĥíĵķĺɱñóþǫŕšŧúṽŵẋýžÁƁÇĐÉƑĜĤÍĴĶĹṀÑÓÞǪŔŠŦÚṼŴẊÝŽ",
    strict=True,
))
_PLACEHOLDER = re.compile(r"(\{[^{}]*\}|%\([^)]*\)[sdrfg]|%[sdrfg%])")
_ASCII = re.compile(r"[A-Za-z]+")


def pseudo(message: str, tag: str = "") -> str:
    """``message`` accented (its placeholders kept), a third longer, inside the markers;
    ``tag`` (no ASCII letters, so it reads as part of the message) just inside the opening
    one, to tell one test catalog's messages from another's."""
    parts = _PLACEHOLDER.split(message)
    shown = "".join(
        part if i % 2 else "".join(_ACCENTED.get(ch, ch) for ch in part)
        for i, part in enumerate(parts)
    )
    letters = sum(len(p) for i, p in enumerate(parts) if not i % 2)
    padding = "ŵ" * max(1, letters // 3)
    end = len(shown) - len(shown.rstrip("\n "))  # trailing blanks and newlines stay outside
    body, tail = (shown[: len(shown) - end], shown[len(shown) - end :]) if end else (shown, "")
    return f"{OPEN}{tag}{body}{padding}{CLOSE}{tail}"


def build(folder: Path, template: Path = TEMPLATE, *, code: str = CODE, tag: str = "") -> Path:
    """The pseudo-locale's catalog compiled under ``folder`` (``en_XA/LC_MESSAGES``); returns
    ``folder``, for :data:`allfives_tui.locale.EXTRA_ENV`.

    ``code`` and ``tag``: a test catalog of that language code, each message marked with
    ``tag`` too (:func:`pseudo`), so that two such catalogs tell their words apart."""
    with template.open("rb") as pot:
        source = read_po(pot)
    catalog = Catalog(locale="en", domain=DOMAIN)
    for message in source:
        if not message.id:
            continue
        if isinstance(message.id, str):
            text: str | tuple[str, ...] = pseudo(message.id, tag)
        else:  # a singular and its plural
            text = (pseudo(message.id[0], tag), pseudo(message.id[1], tag))
        catalog.add(message.id, text, context=message.context)
    return compiled(catalog, folder, code)


def compiled(catalog: Catalog, folder: Path, code: str) -> Path:
    """``catalog`` compiled under ``folder`` as language ``code``'s
    (``CODE/LC_MESSAGES/allfives.mo``); returns ``folder``, for
    :data:`allfives_tui.locale.EXTRA_ENV`."""
    target = folder / code / "LC_MESSAGES"
    target.mkdir(parents=True, exist_ok=True)
    with (target / f"{DOMAIN}.mo").open("wb") as mo:
        write_mo(mo, catalog)
    return folder


def unmarked(text: str, allowed: Collection[str] = ()) -> list[str]:
    """The words of ``text`` that no catalog gave, less the ``allowed`` ones.

    The pseudo-locale accents every letter of a message, so a run of plain ASCII letters,
    outside the markers or inside (a value filled into a placeholder), came from no
    catalog. A closing marker without its opening one, or one left open (a message cut
    off), counts too.
    """
    depth = 0
    for ch in text:
        depth += (ch == OPEN) - (ch == CLOSE)
        if depth < 0:
            return ["(a closing marker without its opening one)"]
    if depth:
        return ["(a marker left open: a message cut off)"]
    return [w for w in _ASCII.findall(text) if w not in allowed]
