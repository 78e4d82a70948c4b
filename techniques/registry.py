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
from csp.text import did_you_mean, one_line, quoted

from .ladder import MAX_N, sized_options

if TYPE_CHECKING:
    from csp.step import Step
    from .analysis import Analysis

Finder = Callable[["Analysis", dict], Iterable["Step"]]


@dataclass(frozen=True, slots=True)
class Option:
    """One option of a technique, declared at registration: its ``default``, what it means
    (one line, shown by ``sudoku-csp techniques``) and the ``type`` a caller's value must
    have (None: any; a ``None`` value is accepted where the default is None).

    >>> Option(20, "longest chain, in links", int).check("max_length", 12)
    12
    >>> Option(20, "longest chain, in links", int).check("max_length", "long")
    Traceback (most recent call last):
    ...
    techniques.registry.UnknownOption: technique option 'max_length' must be int, not 'long'
    """

    default: Any
    meaning: str
    type: type | tuple[type, ...] | None = None

    def check(self, key: str, value: Any) -> Any:
        """``value`` when it has the declared type (an int where a float is declared, and
        None where the default is None, are accepted); else :class:`UnknownOption`."""
        t = self.type
        if t is None or value is None and self.default is None:
            return value
        ok = isinstance(value, t) or (t is float and isinstance(value, int))
        if not ok or (isinstance(value, bool) and t in (int, float)):
            want = t.__name__ if isinstance(t, type) else " or ".join(x.__name__ for x in t)
            raise UnknownOption(f"technique option {quoted(key)} must be {want}, not {quoted(value)}")
        return value


class Options(dict):
    """A technique's declared options (name -> :class:`Option`), given to :func:`register`
    and read by its finder with :meth:`read`: the one accessor, whose default is the
    declaration's (a finder called directly with ``{}`` gets the defaults) and which
    refuses a name the declaration lacks (a finder reading an undeclared option fails).
    Read options once per finder call into locals, never in an inner loop.

    >>> CHAIN = Options(max_length=Option(20, "longest chain, in links", int))
    >>> CHAIN.read({}, "max_length"), CHAIN.read({"max_length": 8}, "max_length")
    (20, 8)
    >>> CHAIN.read({}, "max_lenght")
    Traceback (most recent call last):
    ...
    KeyError: "option 'max_lenght' is not declared (declared: max_length)"
    """

    def read(self, opts: dict, key: str) -> Any:
        try:
            decl = self[key]
        except KeyError:
            raise KeyError(f"option {key!r} is not declared "
                           f"(declared: {', '.join(sorted(self)) or 'none'})") from None
        return opts.get(key, decl.default)

    def defaults(self) -> dict[str, Any]:
        """Name -> default of every declared option."""
        return {k: o.default for k, o in self.items()}

    def with_(self, **more: Option) -> "Options":
        """These options and ``more`` (a technique that reads a few more than its family)."""
        return Options(self, **more)

#: HoDoKu difficulty levels and the maximum total score of each (a rating whose score
#: exceeds its level's maximum moves up one level).
LEVELS = ("easy", "medium", "hard", "unfair", "extreme")
LEVEL_MAX_SCORE = {"easy": 800, "medium": 1000, "hard": 1600, "unfair": 1800,
                   "extreme": 1 << 60}


def ladder_order(t: "Technique", variant: bool, jigsaw: bool = False) -> int:
    """Sort key of a technique in the ladder: its row's place (``variant``: for a variant
    puzzle, whose ladder moves a few costly techniques, :data:`techniques.ladder.VARIANT_ORDER`;
    ``jigsaw``: on irregular regions, where the Franken fish of
    :data:`techniques.ladder.JIGSAW_KEEP` keep their own place)."""
    if variant:
        from .ladder import VARIANT_POSITION   # read on use, not at load
        return VARIANT_POSITION[jigsaw].get(t.name, t.position)
    return t.position


class UnknownOption(SudokuCSPError, KeyError):
    """A technique option that no registered technique declares, or a value of the wrong
    type (the CLI reports it with exit code 2)."""

    def __str__(self) -> str:
        return one_line(self.args[0]) if self.args else "unknown technique option"


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
    options: dict[str, Option] = field(default_factory=dict)
    variants: dict[int, dict[str, Any]] = field(default_factory=dict)
    doc: str = ""
    se: float | None = None
    #: place in the ladder (the row's position in :data:`techniques.ladder.LADDER`): the
    #: solver tries techniques in this order
    position: int = 1 << 30

    def __post_init__(self) -> None:
        self.options = Options({**COMMON_OPTIONS, **self.options})
        #: name -> default of every declared option (built once)
        self.defaults: dict[str, Any] = self.options.defaults()

    def options_at(self, n: int, options: dict | None = None) -> dict[str, Any]:
        """The technique's options on an n x n grid: its own defaults, sized for n
        (:data:`techniques.ladder.SIZED`), then ``options`` over them.

        >>> t = get("finned_franken_swordfish")
        >>> t.options_at(9)["max_fins"], t.options_at(16)["max_n"] < 16
        (5, True)
        """
        opts = sized_options(self.name, self.defaults, n)
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
        """The defaults with the overrides of HoDoKu library variant ``variant``."""
        opts = dict(self.defaults)
        if variant is not None:
            opts.update(self.variants.get(variant, {}))
        return opts


def runs_on(opts: dict, n: int) -> bool:
    """Whether a technique with options ``opts`` runs on an n x n grid (its ``max_n``
    option, None or absent: every grid)."""
    m = opts.get(MAX_N)
    return m is None or n <= m


REGISTRY: dict[str, Technique] = {}

#: options every technique takes (declared here, once)
COMMON_OPTIONS: dict[str, Option] = {
    MAX_N: Option(None, "largest grid side n the technique runs on (None: every grid)", int),
}


def declared_options() -> dict[str, list[Technique]]:
    """Every declared option name -> the techniques that declare it."""
    out: dict[str, list[Technique]] = {}
    for t in load().values():
        for k in t.options:
            out.setdefault(k, []).append(t)
    return out


def check_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """``options`` as given to a solver (they go to every technique), checked: each name
    must be declared by some registered technique (:class:`UnknownOption` naming it, with
    the closest declared names, otherwise) and its value must have the declared type.
    Returns a copy.

    >>> check_options({"max_length": 8})
    {'max_length': 8}
    >>> check_options({"max_lenght": 8})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    techniques.registry.UnknownOption: unknown technique option 'max_lenght'; did you ...
    """
    out = dict(options or {})
    if not out:
        return out
    known = declared_options()
    for k, v in out.items():
        if k not in known:
            raise UnknownOption(f"unknown technique option {quoted(k)}{did_you_mean(str(k), known)} "
                                "(see `sudoku-csp techniques`)")
        errors = []
        for t in known[k]:          # the value fits one of its declarations
            try:
                t.options[k].check(k, v)
                break
            except UnknownOption as e:
                errors.append(e)
        else:
            raise errors[0]
    return out

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
    hold ``options`` (name -> :class:`Option`: the one declaration of each option the
    finder reads, with its default and meaning), ``variants`` and ``requires_unique``. The
    technique's place, score, level, default on/off and SE value come from its row of
    :mod:`techniques.ladder`, which it must have; the options :data:`techniques.ladder.SIZED`
    gives it must be declared."""
    bad = set(meta) - _OWN
    if bad:
        raise TypeError(f"technique {name!r}: {', '.join(sorted(bad))} belong in "
                        "techniques/ladder.py, not in register()")
    from .ladder import BY_NAME, POSITION, SIZED   # read when techniques register
    try:
        r = BY_NAME[name]
    except KeyError:
        raise ValueError(f"technique {name!r} has no row in techniques/ladder.py") from None
    declared = meta.get("options", {})
    bare = [k for k, v in declared.items() if not isinstance(v, Option)]
    if bare:
        raise TypeError(f"technique {name!r}: options {', '.join(sorted(bare))} must be "
                        "declared as Option(default, meaning, type)")
    unsized = set(SIZED.get(name, {})) - set(declared) - set(COMMON_OPTIONS)
    if unsized:
        raise ValueError(f"technique {name!r}: techniques/ladder.py SIZED gives "
                         f"{', '.join(sorted(unsized))}, which it does not declare")

    def deco(fn: Finder) -> Finder:
        register_technique(Technique(name, title, family, fn, doc=(fn.__doc__ or "").strip(),
                                     score=r.score, order=r.order, level=r.level,
                                     enabled=r.on, se=r.se, position=POSITION[name], **meta))
        return fn

    return deco


def get(name: str) -> Technique:
    try:
        return load()[name]
    except KeyError:
        raise UnknownTechnique(f"unknown technique {quoted(name)} (see `sudoku-csp techniques`)") from None


def all_techniques() -> list[Technique]:
    """Every registered technique, in default order."""
    return sorted(load().values(), key=lambda t: t.position)


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
    return UnknownTechnique(f"unknown technique or family {quoted(item)}{where}{hint} "
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
        raise UnknownTechnique(f"empty technique name in {quoted(spec)} (see `sudoku-csp techniques`)")
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
                  key=lambda t: t.position)
