"""Real-device bridges, installed as ``phoneworld_gym.real_device``: the same observation and
action contract, the same task code, on phones and emulators.

- :mod:`.adb_device`: ``AdbDevice``, a phone over adb (the verbs, a probe over ``content``,
  ``settings`` and files, reconnect-once, the safety guard); ``PhoneWorld/Device-v0``.
- :mod:`.guard`: ``SafetyGuard``, the policy checked before each action reaches a person's phone.
- :mod:`.adb_server`: ``VirtualPhone`` (``phoneworld serve-adb``), a PhoneWorld phone served
  over the adb device protocol, so the real ``adb`` client and adb tools can drive it.
- :mod:`.field`: the virtual phone's ``field`` profile (prompts, stale dumps, theme drift).
- :mod:`.android_env_sim` and :mod:`.android_env_device`: PhoneWorld as an android_env
  simulator, and android_env emulators as a device; ``PhoneWorld/AndroidEnv-v0``.

``docs/real-devices.md`` tells how to run a task and an agent on a phone.
"""
