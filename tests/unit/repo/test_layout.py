"""The tests' layout: every test file's name is its own.

The test folders are not packages, so pytest imports each file by its name alone: a
second ``test_disc_frame.py`` in another folder stops the whole collection ("import file
mismatch"), and a maintainer looking for "the tests of X" would find two.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parents[2]


def test_no_two_test_files_share_a_name() -> None:
    names = Counter(path.name for path in TESTS.rglob("test_*.py"))
    assert names["test_layout.py"] == 1  # (it looks where the tests are)
    assert [name for name, count in names.items() if count > 1] == []
