"""The template holds every marked message; each catalog and its compiled file agree."""

from __future__ import annotations

import gettext
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from allfives_tui.locale import DOMAIN, LOCALE_DIR, ngettext, use_language
from tests.locale.pseudo import TEMPLATE

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = sorted(LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def _messages(path: Path) -> set[tuple[object, str | None]]:
    with path.open("rb") as f:
        return {(m.id, m.context) for m in read_po(f) if m.id}


def test_the_template_is_current(tmp_path: Path) -> None:
    """A message marked in the code but not extracted (or one extracted but gone) fails:
    run ``pybabel extract`` (docs/translating.md)."""
    fresh = tmp_path / "fresh.pot"
    pybabel = Path(sys.executable).with_name("pybabel")
    subprocess.run(
        [str(pybabel), "extract", "-o", str(fresh)], cwd=ROOT, check=True, capture_output=True
    )
    assert _messages(fresh) == _messages(TEMPLATE)


def test_the_template_has_the_command_lines_words() -> None:
    ids = {m for m, _ in _messages(TEMPLATE)}
    assert {"usage: ", "options", "show this help message and exit"} <= ids
    assert ("({count} tile, face down)", "({count} tiles, face down)") in ids


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.parent.parent.name)
def test_each_compiled_catalog_is_its_po_compiled(po: Path) -> None:
    with po.open("rb") as f:
        catalog = read_po(f)
    built = io.BytesIO()
    write_mo(built, catalog)
    assert po.with_suffix(".mo").read_bytes() == built.getvalue()


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.parent.parent.name)
def test_each_catalog_holds_the_templates_messages(po: Path) -> None:
    """``pybabel update`` was run after the template changed."""
    assert _messages(po) == _messages(TEMPLATE)


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.parent.parent.name)
def test_plural_forms_at_zero_one_two(po: Path) -> None:
    """Each plural message gives, at n = 0, 1, 2, the form the language's rule picks (the
    English one where the catalog has none yet)."""
    with po.open("rb") as f:
        catalog = read_po(f)
    translations = gettext.GNUTranslations(io.BytesIO(po.with_suffix(".mo").read_bytes()))
    for message in catalog:
        if not isinstance(message.id, tuple):
            continue
        forms = message.string if isinstance(message.string, tuple) else ()
        for n in (0, 1, 2):
            got = translations.ngettext(message.id[0], message.id[1], n)
            index = gettext.c2py(catalog.plural_expr)(n)  # babel's own C rule, as gettext reads it
            wanted = forms[int(index)] if forms and forms[int(index)] else message.id[n != 1]
            assert got == wanted


def test_english_plurals_at_zero_one_two(pseudo_locale: str) -> None:
    one, many = "({count} tile, face down)", "({count} tiles, face down)"
    assert [ngettext(one, many, n) for n in (0, 1, 2)] == [many, one, many]
    use_language(pseudo_locale)
    forms = [ngettext(one, many, n) for n in (0, 1, 2)]
    assert forms[0] == forms[2] != forms[1]
    assert all(f.startswith("⟦") for f in forms)


_FIELD = re.compile(r"(?<!\{)\{([^{}]*)\}(?!\})")
_MARKUP = re.compile(
    r"\[/?(?:b|i|u|s|bold|italic|dim|reverse|underline|strike|link(?:=[^\]]*)?)?\]"
)
"""Rich's style tags, which a translation keeps as they are (``[b]``, ``[/b]``, ``[/]``)."""


def _fields(text: str) -> set[str]:
    return set(_FIELD.findall(text))


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.parent.parent.name)
def test_each_catalog_is_complete_and_passes_babels_checks(po: Path) -> None:
    """Every message translated (every plural form), none fuzzy, Babel's checks clean."""
    with po.open("rb") as f:
        catalog = read_po(f)
    untranslated = [
        m.id for m in catalog
        if m.id and (not m.string or (isinstance(m.string, tuple) and not all(m.string)))
    ]
    assert untranslated == []
    assert [m.id for m in catalog if m.id and m.fuzzy] == []
    problems = [(m.id, [str(e) for e in errors]) for m, errors in catalog.check()]
    assert problems == []
    for message in catalog:
        if isinstance(message.id, tuple):
            assert isinstance(message.string, tuple), message.id
            assert len(message.string) == catalog.num_plurals, message.id


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.parent.parent.name)
def test_each_translation_keeps_the_sources_placeholders_and_markup(po: Path) -> None:
    """A translation names the same ``{fields}`` as its source (a plural form those of
    either English form) and keeps its markup tags."""
    with po.open("rb") as f:
        catalog = read_po(f)
    wrong = []
    for message in catalog:
        if not message.id or not message.string:
            continue
        sources = (message.id,) if isinstance(message.id, str) else tuple(message.id)
        forms = (message.string,) if isinstance(message.string, str) else tuple(message.string)
        allowed = [_fields(s) for s in sources]
        markup = sorted(_MARKUP.findall(sources[-1]))
        for form in forms:
            if form and _fields(form) not in allowed:
                wrong.append((sources[0], form))
            if form and sorted(_MARKUP.findall(form)) != markup:
                wrong.append((sources[0], form))
    assert wrong == []
