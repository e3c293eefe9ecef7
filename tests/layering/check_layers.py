#!/usr/bin/env python3
"""Checks that src/ keeps the layers docs/architecture.md states.

The table "Layers" of docs/architecture.md gives each folder of src/ a layer number. Every
`#include "folder/file"` under src/ must name a folder of the same layer or a lower one, and the folders
of one layer must not include each other in a cycle. The table and the tree must also agree: a folder of
src/ missing from the table, or a row naming no folder, fails too. Each failure names the file and line.

It also checks the split of CMakeLists.txt's libraries (docs/architecture.md, "Libraries"): every .cpp of
src/ is in exactly one of CMakeLists.txt's libraries (cosched_core, cosched_sim, cosched_calibrate,
cosched_host) and the cosched executable; no file
of cosched_core reaches a SimGrid header but XBT's logging (<xbt/...>), directly or through the headers it
includes; and cosched_calibrate reaches nothing of cosched outside util/ and calibrate/ (it holds no model).

Usage: check_layers.py [REPO_ROOT]    (exit 0: layers kept; 1: a violation, listed on stderr)
"""
import re
import sys
from pathlib import Path

ROW = re.compile(r"^\|\s*(\d+)\s*\|([^|]*)\|")  # | layer | `folder/`, `folder/` | ...
FOLDER = re.compile(r"`([a-z_0-9]+)/`")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def read_layers(doc: Path) -> dict:
    layers = {}
    for line in doc.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            for folder in FOLDER.findall(match.group(2)):
                layers[folder] = int(match.group(1))
    return layers


def find_cycle(edges: dict) -> list:
    """A cycle of the folder graph `edges` (folder -> set of folders), as a list of folders, or []."""
    state = {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt, path + [nxt])
                if found:
                    return found
        state[node] = "done"
        return []

    for node in sorted(edges):
        if node not in state:
            found = visit(node, [node])
            if found:
                return found
    return []


LIBRARY = re.compile(r"add_(?:library|executable)\((\w+)(?:\s+STATIC)?\s([^)]*)\)", re.S)
SYSTEM_INCLUDE = re.compile(r'^\s*#\s*include\s+<(simgrid/[^>]+)>')


def library_sources(root: Path) -> dict:
    """CMakeLists.txt's targets -> their src/ files (paths relative to src/)."""
    text = (root / "CMakeLists.txt").read_text(encoding="utf-8")
    targets = {}
    for name, body in LIBRARY.findall(text):
        files = [token[len("src/"):] for token in body.split() if token.startswith("src/")]
        if files:
            targets[name] = files
    return targets


def reached(src: Path, start: str) -> dict:
    """The src/ files `start` reaches through quoted includes -> the file that includes each first."""
    seen = {start: None}
    todo = [start]
    while todo:
        current = todo.pop()
        path = src / current
        if not path.is_file():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            match = INCLUDE.match(line)
            if match and match.group(1) not in seen and (src / match.group(1)).is_file():
                seen[match.group(1)] = current
                todo.append(match.group(1))
    return seen


def check_libraries(root: Path, src: Path) -> list:
    errors = []
    targets = library_sources(root)
    owner = {}
    for target, files in targets.items():
        for file in files:
            if file in owner:
                errors.append(f"CMakeLists.txt: src/{file} is in both {owner[file]} and {target}")
            owner[file] = target
    for path in sorted(src.rglob("*.cpp")):
        rel = path.relative_to(src).as_posix()
        if rel not in owner:
            errors.append(f"src/{rel}: in no target of CMakeLists.txt")
    for file in targets.get("cosched_core", []):
        for header, via in reached(src, file).items():
            for number, line in enumerate((src / header).read_text(encoding="utf-8").splitlines(), start=1):
                match = SYSTEM_INCLUDE.match(line)
                if match:
                    chain = f" (reached from src/{file})" if header != file else ""
                    errors.append(f"src/{header}:{number}: <{match.group(1)}> in cosched_core, which makes no "
                                  f"SimGrid call but XBT's logging{chain}")
    for file in targets.get("cosched_calibrate", []):
        for header in reached(src, file):
            if header.split("/")[0] not in ("util", "calibrate"):
                errors.append(f"src/{header}: reached from src/{file}, but cosched_calibrate holds no model "
                              "(util/ and calibrate/ only)")
    return errors


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2])
    src = root / "src"
    doc = root / "docs" / "architecture.md"
    layers = read_layers(doc)
    errors = []
    if not layers:
        errors.append(f"{doc}: no layer table (rows like '| 0 | `util/` | ... |')")
    folders = sorted(p.name for p in src.iterdir() if p.is_dir())
    for folder in folders:
        if folder not in layers:
            errors.append(f"src/{folder}/: not in the layer table of docs/architecture.md")
    for folder in sorted(set(layers) - set(folders)):
        errors.append(f"docs/architecture.md: the layer table names {folder}/, which src/ does not have")

    edges = {}  # folder -> folders it includes, for the cycle check
    witness = {}  # (from, to) -> "file:line", to name an include of a cycle
    for path in sorted(src.rglob("*")):
        if path.suffix not in (".hpp", ".cpp", ".h") or not path.is_file():
            continue
        folder = path.relative_to(src).parts[0]
        rel = path.relative_to(root)
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            match = INCLUDE.match(line)
            if not match:
                continue
            target = match.group(1).split("/")[0]
            where = f"{rel}:{number}"
            if "/" not in match.group(1) or target not in layers:
                errors.append(f'{where}: #include "{match.group(1)}" does not name a folder of src/')
                continue
            if target == folder or folder not in layers:
                continue
            if layers[target] > layers[folder]:
                errors.append(
                    f'{where}: #include "{match.group(1)}": {folder}/ (layer {layers[folder]}) includes '
                    f"{target}/ (layer {layers[target]}), a higher layer"
                )
            edges.setdefault(folder, set()).add(target)
            witness.setdefault((folder, target), where)
    cycle = find_cycle(edges)
    if cycle:
        steps = ", ".join(f"{a}/ -> {b}/ ({witness[(a, b)]})" for a, b in zip(cycle, cycle[1:]))
        errors.append(f"include cycle between folders: {steps}")

    errors += check_libraries(root, src)

    for error in errors:
        print(f"layering: {error}", file=sys.stderr)
    if errors:
        print(f"layering: {len(errors)} violation(s) of docs/architecture.md's layers", file=sys.stderr)
        return 1
    print(f"layering: {len(folders)} folders of src/, every include keeps docs/architecture.md's layers, and "
          "the libraries keep their split")
    return 0


if __name__ == "__main__":
    sys.exit(main())
