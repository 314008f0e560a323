"""Bounded memory (examples/soak.py): the element-aware random agent plays PhoneWorld/All-v0
in a fresh process and its resident memory stops growing once caches are warm; the slope
check that judges it flags a leak; a resumed soak takes the same actions as one run straight.

The issue's size is 50,000 steps: about 600 s of one core here (measured: ~85 steps per CPU
second with every episode new, ~195 once the worlds repeat; tree only), ten times the suite's
budget. The CI run is the largest that fits ~60 s on an idle core: STEPS steps (~51 s of CPU
plus ~4 s of start-up), its episodes cycling over the first CYCLE ones, so that their worlds,
texts and pictures are all cached before the second half (the caches, bounded by count or
bytes, take far longer than a minute to fill with new worlds: the long run, every episode new
and judged against its first 100,000 steps, is ``python examples/soak.py``). Whatever still
grows in the second half grows with steps: a history kept, a cache keyed by step or time.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import load_example

# one xdist worker runs the module (make test passes --dist loadgroup): the soak is a minute
# of one CPU, and RSS is its own process's
pytestmark = pytest.mark.xdist_group("soak")

ROOT = Path(__file__).resolve().parents[1]
#: ~60 s on an idle core (see the module docstring)
STEPS = 10_000
#: episodes replayed over and over (~10 steps each: ~8 cycles before the second half)
CYCLE = 64
#: RSS sampled every SAMPLE steps
SAMPLE = 100
#: the largest RSS slope allowed over the second half, MiB per 10,000 steps. Measured: +0.12
#: (8,000 steps, RSS 129.4-129.8 MiB over the second half); the issue's growth, ~2 MiB per
#: 1,000 steps, is 20
MAX_SLOPE = 5.0


@pytest.fixture(scope="module")
def soak():
    return load_example("soak")


# about a minute on an idle core; the suite's 600 s limit is for a stuck test, and this one
# only runs long when the machine is busy
@pytest.mark.timeout(1800)
def test_rss_stops_growing_once_warm(tmp_path, soak) -> None:
    state = tmp_path / "state.json"
    out = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "soak.py"), "--steps", str(STEPS),
         "--cycle", str(CYCLE), "--sample", str(SAMPLE), "--every", str(STEPS),
         "--chunk", str(STEPS), "--state", str(state)],
        cwd=ROOT, capture_output=True, text=True, timeout=1700)
    assert out.returncode == 0, out.stdout + out.stderr
    curve = json.loads(state.read_text())["curve"]
    samples = [(step, mib) for step, mib, *_ in curve]
    assert samples[-1][0] == STEPS and len(samples) > STEPS // SAMPLE // 2
    slope = soak.second_half_slope(samples)
    assert slope < MAX_SLOPE, (
        f"RSS grows {slope:.2f} MiB per 10k steps in the second half (bound {MAX_SLOPE}):\n"
        + "\n".join(f"{s:>6} {m:7.1f}" for s, m in samples[::5]))


def test_the_slope_check_catches_a_leak(soak) -> None:
    steps = range(0, STEPS + 1, SAMPLE)
    # caches fill in the first half, then memory is flat (with a little noise): passes
    warm = [(s, 150 + 40 * min(s, 2000) / 2000 + 0.3 * ((s // SAMPLE) % 3)) for s in steps]
    assert abs(soak.second_half_slope(warm)) < MAX_SLOPE
    # the leak, ~2 MiB per 1,000 steps, all along or only once warm: caught
    leak = [(s, 150 + 0.002 * s) for s in steps]
    assert soak.second_half_slope(leak) == pytest.approx(20.0)
    late = [(s, m + max(0, s - 2500) * 0.002) for s, m in warm]
    for samples in (leak, late):
        assert soak.second_half_slope(samples) > MAX_SLOPE


def test_verdict_judges_growth_after_the_warmup(soak) -> None:
    flat = [[s, 200.0 + (5 if s < 100_000 else 0), 0, 0.0] for s in range(0, 400_001, 50_000)]
    ok, line = soak.verdict(flat, 100_000, 10.0)
    assert ok is True and "PASS" in line
    grows = [[s, 200.0 + s / 10_000, 0, 0.0] for s in range(0, 400_001, 50_000)]
    ok, line = soak.verdict(grows, 100_000, 10.0)
    assert ok is False and "FAIL" in line  # 210 -> 240 MiB: +14%
    short = [[s, 200.0, 0, 0.0] for s in range(0, 60_001, 10_000)]
    assert soak.verdict(short, 100_000, 10.0)[0] is None
    # a resumed run starts a new process: each is judged from its own start
    two = short + [[s, 150.0 + (s - 60_000) / 1e5, 1, 0.0] for s in range(60_000, 300_001,
                                                                          20_000)]
    ok, line = soak.verdict(two, 100_000, 10.0)
    assert ok is True and "step 160,000" in line


def test_a_resumed_soak_takes_the_same_actions(tmp_path, soak, capsys) -> None:
    common = ["--steps", "60", "--sample", "10", "--every", "60", "--seed", "3"]
    assert soak.main([*common, "--state", str(tmp_path / "a.json")]) == 0
    straight = json.loads((tmp_path / "a.json").read_text())
    b = str(tmp_path / "b.json")
    assert soak.main([*common, "--state", b, "--chunk", "20", "--budget", "0"]) == 0
    paused = json.loads(Path(b).read_text())
    assert 20 <= paused["steps"] < 60  # stopped at the end of the episode past 20 steps
    assert soak.main(["--state", b, "--resume"]) == 0
    resumed = json.loads(Path(b).read_text())
    for key in ("steps", "episode", "digest", "tasks_seen"):
        assert resumed[key] == straight[key], key
    assert [c[2] for c in resumed["curve"]][-1] == 1  # the second process is segment 1
    assert "resuming" in capsys.readouterr().out
