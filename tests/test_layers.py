"""The house rules as tests: ui -> table -> engine, imports pointing down only.

Checked statically over every import statement of a package (those under
``if TYPE_CHECKING:`` and inside functions included), and, for the layers
that must not load Textual, in a fresh interpreter.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def imports_of(path: Path) -> set[str]:
    """Every module a file names in an import statement (relative ones resolved)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], base]).strip(".")
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def files(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


def offenders(folder: str, forbidden: tuple[str, ...]) -> dict[str, list[str]]:
    """Files under ``folder`` that import a module starting with one of ``forbidden``."""
    bad: dict[str, list[str]] = {}
    for path in files(folder):
        hits = sorted(
            m for m in imports_of(path) if any(m == f or m.startswith(f + ".") for f in forbidden)
        )
        if hits:
            bad[str(path.relative_to(ROOT))] = hits
    return bad


def test_the_checker_sees_type_checking_and_function_imports(tmp_path: Path) -> None:
    sample = ROOT / "allfives_tui" / "ui" / "screens" / "game.py"
    assert "allfives_tui.table.table" in imports_of(sample)
    code = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import textual.app\n"
    code += "def f():\n    from allfives_tui.ui import app\n"
    probe = ROOT / "tests" / "_probe_layers.py"
    probe.write_text(code, encoding="utf-8")
    try:
        assert {"textual.app", "allfives_tui.ui.app"} <= imports_of(probe)
    finally:
        probe.unlink()


def test_the_engine_imports_neither_the_app_nor_textual() -> None:
    assert offenders("engine", ("allfives_tui", "textual", "rich")) == {}


def test_the_engine_stays_english() -> None:
    """No catalog behind the engine: its messages are English, a front-end words its codes."""
    assert offenders("engine", ("gettext", "babel", "locale")) == {}
    code = (
        "import sys, engine, engine.record, engine.players, engine.match; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('gettext', 'babel')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout


def test_the_table_imports_no_textual_and_no_ui() -> None:
    assert offenders("allfives_tui/table", ("textual", "allfives_tui.ui", "allfives_tui.cli")) == {}


def test_the_board_plan_and_the_glyphs_import_no_textual_and_no_rich() -> None:
    """The board's layout arithmetic is plain Python: styles and strips stay in the widget."""
    for stem in ("board_plan", "board_geometry", "board_rows", "glyphs"):
        path = ROOT / "allfives_tui" / "table" / f"{stem}.py"
        hits = {m for m in imports_of(path) if m.split(".")[0] in ("textual", "rich")}
        assert hits == set(), stem
        assert not any(m.startswith("allfives_tui.ui") for m in imports_of(path)), stem


def test_the_net_layer_imports_no_textual_and_no_ui() -> None:
    """net sits between ui and table: ui -> net -> table -> engine."""
    assert offenders("allfives_tui/net", ("textual", "allfives_tui.ui", "allfives_tui.cli")) == {}
    assert offenders("allfives_tui/table", ("allfives_tui.net",)) == {}
    assert offenders("engine", ("allfives_tui.net", "websockets")) == {}


def test_the_table_imports_no_store_no_coach_and_no_net() -> None:
    """table/ is pure: the files, the history, the coach and the network sit beside it."""
    forbidden = ("allfives_tui.store", "allfives_tui.coach", "allfives_tui.net")
    assert offenders("allfives_tui/table", forbidden) == {}


def test_the_store_and_the_coach_import_no_textual_ui_or_net() -> None:
    """store/ and coach/ serve the front-ends; they never reach up to them."""
    forbidden = ("textual", "allfives_tui.ui", "allfives_tui.cli", "allfives_tui.net")
    assert offenders("allfives_tui/store", forbidden) == {}
    assert offenders("allfives_tui/coach", forbidden) == {}


def test_widgets_import_no_record_or_file_code() -> None:
    forbidden = (
        "engine.record",
        "engine.files",
        "allfives_tui.store",
        "allfives_tui.coach.cache",
        "allfives_tui.coach.process",
        "allfives_tui.coach.seat_review",
        "allfives_tui.coach.table_coach",
        "engine.players",
        "allfives_tui.table.table",
        "allfives_tui.cli",
        "shutil",
        "tempfile",
        "json",
    )
    bad = offenders("allfives_tui/ui/widgets", forbidden)
    assert bad == {}


def test_nothing_outside_the_engine_imports_its_private_modules() -> None:
    """``engine._*`` modules are the engine's own; the app uses its public API."""
    bad: dict[str, list[str]] = {}
    for folder in ("allfives_tui", "benchmarks"):
        for path, hits in offenders(folder, ("engine",)).items():
            private = [m for m in hits if any(p.startswith("_") for p in m.split(".")[1:])]
            if private:
                bad[path] = private
    assert bad == {}


def test_no_screen_imports_the_app() -> None:
    assert offenders("allfives_tui/ui/screens", ("allfives_tui.ui.app",)) == {}


@pytest.mark.parametrize(
    "module",
    ["engine", "engine.players", "engine.match", "allfives_tui.table", *[
        f"allfives_tui.table.{p.stem}" for p in files("allfives_tui/table") if p.stem != "__init__"
    ], *[
        f"allfives_tui.net.{p.stem}" for p in files("allfives_tui/net") if p.stem != "__init__"
    ], *[
        f"allfives_tui.store.{p.stem}" for p in files("allfives_tui/store") if p.stem != "__init__"
    ], *[
        f"allfives_tui.coach.{p.stem}" for p in files("allfives_tui/coach") if p.stem != "__init__"
    ]],
)
def test_headless_layers_load_without_textual(module: str) -> None:
    code = (
        f"import sys, importlib; importlib.import_module({module!r}); "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'allfives_tui') "
        "and (m.startswith('textual') or m.startswith('allfives_tui.ui'))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "[]", out.stdout
