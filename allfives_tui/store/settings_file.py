"""The last new-game settings, remembered in ``settings.json`` in the data folder."""

from __future__ import annotations

import json

from pydantic import ValidationError

from allfives_tui.locale import _, pgettext
from allfives_tui.store.folder import SETTINGS, SETTINGS_MAX_BYTES, data_dir
from allfives_tui.table.problems import validation_text
from allfives_tui.table.settings import Settings
from allfives_tui.table.words import one_line
from engine.files import atomic_write, read_small_file

_TOGETHER = ("names", "levels", "name")
"""What a remembered error of the settings as a whole (two people of one name) drops, in turn."""


def _shown(value: object) -> str:
    text = one_line(repr(value))
    return text if len(text) <= 40 else text[:39] + "…"


def setting_label(field: str) -> str:
    """A setting's name in words (``hand_size``: "hand size")."""
    labels = {
        "players": pgettext("a remembered setting", "players"),
        "partnerships": pgettext("a remembered setting", "partnerships"),
        "hand_size": pgettext("a remembered setting", "hand size"),
        "target": pgettext("a remembered setting", "target"),
        "levels": pgettext("a remembered setting", "levels"),
        "name": pgettext("a remembered setting", "name"),
        "names": pgettext("a remembered setting", "names"),
        "seed": pgettext("a remembered setting", "seed"),
        "speed": pgettext("a remembered setting", "speed"),
        "auto_draw": pgettext("a remembered setting", "auto draw"),
        "coach": pgettext("a remembered setting", "coach"),
        "hints_for_all": pgettext("a remembered setting", "hints for all"),
        "language": pgettext("a remembered setting", "language"),
        "theme": pgettext("a remembered setting", "theme"),
    }
    return labels.get(field, field.replace("_", " "))


def read_settings() -> tuple[Settings, tuple[str, ...]]:
    """The remembered settings, and a notice for each one dropped.

    No file gives the defaults, silently. A file that cannot be read (not a
    plain file, too large, not JSON) gives the defaults with a notice; a
    remembered setting that is no longer valid (a target of 7, a pace of 9
    seconds) is dropped with a notice naming it, and the others are kept.
    Never blocks: ``settings.json`` is read like any untrusted file
    (:func:`read_small_file`).
    """
    path = data_dir() / SETTINGS
    try:
        data = json.loads(read_small_file(path, SETTINGS_MAX_BYTES))
    except FileNotFoundError:
        return Settings(), ()
    except OSError as err:
        return Settings(), (
            _("Could not read the settings in {path}: {why}; using the defaults.").format(
                path=path, why=err.strerror
            ),
        )
    except (ValueError, RecursionError):
        return Settings(), (
            _("The settings in {path} are not valid JSON: using the defaults.").format(path=path),
        )
    if not isinstance(data, dict):
        return Settings(), (
            _("The settings in {path} are not a JSON object: using the defaults.").format(
                path=path
            ),
        )
    data = {k: v for k, v in data.items() if k in Settings.model_fields}
    notices: list[str] = []
    while True:
        try:
            return Settings.model_validate(data), tuple(notices)
        except ValidationError as err:
            dropped = False
            for problem in err.errors():
                loc = problem["loc"]
                field = str(loc[0]) if loc else None
                if field not in data:
                    field = next((f for f in _TOGETHER if f in data), None)
                if field is None:
                    continue
                why = validation_text(problem)
                notices.append(
                    _("Dropped the remembered {setting} {value}, no longer valid: {why}.").format(
                        setting=setting_label(field), value=_shown(data.pop(field)), why=why
                    )
                )
                dropped = True
            if not dropped:  # pragma: no cover - every error names a field or _TOGETHER's
                return Settings(), (*notices, _("The remembered settings are reset."))


def load_settings() -> Settings:
    """The remembered settings (see :func:`read_settings`), without the notices."""
    return read_settings()[0]


def save_settings(settings: Settings) -> None:
    """Remember ``settings`` (atomically)."""
    atomic_write(data_dir() / SETTINGS, settings.model_dump_json(indent=1) + "\n")
