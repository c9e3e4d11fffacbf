"""The runtime: a compiled Program played over plain-data states.

game (the Game API every client uses), machine (the run loop, listing and entering moves),
program (the compiled records), ctx, values, builtins, tiling, wordlists, rng, state, resample.
Nothing here imports the syntax, the checker or the compiler.
"""
