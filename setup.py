"""Computes the package list so that adding an app or a task folder needs no edit here.

Everything else about the distribution is in setup.cfg."""

from setuptools import find_packages, setup

ROOTS = {
    "phoneworld_gym": "phoneworld_gym",
    "phoneworld_gym.tasks": "tasks",
    "phoneworld_gym.real_device": "real_device",
    "phoneworld_gym.baselines": "baselines",
}

packages = []
for name, folder in ROOTS.items():
    packages.append(name)
    packages += [f"{name}.{sub}" for sub in find_packages(folder)]

setup(packages=packages, package_dir=ROOTS)
