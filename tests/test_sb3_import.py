"""Importing and using ``ElementActions`` needs neither torch nor Stable-Baselines3: the policy
half of ``phoneworld_gym.baselines.sb3`` loads only when one of its names is asked for."""

from __future__ import annotations

import subprocess
import sys

BLOCKED = ("torch", "stable_baselines3", "sb3_contrib")

SCRIPT = f"""
import sys
for name in {BLOCKED!r}:
    sys.modules[name] = None  # any import of these now raises ImportError
import gymnasium, phoneworld_gym
from phoneworld_gym.baselines.sb3 import ElementActions, FIXED_ACTIONS, goal_values
env = ElementActions(gymnasium.make("PhoneWorld/MessagesCountUnread-v0", obs_mode="a11y"))
obs, info = env.reset(seed=0)
mask = env.action_masks()
assert mask.any() and env.action_space.contains(int(mask.nonzero()[0][0]))
obs, reward, term, trunc, info = env.step(int(mask.nonzero()[0][0]))
assert env.observation_space.contains(obs)
try:
    from phoneworld_gym.baselines.sb3 import ElementPolicy
except ImportError:
    pass
else:
    raise SystemExit("ElementPolicy imported with torch blocked")
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {set(BLOCKED)!r}
                and sys.modules[m] is not None)
print("loaded:", loaded)
raise SystemExit(1 if loaded else 0)
"""


def test_element_actions_imports_and_steps_without_torch_or_sb3() -> None:
    r = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_policy_names_still_import_from_sb3() -> None:
    from phoneworld_gym.baselines import sb3, sb3_policy
    from phoneworld_gym.baselines.sb3 import ElementPolicy, ElementsExtractor, PointerHead

    assert ElementPolicy is sb3_policy.ElementPolicy
    assert ElementsExtractor is sb3_policy.ElementsExtractor
    assert PointerHead is sb3_policy.PointerHead
    try:
        sb3.NoSuchThing  # noqa: B018
    except AttributeError as e:
        assert "NoSuchThing" in str(e)
    else:
        raise AssertionError("a missing name must raise AttributeError")
