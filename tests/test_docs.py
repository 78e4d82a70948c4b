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
