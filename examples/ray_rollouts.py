"""Oracle rollouts over every task with Ray: episodes/s and success for 1, 2, ... workers.

Each worker is a Ray actor that owns one simulated phone (``DevicePool``); the requests (every
task x ``--seeds`` seeds) queue for free phones. After an untimed warm-up (one episode of each
task, which fills each worker's caches), the timed run's episodes/s, steps/s and success rate
are printed per worker count, and, with ``--vector-steps``, the step rate of a
``RayVectorEnv`` of that many workers next to a sync vector env.

    python examples/ray_rollouts.py --workers 1 2 --seeds 3          # local Ray
    python examples/ray_rollouts.py --address auto --workers 8 32     # a running cluster

On a cluster the script is the same: ``ray.init(address="auto")`` joins it, and every node
needs PhoneWorld installed (or a ``runtime_env``). For real phones, give ``DevicePool``
factories or adb serials instead of ``"phoneworld"``.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import ray

import phoneworld_gym
from phoneworld_gym import Action
from phoneworld_gym.scale import DevicePool, RayVectorEnv

#: observation choice -> (the pool's device spec, env kwargs); a pool's phone sets the size
SIZES: dict[str, tuple[str, dict]] = {
    "a11y": ("phoneworld", {"obs_mode": "a11y"}),
    "small": ("phoneworld:540x1200", {}),
    "full": ("phoneworld", {}),
}


def rollouts(workers: int, tasks: list[str], seeds: int, obs: str) -> dict[str, float]:
    """Oracle episodes of every task x seed on a pool of ``workers`` phones."""
    spec, env_kwargs = SIZES[obs]
    start = time.perf_counter()
    with DevicePool([spec] * workers, env_kwargs=env_kwargs) as pool:
        up = time.perf_counter() - start
        pool.run(tasks, 10_000)  # warm-up, untimed
        requests = [t for t in tasks for _ in range(seeds)]
        t = time.perf_counter()
        records = pool.run(requests, [s for _ in tasks for s in range(seeds)])
        took = time.perf_counter() - t
    for r in records:
        if not r.success:
            print(f"  failed: {r.task} seed {r.seed} on {r.device or '-'}: "
                  f"{r.failure or 'reward ' + str(r.reward)}")
            break
    return {"workers": workers, "episodes": len(records), "seconds": took,
            "episodes/s": len(records) / took, "steps/s": sum(r.steps for r in records) / took,
            "success": sum(r.success for r in records) / len(records), "start-up s": up}


def vector_rate(workers: int, steps: int, obs: str) -> tuple[float, float]:
    """Steps/s (summed over sub-envs) of a RayVectorEnv and of a sync vector env."""
    env_kwargs = {"obs_mode": "a11y"} if obs == "a11y" else {
        "screenshot_size": (540, 1200)} if obs == "small" else {}
    actions = [Action("open_app", app_name="Contacts"), Action("navigate_home")]
    rates = []
    for make in (lambda: RayVectorEnv("PhoneWorld/All-v0", workers, max_steps=10_000,
                                      **env_kwargs),
                 lambda: gymnasium.make_vec("PhoneWorld/All-v0", num_envs=workers,
                                            vectorization_mode="sync", max_steps=10_000,
                                            **env_kwargs)):
        envs = make()
        envs.reset(seed=0)
        space = envs.single_action_space
        batched = [gymnasium.vector.utils.concatenate(
            space, [_numeric(a)] * workers,
            gymnasium.vector.utils.create_empty_array(space, workers)) for a in actions]
        for k in range(10):  # warm-up
            envs.step(batched[k % 2])
        t = time.perf_counter()
        for k in range(steps):
            envs.step(batched[k % 2])
        rates.append(steps * workers / (time.perf_counter() - t))
        envs.close()
    return rates[0], rates[1]


def _numeric(action: Action) -> dict:
    """The numeric form of the two actions used above (what a batched step takes)."""
    from phoneworld_gym.contract import ACTION_TYPES

    return {"action_type": ACTION_TYPES.index(action.action_type), "target": 0, "index": 0,
            "x": 0, "y": 0, "text": "", "direction": 0, "app_name": action.app_name or "",
            "goal_status": 0, "clear_text": 0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seeds", type=int, default=3, help="seeds per task")
    parser.add_argument("--obs", choices=sorted(SIZES), default="a11y",
                        help="a11y only, 540x1200 or 1080x2400 screenshots")
    parser.add_argument("--address", default=None,
                        help='a Ray cluster to join ("auto"); default: start a local one')
    parser.add_argument("--vector-steps", type=int, default=0,
                        help="also time this many RayVectorEnv steps against a sync one")
    args = parser.parse_args()

    if args.address:
        ray.init(address=args.address, log_to_driver=False)
    else:
        ray.init(include_dashboard=False, log_to_driver=False)
    print(f"Ray: {ray.cluster_resources().get('CPU', 0):g} CPUs")
    tasks = [t.id for t in phoneworld_gym.list_tasks()]
    print(f"{len(tasks)} tasks x {args.seeds} seeds, oracle, observations: {args.obs}\n")
    print("| workers | episodes | seconds | episodes/s | steps/s | success | start-up s |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    base = None
    for n in args.workers:
        r = rollouts(n, tasks, args.seeds, args.obs)
        base = base or r["episodes/s"]
        print(f"| {n} | {r['episodes']} | {r['seconds']:.2f} | {r['episodes/s']:.1f} "
              f"({r['episodes/s'] / base:.2f}x) | {r['steps/s']:.0f} | "
              f"{100 * r['success']:.1f}% | {r['start-up s']:.1f} |", flush=True)
    if args.vector_steps:
        print("\n| sub-envs | RayVectorEnv steps/s | sync steps/s |")
        print("|---:|---:|---:|")
        for n in args.workers:
            remote, sync = vector_rate(n, args.vector_steps, args.obs)
            print(f"| {n} | {remote:.0f} | {sync:.0f} |", flush=True)
    ray.shutdown()


if __name__ == "__main__":
    main()
