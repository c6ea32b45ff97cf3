"""The floors of `companion/`, as README states them, hold for every import in the package.

README's "How it is built" names the floors top down in one sentence ("Each floor of
`companion/` imports only from the floors below it: `bench/`; `kiosk/` and `web/`; ..."); this
test reads them from there, so the picture and the check are one text. Every import of
`companion.*` in every module (at the top or inside a function: a late import is still a
dependency) must go to the same package or to a lower floor; two packages on one floor (the
kiosk and the page) never import each other. A new package must be given its floor in README.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "companion"
ENTRY = {"__init__", "__main__"}  # the package's own entry points sit above every floor


def floors_from_readme(text: str) -> list[set[str]]:
    """The floors, top first: each a set of top-level names (`kiosk`, `cli`, `i18n`)."""
    m = re.search(r"Each\s+floor\s+of\s+`companion/`\s+imports\s+only\s+from\s+the\s+floors\s+below\s+it:\s*(.*?)\.\n",
                  text, re.S)
    assert m, "README no longer states the floors in one sentence ('Each floor of `companion/` ...')"
    floors = []
    for part in m.group(1).split(";"):
        names = {re.sub(r"(/|\.py)$", "", n) for n in re.findall(r"`([^`]+)`", part)}
        assert names, f"a floor without names in README: {part!r}"
        floors.append(names)
    return floors


def top_name(module: str) -> str:
    """`companion.kiosk.loop` -> `kiosk`; `companion.cli` -> `cli`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


def is_module(name: str) -> bool:
    return (PACKAGE / f"{name}.py").is_file() or (PACKAGE / name / "__init__.py").is_file()


def import_statements(source: str, package: list[str]) -> list[tuple[int, str, list[str]]]:
    """(line, module, the names a `from` import takes, [] for `import m`) for every import of
    companion.* in `source`, anywhere in it; relative ones resolved against `package` (the parts of
    the importing module's package)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, a.name, []) for a in node.names if a.name.split(".")[0] == "companion"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.split(".")[0] == "companion":
                found.append((node.lineno, module, [a.name for a in node.names]))
    return found


def imports_of(path: Path) -> list[tuple[int, str]]:
    """(line, module) for every import of companion.* in `path`, relative ones resolved."""
    here = module_name(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found = []
    for line, module, names in import_statements(path.read_text(encoding="utf-8"), package):
        if module == "companion" and names:  # `from companion import i18n` (a module), `__version__` (the package's)
            found += [(line, f"companion.{name}" if is_module(name) else "companion.__init__") for name in names]
        else:
            found.append((line, module))
    return found


def test_the_readme_floors_are_read():
    floors = floors_from_readme((ROOT / "README.md").read_text(encoding="utf-8"))
    assert {"kiosk", "web"} in floors and {"table", "checks"} in floors
    named = set().union(*floors)
    assert len(named) == sum(len(f) for f in floors), "a name on two floors"


def test_every_import_goes_down_a_floor():
    floors = floors_from_readme((ROOT / "README.md").read_text(encoding="utf-8"))
    level = {name: i for i, floor in enumerate(floors) for name in floor}
    unplaced, upward = set(), []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        me = top_name(module_name(path))
        if me in ENTRY:
            continue
        if me not in level:
            unplaced.add(me)
            continue
        for line, module in imports_of(path):
            other = top_name(module)
            if other == me or other in ENTRY:
                continue
            if other not in level:
                unplaced.add(other)
            elif level[other] <= level[me]:
                upward.append(f"{path.relative_to(ROOT)}:{line} imports {module} "
                              f"({me} is on floor {level[me] + 1}, {other} on floor {level[other] + 1}, top first)")
    assert not unplaced, f"not on any floor in README's sentence: {sorted(unplaced)}"
    assert not upward, "imports that do not go down a floor:\n" + "\n".join(upward)
