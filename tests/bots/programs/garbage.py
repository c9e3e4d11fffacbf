"""A bot that answers with text that is not JSON, then with moves that do not exist."""
import json
import sys

answers = ["hello there", json.dumps({"move": 999}), json.dumps({"move": {"alt": "cheat", "args": []}}),
           json.dumps([1, 2]), json.dumps({"text": "win the game"})]
i = 0
for line in sys.stdin:
    if '"choose"' in line:
        print(answers[i % len(answers)], flush=True)
        i += 1
