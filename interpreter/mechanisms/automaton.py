"""An automated Unit (optional rules' setting ``automated-units``: solitaire Atlantikwall).

Rulebook, "SOLITAIRE ATLANTIKWALL": "Randomly determine the Allied Unit's starting Sector. It stays 2 turns in
each Sector, always moves laterally until it reaches a Sector on the edge of the Battle Map. Its next move will
be to Advance into the Sector in front of it (and still on the edge of the Battle Map). Then it moves laterally
towards the opposite edge, and so on. The Unit tries to stay in play as long as possible, so move it
accordingly. If it can avoid attacking the Bunker, it will. The Allied Unit is not affected by Sector
attributes, except "Can't stay here", which forces the Unit to stay only one turn. The Unit's movements are
restricted by Barriers, so make sure it does not head into a dead end. If this happens, the Unit is allowed to
cross the Barrier and go on. As you do not keep track of the Unit's resources, it never spends Courage to
Advance."

Our readings (docs/rulings.md, section 12; tests/scenarios/atlantikwall/solitaire-*):

- the starting Sector is drawn at random among the Sectors of the first row; it heads first towards the
  farther edge of its row (it "tries to stay in play as long as possible"; the left one when both are as far);
- "2 turns": the Unit fights two Combat phases in a Sector (the turn it arrives and the next), then moves in
  the Movement phase of the turn after (one Combat on a black shield);
- lateral moves follow the map's lateral lines towards the current edge (left = smaller ``column``), only to
  Sectors it has not visited; at the edge (no such line), it Advances along a forward line, to the Sector
  furthest towards that edge, then turns round;
- it avoids a Bunker while any other move exists (a lateral move the other way, if the edge way is closed);
- a Barrier is crossed only when no other move exists; a Unit with no move at all stays.
"""

from __future__ import annotations

from ddaydice.interpreter.core.api import GameAPI
from ddaydice.interpreter.core.state import Unit
from ddaydice.interpreter.core.values import Move

DIRECTION = "automaton-direction"  # a Unit counter: -1 towards the left edge, +1 towards the right


def start(game: GameAPI, unit: Unit) -> None:
    """Set-up: a random Sector of the first row, and a random first direction."""
    rows = [s for s in game.map.sectors if not s.bunker]
    first = min(s.row for s in rows)
    candidates = sorted((s for s in rows if s.row == first), key=lambda s: (_column(game, s.id), s.id))
    sector = candidates[int(game.rng.random() * len(candidates))] if len(candidates) > 1 else candidates[0]
    unit.sector = sector.id
    unit.visited = [sector.id]
    unit.marker = "cant-stay" if sector.black else "chevron-1"
    game.state.sectors[sector.id].entered = True
    if game.tracing:
        game.log("automaton", f"{unit.name} (automated) starts in {sector.name}", unit)


def first_direction(game: GameAPI, sector: str) -> int:
    """Towards the farther edge of the Sector's row (left when both are as far)."""
    row = game.sectors[sector].row
    cols = [_column(game, s.id) for s in game.map.sectors if s.row == row and not s.bunker]
    here = _column(game, sector)
    return 1 if max(cols) - here > here - min(cols) else -1


def _column(game: GameAPI, sid: str) -> float:
    sec = game.sectors[sid]
    return sec.column if sec.column is not None else float(game._number(sid))


def next_move(game: GameAPI, unit: Unit) -> Move | None:
    """The automated Unit's move this turn, or None when it stays."""

    stay = 1 if game.sectors[unit.sector].black else 2
    turns_here = game.state.turn - unit.entered_turn
    if unit.entered_turn == 0:
        turns_here = game.state.turn - 1  # the starting Sector: there since the first turn
    if turns_here < stay:
        return None
    if DIRECTION not in unit.counters:
        unit.counters[DIRECTION] = first_direction(game, unit.sector)
    d = unit.counters[DIRECTION]
    here = _column(game, unit.sector)
    lateral: list[tuple[str, bool, bool]] = []  # (to, landmines, barrier)
    forward: list[tuple[str, bool, bool]] = []
    for to, kind, _cost, mines, barrier in game.moves[unit.sector]:
        if to in unit.visited:
            continue
        (lateral if kind == "lateral" else forward).append((to, mines, barrier))

    def edgeward(options: list[tuple[str, bool, bool]], direction: int) -> list[tuple[str, bool, bool]]:
        return [o for o in options if (_column(game, o[0]) - here) * direction > 0]

    def pick(options: list[tuple[str, bool, bool]], direction: int, kind: str) -> Move | None:
        if not options:
            return None
        options = sorted(options, key=lambda o: (game.sectors[o[0]].bunker, -_column(game, o[0]) * direction, o[0]))
        to, mines, _ = options[0]
        return Move(kind, to, 0, mines, battle_cry=True)

    for allow_barrier in (False, True):
        open_lat = [o for o in lateral if allow_barrier or not o[2]]
        open_fwd = [o for o in forward if allow_barrier or not o[2]]
        move = pick(edgeward(open_lat, d), d, "lateral")
        if move is not None:
            return move
        # At the edge: Advance, along the edge, avoiding a Bunker while another Sector is open.
        non_bunker = [o for o in open_fwd if not game.sectors[o[0]].bunker]
        move = pick(non_bunker, d, "advance")
        if move is None:
            move = pick(edgeward(open_lat, -d), -d, "lateral")  # the other way along the row, before a Bunker
        if move is None:
            move = pick(open_fwd, d, "advance")
        if move is not None:
            if move.kind == "advance":
                unit.counters[DIRECTION] = -d
            return move
    return None
