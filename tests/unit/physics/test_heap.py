"""The heap keeps a frame's freed memory (glibc): no fresh pages a substep."""

import ctypes
import sys

import pytest

from ecsgoo import heap


def _glibc() -> bool:
    try:
        return sys.platform.startswith("linux") and hasattr(ctypes.CDLL("libc.so.6"), "mallopt")
    except OSError:
        return False


@pytest.mark.skipif(not _glibc(), reason="glibc only")
def test_the_trim_threshold_is_raised_on_glibc(monkeypatch):
    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)
    assert heap.keep_freed_memory()


def test_a_process_that_set_its_own_threshold_is_left_alone(monkeypatch):
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "131072")
    assert not heap.keep_freed_memory()


def test_elsewhere_than_linux_nothing_happens(monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.delenv("MALLOC_TRIM_THRESHOLD_", raising=False)
    assert not heap.keep_freed_memory()
