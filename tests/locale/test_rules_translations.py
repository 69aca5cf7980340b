"""docs/rules.md in Italian, French, Spanish and Dutch keeps the English figures.

Each file is cut into blocks (a paragraph, a list item with its continuation
lines, a table row, a heading); block by block, a translation must hold the
same numbers in the same order, the same code spans (tiles, moves, rule and
test names), the same link targets and as many bold and italic spans as the
English. A wrong, missing or extra number in a translated rule fails here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
NAMES = {
    "en": "English",
    "it": "Italiano",
    "fr": "Français",
    "es": "Español",
    "nl": "Nederlands",
}
TRANSLATIONS = ["it", "fr", "es", "nl"]

_CODE = re.compile(r"`([^`]*)`")
_LINK = re.compile(r"\]\(([^)]*)\)")
_BOLD = re.compile(r"\*\*[^*]+\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*[^*\s][^*]*\*(?![*\w])")
_NUMBER = re.compile(r"\d+")
_ITEM = re.compile(r"\s*(?:- |\d+\. |\|)")


@dataclass(frozen=True)
class Block:
    """What a block of the rules must keep in every language."""

    kind: str
    numbers: tuple[str, ...]
    code: tuple[str, ...]
    links: tuple[str, ...]
    bold: int
    italic: int


def rules_path(code: str) -> Path:
    """The rules in language ``code`` (English: ``rules.md``)."""
    return DOCS / ("rules.md" if code == "en" else f"rules.{code}.md")


def _kind(first_line: str) -> str:
    stripped = first_line.lstrip()
    if stripped.startswith("#"):
        return "heading " + stripped.split(" ", 1)[0]
    if stripped.startswith("|"):
        return f"table row of {stripped.count('|')} bars"
    if stripped.startswith("- "):
        return "list item"
    if re.match(r"\d+\. ", stripped):
        return "numbered item"
    return "paragraph"


def _block(lines: list[str]) -> Block:
    text = "\n".join(lines)
    code = tuple(_CODE.findall(text))
    links = tuple(_LINK.findall(text))
    prose = _LINK.sub("]", _CODE.sub(" ", text))
    return Block(
        kind=_kind(lines[0]),
        numbers=tuple(_NUMBER.findall(prose)),
        code=code,
        links=links,
        bold=len(_BOLD.findall(prose)),
        italic=len(_ITALIC.findall(_BOLD.sub(" ", prose))),
    )


def _starts_block(line: str) -> bool:
    """A table row, or a list item (a numbered item's text is indented 3)."""
    if line.lstrip().startswith("|"):
        return True
    return bool(_ITEM.match(line)) and not line.startswith("   ")


def blocks(markdown: str) -> list[Block]:
    """The file's blocks after its first line (the languages' line)."""
    groups: list[list[str]] = []
    current: list[str] = []
    for line in markdown.splitlines()[1:]:
        if not line.strip():
            if current:
                groups.append(current)
            current = []
        elif current and _starts_block(line):
            groups.append(current)
            current = [line]
        else:
            current.append(line)
    if current:
        groups.append(current)
    return [_block(group) for group in groups]


def languages_line(code: str) -> str:
    """The line atop each version: this language in bold, the others linked."""
    return " · ".join(
        f"**{name}**" if other == code else f"[{name}]({rules_path(other).name})"
        for other, name in NAMES.items()
    )


@pytest.mark.parametrize("code", ["en", *TRANSLATIONS])
def test_each_version_opens_with_the_languages_line(code: str) -> None:
    first = rules_path(code).read_text(encoding="utf-8").splitlines()[0]
    assert first == languages_line(code)


@pytest.mark.parametrize("code", TRANSLATIONS)
def test_a_translation_keeps_every_figure_block_by_block(code: str) -> None:
    english = blocks(rules_path("en").read_text(encoding="utf-8"))
    translated = blocks(rules_path(code).read_text(encoding="utf-8"))
    assert [b.kind for b in translated] == [b.kind for b in english]
    for number, (source, version) in enumerate(zip(english, translated, strict=True), 1):
        assert version == source, f"block {number} ({source.kind}) differs"


def test_blocks_see_a_changed_figure() -> None:
    """The comparison above notices one number changed in a worked example."""
    english = rules_path("en").read_text(encoding="utf-8")
    changed = english.replace("The scores end 10 to 20.", "The scores end 10 to 25.")
    assert changed != english
    assert blocks(changed) != blocks(english)
    assert [b.kind for b in blocks(changed)] == [b.kind for b in blocks(english)]
