#!/usr/bin/env python3
"""Checks the project's documentation against the tree (ctest docs_check).

1. Every relative link and image in README.md, docs/*.md and the other
   Markdown files of the tree points at a file or folder that exists, and a
   link's #anchor at a heading of its target.
2. Every repository path written in `code` in those files exists: a span
   starting with one of the tree's top-level folders (generators/, runtime/,
   tools/, ...) and naming a file or folder. Paths under build outputs
   (build/, out/, .venv/, ...) are exempt, as are spans with wildcards or
   placeholders (<op>, *, N).
3. No tracked text file speaks of work sessions: the project describes its
   figures by CPU model, date and command, never by who ran them when.

    tools/check_docs.py [ROOT]      exit 0 when all hold; else one line per fault
"""

import re
import subprocess
import sys
from pathlib import Path

TOP_LEVEL = ("generators/", "runtime/", "include/", "tests/", "bench/", "tools/", "cmake/",
             "examples/", "docs/", "fuzz/", ".ci/")
TOP_LEVEL_FILES = ("CMakeLists.txt", "CMakePresets.json", "README.md")
# Made by a build or a command, so absent from a clean clone.
GENERATED = ("build", "build-arm64", "build-cuda", "out", ".venv", ".device")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
# "session" as a word: InferenceSession and SessionOptions (onnxruntime's API)
# are not words of their own, so they pass.
SESSION = re.compile(r"\bsessions?\b", re.IGNORECASE)


def github_anchor(heading: str) -> str:
    """The #anchor GitHub gives a heading."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link counts by its text
    text = re.sub(r"[`*]", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set:
    found, in_fence = set(), False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        match = None if in_fence else HEADING.match(line)
        if match:
            found.add(github_anchor(match.group(1)))
    return found


def tracked_files(root: Path) -> list:
    """The files git tracks or would (not ignored); every file outside .git without git."""
    try:
        listing = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
                                  "--exclude-standard"], capture_output=True, check=True).stdout
        return [root / name for name in listing.decode().split("\0") if name]
    except (OSError, subprocess.CalledProcessError):
        return [p for p in root.rglob("*") if ".git" not in p.relative_to(root).parts]


def check_markdown(root: Path, path: Path, faults: list) -> None:
    in_fence = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        where = f"{path.relative_to(root)}:{number}"
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target):
                continue  # http:, https:, mailto:
            file_part, _, anchor = target.partition("#")
            resolved = (path.parent / file_part).resolve() if file_part else path
            if not resolved.exists():
                faults.append(f"{where}: link to missing {target}")
            elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
                faults.append(f"{where}: link to missing heading #{anchor} in {file_part or path.name}")
        for span in CODE_SPAN.findall(line):
            candidate = span.split()[0] if span.split() else ""
            candidate = candidate.rstrip(".,;:")
            if not (candidate.startswith(TOP_LEVEL) or candidate in TOP_LEVEL_FILES):
                continue
            if re.search(r"[*<>{}$]|\bN\b|\.\.\.", candidate):
                continue
            base = candidate.split(":")[0]  # path:line
            if not (root / base).exists():
                faults.append(f"{where}: `{span}` names a path that does not exist")


def main(argv) -> int:
    root = Path(argv[1] if len(argv) > 1 else Path(__file__).resolve().parent.parent).resolve()
    faults = []
    files = [f for f in tracked_files(root) if f.exists() and f.is_file()]
    for path in files:
        relative = path.relative_to(root).as_posix()
        if relative.split("/")[0] in GENERATED:
            continue
        if path.suffix == ".md":
            check_markdown(root, path, faults)
        if path.suffix in (".png", ".json", ".pb", ".onnx") and relative.startswith(("docs/", "bench/results/")):
            continue
        if relative == "tools/check_docs.py":
            continue  # it must name the word it looks for
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if SESSION.search(line):
                faults.append(f"{relative}:{number}: speaks of a session: {line.strip()[:100]}")
    for fault in faults:
        print(fault)
    print(f"check_docs: {len(files)} files, {len(faults)} faults")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
