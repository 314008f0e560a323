"""Blind guessing: play the best constant answer, ``status infeasible`` first and
``status complete`` first on every template, print the table and write it into
``docs/TASKS.md`` (its "Blind guessing" section, replaced in place).

    python examples/blind_guess.py               # every template, 100 seeds (~10 min, 1 core)
    python examples/blind_guess.py --seeds 20 --no-write
    python examples/blind_guess.py --tasks ChatCountUnread WeatherWarmestOf

See ``phoneworld_gym/blind.py`` for what each policy and figure means.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from phoneworld_gym.blind import (
    CATEGORY_LIMIT,
    TEMPLATE_LIMIT,
    blind_markdown,
    category_blind,
    category_envs,
    feasible_vocabulary,
    template_blind,
    with_blind_section,
    with_telltales,
)
from phoneworld_gym.task import all_tasks

TASKS_MD = Path(__file__).resolve().parent.parent / "docs" / "TASKS.md"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--tasks", nargs="*", help="only these task ids (implies --no-write)")
    ap.add_argument("--no-write", action="store_true", help="print only")
    args = ap.parse_args()
    ids = args.tasks or list(all_tasks())
    vocab = feasible_vocabulary()
    t0 = time.time()
    results = {}
    for i, tid in enumerate(ids):
        results[tid] = template_blind(tid, range(args.seeds), vocab)
        r = results[tid]
        print(f"[{i + 1}/{len(ids)}] {tid:34s} {r.kind:10s} answer {r.answer!r:.30} "
              f"{r.answer_rate:6.1%}  infeasible {r.infeasible_rate:6.1%}  "
              f"complete {r.complete_rate:6.1%}", flush=True)
    # tell-tale words once every feasible goal is known
    results = with_telltales(results)
    print()
    for tid, r in results.items():
        policy, rate = r.blind_max()
        if rate > TEMPLATE_LIMIT:
            print(f"{tid:34s} {r.kind:10s} {policy:36.36s} {rate:6.1%}  <-- over 1/3")
    cats = {}
    if not args.tasks:
        for env_id, task_ids in category_envs().items():
            cats[env_id] = category_blind(env_id, task_ids, results)
        print()
        for c in cats.values():
            policy, rate = c.constant_max()
            flag = "  <-- reader over 10%" if c.reader > CATEGORY_LIMIT else ""
            print(f"{c.env_id:32s} reader {c.reader:6.1%}  constant {policy:24.24s} "
                  f"{rate:6.1%}{flag}")
    over = [t for t, r in results.items() if r.blind_max()[1] > TEMPLATE_LIMIT]
    print(f"\n{len(ids)} templates x {args.seeds} seeds in {time.time() - t0:.0f} s; "
          f"{len(over)} over 1/3: {', '.join(over)}")
    if not args.tasks and not args.no_write:
        text = with_blind_section(TASKS_MD.read_text(),
                                  blind_markdown(results, cats, args.seeds))
        TASKS_MD.write_text(text)
        print(f"wrote the blind-guessing section of {TASKS_MD}")


if __name__ == "__main__":
    main()
