"""Content loading, by what is read (dsl/loader.py assembles them into ``load``), each module importing only those
before it:

    reading.py    the sandbox, the size limits, reading a file, its record, ids claimed (the Builder's state)
    content.py    the loaded Content, and the tier an effect of each kind of source ranks in
    discovery.py  the packs of a tree, a pack named on the command line or in a file, what packs require
    rules.py      rules/ files (their lists, merged across packs, the precedence tiers) and rules/options/
    cards.py      card files: the envelope, each card (salvaged when broken), duplicates and overrides
    maps.py       map files, and each map's own consistency
    packs.py      a pack folder (its manifest), the files and folders given to check, 'requires:' (PACK00x)
    effects.py    the vocabulary, and every effect parsed, checked, rendered and compiled
    xref.py       what names what across files, once all is read (XREF, OPT, the optional rules' settings)
    citations.py  the rulebook places and rulings entries cite, checked once all is read (LOAD010, LOAD013)
"""
