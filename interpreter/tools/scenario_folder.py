"""The scenario files ``dday scenario run`` runs: each file given, and the ``.yaml`` files under each folder given,
within the folder's bounds (docs/scenarios.md, docs/security.md)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import attrs

from ddaydice.dsl.diagnostics import Diagnostic
from ddaydice.dsl.limits import MAX_FOLDER_ENTRIES
from ddaydice.dsl.sandbox import inside, shown_path

# The folder of a pack's own scenarios: the only part of a pack folder (one with a pack.yaml) that holds scenarios.
PACK_SCENARIOS = "scenarios"


def collect(paths: Sequence[Path]) -> tuple[list[Path], list[Diagnostic]]:
    """The scenario files, and why any file or folder met under a folder is not run.

    Each file given is taken as it is; under each folder given, every ``.yaml`` file (:func:`_walk`). A pack
    folder met on the way (a scenario-local pack beside its scenarios) gives only the scenarios of its
    ``scenarios/`` folder: its manifest and content files are no scenarios. A file met twice (given twice, as
    ``x.yaml`` and ``./x.yaml``, or in a folder given and on its own, or by a link) runs once, where first met."""
    out: list[Path] = []
    problems: list[Diagnostic] = []
    for p in paths:
        if p.is_dir():
            found, refused = _walk(p)
            out += found
            problems += refused
        else:
            out.append(p)
    seen: set[str] = set()
    once = []
    for f in out:
        real = os.path.realpath(f)
        if real not in seen:
            seen.add(real)
            once.append(f)
    return once, problems


def _walk(root: Path) -> tuple[list[Path], list[Diagnostic]]:
    """The ``.yaml`` files under ``root``, sorted, and the links among them that are not followed.

    A link (to a file or a folder) is followed when it resolves inside ``root``, as a pack's links are inside
    the pack (dsl/sandbox.py ``inside``); one leading elsewhere is PACK010, a broken link or a loop PACK011, each
    reported, never passed over. A folder of more than :data:`MAX_FOLDER_ENTRIES` scenario files is refused
    whole (PACK014): none of its files runs, so that no file is left out unsaid."""
    found: list[Path] = []
    problems: list[Diagnostic] = []
    followed: set[str] = {os.path.realpath(root)}
    pending = [root]
    while pending and len(found) <= MAX_FOLDER_ENTRIES:
        for folder, dirs, files in os.walk(pending.pop(), followlinks=False):
            here = Path(folder)
            in_pack = (here / "pack.yaml").is_file()
            if in_pack:
                dirs[:] = [d for d in dirs if d == PACK_SCENARIOS]
            dirs.sort()
            for name in sorted(() if in_pack else files):
                path = here / name
                if name.endswith(".yaml") and _allowed(path, root, problems) is not None:
                    found.append(path)
            for name in list(dirs):
                path = here / name
                if path.is_symlink():  # os.walk does not enter it: enter it once if it is allowed
                    dirs.remove(name)
                    real = _allowed(path, root, problems)
                    if real is not None and str(real) not in followed:
                        followed.add(str(real))
                        pending.append(path)
            if len(found) > MAX_FOLDER_ENTRIES:
                break
    if len(found) > MAX_FOLDER_ENTRIES:
        return [], [Diagnostic("PACK014", f"the folder holds more than {MAX_FOLDER_ENTRIES} scenario files: none "
                               "of them is run", shown_path(root), 1, 1,
                               hint=f"split it into folders of at most {MAX_FOLDER_ENTRIES} scenario files, "
                                    "each run on its own")]
    return sorted(found), problems


def _allowed(path: Path, root: Path, problems: list[Diagnostic]) -> Path | None:
    """``path`` resolved, unless it is a link that may not be followed from ``root`` (then why, in
    ``problems``)."""
    if not path.is_symlink():
        return path
    real, problem = inside(path, root)
    if problem is not None and problem.code == "PACK010":
        problem = attrs.evolve(problem, message=f"this link leads outside the folder {shown_path(root)}: it is not "
                               "run", hint="a folder of scenarios runs only the files inside it; copy the file in, "
                               "or name it on its own")
    if problem is not None:
        problems.append(problem)
    return real
