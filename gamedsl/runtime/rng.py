"""A tiny seeded random generator whose whole state is one integer kept in the game state.

SplitMix64: fast in pure Python, good enough for shuffling, and its state is a plain
number, so a game's randomness survives JSON save/load and replays exactly. (Bots draw from
a `random.Random` of their own: `picks` is its `sample` of a range, made cheaper.)
"""

from math import ceil, log

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


# `below`'s limit for each n up to a large deck's size: the largest multiple of n in 64 bits
_LIMITS = (0,) + tuple((1 << 64) - ((1 << 64) % n) for n in range(1, 257))


def shuffle(holder: dict, items: list) -> None:
    # `below` for each position, written out: a deck is shuffled at every game's start
    state = holder["rng"]
    mask, limits = _MASK, _LIMITS
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = limits[n] if n <= 256 else (1 << 64) - ((1 << 64) % n)
        while True:
            state = (state + 0x9E3779B97F4A7C15) & mask
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            r = z ^ (z >> 31)
            if r < limit:
                break
        j = r % n
        items[i], items[j] = items[j], items[i]
    holder["rng"] = state


def _pool_up_to(k: int) -> int:
    """The largest population `random.Random.sample` draws `k` of by a pool (else by a set)."""
    return 21 + (4 ** ceil(log(k * 3, 4)) if k > 5 else 0)


_POOL_UP_TO = tuple(_pool_up_to(k) for k in range(256))


def picks(rng, n: int, k: int) -> list:
    """`rng.sample(range(n), k)` of a `random.Random`, draw for draw: Python's algorithm
    written out without its checks (a bot's sampled world redeals a hand many times)."""
    if not 0 <= k <= n:
        raise ValueError("sample larger than population or is negative")
    getrandbits = rng.getrandbits
    picked = [0] * k
    if n <= (_POOL_UP_TO[k] if k < len(_POOL_UP_TO) else _pool_up_to(k)):
        pool = list(range(n))
        left = n
        for i in range(k):
            bits = left.bit_length()
            j = getrandbits(bits)
            while j >= left:
                j = getrandbits(bits)
            picked[i] = pool[j]
            left -= 1
            pool[j] = pool[left]
        return picked
    taken = set()
    bits = n.bit_length()
    for i in range(k):
        j = getrandbits(bits)
        while j >= n or j in taken:
            j = getrandbits(bits)
        taken.add(j)
        picked[i] = j
    return picked


# ---------------------------------------------------------------- the host's key
#
# A seed alone is guessable: `play` picks one of a million and `simulate` counts from 1, so a
# seat that sees its own cards could try every seed until the deal matches, then know everyone
# else's. With a key (128 random bits the host keeps, written only in the host's log), the
# generator starts from a keyed hash of the seed instead: reproducible for whoever holds the key,
# and nothing a seat sees narrows it down.

KEY_HEX_DIGITS = 32


def new_key() -> str:
    """A fresh 128-bit key, as 32 hex digits."""
    import secrets
    return secrets.token_hex(KEY_HEX_DIGITS // 2)


def check_key(key) -> str:
    """The key in its one written form (lowercase hex); ValueError saying why if it is not one."""
    if not isinstance(key, str) or len(key) != KEY_HEX_DIGITS or any(c not in "0123456789abcdefABCDEF" for c in key):
        raise ValueError(f"a key is {KEY_HEX_DIGITS} hex digits (128 bits)")
    return key.lower()


def keyed(key: str, label: str, bits: int = 64) -> int:
    """A number drawn from `label` under `key`: unpredictable from any labels without the key."""
    import hashlib
    digest = hashlib.blake2b(label.encode("utf-8"), key=bytes.fromhex(check_key(key)), digest_size=bits // 8)
    return int.from_bytes(digest.digest(), "big")


def deal_seed(seed: int, key=None) -> int:
    """What seeds the state's generator: the seed itself without a key, else its keyed hash."""
    return int(seed) if key is None else keyed(key, f"deal:{int(seed)}")
