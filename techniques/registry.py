"""Technique registry: metadata per technique and selection by name or family.

>>> t = get("hidden_single")
>>> t.title, t.family, t.code
('Hidden Single', 'singles', '0002')
>>> [t.name for t in select("singles")]
['full_house', 'naked_single', 'hidden_single']
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from csp.errors import SudokuCSPError
from csp.text import did_you_mean, one_line

from .ladder import MAX_N, sized_options

if TYPE_CHECKING:
    from csp.step import Step
    from .analysis import Analysis

Finder = Callable[["Analysis", dict], Iterable["Step"]]

#: HoDoKu difficulty levels and the maximum total score of each (a rating whose score
#: exceeds its level's maximum moves up one level).
LEVELS = ("easy", "medium", "hard", "unfair", "extreme")
LEVEL_MAX_SCORE = {"easy": 800, "medium": 1000, "hard": 1600, "unfair": 1800,
                   "extreme": 1 << 60}


def ladder_order(t: "Technique", variant: bool, jigsaw: bool = False) -> tuple[int, str]:
    """Sort key of a technique in the ladder (``variant``: for a variant puzzle, whose
    ladder moves a few costly techniques, :data:`techniques.ladder.VARIANT_ORDER`;
    ``jigsaw``: on irregular regions, where the Franken fish of
    :data:`techniques.ladder.JIGSAW_KEEP` keep their own place)."""
    if variant:
        from .ladder import JIGSAW_KEEP, VARIANT_ORDER   # read on use, not at load
        if jigsaw and t.name in JIGSAW_KEEP:
            return (t.order, t.name)
        return (VARIANT_ORDER.get(t.name, t.order), t.name)
    return (t.order, t.name)


class UnknownTechnique(SudokuCSPError, KeyError):
    """A technique or family name that is not registered."""

    def __str__(self) -> str:
        return one_line(self.args[0]) if self.args else "unknown technique"


@dataclass
class Technique:
    """A registered technique.

    ``finder(analysis, options)`` yields Steps (it may yield steps that change nothing; the
    solver skips those). ``code`` is the HoDoKu library code; ``variants`` maps a library
    ``-V`` number to option overrides; ``requires_unique``: only valid when the puzzle has a
    unique solution. ``order``, ``score``, ``level``, ``enabled`` (in the default selection)
    and ``se`` (Sudoku Explainer value) come from the technique's row of
    :mod:`techniques.ladder` when it is registered with :func:`register`.
    """

    name: str
    title: str
    family: str
    finder: Finder
    code: str | None = None
    score: int = 100
    order: int = 5000
    level: str = "hard"
    enabled: bool = True
    requires_unique: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    variants: dict[int, dict[str, Any]] = field(default_factory=dict)
    doc: str = ""
    se: float | None = None

    def options_at(self, n: int, options: dict | None = None) -> dict[str, Any]:
        """The technique's options on an n x n grid: its own defaults, sized for n
        (:data:`techniques.ladder.SIZED`), then ``options`` over them.

        >>> t = get("finned_franken_swordfish")
        >>> t.options_at(9)["max_fins"], t.options_at(16)["max_n"] < 16
        (5, True)
        """
        opts = sized_options(self.name, self.options, n)
        if options:
            opts.update(options)
        return opts

    def find(self, analysis: "Analysis", options: dict | None = None) -> Iterator["Step"]:
        """The technique's steps in ``analysis`` (options as :meth:`options_at`); none on
        a grid larger than its ``max_n`` option."""
        opts = self.options_at(analysis.n, options)
        if not runs_on(opts, analysis.n):
            return iter(())
        return iter(self.finder(analysis, opts))

    def options_for_variant(self, variant: int | None) -> dict[str, Any]:
        opts = dict(self.options)
        if variant is not None:
            opts.update(self.variants.get(variant, {}))
        return opts


def runs_on(opts: dict, n: int) -> bool:
    """Whether a technique with options ``opts`` runs on an n x n grid (its ``max_n``
    option, None or absent: every grid)."""
    m = opts.get(MAX_N)
    return m is None or n <= m


REGISTRY: dict[str, Technique] = {}

#: callables that import technique modules (each registers its techniques): the technique
#: families (``techniques``) and the rule families' own logic (``variants``), run once, on
#: the first question asked of the registry after they were added
_providers: list[Callable[[], None]] = []


def add_provider(fn: Callable[[], None]) -> None:
    """Register ``fn``, which imports modules that register techniques; it runs before
    the registry next answers a question. A layer above ``techniques`` uses this to add its
    own techniques without ``techniques`` importing it."""
    _providers.append(fn)


def load() -> dict[str, Technique]:
    """Run the pending providers; returns :data:`REGISTRY`."""
    while _providers:
        _providers.pop(0)()
    return REGISTRY


def register_technique(t: Technique) -> Technique:
    if t.name in REGISTRY:
        raise ValueError(f"technique {t.name!r} registered twice")
    if t.level not in LEVELS:
        raise ValueError(f"technique {t.name!r}: unknown level {t.level!r}")
    REGISTRY[t.name] = t
    return t


#: what a technique's code says about it; its place (order, score, level, default on/off,
#: SE value) is its row of :mod:`techniques.ladder`
_OWN = frozenset({"code", "options", "variants", "requires_unique"})


def register(name: str, title: str, family: str, **meta: Any) -> Callable[[Finder], Finder]:
    """Decorator: ``@register("x_wing", "X-Wing", "fish", code="0300")``; ``meta`` may also
    hold ``options``, ``variants`` and ``requires_unique``. The technique's order, score,
    level, default on/off and SE value come from its row of :mod:`techniques.ladder`, which
    it must have."""
    bad = set(meta) - _OWN
    if bad:
        raise TypeError(f"technique {name!r}: {', '.join(sorted(bad))} belong in "
                        "techniques/ladder.py, not in register()")
    from .ladder import BY_NAME   # read when techniques register, not when the registry loads
    try:
        r = BY_NAME[name]
    except KeyError:
        raise ValueError(f"technique {name!r} has no row in techniques/ladder.py") from None

    def deco(fn: Finder) -> Finder:
        register_technique(Technique(name, title, family, fn, doc=(fn.__doc__ or "").strip(),
                                     score=r.score, order=r.order, level=r.level,
                                     enabled=r.on, se=r.se, **meta))
        return fn

    return deco


def get(name: str) -> Technique:
    try:
        return load()[name]
    except KeyError:
        raise UnknownTechnique(f"unknown technique {name!r} (see `sudoku-csp techniques`)") from None


def all_techniques() -> list[Technique]:
    """Every registered technique, in default order."""
    return sorted(load().values(), key=lambda t: (t.order, t.name))


def families() -> list[str]:
    return sorted({t.family for t in load().values()})


def by_code(code: str) -> list[Technique]:
    return [t for t in all_techniques() if t.code == code]


def named(spec: str | Iterable[str] | None) -> frozenset[str]:
    """The techniques that ``spec`` (as for :func:`select`) asks for by their own or their
    family's name, not through ``"default"`` or ``"all"``: a run keeps these even where the
    ladder would leave them out (:data:`techniques.ladder.CLASSIC_SKIP`).

    >>> sorted(named("default,set_sums")), sorted(named("default"))
    (['set_sums'], [])
    """
    if spec is None:
        return frozenset()
    chosen = {t.name for t in select(spec)}
    items = [spec] if isinstance(spec, str) else list(spec)
    parts = {part.strip() for item in items for part in item.split(",")}
    return frozenset(t.name for t in REGISTRY.values()
                     if t.name in chosen and (t.name in parts or t.family in parts))


#: the selection keywords: every enabled technique, every registered one
KEYWORDS = ("default", "all")


def _members(item: str) -> list[Technique] | None:
    """The techniques one selection item names (a keyword, a technique, a family); None
    when it names nothing."""
    if item == "default":
        return [t for t in REGISTRY.values() if t.enabled]
    if item == "all":
        return list(REGISTRY.values())
    if item in REGISTRY:
        return [REGISTRY[item]]
    return [t for t in REGISTRY.values() if t.family == item] or None


def _unknown(item: str, removed: bool) -> UnknownTechnique:
    """The error of an unknown selection item, with the closest known names (difflib)."""
    known = {*KEYWORDS, *REGISTRY, *(t.family for t in REGISTRY.values())}
    hint = did_you_mean(item, known)
    where = " after '-'" if removed else ""
    return UnknownTechnique(f"unknown technique or family {item!r}{where}{hint} "
                            "(see `sudoku-csp techniques`)")


def select(spec: str | Iterable[str] | None = "default") -> list[Technique]:
    """Techniques named by ``spec``: ``"default"`` (enabled ones), ``"all"``, a family, a
    technique name, or a list of these (a string may list them comma-separated, as the
    CLI's ``--techniques`` does); a ``-item`` entry removes what the item names (a
    technique, a family, or a keyword: ``all,-default`` is every technique off by default),
    wherever it stands in the list. An unknown name, added or removed, raises
    :class:`UnknownTechnique` with the closest known names.

    >>> [t.name for t in select("singles,-naked_single")]
    ['full_house', 'hidden_single']
    >>> select("all,-all"), len(select("all,-default")) == len(all_techniques()) - len(select())
    ([], True)
    >>> select("default,-hiden_single")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    techniques.registry.UnknownTechnique: unknown technique or family 'hiden_single' after '-'; did you mean 'hidden_single' or ...?...
    """
    load()
    if spec is None:
        spec = "default"
    items = [spec] if isinstance(spec, str) else list(spec)
    parts = [part.strip() for item in items for part in item.split(",")]
    if any(not part for part in parts):
        raise UnknownTechnique(f"empty technique name in {spec!r} (see `sudoku-csp techniques`)")
    chosen: dict[str, Technique] = {}
    removed: set[str] = set()
    for part in parts:
        removal = part.startswith("-")
        key = part[1:].strip() if removal else part
        members = _members(key)
        if members is None:
            raise _unknown(key, removal)
        if removal:
            removed.update(t.name for t in members)
        else:
            chosen.update((t.name, t) for t in members)
    return sorted((t for name, t in chosen.items() if name not in removed),
                  key=lambda t: (t.order, t.name))
