"""A bot that forks a child which would outlive the game; the child writes its pid to argv[1]."""
import json
import os
import sys
import time

pid = os.fork()
if pid == 0:
    sys.stdin.close()
    time.sleep(120)
    os._exit(0)
with open(sys.argv[1], "w") as f:
    f.write(str(pid))
for line in sys.stdin:
    if '"choose"' in line:
        print(json.dumps({"move": 0}), flush=True)
