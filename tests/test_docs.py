"""Every code example of the README and docs/*.md runs, and every shell example shows what it
prints.

**Python blocks** (```` ```python ````) are executed; they show no output (a block that
prints fails: what it printed would go unchecked). An example that shows what it prints is a
**doctest block** (```` ```pycon ````, ``>>> `` prompts), run by :mod:`doctest` (``...`` in
an expected line matches any text), which compares every output with the one shown.

**Shell examples** are the ```` ```console ```` blocks (and ```` ```sh ```` blocks holding
``$ `` lines): a line ``$ COMMAND`` is run by bash, and the lines after it, up to the next
``$ `` line or the block's end, are what it must print. stdout and stderr are compared
together, as a terminal shows them (a command's stderr lines come before its stdout lines
when stdout is a pipe, as here). The commands of one block run one after the other in one
fresh, empty temporary directory (so ``> k4.json`` then ``cat k4.json`` works, and ``$?`` is
the previous command's exit code) that holds only ``docs/examples`` (a link to the
repository's): an example names its files as ``docs/examples/FILE``, every such file is
shipped there, and nothing else of the checkout (``tests/data``, the current directory of
the repository) is reachable. So the examples run from the root of a clone, and the CLI
itself depends on no current directory. ``sudoku-csp`` and ``python`` are the ones of the
interpreter running the tests, importing this checkout's packages (``PYTHONPATH``: a git
worktree's tests run its own code, not that of the checkout an editable install names).

The expected output is compared line by line, exactly (trailing blanks ignored), with two
markers for what legitimately varies (timings, machine-dependent counts):

- ``{{TEXT}}`` inside a line matches any non-empty text on that line; TEXT is an example
  value for the reader (``"time_ms": {{0.43}}``);
- a line ``...`` alone matches any number of lines (none included).

An HTML comment ``<!-- docs-test: skip (REASON) -->`` on the line before a block keeps the
test from running it (a server that runs until Ctrl-C, a minute-long generation); the
reason is required, and the skip shows in the test report. Each block is one test, run with
a CPU-time limit per command (``COMMAND_CPU_SECONDS``) and a wall-clock timeout per block.
"""
from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import ROOT

FILES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]
BLOCKS = [(f, i, code) for f in FILES if f.exists()
          for i, code in enumerate(re.findall(r"```python\n(.*?)```", f.read_text(), re.S))]
EXAMPLES = ROOT / "docs" / "examples"
#: CPU seconds each process of a shell block may use (``RLIMIT_CPU``, inherited by every
#: command the shell runs); the heaviest example takes about 5 s
COMMAND_CPU_SECONDS = 30
#: wall-clock seconds one shell block may take (generous: the machine is shared)
BLOCK_WALL_SECONDS = 240


PYCON_BLOCKS = [(f, i, code) for f in FILES if f.exists()
                for i, code in enumerate(re.findall(r"```pycon\n(.*?)```", f.read_text(), re.S))]


@pytest.mark.parametrize("path, index, code", BLOCKS,
                         ids=[f"{f.relative_to(ROOT)}#{i}" for f, i, _ in BLOCKS])
def test_code_block_runs(path, index, code, capsys):
    exec(compile(code, f"{path.name} block {index}", "exec"), {"__name__": "__doc__"})
    out, _ = capsys.readouterr()
    assert out == "", (f"{path.name} block {index} prints, and its output is not compared: "
                       f"show it as a ```pycon block")


def run_doctest_block(code: str, name: str) -> str:
    """Run a ```pycon block with :mod:`doctest` (fresh globals, ``ELLIPSIS``); the report
    of its failures ("" when every output is the one shown)."""
    import doctest
    import io
    test = doctest.DocTestParser().get_doctest(code, {"__name__": "__doc__"}, name, name, 0)
    assert test.examples, f"{name}: a pycon block without a >>> example"
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test, out=report.write, clear_globs=True)
    return report.getvalue()


@pytest.mark.parametrize("path, index, code", PYCON_BLOCKS,
                         ids=[f"{f.relative_to(ROOT)}#pycon{i}" for f, i, _ in PYCON_BLOCKS])
def test_doctest_block_shows_its_output(path, index, code):
    failures = run_doctest_block(code, f"{path.name} pycon block {index}")
    assert failures == "", failures


def test_doctest_blocks_are_compared():
    """A stale output fails the doctest block check, and README's examples are doctest
    blocks."""
    assert run_doctest_block(">>> 1 + 1\n2\n", "true") == ""
    assert "Expected:\n    3\nGot:\n    2" in run_doctest_block(">>> 1 + 1\n3\n", "stale")
    assert sum(f.name == "README.md" for f, _, _ in PYCON_BLOCKS) >= 6


def test_named_test_files_exist():
    """Every test file, benchmark script and doc tool the README and docs name
    (``tests/...py``, ``benchmarks/...py``, ``docs/tools/...py``) exists: files move into
    sub-folders, and a reader who follows a stale path finds nothing."""
    named = r"(?<![\w/.])(?:tests|benchmarks|docs/tools)/[A-Za-z0-9_/]+\.py"
    missing = [f"{f.relative_to(ROOT)}: {name}"
               for f in [*FILES, ROOT / "tests" / "data" / "README.md"] if f.exists()
               for name in sorted(set(re.findall(named, f.read_text())))
               if not (ROOT / name).exists()]
    assert missing == []


# ---------------------------------------------------------------------------------------
# shell examples


@dataclass
class ShellBlock:
    """One shell block: where it is, its (command, expected lines) pairs, and a skip reason."""
    where: str
    commands: list[tuple[str, list[str]]]
    skip: str | None = None


_FENCE = re.compile(r"(?:<!--\s*docs-test:\s*skip\s*\((?P<reason>[^)]*)\)\s*-->\n)?"
                    r"```(?P<lang>console|sh)\n(?P<body>.*?)```", re.S)


def shell_blocks(text: str, name: str) -> list[ShellBlock]:
    """The shell examples of a markdown text: ```console blocks, and ```sh blocks that show
    ``$ `` prompts (an ```sh block without them is a recipe to copy, not an example)."""
    blocks = []
    for match in _FENCE.finditer(text):
        lines = match["body"].splitlines()
        if match["lang"] == "sh" and not any(line.startswith("$ ") for line in lines):
            continue
        commands: list[tuple[str, list[str]]] = []
        if not lines or not lines[0].startswith("$ "):    # output with no command: fails
            commands.append(("echo 'a console block starts with a $ line'", []))
        for line in lines:
            if line.startswith("$ "):
                commands.append((line[2:], []))
            else:
                commands[-1][1].append(line)
        line_no = text.count("\n", 0, match.start("body"))
        blocks.append(ShellBlock(f"{name}:{line_no}", commands, match["reason"]))
    return blocks


def line_pattern(expected: str) -> re.Pattern[str]:
    """One expected line as a regular expression: ``{{TEXT}}`` matches any non-empty text."""
    parts = re.split(r"\{\{.*?\}\}", expected.rstrip())
    return re.compile(".+?".join(map(re.escape, parts)) + r"\Z")


def output_matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the output lines match the expected ones (markers as the module says)."""
    actual = [line.rstrip() for line in actual]

    def match(i: int, j: int) -> bool:
        if i == len(expected):
            return j == len(actual)
        if expected[i].strip() == "...":
            return any(match(i + 1, k) for k in range(j, len(actual) + 1))
        return (j < len(actual) and line_pattern(expected[i]).match(actual[j]) is not None
                and match(i + 1, j + 1))
    return match(0, 0)


_SEPARATOR = "@@docs-test-command-{}@@"


def run_block(block: ShellBlock, cwd: Path) -> list[list[str]]:
    """Run the block's commands in order in ``cwd`` with bash; each command's output lines
    (stdout and stderr together)."""
    script = []
    for n, (command, _) in enumerate(block.commands):
        # keep $? of the previous command across the separator
        script.append(f"__rc=$?; echo '{_SEPARATOR.format(n)}'; (exit $__rc)")
        script.append(command)
    env = {k: v for k, v in os.environ.items()
           if k not in ("COLUMNS", "PYTHONHASHSEED", "SUDOKU_CSP_DEBUG")}
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    # this checkout's packages, not those an editable install of another checkout points at
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))

    def limit_cpu() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (COMMAND_CPU_SECONDS, COMMAND_CPU_SECONDS))
    proc = subprocess.run(["bash", "-c", "\n".join(script)], cwd=cwd, env=env,
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, errors="replace",
                          timeout=BLOCK_WALL_SECONDS, preexec_fn=limit_cpu)
    outputs: list[list[str]] = []
    for line in proc.stdout.splitlines():
        if line == _SEPARATOR.format(len(outputs)):
            outputs.append([])
        elif outputs:
            outputs[-1].append(line)
    assert len(outputs) == len(block.commands), proc.stdout
    return outputs


def check_block(block: ShellBlock) -> list[str]:
    """Run a block in a fresh directory holding only ``docs/examples``; the mismatches, as
    readable messages (none: the block shows what it prints)."""
    with tempfile.TemporaryDirectory(prefix="docs-test-") as tmp:
        (Path(tmp) / "docs").mkdir()
        (Path(tmp) / "docs" / "examples").symlink_to(EXAMPLES, target_is_directory=True)
        outputs = run_block(block, Path(tmp))
    problems = []
    for (command, expected), actual in zip(block.commands, outputs):
        if not output_matches(expected, actual):
            problems.append(f"{block.where}: $ {command}\n--- the doc shows:\n"
                            + "\n".join(expected) + "\n--- it prints:\n" + "\n".join(actual))
    return problems


SHELL_BLOCKS = [block for f in FILES if f.exists()
                for block in shell_blocks(f.read_text(), str(f.relative_to(ROOT)))]


@pytest.mark.parametrize("block", SHELL_BLOCKS, ids=[b.where for b in SHELL_BLOCKS])
def test_shell_example_shows_its_output(block: ShellBlock) -> None:
    if block.skip is not None:
        pytest.skip(f"{block.where}: {block.skip}")
    problems = check_block(block)
    assert not problems, "\n\n".join(problems)


STALE = """\
Text around the block.

```console
$ sudoku-csp solve 1...............
multiple
$ echo $?
1
$ sudoku-csp count 1............... --limit 10 --json
{"count": 10, "limit": 10, "at_least": true, "status": "ok", "time_ms": {{0.44}}}
$ sudoku-csp solve docs/examples/mixed.txt
...
docs/examples/mixed.txt:4: multiple
```

```console
$ sudoku-csp solve 1...............
solved
$ echo $?
0
$ sudoku-csp count 1............... --limit 10 --json
{"count": 10, "limit": 10, "at_least": true, "status": "ok"}
```

```console
solved 1234341223414123
```
"""


def test_stale_example_fails() -> None:
    """The checker passes a true block and fails a stale one: a wrong answer, a wrong exit
    code, and a missing field (the marker ``{{...}}`` matches text, not its absence); a
    console block that shows output without a command fails too."""
    true, stale, headless = shell_blocks(STALE, "stale.md")
    assert check_block(true) == []
    problems = check_block(stale)
    assert [p.split("\n")[0] for p in problems] == [
        "stale.md:15: $ sudoku-csp solve 1...............", "stale.md:15: $ echo $?",
        "stale.md:15: $ sudoku-csp count 1............... --limit 10 --json"]
    assert "--- it prints:\nmultiple" in problems[0]
    assert len(check_block(headless)) == 1      # output shown without its command


def test_markers() -> None:
    assert output_matches(["a {{1.5}} b"], ["a 0.25 b"])
    assert not output_matches(["a {{1.5}} b"], ["a  b"])
    assert not output_matches(["a {{1.5}} b"], ["a 1 b c"])
    assert output_matches(["x", "...", "y"], ["x", "y"])
    assert output_matches(["x", "...", "y"], ["x", "1", "2", "y"])
    assert not output_matches(["x", "...", "y"], ["x", "1", "2"])
    assert output_matches(["x  "], ["x"])
    assert not output_matches(["x"], ["x", "y"])


def test_examples_ship_their_files() -> None:
    """Every ``docs/examples/FILE`` a doc names exists, and every file there is used."""
    named = {name for f in FILES if f.exists()
             for name in re.findall(r"docs/examples/([a-z0-9_-]+\.[a-z]+)", f.read_text())}
    shipped = {p.name for p in EXAMPLES.iterdir()} - {"README.md"}
    assert named - shipped == set()
    assert shipped - named == set()


def cli_synopsis(text: str) -> dict[str, str]:
    """The ```text synopsis at the top of docs/cli.md: each command's lines, joined."""
    block = text.split("```text\n", 1)[1].split("```", 1)[0]
    lines: dict[str, list[str]] = {}
    current = None
    for line in block.splitlines():
        if line.startswith("sudoku-csp "):
            current = line.split()[1]
            lines.setdefault(current, [])
        if current is not None:
            lines[current].append(line)
    return {name: " ".join(body) for name, body in lines.items()}


def test_cli_synopsis_names_every_option() -> None:
    """docs/cli.md's synopsis lists every command and, for each, every option its parser
    takes (by one of its spellings): a reader who looks there for an option finds it. It
    once left out ``solve --option/--symbols``, ``generate --technique/--practice/--picture
    /--method``, ``graph --max-nodes`` and ``techniques --options``."""
    from sudoku_csp.cli import build_parser
    from sudoku_csp.commands import COMMANDS

    synopsis = cli_synopsis((ROOT / "docs" / "cli.md").read_text())
    assert set(COMMANDS) <= set(synopsis)
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    missing = []
    for name, parser in sub.choices.items():
        words = set(re.findall(r"(?<![\w-])(--?[a-z][a-z-]*)", synopsis[name]))
        for action in parser._actions:
            if action.option_strings and action.dest != "help" \
                    and not words & set(action.option_strings):
                missing.append(f"{name} {action.option_strings[-1]}")
    assert missing == []


def test_help_value_names_match_the_cli_synopsis() -> None:
    """Where docs/cli.md's synopsis names an option's value (``--time-limit S``,
    ``--techniques SEL``, ``--limit K``), ``--help`` uses the same name, so the two read
    alike (``--help`` once said ``--time-limit TIME_LIMIT``, ``--techniques TECHNIQUES``,
    ``--difficulty DIFFICULTY``, ``--limit LIMIT``)."""
    from sudoku_csp.cli import build_parser

    synopsis = cli_synopsis((ROOT / "docs" / "cli.md").read_text())
    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    differ = []
    for name, parser in sub.choices.items():
        formatter = parser._get_formatter()
        for action in parser._actions:
            if not action.option_strings or action.nargs == 0 or action.choices:
                continue
            shown = formatter._metavar_formatter(
                action, formatter._get_default_metavar_for_optional(action))(1)[0]
            for opt in action.option_strings:
                m = re.search(rf"(?<![\w-]){re.escape(opt)} ([A-Z][A-Z_]*)", synopsis[name])
                if m and not shown.startswith(m[1]):
                    differ.append(f"{name} {opt}: --help {shown}, docs {m[1]}")
    assert differ == []
