"""The static checker: names, types, declarations and flow of a parsed game, as diagnostics.

checker (the entry: a plain list of check_* functions), scope (the game's names and local
scopes), decls, exprs, stmts, tables, flow (the checks), types and signatures (of builtins).
"""
