"""Tasks generated for a rebuilt app from its recorded graph.

- **Reach** (``<App>Reach<screen>``): open the app and get to one recorded screen. Verified
  on the app's ``<name>/screen`` table (the screen shown) and the foreground package.
- **Fill then reach** (``<App>Fill<screen>K<key>``): type a value into a recorded text field
  and then take the recorded tap that leaves that screen (its Save, its next step).
  Verified on ``<name>/entered`` (the field holds the value) and the screen reached.

A reach goal names the screen by its first text; when other targets share it, the goal adds
the first text that tells this one apart, with the text before it (``go to the "Apps"
screen where "Bank" reads "Off" (s28)``). When the way to a screen types into a field (a
search that lists the screen's row), the goal says what to type (``..., typing "Sam" on the
way``): the explorer's sample texts are the task's params ``typed0``, ``typed1``, ...,
fixed for the task.

Oracles act through the UI: ``open_app``, then the recorded actions of the shortest path in
the graph, then ``status``. Each tap or typing is aimed at the element (contract index) on
the live screen whose centre hits the node the recorded point hit
(:func:`~phoneworld_gym.reconstruct.tree.element_index`; the recorded point when none does),
so that an element action space (``baselines.sb3.ElementActions``, behaviour cloning in
:mod:`~phoneworld_gym.reconstruct.retention`) can say every oracle step. A target is never
the app's first screen, so doing nothing fails. Each task class is made and registered by
:func:`register_generated`; its env id follows like any task's.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np

from phoneworld_gym.contract import Action, AgentReport
from phoneworld_gym.device import Device, Probe
from phoneworld_gym.reconstruct.explore import to_action
from phoneworld_gym.reconstruct.tree import OUTSIDE, element_index, informative
from phoneworld_gym.task import Task, get_task, register_task

#: values a fill task asks for
VALUES = ("Blue heron", "Maple 12", "Orion", "Saturday plan", "Kiwi")


def aimed(device: Device, a: dict[str, Any]) -> Action:
    """The recorded action ``a`` aimed by element index on ``device``'s screen now (see the
    module docstring), else at the recorded point."""
    act = to_action(a)
    if a["kind"] == "back":
        return act
    typing = a["kind"] == "input"
    i = element_index(device.a11y_xml(), a["x"], a["y"], editable=typing)
    if i is None:
        return act
    if typing:
        return Action("input_text", index=i, text=a["text"], clear_text=True)
    return Action("click", index=i)


def _restore(task_id: str, state: dict[str, Any]) -> Task:
    cls = get_task(task_id)
    task = cls.__new__(cls)
    task.__dict__.update(state)
    return task


class GeneratedTask(Task):
    """A task on a rebuilt app (see the module docstring)."""

    app_name: ClassVar[str]
    app_label: ClassVar[str]
    package: ClassVar[str]
    target: ClassVar[str]  #: the screen to end on
    path: ClassVar[tuple[dict[str, Any], ...]]  #: recorded actions from the first screen
    #: the sample texts the path types, in order (params ``typed0``, ...)
    typed: ClassVar[tuple[str, ...]] = ()
    max_steps = 0

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if "app_name" in cls.__dict__:  # typing on the way (a search) is no damage
            cls.may_change = (f"{cls.app_name}/entered",)

    def __reduce__(self) -> Any:
        return (_restore, (self.id, self.__dict__))  # classes made at run time: by id

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {f"typed{i}": t for i, t in enumerate(cls.typed)}

    def _at_target(self, device: Device) -> str | None:
        """Why the phone is not on the target screen (None when it is)."""
        if device.probe.foreground_app() != self.package:
            return f"{self.app_label} is not in front"
        rows = device.probe.query(f"{self.app_name}/screen")
        at = rows[0]["screen"] if rows else None
        if at != self.target:
            return f"{self.app_label} shows screen {at}, not {self.target}"
        return None

    def evaluate(self, device: Device, report: AgentReport) -> float:
        why = self._at_target(device)
        return self._fail(why) if why else 1.0

    def oracle(self, device: Device) -> Iterator[Action]:
        yield Action("open_app", app_name=self.app_label)
        for a in self.path:
            yield aimed(device, a)
        yield Action("status", goal_status="complete")


class GeneratedFillTask(GeneratedTask):
    """Fill one field, then reach the screen its form's tap leads to."""

    form: ClassVar[str]  #: the screen holding the field
    field_key: ClassVar[int]
    field_point: ClassVar[tuple[int, int]]
    leave: ClassVar[dict[str, Any]]  #: the recorded tap that leaves the form
    params_schema = {"value": str}

    @classmethod
    def generate_params(cls, rng: np.random.Generator, probe: Probe) -> dict[str, Any]:
        return {"value": VALUES[int(rng.integers(len(VALUES)))],
                **super().generate_params(rng, probe)}

    def evaluate(self, device: Device, report: AgentReport) -> float:
        entered = {r["_id"]: r["value"] for r in device.probe.query(f"{self.app_name}/entered")}
        got = entered.get(f"{self.form}:{self.field_key}")
        if got != self.params["value"]:
            return self._fail(f"the field holds {got!r}, not {self.params['value']!r}")
        return super().evaluate(device, report)

    def oracle(self, device: Device) -> Iterator[Action]:
        yield Action("open_app", app_name=self.app_label)
        for a in self.path:
            yield aimed(device, a)
        x, y = self.field_point
        field = {"kind": "input", "x": x, "y": y, "text": self.params["value"]}
        yield aimed(device, field)
        yield Action("navigate_back")  # the keyboard away, so the tap reaches the form
        yield aimed(device, self.leave)
        yield Action("status", goal_status="complete")

    def near_miss(self, device: Device) -> Iterator[Action]:
        """The right screen reached without typing the value."""
        yield Action("open_app", app_name=self.app_label)
        for a in self.path:
            yield aimed(device, a)
        yield aimed(device, self.leave)
        yield Action("status", goal_status="complete")


def _title(rec: Any, sid: str) -> str:
    """A short human name of a recorded screen: its first text, else its first description."""
    nodes = informative(rec.xml(sid))
    for attr in ("text", "content-desc"):
        for n in nodes:
            t = n.attrs.get(attr, "").strip()
            if t and not n.editable:
                return t[:40]
    return sid


def _texts(rec: Any, sid: str) -> dict[int, str]:
    """A screen's texts (else descriptions) by node key, fields left out."""
    out = {}
    for k, n in enumerate(informative(rec.xml(sid))):
        t = (n.attrs.get("text", "") or n.attrs.get("content-desc", "")).strip()
        if t and not n.editable:
            out[k] = t[:40]
    return out


def _telling(rec: Any, sid: str, others: list[str]) -> str:
    """What tells screen ``sid`` from ``others`` that share its title: the first text no
    other shows at that node, with the text before it (``' where "Bank" reads "Off"'``);
    "" when there are no others or nothing tells them apart."""
    if not others:
        return ""
    mine = _texts(rec, sid)
    theirs = [_texts(rec, o) for o in others]
    keys = sorted(mine)
    for j, k in enumerate(keys):
        if all(t.get(k) != mine[k] for t in theirs):
            if j and mine[keys[j - 1]] != mine[k]:
                return f' where "{_fmt(mine[keys[j - 1]])}" reads "{_fmt(mine[k])}"'
            return f' showing "{_fmt(mine[k])}"'
    return ""


def generated_tasks(app: Any, max_reach: int = 6, max_fill: int = 3) -> list[type[Task]]:
    """Task classes for a rebuilt app (``RecordedApp``): reach tasks for up to ``max_reach``
    screens (the farthest first, then by discovery), fill tasks for up to ``max_fill``
    fields whose form has a recorded tap that leaves it."""
    rec = app.recording
    paths = rec.paths()
    stem = "".join(w.capitalize() for w in app.name.split("_"))
    base: dict[str, Any] = {"apps": (app.name,), "app_name": app.name, "app_label": app.label,
                            "package": app.package, "tags": ("rebuilt",),
                            "__module__": __name__}
    out: list[type[Task]] = []
    targets = sorted((s for s in paths if paths[s] and not _back_only(paths[s])),
                     key=lambda s: (-len(paths[s]), int(s[1:])))[:max_reach]
    titles = {sid: _title(rec, sid) for sid in targets}
    for sid in sorted(targets, key=lambda s: int(s[1:])):
        path = tuple(rec.actions[(src, a)] for src, a in steps_of(rec, paths[sid]))
        telling = _telling(rec, sid, [o for o in targets
                                      if o != sid and titles[o] == titles[sid]])
        typed = _typed(path)
        out.append(type(f"{stem}Reach{sid}", (GeneratedTask,), {
            **base, "id": f"{stem}Reach{sid}", "target": sid, "path": path, "typed": typed,
            "params_schema": {f"typed{i}": str for i in range(len(typed))},
            "optimal_steps": len(path) + 2, "difficulty": "easy" if len(path) < 3 else "medium",
            "template": f'In {app.label}, go to the "{_fmt(titles[sid])}" screen{telling} '
                        f'({sid}){_on_the_way(typed, ", typing {} on the way")}.'}))
    fills = 0
    for sid in rec.screen_ids:
        if fills >= max_fill or sid not in paths:
            break_now = fills >= max_fill
            if break_now:
                break
            continue
        for k, n in enumerate(informative(rec.xml(sid))):
            if not n.editable or rec.next(sid, f"input:{k}") not in (sid, None):
                continue
            leave = next(((a, d) for (s, a), d in sorted(rec.edges.items())
                          if s == sid and a.startswith("click:") and d not in (sid, OUTSIDE)
                          and d in paths), None)
            if leave is None:
                continue
            path = tuple(rec.actions[(src, a)] for src, a in steps_of(rec, paths[sid]))
            what = n.attrs.get("hint") or n.attrs.get("resource-id", "").split("/")[-1] \
                or f"field {k}"
            typed = _typed(path)
            out.append(type(f"{stem}Fill{sid}K{k}", (GeneratedFillTask,), {
                **base, "id": f"{stem}Fill{sid}K{k}", "target": leave[1], "path": path,
                "typed": typed, "form": sid, "field_key": k, "field_point": n.centre,
                "params_schema": {"value": str,
                                  **{f"typed{i}": str for i in range(len(typed))}},
                "leave": rec.actions[(sid, leave[0])], "optimal_steps": len(path) + 5,
                "difficulty": "medium",
                "template": f'In {app.label}, type "{{value}}" into the "{_fmt(what)}" field '
                            f'of screen {sid}'
                            f'{_on_the_way(typed, " (typing {} on the way there)")}, '
                            f'then go on to screen {leave[1]}.'}))
            fills += 1
            break
    return out


def _typed(path: tuple[dict[str, Any], ...]) -> tuple[str, ...]:
    """The distinct texts a path types, in order."""
    out: list[str] = []
    for a in path:
        if a["kind"] == "input" and a["text"] not in out:
            out.append(a["text"])
    return tuple(out)


def _on_the_way(typed: tuple[str, ...], phrase: str) -> str:
    """``phrase`` naming the typed params (``"{typed0}" then "{typed1}"``); "" for none."""
    if not typed:
        return ""
    return phrase.format(" then ".join(f'"{{typed{i}}}"' for i in range(len(typed))))


def _fmt(s: str) -> str:
    return s.replace("{", "(").replace("}", ")")


def _back_only(path: list[str]) -> bool:
    return all(a == "back" for a in path)


def steps_of(rec: Any, path: list[str]) -> list[tuple[str, str]]:
    """(screen, action) along a path of action ids from the root."""
    out, sid = [], rec.root
    for a in path:
        out.append((sid, a))
        sid = rec.next(sid, a)
    return out


def register_generated(app: Any) -> list[str]:
    """Register the generated tasks of a rebuilt app; their ids."""
    return [register_task(cls).id for cls in generated_tasks(app)]
