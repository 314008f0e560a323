"""The app kit's boundaries, read from the source of every app, the UI toolkit and the system
layer (registry-driven: a new file is checked without new test code):

- no code there reaches into the world (``ctx.world``, in any form: an attribute or item
  written, a method called on it, a value read): apps change the back stack and the keyboard
  focus through :class:`~phoneworld_gym.app.Ctx`'s verbs and read through its accessors;
- no file under ``ui/`` or ``system/`` imports an app (the engine owns what it needs, as
  ``system/settings.py`` owns the settings provider the Settings app shows).

The checker is shown to catch each form on small snippets; the verbs it steers apps to are
checked on a bare world below.
"""

from __future__ import annotations

import ast
import os
from typing import Any

import pytest

from phoneworld_gym.app import App
from phoneworld_gym.ctx import Ctx
from phoneworld_gym.world import LAUNCHER, World

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG = os.path.join(ROOT, "phoneworld_gym")
#: the layers checked: apps may not reach into the world; ui/ and system/ may not import apps
LAYERS = ("apps", "ui", "system")
ENGINE_LAYERS = ("ui", "system")
APPS_PKG = "phoneworld_gym.apps"
#: methods that change the list or dict they are called on
MUTATORS = {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault",
            "popitem", "sort", "reverse", "add", "discard"}
#: methods that only read
READERS = {"get", "keys", "values", "items", "copy", "index", "count"}


def _source_files(layer: str) -> list[str]:
    out = []
    for dirpath, dirs, files in os.walk(os.path.join(PKG, layer)):
        dirs[:] = [d for d in dirs if d != "__pycache__" and not d.startswith(".")]
        out += [os.path.join(dirpath, f) for f in files if f.endswith(".py")]
    return sorted(out)


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def _how(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> tuple[str, ast.AST]:
    """How the expression chain that starts at ``node`` (``ctx.world``) is used: "writes"
    (assigned, augmented or deleted, at any depth: ``ctx.world.stacks[a][-1] = e``),
    "changes" (a mutating method called on it: ``ctx.world.stacks[a].append(e)``), "calls"
    (another method of it: ``ctx.world.bring_to_front(app)``) or "reads"; with the
    outermost expression of the chain."""
    top = node
    while True:
        up = parents.get(top)
        if isinstance(up, (ast.Attribute, ast.Subscript)) and up.value is top:
            top = up
        elif isinstance(up, ast.Call) and up.func is top:
            if isinstance(top, ast.Attribute) and top.attr in MUTATORS:
                return "changes", up
            if isinstance(top, ast.Attribute) and top.attr not in READERS:
                return "calls", up  # a world method: bring_to_front, open_store, ...
            top = up
        else:
            break
    if isinstance(getattr(top, "ctx", None), (ast.Store, ast.Del)):
        return "writes", top
    up = parents.get(top)
    if isinstance(up, ast.AugAssign) and up.target is top:
        return "writes", top
    return "reads", top


def world_reaches(source: str, filename: str = "<app>") -> list[str]:
    """Every place the source reaches into the world: an attribute ``.world`` of anything (a
    screen's ``ctx``, another context) or ``getattr(x, "world")``, saying whether it
    writes, changes, calls or reads it."""
    tree = ast.parse(source, filename)
    parents = _parents(tree)
    bad = []
    for node in ast.walk(tree):
        hit = isinstance(node, ast.Attribute) and node.attr == "world"
        hit = hit or (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                      and node.func.id in ("getattr", "setattr", "delattr")
                      and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                      and node.args[1].value == "world")
        if hit:
            how, top = _how(node, parents)
            bad.append(f"{filename}:{node.lineno}: {how} {ast.unparse(top)}")
    return bad


def _resolve(module: str | None, level: int, package: str) -> str:
    """The absolute name of a (possibly relative) ``from`` import in ``package``."""
    if not level:
        return module or ""
    base = package.split(".")
    base = base[:len(base) - level + 1]
    return ".".join([*base, module] if module else base)


def _is_apps(name: str) -> bool:
    return name == APPS_PKG or name.startswith(APPS_PKG + ".")


def app_imports(source: str, filename: str = "<engine>",
                package: str = "phoneworld_gym.system") -> list[str]:
    """Every import of an app (``phoneworld_gym.apps`` or below) in a module of
    ``package``: ``import``, ``from ... import`` (relative ones resolved), ``from
    phoneworld_gym import apps`` and ``importlib.import_module("phoneworld_gym.apps...")``."""
    bad = []
    for node in ast.walk(ast.parse(source, filename)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = _resolve(node.module, node.level, package)
            names = [module] + [f"{module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str) \
                and ast.unparse(node.func) in ("import_module", "importlib.import_module",
                                               "__import__"):
            names = [node.args[0].value]
        hit = next((n for n in names if _is_apps(n)), None)
        if hit is not None:
            bad.append(f"{filename}:{node.lineno}: imports {hit}")
    return bad


def _package_of(path: str) -> str:
    rel = os.path.relpath(os.path.dirname(path), ROOT)
    return rel.replace(os.sep, ".")


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return f.read()


# -- the registry ------------------------------------------------------------------------------
@pytest.mark.parametrize("layer", LAYERS)
def test_no_code_reaches_into_the_world(layer):
    files = _source_files(layer)
    assert files, layer
    bad = [b for path in files for b in world_reaches(_read(path), os.path.relpath(path, ROOT))]
    assert not bad, ("use Ctx's verbs and accessors (push(state=...), pop(result=...), below, "
                     "depth, activities(), clear_focus(), settings, ...):\n" + "\n".join(bad))


@pytest.mark.parametrize("layer", ENGINE_LAYERS)
def test_the_engine_imports_no_app(layer):
    files = _source_files(layer)
    assert files, layer
    bad = [b for path in files for b in app_imports(_read(path), os.path.relpath(path, ROOT),
                                                     _package_of(path))]
    assert not bad, "the engine must not import an app:\n" + "\n".join(bad)


# -- the checker catches each form -------------------------------------------------------------
@pytest.mark.parametrize("snippet, how", [
    ("ctx.world.focus = None", "writes ctx.world.focus"),
    ("ctx.world.stacks[ctx.app.name][-1]['state'] = {}", "writes ctx.world.stacks"),
    ("ctx.world.stacks[ctx.host.name][-1]['state'].update(s)", "changes ctx.world.stacks"),
    ("ctx.world.stacks[ctx.app.name].append(entry)", "changes ctx.world.stacks"),
    ("del ctx.world.stacks['shopping']", "writes ctx.world.stacks"),
    ("ctx.world.clipboard += 'x'", "writes ctx.world.clipboard"),
    ("ctx.world.bring_to_front(app)", "calls ctx.world.bring_to_front(app)"),
    ("n = len(ctx.world.stacks.get(ctx.app.name, []))", "reads ctx.world.stacks.get"),
    ("w = ctx.world", "reads ctx.world"),
    ("below = Ctx(ctx.world, ctx.app, entry)", "reads ctx.world"),
    ("self.ctx.world.focus = None", "writes self.ctx.world.focus"),
    ("getattr(ctx, 'world').focus = None", "writes getattr(ctx, 'world').focus"),
])
def test_checker_catches_each_way_into_the_world(snippet, how):
    bad = world_reaches(f"def h(ctx, entry, s, app):\n    {snippet}\n", "x.py")
    assert len(bad) == 1 and how in bad[0] and bad[0].startswith("x.py:2: "), bad


@pytest.mark.parametrize("snippet", [
    "ctx.push('restaurant', id=3, state={'_dialog': 'options'})",
    "ctx.pop({'address_id': 4})",
    "below = ctx.below\nbelow.state['atts'] = []",
    "ctx.clear_focus()",
    "world = make_world()\nworld.focus = None",  # a name, as the system layer's functions take
    "from phoneworld_gym.world import DEFAULT_CLOCK",
])
def test_checker_passes_the_verbs(snippet):
    assert world_reaches(snippet) == []


@pytest.mark.parametrize("snippet, package", [
    ("from phoneworld_gym.apps.settings import store as settings_store", "phoneworld_gym.system"),
    ("from phoneworld_gym.apps.settings.store import DEFAULTS", "phoneworld_gym.ui"),
    ("import phoneworld_gym.apps.shopping.store", "phoneworld_gym.ui"),
    ("from phoneworld_gym import apps", "phoneworld_gym.system"),
    ("from phoneworld_gym.apps import settings", "phoneworld_gym.system"),
    ("from ..apps.settings import store", "phoneworld_gym.system"),
    ("from .. import apps", "phoneworld_gym.ui"),
    ("importlib.import_module('phoneworld_gym.apps.settings.store')", "phoneworld_gym.system"),
])
def test_checker_catches_each_app_import(snippet, package):
    bad = app_imports(snippet + "\n", "chrome.py", package)
    assert len(bad) == 1 and "imports phoneworld_gym.apps" in bad[0], bad


@pytest.mark.parametrize("snippet", [
    "from phoneworld_gym.ctx import Ctx",  # the app framework, not an app
    "from phoneworld_gym.system import settings",
    "from . import widgets as w",
    "import phoneworld_gym.appdoc",
])
def test_checker_passes_engine_imports(snippet):
    assert app_imports(snippet, "x.py", "phoneworld_gym.ui") == []


# -- the verbs, on a bare world ----------------------------------------------------------------
def _screen(ctx: Ctx) -> Any:
    raise AssertionError("not drawn here")


class _Demo(App):
    name = "demo"
    label = "Demo"
    package = "com.phoneworld.demo"
    main_screen = "home"
    screens = {"home": _screen, "list": _screen, "pick": _screen}


def _world(*screens: str) -> tuple[World, Ctx]:
    w = World(stores={"demo": {}, "other": {}}, foreground="demo", recents=["demo", "other"],
              stacks={"demo": [{"screen": s, "args": {}, "state": {}} for s in screens],
                      "other": [{"screen": "main", "args": {}, "state": {}}]})
    return w, Ctx(w, _Demo(), w.stacks["demo"][-1])


def test_push_with_state_and_pop_with_a_result():
    w, ctx = _world("home", "list")
    w.focus = "q"
    ctx.push("pick", state={"_dialog": "options"}, id=3)
    assert w.stacks["demo"][-1] == {"screen": "pick", "args": {"id": 3},
                                    "state": {"_dialog": "options"}}
    assert w.focus is None and ctx.depth == 3
    top = Ctx(w, ctx.app, w.stacks["demo"][-1])
    assert top.below is not None and top.below.entry is w.stacks["demo"][1]
    top.pop({"picked": 7}, args={"role": "to"})
    assert w.stacks["demo"][-1] == {"screen": "list", "args": {"role": "to"},
                                    "state": {"picked": 7}}
    with pytest.raises(KeyError):
        ctx.push("nowhere")


def test_replace_with_state_reset_to_root_and_reload():
    w, ctx = _world("home", "list")
    ctx.replace("pick", state={"_fields": {"amount": "5"}}, amount=5)
    assert [e["screen"] for e in w.stacks["demo"]] == ["home", "pick"]
    assert w.stacks["demo"][-1]["state"] == {"_fields": {"amount": "5"}}
    root = ctx.activities()[0]
    root.state["x"] = 1
    root.reload(tab=2)
    assert w.stacks["demo"][0] == {"screen": "home", "args": {"tab": 2}, "state": {}}
    ctx.reset_to_root(tab=1)
    assert w.stacks["demo"] == [{"screen": "home", "args": {"tab": 1}, "state": {}}]
    last = Ctx(w, ctx.app, w.stacks["demo"][0])
    assert last.below is None and last.depth == 1
    last.pop({"lost": True})  # nothing below: leaves the app, hands nothing back
    assert w.foreground == LAUNCHER and w.stacks["demo"][0]["state"] == {}


def test_focus_verbs_and_accessors():
    w, ctx = _world("home")
    w.keyboard_layer, w.shift = "symbols", True
    ctx.set_focus("q")
    assert (ctx.focus, w.keyboard_layer, w.shift) == ("q", "letters", False)
    w.keyboard_layer = "symbols"
    ctx.set_focus("q")  # the same field again keeps the keyboard's page
    assert w.keyboard_layer == "symbols"
    ctx.clear_focus()
    assert ctx.focus is None
    assert ctx.previous_app() == "other"
    assert ctx.installed() == ["demo", "other"]
    assert ctx.settings is w.settings
