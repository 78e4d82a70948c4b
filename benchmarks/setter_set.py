"""The variant setter set of ``benchmarks/variants.py``, for the scripts that probe its
forcing steps (``forcing_free.py``, ``forcing_scope.py``, ``set_logic_probe.py``): the data
file, the techniques that count as the forcing family, and its rows. Importing it puts the
repository on ``sys.path`` (the scripts run from a checkout, not an installed package)."""
from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

_spec = importlib.util.spec_from_file_location("bench_variants", ROOT / "benchmarks" / "variants.py")
_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_bench)
#: the set's puzzles (one JSON object a line) and the report's forcing family
DATA, FORCING_FAMILY = _bench.DATA, _bench.FORCING_FAMILY


def rows() -> list[dict[str, Any]]:
    """The set's puzzles, in file order (the report's indices)."""
    return [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line]
