"""Baseline agents and the training recipe. Installed as ``phoneworld_gym.baselines``."""
