"""Trade Tycoon, draft 5, written by hand in plain Python: the yardstick for what the interpreter costs.

The same game as games/trade_tycoon.game (rules: docs/games/trade_tycoon.md; the .game file decides where the
rules are silent), behind the same kind of API as gamedsl's Game: new_game(seed) -> state,
waiting_for, legal_moves, apply (a new state; the given one is untouched), apply_legal,
is_over, results. A state is plain data (dicts, lists, ints, texts); a component is the same
number as in the engine (trade cards 0-55 in the order of games/trade_cards.csv, then the 12
development cards in table order) and a move is the same dict ({"seat", "alt", "args"}), so
tests can drive this version and the engine with the same moves.

Piles keep their top at the end of the list (pop() draws). The only randomness is at setup,
so the state holds no generator: new_game shuffles and picks the start player up front.
"""

from __future__ import annotations

import csv
import random
from pathlib import Path
from typing import List, NamedTuple, Optional

CARDS_CSV = Path(__file__).resolve().parents[2] / "games" / "trade_cards.csv"

PLAYERS = 3
TURNS_EACH = 10
BALANCE = 7.5
SUITS = ("china", "japan", "rome", "persia")
ORDERS = ("number", "suit")


class Card(NamedTuple):
    number: int
    suit: str
    region: str
    good: str


class Dev(NamedTuple):
    name: str
    good: Optional[str]
    per: int
    flat: int
    charter: bool


def _read_cards(path: Path) -> List[Card]:
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    return [Card(int(r[0]), r[1], r[2], r[3]) for r in rows[1:] if r]


CARDS: List[Card] = _read_cards(CARDS_CSV)
N_TRADE = len(CARDS)

# name, count, good, per-card VP, flat VP, charter
_DEV_TABLE = [
    ("Silk Guild", 2, "silk", 1, 0, False),
    ("Tea House", 2, "tea", 1, 0, False),
    ("Spice Bazaar", 2, "spice", 1, 0, False),
    ("Jeweller", 2, "jewels", 2, 0, False),
    ("Caravanserai", 2, None, 0, 2, False),
    ("Oasis Charter", 2, None, 0, 0, True),
]
DEVS: List[Dev] = [Dev(name, good, per, flat, charter)
                   for name, count, good, per, flat, charter in _DEV_TABLE for _ in range(count)]
FIRST_DEV = N_TRADE  # development card i is component FIRST_DEV + i


def dev(d: int) -> Dev:
    return DEVS[d - FIRST_DEV]


def card_text(c: int) -> str:
    return f"{CARDS[c].number} {CARDS[c].suit}"


# ------------------------------------------------------------------ setup


def _insert_sorted(hand: List[int], c: int) -> None:
    """Hands are kept sorted by number; a card goes after the cards of its number."""
    n = CARDS[c].number
    for i, other in enumerate(hand):
        if CARDS[other].number > n:
            hand.insert(i, c)
            return
    hand.append(c)


def new_game(seed: int = 0, players: int = PLAYERS) -> dict:
    if players != PLAYERS:
        raise ValueError(f"Trade Tycoon is for {PLAYERS} players, not {players}")
    rng = random.Random(seed)
    deck = list(range(N_TRADE))
    dev_deck = list(range(FIRST_DEV, FIRST_DEV + len(DEVS)))
    rng.shuffle(deck)
    rng.shuffle(dev_deck)
    state = {
        "n": players,
        "deck": deck, "dev_deck": dev_deck, "removed": [], "oasis": [], "oasis_devs": [],
        "offer": [], "discarded": [],
        "hand": [[] for _ in range(players)], "style_card": [[] for _ in range(players)],
        "warehouse": [[] for _ in range(players)], "devs": [[] for _ in range(players)],
        "style": [None] * players, "chosen": [None] * players,
        "taken_on": [0] * len(DEVS),
        "turn_number": 0, "round": 1, "turns": 0,
        # The start player is the setup's last random draw; nothing before it depends on it.
        "start": rng.randrange(players), "current": 0,
        "step": "style", "partner": None, "order": None, "received": None,
        "over": False, "said": [],
    }
    for p in range(players):
        for _ in range(7):
            _insert_sorted(state["hand"][p], deck.pop())
    return state


def _after_styles(state: dict) -> None:
    """Every style is chosen: reveal them together, then finish the setup and start."""
    for p in range(state["n"]):
        c = state["chosen"][p]
        state["hand"][p].remove(c)
        state["style_card"][p].append(c)
        state["style"][p] = CARDS[c].suit
        state["said"].append(f"P{p + 1} trades in the {CARDS[c].suit} style")
    state["chosen"] = [None] * state["n"]
    deck = state["deck"]
    for _ in range(2):
        state["removed"].append(deck.pop())
    for _ in range(3):
        state["oasis"].append(deck.pop())
    for _ in range(3):
        state["oasis_devs"].append(state["dev_deck"].pop())
    _begin_turn(state, state["start"])


# ------------------------------------------------------------------ the turn


def _charters(state: dict, p: int) -> List[int]:
    """The player's Oasis Charters that may be played this turn (not one taken this turn)."""
    return [d for d in state["devs"][p]
            if dev(d).charter and state["taken_on"][d - FIRST_DEV] != state["turn_number"]]


def _first_of_each(devs: List[int]) -> List[int]:
    """One development card per name: two of a kind are the same choice."""
    seen, out = set(), []
    for d in devs:
        name = dev(d).name
        if name not in seen:
            seen.add(name)
            out.append(d)
    return out


def _begin_turn(state: dict, p: int) -> None:
    state["current"] = p
    state["turns"] += 1
    state["turn_number"] += 1
    if state["deck"]:
        _insert_sorted(state["hand"][p], state["deck"].pop())
    if state["warehouse"][p] and _charters(state, p):
        state["step"] = "charter"
    else:
        state["step"] = "order"


def _end_turn(state: dict) -> None:
    state["step"] = None
    nxt = (state["current"] + 1) % state["n"]
    if nxt == state["start"]:
        if state["round"] == TURNS_EACH:
            state["over"] = True
            return
        state["round"] += 1
    _begin_turn(state, nxt)


def _answers(hand: List[int], given: int, order: str) -> List[int]:
    """The cards the partner may return, from their hand as it was before the given card."""
    g = CARDS[given]
    if order == "number":
        gap = min(abs(CARDS[c].number - g.number) for c in hand)
        return [c for c in hand if abs(CARDS[c].number - g.number) == gap]
    same = [c for c in hand if CARDS[c].suit == g.suit]
    return same if same else list(hand)


# ------------------------------------------------------------------ the API


def is_over(state: dict) -> bool:
    return state["over"]


def waiting_for(state: dict) -> List[int]:
    if state["over"]:
        return []
    step = state["step"]
    if step == "style":
        return [p for p in range(state["n"]) if state["chosen"][p] is None]
    if step == "answer":
        return [state["partner"]]
    return [state["current"]]


def legal_moves(state: dict, seat: Optional[int] = None) -> List[dict]:
    """Every legal move of `seat` (default: of every seat that must move), in the .game's order."""
    seats = waiting_for(state) if seat is None else [seat]
    out: List[dict] = []
    for s in seats:
        if s in waiting_for(state):
            out.extend(_moves(state, s))
    return out


def _moves(state: dict, seat: int) -> List[dict]:
    step = state["step"]
    if step == "style":
        return [{"seat": seat, "alt": "style", "args": [c]} for c in state["hand"][seat]]
    if step == "charter":
        out = [{"seat": seat, "alt": "charter", "args": [d, w, o]}
               for d in _first_of_each(_charters(state, seat))
               for w in state["warehouse"][seat] for o in state["oasis"]]
        out.append({"seat": seat, "alt": "no_charter", "args": []})
        return out
    if step == "order":
        hand, n = state["hand"][seat], state["n"]
        others = [(seat + i) % n for i in range(1, n)]  # clockwise from the mover
        out = [{"seat": seat, "alt": "give", "args": [c, p, o]} for c in hand for p in others for o in ORDERS]
        out.extend({"seat": seat, "alt": "relay", "args": [c, r, p, o]}
                   for c in hand for r in state["oasis"] for p in others for o in ORDERS)
        return out
    if step == "answer":
        return [{"seat": seat, "alt": "answer", "args": [a]}
                for a in _answers(state["hand"][seat], state["offer"][0], state["order"])]
    if step == "duplicate":
        number = CARDS[state["received"]].number
        same = [c for c in state["warehouse"][seat] if CARDS[c].number == number]
        out = [{"seat": seat, "alt": "cash_in", "args": [c, d]}
               for c in same for d in _first_of_each(state["oasis_devs"])]
        out.append({"seat": seat, "alt": "keep", "args": []})
        return out
    return []


def is_legal(state: dict, move: dict) -> bool:
    """Whether `move` is among legal_moves(state), checked without listing them all."""
    try:
        seat, alt, args = move["seat"], move["alt"], list(move["args"])
    except (KeyError, TypeError):
        return False
    if seat not in waiting_for(state):
        return False
    step = state["step"]
    if step == "style":
        return alt == "style" and len(args) == 1 and args[0] in state["hand"][seat]
    if step == "charter":
        if alt == "no_charter":
            return args == []
        return (alt == "charter" and len(args) == 3 and args[0] in _first_of_each(_charters(state, seat))
                and args[1] in state["warehouse"][seat] and args[2] in state["oasis"])
    if step == "order":
        partner_ok = lambda p: isinstance(p, int) and p != seat and 0 <= p < state["n"]  # noqa: E731
        if alt == "give":
            return (len(args) == 3 and args[0] in state["hand"][seat] and partner_ok(args[1])
                    and args[2] in ORDERS)
        return (alt == "relay" and len(args) == 4 and args[0] in state["hand"][seat]
                and args[1] in state["oasis"] and partner_ok(args[2]) and args[3] in ORDERS)
    if step == "answer":
        return (alt == "answer" and len(args) == 1
                and args[0] in _answers(state["hand"][seat], state["offer"][0], state["order"]))
    if step == "duplicate":
        if alt == "keep":
            return args == []
        number = CARDS[state["received"]].number
        return (alt == "cash_in" and len(args) == 2 and args[0] in state["warehouse"][seat]
                and CARDS[args[0]].number == number and args[1] in _first_of_each(state["oasis_devs"]))
    return False


def copy_state(state: dict) -> dict:
    """A copy sharing nothing that a move changes (lists of lists one level down)."""
    new = dict(state)
    for key, value in state.items():
        if isinstance(value, list):
            new[key] = [list(v) if isinstance(v, list) else v for v in value]
    return new


def apply(state: dict, move: dict) -> dict:
    """The state after `move`; raises ValueError (state unchanged) if it is not legal."""
    if state["over"]:
        raise ValueError("the game is over")
    if not is_legal(state, move):
        raise ValueError(f"not a legal move now: {move}")
    return apply_legal(state, move)


def apply_legal(state: dict, move: dict, in_place: bool = False) -> dict:
    """`apply` for a move taken straight from legal_moves: no check (bots and playouts)."""
    s = state if in_place else copy_state(state)
    s["said"] = []
    seat, alt, args = move["seat"], move["alt"], move["args"]
    if alt == "style":
        s["chosen"][seat] = args[0]
        if all(c is not None for c in s["chosen"]):
            _after_styles(s)
    elif alt == "charter":
        d, w, o = args
        s["devs"][seat].remove(d)
        s["discarded"].append(d)
        s["warehouse"][seat].remove(w)
        s["oasis"].append(w)
        s["oasis"].remove(o)
        s["warehouse"][seat].append(o)  # a charter's card never triggers the duplicate trade
        s["step"] = "order"
    elif alt == "no_charter":
        s["step"] = "order"
    elif alt == "give":
        c, p, o = args
        s["hand"][seat].remove(c)
        _exchange(s, c, p, o)
    elif alt == "relay":
        c, r, p, o = args
        s["hand"][seat].remove(c)
        s["oasis"].append(c)
        s["oasis"].remove(r)
        _exchange(s, r, p, o)
    elif alt == "answer":
        _answer(s, args[0])
    elif alt == "cash_in":
        c, d = args
        me = s["current"]
        s["warehouse"][me].remove(c)
        s["discarded"].append(c)
        s["oasis_devs"].remove(d)
        s["taken_on"][d - FIRST_DEV] = s["turn_number"]
        s["devs"][me].append(d)
        if s["dev_deck"]:
            s["oasis_devs"].append(s["dev_deck"].pop())
        _end_turn(s)
    elif alt == "keep":
        _end_turn(s)
    else:
        raise ValueError(f"unknown move {alt!r}")
    return s


def _exchange(s: dict, given: int, partner: int, order: str) -> None:
    s["offer"].append(given)
    s["partner"], s["order"] = partner, order
    s["step"] = "answer"
    s["said"].append(f"P{s['current'] + 1} gives {card_text(given)} to P{partner + 1}, order {order}")


def _answer(s: dict, a: int) -> None:
    me, partner = s["current"], s["partner"]
    given = s["offer"].pop()
    s["hand"][partner].remove(a)
    s["warehouse"][me].append(a)
    _insert_sorted(s["hand"][partner], given)
    s["partner"] = s["order"] = None
    number = CARDS[a].number
    if s["oasis_devs"] and sum(1 for c in s["warehouse"][me] if CARDS[c].number == number) > 1:
        s["step"], s["received"] = "duplicate", a
    else:
        _end_turn(s)


# ------------------------------------------------------------------ scoring


def _runs(numbers: List[int]) -> List[int]:
    """The lengths of the maximal runs of consecutive distinct numbers (14 and 1 are not)."""
    lengths, prev = [], None
    for x in sorted(set(numbers)):
        if prev is not None and x == prev + 1:
            lengths[-1] += 1
        else:
            lengths.append(1)
        prev = x
    return lengths


def china_vp(numbers: List[int]) -> int:
    longest = max(_runs(numbers), default=0)
    return longest + (longest + 1) // 2


def japan_vp(numbers: List[int]) -> int:
    runs = sum(n for n in _runs(numbers) if n >= 3)
    repeated = sum(1 for x in set(numbers) if numbers.count(x) > 1)
    return runs + repeated


def rome_vp(cards: List[Card]) -> int:
    east = sum(1 for c in cards if c.region == "east")
    return max(east, len(cards) - east)


def persia_vp(cards: List[Card]) -> int:
    best = 0
    for suit in SUITS:
        numbers = {c.number for c in cards if c.suit == suit}
        linked = sum(1 for x in numbers if x - 1 in numbers or x + 1 in numbers)
        best = max(best, len(numbers) + linked)
    return best


def style_vp(state: dict, p: int) -> int:
    cards = [CARDS[c] for c in state["warehouse"][p]]
    style = state["style"][p]
    if style is None:
        return 0
    if style == "china":
        return china_vp([c.number for c in cards])
    if style == "japan":
        return japan_vp([c.number for c in cards])
    if style == "rome":
        return rome_vp(cards)
    return persia_vp(cards)


def dev_vp(state: dict, p: int) -> int:
    goods = [CARDS[c].good for c in state["warehouse"][p]]
    total = 0
    for d in state["devs"][p]:
        info = dev(d)
        total += info.flat + info.per * goods.count(info.good)
    return total


def balance_vp(state: dict, p: int) -> int:
    hand = state["hand"][p]
    left = sum(1 for c in hand if CARDS[c].number < BALANCE)
    diff = abs(left - (len(hand) - left))
    return 3 if diff == 0 else 1 if diff <= 2 else 0


def score(state: dict, p: int) -> int:
    return style_vp(state, p) + dev_vp(state, p) + balance_vp(state, p)


def tiebreak(state: dict, p: int) -> int:
    style = state["style"][p]
    return 0 if style is None else sum(1 for c in state["warehouse"][p] if CARDS[c].suit == style)


def results(state: dict) -> dict:
    """Scores, ranks (1 = first; equal players share a rank), winners and the declared results."""
    n = state["n"]
    scores = [score(state, p) for p in range(n)]
    keys = [(scores[p], tiebreak(state, p)) for p in range(n)]
    ranks = [1 + sum(1 for other in keys if other > mine) for mine in keys]
    over = state["over"]
    return {
        "finished": over, "unfinished": False, "scores": scores, "ranks": ranks,
        "winners": [p for p in range(n) if ranks[p] == 1] if over else [], "turns": state["turns"],
        "fields": {
            "style": list(state["style"]),
            "style_vp": [style_vp(state, p) for p in range(n)],
            "development_vp": [dev_vp(state, p) for p in range(n)],
            "balance_vp": [balance_vp(state, p) for p in range(n)],
        },
    }


def random_game(seed: int) -> dict:
    """One game of uniformly random moves; its results."""
    rng = random.Random(seed)
    state = new_game(seed)
    while not is_over(state):
        seat = waiting_for(state)[0]
        state = apply(state, rng.choice(legal_moves(state, seat)))
    return results(state)
