"""Trade Tycoon, draft 5, as a plain-Python simulator: no API, no move dicts, no state dict.

The yardstick below the hand-written version (benchmarks/handwritten/trade_tycoon.py): what
a fast simulator of the same rules costs, written the way one writes one — piles and hands
as lists of card numbers, the card facts in flat tuples, the turn as straight-line code,
and each random choice an index drawn directly among the legal options.

It plays in lockstep with the hand-written version as `benchmarks/handwritten_vs_game.py`
drives it: the deal from `random.Random(seed)` exactly as `hw.new_game(seed)` draws it, and
each decision from a second `random.Random(seed)` exactly as `rng.choice(hw.legal_moves(state,
seat))` draws it (`choice` is one `_randbelow(len(moves))`). The options are counted and the
drawn index is read back into the move the hand-written list holds at that index (its order is
the `.game`'s: give before relay, card, then oasis card, then partner, then order). So for
every seed `play(seed)` ends with the hand-written game's scores, ranks and holdings; a
test (tests/benchmarks/test_direct_trade_tycoon.py) holds it to that.

Components are numbered as there: trade cards 0-55 in the order of games/trade_cards.csv;
development cards are 0-11 here (the hand-written version's 56-67, minus 56).
"""

from __future__ import annotations

import random
import sys
from bisect import insort
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # (run as a script from anywhere)

from benchmarks.handwritten.trade_tycoon import CARDS, DEVS, SUITS, TURNS_EACH  # noqa: E402

PLAYERS = 3
_GOODS = sorted({c.good for c in CARDS})
NUM = tuple(c.number for c in CARDS)
SUIT = tuple(SUITS.index(c.suit) for c in CARDS)
EAST = tuple(c.region == "east" for c in CARDS)
GOOD = tuple(_GOODS.index(c.good) for c in CARDS)
_NAMES = [d.name for d in DEVS]
DEV_NAME = tuple(_NAMES.index(d.name) for d in DEVS)  # the first card of the same name
DEV_GOOD = tuple(_GOODS.index(d.good) if d.good is not None else -1 for d in DEVS)
DEV_PER = tuple(d.per for d in DEVS)
DEV_FLAT = tuple(d.flat for d in DEVS)
CHARTER = tuple(d.charter for d in DEVS)
N_TRADE, N_DEV = len(CARDS), len(DEVS)
CHINA, JAPAN, ROME, PERSIA = range(4)
_num = NUM.__getitem__

ROOT = Path(__file__).resolve().parents[2]


def _first_of_each(devs):
    seen, out = set(), []
    for d in devs:
        name = DEV_NAME[d]
        if name not in seen:
            seen.add(name)
            out.append(d)
    return out


def _play(seed: int):
    """One game of random moves: (hands, warehouses, devs, styles, start, moves made)."""
    deal = random.Random(seed)
    deck = list(range(N_TRADE))
    dev_deck = list(range(N_DEV))
    deal.shuffle(deck)
    deal.shuffle(dev_deck)
    start = deal.randrange(PLAYERS)
    pick = random.Random(seed)._randbelow  # what rng.choice(moves) draws: moves[_randbelow(len)]
    hands = [[], [], []]
    for hand in hands:
        for _ in range(7):
            insort(hand, deck.pop(), key=_num)
    warehouses = [[], [], []]
    devs = [[], [], []]
    taken_on = [0] * N_DEV
    # the styles: each seat in turn picks a hand card; revealed together
    chosen = [hand[pick(len(hand))] for hand in hands]
    styles = []
    for hand, c in zip(hands, chosen):
        hand.remove(c)
        styles.append(SUIT[c])
    del deck[-2:]  # two cards removed unseen
    oasis = [deck.pop(), deck.pop(), deck.pop()]
    oasis_devs = [dev_deck.pop(), dev_deck.pop(), dev_deck.pop()]
    moves = 3
    turn_number = 0
    for _ in range(TURNS_EACH):
        for i in range(PLAYERS):
            me = (start + i) % PLAYERS
            turn_number += 1
            hand, warehouse = hands[me], warehouses[me]
            if deck:
                insort(hand, deck.pop(), key=_num)
            # Oasis Charter: one of mine, not taken this turn, and a warehouse card to swap
            if warehouse:
                charters = [d for d in devs[me] if CHARTER[d] and taken_on[d] != turn_number]
                if charters:
                    firsts = _first_of_each(charters)
                    w, o = len(warehouse), len(oasis)
                    k = pick(len(firsts) * w * o + 1)
                    moves += 1
                    if k < len(firsts) * w * o:
                        d, wc, oc = firsts[k // (w * o)], warehouse[k // o % w], oasis[k % o]
                        devs[me].remove(d)
                        warehouse.remove(wc)
                        oasis.append(wc)
                        oasis.remove(oc)
                        warehouse.append(oc)
            # the order: give (card x partner x order), then relay (card x oasis card x partner x order)
            h = len(hand)
            k = pick(4 * h + 4 * h * len(oasis))
            moves += 1
            if k < 4 * h:
                given = hand.pop(k >> 2)
            else:
                k -= 4 * h
                o = len(oasis)
                c = hand.pop(k // (4 * o))
                given = oasis[k // 4 % o]
                oasis.append(c)
                oasis.remove(given)
            partner = (me + 1 + (k >> 1 & 1)) % PLAYERS
            theirs = hands[partner]
            # the partner's answer, from their hand as it was before the given card
            if k & 1:  # by suit
                suit = SUIT[given]
                answers = [c for c in theirs if SUIT[c] == suit] or theirs
            else:  # by number
                n = NUM[given]
                gap = min(abs(NUM[c] - n) for c in theirs)
                answers = [c for c in theirs if abs(NUM[c] - n) == gap]
            a = answers[pick(len(answers))]
            moves += 1
            theirs.remove(a)
            warehouse.append(a)
            insort(theirs, given, key=_num)
            # a second card of the number: trade it for an oasis development card, or keep
            if oasis_devs:
                n = NUM[a]
                same = [c for c in warehouse if NUM[c] == n]
                if len(same) > 1:
                    firsts = _first_of_each(oasis_devs)
                    f = len(firsts)
                    k = pick(len(same) * f + 1)
                    moves += 1
                    if k < len(same) * f:
                        c, d = same[k // f], firsts[k % f]
                        warehouse.remove(c)
                        oasis_devs.remove(d)
                        taken_on[d] = turn_number
                        devs[me].append(d)
                        if dev_deck:
                            oasis_devs.append(dev_deck.pop())
    return hands, warehouses, devs, styles, start, moves


# ------------------------------------------------------------------ scoring


def _runs(numbers):
    lengths, prev = [], None
    for x in sorted(set(numbers)):
        if prev is not None and x == prev + 1:
            lengths[-1] += 1
        else:
            lengths.append(1)
        prev = x
    return lengths


def style_vp(warehouse, style) -> int:
    if style == CHINA:
        longest = max(_runs([NUM[c] for c in warehouse]), default=0)
        return longest + (longest + 1) // 2
    if style == JAPAN:
        numbers = [NUM[c] for c in warehouse]
        return sum(n for n in _runs(numbers) if n >= 3) + sum(1 for x in set(numbers) if numbers.count(x) > 1)
    if style == ROME:
        east = sum(1 for c in warehouse if EAST[c])
        return max(east, len(warehouse) - east)
    best = 0
    for suit in range(4):
        numbers = {NUM[c] for c in warehouse if SUIT[c] == suit}
        linked = sum(1 for x in numbers if x - 1 in numbers or x + 1 in numbers)
        best = max(best, len(numbers) + linked)
    return best


def dev_vp(warehouse, devs) -> int:
    goods = [GOOD[c] for c in warehouse]
    return sum(DEV_FLAT[d] + DEV_PER[d] * goods.count(DEV_GOOD[d]) for d in devs)


def balance_vp(hand) -> int:
    left = sum(1 for c in hand if NUM[c] < 7.5)
    diff = abs(2 * left - len(hand))
    return 3 if diff == 0 else 1 if diff <= 2 else 0


def play(seed: int):
    """One random game from `seed`: (scores, ranks, moves made). Ranks: 1 = first, by score
    then the tie-break (warehouse cards of one's style); equal players share a rank."""
    hands, warehouses, devs, styles, _, moves = _play(seed)
    scores, keys = [], []
    for p in range(PLAYERS):
        w = warehouses[p]
        s = style_vp(w, styles[p]) + dev_vp(w, devs[p]) + balance_vp(hands[p])
        scores.append(s)
        keys.append((s, sum(1 for c in w if SUIT[c] == styles[p])))
    ranks = [1 + sum(1 for other in keys if other > mine) for mine in keys]
    return scores, ranks, moves


def final_holdings(seed: int) -> dict:
    """The end of `play(seed)`'s game in the hand-written version's terms (for tests)."""
    hands, warehouses, devs, styles, start, moves = _play(seed)
    return {"hand": hands, "warehouse": warehouses, "devs": [[N_TRADE + d for d in z] for z in devs],
            "style": [SUITS[s] for s in styles], "start": start, "moves": moves}


if __name__ == "__main__":
    import time

    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    t = time.process_time()
    for seed in range(games):
        play(seed)
    print(f"{games / (time.process_time() - t):.0f} games per CPU-second")
