"""ddaydice: a rules-as-data engine for D-Day Dice.

The package is laid out as the pipeline: content (``rules/``, ``cards/``,
``maps/``, ``expansions/``) flows through ``dsl/`` (text -> tree -> checked,
compiled effects) into ``interpreter/`` (state + effects -> events, trace).
"""

__version__ = "0.1.0"
