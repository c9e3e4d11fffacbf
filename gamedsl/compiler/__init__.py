"""The compiler: a checked syntax tree -> the runtime's Program.

compiler (declarations and blocks -> records), closures (expressions -> Python closures),
pysource (expressions -> generated Python source), kinds (what an expression yields, for
writing it). The runtime never imports this package.
"""
