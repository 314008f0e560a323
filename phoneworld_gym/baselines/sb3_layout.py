"""The layout that :mod:`phoneworld_gym.baselines.sb3`'s ``ElementActions`` wrapper and the
torch policy of :mod:`phoneworld_gym.baselines.sb3_policy` share: the fixed actions after
the element blocks and the named per-element features. Plain data, so that the policy does
not import the wrapper's module (nor the wrapper the policy's).
"""

from __future__ import annotations

#: the fixed actions after the element blocks, in order
FIXED_ACTIONS: tuple[str, ...] = ("scroll down", "scroll up", "back", "home", "complete",
                                  "infeasible")
#: element class one-hot buckets (by the class name's last part); anything else is "other"
CLASSES: tuple[str, ...] = ("TextView", "Button", "ImageButton", "ImageView", "EditText",
                            "Switch", "CheckBox", "RadioButton", "SeekBar", "RecyclerView",
                            "ScrollView", "other")
_FLAGS = ("tappable", "clickable", "editable", "checkable", "checked", "selected",
          "scrollable", "focused", "enabled")
#: the named per-element features, before the value matches and the hashed token bags
ELEMENT_FEATURES: tuple[str, ...] = (
    "present", *_FLAGS, "x_min", "y_min", "x_max", "y_max",
    *(f"class_{c}" for c in CLASSES), "has_text",
    "goal_cover",     # share of the element's tokens that are in the goal
    "goal_recall",    # share of the goal's tokens that are in the element
    "in_goal",        # the element's whole text appears in the goal
    "row_checkable",  # its parent holds another checkable node (a switch on its row)
    "row_checked",    # ... and that node is checked
)
