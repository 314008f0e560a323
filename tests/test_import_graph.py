"""The import drawing has no circles: no module of ``phoneworld_gym`` (its ``tasks``,
``baselines`` and ``real_device`` included) imports, directly or through others, a module
that imports it back. Every import counts: at module level, inside a
function, and under ``if TYPE_CHECKING``. A part that needs its owner reaches it through a
protocol (``phoneworld_gym.host``, ``phoneworld_gym.system.intents.Receiver``)."""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: package name -> its folder
PACKAGES = {"phoneworld_gym": ROOT / "phoneworld_gym"}


def modules(packages: Mapping[str, Path]) -> dict[str, Path]:
    """Module name -> file, for every ``.py`` file under the packages."""
    out: dict[str, Path] = {}
    for pkg, folder in packages.items():
        for f in sorted(folder.rglob("*.py")):
            parts = list(f.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            name = ".".join([pkg, *parts])
            if not any(name.startswith(other + ".") or name == other
                       for other in packages if other != pkg and other.startswith(pkg + ".")):
                out[name] = f
    return out


def _imported(node: ast.AST, module: str, is_package: bool, known: Mapping[str, Path]
              ) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (a.name for a in node.names)
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            base = module.split(".") if is_package else module.split(".")[:-1]
            base = base[:len(base) - (node.level - 1)]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        for a in node.names:
            yield f"{source}.{a.name}" if f"{source}.{a.name}" in known else source


def import_graph(packages: Mapping[str, Path]) -> dict[str, set[str]]:
    """Module -> the modules of the packages it imports (anywhere in its file)."""
    known = modules(packages)

    def owner(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {m: set() for m in known}
    for m, f in known.items():
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            for name in _imported(node, m, f.name == "__init__.py", known):
                target = owner(name)
                if target is not None and target != m:
                    graph[m].add(target)
    return graph


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, without
    recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    group.append(m)
                    if m == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_the_import_drawing_has_no_circles():
    graph = import_graph(PACKAGES)
    assert len(graph) > 300  # every module was read, tasks, baselines and real_device too
    assert {"phoneworld_gym.compositor", "phoneworld_gym.input"} <= graph["phoneworld_gym.phone"]
    assert "phoneworld_gym.tasks.kit" in graph["phoneworld_gym.tasks.clock.alarms"] or \
        "phoneworld_gym.tasks.clock.common" in graph["phoneworld_gym.tasks.clock.alarms"]
    assert circles(graph) == []


def _write(root: Path, files: Mapping[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_check_finds_each_kind_of_circle(tmp_path):
    """Module level, inside a function, under TYPE_CHECKING, relative, through a package's
    ``__init__`` and through three modules: each is found; a one-way import is not."""
    _write(tmp_path / "pkg", {
        "__init__.py": "",
        "a.py": "from pkg import b\n",
        "b.py": "def f():\n    from pkg.a import x\n",
        "c.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.d import D\n",
        "d.py": "from . import c\n",
        "e.py": "import pkg.f\n",
        "f.py": "import pkg.g\n",
        "g.py": "from pkg.e import y\n",
        "h.py": "from pkg import a\n",  # one way: no circle
        "sub/__init__.py": "from pkg.sub import inner\n",
        "sub/inner.py": "from pkg.sub import other\n",
        "sub/other.py": "from pkg.sub import VALUE\n",
    })
    found = circles(import_graph({"pkg": tmp_path / "pkg"}))
    assert sorted(found) == [["pkg.a", "pkg.b"], ["pkg.c", "pkg.d"],
                             ["pkg.e", "pkg.f", "pkg.g"],
                             ["pkg.sub", "pkg.sub.inner", "pkg.sub.other"]]
