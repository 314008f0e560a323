"""Real-device bridges (adb phones, android_env emulators). Installed as
``phoneworld_gym.real_device``. Not built yet: see the README's "Not built yet" list."""
