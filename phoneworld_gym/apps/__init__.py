"""The apps installed on the simulated phone: one sub-package per app, each registering
itself with :func:`phoneworld_gym.app.register_app`. Adding an app is adding a folder."""
