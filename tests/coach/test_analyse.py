"""``allfives analyse`` (issue 17, item 6): a line per decision, JSON of a documented schema,
the same ratings as the coach, and one-line errors."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from allfives_tui.cli import main
from allfives_tui.cli.analyse import AnalysisJSON
from allfives_tui.coach import ratings
from allfives_tui.coach.cache import CACHE_FOLDER, AnalysisCache
from engine.record import save
from tests.coach.helpers import short_game

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "docs" / "analyse.schema.json"


def _file(tmp_path: Path, actions: int | None = None) -> Path:
    record = short_game() if actions is None else short_game().truncated(actions)
    return save(record, tmp_path / "game.json")


def _conforms(value: Any, schema: dict[str, Any], defs: dict[str, Any]) -> None:
    """``value`` has exactly the schema's properties, each of its type (recursively)."""
    if "$ref" in schema:
        schema = defs[schema["$ref"].split("/")[-1]]
    if "anyOf" in schema:
        errors = []
        for option in schema["anyOf"]:
            try:
                _conforms(value, option, defs)
                return
            except AssertionError as err:
                errors.append(str(err))
        raise AssertionError(f"{value!r} fits none of {errors}")
    kind = schema.get("type")
    if "enum" in schema:
        assert value in schema["enum"], (value, schema["enum"])
    if "const" in schema:
        assert value == schema["const"]
    if kind == "object":
        assert isinstance(value, dict)
        assert set(value) == set(schema["properties"]), (set(value), set(schema["properties"]))
        assert set(schema.get("required", [])) <= set(value)
        for key, sub in schema["properties"].items():
            _conforms(value[key], sub, defs)
    elif kind == "array":
        assert isinstance(value, list)
        for item in value:
            _conforms(item, schema["items"], defs)
    elif kind == "integer":
        assert isinstance(value, int) and not isinstance(value, bool)
    elif kind == "number":
        assert isinstance(value, (int, float)) and not isinstance(value, bool)
    elif kind == "string":
        assert isinstance(value, str)
    elif kind == "boolean":
        assert isinstance(value, bool)
    elif kind == "null":
        assert value is None


def test_the_documented_schema_is_the_one_the_command_writes() -> None:
    documented = json.loads(SCHEMA.read_text())
    assert documented == AnalysisJSON.model_json_schema()


def test_json_output_follows_the_schema_and_agrees_with_the_coach(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path)
    assert main(["analyse", str(path), "--json", "--playouts", "40"]) == 0
    out = capsys.readouterr().out
    data = json.loads(out)
    schema = json.loads(SCHEMA.read_text())
    _conforms(data, schema, schema.get("$defs", {}))
    AnalysisJSON.model_validate(data)
    expected = ratings.review(short_game(), 0, 40)
    assert data["seat"] == 0 and data["playouts"] == 40
    assert data["evaluator"] == ratings.evaluator_version()
    assert [
        (d["step"], d["played"], d["best"], d["loss"], d["label"]) for d in data["decisions"]
    ] == [(r.index, r.played, r.best, r.loss, r.label) for r in expected.ratings]
    assert data["summary"]["accuracy"] == expected.accuracy
    assert data["scores"][-1] == list(short_game().final_state().scores)


def test_one_cache_for_analyse_and_the_replay_pane(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path)
    cached = data_dir / CACHE_FOLDER / f"{ratings.record_key(short_game(), 0, 40)}.json"
    assert main(["analyse", str(path), "--json", "--playouts", "40"]) == 0
    first = capsys.readouterr().out
    # rated once, kept in the cache the app's report and replay use
    found = AnalysisCache(cached.parent).get(cached.stem)
    assert found is not None and found == ratings.review(short_game(), 0, 40)
    # read from there the next time (reading touches the entry), same output
    os.utime(cached, (0, 0))
    assert main(["analyse", str(path), "--json", "--playouts", "40"]) == 0
    assert capsys.readouterr().out == first
    assert cached.stat().st_mtime > 0


def test_text_output_is_a_line_a_decision(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path)
    assert main(["analyse", str(path), "--seat", "1", "--playouts", "30"]) == 0
    lines = capsys.readouterr().out.splitlines()
    expected = ratings.review(short_game(), 1, 30)
    body = lines[: len(expected.ratings)]
    for line, r in zip(body, expected.ratings, strict=True):
        assert line.startswith(f"hand {r.hand:>2} move {r.move:>2}  {r.played}")
        if r.played != r.best:
            assert f"best {r.best}" in line and f"-{100 * r.loss:.1f}% win" in line
        if r.label:
            assert line.endswith(r.label)
    assert lines[len(expected.ratings)].startswith("C1 (seat 1): ")


def test_a_game_in_progress_is_reviewed_for_its_player_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path, actions=14)
    assert main(["analyse", str(path), "--playouts", "20"]) == 0
    capsys.readouterr()
    assert main(["analyse", str(path), "--seat", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "only its player's seat (0)" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seat", "5"], "no seat 5 in this 2-player game"),
        (["--playouts", "0"], "at least 1"),
        (["--playouts", "many"], "not a whole number"),
    ],
)
def test_bad_options_get_one_line(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path)
    try:
        status = main(["analyse", str(path), *argv])
    except SystemExit as exc:
        status = int(exc.code or 0)
    assert status == 2
    err = capsys.readouterr().err
    assert message in err and err.splitlines()[0].startswith("allfives")


def test_a_bad_file_gets_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{ not a game")
    assert main(["analyse", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"allfives: {bad}: ")
    assert main(["analyse", str(tmp_path / "missing.json")]) == 2
