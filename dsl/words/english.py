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


def amount_of(n: int, resource: str) -> str:
    """An amount of a resource as the trace tells it: '1 Soldier', '3 Soldiers', '1 Courage', '2 Item Points' (a
    resource the names above do not know: its id, as written)."""
    if n == 1 and resource in SINGULAR:
        return f"1 {SINGULAR[resource]}"
    return f"{n} {RESOURCE_NAMES.get(resource, resource)}"


def upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def title(name: str) -> str:
    return " ".join(part.upper() if part in ACRONYMS else part.capitalize() for part in name.split("-"))
