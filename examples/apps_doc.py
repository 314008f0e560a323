"""Write docs/apps.md (the app catalogue) and docs/apps/<app>.png from the registry.

    python examples/apps_doc.py
"""

from __future__ import annotations

from pathlib import Path

from phoneworld_gym.appdoc import apps_markdown, write_pictures


def main() -> None:
    docs = Path(__file__).resolve().parent.parent / "docs"
    (docs / "apps.md").write_text(apps_markdown())
    pictures = write_pictures(docs / "apps")
    print(f"wrote {docs / 'apps.md'} and {len(pictures)} pictures in {docs / 'apps'}")


if __name__ == "__main__":
    main()
