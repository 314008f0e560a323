"""What the parts of the simulated phone need of the device that holds them.

:class:`~phoneworld_gym.phone.PhoneWorldDevice` is one object made of parts: the
:class:`~phoneworld_gym.compositor.Compositor` builds its frames and the
:class:`~phoneworld_gym.input.InputDispatcher` carries out actions on them. Each part is
handed the device and reaches it only through the protocol below that names what it uses,
so neither part imports the device's module (the import drawing has no circle).
"""

from __future__ import annotations

from typing import Protocol

from phoneworld_gym.app import App
from phoneworld_gym.screen import Screen
from phoneworld_gym.world import World


class Keyboard(Protocol):
    """The soft keyboard's keys (the input dispatcher's :meth:`type_key`)."""

    def type_key(self, key: str) -> None: ...


class Drawer(Protocol):
    """What the input dispatcher asks the compositor: the launcher's app drawer, and whether
    a runtime permission dialog covers the screen."""

    def home_showing(self) -> bool: ...

    def open_drawer(self) -> None: ...

    def pending_permission(self) -> tuple[str, str] | None: ...


class SystemKeys(Protocol):
    """The world, the installed apps and the system's own verbs: launch an app, Home, Back."""

    @property
    def world(self) -> World: ...

    apps: dict[str, App]

    def open_app(self, name: str) -> str: ...

    def home(self) -> None: ...

    def back(self) -> None: ...


class FrameHost(SystemKeys, Protocol):
    """What the compositor uses: the system verbs above, Overview, and the keyboard."""

    @property
    def dispatcher(self) -> Keyboard: ...

    def overview(self) -> None: ...


class InputHost(SystemKeys, Protocol):
    """What the input dispatcher uses: the system verbs, the current frame, the drawer, and
    the device's bookkeeping around an action (:meth:`reaching` before, :meth:`touched`
    after)."""

    @property
    def screen(self) -> Screen: ...

    @property
    def compositor(self) -> Drawer: ...

    def reaching(self) -> None: ...

    def touched(self) -> None: ...
