"""``dday lsp``: a language server for content files, on standard input and output (interpreter/tools/lsp/)."""

from __future__ import annotations

import logging
from pathlib import Path

import click


@click.command(name="lsp")
@click.option("--stdio", is_flag=True,
              help="Talk over standard input and output: the only way, and the default (editors pass it).")
@click.option("--log-file", type=click.Path(path_type=Path, dir_okay=False),
              help="Write the server's log to this file (standard output carries the protocol).")
def lsp(stdio: bool, log_file: Path | None) -> None:
    """Run a language server for content files (YAML of a pack, the bundled content): the diagnostics of
    'dday validate' as you type, hover (a card as 'dday card' shows it, a word's reference entry), completion
    (words, card ids, values and permissions, optional rules, Sectors) and go-to-definition of a card id.

    Configure your editor to start 'dday lsp' for YAML files; see docs/modding.md, "Editor support".
    """
    del stdio  # the only transport
    if log_file is not None:
        logging.basicConfig(filename=log_file, level=logging.INFO,
                            format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from ddaydice.interpreter.tools.lsp.server import serve

    serve()
