"""A scenario's `placed:` against what the map means by each card waiting in a Sector (docs/scenarios.md): a card
the map sets aside in a Sector lies there (`s13`: taken by the effect that names it), and a card a Sector's effect
offers ('on enter: offer tank') waits there to be bought in the Purchase phase (`"offer:s5"`). Each form is only
read as what it says, so the other form for such a card sets up a game the file does not mean: SCEN009 for a card
written lying where the map does not place it, SCEN010 for a card written offered where nothing offers it."""

from __future__ import annotations

from collections.abc import Iterator

from ddaydice.dsl import ast
from ddaydice.dsl.loader import Content

OFFER = "offer:"


def offered(tree: ast.Effect) -> set[str]:
    """The cards an effect offers ('offer tank'), in any of its clauses."""
    out: set[str] = set()
    for clause in tree.clauses:
        body = clause.body
        stmts = [body.statement] if isinstance(body, ast.Modifier) else [
            part.statement for action in body.actions for option in action.options for part in option.parts()]
        out |= {str(a.name) for s in stmts if s.verb.name == "offer" for a in s.args if isinstance(a, ast.Word)}
    return out


def offers(content: Content, map_id: str) -> tuple[dict[str, set[str]], set[str]]:
    """Where the cards are offered on this map: card -> the Sectors whose own effect offers it; and the cards an
    effect that is no Sector's offers (a card's or a rule's: wherever the Unit stands)."""
    sectors = {s.id for s in content.maps[map_id].sectors}
    by_card: dict[str, set[str]] = {}
    anywhere: set[str] = set()
    for key, src in content.effects.items():
        cards = offered(src.tree)
        if not cards:
            continue
        where, _, sid = key.partition("/")
        if src.kind == "sector":
            if where == map_id and sid in sectors:
                for card in cards:
                    by_card.setdefault(card, set()).add(sid)
        else:
            anywhere |= cards
    return by_card, anywhere


def placed_problems(content: Content, map_id: str, placed: dict[str, str]
                    ) -> Iterator[tuple[str, str, str, str]]:
    """(card, code, message, hint) for each entry of `placed:` whose form says other than the map means."""
    bm = content.maps[map_id]
    sectors = {s.id: s.name for s in bm.sectors}
    lies = {p.card: p.sector for p in bm.placed}
    by_card, anywhere = offers(content, map_id)
    for card, where in placed.items():
        if card not in content.cards:
            continue  # a card that does not exist is SCEN001
        name = content.cards[card].name
        sid = where.removeprefix(OFFER)
        if sid not in sectors:
            continue  # a Sector the map does not have is SCEN001
        if where.startswith(OFFER):
            if sid in by_card.get(card, set()) or card in anywhere:
                continue
            if card in lies:
                hint = (f"the map places the {name} in {sectors[lies[card]]}, where the effect that names it takes "
                        f"it: write '{card}: {lies[card]}'")
            elif by_card.get(card):
                hint = " or ".join(f"'{card}: \"{OFFER}{s}\"'" for s in sorted(by_card[card]))
                hint = f"a Sector that offers it: write {hint}"
            else:
                hint = (f"write '{card}: {sid}' for a card lying there, which only an effect that names it takes; "
                        "'offer:SECTOR' is for a card a Sector's effect offers ('on enter: offer tank')")
            yield (card, "SCEN010", f"'{where}': no effect of {sectors[sid]} offers the {name}; as written it "
                   "waits there to be bought in the Purchase phase, as in no game", hint)
        elif card not in lies and by_card.get(card):
            said = " or ".join(f"'{card}: \"{OFFER}{s}\"'" for s in sorted(by_card[card]))
            yield (card, "SCEN009", f"'{where}': the {name} is offered by a Sector's effect, not placed by the map; "
                   "as written it lies there and is never offered to be found", f"write {said}")
        elif card in lies and lies[card] != sid:
            yield (card, "SCEN009", f"'{where}': the map places the {name} in {sectors[lies[card]]}, not in "
                   f"{sectors[sid]}", f"write '{card}: {lies[card]}'")
