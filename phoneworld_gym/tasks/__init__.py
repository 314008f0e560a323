"""Task definitions, one file per task (or small family), grouped by app. Installed as
``phoneworld_gym.tasks``; every module here is imported on first use of the registry."""
