"""Deciders that play for the players: scripted, random, the reference policy, the heuristic policy and players
of graded skill. ``registry`` makes them by name; ``names`` holds the names alone (light, for the CLI's help)."""
