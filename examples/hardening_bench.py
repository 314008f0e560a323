"""Figures for the hardening work (issue 25), printed: how long text lays out, and how the
virtual adb phone holds up against clients that misbehave.

- **text**: CPU seconds to wrap an unbroken run of 1,000, 4,000 and 10,000 characters (16 sp
  Roboto, a full-width 1,080 px line, caches cleared); and one step of the phone (the action,
  the tree and a 540 x 1200 screenshot) that saves a contact whose first name was typed as ten
  ``input_text`` actions of 1,000 characters each (a field holds 5,000: Android's cap for a
  single-line ``EditText``), then the step back to the list that shows it.

    python examples/hardening_bench.py [text]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from phoneworld_gym import Action
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.ui.view import _wrap, dp, text_width, wrap


def cpu(fn: Callable[[], object]) -> float:
    """CPU seconds ``fn`` takes."""
    t = time.process_time()
    fn()
    return time.process_time() - t


def text_figures() -> None:
    """Wrapping long runs, and a step with a long name on screen."""
    for n in (1_000, 4_000, 10_000):
        _wrap.cache_clear()
        text_width.cache_clear()
        secs = cpu(lambda n=n: wrap("a" * n, dp(16), "regular", 1080))
        print(f"wrap an unbroken run of {n:>6,} characters: {secs:8.3f} s CPU", flush=True)

    device = PhoneWorldDevice(screenshot_size=(540, 1200))
    device.reset(0)

    def step(action: Action) -> float:
        def run() -> None:
            err = device.execute(action)
            assert not err, err
            device.a11y_xml()
            device.screenshot()
        return cpu(run)

    step(Action("open_app", app_name="Contacts"))
    ids = [e.resource_id or "" for e in device.ui_elements()]
    step(Action("click", index=ids.index("com.phoneworld.contacts:id/fab")))
    ids = [e.resource_id or "" for e in device.ui_elements()]
    first = ids.index("com.phoneworld.contacts:id/field_first")
    typing = max(step(Action("input_text", index=first if k == 0 else None, text="a" * 1000))
                 for k in range(10))
    held = len(device.screen.element_views[first].text)
    step(Action("input_text", index=ids.index("com.phoneworld.contacts:id/field_phone"),
                text="5551234"))
    save = step(Action("click", index=ids.index("com.phoneworld.contacts:id/save")))
    back = step(Action("navigate_back"))
    print(f"typing 10 x 1,000 characters into a name: slowest step {typing:.3f} s CPU; "
          f"the field holds {held:,}")
    print(f"the step that saves that contact: {save:.3f} s CPU; back to the list: {back:.3f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sections", nargs="*", default=["text"], choices=["text"],
                    help="which figures to print (all by default)")
    args = ap.parse_args()
    if "text" in args.sections:
        text_figures()


if __name__ == "__main__":
    main()
