"""Syntax: rule text -> a frozen syntax tree with spans, and parse errors a designer can read.

ast (the nodes), parser (lark, the grammar, error messages), to_ast (lark's tree -> nodes),
cache and decl_cache (parsed files kept between runs), tablefiles (CSV tables -> nodes).
Lark's types stop here; nothing in this package imports the runtime.
"""
