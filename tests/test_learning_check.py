"""The learning check (:mod:`phoneworld_gym.baselines.learning_check`): its statistics, its
guards, and a shrunken run in which GRPO must raise held-out success over the SFT start."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from phoneworld_gym.baselines.learning_check import (  # noqa: E402
    CheckConfig,
    grounding_screens,
    paired_gain,
    run,
)


def test_paired_gain_counts_discordant_pairs_and_gives_mcnemars_p() -> None:
    before = [0] * 10 + [1] * 10
    after = [1] * 8 + [0] * 2 + [1] * 9 + [0]
    g = paired_gain([bool(x) for x in before], [bool(x) for x in after])
    assert g["up"] == 8 and g["down"] == 1 and g["n"] == 20
    assert g["gain"] == pytest.approx(7 / 20)
    # exact two-sided binomial test on 8 of 9 discordant pairs
    assert g["p_mcnemar"] == pytest.approx(2 * (1 + 9) / 2 ** 9)
    assert g["low"] < g["gain"] < g["high"]
    same = paired_gain([True, False], [True, False])
    assert same["gain"] == 0 and same["p_mcnemar"] == 1.0
    with pytest.raises(ValueError, match="paired"):
        paired_gain([True], [True, False])
    assert math.isfinite(g["high"])


def test_seed_ranges_must_not_overlap(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="eval and rl seed ranges overlap"):
        run(CheckConfig(eval_seeds=(1000, 1010)), tmp_path)
    with pytest.raises(ValueError, match="demo and select"):
        run(CheckConfig(select_seeds=(10, 20)), tmp_path)


def test_grounding_screens_are_every_train_task_s_or_the_check_s_own() -> None:
    """"task": the check's own task's oracle screens at every demonstration seed (here the
    Settings app's pages alone); "all": every train task's at the first two seeds; another
    value is refused before anything runs."""
    own = grounding_screens(CheckConfig(task="SettingsSwitch", demo_seeds=(0, 4),
                                        grounding_screens="task"))
    every = grounding_screens(CheckConfig(task="SettingsSwitch", demo_seeds=(0, 4)))

    def packages(trees: list[str]) -> set[str]:
        return {p for t in trees for p in re.findall(r'package="([^"]+)"', t)}

    assert packages(own) == {"com.android.settings", "com.google.android.apps.nexuslauncher"}
    assert len(every) > 100 * len(own)
    assert {"com.phoneworld.contacts", "com.google.android.deskclock"} <= packages(every)
    with pytest.raises(ValueError, match="grounding_screens must be 'all' or 'task'"):
        run(CheckConfig(grounding=10, grounding_screens="mine"), Path("/nonexistent/never"))


@pytest.mark.timeout(1800)  # ~400 s on a busy 2-core runner; 600 s was too close
def test_grpo_raises_held_out_success_in_a_shrunken_check(tmp_path: Path) -> None:
    """SFT stops where it solves some selection seeds; GRPO on other seeds then raises the
    greedy success on held-out evaluation seeds (the same seeds before and after)."""
    lines: list[str] = []
    rec = run(CheckConfig.quick(), tmp_path, log=lines.append)
    curve = [p["success"] for p in rec["curve"]]
    assert 0 < rec["select_success"] < 1  # a start that solves some and fails others
    assert curve[-1] > curve[0] + 0.1, (curve, lines)
    assert rec["gain"]["up"] > rec["gain"]["down"]
    assert any(u["kept"] > 0 for u in rec["updates"])  # groups with a reward spread
    assert any(u["clipped"] > 0 for u in rec["updates"])  # the clip did something
    assert (tmp_path / "learning_check.json").is_file()
