"""One module per ``sudoku-csp`` command, each with ``add_parser(sub)`` (which sets ``run``
as the parser's default) and ``run(args) -> exit code``. :data:`COMMANDS` lists them with
their one-line help, in the order ``--help`` shows them; the command line imports only the
module of the command it runs (and all of them for ``--help``).
"""

COMMANDS: dict[str, str] = {
    "solve": 'solve puzzles (search by default, --logic for techniques)',
    "hint": 'the next logic step, at increasing detail',
    "explain": 'the whole logic solve as an HTML page to step through',
    "count": 'count solutions up to a limit, list them, or estimate their number',
    "candidates": 'true candidates: the digits each cell holds in some solution, with counts',
    "reglib": 'run a HoDoKu regression library file',
    "graph": 'export the constraint, cell or link graph',
    "techniques": 'list the registered techniques',
    "render": 'draw a puzzle, its pencil marks or a logic step as SVG or PNG',
    "generate": 'make puzzles with one solution at a logic level',
    "convert": 'write a puzzle as sudoku-csp JSON, f-puzzles JSON or URL, a SudokuPad URL, or a line string',
}
