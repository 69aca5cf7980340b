"""Build frozen pydantic models without re-validating engine-made values.

The engine constructs every snapshot from values it has already checked, so
the hot path skips pydantic validation (as ``model_construct`` does, but
several times faster); anything read from outside (JSON, user code) still
goes through normal validation.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

_FIELDS: dict[type[BaseModel], set[str]] = {}
new_object = _new = object.__new__
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
set_private = _set_private = BaseModel.__dict__["__pydantic_private__"].__set__
"""Setters of a pydantic model's slots, for building snapshots without validation."""


def lazy_maker(cls: type[M]) -> Callable[[dict[str, Any]], M]:
    """A constructor of ``cls`` instances whose fields are all still to be computed.

    The instance gets an empty ``__dict__`` and the given private attributes,
    nothing else: ``cls`` must compute its fields on first access and provide
    ``__pydantic_fields_set__`` and ``__pydantic_extra__`` when they are first
    read (see ``GameState``).
    """

    def new(private: dict[str, Any]) -> M:
        obj: M = _new(cls)
        _set_private(obj, private)
        return obj

    return new


def _fields_of(cls: type[BaseModel]) -> set[str]:
    fields = _FIELDS.get(cls)
    if fields is None:
        fields = _FIELDS[cls] = set(cls.model_fields)
    return fields


def make(cls: type[M], values: dict[str, Any], private: dict[str, Any] | None = None) -> M:
    """An instance of ``cls`` holding ``values`` (every field given), unvalidated."""
    obj: M = _new(cls)
    _set_dict(obj, values)
    _set_fields(obj, _fields_of(cls))
    _set_extra(obj, None)
    _set_private(obj, private)
    return obj


def complete(obj: BaseModel) -> None:
    """Give an instance from :func:`lazy_maker`, its fields now filled in, pydantic's
    bookkeeping slots (every field set, no extras), as :func:`make` does."""
    _set_fields(obj, _fields_of(type(obj)))
    _set_extra(obj, None)
