"""One module per ``sudoku-csp`` command, each with ``add_parser(sub)`` and ``run(args)``."""
