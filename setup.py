"""Everything about the distribution is in setup.cfg; this file lets ``pip install -e .`` work
with older tools."""

from setuptools import setup

setup()
