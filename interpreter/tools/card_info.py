"""A card as ``dday card`` shows it (and ``dday lsp`` on hover): its name, kind, grade, cost and text; its effect as
written and in English; where it comes from (provenance, flagged when it is our reconstruction, and the pack); and
on which maps and variants it can come into play, and why (the availability is
:func:`ddaydice.dsl.setups.card_setups`: the set-ups ``dday conflicts`` reads, and the optional rules a card
'only-in' one needs together).
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ddaydice.dsl.loader import Content
    from ddaydice.dsl.loading.content import Citation

WIDTH = 100
COST_UNITS = {"specialist": "Stars", "item": "Item Points", "vehicle": "Item Points"}
KIND_NAMES = {"specialist": "Specialist", "item": "Item", "vehicle": "Vehicle", "award": "Award"}


def card_info(content: Content, cid: str) -> dict[str, Any]:
    """Everything ``dday card`` shows, as plain data (the JSON output)."""
    from ddaydice.dsl.setups import NO_GRADE, card_setups, listed_ungraded

    card = content.cards[cid]
    kind = content.card_kinds[cid]
    declared = content.kind_def(kind)  # an expansion's kind: its name, and whether it is held as an Item or a
    held = declared.held_as if declared is not None else kind  # Specialist (paid in Item Points or Stars)
    src = content.effects.get(cid)
    where = content.origins.get(f"card:{cid}")
    cited = content.citations.get(cid)
    maps: list[dict[str, Any]] = []
    for mid in sorted(content.maps):
        bm = content.maps[mid]
        entries = []
        for st in card_setups(content, mid, cid):
            reasons = list(st.cards.get(cid, ()))
            entries.append({"variant": st.variant, "options": list(st.options), "name": st.name,
                            "available": bool(reasons), "why": reasons})
        if any(e["available"] for e in entries):
            maps.append({"map": mid, "name": bm.name, "as_listed": entries[0],
                         "variants": [e for e in entries[1:] if e["variant"] is not None],
                         "options": [e for e in entries[1:] if e["options"]]})
    ungraded = sorted(listed_ungraded(content, cid))
    return {
        "id": cid,
        "name": card.name,
        "kind": kind,
        "kind_name": declared.name if declared is not None else KIND_NAMES.get(kind, kind),
        "grade": card.grade,
        "cost": card.cost,
        "cost_unit": COST_UNITS.get(held or "") if card.cost is not None else None,
        "text": card.text.strip(),
        "effect": card.effect,
        "english": list(src.english) if src is not None else [],
        "provenance": card.provenance,
        "reconstructed": card.provenance == "reconstructed",
        **citation_info(cited),
        "note": card.note.strip(),
        "pack": content.owner_pack.get(f"card:{cid}"),
        "file": where[0] if where else None,
        "line": where[1] if where else None,
        "unavailable_in": list(card.unavailable_in),
        "solitaire": "solitaire" not in card.unavailable_in,
        "maps": maps,
        "not_on": sorted(m for m in content.maps if m not in {x["map"] for x in maps} and m not in ungraded),
        # the maps that list it though it has no grade, which deals nothing (why, in English)
        "never_dealt": [{"map": m, "name": content.maps[m].name} for m in ungraded],
        "never_dealt_why": NO_GRADE if ungraded else None,
    }


def _field(label: str, text: str) -> list[str]:
    head = f"  {label:<12}"
    out: list[str] = []
    for i, para in enumerate(text.splitlines() or [""]):
        out += textwrap.wrap(para, WIDTH, initial_indent=head if i == 0 else " " * len(head),
                             subsequent_indent=" " * len(head), break_long_words=False,
                             break_on_hyphens=False) or [(head if i == 0 else "").rstrip()]
    return out


def citation_info(cited: Citation | None) -> dict[str, Any]:
    """Where the rulebook writes an entry (a card, a Sector, a Sector attribute) and the rulings on it (numbers and
    titles: docs/rulings.md), each with the queries it is about (``{ruling: N, query: ...}``; [] for all that the
    entry does), as plain data: ``rulebook`` and ``rulings`` of ``dday card``'s JSON."""
    if cited is None:
        return {"rulebook": None, "rulings": []}
    return {"rulebook": cited.rulebook or None,
            "rulings": [{"number": n, "title": t, "queries": list(cited.scope(i))}
                        for i, (n, t) in enumerate(cited.rulings)]}


def citation_lines(info: dict[str, Any]) -> list[tuple[str, str]]:
    """Where the rulebook writes the entry and the rulings on it (``info``: :func:`citation_info`'s keys), as
    (label, text): what ``dday card`` prints and the editor's hover shows, for a card or a Sector; a ruling about
    some queries only says which."""
    out = [("rulebook", info["rulebook"])] if info["rulebook"] else []
    for ruling in info["rulings"]:
        about = f" (about {', '.join(ruling['queries'])})" if ruling["queries"] else ""
        out.append(("ruling", f"{ruling['number']}: {ruling['title']}{about}"))
    return out


def render_card(info: dict[str, Any]) -> str:
    kind = info["kind_name"]
    out = [f"{info['name']} ({info['id']})" + ("  [RECONSTRUCTED: not an official card]"
                                               if info["reconstructed"] else "")]
    grade = f" ({info['grade']})" if info["grade"] and info["grade"] != info["kind"] else ""
    out += _field("kind", kind + grade)
    if info["cost"] is not None:
        out += _field("cost", f"{info['cost']} {info['cost_unit']}" if info["cost_unit"] else str(info["cost"]))
    out += _field("text", info["text"])
    out += _field("effect", info["effect"].rstrip("\n") or "(none)")
    out += _field("in English", "\n".join(info["english"]) or "(none)")
    prov = info["provenance"]
    if info["reconstructed"]:
        prov = "reconstructed: the rulebook does not give this card whole; what is ours is said below"
    out += _field("provenance", prov)
    for label, said in citation_lines(info):
        out += _field(label, said)
    if info["note"]:
        out += _field("note", info["note"])
    out += _field("pack", f"{info['pack']} (expansion)" if info["pack"] else "the base game")
    if info["file"]:
        out += _field("defined at", f"{info['file']}:{info['line']}")
    solo = "available" if info["solitaire"] else "not available in solitaire"
    others = [o for o in info["unavailable_in"] if o != "solitaire"]
    if others:
        solo += "; not available with: " + ", ".join(others)
    out += _field("solitaire", solo)
    out.append("  maps:")
    for m in info.get("never_dealt", ()):
        out += textwrap.wrap(f"{m['name']} ({m['map']}): listed by the map, but it has no grade: "
                             f"{info['never_dealt_why']}", WIDTH, initial_indent="    ", subsequent_indent="      ",
                             break_long_words=False, break_on_hyphens=False)
    if not info["maps"] and not info.get("never_dealt"):
        out.append("    (no map: this card can never come into play)")
    for m in info["maps"]:
        base = m["as_listed"]
        why = "; ".join(base["why"]) if base["available"] else "not available as listed"
        out += textwrap.wrap(f"{m['name']} ({m['map']}): {why}", WIDTH, initial_indent="    ",
                             subsequent_indent="      ", break_long_words=False, break_on_hyphens=False)
        for v in m["variants"]:
            vwhy = "; ".join(v["why"]) if v["available"] else "not available"
            out += textwrap.wrap(f"variant {v['variant']} ({v['name']}): {vwhy}", WIDTH,
                                 initial_indent="      ", subsequent_indent="        ", break_long_words=False,
                                 break_on_hyphens=False)
        opts = m["options"]
        if base["available"]:
            gone = [o["name"].split(" with ", 1)[-1] for o in opts if not o["available"]]
            if gone:
                out += textwrap.wrap("not with the optional rule " + ", ".join(gone), WIDTH,
                                     initial_indent="      ", subsequent_indent="        ",
                                     break_long_words=False, break_on_hyphens=False)
        else:
            bring = [o["name"].split(" with ", 1)[-1] for o in opts if o["available"]]
            one = [b for b in bring if " and " not in b]
            together = [f"the optional rules {b} together" for b in bring if " and " in b]
            if bring:
                out += textwrap.wrap("only with " + " or ".join(
                    ([("an optional rule: " + " or ".join(one))] if one else []) + together), WIDTH,
                                     initial_indent="      ", subsequent_indent="        ",
                                     break_long_words=False, break_on_hyphens=False)
    if info["not_on"]:
        out += textwrap.wrap("not on: " + ", ".join(info["not_on"]), WIDTH, initial_indent="  ",
                             subsequent_indent="    ", break_long_words=False, break_on_hyphens=False)
    return "\n".join(out)
