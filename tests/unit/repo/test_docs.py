"""The README and docs/: the Quick start CI runs, and links that exist in a clone."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _quick_start() -> list[str]:
    text = (ROOT / "README.md").read_text()
    section = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    block = section.split("```", 2)[1]
    return [line for line in block.splitlines() if line.strip()]


def test_quick_start_is_two_commands_in_a_virtual_environment():
    play, test = _quick_start()
    for command in (play, test):
        assert command.startswith("python3 -m venv .venv && .venv/bin/pip install -e ")
    assert play.endswith(".venv/bin/ecsgoo play goo")
    assert test.endswith(".venv/bin/python -m pytest -q -n auto")


def test_ci_runs_the_readme_test_command_verbatim():
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert _quick_start()[1] in ci


def test_every_relative_link_in_the_docs_exists():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for page in pages:
        for target in re.findall(r"\]\(([^)#]+)\)", page.read_text()):
            if "://" in target:
                continue
            assert (page.parent / target).exists(), f"{page.name}: {target}"
            assert ".." not in Path(target).parts, f"{page.name} links outside: {target}"


def test_the_contract_lives_in_the_repository():
    for path in (ROOT / "README.md", ROOT / "ecsgoo" / "__init__.py"):
        assert "shared/" not in path.read_text(), path.name
    assert "# ecsgoo — the public contract" in (ROOT / "docs" / "api.md").read_text()
