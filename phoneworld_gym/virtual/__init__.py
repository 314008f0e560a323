"""Simulated phones behind real protocols, for the bridges of
:mod:`phoneworld_gym.real_device` to drive as they drive a phone:

- :mod:`.adb_server`: ``VirtualPhone`` (``phoneworld serve-adb``), a PhoneWorld phone served
  over the adb device protocol (:mod:`.adb_protocol`, file sync in :mod:`.adb_sync`), so the
  real ``adb`` client and adb tools can drive it; its shell (:mod:`.shell`), toybox-style
  commands (:mod:`.commands`) and scratch storage (:mod:`.storage`).
- :mod:`.field`: the virtual phone's ``field`` profile (prompts, stale dumps, theme drift).
- :mod:`.android_env_sim`: PhoneWorld as an android_env simulator.
"""
