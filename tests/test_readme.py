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
    from phoneworld_gym.registration import catalogue_markdown

    committed = (README.parent / "docs" / "TASKS.md").read_text()
    assert committed == catalogue_markdown(), "run: python examples/catalogue.py"
