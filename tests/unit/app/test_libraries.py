"""Library lookups kept for later runs while the machine's libraries stay as they are
(``ecsgoo.app.libraries``): pyglet's lookups ran ``ldconfig``, ``gcc`` and ``ld`` at every
start (~54 ms of goo's warm start here)."""

from __future__ import annotations

import ctypes.util
import json

import pytest

from ecsgoo.app import libraries


@pytest.fixture
def lookups(monkeypatch):
    """A fresh process's ``find_library`` as often as asked: each records what it looks up."""
    asked: list[str] = []

    def new_process() -> list[str]:
        def lookup(name):
            asked.append(name)
            return f"lib{name}.so.1" if name in ("GL", "EGL") else None

        monkeypatch.setattr(ctypes.util, "find_library", lookup)
        return asked

    return new_process


def _ask(*names):
    return [ctypes.util.find_library(name) for name in names]


def test_a_later_run_asks_nothing_it_asked_before(lookups, tmp_path):
    kept = tmp_path / "ecsgoo" / "libraries.json"
    asked = lookups()
    libraries.remember_lookups(kept)
    assert _ask("GL", "avutil", "GL") == ["libGL.so.1", None, "libGL.so.1"]
    assert asked == ["GL", "avutil"]
    asked = lookups()  # the next run
    libraries.remember_lookups(kept)
    assert _ask("avutil", "GL", "EGL") == [None, "libGL.so.1", "libEGL.so.1"]
    assert asked == ["GL", "avutil", "EGL"], "only EGL was new"
    assert json.loads(kept.read_text())["answers"] == {"GL": "libGL.so.1", "avutil": None,
                                                      "EGL": "libEGL.so.1"}


def test_libraries_installed_or_removed_since_are_looked_up_again(lookups, tmp_path,
                                                                   monkeypatch):
    kept = tmp_path / "libraries.json"
    asked = lookups()
    libraries.remember_lookups(kept)
    _ask("GL", "avutil")
    monkeypatch.setattr(libraries, "stamp", lambda: ["ldconfig ran since"])
    asked = lookups()
    libraries.remember_lookups(kept)
    assert _ask("GL", "avutil") == ["libGL.so.1", None]
    assert asked == ["GL", "avutil", "GL", "avutil"]


def test_the_stamp_follows_the_system_record_and_the_search_paths(monkeypatch):
    mark = libraries.stamp()
    if mark is None:
        pytest.skip("no /etc/ld.so.cache here")
    monkeypatch.setenv("LD_LIBRARY_PATH", "/opt/elsewhere")
    assert libraries.stamp() != mark
    monkeypatch.setattr(libraries, "LD_CACHE", "/no/such/ld.so.cache")
    assert libraries.stamp() is None


@pytest.mark.parametrize("text", ["", "not json", "[]", '{"stamp": 1}',
                                  '{"stamp": STAMP, "answers": {"GL": 7}}'])
def test_a_file_that_is_not_ours_or_broken_is_as_none(lookups, tmp_path, text):
    kept = tmp_path / "libraries.json"
    kept.write_text(text.replace("STAMP", json.dumps(libraries.stamp())))
    asked = lookups()
    libraries.remember_lookups(kept)
    assert _ask("GL") == ["libGL.so.1"] and asked == ["GL"]
    if libraries.stamp() is not None:
        assert json.loads(kept.read_text())["answers"] == {"GL": "libGL.so.1"}


def test_without_ld_so_cache_answers_are_kept_for_the_process_only(lookups, tmp_path,
                                                                   monkeypatch):
    monkeypatch.setattr(libraries, "stamp", lambda: None)
    kept = tmp_path / "libraries.json"
    asked = lookups()
    libraries.remember_lookups(kept)
    assert _ask("GL", "GL") == ["libGL.so.1"] * 2 and asked == ["GL"]
    assert not kept.exists()


def test_a_folder_that_refuses_the_file_changes_no_answer(lookups, tmp_path):
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    asked = lookups()
    libraries.remember_lookups(blocked / "libraries.json")
    assert _ask("GL", "avutil", "GL") == ["libGL.so.1", None, "libGL.so.1"]
    assert asked == ["GL", "avutil"]


def test_the_answers_go_to_the_users_cache_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if libraries.answers_file().parent != tmp_path / "ecsgoo":
        pytest.skip("not a platform that follows XDG_CACHE_HOME")
    assert libraries.answers_file().name == "libraries.json"


def test_no_user_folder_to_be_found_keeps_answers_for_the_process(lookups, monkeypatch):
    def nowhere():
        raise KeyError("HOME")

    monkeypatch.setattr(libraries, "answers_file", nowhere)
    asked = lookups()
    libraries.remember_lookups()
    assert _ask("GL", "GL") == ["libGL.so.1"] * 2 and asked == ["GL"]


def test_a_write_that_fails_leaves_nothing_aside(lookups, tmp_path, monkeypatch):
    if libraries.stamp() is None:
        pytest.skip("no /etc/ld.so.cache here: nothing is written")

    def refuse(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(libraries.os, "replace", refuse)
    asked = lookups()
    libraries.remember_lookups(tmp_path / "libraries.json")
    assert _ask("GL") == ["libGL.so.1"] and asked == ["GL"]
    assert list(tmp_path.iterdir()) == []
