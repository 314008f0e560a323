"""The initial-weights probe (examples/init_probe.py): its first steps are the oracle's, and
the goal-blind loss it compares against is the entropy of their app choice."""

from __future__ import annotations

import math
import re

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from conftest import load_example  # noqa: E402


def test_probe_trains_on_the_oracles_first_steps(capsys: pytest.CaptureFixture[str]) -> None:
    probe = load_example("init_probe")
    probe.main(["--steps", "2", "--init-std", "0.1", "--threads", "1"])
    out = capsys.readouterr().out
    # each train task opens its own app, 40 seeds each: Clock and Contacts start two tasks
    counts = {"Clock": 80, "Contacts": 80, "Settings": 40, "Messages": 40}
    assert out.startswith("240 first steps")
    for app, n in counts.items():
        assert f'{n} x {{"action_type": "open_app", "app_name": "{app}"}}' in out
    entropy = -sum(n / 240 * math.log(n / 240) for n in counts.values())
    blind = re.search(r"goal-blind loss: ([0-9.]+) nats over ([0-9.]+) completion tokens = "
                      r"([0-9.]+) per completion token", out)
    assert blind is not None and float(blind[1]) == pytest.approx(entropy, abs=1e-4)
    assert 10 < float(blind[2]) < 30
    assert float(blind[3]) == pytest.approx(entropy / float(blind[2]), abs=1e-4)
    line = re.search(r"init_std 0.1: .* held-out first steps right (\d+)/36", out)
    assert line is not None and 0 <= int(line[1]) <= 36
