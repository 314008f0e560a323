"""PhoneWorld as an OpenEnv environment (``openenv-core``; ``pip install phoneworld[openenv]``).

A server (:func:`create_app`, ``phoneworld serve-env``) hosts many PhoneWorld envs, one per
WebSocket session, behind OpenEnv's reset/step/state protocol; :class:`PhoneWorldClient` is
its OpenEnv client and :class:`PhoneWorldGymClient` a Gymnasium-shaped one. The package is
not named ``openenv`` so that it never shadows the library it builds on. See docs/openenv.md.
"""

from phoneworld_gym.envserver.app import create_app, serve
from phoneworld_gym.envserver.client import PhoneWorldClient, PhoneWorldGymClient, ServerError
from phoneworld_gym.envserver.environment import PhoneWorldEnvironment, ServerConfig
from phoneworld_gym.envserver.models import PhoneAction, PhoneObservation, PhoneState

__all__ = ["PhoneAction", "PhoneObservation", "PhoneState", "PhoneWorldClient",
           "PhoneWorldEnvironment", "PhoneWorldGymClient", "ServerConfig", "ServerError",
           "create_app", "serve"]
