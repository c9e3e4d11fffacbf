#!/usr/bin/env python3
"""An external gamedsl bot (docs/bots.md), Python standard library only.

Play it: gamedsl play examples/high_card.game --seats "cmd:python3 examples/json_bot.py,random"

It reads one JSON object per line on stdin and answers each "choose" with one line on
stdout. Its strategy is simple but uses the view: it prefers the move whose written text
holds the largest number (the highest card, the biggest bid it can make), else a random one.
"""

import json
import random
import re
import sys


def value_of(move: dict) -> float:
    numbers = re.findall(r"-?\d+", move.get("text", ""))
    return max(map(int, numbers)) if numbers else float("-inf")


def main() -> None:
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            rng = random.Random(f"json_bot:{message['seat']}")  # (the host sends no seed)
        elif message["type"] == "choose":
            moves = message["moves"]
            best = max(value_of(m) for m in moves)
            if best == float("-inf"):
                pick = rng.randrange(len(moves))
            else:
                pick = rng.choice([i for i, m in enumerate(moves) if value_of(m) == best])
            print(json.dumps({"move": pick}), flush=True)
        elif message["type"] == "end":
            break


if __name__ == "__main__":
    main()
