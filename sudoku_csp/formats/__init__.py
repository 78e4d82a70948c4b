"""Puzzle formats: what a PUZZLE argument can be (:mod:`.loader`), links and payloads
(:mod:`.payload`), f-puzzles (:mod:`.fpuzzles`), SudokuPad (:mod:`.sudokupad`) and
sudoku-csp's own JSON (:mod:`.spec`); ``docs/formats.md`` says how each is read."""
