"""Names in English that the words' renderers and the renderer share: faces, resources, tiers, titles."""

from __future__ import annotations

FACE_NAMES = {
    "skull": "Skull",
    "star": "Star",
    "one-soldier": "1 Soldier",
    "two-soldiers": "2 Soldiers",
    "courage": "Courage",
    "tool": "Tool",
    "any": "result of the player's choice",
}
RESOURCE_NAMES = {"soldiers": "Soldiers", "stars": "Stars", "courage": "Courage", "item-points": "Item Points"}
TIER_NAMES = {
    "rules": "game rules",
    "sectors": "Sector attributes",
    "specialists": "Specialists",
    "items-vehicles": "Items or Vehicles",
    "awards": "Awards",
}
ACRONYMS = frozenset({"mgf", "def", "rwb"})
SINGULAR = {"soldiers": "Soldier", "stars": "Star", "item-points": "Item Point"}
PLURAL_FACES = {"skull": "Skulls", "star": "Stars", "tool": "Tools"}


def upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def title(name: str) -> str:
    return " ".join(part.upper() if part in ACRONYMS else part.capitalize() for part in name.split("-"))
