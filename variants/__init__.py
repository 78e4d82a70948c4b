"""The rule catalogue: one module per rule family, each a set of rule bundles used with
``Puzzle.use(...)``. Importing the package registers the variants' own named techniques
(consecutive family, killer, law of leftovers, inequality bounds) in
:mod:`techniques.registry`.

>>> from csp import Puzzle
>>> from variants import classic, diagonal, killer_cage
>>> p = Puzzle(9).use(classic(), diagonal(), killer_cage(["r1c1", "r1c2"], total=3))
>>> p.propagate().candidates("r1c1")
(1, 2)
"""
from . import consecutive_logic, inequality_logic, killer_logic  # noqa: F401
from . import render  # noqa: F401  (registers the _repr_svg_ renderer of csp.display)
from .arrow import arrow, double_arrow
from .chess import anti_king, anti_knight
from .classic import classic, classic_puzzle
from .dots import (black_dot, diagonal_non_consecutive, knight_non_consecutive, negative,
                   non_consecutive, sum_dot, v_dot, white_dot, x_dot)
from .inequality import greater_than, less_than, slow_thermo, thermo
from .killer import digital_root_cage, killer_cage, little_killer, multi_sum_cage
from .lines import (between_line, entropic_line, lockout, modular_line, nabner, palindrome,
                    region_sum_line, renban, whispers, zipper_line)
from .misc import clone, indexer, quadruple
from .outside import sandwich, skyscraper, x_sum
from .parity import digits, even, maximum, minimum, odd
from .regions import diagonal, disjoint_groups, extra_region, jigsaw_grid, windoku

__all__ = [
    "arrow", "double_arrow", "anti_king", "anti_knight", "classic", "classic_puzzle",
    "black_dot", "diagonal_non_consecutive", "knight_non_consecutive", "negative",
    "non_consecutive", "sum_dot", "v_dot", "white_dot", "x_dot",
    "greater_than", "less_than", "slow_thermo", "thermo", "killer_cage", "little_killer",
    "multi_sum_cage", "digital_root_cage",
    "between_line", "entropic_line", "lockout", "modular_line", "nabner", "palindrome",
    "region_sum_line", "renban", "whispers", "zipper_line", "clone", "indexer", "quadruple",
    "sandwich", "skyscraper", "x_sum", "digits", "even", "maximum", "minimum", "odd", "diagonal",
    "disjoint_groups", "extra_region", "jigsaw_grid", "windoku",
]
