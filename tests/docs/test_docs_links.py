"""Every relative link and image in the Markdown guides resolves: the file exists inside the
repository, and an anchor (`file.md#anchor`, `#anchor`) names a heading of that file, as
GitHub spells heading anchors. README.md is the front door; the guides live in docs/."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUIDES = sorted({ROOT / "README.md", ROOT / "hardware.md", *ROOT.glob("docs/*.md"),
                 *ROOT.glob("firmware/**/README.md")})
LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose(text: str) -> list[tuple[int, str]]:
    """The lines outside fenced and indented code blocks, inline code spans blanked."""
    lines, inside, blank_before = [], False, True
    for n, line in enumerate(text.split("\n"), start=1):
        if FENCE.match(line):
            inside = not inside
            continue
        if inside:
            continue
        if line.startswith("    ") and blank_before and not line.lstrip().startswith(("-", "|")):
            continue  # an indented code block (stays one while its lines stay indented)
        blank_before = line.strip() == "" or (line.startswith("    ") and blank_before)
        lines.append((n, re.sub(r"`[^`]*`", "``", line)))
    return lines


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip())  # a link's label
    text = re.sub(r"[`*_]", "", text.lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    inside = False
    for line in path.read_text().split("\n"):
        if FENCE.match(line):
            inside = not inside
            continue
        m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if m and not inside:
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    found |= set(re.findall(r"<a\s+(?:name|id)=\"([^\"]+)\"", path.read_text()))
    return found


def broken_links(path: Path, root: Path = ROOT) -> list[str]:
    bad = []
    for n, line in prose(path.read_text()):
        for m in LINK.finditer(line):
            target = m.group(2)
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, https:, mailto:
                continue
            file_part, _, anchor = target.partition("#")
            dest = (path.parent / file_part).resolve() if file_part else path
            where = f"{path.relative_to(root)}:{n}: {target}"
            if not dest.is_relative_to(root):
                bad.append(f"{where}: points outside the repository")
            elif not dest.exists():
                bad.append(f"{where}: no such file")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                bad.append(f"{where}: no heading #{anchor} in {dest.relative_to(root)}")
    return bad


def test_the_guides_exist():
    for name in ("playing.md", "box.md", "page-and-exports.md", "developing.md", "contracts.md"):
        assert (ROOT / "docs" / name).is_file(), name


@pytest.mark.parametrize("path", GUIDES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(path):
    assert broken_links(path) == []


def test_readme_is_the_front_door():
    text = (ROOT / "README.md").read_text()
    assert text.count("\n") < 200
    for guide in ("docs/playing.md", "docs/box.md", "docs/page-and-exports.md", "docs/developing.md",
                  "docs/contracts.md"):
        assert f"]({guide})" in text, f"README links no {guide}"
    # the two commands for a fresh machine, verbatim (.ci/run runs the second one)
    assert "    python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/companion run\n" in text
    test_command = "python3 -m venv .venv && .venv/bin/pip install -q '.[test]' && .venv/bin/python -m pytest"
    assert f"    {test_command}\n" in text
    assert f"\n{test_command}\n" in (ROOT / ".ci" / "run").read_text()
    assert re.search(r"!\[[^\]]*\]\(docs/(screens/en|phone)/[^)]+\.png\)", text), "README shows no picture"
    # the OLED's Phone view screen says "see README: Phone view"
    assert "\n### Phone view\n" in text or "\n## Phone view" in text


def test_the_checker_finds_a_broken_link(tmp_path):
    (tmp_path / "a.md").write_text("# A b\n\n[ok](#a-b) [gone](b.md) [nohead](a.md#c) [out](../x.md)\n"
                                   "\n    [code](nowhere.md)\n\n`[span](nowhere.md)`\n")
    bad = broken_links(tmp_path / "a.md", root=tmp_path)
    assert [b.split(": ", 2)[-1] for b in bad] == [
        "no such file", "no heading #c in a.md", "points outside the repository"]
