"""Looking is not damage: for every task, open every unread thread, chat and email and play a
song on the way (through the UI), then run the task's oracle, which must still score 1.

    python examples/view_sweep.py              # every task, seed 0
    python examples/view_sweep.py --seeds 3    # seeds 0-2
    python examples/view_sweep.py --tasks EmailReply MessagesReplyUnread

Apps whose view state a task is about (``Task.checks_view``) are left alone for that task.
Prints each task that scored below 1 with the reason, then the counts.
"""

from __future__ import annotations

import argparse
import time

from phoneworld_gym.audit import view_trial
from phoneworld_gym.task import all_tasks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=1)
    ap.add_argument("--tasks", nargs="*", default=None)
    a = ap.parse_args()
    ids = a.tasks or list(all_tasks())
    t0 = time.perf_counter()
    tried = solved = opened = 0
    for tid in ids:
        for seed in range(a.seeds):
            try:
                r = view_trial(tid, seed)
            except Exception as e:  # noqa: BLE001 - an error is a finding, reported as such
                print(f"  ERROR {tid} seed {seed}: {type(e).__name__}: {e}"[:300])
                tried += 1
                continue
            tried += 1
            opened += r.opened
            if r.reward == 1.0:
                solved += 1
            else:
                print(f"  {tid} seed {seed}: {r.reward} ({r.failure})"[:300])
    print(f"looking then the oracle: {solved}/{tried} scored 1.0 "
          f"({opened} unread items opened in all; {time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
