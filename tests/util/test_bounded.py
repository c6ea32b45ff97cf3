"""companion.util.bounded: files the box does not trust, read in bounded time and memory, every
failure one short line (a BoundedInputError, a ValueError) naming the source."""

from __future__ import annotations

import os

import pytest

from companion.util import bounded
from companion.util.bounded import BoundedInputError, clip, decode, load_json, load_yaml, read_text, shorten


def one_line(exc: pytest.ExceptionInfo, source: str) -> str:
    text = str(exc.value)
    assert "\n" not in text and text.startswith(f"{source}: ") and len(text) < 200, text
    return text


def test_bounded_input_error_is_a_value_error():
    assert issubclass(BoundedInputError, ValueError)


def test_clip_keeps_a_short_repr_and_cuts_a_long_one_to_the_limit():
    assert clip("abc") == "'abc'"
    assert clip(12) == "12"
    long = clip("x" * 500)
    assert len(long) == bounded.CLIP and long.endswith("...") and long.startswith("'xxx")
    assert clip(list(range(100)), limit=10) == "[0, 1, ..."
    assert clip("abcdefgh", limit=10) == "'abcdefgh'"  # exactly the limit: whole


def test_clip_of_an_int_too_long_for_repr_is_said_not_raised():
    huge = 10 ** 5000  # more digits than Python's int-to-text limit
    assert clip(huge) == "<a number too long>"


def test_shorten_makes_one_line_and_cuts():
    assert shorten("a\n  b\tc ") == "a b c"
    assert shorten("x" * 100) == "x" * 77 + "..."
    assert shorten("x" * 80) == "x" * 80
    assert shorten("abcdef", limit=5) == "ab..."
    assert shorten(42) == "42"


def test_read_text_reads_utf8_and_refuses_what_is_too_big(tmp_path):
    path = tmp_path / "ok.txt"
    path.write_bytes("Bénédicte\n".encode())
    assert read_text(str(path)) == "Bénédicte\n"
    path.write_bytes(b"x" * 101)
    assert read_text(str(path), max_bytes=101) == "x" * 101
    with pytest.raises(BoundedInputError) as exc:
        read_text(str(path), max_bytes=100)
    assert "larger than" in one_line(exc, str(path))


def test_read_text_never_reads_more_than_it_may_keep(tmp_path, monkeypatch):
    """A huge file costs at most max_bytes + 1 bytes of reading, never the whole file."""
    path = tmp_path / "huge"
    with open(path, "wb") as f:
        f.truncate(1 << 30)  # 1 GB, sparse: nothing on the disk
    asked = []
    real_open = open

    class Spy:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def fileno(self):
            return self.f.fileno()

        def read(self, n=-1):
            asked.append(n)
            return self.f.read(n)

    monkeypatch.setattr(bounded, "open", lambda *a, **k: Spy(real_open(*a, **k)), raising=False)
    with pytest.raises(BoundedInputError):
        read_text(str(path), max_bytes=1000)
    assert asked == [1001]


def test_read_text_refuses_what_is_no_regular_file_without_blocking(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # nobody writes it: a blocking open would hang here
    with pytest.raises(BoundedInputError) as exc:
        read_text(str(fifo))
    assert one_line(exc, str(fifo)).endswith("not a regular file")
    with pytest.raises(OSError):
        read_text(str(tmp_path))  # a directory: cannot be read as a file
    with pytest.raises(OSError):
        read_text(str(tmp_path / "missing"))


def test_decode_refuses_bytes_that_are_not_utf8_naming_where():
    assert decode("Łukasz".encode(), "names") == "Łukasz"
    with pytest.raises(BoundedInputError) as exc:
        decode(b"ok \xff then", "names")
    assert one_line(exc, "names") == "names: not UTF-8 text (byte 3): save it as UTF-8"
    with pytest.raises(BoundedInputError) as exc:
        decode(b"12345", "f", max_bytes=4)
    assert "larger than" in one_line(exc, "f")


def test_load_json_parses_and_says_where_it_is_broken():
    assert load_json('{"a": [1, 2.5, "x", null, true]}', "rec") == {"a": [1, 2.5, "x", None, True]}
    with pytest.raises(BoundedInputError) as exc:
        load_json('{"a": 1,\n "b": }', "rec")
    assert one_line(exc, "rec") == "rec: not valid JSON: Expecting value at line 2 column 7"


def test_load_json_refuses_nesting_deeper_than_the_limit_and_keeps_the_limit_itself():
    at_limit = "[" * bounded.MAX_DEPTH + "]" * bounded.MAX_DEPTH
    assert load_json(at_limit, "rec") is not None
    over = "[" * (bounded.MAX_DEPTH + 1) + "]" * (bounded.MAX_DEPTH + 1)
    with pytest.raises(BoundedInputError) as exc:
        load_json(over, "rec")
    assert "nested more than 32 levels" in one_line(exc, "rec")
    deep_dicts = '{"a": ' * (bounded.MAX_DEPTH + 1) + "1" + "}" * (bounded.MAX_DEPTH + 1)
    with pytest.raises(BoundedInputError):
        load_json(deep_dicts, "rec")
    with pytest.raises(BoundedInputError) as exc:  # deeper than the parser itself goes: one line too
        load_json("[" * 100_000 + "]" * 100_000, "rec")
    one_line(exc, "rec")


def test_load_json_refuses_a_number_too_long_and_a_text_too_big():
    with pytest.raises(BoundedInputError) as exc:
        load_json("1" * 5000, "rec")
    assert one_line(exc, "rec").startswith("rec: not valid JSON")
    with pytest.raises(BoundedInputError) as exc:
        load_json(" " * (bounded.MAX_BYTES + 1), "rec")
    assert "larger than" in one_line(exc, "rec")


def test_load_yaml_parses_safely_and_refuses_aliases():
    assert load_yaml("roster: [Anna, Ben]\nport: 8080\n", "cfg") == {"roster": ["Anna", "Ben"], "port": 8080}
    laughs = 'a: &a ["lol", "lol"]\nb: &b [*a, *a]\nc: [*b, *b]\n'
    with pytest.raises(BoundedInputError) as exc:
        load_yaml(laughs, "cfg")
    assert one_line(exc, "cfg") == "cfg: not valid YAML: aliases (*name) are not allowed at line 2 column 8"
    with pytest.raises(BoundedInputError) as exc:
        load_yaml("!!python/object/apply:os.system ['true']", "cfg")  # a safe loader builds no objects
    one_line(exc, "cfg")


def test_load_yaml_says_where_the_syntax_breaks_and_refuses_deep_nesting():
    with pytest.raises(BoundedInputError) as exc:
        load_yaml("a: [1, 2\nb: 3\n", "cfg")
    text = one_line(exc, "cfg")
    assert text.startswith("cfg: not valid YAML: ") and " at line " in text
    with pytest.raises(BoundedInputError) as exc:
        load_yaml("[" * (bounded.MAX_DEPTH + 1) + "]" * (bounded.MAX_DEPTH + 1), "cfg")
    assert "nested more than" in one_line(exc, "cfg")
    with pytest.raises(BoundedInputError):
        load_yaml("x" * (bounded.MAX_BYTES + 1), "cfg")
