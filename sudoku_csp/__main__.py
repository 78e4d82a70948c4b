"""``python -m sudoku_csp``: the ``sudoku-csp`` command line."""
import sys

from .cli import main

sys.exit(main())
