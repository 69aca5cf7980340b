"""The languages the per-language tests run in: each catalog present, and the pseudo-locale.

A test parametrized ``indirect`` over :data:`LANGUAGES` gets, through the ``language``
fixture (``tests/locale/conftest.py``), a code it can speak: a real catalog's, or the
pseudo-locale's (built from the template for the test). When a catalog lands under
``allfives_tui/locale/<lang>/``, every such test runs for it too.
"""

from __future__ import annotations

from allfives_tui.locale import SOURCE, supported
from tests.locale.pseudo import CODE

PSEUDO = CODE
"""The pseudo-locale's code."""
CATALOGS = tuple(code for code in supported() if code != SOURCE)
"""The codes of the catalogs present (English, the source, has none)."""
LANGUAGES = (*CATALOGS, PSEUDO)
"""Every catalog present, then the pseudo-locale (a third longer than English, marked)."""
