"""A joined player's rejoin tokens, kept in the data folder so a new ``allfives join``
of the same player at the same host takes the same seat back.

``rejoin.json`` maps a host's address and a player's name to the token that host
gave. It is read as an untrusted file (small, regular, validated); a damaged
one is ignored. Only a token-shaped string is ever written (the host's message
is checked first), and only here, in the data folder.
"""

from __future__ import annotations

import contextlib

from pydantic import BaseModel, ConfigDict, Field, RootModel, ValidationError

from allfives_tui.net.protocol import TOKEN_PATTERN, is_token
from allfives_tui.store.folder import data_dir
from engine.files import atomic_write, read_small_file

FILE = "rejoin.json"
MAX_BYTES = 64 * 1024
KEEP = 20
"""At most this many tokens are kept (the newest)."""


class _Entry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    url: str = Field(max_length=300)
    name: str = Field(max_length=40)
    token: str = Field(pattern=TOKEN_PATTERN)


class _Tokens(RootModel[list[_Entry]]):
    pass


def _read() -> list[_Entry]:
    path = data_dir() / FILE
    try:
        raw = read_small_file(path, MAX_BYTES)
        return list(_Tokens.model_validate_json(raw).root)
    except (OSError, ValidationError, ValueError):
        return []


def recall(url: str, name: str) -> str | None:
    """The token the host at ``url`` gave ``name`` last time, if kept."""
    return next((e.token for e in _read() if e.url == url and e.name == name), None)


def remember(url: str, name: str, token: str) -> None:
    """Keep ``token`` for ``name`` at ``url`` (silently not, if it cannot be written)."""
    if not is_token(token):
        return
    entries = [e for e in _read() if not (e.url == url and e.name == name)]
    entries.append(_Entry(url=url[:300], name=name[:40], token=token))
    text = _Tokens(entries[-KEEP:]).model_dump_json(indent=1)
    with contextlib.suppress(OSError):
        atomic_write(data_dir() / FILE, text)
