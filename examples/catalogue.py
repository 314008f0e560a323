"""Write docs/TASKS.md, the task catalogue, from the registry.

    python examples/catalogue.py
"""

from __future__ import annotations

from pathlib import Path

import phoneworld_gym
from phoneworld_gym.registration import catalogue_markdown


def main() -> None:
    out = Path(__file__).resolve().parent.parent / "docs" / "TASKS.md"
    out.parent.mkdir(exist_ok=True)
    out.write_text(catalogue_markdown())
    print(f"wrote {out} ({len(phoneworld_gym.list_tasks())} tasks)")


if __name__ == "__main__":
    main()
