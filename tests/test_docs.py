"""Every Python code block of the README and docs/*.md runs."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import ROOT

FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]
BLOCKS = [(f, i, code) for f in FILES if f.exists()
          for i, code in enumerate(re.findall(r"```python\n(.*?)```", f.read_text(), re.S))]


@pytest.mark.parametrize("path, index, code", BLOCKS,
                         ids=[f"{f.relative_to(ROOT)}#{i}" for f, i, _ in BLOCKS])
def test_code_block_runs(path, index, code, capsys):
    exec(compile(code, f"{path.name} block {index}", "exec"), {"__name__": "__doc__"})


def test_named_test_files_exist():
    """Every test file the README and docs name (``tests/...py``) exists: tests move into
    sub-folders, and a reader who follows a stale path finds nothing."""
    missing = [f"{f.relative_to(ROOT)}: {name}" for f in FILES if f.exists()
               for name in sorted(set(re.findall(r"tests/[A-Za-z0-9_/]+\.py", f.read_text())))
               if not (ROOT / name).exists()]
    assert missing == []
