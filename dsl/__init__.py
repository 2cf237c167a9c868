"""The effect language: grammar, syntax tree, checker, English, compiler, and content loading.

    effect.lark --parser.py--> ast.py --checker.py (words/, vocab.py)--> checked tree
        --render.py--> English          --compile.py--> hooks for the interpreter
    YAML --yamlsrc.py (ruamel, cattrs)--> schema.py records --loader.py (loading/)--> Content

dsl/ never imports interpreter/.
"""
