"""``dday lsp``: a language server for content files (pygls over lsprotocol), for any editor that speaks the
Language Server Protocol.

==============  ==================================================================================
``server``      the server: open documents, when to check, the LSP features (``serve`` runs it on stdio)
``checking``    diagnostics: ``dday validate``'s own checks (dsl/validate.py) on a document's pack or file,
                with the unsaved text of the open documents overlaid, as LSP diagnostics
``text``        where the cursor stands in a YAML content file: the id or word under it, an effect block
``describe``    hover (a card as ``dday card`` shows it, a word's reference entry) and go-to-definition
``complete``    completion: the effect language's words and names, card ids, optional rules, maps, sectors
==============  ==================================================================================

Nothing here writes a file: the loader reads the files it reads anyway, with the editor's text in place of the
saved text of the open ones (:func:`ddaydice.dsl.loader.read_source`).
"""
