"""Train a small policy on Rope-v0 or Suika-v0 with the cross-entropy method (numpy only).

    python tools/train_cem.py rope  [--generations 12] [--population 16]
    python tools/train_cem.py suika [--generations 8]  [--population 10]
    python tools/train_cem.py both --plot docs/training.png --json docs/training.json --readme
    python tools/train_cem.py --table docs/training.json docs/training.png  # again, from the JSON

Each policy is a linear function of features of the observation alone (it never
looks at the game behind the environment, unlike the bundled bots):

- **Rope-v0** (``RopeCutter``, 7 weights): a rope still holding the candy is cut
  when ``w · (candy − Om Nom, candy velocity, pin − candy, 1) > 0``.
- **Suika-v0** (``SuikaDropper``, 5 weights): of 25 drop places across the box,
  the one of highest ``w · features`` is taken: the landing height of the fruit
  dropped there (from the observed fruits and their radii), same-kind and
  next-kind fruits near where it lands, its distance from the box's centre, and
  the gap below it.

Every generation samples ``population`` weight vectors from a Gaussian, plays
each on the same training seeds (suika episodes capped at ``--drops`` drops),
and refits the Gaussian to the best quarter. The fitness is the episode's
return (the score), and on rope, whose score comes only with a win, also
``1000 · (1 − the candy's closest approach to Om Nom, in screens)``: a shaped
signal from the observations, so that near misses rank above wild ones. The
trained policy and the random bot are then played on 20 held-out seeds
(1000–1019, never trained on) through ``ecsgoo.evaluate.evaluate``, whole
episodes as ``ecsgoo eval`` plays them. The CPU time is this process's own
(``time.process_time``). Results: the README's "Training an agent" and
BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("ARCADE_HEADLESS", "1")

import gymnasium as gym  # noqa: E402

import ecsgoo.envs as envs  # noqa: E402
from ecsgoo import fruit  # noqa: E402
from ecsgoo.evaluate import evaluate, interval95  # noqa: E402

#: Seeds the policies are compared on, never trained on.
HELD_OUT = tuple(range(1000, 1020))
#: Suika's playing field, px (the observation's fractions are of these).
SUIKA_WIDTH, SUIKA_HEIGHT = 960.0, 700.0
#: Drop places a suika policy chooses among, as actions.
DROPS = np.linspace(0.0, 1.0, 25)


class RopeCutter:
    """Cut each rope holding the candy when ``w · features > 0`` (7 weights)."""

    size = 7

    def __init__(self, weights: Any) -> None:
        self.weights = np.asarray(weights, np.float64)

    def __call__(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        candy, ropes, monster = observation["candy"], observation["ropes"], observation["monster"]
        action = np.zeros(len(ropes), np.int8)
        for i, (px, py, holding) in enumerate(ropes):
            if holding:
                features = np.array([candy[0] - monster[0], candy[1] - monster[1], candy[2],
                                     candy[3], px - candy[0], py - candy[1], 1.0])
                action[i] = features @ self.weights > 0
        return action


class SuikaDropper:
    """Drop at the place of highest ``w · features`` among ``DROPS`` (5 weights)."""

    size = 5

    def __init__(self, weights: Any) -> None:
        self.weights = np.asarray(weights, np.float64)

    def __call__(self, observation: dict[str, Any]) -> np.ndarray:
        kinds = observation["kinds"]
        present = kinds > 0
        xy = observation["fruits"][present] * (SUIKA_WIDTH, SUIKA_HEIGHT)
        kind = kinds[present] - 1
        radii = np.asarray(fruit.RADII)[kind]
        current, following = int(observation["current"]), int(observation["next"])
        r = fruit.RADII[current]
        left, right = observation["box"].astype(np.float64) * SUIKA_WIDTH
        xs = left + r + DROPS * (right - left - 2 * r)
        values = [self._features(x, r, xy, radii, kind, current, following, left, right)
                  @ self.weights for x in xs]
        return np.array([DROPS[int(np.argmax(values))]], np.float32)

    @staticmethod
    def _features(x: float, r: float, xy: np.ndarray, radii: np.ndarray, kind: np.ndarray,
                  current: int, following: int, left: float, right: float) -> np.ndarray:
        dx = np.abs(xy[:, 0] - x) if len(xy) else np.zeros(0)
        touch = dx < radii + r
        lands = xy[touch, 1] + np.sqrt((radii[touch] + r) ** 2 - dx[touch] ** 2)
        height = max(r, float(lands.max())) if len(lands) else r
        near = np.hypot(xy[:, 0] - x, xy[:, 1] - height) < 4 * r if len(xy) else np.zeros(0, bool)
        below = xy[dx < r, 1] + radii[dx < r] if len(xy) else np.zeros(0)
        gap = height - r - (float(below.max()) if len(below) else 0.0)
        return np.array([-height / SUIKA_HEIGHT, float(np.sum(near & (kind == current))),
                         float(np.sum(near & (kind == following))),
                         -abs(x - (left + right) / 2) / (right - left), -gap / SUIKA_HEIGHT])


#: Per environment: its id, the policy class, the training seeds, the step cap of a
#: training episode and the CEM's start (mean, std).
TASKS: dict[str, dict[str, Any]] = {
    "rope": {"env": "ecsgoo/Rope-v0", "policy": RopeCutter, "seeds": (0, 1, 2, 3)},
    "suika": {"env": "ecsgoo/Suika-v0", "policy": SuikaDropper, "seeds": (0, 1, 2)},
}


def fitness(task: str, env: Any, policy: Any, seed: int) -> float:
    """One training episode's fitness: its return, plus on rope the shaping term."""
    if task != "rope":
        return envs.episode_return(env, policy, seed=seed)
    observation, _ = env.reset(seed=seed)
    total, closest, done = 0.0, np.inf, False
    while not done:
        observation, reward, terminated, truncated, _ = env.step(policy(observation))
        total += float(reward)
        if observation["candy"].any():
            closest = min(closest, float(np.hypot(*(observation["candy"][:2]
                                                    - observation["monster"]))))
        done = terminated or truncated
    return total + 1000.0 * (1.0 - min(closest, 1.0))


def train(task: str, generations: int, population: int, drops: int,
          rng_seed: int = 0) -> dict[str, Any]:
    """CEM on ``task``; the curve, the trained weights and the held-out comparison."""
    spec = TASKS[task]
    cls = spec["policy"]
    steps = drops if task == "suika" else None
    env = gym.make(spec["env"], max_episode_steps=steps) if steps else gym.make(spec["env"])
    rng = np.random.default_rng(rng_seed)
    mean, std = np.zeros(cls.size), np.ones(cls.size)
    elite_count = max(2, population // 4)
    curve, start = [], time.process_time()
    for generation in range(generations):
        ws = rng.normal(mean, std, (population, cls.size))
        returns = np.array([statistics.fmean(fitness(task, env, cls(w), s)
                                             for s in spec["seeds"]) for w in ws])
        elite = ws[np.argsort(returns)[-elite_count:]]
        mean, std = elite.mean(axis=0), elite.std(axis=0) + 0.05
        curve.append({"generation": generation, "best": float(returns.max()),
                      "mean": float(returns.mean()),
                      "cpu_s": round(time.process_time() - start, 1)})
        print(f"{task} generation {generation}: best {returns.max():.1f}, "
              f"mean {returns.mean():.1f} ({curve[-1]['cpu_s']} CPU-s)", file=sys.stderr)
    env.close()
    trained_cpu = time.process_time() - start
    runs = evaluate(spec["env"], [cls(mean), "random"], HELD_OUT)
    trained, rand = (list(v) for v in runs.values())
    held = {name: {"mean": statistics.fmean(e["score"] for e in eps),
                   "ci95": interval95([e["score"] for e in eps]),
                   "won": sum(e["result"] == "won" for e in eps),
                   "scores": [e["score"] for e in eps]}
            for name, eps in (("trained", trained), ("random", rand))}
    return {"task": task, "env": spec["env"], "generations": generations,
            "population": population, "training_seeds": list(spec["seeds"]),
            "training_drops": steps, "weights": mean.tolist(), "curve": curve,
            "training_cpu_s": round(trained_cpu, 1),
            "total_cpu_s": round(time.process_time() - start, 1),
            "held_out_seeds": [HELD_OUT[0], HELD_OUT[-1]], "held_out": held}


def plot(results: list[dict[str, Any]], path: str) -> None:
    """The curves (best and mean training return per generation), one panel per task,
    with the held-out means of the trained policy and the random bot."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(results), figsize=(5 * len(results), 3.4), squeeze=False)
    for ax, result in zip(axes[0], results, strict=True):
        gens = [c["generation"] for c in result["curve"]]
        ax.plot(gens, [c["best"] for c in result["curve"]], "o-", label="best of generation")
        ax.plot(gens, [c["mean"] for c in result["curve"]], "s--", label="generation mean")
        for name, colour in (("trained", "#2a9d4a"), ("random", "#d05020")):
            held = result["held_out"][name]
            ax.axhline(held["mean"], color=colour, alpha=0.6,
                       label=f"{name}, 20 held-out whole games: {held['mean']:.0f} ± "
                                         f"{held['ci95']:.0f}")
        ax.set_title(f"{result['env']}: CEM, {result['training_cpu_s'] / 60:.1f} CPU-min")
        ax.set_xlabel("generation")
        what = ("score + closest-approach shaping" if result["task"] == "rope" else
                f"score of {result['training_drops']}-drop episodes")
        ax.set_ylabel(f"training fitness ({what})", fontsize=8)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def table(results: list[dict[str, Any]]) -> str:
    """The README's training table: per environment the CPU time and the held-out means."""
    lines = ["| environment | CEM | training | trained policy, 20 held-out seeds | random bot, "
             "the same seeds |", "|---|---|---|---|---|"]
    for r in results:
        trained, rand = r["held_out"]["trained"], r["held_out"]["random"]
        cap = f", episodes of {r['training_drops']} drops" if r["training_drops"] else ""
        lines.append(
            f"| `{r['env']}` | {r['generations']} generations × {r['population']} policies × "
            f"{len(r['training_seeds'])} seeds{cap} | {r['training_cpu_s'] / 60:.1f} CPU-min "
            f"({r['total_cpu_s'] / 60:.1f} with the held-out games) | **{trained['mean']:.0f}** "
            f"± {trained['ci95']:.0f}, {trained['won']} won | {rand['mean']:.0f} ± "
            f"{rand['ci95']:.0f}, {rand['won']} won |")
    return "\n".join(lines)


def write_readme(results: list[dict[str, Any]]) -> None:
    """Put ``table(results)`` into README.md between its ``table:training`` markers."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from readme_tables import replace

    readme = Path(__file__).resolve().parent.parent / "README.md"
    readme.write_text(replace(readme.read_text(encoding="utf-8"), "training", table(results)),
                      encoding="utf-8")


def main(argv: list[str]) -> int:
    if argv[:1] == ["--table"]:  # --table RESULTS.json [PNG]: README table (and plot) of a run
        results = json.loads(Path(argv[1]).read_text())
        write_readme(results)
        if len(argv) > 2:
            plot(results, argv[2])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("task", choices=[*TASKS, "both"])
    parser.add_argument("--generations", type=int, help="default: rope 12, suika 8")
    parser.add_argument("--population", type=int, help="default: rope 16, suika 10")
    parser.add_argument("--drops", type=int, default=150, help="suika: drops per training "
                        "episode (default 150)")
    parser.add_argument("--plot", metavar="PNG", help="draw the training curves")
    parser.add_argument("--json", metavar="FILE", help="write the results as JSON")
    parser.add_argument("--readme", action="store_true", help="write the README's table")
    args = parser.parse_args(argv)
    defaults = {"rope": (12, 16), "suika": (8, 10)}
    results = []
    for task in TASKS if args.task == "both" else [args.task]:
        generations = args.generations or defaults[task][0]
        population = args.population or defaults[task][1]
        result = train(task, generations, population, args.drops)
        held = result["held_out"]
        print(json.dumps({k: result[k] for k in ("env", "training_cpu_s", "total_cpu_s")}
                         | {name: round(held[name]["mean"], 1) for name in held}))
        results.append(result)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    if args.plot:
        plot(results, args.plot)
    if args.readme:
        write_readme(results)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
