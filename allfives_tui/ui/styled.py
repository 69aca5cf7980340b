"""A translated message as Rich text, its placeholders styled apart from the words around.

A sentence on screen often shows one part in bold or dim ("**Hand 3** · to 150"); the
sentence stays one message of the catalog, and :func:`styled` styles its parts once it is
translated, wherever the language put them.
"""

from __future__ import annotations

from collections.abc import Mapping
from string import Formatter

from rich.style import StyleType
from rich.text import Span, Text

Value = str | int | tuple[str, StyleType] | Text
"""A placeholder's value: text (in the message's style), or text and its own style."""


def styled(
    message: str,
    style: StyleType = "",
    /,
    *,
    after: Mapping[str, StyleType] | None = None,
    **values: Value,
) -> Text:
    """``message`` (a translated message with ``{name}`` placeholders) as :class:`Text`:
    its own words in ``style``, each placeholder filled with its value in the value's style
    (a ``(text, style)`` pair or a :class:`Text`; plain text takes the words' style).
    ``after`` changes the words' style from a placeholder on: ``after={"loss": "italic"}``
    sets in italics what the language writes after ``{loss}``.

    >>> styled("Hand {hand} · to {target}", "", hand=("3", "bold"), target="150").markup
    'Hand [bold]3[/bold] · to 150'
    """
    text = Text()
    for literal, field, spec, conversion in Formatter().parse(message):
        if literal:
            text.append(literal, style)
        if field is None:
            continue
        if field not in values:
            raise KeyError(field)
        value = values[field]
        if after is not None and field in after:
            style = after[field]
        if isinstance(value, Text):
            text.append_text(value)
        elif isinstance(value, tuple):
            text.append(format(value[0], spec or ""), value[1])
        else:
            shown = repr(value) if conversion == "r" else value
            text.append(format(shown, spec or ""), style)
    return merged(text)


def merged(text: Text) -> Text:
    """``text`` with neighbouring spans of the same style made one (as one append makes)."""
    spans: list[Span] = []
    for span in text.spans:
        if spans and spans[-1].end == span.start and spans[-1].style == span.style:
            spans[-1] = Span(spans[-1].start, span.end, span.style)
        else:
            spans.append(span)
    text.spans = spans
    return text
