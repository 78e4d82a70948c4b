"""Rules read from their text: what a SudokuPad drawing means when only the rules text says.

SudokuPad often stores a rule as a bare drawing (a coloured line, white circles) whose
meaning is in the puzzle's rules text: "Adjacent digits along a green line differ by at
least 5", "Any digit in a circle indicates exactly how many circles contain that digit".
:class:`RulesText` splits the text into statements (sentences, clauses between ``;``, with
the heading a paragraph starts with), and finds in each the rules it names (by name or by a
description we know: "set of consecutive digits in any order", "difference of at least N"),
their parameter (a whispers line's minimum difference) and the colour words and objects
(line, circle) it speaks of. :meth:`RulesText.meaning` then gives one drawn element its
meaning when the text makes it unambiguous:

- the statements naming a colour the element's colour can be called (``#60C060`` is
  green, ``#F067F0`` pink, purple or magenta ...) that name a rule for its object;
- else the colourless statements about it (``Digits along lines ...``), less the rules
  the text gives a colour (a rule of grey lines is not one of a red line);

and these name exactly one rule (with one parameter). Two rules is :class:`Ambiguous`;
a rule the reader cannot build (run-on renban: not modelled) comes back as itself, for the
reader to refuse naming it (parity lines, 10 lines and counting circles are read: the
reader builds them after the f-puzzles form).

>>> t = RulesText("Normal sudoku rules apply. Two cells connected by a line (either grey "
...               "or green) must have a difference of five or more. Digits along a purple "
...               "line form a set of consecutive digits in any order.")
>>> t.meaning("#60C060", "line")
Found(kind='whispers', value=5, text='Two cells connected by a line (either grey or green) must have a difference of five or more')
>>> t.meaning("#C060C0", "line").kind
'renban'
>>> t.meaning("#FF0000", "line") is None
True
>>> RulesText("Green lines are renban. Green lines are German whispers.").meaning(
...     "#00FF00", "line")
Ambiguous(colour='green', found=(Found(kind='renban', value=None, text='Green lines are renban'), Found(kind='whispers', value=None, text='Green lines are German whispers')))
"""
from __future__ import annotations

import colorsys
import re
from dataclasses import dataclass

_NUM_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
              "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12}
_NUM = r"([0-9]{1,2}|" + "|".join(_NUM_WORDS) + r")"

#: rules a text may name that sudoku-csp cannot model (so no rule record says how the text
#: names them): kind -> (the object it is drawn as, patterns, kinds it suppresses, its name)
_UNMODELLED: dict[str, tuple[str, tuple[str, ...], tuple[str, ...], str]] = {
    "run-on-renban": ("line", (r"\brun on renban",
                               r"\bevery (group|set) of (two|three|four|five|six|[2-6]) "
                               r"(contiguous |sequential |consecutive |adjacent )?(digits|cells)"
                               r"[^.;]{0,60}consecutive"), ("renban",), "run-on renban line")}


def _tables() -> tuple[dict[str, tuple[str, tuple[str, ...]]], dict[str, set[str]],
                       set[tuple[str, str]]]:
    """From the rule records (``SudokuPad(..., text=, drawn=, suppresses=)``) and
    :data:`_UNMODELLED`: kind -> (object, patterns); kind -> the kinds it suppresses; the
    (kind, object) pairs f-puzzles has no key for, built after its form."""
    from variants.record import records
    rules: dict[str, tuple[str, tuple[str, ...]]] = {}
    suppresses: dict[str, set[str]] = {}
    after: set[tuple[str, str]] = set()
    specs = [(sp.kind, sp.drawn or sp.element, sp.text, sp.suppresses, sp.element)
             for r in records().values() for sp in r.sudokupad if sp.text]
    specs += [(k, obj, pats, sup, "none") for k, (obj, pats, sup, _) in _UNMODELLED.items()]
    for kind, obj, pats, sup, element in specs:
        rules[kind] = (obj, tuple(pat.replace("{N}", _NUM) for pat in pats))
        if sup:
            suppresses[kind] = set(sup)
        if element == "custom":
            after.add((kind, obj))
    return rules, suppresses, after


#: kind -> (the object it is drawn as, patterns naming (the first) or describing it), from
#: the rule records. Text is matched in lower case with hyphens, quotes and line breaks made
#: spaces. A kind found beside another may say the other is not meant (a Dutch whispers
#: text also says "whisper"; a lockout text says "differ by at least 4" and "between").
_RULES, _SUPPRESSES, BUILT_AFTER = _tables()
#: rules the text may name that the reader cannot build as an f-puzzles line: kind -> its
#: name in messages (those of :data:`BUILT_AFTER` it builds after the f-puzzles form)
UNSUPPORTED = {k: (_UNMODELLED[k][3] if k in _UNMODELLED else k.replace("-", " "))
               for k in _RULES if k in _UNMODELLED or any(k == a for a, _ in BUILT_AFTER)}
#: rules sudoku-csp models but does not read from a SudokuPad drawing yet: kind -> its
#: bundle (none left)
NOT_READ: dict[str, str] = {}
#: colour words -> the hues (degrees) they name, for colours of saturation 0.2 or more
#: (0.1 for the pale ones); brown and navy are also dark (value at most 0.7 / 0.6)
_HUES: dict[str, tuple[tuple[int, int], ...]] = {
    "red": ((0, 15), (340, 360)), "orange": ((15, 45),), "brown": ((10, 45),),
    "yellow": ((40, 70),), "gold": ((40, 60),), "lime": ((65, 110),), "green": ((65, 170),),
    "teal": ((160, 200),), "turquoise": ((160, 200),), "cyan": ((165, 205),),
    "aqua": ((165, 205),), "blue": ((185, 255),), "navy": ((215, 250),),
    "lavender": ((230, 290),), "lilac": ((250, 300),), "violet": ((250, 310),),
    "purple": ((250, 320),), "magenta": ((280, 330),), "fuchsia": ((280, 330),),
    "pink": ((290, 350),)}
_PALE = {"lavender", "lilac"}
_DARK = {"brown": 0.7, "navy": 0.6}
#: colourless words: (most saturation, least value, most value)
_GREYS = {"grey": (0.2, 0.25, 0.95), "silver": (0.2, 0.6, 0.95), "white": (0.15, 0.9, 1.01),
          "black": (1.01, 0.0, 0.25)}
_COLOUR_ALIASES = {"gray": "grey", "megenta": "magenta", "purpl": "purple", "violett": "violet"}
_OBJECTS = {"line": r"\b(line|lines|stripe|stripes|path|thermo|thermos|thermometers?)\b",
            "circle": r"\b(circle|circles|circled)\b", "arrow": r"\b(arrow|arrows)\b"}
#: a Rossini text that says every arrow is given: an unmarked side is in no order
_ALL_ARROWS = (r"\b(all|every) (possible |such )?arrows? (is |are )?(given|shown|drawn|marked)",
               r"\bwhere there is no arrow", r"\bwithout an arrow\b[^.;]{0,60}\b(not|neither)",
               r"\bno arrow\b[^.;]{0,60}\b(not|neither)\b")


@dataclass(frozen=True)
class Found:
    """A meaning the rules text gives: the kind (a line meaning of
    :data:`sudoku_csp.formats.sudokupad.LINE_KINDS`, or one of :data:`UNSUPPORTED`), its
    number where the text gives one (a whispers line's minimum difference), and the
    statement that says so."""

    kind: str
    value: int | None
    text: str

    @property
    def meaning(self) -> str:
        """The meaning as a ``--line`` value: ``whispers:4``, ``renban``."""
        return self.kind if self.value is None else f"{self.kind}:{self.value}"


@dataclass(frozen=True)
class Ambiguous:
    """The rules text gives one drawn element several meanings (``colour``: the colour word
    or ``""`` when the statements name none)."""

    colour: str
    found: tuple[Found, ...]


@dataclass
class _Statement:
    text: str
    kinds: dict[str, int | None]
    colours: set[str]
    objects: set[str]


def colour_words(hex_colour: str) -> set[str]:
    """The colour words that can name ``#RRGGBB`` (alpha ignored).

    >>> sorted(colour_words("#F067F0"))
    ['fuchsia', 'lilac', 'magenta', 'pink', 'purple', 'violet']
    >>> sorted(colour_words("#CFCFCF")), sorted(colour_words("#2ECBFF"))
    (['grey', 'silver'], ['aqua', 'blue', 'cyan', 'teal', 'turquoise'])
    """
    r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    h, s, v = colorsys.rgb_to_hsv(r, g, b)
    words = {w for w, (most_s, lo, hi) in _GREYS.items() if s < most_s and lo <= v < hi}
    if v >= 0.25:
        words |= {w for w, hues in _HUES.items()
                  if s >= (0.1 if w in _PALE else 0.2) and v <= _DARK.get(w, 1.0)
                  and any(a <= h * 360 <= b for a, b in hues)}
    return words


def _number(word: str) -> int:
    return int(word) if word.isdigit() else _NUM_WORDS[word]


def _kinds(text: str) -> dict[str, int | None]:
    """The rules a statement names, each with its number (or None)."""
    found: dict[str, int | None] = {}
    for kind, (_, patterns) in _RULES.items():
        for pat in patterns:
            m = re.search(pat, text)
            if m is None:
                continue
            num = next((g for g in reversed(m.groups()) if g and re.fullmatch(_NUM, g)), None)
            if kind == "whispers" and num is not None:
                found[kind] = _number(num)
                break
            found.setdefault(kind, None)
    if "dutch-whispers" in found and found.get("whispers") is not None:
        found["dutch-whispers"] = found["whispers"]      # "Dutch whispers ... at least 3"
    for kind, gone in _SUPPRESSES.items():
        if kind in found:
            for g in gone:
                found.pop(g, None)
    return found


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[-_\u2010-\u2015'\"\u2018\u2019\u201c\u201d]", " ",
                                      text.lower())).strip()


class RulesText:
    """A puzzle's rules text, split into statements with the rules, colours and objects
    each names (module docstring)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.statements: list[_Statement] = []
        heading: dict[str, int | None] = {}
        for para in re.split(r"\n\s*\n", text):
            heading = {}
            for line in para.splitlines():
                raw = line.strip().lstrip("-*\u2022 ").strip()
                if not raw:
                    continue
                clean = _clean(raw)
                if len(clean.split()) <= 5 and not re.search(r"[.;!?]$", raw):
                    heading = _kinds(clean)          # a heading: "GERMAN WHISPERS"
                    if heading:
                        continue
                for part in re.split(r"(?<=[.!?;])\s+|;\s*", raw):
                    self._add(part.strip(), heading)

    def _add(self, raw: str, heading: dict[str, int | None]) -> None:
        raw = raw.rstrip(" .;")
        if not raw:
            return
        clean = _clean(raw)
        kinds = _kinds(clean)
        colours = set()
        for word in re.findall(r"[a-z]+", clean):
            w = _COLOUR_ALIASES.get(word, word)
            if w in _HUES or w in _GREYS:
                colours.add(w)
        objects = {o for o, pat in _OBJECTS.items() if re.search(pat, clean)}
        if not kinds and heading and (colours or objects):
            kinds = dict(heading)
            objects |= {_RULES[k][0] for k in kinds}
        # a rule named by its name speaks of its object ("a magenta renban"); one only
        # described speaks of what the statement names ("... sum to the same" of cages?)
        objects |= {_RULES[k][0] for k in kinds if re.search(_RULES[k][1][0], clean)}
        if kinds:
            self.statements.append(_Statement(raw, kinds, colours, objects))

    def _about(self, st: _Statement, obj: str) -> list[Found]:
        if obj not in st.objects:
            return []
        return [Found(k, v, st.text) for k, v in st.kinds.items() if _RULES[k][0] == obj]

    def meaning(self, hex_colour: str | None, obj: str,
                exclude: frozenset[str] = frozenset()) -> Found | Ambiguous | None:
        """What the text makes an element of colour ``hex_colour`` drawn as ``obj``
        (``line``, ``circle`` or ``arrow``): one :class:`Found`, an :class:`Ambiguous`, or None when
        the text says nothing about it. Kinds in ``exclude`` are not candidates (the
        reader excludes thermometers for a line with no bulb)."""
        words = colour_words(hex_colour) if hex_colour else set()
        named = [st for st in self.statements if st.colours and self._about(st, obj)]
        hits = [st for st in named if st.colours & words]
        colour = ""
        if hits:
            colour = "/".join(sorted(set.union(*(st.colours & words for st in hits))))
        else:             # the colourless statements, less the rules a colour is given for
            exclude = exclude | {f.kind for st in named for f in self._about(st, obj)}
            hits = [st for st in self.statements if not st.colours and self._about(st, obj)]
        found: dict[str, Found] = {}
        clash: list[Found] = []
        for st in hits:
            for f in self._about(st, obj):
                if f.kind in exclude:
                    continue
                old = found.get(f.kind)
                if old is None or (old.value is None and f.value is not None):
                    found[f.kind] = f
                elif f.value is not None and f.value != old.value:
                    clash.append(f)
        if clash:
            return Ambiguous(colour, tuple(found.values()) + tuple(clash))
        if len(found) > 1:
            return Ambiguous(colour, tuple(found.values()))
        if not found:
            return None
        return next(iter(found.values()))

    def all_arrows_given(self) -> str | None:
        """The statement saying every Rossini arrow is given (a side with none is in no
        order), or None.

        >>> RulesText("Rossini: arrows outside the grid point in the direction of increase. "
        ...           "All arrows are given.").all_arrows_given()
        'All arrows are given'
        """
        for part in re.split(r"(?<=[.!?;])\s+|;\s*|\n+", self.text):
            if any(re.search(p, _clean(part)) for p in _ALL_ARROWS):
                return part.strip().rstrip(" .;")
        return None


__all__ = ["RulesText", "Found", "Ambiguous", "UNSUPPORTED", "NOT_READ", "colour_words"]
