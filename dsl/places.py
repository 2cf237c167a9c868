"""Where content lives: the bundled tree, and the pack folder a file belongs to. Standard library only, so that a
remembered ``dday validate`` (interpreter/tools/validate_cache.py) finds the same places as the loader without
importing it."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path


def bundled_root() -> Path:
    """The content shipped with the package (works from a wheel, from any directory)."""
    return Path(str(resources.files("ddaydice")))


def absolute(path: Path | str) -> Path:
    """A path as the user named it, made absolute: ``.`` and ``..`` become the folders they stand for, and no link
    is followed. A pack folder is named by the last part of this path (``dday validate .`` inside ``my-pack``
    checks the folder ``my-pack``), and the packs beside it are found in its parent."""
    return Path(os.path.abspath(path))  # noqa: PTH100  (Path.absolute keeps '.' and '..')


def home_pack(path: Path) -> Path | None:
    """The pack folder a content file lives in (the nearest folder above it with a pack.yaml), if any. The folders
    above it are those of its path as given (:func:`absolute`), not of where a link leads: a link in a pack is the
    pack's, and loading the pack applies its rule to it (a link leading outside is refused, docs/security.md)."""
    if path.is_dir() or path.name == "pack.yaml":
        return absolute(path).parent if path.name == "pack.yaml" else None
    for folder in absolute(path).parents:
        if (folder / "pack.yaml").is_file():
            return folder
    return None
