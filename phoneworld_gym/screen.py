"""One laid-out frame of the simulated phone, and the observations read from it.

The screenshot is drawn from :attr:`Screen.root`, the accessibility XML is dumped from it and
taps are hit-tested against it, so what is drawn, what the tree says and what a tap hits
never disagree.
"""

from __future__ import annotations

from phoneworld_gym.contract import UIElement, parse_ui_elements
from phoneworld_gym.ui.dump import indexed_views, to_xml
from phoneworld_gym.ui.view import TextField, View


class Screen:
    """One laid-out frame: the view tree, the foreground package and the indexed elements."""

    def __init__(self, root: View, package: str, *, dark: bool = False):
        self.root = root
        self.package = package
        #: the app draws a dark theme of its own (the system's dark theme leaves it alone)
        self.dark = dark
        self._xml: str | None = None
        self._elements: list[UIElement] | None = None
        self._element_views: list[View] | None = None

    @property
    def xml(self) -> str:
        """The accessibility tree as ``uiautomator dump`` XML."""
        if self._xml is None:
            self._xml = to_xml(self.root, self.package)
        return self._xml

    @property
    def elements(self) -> list[UIElement]:
        """The indexed UI elements of :attr:`xml` (AndroidWorld's filter)."""
        if self._elements is None:
            self._elements = parse_ui_elements(self.xml)
        return self._elements

    @property
    def element_views(self) -> list[View]:
        """The views behind :attr:`elements`, index for index (the same filter)."""
        if self._element_views is None:
            self._element_views = indexed_views(self.root)
        return self._element_views

    def text_field(self, key: str | None) -> TextField | None:
        """The text field with this focus key on screen, if any."""
        if key is None:
            return None
        for v in self.root.walk():
            if isinstance(v, TextField) and v.key == key:
                return v
        return None
