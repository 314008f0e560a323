"""Write docs/TASKS.md, the task catalogue, from the registry.

    python examples/catalogue.py
"""

from __future__ import annotations

from pathlib import Path

import phoneworld_gym
from phoneworld_gym.blind import split_blind_section, with_blind_section
from phoneworld_gym.registration import catalogue_markdown


def main() -> None:
    out = Path(__file__).resolve().parent.parent / "docs" / "TASKS.md"
    out.parent.mkdir(exist_ok=True)
    # the blind-guessing section (examples/blind_guess.py, minutes to run) is kept as it is
    _, blind = split_blind_section(out.read_text()) if out.exists() else ("", "")
    out.write_text(with_blind_section(catalogue_markdown(), blind) if blind
                   else catalogue_markdown())
    print(f"wrote {out} ({len(phoneworld_gym.list_tasks())} tasks)")


if __name__ == "__main__":
    main()
