"""README's commands say what the program does (issue 53, item 9): the bench's row lists every name
`companion bench --only` takes (it left out `camera`), so does the benchmarks' section of
docs/developing.md, and the quick test run's sentence says it needs the `[test]` extra."""

from __future__ import annotations

import re
from pathlib import Path

from tests.support import run_cli

ROOT = Path(__file__).resolve().parents[2]


def bench_names() -> list[str]:
    """The names `companion bench --only` takes, as its --help lists them."""
    status, out, _ = run_cli("bench", "--help")
    assert status == 0
    choices = re.search(r"--only \{([^}]*)\}", out)
    assert choices, out
    return choices.group(1).split(",")


def test_readme_and_the_guide_list_every_benchmark_by_its_name():
    names = bench_names()
    assert "camera" in names and "latency" in names
    readme = (ROOT / "README.md").read_text("utf-8")
    row = re.search(r"\| `companion bench \[--only ([^\]`]*)\]`", readme)
    assert row, "README's commands have no `companion bench [--only ...]` row"
    assert row.group(1).split("\\|") == names, f"README's bench row lists {row.group(1)!r}, the bench takes {names}"
    guide = (ROOT / "docs" / "developing.md").read_text("utf-8")
    listed = re.search(r"with `--only ([a-z|]+)`", guide)
    assert listed and listed.group(1).split("|") == names, "docs/developing.md's benchmarks list other names"


def test_the_quick_run_says_it_needs_the_test_extra():
    for guide in ("README.md", "docs/developing.md"):
        paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", (ROOT / guide).read_text("utf-8"))]
        sentences = [s for p in paragraphs for s in re.split(r"(?<=\.)\s+", p)]
        (sentence,) = [s for s in sentences if '-m "not slow"' in s and "quick run" in s]
        assert "[test]" in sentence, f"{guide}: the quick run's sentence does not say it needs the [test] extra"
