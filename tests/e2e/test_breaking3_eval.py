"""``ecsgoo eval`` under what breaks it (issue 29): a worker killed mid-run loses no
finished episode, an unreachable Ray cluster is a clear error, ``--workers`` is capped
at what the machine holds."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from ecsgoo import cli
from ecsgoo.evaluate import LostEpisodes, engines, evaluate


def _die_once(marker: str, seed: int) -> dict:
    """An episode whose worker is killed (SIGKILL) the first time any episode runs."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL)
    except FileExistsError:
        return {"seed": seed}
    os.close(fd)
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable")


def _poison(seed: int) -> dict:
    """Seed 3 kills its worker every time it is played."""
    if seed == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    return {"seed": seed}


def test_episodes_a_killed_worker_took_with_it_are_played_again(tmp_path):
    calls = []
    marker = str(tmp_path / "died")
    out = engines.run_local(_die_once, [(marker, s) for s in range(6)], 2, None,
                            lambda: calls.append(1))
    assert out == [{"seed": s} for s in range(6)]
    assert len(calls) == 6 and Path(marker).exists()


def test_an_episode_that_always_kills_its_worker_loses_only_itself():
    out = engines.run_local(_poison, [(s,) for s in range(6)], 2, None, lambda: None)
    assert out == [{"seed": s} if s != 3 else None for s in range(6)]


def test_eval_writes_what_finished_and_reports_the_lost(monkeypatch, tmp_path, capsys):
    def lossy(play, jobs, workers, address, done):
        return [None if job[3] == 1 else play(*job) for job in jobs]

    monkeypatch.setitem(engines.ENGINES, "local", lossy)
    with pytest.raises(LostEpisodes) as info:
        evaluate("suika", "random", seeds=3, frames=30)
    assert [e["seed"] for e in info.value.runs["random"]] == [0, 2]
    assert info.value.lost == [("random", 1)]
    csv = tmp_path / "out.csv"
    rc = cli.main(["eval", "suika", "--bot", "random", "--seeds", "3", "--frames", "30",
                   "--csv", str(csv)])
    out = capsys.readouterr()
    assert rc == 1 and "1 of 3 episodes lost" in out.err and "random seed 1" in out.err
    assert json.loads(out.out.splitlines()[-1])["seeds"] == [0, 2]
    assert len(csv.read_text().splitlines()) == 3  # a header and the two that finished


def test_workers_are_capped_at_cores_memory_and_jobs(monkeypatch):
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(64)), raising=False)
    monkeypatch.setattr(engines, "_available_memory", lambda: 3 * engines.WORKER_BYTES)
    n, why = engines.worker_cap(1000, 16)
    assert n == 3 and "--workers 1000 capped at 3" in why and "memory" in why
    monkeypatch.setattr(engines, "_available_memory", lambda: None)
    assert engines.worker_cap(1000, 16)[0] == 16
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    n, why = engines.worker_cap(1000, 16)
    assert n == 2 and "2 cores" in why
    assert engines.worker_cap(2, 16) == (2, "")


def test_eval_says_when_it_caps_the_workers(capsys):
    evaluate("suika", "random", seeds=2, frames=30, workers=1000)
    assert "--workers 1000 capped at" in capsys.readouterr().err


def test_an_unreachable_ray_address_is_a_connection_error(capsys):
    pytest.importorskip("ray")
    with pytest.raises(ConnectionError, match="127.0.0.1:1"):
        evaluate("suika", "random", seeds=1, frames=30, engine="ray", address="127.0.0.1:1")
    rc = cli.main(["eval", "suika", "--bot", "random", "--seeds", "1", "--frames", "30",
                   "--engine", "ray", "--address", "127.0.0.1:1"])
    assert rc == 1 and "no Ray cluster there" in capsys.readouterr().err


def test_a_ray_address_is_probed_before_ray_init(monkeypatch):
    seen = []

    class FakeRay:
        @staticmethod
        def init(**kwargs):
            seen.append(kwargs["address"])

    with pytest.raises(ConnectionError, match="expected host:port"):
        engines._connect(FakeRay, "nowhere", 2)
    with pytest.raises(ConnectionError, match="no Ray cluster there"):
        engines._connect(FakeRay, "ray://127.0.0.1:1", 2)
    engines._connect(FakeRay, "auto", 2)
    assert seen == ["auto"], "ray.init only once the address took a connection"
