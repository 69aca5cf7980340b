"""The languages the per-language tests run in: each catalog present, and the pseudo-locale.

A test parametrized ``indirect`` over :data:`LANGUAGES` gets, through the ``language``
fixture (``tests/locale/conftest.py``), a code it can speak: a real catalog's, or the
pseudo-locale's (built from the template for the test). When a catalog lands under
``allfives_tui/locale/<lang>/``, every such test runs for it too.
"""

from __future__ import annotations

import os
from pathlib import Path

from babel.messages.mofile import read_mo

from allfives_tui.locale import DOMAIN, EXTRA_ENV, LOCALE_DIR, SOURCE, supported
from tests.locale.pseudo import CODE

PSEUDO = CODE
"""The pseudo-locale's code."""
CATALOGS = tuple(code for code in supported() if code != SOURCE)
"""The codes of the catalogs present (English, the source, has none)."""
LANGUAGES = (*CATALOGS, PSEUDO)
"""Every catalog present, then the pseudo-locale (a third longer than English, marked)."""


def catalog_file(code: str) -> Path | None:
    """The compiled catalog the program speaks ``code`` from (the folders of
    :data:`~allfives_tui.locale.EXTRA_ENV` first), if there is one."""
    extra = [Path(p) for p in os.environ.get(EXTRA_ENV, "").split(os.pathsep) if p]
    for folder in (*extra, LOCALE_DIR):
        path = folder / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
        if path.is_file():
            return path
    return None


def kept_as_english(code: str) -> tuple[str, ...]:
    """The translations in the catalog of ``code`` that are their English source word for
    word (a borrowed word, such as Dutch *seed*): its choices, not words it lacks."""
    path = catalog_file(code)
    if path is None:
        return ()
    with path.open("rb") as mo:
        catalog = read_mo(mo)
    kept: set[str] = set()
    for message in catalog:
        sources = (message.id,) if isinstance(message.id, str) else tuple(message.id)
        forms = (message.string,) if isinstance(message.string, str) else message.string or ()
        kept.update(form for form in forms if form and form in sources)
    return tuple(sorted(kept))
