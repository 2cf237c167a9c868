"""A source tree compiled in place (scripts/compile) never runs a compiled module older than its source: the
package's __init__ refuses to import, saying what to do (src/ddaydice/__init__.py). Tested on a tree of real files
laid out as scripts/compile leaves one: the package's own __init__.py, compiled.txt, the group's library."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]


def tree(tmp_path: Path, *, library: bool) -> Path:
    """A source tree with one listed module, ``interpreter/phases/roll.py``, and (if ``library``) a compiled group
    library built after it."""
    package = tmp_path / "src" / "ddaydice"
    (package / "interpreter" / "phases").mkdir(parents=True)
    shutil.copy(ROOT / "src" / "ddaydice" / "__init__.py", package / "__init__.py")
    (tmp_path / "compiled.txt").write_text("# the compiled modules\ninterpreter/phases/roll.py\n", encoding="utf-8")
    source = package / "interpreter" / "phases" / "roll.py"
    source.write_text("X = 1\n", encoding="utf-8")
    os.utime(source, (1_000_000, 1_000_000))
    if library:
        lib = tmp_path / "src" / "ddaydice_compiled__mypyc.cpython-311-x86_64-linux-gnu.so"
        lib.write_bytes(b"")
        os.utime(lib, (2_000_000, 2_000_000))
    return tmp_path


def import_package(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", "import ddaydice"], cwd=root, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(root / "src")}, check=False)


def test_a_current_compiled_tree_imports(tmp_path: Path) -> None:
    result = import_package(tree(tmp_path, library=True))
    assert result.returncode == 0, result.stderr


def test_a_source_changed_after_compiling_stops_the_import_with_what_to_do(tmp_path: Path) -> None:
    root = tree(tmp_path, library=True)
    os.utime(root / "src" / "ddaydice" / "interpreter" / "phases" / "roll.py", (3_000_000, 3_000_000))
    result = import_package(root)
    assert result.returncode != 0
    assert ("ddaydice: interpreter/phases/roll.py changed after the engine was compiled: run scripts/compile to "
            "compile it again, or scripts/compile --clean to run the pure-Python engine") in result.stderr


def test_a_tree_never_compiled_imports_whatever_the_times(tmp_path: Path) -> None:
    root = tree(tmp_path, library=False)
    os.utime(root / "src" / "ddaydice" / "interpreter" / "phases" / "roll.py", (3_000_000, 3_000_000))
    result = import_package(root)
    assert result.returncode == 0, result.stderr
