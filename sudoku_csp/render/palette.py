"""The colours and the font of the pictures (:mod:`sudoku_csp.render`): ink, the pencil marks,
and the fills and strokes of the step overlays and of the generic rule marker."""
from __future__ import annotations

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"

INK = "#000000"
PLACED = "#1f5fbf"
CAND = "#505050"
HOUSE_FILL = "#fff3b0"
PATTERN_FILL = "#8fd68f"
CHAIN_FILL = "#c5e8c5"
FIN_FILL = "#8cb8ff"
COLOUR_FILLS = ("#8fd68f", "#ffb870", "#8cb8ff", "#f0a0e8")
ELIM_FILL = "#ffb0b0"
ELIM_STROKE = "#d00000"
PLACE_FILL = "#3cb371"
STRONG = "#d62728"
WEAK = "#1f77b4"
IMPLY = "#c26a00"          # a proof's arrows: what follows from what
TRIAL_FILL = "#ffc06a"     # the candidate a proof tries
FORCED_FILL = "#a8cdfa"    # the placements that follow from it
GENERIC = "#8e44ad"
