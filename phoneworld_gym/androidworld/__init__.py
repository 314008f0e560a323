"""AndroidWorld, both ways: PhoneWorld agents on AndroidWorld, AndroidWorld agents on PhoneWorld.

AndroidWorld (``google-research/android_world``) is not on the package registry, so nothing
here imports it until you hand it one of its objects or ask for one:

* :func:`as_androidworld_agent` wraps a PhoneWorld agent (``reset(goal)``/``act(obs)``) as an
  AndroidWorld ``EnvironmentInteractingAgent``: each ``step(goal)`` reads the ``AsyncEnv``'s
  state (pixels and UI elements), asks the agent, and executes its ``JSONAction``.
* :class:`PhoneWorldAsyncEnv` offers what AndroidWorld's ``AsyncEnv`` offers (``get_state``,
  ``execute_action``, ``logical_screen_size``, ...) over any PhoneWorld env, so T3A and M3A
  run on PhoneWorld tasks and are scored by PhoneWorld's verifiers.

Both sides speak the contract's JSON, which is AndroidWorld's (``docs/androidworld.md``).
"""

from phoneworld_gym.androidworld.agent import as_androidworld_agent
from phoneworld_gym.androidworld.elements import (
    elements_to_xml,
    from_androidworld_element,
    to_androidworld_element,
)
from phoneworld_gym.androidworld.env import PhoneWorldAsyncEnv

__all__ = ["PhoneWorldAsyncEnv", "as_androidworld_agent", "elements_to_xml",
           "from_androidworld_element", "to_androidworld_element"]
