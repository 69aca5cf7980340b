"""Hostile record files: every reader raises RecordError (one plain line), never hangs.

Found by a hostile-input probe (issue 14, items 1-3): junk where a tile
belongs, numbers thousands of digits long, named pipes and devices, and
values a megabyte long. ``load``, ``load_game``, ``parse_game`` and
``parse_record`` promise to raise :class:`RecordError` and nothing else.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine import RecordError
from engine import record as record_module
from engine.game import apply
from engine.record import MAX_BYTES, load, load_game, parse_game, parse_record
from tests.records import SMALL_RECORD

Reader = Callable[[Path], object]

READERS: dict[str, Reader] = {
    "load": load,
    "load_game": load_game,
    "parse_game": lambda p: parse_game(p.read_bytes()),
    "parse_record": lambda p: parse_record(p.read_text(encoding="utf-8", errors="replace")),
}

ROOT = Path(__file__).resolve().parents[2]


def _raises_one_line(reader: Reader, path: Path) -> str:
    """The message of the RecordError ``reader`` raises on ``path`` (one short line)."""
    with pytest.raises(RecordError) as info:
        reader(path)
    assert type(info.value) is RecordError
    message = str(info.value)
    assert message and "\n" not in message and len(message) <= 400, message
    assert "Traceback" not in message and "sys.set_int_max_str_digits" not in message
    return message


def _write(tmp_path: Path, data: dict[str, Any], name: str = "game.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return path


def _tile_places(data: dict[str, Any]) -> list[tuple[list[Any], int]]:
    """Every place in a record where a tile is written: (the list, the index)."""
    places: list[tuple[list[Any], int]] = []
    for hand in data["hands"]:
        deal = hand["deal"]
        for pile in [*deal["hands"], deal["boneyard"]]:
            places.extend((pile, i) for i in range(len(pile)))
    return places


JUNK_TILES: list[Any] = [
    [1, "a"],
    [None, {}],
    ["1", 2],
    [[], 3],
    [1.5, 2],
    [True, 1],
    [1, 2, 3],
    {"high": "a", "low": 1},
    {"high": None, "low": []},
    {"high": 5},
    {},
    [],
    None,
    True,
    5,
    -1.0e308,
    "",
    "5",
    "9-9",
    "x" * 100_000,
    [10**4000, 1],
    ["²", 4],
]


@pytest.mark.parametrize("junk", JUNK_TILES, ids=[repr(j)[:20] for j in JUNK_TILES])
def test_junk_where_a_tile_belongs_is_a_record_error_everywhere(tmp_path: Path, junk: Any) -> None:
    """Item 1: ``[1, "a"]`` or ``[null, {}]`` as a tile raised TypeError from Tile's validator."""
    base = json.loads(SMALL_RECORD)
    places = _tile_places(base)
    # the first and last tile of every pile of every hand (the first hand's whole deal)
    chosen = [p for p in places if p[1] == 0] + [places[-1]] + places[:10]
    for n in range(len(chosen)):
        data = json.loads(SMALL_RECORD)
        pile, i = _tile_places(data)[places.index(chosen[n])]
        pile[i] = junk
        path = _write(tmp_path, data)
        messages = {name: _raises_one_line(reader, path) for name, reader in READERS.items()}
        assert len(set(messages.values())) == 1, messages
        assert "not supported between" not in messages["load"]


def test_a_tile_of_incomparable_halves_says_it_is_not_a_tile(tmp_path: Path) -> None:
    data = json.loads(SMALL_RECORD)
    data["hands"][0]["deal"]["hands"][0][1] = [1, "a"]
    message = _raises_one_line(load, _write(tmp_path, data))
    assert message == (
        "invalid record at hands.0.deal.hands.0.1: not a tile: [1, 'a'] (write it like 5-3)"
    ), message


@pytest.mark.parametrize("digits", [4_301, 10_000, 1_000_000])
@pytest.mark.parametrize("where", ["start", "seed", "players", "take_backs", "tile", "version"])
def test_a_number_thousands_of_digits_long_in_a_real_file(
    tmp_path: Path, digits: int, where: str
) -> None:
    """Item 2: more than 4,300 digits made ``json`` raise a plain ValueError."""
    data = json.loads(SMALL_RECORD)
    marker = "@@HUGE@@"
    if where == "start":
        data["hands"][0]["deal"]["start"] = marker
    elif where == "seed":
        data["seed"] = marker
    elif where == "players":
        data["rules"]["players"] = marker
    elif where == "take_backs":
        data["seats"][0]["take_backs"] = marker
    elif where == "tile":
        data["hands"][0]["deal"]["boneyard"][0] = [marker, 1]
    else:
        data["version"] = marker
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(data).replace(f'"{marker}"', "7" * digits))
    if path.stat().st_size > MAX_BYTES:
        message = _raises_one_line(load_game, path)
        assert message == "the file is over the size cap of 2048 KiB"
        return
    for reader in READERS.values():
        message = _raises_one_line(reader, path)
        assert message == "not a game record: it holds a number thousands of digits long"


@pytest.mark.parametrize("where", ["start", "seed", "target", "take_backs", "tile", "version"])
def test_a_long_number_that_python_can_read_is_refused_briefly(tmp_path: Path, where: str) -> None:
    """4,000 digits convert, but the error must not echo them."""
    data = json.loads(SMALL_RECORD)
    huge = 10**4000 + 7
    if where == "start":
        data["hands"][0]["deal"]["start"] = huge
    elif where == "seed":
        data["seed"] = -huge
    elif where == "target":
        data["rules"]["target"] = huge
    elif where == "take_backs":
        data["seats"][0]["take_backs"] = huge
    elif where == "tile":
        data["hands"][0]["deal"]["boneyard"][0] = [huge, 1]
    else:
        data["version"] = huge
    path = _write(tmp_path, data)
    for reader in READERS.values():
        try:
            reader(path)
        except RecordError as err:
            message = str(err)
            assert "\n" not in message and len(message) <= 400, message[:500]
            assert "0" * 50 not in message


def test_a_megabyte_action_is_not_a_megabyte_error_line(tmp_path: Path) -> None:
    data = json.loads(SMALL_RECORD)
    data["hands"][0]["actions"][3] = "5" * 1_000_000
    message = _raises_one_line(load_game, _write(tmp_path, data))
    assert message.startswith("hand 1, move 4: illegal action '5555"), message
    assert "…" in message and len(message) < 200


def test_a_megabyte_key_or_format_is_not_echoed(tmp_path: Path) -> None:
    data = json.loads(SMALL_RECORD)
    data["k" * 1_000_000] = 1
    assert len(_raises_one_line(load, _write(tmp_path, data))) < 200
    data = json.loads(SMALL_RECORD)
    data["format"] = "f" * 1_000_000
    assert len(_raises_one_line(load, _write(tmp_path, data))) < 200
    data = json.loads(SMALL_RECORD)
    data["version"] = [[[["v" * 1_000_000]]]]
    assert len(_raises_one_line(load, _write(tmp_path, data))) < 200


@pytest.mark.parametrize(
    "error",
    [
        TypeError("'>' not supported between instances of 'str' and 'int'"),
        AttributeError("'NoneType' object has no attribute 'kind'"),
        RecursionError("maximum recursion depth exceeded"),
        OverflowError("int too large to convert to float"),
        ZeroDivisionError("division by zero"),
        KeyError("hands"),
        ValueError("line one\nline two"),
        UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"),
    ],
    ids=lambda e: type(e).__name__,
)
@pytest.mark.parametrize("stage", ["validate", "replay"])
def test_any_failure_inside_a_reader_becomes_a_record_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, error: Exception, stage: str
) -> None:
    """Belt and braces: whatever a file makes go wrong inside, the readers raise RecordError."""

    def fail(*args: object, **kwargs: object) -> Any:
        raise error

    if stage == "validate":
        monkeypatch.setattr(record_module.GameRecord, "model_validate", fail)
    else:
        monkeypatch.setattr(record_module, "apply", fail)
    path = tmp_path / "game.json"
    path.write_text(SMALL_RECORD)
    for reader in READERS.values():
        message = _raises_one_line(reader, path)
        assert message.startswith(("invalid record", "not a game record", "hand 1")), message


def test_a_failure_after_sound_actions_keeps_the_partial_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_apply = apply  # the one the record module calls
    calls = 0

    def flaky(state: Any, action: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 4:
            raise TypeError("boom")
        return real_apply(state, action)

    monkeypatch.setattr(record_module, "apply", flaky)
    path = tmp_path / "game.json"
    path.write_text(SMALL_RECORD)
    with pytest.raises(RecordError) as info:
        load_game(path)
    assert info.value.partial is not None
    assert len(info.value.partial.steps) == 3


# -- files that are not regular files (item 3) ---------------------------------

_READ_IN_CHILD = (
    "import sys\n"
    "from engine.record import load_game, RecordError\n"
    "try:\n"
    "    load_game(sys.argv[1])\n"
    "except RecordError as err:\n"
    "    print(err)\n"
    "    sys.exit(2)\n"
)


def _child(*argv: str, timeout: float = 10) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` in a child process that must end within ``timeout`` seconds."""
    return subprocess.run(
        argv, cwd=ROOT, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
    )


def test_a_named_pipe_is_refused_at_once_not_waited_on(tmp_path: Path) -> None:
    """Item 3: a FIFO with no writer hung the reader (and the CLI, and the app)."""
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    done = _child(sys.executable, "-c", _READ_IN_CHILD, str(fifo))
    assert done.returncode == 2, done.stderr
    assert done.stdout == "not a regular file (a named pipe)\n"
    # in this process too, under a watchdog thread
    result: list[str] = []

    def read() -> None:
        try:
            load_game(fifo)
        except RecordError as err:
            result.append(str(err))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout=10)
    if reader.is_alive():  # unblock the reader before failing
        with open(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK), "w"):
            pass
        pytest.fail("load_game waited on a named pipe")
    assert result == ["not a regular file (a named pipe)"]


def test_a_named_pipe_with_a_writer_is_refused_too(tmp_path: Path) -> None:
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    reader_end = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    writer_end = os.open(fifo, os.O_WRONLY)
    result: list[str] = []

    def read() -> None:
        try:
            load_game(fifo)
        except RecordError as err:
            result.append(str(err))

    try:
        os.write(writer_end, SMALL_RECORD.encode()[:1000])
        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        reader.join(timeout=10)
        hung = reader.is_alive()
    finally:
        os.close(writer_end)  # a reader still waiting sees the end of the data
        os.close(reader_end)
    assert not hung, "load_game waited on a named pipe"
    assert result == ["not a regular file (a named pipe)"]


def test_the_cli_refuses_a_named_pipe_with_one_line_and_status_2(tmp_path: Path) -> None:
    fifo = tmp_path / "game.json"
    os.mkfifo(fifo)
    done = _child(sys.executable, "-m", "allfives_tui", "replay", str(fifo), "--text")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr == f"allfives: {fifo}: not a regular file (a named pipe)\n"


def test_a_device_is_refused(tmp_path: Path) -> None:
    for device in ("/dev/null", "/dev/zero"):
        if os.path.exists(device):
            assert _raises_one_line(load_game, Path(device)) == "not a regular file (a device)"


def test_a_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(path))
        message = _raises_one_line(load_game, path)
        assert message.startswith("not a regular file (a socket"), message
    finally:
        server.close()


def test_a_folder_a_missing_file_and_an_unreadable_one(tmp_path: Path) -> None:
    assert _raises_one_line(load_game, tmp_path) == "is a folder, not a game record"
    assert _raises_one_line(load_game, tmp_path / "nowhere.json") == "no such file"
    assert _raises_one_line(load_game, Path("bad\0name.json")).startswith("no such file")
    locked = tmp_path / "locked.json"
    locked.write_text(SMALL_RECORD)
    locked.chmod(0)
    try:
        if os.geteuid() != 0:  # root reads anything
            assert _raises_one_line(load_game, locked) == "cannot read it: permission denied"
    finally:
        locked.chmod(0o600)


def test_a_growing_file_is_read_only_to_the_cap(tmp_path: Path) -> None:
    """The size is checked on what is read, not only on what stat said before."""
    path = tmp_path / "big.json"
    with path.open("wb") as fh:
        fh.truncate(MAX_BYTES + 10)
    assert _raises_one_line(load_game, path) == "the file is over the size cap of 2048 KiB"
    path.write_bytes(b" " * MAX_BYTES + b"{}")
    assert _raises_one_line(load_game, path) == "the file is over the size cap of 2048 KiB"


def test_a_good_file_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(SMALL_RECORD)
    game = load_game(path)
    assert game.record == load(path) == parse_record(SMALL_RECORD)
