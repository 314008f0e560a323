"""Real-device bridges: the same observation and action contract, the same task code, on
phones and emulators.

- :mod:`.adb_device`: ``AdbDevice``, a phone over adb (the verbs, a probe over ``content``,
  ``settings``, files and ``date``, reconnect-once, the safety guard); ``PhoneWorld/Device-v0``.
- :mod:`.adb_probe`: the probe's reading of ``content``/``settings``/``dumpsys`` output.
- :mod:`.guard`: ``SafetyGuard``, the policy checked before each action reaches a person's phone.
- :mod:`.android_env_device`: android_env emulators as a device; ``PhoneWorld/AndroidEnv-v0``.
- :mod:`.latency`: what an action costs over adb (a benchmark).

The simulated phones these bridges are tested against (the virtual adb phone, its field
profile, the android_env simulator) are in :mod:`phoneworld_gym.virtual`.
``docs/real-devices.md`` tells how to run a task and an agent on a phone.
"""
