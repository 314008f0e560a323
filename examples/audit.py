"""Audit the task registry the way a hostile tester would, and print the counts.

    python examples/audit.py            # every audit
    python examples/audit.py --quick    # fewer random malformed actions
    python examples/audit.py --rewards  # only the both-ways reward audit, every task
    python examples/audit.py --rewards --tasks ClockEarliestAlarm --seeds 3

- tasks that run on a real phone, by construction (run with a phone's verbs and probes only);
- damage pairs: a task's oracle, another task's changes, the task's report -> must score 0;
- answer attacks: negated, hedged and listed answers on every information-retrieval task;
- malformed actions: every one must raise ValueError, nothing else;
- distinct goals per template over 100 seeds;
- the reward audit that tries both ways (:mod:`phoneworld_gym.reward_audit`): false positives
  (texts that do not state the fact, rows with a settable column changed, work done twice or
  undone, hedged/bounded/random-word answers) and false negatives (friendly texts, natural
  answers, a detour first, text typed in lower case), counted by category.
"""

from __future__ import annotations

import argparse
import time

from phoneworld_gym import Action
from phoneworld_gym.audit import (
    damage_pairs,
    damage_trial,
    distinct_goals,
    final_report,
    has_params,
    malformed_action_trials,
)
from phoneworld_gym.env import PhoneEnv
from phoneworld_gym.matchers import attacks
from phoneworld_gym.readiness import phone_ready
from phoneworld_gym.task import all_tasks


def answer_attacks(seeds: range = range(3)) -> tuple[int, int]:
    """(tried, won): adversarial answers built from each IR task's right answer."""
    tried = won = 0
    ir = [t for t in all_tasks().values() if t.answer_matcher is not None]
    for cls in ir:
        rights = []
        for seed in seeds:
            env = PhoneEnv(tasks=cls.id, obs_mode="a11y")
            env.reset(seed=seed)
            rights.append(str(final_report(env).text))
        for seed, right in zip(seeds, rights):
            others = [r for r in rights if r != right] or ["something else"]
            for attack in attacks(right, others):
                env = PhoneEnv(tasks=cls.id, obs_mode="a11y")
                env.reset(seed=seed)
                final_report(env)
                _, reward, *_ = env.step(Action("answer", text=attack))
                tried += 1
                if reward > 0:
                    won += 1
                    print(f"  WON: {cls.id} seed {seed}: {attack!r}")
    return tried, won


def reward_audit(task_ids: list[str], seeds: int) -> int:
    """Print the both-ways audit by category and every wrong verdict; return their count."""
    from phoneworld_gym.reward_audit import audit_task, summary

    probes = []
    t0 = time.perf_counter()
    for i, tid in enumerate(task_ids):
        got = audit_task(tid, range(seeds))
        probes += got
        for p in got:
            if p.wrong:
                print(f"  WRONG {p.kind} {tid} seed {p.seed}: {p.what} -> {p.got} "
                      f"(want {p.want}) {p.failure[:120]}", flush=True)
        if (i + 1) % 25 == 0:
            print(f"  ... {i + 1}/{len(task_ids)} tasks, {time.perf_counter() - t0:.0f} s",
                  flush=True)
    table = summary(probes)
    print(f"\nreward audit: {len(task_ids)} tasks x {seeds} seed(s), {len(probes)} probes, "
          f"{time.perf_counter() - t0:.0f} s")
    print(f"{'category':24s} {'FP tried':>9s} {'FP':>5s} {'FN tried':>9s} {'FN':>5s}")
    for cat, row in sorted(table.items()):
        print(f"{cat:24s} {row['fp_tried']:9d} {row['fp']:5d} {row['fn_tried']:9d} "
              f"{row['fn']:5d}")
    tot = {k: sum(r[k] for r in table.values()) for k in ("fp_tried", "fp", "fn_tried", "fn")}
    print(f"{'all':24s} {tot['fp_tried']:9d} {tot['fp']:5d} {tot['fn_tried']:9d} "
          f"{tot['fn']:5d}")
    return tot["fp"] + tot["fn"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--rewards", action="store_true", help="only the both-ways reward audit")
    ap.add_argument("--tasks", nargs="*", help="task ids for --rewards (default: all)")
    ap.add_argument("--seeds", type=int, default=1, help="seeds per task for --rewards")
    a = ap.parse_args()
    if a.rewards:
        raise SystemExit(1 if reward_audit(a.tasks or list(all_tasks()), a.seeds) else 0)
    t0 = time.perf_counter()
    tasks = all_tasks()
    ready = [phone_ready(t) for t in tasks]
    print(f"tasks: {len(tasks)}; run on a real phone by construction: "
          f"{sum(r.phone for r in ready)} ({', '.join(r.task for r in ready if r.phone)})")

    pairs = damage_pairs()
    trials = [damage_trial(t, o) for t, o in pairs]
    bad = [x for x in trials if x.reward > 0]
    print(f"damage pairs tried: {len(trials)}; scored > 0: {len(bad)}")
    for x in bad:
        print(f"  {x.task} after {x.other}: {x.reward}")

    tried, won = answer_attacks()
    print(f"answer attacks tried: {tried}; won: {won}")

    m = malformed_action_trials(2000 if a.quick else 20000)
    print(f"malformed actions tried: {m.tried}; ValueError: {m.value_errors}; "
          f"other: {len(m.other)}")
    for o in m.other[:10]:
        print(f"  {o}")

    print("distinct goals over 100 seeds (templates with params):")
    counts = {t: distinct_goals(t) for t, cls in tasks.items() if has_params(cls)}
    for t, n in sorted(counts.items(), key=lambda kv: kv[1]):
        print(f"  {n:4d}  {t}")
    print(f"min {min(counts.values())}, median {sorted(counts.values())[len(counts) // 2]}; "
          f"{time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
