"""Build frozen pydantic models without re-validating engine-made values.

The engine constructs every snapshot, view, event and layout from values it
has already checked, so it skips pydantic validation for them (as
``model_construct`` does, with less work per field); anything read from
outside (JSON, user code) still goes through normal validation.

This is the only module that touches pydantic's slots (``__dict__``,
``__pydantic_fields_set__``, ``__pydantic_extra__``, ``__pydantic_private__``)
directly; the rest of the engine goes through the functions here.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

_new = object.__new__
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__

fields: Callable[[BaseModel], dict[str, Any]] = attrgetter("__dict__")
"""A model's field values by name (its ``__dict__``): read it, never change it."""

private: Callable[[BaseModel], dict[str, Any]] = BaseModel.__dict__["__pydantic_private__"].__get__
"""A model's private attributes by name (its own cache: the caller may update it)."""


def maker(cls: type[M]) -> Callable[[dict[str, Any], dict[str, Any] | None], M]:
    """A constructor of ``cls`` instances from ``(values, private)``, unvalidated.

    ``values`` holds every field, in declaration order (it becomes the
    instance's ``__dict__``, not a copy); ``private`` the private attributes
    (``None`` for a model without any). Every field counts as set.
    """
    fields_set = set(cls.model_fields)

    def new(values: dict[str, Any], private: dict[str, Any] | None = None) -> M:
        obj: M = _new(cls)
        _set_dict(obj, values)
        _set_fields(obj, fields_set)
        _set_extra(obj, None)
        _set_private(obj, private)
        return obj

    return new


_MAKERS: dict[type[BaseModel], Callable[[dict[str, Any], dict[str, Any] | None], Any]] = {}


def make(cls: type[M], values: dict[str, Any], private: dict[str, Any] | None = None) -> M:
    """An instance of ``cls`` holding ``values`` (every field given), unvalidated."""
    new = _MAKERS.get(cls)
    if new is None:
        new = _MAKERS[cls] = maker(cls)
    made: M = new(values, private)
    return made


def set_field(obj: BaseModel, name: str, value: Any) -> None:
    """Set a field of a frozen model while it is being validated (a default it derives)."""
    obj.__dict__[name] = value


def set_private(obj: BaseModel, values: dict[str, Any] | None) -> None:
    """Replace a model's private attributes (a copy's: see ``GameState.__copy__``)."""
    _set_private(obj, values)
