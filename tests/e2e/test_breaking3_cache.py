"""The numba cache under what breaks it (issue 29): an entry is tied to its kernel and
signature, and concurrent first compiles never make a sound entry look corrupt."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ecsgoo import numba_cache

ROOT = Path(__file__).resolve().parents[2]
KERNELS = """
from numba import njit

@njit(cache=True)
def twice(x):
    return 2 * x

@njit(cache=True)
def add(x, y):
    return x + y
"""
RUN = "import ecsgoo, kernels_y; print(kernels_y.twice(4), kernels_y.add(4, 3))"


def _env(tmp_path: Path) -> dict:
    (tmp_path / "kernels_y.py").write_text(KERNELS)
    env = {**os.environ, "PYTHONPATH": f"{ROOT}{os.pathsep}{tmp_path}", "ARCADE_HEADLESS": "1"}
    env.pop("NUMBA_CACHE_DIR", None)
    return env


def _run(tmp_path: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", RUN], capture_output=True, text=True,
                          env=_env(tmp_path), cwd=tmp_path, timeout=300)


def test_entries_of_two_kernels_swapped_are_not_run_as_each_other(tmp_path):
    first = _run(tmp_path)
    assert first.stdout.split() == ["8", "7"], first.stderr
    cache = tmp_path / "__pycache__"
    (one,), (two,) = cache.glob("kernels_y.twice-*.nbc"), cache.glob("kernels_y.add-*.nbc")
    a, b = one.read_bytes(), two.read_bytes()
    one.write_bytes(b)  # each is whole, with a good checksum: of the other kernel
    two.write_bytes(a)
    proc = _run(tmp_path)
    assert proc.returncode == 0 and proc.stdout.split() == ["8", "7"], proc.stderr
    assert "corrupt" not in proc.stderr, "a whole entry of another kernel is no alarm"
    assert one.read_bytes() != b, "compiled again and saved as its own"
    assert _run(tmp_path).stderr == ""


def test_the_frame_names_kernel_and_signature_and_catches_a_flipped_bit():
    data = numba_cache.frame(b"mod.f-3.py311.nbi\0(int64,)", b"payload" * 10)
    assert numba_cache.unframe(data, "x") == (b"mod.f-3.py311.nbi\0(int64,)", b"payload" * 10)
    flipped = bytearray(data)
    flipped[-5] ^= 1
    with pytest.raises(ValueError, match="changed"):
        numba_cache.unframe(bytes(flipped), "x")
    with pytest.raises(ValueError):
        numba_cache.unframe(data[: len(numba_cache.MAGIC) + 2], "x")


def test_processes_compiling_at_once_from_empty_raise_no_alarm(tmp_path):
    env = _env(tmp_path)
    procs = [subprocess.Popen([sys.executable, "-c", RUN], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=env, cwd=tmp_path)
             for _ in range(3)]
    for p in procs:
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0 and out.split() == ["8", "7"], err
        assert err == "", err
    assert _run(tmp_path).stderr == "", "what they left loads"
