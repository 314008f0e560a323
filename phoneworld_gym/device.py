"""The verbs every backend implements (PhoneWorld, adb phones, android_env emulators).

A :class:`Device` resets, shows its screen (pixels and accessibility XML), executes
:class:`~phoneworld_gym.contract.Action` s and answers a :class:`Probe` for verifiers.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from phoneworld_gym.contract import Action


@runtime_checkable
class Probe(Protocol):
    """Typed read access to the state a verifier needs.

    The common probes (``contacts``, ``foreground_app``, ``setting``) can be answered by a real
    phone over adb; ``app_store`` reads a PhoneWorld app's own store and exists only there.
    """

    def contacts(self) -> list[dict[str, Any]]:
        """Rows with Android contacts-provider columns: ``_id``, ``display_name``, ``number``,
        ``email``, ``starred``, ``postal_address``."""
        ...

    def foreground_app(self) -> str:
        """The package of the app in front (``com.android.launcher`` on the home screen)."""
        ...

    def setting(self, namespace: str, key: str) -> str | None:
        """``settings get NAMESPACE KEY`` (``None`` when unset)."""
        ...

    def app_store(self, app: str) -> dict[str, Any]:
        """A deep copy of a PhoneWorld app's store (``KeyError`` on real devices)."""
        ...


@runtime_checkable
class Device(Protocol):
    """One phone: simulated, over adb, or an emulator."""

    #: "phoneworld", "adb" or "android_env"
    kind: str

    def reset(self, seed: int) -> None:
        """Return to a clean start state, deterministic from ``seed`` where the backend can."""
        ...

    def screenshot(self) -> np.ndarray:
        """``uint8`` array (H, W, 3) at the device's screenshot size."""
        ...

    def a11y_xml(self) -> str:
        """The accessibility tree as ``uiautomator dump`` XML."""
        ...

    def execute(self, action: Action) -> str:
        """Perform an action; return an error sentence when it was meaningless, else ``""``."""
        ...

    @property
    def probe(self) -> Probe:
        """Read access for verifiers."""
        ...
