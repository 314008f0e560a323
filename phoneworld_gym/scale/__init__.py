"""Scale out with Ray: many phones, simulated or real, on one machine or a cluster.

- :class:`RayVectorEnv`: a Gymnasium vector env whose sub-envs are Ray actors; it returns the
  same trajectories as ``gymnasium.make_vec(..., vectorization_mode="sync")`` and survives a
  worker dying (that slot's episode ends truncated with ``info["worker_error"]``).
- :class:`DevicePool`: one actor per device; episode requests queue for free devices and come
  back as :class:`EpisodeRecord` s.
- :func:`collect_episodes`: whole episodes out of any vector env (no Ray needed).

Ray is an optional dependency (``pip install 'phoneworld[ray]'``); the names that need it are
imported on first use, so ``collect_episodes`` works without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from phoneworld_gym.scale.episodes import Episode, collect_episodes, unbatch_info

if TYPE_CHECKING:
    from phoneworld_gym.scale.pool import DevicePool, EpisodeRecord, device_from_spec
    from phoneworld_gym.scale.ray_vector import RayVectorEnv

_LAZY = {"RayVectorEnv": "ray_vector", "DevicePool": "pool", "EpisodeRecord": "pool",
         "device_from_spec": "pool"}


def __getattr__(name: str) -> Any:
    """Import the Ray-backed names on first use."""
    if name in _LAZY:
        import importlib

        module = importlib.import_module(f"phoneworld_gym.scale.{_LAZY[name]}")
        return getattr(module, name)
    raise AttributeError(f"module 'phoneworld_gym.scale' has no attribute {name!r}")


__all__ = ["RayVectorEnv", "DevicePool", "EpisodeRecord", "device_from_spec", "Episode",
           "collect_episodes", "unbatch_info"]
