"""The README's example runs as written and does what its comments say."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_ten_line_example_runs_and_succeeds(capsys):
    text = README.read_text()
    section = text[text.index("## Ten lines"):]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    assert len(code.strip().splitlines()) <= 12
    ns: dict = {}
    exec(compile(code, "README.md", "exec"), ns)
    assert ns["reward"] == 1.0 and ns["info"]["success"] is True
    out = capsys.readouterr().out
    assert "Soleil Relaxed Polo Shirt" in out and "(2400, 1080, 3)" in out


def test_task_catalogue_is_up_to_date():
    from phoneworld_gym.blind import split_blind_section
    from phoneworld_gym.registration import catalogue_markdown

    # the blind-guessing section after it is examples/blind_guess.py's (tests/test_blind.py)
    committed, _ = split_blind_section((README.parent / "docs" / "TASKS.md").read_text())
    assert committed == catalogue_markdown(), "run: python examples/catalogue.py"


def test_app_catalogue_is_up_to_date_and_shows_every_app():
    from phoneworld_gym.app import all_apps
    from phoneworld_gym.appdoc import apps_markdown

    docs = README.parent / "docs"
    committed = (docs / "apps.md").read_text()
    assert committed == apps_markdown(), "run: python examples/apps_doc.py"
    for name, app in all_apps().items():
        picture = docs / "apps" / f"{name}.png"
        assert picture.is_file() and f"(apps/{name}.png)" in committed, name
        for screen in app.screens:  # every declared screen is listed under its app
            assert f"| `{screen}`" in committed.split(f"## {name}\n", 1)[1], (name, screen)
