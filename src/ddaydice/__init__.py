"""ddaydice: a rules-as-data engine for D-Day Dice.

The package is laid out as the pipeline: content (``rules/``, ``cards/``,
``maps/``, ``expansions/``) flows through ``dsl/`` (text -> tree -> checked,
compiled effects) into ``interpreter/`` (state + effects -> events, trace).
"""

import glob
import os

__version__ = "0.1.0"


def _compiled_modules_are_current() -> None:
    """A source tree compiled in place (scripts/compile) never runs a compiled module older than its source: the
    import fails with what to do. (An installed package, compiled or not, has no compiled.txt beside it.)"""
    package = os.path.dirname(os.path.abspath(__file__))
    src = os.path.dirname(package)
    listing = os.path.join(os.path.dirname(src), "compiled.txt")
    libraries = glob.glob(os.path.join(src, "ddaydice_compiled__mypyc*"))
    if not libraries or not os.path.exists(listing):
        return
    built = min(os.path.getmtime(lib) for lib in libraries)
    with open(listing, encoding="utf-8") as f:
        listed = [line.split("#", 1)[0].strip() for line in f]
    stale = [m for m in listed if m and os.path.exists(os.path.join(package, m))
             and os.path.getmtime(os.path.join(package, m)) > built]
    if stale:
        shown = ", ".join(stale[:3]) + (f" and {len(stale) - 3} more" if len(stale) > 3 else "")
        raise ImportError(f"ddaydice: {shown} changed after the engine was compiled: run scripts/compile to compile "
                          "it again, or scripts/compile --clean to run the pure-Python engine")


_compiled_modules_are_current()
