"""The parts of the effects' checker (:mod:`ddaydice.dsl.checker` puts them together): arguments (the context, the
diagnostics, the names each kind takes, a word's arguments against its signatures), statements, conditions."""
