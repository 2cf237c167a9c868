"""Players of graded skill: the expert (the heuristic policy) who slips now and then.

A player of skill ``s`` (0 to 1) answers each decision as the expert would with probability ``s``; otherwise
he slips and takes a legal answer at random (the ``random`` policy's answer). Slips are drawn from the
player's own generator, seeded per game and per player like the random policy's, so a game is the same for the
same seed whatever the number of processes, and two set-ups compared on the same seeds see the same slips
until their games part. ``expert`` is the heuristic policy itself (skill 1: it never slips).

The named levels (``LEVELS`` in policies/names.py) were chosen so that win rates spread across the bundled maps
(``benchmarks/calibrate_skill.py`` measures them; ``docs/simulation.md`` publishes the table):

- ``novice`` (skill 0.6): slips on two decisions in five: he wastes rolls, Locks the wrong dice, buys the
  wrong card or nothing, walks into Landmines or stays where he must not; he wins the easy maps one game in
  three or four (Merville Battery more often) and almost never Omaha Beach or Operation Deadstick.
- ``casual`` (skill 0.8): slips on one decision in five: he usually follows a sound plan but loses Soldiers to a
  careless move or a card played at the wrong moment; he wins most beaches, Omaha Beach about half the time.
- ``expert`` (skill 1): the heuristic policy, the strongest player there is here; he wins nearly every game.
"""

from __future__ import annotations

import random

from mypy_extensions import mypyc_attr

from ddaydice.interpreter.core.api import GameView
from ddaydice.interpreter.core.decisions import Decision
from ddaydice.interpreter.policies.deciders import RandomDecider
from ddaydice.interpreter.policies.heuristic.policy import HeuristicPolicy


@mypyc_attr(allow_interpreted_subclasses=True)  # a policy may be extended (the tests count its calls)
class GradedPolicy:
    """The expert who slips: each decision is the heuristic's with probability ``skill``, else a random legal
    answer; slips come from the player's own generator (seeded per game). (A plain class rather than an attrs one,
    so that it is a native class when compiled with mypyc.)"""

    __slots__ = ("expert", "rng", "seed", "skill", "slips")

    def __init__(self, skill: float, seed: int = 0, expert: HeuristicPolicy | None = None) -> None:
        self.skill = skill
        self.seed = seed
        self.expert = expert if expert is not None else HeuristicPolicy()
        # Two generators of their own, apart from the other players' (whose seeds are this one's neighbours).
        self.rng = random.Random(f"graded:{seed}")
        self.slips = RandomDecider(random.Random(f"slips:{seed}").getrandbits(62))

    def decide(self, game: GameView, decision: Decision) -> tuple[int, ...]:
        # One draw per decision, whatever is decided, so that the slips of a game depend on its decisions only.
        if self.rng.random() < self.skill:
            return self.expert.decide(game, decision)
        return self.slips.decide(game, decision)
