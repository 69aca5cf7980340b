"""Validation problems in words: a pydantic error worded from its ``type`` and ``ctx``.

Every message that says why a value was refused (a record, the settings, a
command-line option, a network message) goes through :func:`problem_words`,
which words a pydantic error from its ``type`` and the numbers and names in its
``ctx``, never from pydantic's own ``msg``. The sentences are :data:`PROBLEMS`
(one per type, with named placeholders), so a translation replaces that table
only. A validator's own error (``value_error``, ``assertion_error``) is already
our wording: its text is used as it is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import one_line

PROBLEMS: Mapping[str, str] = {
    "missing": "Field required",
    "extra_forbidden": "Extra inputs are not permitted",
    "int_type": "Input should be a valid integer",
    "int_parsing": "Input should be a valid integer, unable to parse string as an integer",
    "int_from_float": "Input should be a valid integer, got a number with a fractional part",
    "float_type": "Input should be a valid number",
    "float_parsing": "Input should be a valid number, unable to parse string as a number",
    "bool_type": "Input should be a valid boolean",
    "bool_parsing": "Input should be a valid boolean, unable to interpret input",
    "string_type": "Input should be a valid string",
    "string_too_short": "String should have at least {min_length} character{min_length_s}",
    "string_too_long": "String should have at most {max_length} character{max_length_s}",
    "string_pattern_mismatch": "String should match pattern '{pattern}'",
    "greater_than": "Input should be greater than {gt}",
    "greater_than_equal": "Input should be greater than or equal to {ge}",
    "less_than": "Input should be less than {lt}",
    "less_than_equal": "Input should be less than or equal to {le}",
    "literal_error": "Input should be {expected}",
    "enum": "Input should be {expected}",
    "list_type": "Input should be a valid list",
    "tuple_type": "Input should be a valid tuple",
    "dict_type": "Input should be a valid dictionary",
    "model_type": "Input should be a valid dictionary or instance of {class_name}",
    "too_short": (
        "{field_type} should have at least {min_length} item{min_length_s} after "
        "validation, not {actual_length}"
    ),
    "too_long": (
        "{field_type} should have at most {max_length} item{max_length_s} after "
        "validation, not {actual_length}"
    ),
    "union_tag_invalid": (
        "Input tag '{tag}' found using {discriminator} does not match any of the "
        "expected tags: {expected_tags}"
    ),
    "union_tag_not_found": "Unable to extract tag using discriminator {discriminator}",
    "recursion_loop": "Recursion error - cyclic reference detected",
}
"""Each pydantic error type's sentence, with its ``ctx`` values as placeholders (a count
``n`` also gives ``n_s``: ``"s"`` unless it is 1)."""
UNKNOWN_PROBLEM = "Input is not valid"
"""The sentence of an error type not in :data:`PROBLEMS`."""
OWN_WORDS = frozenset({"value_error", "assertion_error"})
"""The error types raised by our own validators: their text is already our wording."""


class _Context(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "?"


def problem_words(error: Mapping[str, Any]) -> str:
    """One pydantic error (an item of ``ValidationError.errors()``) in words, on one line."""
    kind = str(error.get("type", ""))
    ctx: dict[str, object] = dict(error.get("ctx") or {})
    if kind in OWN_WORDS:
        return one_line(str(ctx.get("error", UNKNOWN_PROBLEM)))
    for name, value in list(ctx.items()):
        if isinstance(value, int) and not isinstance(value, bool):
            ctx[f"{name}_s"] = "" if value == 1 else "s"
    return one_line(PROBLEMS.get(kind, UNKNOWN_PROBLEM).format_map(_Context(ctx)))
