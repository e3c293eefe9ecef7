#!/usr/bin/env python3
"""Checks the documents' command examples against the program's real output (SimGrid's .tesh idea).

The markdown is the single source: README.md and docs/**/*.md. Every output block in them (a fenced block
tagged `text` or `console`, or not tagged) carries a marker, an HTML comment on the line just above its
opening fence, which readers of the rendered page do not see. There are two markers:

    <!-- transcript OPTIONS -->            the block is checked
    <!-- transcript skip: REASON -->      the block is not checked, for the reason given

An output block with no marker is an error, so that a new example cannot escape the test unnoticed.

The commands of a checked block are taken from, in this order:
  1. the marker's own lines that start with "$ ", when the document gives the command in its prose:
         <!-- transcript mask=wall
         $ ./build/cosched run scenarios/quickstart.yaml
         -->
     the block then holds the commands' outputs, one after the other. A command goes on over the lines
     that follow it starting with "> " (or that are just ">"), as a terminal shows them, for a here-document:
         $ cat > my.yaml <<'EOF'
         > model: smp
         > EOF
  2. the block's lines that start with "$ " (a shell session, as in a .tesh file): each command is followed
     by its output, and the whole block is compared;
  3. the `sh` block just above the marker (nothing but blank lines between): its text is one bash script and
     the output block holds its output.

Each command runs with `bash -c` in a fresh scratch directory, never in the repository: it holds copies of
scenarios/, platforms/, sweeps/, data/, analysis/ and tests/data/calibration/ (the calibration fixture that
scenarios/loops/calibrated.yaml names), `build/cosched` is the binary under test, and a `cosched` on PATH is
that binary too. So `results/` and every other file a command writes stay in the scratch
directory, which is removed afterwards. A command's stdout and stderr go to one pipe, as on a terminal (where
stderr is no terminal, cosched prints no progress line). Exit statuses are not compared, as the documents show
outputs, not statuses; but a command killed by a signal fails its example.

Masks. The output is compared byte for byte, except for the parts that a marker's `mask=NAME[,NAME...]`
names; both sides then have those parts replaced by a fixed text. The masks are the MASKS table below, and
only it:
    wall     the wall-clock seconds of cosched run's "events ...  wall 0.003 s" line ("wall <masked> s").
    simgrid  SimGrid's own parser message after "SimGrid cannot load this platform: ", which depends on
             SimGrid's version; the documents show it as "<SimGrid's parser message>".
    not_positive
             the warning line of a scenario that takes a cost from a fresh `cosched calibrate` whose figure
             came out at or below 0 (docs/calibration.md, section 6), which a busy machine gives at times; the
             line is dropped from both sides.
The wall-clock time and that warning are the only parts of the examples' outputs that vary from run to run
today.

Examples that need what a test run may lack are skipped with their reason in the marker, never silently. No
checked example needs Slurm or the analysis package's .venv/ today (the scratch directory has neither).

On a mismatch the runner prints a unified diff (the document's block against the real output, masked parts
shown as masked) headed by the file and line of the block's opening fence, and exits 1. Exit 2: a document is
malformed (an unmarked output block, a marker with no block below it or no command) or the binary is missing;
every such error is listed.

Updating. `--update` rewrites every checked block whose output differs with the real output, as printed
(masked parts included), and leaves the others untouched; review the change with `git diff` and commit it:

    python3 tests/transcripts/transcripts.py --update             # after bash scripts/build.sh

Usage: transcripts.py [--cosched BIN] [--update] [FILE.md...]
BIN defaults to the repository's build/cosched, the FILEs to its README.md and docs/**/*.md.
ctest runs it as DocTranscripts with the cosched it built (tests/CMakeLists.txt).
"""

import argparse
import concurrent.futures
import difflib
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))

# The masks a marker may name: NAME -> (pattern, replacement). Keep it short: each entry hides output.
MASKS = {
    "wall": (re.compile(r"wall [0-9]+(?:\.[0-9]+)? s"), "wall <masked> s"),
    "simgrid": (re.compile(r"(SimGrid cannot load this platform: ).*"), r"\1<SimGrid's parser message>"),
    "not_positive": (
        re.compile(r"^cosched: warning: .*, which is no cost \(docs/calibration\.md, section 1\).*\n", re.M),
        "",
    ),
}

# What the scratch directory holds: copies of these repository directories (inputs of the examples).
INPUTS = ["scenarios", "platforms", "sweeps", "data", "analysis", "tests/data/calibration"]

OUTPUT_TAGS = {"", "text", "console"}
FENCE = re.compile(r"^ {0,3}(`{3,})\s*([A-Za-z0-9_+-]*)\s*$")
CLOSE = re.compile(r"^ {0,3}`{3,}\s*$")
MARKER = re.compile(r"^<!--\s*transcript\b(.*)$")
COMMAND_TIMEOUT = 60  # seconds; an example that needs more is no transcript
SLOW = 5.0  # seconds; an example slower than this is reported as slow


class DocError(Exception):
    pass


class Crash(Exception):
    pass


class Block:
    """A fenced block: lines[start] is its opening fence, lines[end] its closing one."""

    def __init__(self, start, end, tag, body):
        self.start, self.end, self.tag, self.body = start, end, tag, body


class Example:
    def __init__(self, path, block, commands, options, skip, session, before):
        self.path, self.block, self.commands = path, block, commands
        self.options, self.skip, self.session = options, skip, session
        self.before = before  # the index of the first line of the marker

    def where(self):
        return f"{os.path.relpath(self.path, ROOT)}:{self.block.start + 1}"


def parse_blocks(path, lines):
    blocks, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not (CLOSE.match(lines[j]) and len(lines[j].strip()) >= len(m.group(1))):
            j += 1
        if j == len(lines):
            raise DocError(f"{os.path.relpath(path, ROOT)}:{i + 1}: fenced block never closed")
        blocks.append(Block(i, j, m.group(2), lines[i + 1 : j]))
        i = j + 1
    return blocks


def parse_marker(path, lines, at):
    """The marker ending on line `at` (just above a fence): (first line index, options, commands, skip)."""
    end = at
    start = end
    while start >= 0 and not lines[start].lstrip().startswith("<!--"):
        if start < end and "-->" in lines[start]:
            return None
        start -= 1
    if start < 0:
        return None
    m = MARKER.match(lines[start].strip())
    if not m:
        return None
    text = "\n".join([m.group(1)] + lines[start + 1 : end + 1])
    if "-->" not in text:
        raise DocError(f"{os.path.relpath(path, ROOT)}:{start + 1}: transcript marker not closed by -->")
    text = text[: text.rindex("-->")]
    where = f"{os.path.relpath(path, ROOT)}:{start + 1}"
    first, _, rest = text.partition("\n")
    if first.strip().startswith("skip:"):
        reason = " ".join((first.strip()[len("skip:") :] + " " + rest).split())
        if not reason:
            raise DocError(f"{where}: 'transcript skip:' needs a reason")
        return start, {}, [], reason
    options = {}
    for word in first.split():
        key, eq, value = word.partition("=")
        if not eq or key not in ("mask",):
            raise DocError(f"{where}: unknown transcript option '{word}' (expected mask=NAME[,NAME...])")
        for name in value.split(","):
            if name not in MASKS:
                raise DocError(f"{where}: unknown mask '{name}' (known: {', '.join(sorted(MASKS))})")
        options[key] = value.split(",")
    commands = []
    for line in rest.split("\n"):
        if line.startswith("$ "):
            commands.append(line[2:])
        elif commands and (line.startswith("> ") or line == ">"):
            commands[-1] += "\n" + line[2:]
        elif line.strip():
            raise DocError(f"{where}: a transcript marker's lines are options, '$ COMMAND' or '> ' continuing it, got: {line}")
    return start, options, commands, None


def examples_of(path):
    """(the file's lines, its examples, its errors)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    blocks = parse_blocks(path, lines)
    examples, errors = [], []
    for k, block in enumerate(blocks):
        try:
            example = example_at(path, lines, blocks, k)
        except DocError as e:
            errors.append(str(e))
            continue
        if example is not None:
            examples.append(example)
    attached = {example.before for example in examples}
    for i, line in enumerate(lines):
        if MARKER.match(line.strip()) and i not in attached and not any(b.start < i < b.end for b in blocks):
            where = f"{os.path.relpath(path, ROOT)}:{i + 1}"
            errors.append(f"{where}: transcript marker not on the line(s) just above a fenced block")
    return lines, examples, errors


def example_at(path, lines, blocks, k):
    block = blocks[k]
    above = block.start - 1
    marker = parse_marker(path, lines, above) if above >= 0 and lines[above].rstrip().endswith("-->") else None
    where = f"{os.path.relpath(path, ROOT)}:{block.start + 1}"
    if marker is None:
        if block.tag in OUTPUT_TAGS:
            raise DocError(
                f"{where}: output block with no marker: put '<!-- transcript ... -->' (checked) or "
                f"'<!-- transcript skip: REASON -->' on the line above it"
            )
        return None
    before, options, commands, skip = marker
    session = False
    if skip is None and not commands:
        if any(line.startswith("$ ") for line in block.body):
            if not block.body[0].startswith("$ "):
                raise DocError(f"{where}: a shell-session block starts with its first '$ ' command")
            session = True
            commands = [line[2:] for line in block.body if line.startswith("$ ")]
        elif k > 0 and blocks[k - 1].tag == "sh" and all(not l.strip() for l in lines[blocks[k - 1].end + 1 : before]):
            commands = ["\n".join(blocks[k - 1].body)]
        else:
            raise DocError(
                f"{where}: transcript with no command: give '$ COMMAND' lines in the marker or the block, "
                f"or put the marker right after an sh block"
            )
    return Example(path, block, commands, options, skip, session, before)


def make_scratch(binary, inputs=INPUTS, prefix="cosched-transcript-"):
    """A scratch checkout: copies of `inputs` (folders of the repository) and build/cosched, bin/cosched
    linking to `binary` (tests/durations/durations.py uses it too)."""
    scratch = tempfile.mkdtemp(prefix=prefix)
    for name in inputs:
        src = os.path.join(ROOT, name)
        if os.path.isdir(src):
            shutil.copytree(src, os.path.join(scratch, name), ignore=shutil.ignore_patterns("__pycache__"))
    for sub in ("build", "bin"):
        os.mkdir(os.path.join(scratch, sub))
        os.symlink(binary, os.path.join(scratch, sub, "cosched"))
    return scratch


def run(example, binary):
    """The example's real text, as its block would show it."""
    scratch = make_scratch(binary)
    env = dict(os.environ)
    env["PATH"] = os.path.join(scratch, "bin") + os.pathsep + env.get("PATH", "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    out = []
    try:
        for command in example.commands:
            if example.session:
                out.append(f"$ {command}\n")
            result = subprocess.run(
                ["bash", "-c", command],
                cwd=scratch,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                timeout=COMMAND_TIMEOUT,
            )
            out.append(result.stdout.decode("utf-8", errors="replace"))
            if result.returncode < 0 or result.returncode > 128:
                raise Crash(f"killed by signal {abs(result.returncode) % 128}: {command}")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return "".join(out)


def timed_run(example, binary):
    """(the example's real text, or the TimeoutExpired or Crash that stopped it; its seconds)."""
    started = time.monotonic()
    try:
        actual = run(example, binary)
    except (subprocess.TimeoutExpired, Crash) as e:
        actual = e
    return actual, time.monotonic() - started


def masked(text, names):
    for name in names:
        pattern, replacement = MASKS[name]
        text = pattern.sub(replacement, text)
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cosched", default=os.path.join(ROOT, "build", "cosched"), help="the binary under test")
    parser.add_argument("--update", action="store_true", help="rewrite the blocks that differ with the real output")
    parser.add_argument("files", nargs="*", help="markdown files (default: README.md docs/**/*.md)")
    args = parser.parse_args()

    binary = os.path.abspath(args.cosched)
    if not os.access(binary, os.X_OK):
        print(f"transcripts: {binary}: no such executable (build cosched first)", file=sys.stderr)
        return 2
    files = [os.path.abspath(f) for f in args.files] or [os.path.join(ROOT, "README.md")] + sorted(
        glob.glob(os.path.join(ROOT, "docs", "**", "*.md"), recursive=True)
    )

    parsed, errors = [], []
    for path in files:
        try:
            lines, examples, found = examples_of(path)
        except DocError as e:
            errors.append(str(e))
            continue
        errors += found
        parsed.append((path, lines, examples))
    if errors:
        for error in errors:
            print(f"transcripts: {error}", file=sys.stderr)
        print("transcripts: see the header of tests/transcripts/transcripts.py for the markers", file=sys.stderr)
        return 2

    # The examples run side by side (each in its own scratch directory); their reports keep the documents' order.
    todo = [example for _, _, examples in parsed for example in examples if example.skip is None]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = dict(zip(map(id, todo), pool.map(lambda example: timed_run(example, binary), todo)))

    checked = skipped = failed = 0
    for path, lines, examples in parsed:
        updates = []  # (block, new body lines), applied from the end so that line numbers hold
        for example in examples:
            if example.skip is not None:
                skipped += 1
                print(f"skip  {example.where()}: {example.skip}")
                continue
            checked += 1
            actual, seconds = results[id(example)]
            if isinstance(actual, subprocess.TimeoutExpired):
                failed += 1
                print(f"FAIL  {example.where()}: timed out after {actual.timeout} s: {actual.cmd[-1]}")
                continue
            if isinstance(actual, Crash):
                failed += 1
                print(f"FAIL  {example.where()}: a command was {actual}")
                continue
            expected = "".join(line + "\n" for line in example.block.body)
            names = example.options.get("mask", [])
            slow = f" (slow: {seconds:.1f} s, should it be a transcript?)" if seconds > SLOW else ""
            if masked(expected, names) == masked(actual, names):
                print(f"ok    {example.where()}{slow}")
                continue
            if args.update:
                body = actual[:-1] if actual.endswith("\n") else actual
                updates.append((example.block, body.split("\n") if body else []))
                print(f"updated {example.where()}{slow}")
                continue
            failed += 1
            print(f"FAIL  {example.where()}: the document's output differs from the real one{slow}")
            diff = difflib.unified_diff(
                masked(expected, names).splitlines(keepends=True),
                masked(actual, names).splitlines(keepends=True),
                fromfile=f"{example.where()} (the document; lines counted from the block's first line)",
                tofile="real output of: " + " && ".join(c.replace("\n", "; ") for c in example.commands),
            )
            for line in diff:
                sys.stdout.write(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
        for block, body in reversed(updates):
            lines[block.start + 1 : block.end] = body
        if updates:
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(lines))
    print(f"transcripts: {checked} checked, {skipped} skipped, {failed} failed"
          + (" (--update: blocks rewritten, review with git diff)" if args.update else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
