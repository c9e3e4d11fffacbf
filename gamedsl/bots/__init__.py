"""Bots that play any game through the Game API: registry (the one list of seat kinds),
spec (seat specs and each bot's generator), simple (random, first), search (greedy, mcts),
external (a bot in any language over JSON lines)."""
