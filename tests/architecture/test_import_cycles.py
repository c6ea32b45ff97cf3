"""No module of `companion/` imports itself round a cycle, counting the imports inside functions.

The floors (test_import_floors.py) keep packages apart; inside one package two modules could still
import each other, one of them late (inside a function) so that Python does not trip over it. Such
a pair is one module written as two: this test finds every cycle among the modules (an import
inside a function is a dependency like any other) and names it. `from companion.history import
foreign` is an import of the module `foreign`, not of the package.
"""

from __future__ import annotations

from pathlib import Path

from tests.architecture.test_import_floors import PACKAGE, ROOT, import_statements, module_name


def _module_of(path: Path) -> str:
    name = module_name(path)
    return name[:-len(".__init__")] if name.endswith(".__init__") else name


def _is_module(dotted: str) -> bool:
    base = ROOT.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def imported_modules(source: str, me: str, is_package: bool = False) -> set[str]:
    """Every `companion` module the source imports, anywhere in it; `from P import m` counts as an
    import of the module P.m when there is one, else of P."""
    package = me.split(".") if is_package else me.split(".")[:-1]
    found: set[str] = set()
    for _line, module, names in import_statements(source, package):
        found.update({f"{module}.{n}" if _is_module(f"{module}.{n}") else module for n in names} or {module})
    found.discard(me)
    return found


def import_graph() -> dict[str, set[str]]:
    graph = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        me = _module_of(path)
        graph[me] = imported_modules(path.read_text(encoding="utf-8"), me, path.name == "__init__.py")
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in graph:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(sorted(group))
    return found


def test_the_finder_finds_a_cycle_through_a_late_import():
    """The check itself: a late `from P import m` closes a cycle of three; a chain is no cycle."""
    a = imported_modules("from companion.history import plays\n", "companion.history.stats")
    b = imported_modules("def f():\n    from companion.history.stats import counted\n", "companion.history.plays")
    assert a == {"companion.history.plays"} and b == {"companion.history.stats"}
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_no_two_modules_import_each_other():
    found = cycles(import_graph())
    assert not found, "modules that import each other (split them by meaning, so imports go one way):\n" + \
        "\n".join(" <-> ".join(group) for group in found)
