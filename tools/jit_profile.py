"""Where a scene's CPU goes, kernel by kernel: ``perf`` samples of a running process, the
JIT-compiled addresses named through gdb (numba registers its code with gdb's JIT
interface, not with perf).

    python tools/jit_profile.py chain            # a scene below, stepped until killed
    python tools/jit_profile.py small:column     # tools/bench.py's small scenes
    python tools/jit_profile.py pile:300 --seconds 6

Prints the share of samples per kernel (numba's mangled names, shortened), then the top
native symbols outside the JIT (the interpreter, libm, numba's runtime). Needs ``perf``
and ``gdb`` on the PATH and leave to attach to a child process (root here).
Measured with it (BENCHMARKS.md, "Small scenes, the kernels' reference counts"):
``NRT_incref``/``NRT_decref`` were 17-20 % of a small scene's frame.
"""

from __future__ import annotations

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")

#: Scenes by name: Python that builds ``w`` (a World) with ``tests`` and ``tools`` importable.
SCENES = {
    "chain": "import bench_joints; w = bench_joints._EcsgooChain().world",
    "pyramid": "import scenes; w = scenes.box_pyramid(int(ARG or 20))[0]",
    "pile": "import scenes; w = scenes.circle_pile(int(ARG or 2000))",
    "small": "import bench; w = bench._ecsgoo_small(ARG or 'one box')",
    "jelly": "import scenes; w = scenes.jelly_field(int(ARG or 200))",
}
_RUN = """import sys
sys.path[:0] = [{tools!r}, {tests!r}]
ARG = {arg!r}
{build}
while True:
    w.step()
"""


def _runner(scene: str) -> str:
    name, _, arg = scene.partition(":")
    if name not in SCENES:
        raise SystemExit(f"unknown scene {name!r} (these: {', '.join(SCENES)})")
    return _RUN.format(tools=HERE, tests=os.path.join(ROOT, "tests"), arg=arg or None,
                       build=SCENES[name])


def _samples(pid: int, seconds: float, out: str) -> list[tuple[float, str, str]]:
    """``(percent, dso, symbol)`` rows of a ``perf record`` of ``pid``."""
    subprocess.run(["perf", "record", "-q", "-o", out, "-F", "4000", "-p", str(pid), "--",
                    "sleep", str(seconds)], check=True, capture_output=True)
    report = subprocess.run(["perf", "report", "-i", out, "--no-children", "--sort",
                             "dso,sym", "-g", "none"], check=True, capture_output=True,
                            text=True).stdout
    rows = []
    for line in report.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+(.*?)\s+\[\.\]\s+(\S+)", line)
        if m:
            rows.append((float(m.group(1)), m.group(2).strip(), m.group(3)))
    return rows


def _names(pid: int, addresses: list[str]) -> list[str]:
    """gdb's name of each JIT address in the live process (``?`` if none)."""
    script = "\n".join(f"info symbol {a}" for a in addresses)
    with tempfile.NamedTemporaryFile("w", suffix=".gdb", delete=False) as f:
        f.write(script)
    out = subprocess.run(["gdb", "-p", str(pid), "-batch", "-x", f.name],
                         capture_output=True, text=True).stdout
    os.unlink(f.name)
    names = [line for line in out.splitlines()
             if " in section " in line or line.startswith("No symbol")]
    names = [re.sub(r" \+ \d+ in section.*| in section.*", "", n) for n in names]
    return (names + ["?"] * len(addresses))[: len(addresses)]


def _short(name: str) -> str:
    """A numba kernel's mangled or demangled name as ``module.function``."""
    m = re.search(r"ecsgoo::kernels::(\w+)::(\w+)", name)
    if m:
        return f"{m.group(1)}.{m.group(2)}"
    m = re.search(r"_ZN(?:7cpython)?6ecsgoo7kernels\d+(\w+?)\d+(\w+?)B\d", name)
    if m:
        return f"{m.group(1)}.{m.group(2)}"
    return name[:60]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scene", help=f"one of {', '.join(SCENES)}, optionally NAME:ARG")
    parser.add_argument("--warm", type=float, default=8.0, help="seconds before sampling")
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds sampled")
    args = parser.parse_args()
    child = subprocess.Popen([sys.executable, "-c", _runner(args.scene)], cwd=ROOT)
    try:
        time.sleep(args.warm)
        with tempfile.TemporaryDirectory() as tmp:
            rows = _samples(child.pid, args.seconds, os.path.join(tmp, "perf.data"))
        jit = [r for r in rows if r[1].startswith("[JIT]")]
        names = _names(child.pid, [r[2] for r in jit])
    finally:
        child.kill()
        child.wait()
    by_kernel: collections.Counter[str] = collections.Counter()
    for (pct, _, _), name in zip(jit, names, strict=True):
        by_kernel[_short(name)] += pct
    print(f"JIT code: {sum(r[0] for r in jit):.1f}% of the samples")
    for name, pct in by_kernel.most_common(25):
        print(f"{pct:6.2f}%  {name}")
    print("outside the JIT:")
    for pct, dso, sym in [r for r in rows if not r[1].startswith("[JIT]")][:10]:
        print(f"{pct:6.2f}%  {sym} ({os.path.basename(dso)})")


if __name__ == "__main__":
    main()
