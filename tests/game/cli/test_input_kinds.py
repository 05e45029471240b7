"""An image, an archive or another binary file given where a level, a board or a file of observed games is
expected is named for what it is (one message, exit 2), not refused for its first byte that is not UTF-8."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import main

FILES = {
    "x.gif": (b"GIF89a" + bytes(range(256)), "a GIF image"),
    "x.png": (b"\x89PNG\r\n\x1a\n" + bytes(range(256)), "a PNG image"),
    "x.zip": (b"PK\x03\x04" + bytes(range(256)), "a zip archive"),
}
COMMANDS = [
    (["check"], "a level file"),
    (["learn", "--observations"], "a file of observed games"),
    (["life", "reverse"], "a Life board file"),
    (["life", "learn"], "a Life trajectory file"),
    (["mines", "solve"], "a Minesweeper board file"),
    (["pegs", "solve"], "a peg solitaire board file"),
    (["pegs", "learn"], "a file of peg solitaire games"),
]


@pytest.mark.parametrize("name", list(FILES))
@pytest.mark.parametrize(("argv", "wanted"), COMMANDS, ids=lambda v: "-".join(v) if isinstance(v, list) else "")
def test_a_binary_input_is_named_for_what_it_is(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                                argv: list[str], wanted: str) -> None:
    data, kind = FILES[name]
    path = tmp_path / name
    path.write_bytes(data)
    assert main.main([*argv, str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"{path} is {kind}, not {wanted}" in err


@pytest.mark.parametrize("data", [b"5\n1\n> Q\nXXX\n", "# title: Caf\u00e9\n5\n1\n> T\nXXX\n".encode("latin-1"),
                                  "5\n1\n> T\nXXX\n".encode("utf-16")], ids=["utf-8", "latin-1", "utf-16"])
def test_a_text_input_keeps_the_message_naming_its_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        data: bytes) -> None:
    path = tmp_path / "level.txt"
    path.write_bytes(data)
    assert main.main(["check", str(path)]) == 2
    err = capsys.readouterr().err
    assert "not a level file" not in err and re.search(rf"{re.escape(str(path))}:\d+:\d+: ", err)
