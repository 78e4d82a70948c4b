"""Line breaking of the text under a picture and of step explanations: at spaces and inside
a chain's notation between its links, never inside a cell name."""
from __future__ import annotations

import re

# break opportunities inside a word: after a comma, before a chain link "=(" / "-(" and
# before "=r" (a 2-string kite's "=r6c2"); never inside a cell name such as r5c8
_BREAK = re.compile(r"(?<=,)(?=\S)|(?=[=\-][(r]\w)")


def break_atoms(text: str) -> list[tuple[str, bool]]:
    """The unbreakable pieces of ``text`` with whether a space comes before each.

    >>> break_atoms("Nice Loop: (2)r2c7=(2)r7c7-(7)r7c7 => r2c7<>4")[2:5]
    [('(2)r2c7', True), ('=(2)r7c7', False), ('-(7)r7c7', False)]
    """
    out: list[tuple[str, bool]] = []
    for word in text.split():
        pieces = [p for p in _BREAK.split(word) if p]
        out.extend((p, i == 0 and bool(out)) for i, p in enumerate(pieces))
    return out


def wrap_text(text: str, width: int) -> list[str]:
    """Greedy wrap at ``width`` characters, breaking at spaces and the break points of
    :func:`break_atoms` (a piece longer than a line is cut only when it must be).

    >>> wrap_text("AIC: (1)r1c1=(1)r1c5-(1)r3c4=(1)r3c9 => r1c9<>1", 22)
    ['AIC: (1)r1c1=(1)r1c5', '-(1)r3c4=(1)r3c9 =>', 'r1c9<>1']
    """
    out: list[str] = []
    line = ""
    for atom, space in break_atoms(text):
        while len(atom) > width:
            if line:
                out.append(line)
                line = ""
            out.append(atom[:width])
            atom = atom[width:]
            space = False
        joined = (line + " " + atom) if (line and space) else line + atom
        if not line or len(joined) <= width:
            line = joined
        else:
            out.append(line)
            line = atom
    if line:
        out.append(line)
    return out
