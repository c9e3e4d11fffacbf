"""The language server (`gamedsl lsp`): a game's mistakes as the designer types, and the
names of the game to hover, follow, find and complete, for any editor that speaks LSP.

server (pygls wiring: messages, positions), document (an open file, checked at each edit
with its declarations kept in memory), index (every name and what it means), hover,
completion, outline (document symbols), fixes (did-you-mean quick fixes), reference (the
built-ins' docs, from the language reference). Needs pygls: `pip install 'gamedsl[lsp]'`.
"""
