"""Puzzle formats: what a PUZZLE argument can be (:mod:`.loader`), f-puzzles
(:mod:`.fpuzzles`) and sudoku-csp's own JSON (:mod:`.spec`)."""
