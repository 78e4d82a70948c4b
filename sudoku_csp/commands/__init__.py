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
    "listen": 'serve the f-puzzles solver userscript on a local websocket (ws://localhost:4545)',
    "reglib": 'run a HoDoKu regression library file',
    "graph": 'export the constraint, cell or link graph',
    "techniques": 'list the registered techniques',
    "rules": 'list the rules: Python call, f-puzzles key, SudokuPad convention, techniques',
    "render": 'draw a puzzle, its pencil marks or a logic step as SVG or PNG',
    "generate": 'make puzzles with one solution at a logic level',
    "convert": 'write a puzzle as sudoku-csp JSON, f-puzzles JSON or URL, a SudokuPad URL, or a line string',
    "report": "the setter's report: solutions, clue suggestions, logic, break-in, needed and redundant elements",
    "rate": 'rate puzzles by logic: HoDoKu-style level and score, Sudoku Explainer-like ER/EP/ED',
    "why": 'why a candidate is false (a logic refutation), or in how many solutions it is true',
}
