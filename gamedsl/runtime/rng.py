"""A tiny seeded random generator whose whole state is one integer kept in the game state.

SplitMix64: fast in pure Python, good enough for shuffling, and its state is a plain
number, so a game's randomness survives JSON save/load and replays exactly.
"""

_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


def next_u64(state: int):
    """Returns (random 64-bit number, next state)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31), state


def below(holder: dict, n: int) -> int:
    """A uniform number in [0, n), advancing holder["rng"]."""
    limit = (1 << 64) - ((1 << 64) % n)
    state = holder["rng"]
    while True:
        r, state = next_u64(state)
        if r < limit:
            holder["rng"] = state
            return r % n


def shuffle(holder: dict, items: list) -> None:
    # `below` for each position, written out: a deck is shuffled at every game's start
    state = holder["rng"]
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            state = (state + 0x9E3779B97F4A7C15) & _MASK
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            r = z ^ (z >> 31)
            if r < limit:
                break
        j = r % n
        items[i], items[j] = items[j], items[i]
    holder["rng"] = state
