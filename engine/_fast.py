"""Build frozen pydantic models without re-validating engine-made values.

The engine constructs every snapshot from values it has already checked, so
the hot path skips pydantic validation; anything read from outside (JSON,
user code) still goes through normal validation.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

_FIELDS: dict[type[BaseModel], set[str]] = {}


def make(cls: type[M], values: dict[str, Any], private: dict[str, Any] | None = None) -> M:
    """An instance of ``cls`` holding ``values`` (every field given), unvalidated."""
    fields = _FIELDS.get(cls)
    if fields is None:
        fields = _FIELDS[cls] = set(cls.model_fields)
    obj = cls.__new__(cls)
    setattr_ = object.__setattr__
    setattr_(obj, "__dict__", values)
    setattr_(obj, "__pydantic_fields_set__", fields)
    setattr_(obj, "__pydantic_extra__", None)
    setattr_(obj, "__pydantic_private__", private)
    return obj
