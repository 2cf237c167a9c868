"""``python -m ddaydice.interpreter.cli``: the ``dday`` command (tests/golden/record.py runs it so)."""

from ddaydice.interpreter.cli import main

main()
