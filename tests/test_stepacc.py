"""Next-action accuracy on demonstrations: counts, teacher forcing, bad data, the command."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ["HF_HUB_OFFLINE"] = "1"

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")

from phoneworld_gym.baselines.collect import collect  # noqa: E402
from phoneworld_gym.baselines.data import load  # noqa: E402
from phoneworld_gym.baselines.lm_agent import LMAgent  # noqa: E402
from phoneworld_gym.baselines.prompt import Turn, format_action  # noqa: E402
from phoneworld_gym.baselines.stepacc import main, step_accuracy, summarize  # noqa: E402
from phoneworld_gym.baselines.tiny import build_tiny, oracle_corpus  # noqa: E402
from phoneworld_gym.contract import Action  # noqa: E402

TASKS = ["ContactsStar", "ClockDisableAlarm"]


@pytest.fixture(scope="module", autouse=True)
def one_thread() -> Iterator[None]:
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def demos(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demos")
    collect("PhoneWorld/All-v0", "oracle", TASKS, range(2), out)
    return out


class Scripted:
    """Answers right on the steps listed in ``right`` (by call number), ``wait`` elsewhere,
    and records the history each step was shown."""

    screenshots = False

    def __init__(self, right: set[int]):
        self.right, self.calls = right, 0
        self.history: list[Turn] = []
        self.seen: list[list[Turn]] = []
        self.expected: list[Action] = []

    def reset(self, goal: str) -> None:
        self.history = []

    def act(self, obs: dict[str, Any]) -> Action:
        self.seen.append(list(self.history))
        action = self.expected[self.calls] if self.calls in self.right else Action("wait")
        self.calls += 1
        self.history.append(Turn(action))
        return action


def test_counts_and_teacher_forced_history(demos: Path) -> None:
    ds = load(demos)
    shown = [Action.from_json(json.loads(a)) for a in ds["action"]]
    agent = Scripted(right={0, 2, 3})
    agent.expected = shown
    results = step_accuracy(agent, ds)
    assert [r.correct for r in results] == [i in {0, 2, 3} for i in range(len(ds))]
    assert [r.expected for r in results] == [format_action(a) for a in shown]
    # every prompt saw the demonstration's own earlier actions, not the agent's waits
    steps, episodes = list(ds["step"]), list(ds["episode_id"])
    for i, history in enumerate(agent.seen):
        start = i - steps[i]
        assert all(e == episodes[i] for e in episodes[start:i + 1])
        assert [t.action for t in history] == shown[start:i]
    summary = summarize(results)
    assert summary["all"] == {"correct": 3, "steps": len(ds)}
    firsts = sum(s == 0 for s in steps)
    assert summary["first step"]["steps"] == firsts == 2 * len(TASKS)
    assert summary["first step"]["correct"] == 1 + (steps[2] == 0) + (steps[3] == 0)
    assert sum(summary[t]["steps"] for t in TASKS) == len(ds)


def test_limit_stops_after_whole_episodes(demos: Path) -> None:
    ds = load(demos)
    agent = Scripted(right=set())
    agent.expected = [Action.from_json(json.loads(a)) for a in ds["action"]]
    results = step_accuracy(agent, ds, limit=1)
    first = ds["episode_id"][0]
    assert len(results) == list(ds["episode_id"]).count(first)
    assert {r.episode_id for r in results} == {first}


def test_bad_datasets_are_named(demos: Path) -> None:
    ds = load(demos)
    with pytest.raises(ValueError, match="columns.*'action'"):
        step_accuracy(Scripted(set()), ds.remove_columns(["action"]))
    broken = ds.map(lambda r, i: {"action": "{not json" if i == 1 else r["action"]},
                    with_indices=True)
    agent = Scripted(set())
    agent.expected = [Action("wait")] * len(ds)
    with pytest.raises(ValueError, match="row 1 .*not AndroidWorld JSON"):
        step_accuracy(agent, broken)


def test_the_agents_prompt_and_the_command(demos: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    tiny = build_tiny(tmp_path / "tiny", list(oracle_corpus(TASKS, seeds=range(1))), vocab=500)
    ds = load(demos)
    agent = LMAgent(tiny, max_new_tokens=40, constrained=True)
    results = step_accuracy(agent, ds, limit=1)
    # the last prompt is the agent's own, with the demonstrated earlier actions in it
    n = len(results)
    for i in range(n - 1):
        assert results[i].expected in agent.last["prompt"]
    summary = summarize(results)
    right = sum(r.correct for r in results)
    assert summary["all"] == {"correct": right, "steps": n}

    out = tmp_path / "steps.json"
    assert main(["--model", str(tiny), "--data", str(demos), "--constrained",
                 "--episodes", "1", "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"| all | {right}/{n} |" in printed
    saved = json.loads(out.read_text())
    assert [s["predicted"] for s in saved["steps"]] == [r.predicted for r in results]
    with pytest.raises(SystemExit) as exit_info:
        main(["--model", str(tiny), "--data", str(tmp_path / "nothing")])
    assert exit_info.value.code == 2
