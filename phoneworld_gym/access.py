"""What a task sees of the phone.

The env hands every task a :class:`TaskDevice`: the device's observations, write verbs,
fixtures and probe, and nothing else (no world, no stores, no apps). It records each verb and
probe the task uses. With ``common_only=True`` it serves only what a real phone serves over
adb, so running a task that way tells, by construction, whether it runs on a phone:
:func:`phoneworld_gym.readiness.phone_ready` does exactly that.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from phoneworld_gym.device import Device, Probe, Row, Unsupported, is_common, view_state


class _Uses:
    """The verbs and probes a task used, each marked common (a phone has it) or not."""

    def __init__(self, common_only: bool):
        self.common_only = common_only
        self.names: dict[str, bool] = {}

    def add(self, name: str, common: bool) -> None:
        self.names[name] = common
        if self.common_only and not common:
            raise Unsupported(f"{name} is PhoneWorld-only (a real phone cannot serve it)")


class TaskProbe:
    """A probe that records what it is asked (see :class:`TaskDevice`)."""

    def __init__(self, probe: Probe, uses: _Uses):
        self._probe, self._uses = probe, uses

    def contacts(self) -> list[Row]:
        self._uses.add("probe.contacts", True)
        return self._probe.contacts()

    def foreground_app(self) -> str:
        self._uses.add("probe.foreground_app", True)
        return self._probe.foreground_app()

    def setting(self, namespace: str, key: str) -> str | None:
        self._uses.add("probe.setting", True)
        return self._probe.setting(namespace, key)

    def now(self) -> str:
        self._uses.add("probe.now", True)
        return self._probe.now()

    def query(self, table: str) -> list[Row]:
        self._uses.add(f"probe.query({table})", is_common(table))
        return self._probe.query(table)

    def tables(self) -> list[str]:
        names = self._probe.tables()
        return [t for t in names if is_common(t)] if self._uses.common_only else names

    def view_state(self) -> dict[str, tuple[str, ...]]:
        """The wrapped probe's view-state columns (:func:`device.view_state`), of the common
        tables only when serving as a real phone would."""
        view = view_state(self._probe)
        return {t: c for t, c in view.items() if is_common(t)} if self._uses.common_only \
            else view

    def snapshot(self) -> Mapping[str, list[Row]]:
        if self._uses.common_only:
            return {t: self._probe.query(t) for t in self.tables()}
        return self._probe.snapshot()


class TaskDevice:
    """The device as a task may use it: observations, write verbs, fixtures and the probe."""

    def __init__(self, device: Device, *, common_only: bool = False):
        self._device = device
        self._uses = _Uses(common_only)
        self.kind = device.kind
        self.probe = TaskProbe(device.probe, self._uses)

    @property
    def uses(self) -> dict[str, bool]:
        """Each verb and probe used so far -> whether a real phone has it."""
        return dict(self._uses.names)

    def screenshot(self) -> np.ndarray:
        return self._device.screenshot()

    def a11y_xml(self) -> str:
        return self._device.a11y_xml()

    def insert(self, table: str, row: Row) -> Any:
        self._uses.add(f"insert({table})", is_common(table))
        return self._device.insert(table, row)

    def update(self, table: str, row_id: Any, values: Row) -> None:
        self._uses.add(f"update({table})", is_common(table))
        self._device.update(table, row_id, values)

    def delete(self, table: str, row_id: Any) -> None:
        self._uses.add(f"delete({table})", is_common(table))
        self._device.delete(table, row_id)

    def put_setting(self, namespace: str, key: str, value: str) -> None:
        self._uses.add("put_setting", True)
        self._device.put_setting(namespace, key, value)

    def push_file(self, path: str, data: bytes) -> None:
        self._uses.add("push_file", True)
        self._device.push_file(path, data)

    def fixture(self, app: str, name: str, /, **args: Any) -> Any:
        self._uses.add(f"fixture({app}.{name})", False)
        return self._device.fixture(app, name, **args)
