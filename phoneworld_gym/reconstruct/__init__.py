"""Mock apps reconstructed from real ones: explore an app on any device, rebuild it as a
PhoneWorld app, generate tasks on it and measure how faithful it is.

- :mod:`~phoneworld_gym.reconstruct.explore`: breadth-first exploration into a folder;
- :mod:`~phoneworld_gym.reconstruct.rebuild`: the recording as a registered app;
- :mod:`~phoneworld_gym.reconstruct.tasks`: reach and fill-then-reach tasks with oracles;
- :mod:`~phoneworld_gym.reconstruct.fidelity`: the rebuild measured against the original;
- :mod:`~phoneworld_gym.reconstruct.retention`: a policy trained on the rebuild alone, played
  on the original (success there as a share of success on the rebuild).

See ``docs/reconstruction.md``.
"""

from phoneworld_gym.reconstruct.explore import Budget, Explorer, explore
from phoneworld_gym.reconstruct.rebuild import RecordedApp, install, uninstall
from phoneworld_gym.reconstruct.recording import Recording

__all__ = ["Budget", "Explorer", "RecordedApp", "Recording", "explore", "install",
           "uninstall"]
