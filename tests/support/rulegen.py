"""Rule files for fuzzing: generated from the grammar, built from typed templates, or
mutated from the real games, and one checker that runs each through the whole tool.

Shared by tests/fuzz/test_fuzz_rules.py (a small, fixed budget in CI) and tools/fuzz_long.py
(the long run). Every source of rule files is a function of a random.Random, so a
seed names a file exactly and a crash can be reproduced from its seed alone.

The promise checked (`run_one`): loading a rule file (parse, check, compile), rendering
its diagnostics as `gamedsl check` does, and playing a game it defines for a few random
moves ends in diagnostics (GameError), success, or a rule error (RuleError) — never
another exception, and never more than a few seconds.
"""

from __future__ import annotations

import functools
import json
import random
import signal
from pathlib import Path
from typing import Callable, Dict, List, Optional

ROOT = Path(__file__).resolve().parents[2]

# ---------------------------------------------------------------- the real files


def real_files() -> List[Path]:
    """Every rule file of the project: games/ (whatever games are there) and examples/."""
    return sorted(set((ROOT / "games").rglob("*.game")) | set((ROOT / "examples").rglob("*.game")))


def real_games() -> List[Path]:
    """The games that load without errors (a file under construction is skipped, not fatal)."""
    from gamedsl.errors import GameError
    from gamedsl.pipeline import load

    out = []
    for path in real_files():
        try:
            load(str(path))
        except GameError:
            continue
        out.append(path)
    return out


# ---------------------------------------------------------------- vocabulary

UNICODE_NAMES = ["ねこ", "Ωmega", "ñandú", "straße", "x_1", "données", "Ж", "名前", "ǅ", "ﬁx", "𝔘nit"]
UNICODE_TEXTS = ["ÿ☃", "a\u200bb", "\u202eevil", "😀👍🏽", "e\u0301", "名前", "\u2028", "\\n\\t", "{c}", "{", "}",
                 "%s", "{0}", "\x0c", "\x1b[2J", "\u00a0"]
HUGE_NUMBERS = ["9" * 30, "1" + "0" * 400, "9" * 4400, "0" * 50 + "7", "1" * 20 + "." + "1" * 20, "4294967296",
                "18446744073709551617"]
NAMES = ["p", "c", "x", "card", "deck", "hand", "points", "players", "current", "score", "board", "T", "n",
         "colour", "red", "f", "bump", "main", "round", "start_player", "player_count", "len", "sum", "first",
         "text", "max", "range", "pile", "token", "value", "name", "mode", "fast", "counter", "flag"]


def _name(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.8:
        return rng.choice(NAMES)
    if r < 0.95:
        return rng.choice(UNICODE_NAMES)
    return "n" * rng.randint(50, 3000)


def _number(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.85:
        return str(rng.choice([0, 1, 2, 3, 5, 10, 100]))
    return rng.choice(HUGE_NUMBERS)


def _string(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.6:
        return '"' + rng.choice(["go", "play {c}", "take", "P", "pass", ""]) + '"'
    if r < 0.95:
        return '"' + rng.choice(UNICODE_TEXTS) + '"'
    return '"' + "ab" * rng.randint(1000, 50000) + '"'


# ---------------------------------------------------------------- 1. a random walk of the grammar


@functools.lru_cache(maxsize=1)
def _grammar():
    """The grammar's rules (as lark expands them) and the least depth of each rule."""
    import lark

    from gamedsl.syntax.parser import grammar_text

    parser = lark.Lark(grammar_text(), parser="lalr", start=["game_file"])
    rules: Dict[str, List[list]] = {}
    for rule in parser.rules:
        rules.setdefault(rule.origin.name, []).append([(s.name, s.is_term) for s in rule.expansion])
    literal = {t.name: t.pattern.value for t in parser.terminals if type(t.pattern).__name__ == "PatternStr"}
    # The least derivation depth of each rule, found by iterating to a fixed point.
    depth: Dict[str, float] = {name: float("inf") for name in rules}
    changed = True
    while changed:
        changed = False
        for name, alts in rules.items():
            best = min(1 + max([depth[s] for s, term in alt if not term] or [0]) for alt in alts)
            if best < depth[name]:
                depth[name], changed = best, True
    return rules, literal, depth


def grammar_walk(rng: random.Random, max_depth: int = 12) -> str:
    """A game_file derived at random from grammar/gamedsl.lark (whatever the grammar holds
    now: a rule added by someone else is walked too). Syntactically valid by construction
    (up to names that happen to be keywords); mostly meaningless, which is what the checker
    must survive."""
    rules, literal, depth = _grammar()
    tokens: List[str] = []
    budget = [4000]  # tokens: star rules may recurse wide as well as deep

    def walk(name: str, level: int) -> None:
        alts = rules[name]
        if level > max_depth or budget[0] <= 0:
            least = min(1 + max([depth[s] for s, t in alt if not t] or [0]) for alt in alts)
            alts = [a for a in alts if 1 + max([depth[s] for s, t in a if not t] or [0]) == least]
        alt = rng.choice(alts)
        for sym, term in alt:
            if term:
                tokens.append(_terminal(sym, literal, rng))
                budget[0] -= 1
            else:
                walk(sym, level + 1)

    walk("game_file", 0)
    return _render(tokens)


def _terminal(name: str, literal: Dict[str, str], rng: random.Random) -> str:
    if name in literal:
        return literal[name]
    if name == "NAME":
        return _name(rng)
    if name == "NUMBER":
        return _number(rng)
    if name == "STRING":
        return _string(rng)
    if name == "SORT_THEN":
        return ", then"
    return name  # _NL, _INDENT, _DEDENT: laid out by _render


def _render(tokens: List[str]) -> str:
    out, level, line_start = [], 0, True
    for tok in tokens:
        if tok == "_NL":
            out.append("\n")
            line_start = True
        elif tok == "_INDENT":
            level += 1
        elif tok == "_DEDENT":
            level -= 1
        else:
            out.append(("  " * level) if line_start else " ")
            out.append(tok)
            line_start = False
    return "".join(out).lstrip() + "\n"


# ---------------------------------------------------------------- 2. typed templates: mostly valid games


TITLES = ["Fuzz", "ねこ game", 'A \\"quoted\\" game', "😀"]


class _Typed:
    """A game over a fixed set of declarations, with statements and expressions drawn by type,
    so most files check and can be played."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def num(self, d: int = 0, local: str = "") -> str:
        r, rng = self.rng, self.rng.random
        opts = ["0", "1", "3", "counter", "len(deck)", "len(pile)", "player_count", "round", "opt",
                "current.points", "sum([c.value for c in pile])", "len(current.hand)"]
        if local:
            opts += [f"{local}.value"] if local[0] == "c" else [f"{local}.points", f"seat({local})"]
        if d > 3 or rng() < 0.4:
            return r.choice(opts) if rng() > 0.005 else _number(r)
        k = rng()
        if k < 0.35:
            return f"{self.num(d + 1, local)} {r.choice(['+', '-', '*', '//', '%', '/'])} {self.num(d + 1, local)}"
        if k < 0.5:
            return f"({self.num(d + 1, local)} if {self.cond(d + 1, local)} else {self.num(d + 1, local)})"
        if k < 0.6:
            return f"max([{self.num(d + 1, local)}, {self.num(d + 1, local)}])"
        if k < 0.7:
            return f"len([w{d} for w{d} in players if {self.cond(d + 1, f'w{d}')}])"
        if k < 0.8:
            return f"f({r.choice(['current', 'first(players)', 'left_of(current)'])})"
        if k < 0.9:
            return f"-{self.num(d + 1, local)}"
        return f"abs({self.num(d + 1, local)})"

    def cond(self, d: int = 0, local: str = "") -> str:
        r, rng = self.rng, self.rng.random
        if d > 3 or rng() < 0.4:
            return r.choice(["true", "false", "flag", "current.ready", "len(deck) == 0", "mode == fast",
                             f"{self.num(d + 1, local)} > {self.num(d + 1, local)}", "round > 3"])
        k = rng()
        if k < 0.3:
            return f"{self.cond(d + 1, local)} {r.choice(['and', 'or'])} {self.cond(d + 1, local)}"
        if k < 0.45:
            return f"not {self.cond(d + 1, local)}"
        if k < 0.6:
            return f"{self.num(d + 1, local)} {r.choice(['==', '!=', '<', '<=', '>=', '>'])} {self.num(d + 1, local)}"
        if k < 0.75:
            return f"any([{self.cond(d + 1, f'w{d}')} for w{d} in players])"
        return f"{self.num(d + 1, local)} in [{self.num(d + 1, local)}, {self.num(d + 1, local)}]"

    def stmts(self, ind: int, d: int = 0, local: str = "", n: Optional[int] = None) -> List[str]:
        return [s for _ in range(n or self.rng.randint(1, 3)) for s in self.stmt(ind, d, local)]

    def stmt(self, ind: int, d: int, local: str) -> List[str]:
        r, rng, pad = self.rng, self.rng.random, "  " * ind
        k = rng()
        if d > 3 or k < 0.35:
            return [pad + r.choice([
                f"counter {r.choice(['=', '+=', '-=', '*='])} {self.num(d, local)}",
                # a value computed from itself, in a loop, grows fast (x = x * x)
                f"counter = counter {r.choice(['+', '-', '*'])} {r.choice(['counter', self.num(d, local)])}",
                f"current.points += {self.num(d, local)}",
                f"flag = {self.cond(d, local)}",
                "current.ready = not current.ready",
                "say \"" + r.choice(UNICODE_TEXTS + ["hello"]) + "\" + text(" + self.num(d, local) + ")",
                "shuffle deck",
                "draw 1 from deck to current.hand",
                "move pile to deck",
                f"bump(current, {self.num(d, local)})",
                "next turn left_of(current)",
                f"draw {self.num(d, local)} from deck to pile",
                f"counter = chain([c.value for c in pile], 0, {self.num(d, local)})",
                f"counter = len(flatten([[c.value for c in pile], [{self.num(d, local)}]]))",
                f'say replace(text({self.num(d, local)}), "1", "{r.choice(UNICODE_TEXTS)}")',
                "pass",
                "end game",
                # zone families, capacities, positions, showing, rounds
                f"move first(pile, {r.choice(['1', '2', 'opt'])}) to stack[{r.choice(['red', 'green', 'blue'])}]",
                f"move first(deck, 1) to row[{r.choice(['1', 'player_count', 'min([player_count, opt])', self.num(d, local)])}]",
                f"move first(deck, 1) to deck at {r.choice(['1', '2', self.num(d, local)])} from {r.choice(['top', 'bottom'])}",
                f"move first(current.hand, 1) to pile at {r.choice(['1', 'len(pile)', 'len(pile) + 1'])}",
                f"move first(current.hand, 1) to {r.choice(['current', 'left_of(current)'])}.kept",
                f"show {r.choice(['first(current.hand, 1)', 'pile', 'top(deck, 1)', 'current.kept'])} to "
                f"{r.choice(['current', 'left_of(current)'])}",
                r.choice(["leave round", "leave round left_of(current)", "end round"]),
                f"counter = len(in_round) + len(last([c.value for c in pile], {self.num(d, local)}))",
                f"counter = sum([len(stack[h]) for h in colour]) + len(row) + sum(1..{r.choice(['3', 'opt'])})",
                f"flag = full(stack[{r.choice(['red', 'green', 'blue'])}]) or {self.cond(d, local)}",
            ])]
        if k < 0.5:
            return [f"{pad}if {self.cond(d, local)}:"] + self.stmts(ind + 1, d + 1, local) + (
                [f"{pad}else:"] + self.stmts(ind + 1, d + 1, local) if rng() < 0.5 else [])
        if k < 0.6:
            return [f"{pad}for q{d} in players:"] + self.stmts(ind + 1, d + 1, f"q{d}")
        if k < 0.7:
            return [f"{pad}for c{d} in pile:"] + self.stmts(ind + 1, d + 1, f"c{d}")
        if k < 0.78:
            return [f"{pad}repeat {r.choice(['2', '3', '40', 'opt', self.num(d, local)])} times:"] + self.stmts(ind + 1, d + 1, local)
        if k < 0.83:
            return [f"{pad}while counter < {r.choice(['3', '10', self.num(d, local)])}:",
                    f"{pad}  counter += {r.choice(['1', '2', self.num(d, local)])}"] + self.stmts(ind + 1, d + 1, local)
        if k < 0.88:
            return [f"{pad}let v{d} = {self.num(d, local)}", f"{pad}counter += v{d}"]
        if k < 0.91:
            return [f"{pad}for c{d} in first(pile, {r.choice(['1', '3', 'opt'])}):",
                    f"{pad}  if not full(stack[c{d}.hue]):", f"{pad}    move c{d} to stack[c{d}.hue]"] + (
                self.stmts(ind + 1, d + 1, f"c{d}") if rng() < 0.5 else [])
        if k < 0.93:
            return [f"{pad}for h{d} in {r.choice(['colour', 'row', '1..opt'])}:"] + self.stmts(ind + 1, d + 1, local)
        return self.choose(ind, d, local)

    def choose(self, ind: int, d: int, local: str) -> List[str]:
        pad, r = "  " * ind, self.rng
        out = [f"{pad}choose by current:"]
        out += [f'{pad}  play(c{d} in current.hand) "play {{c{d}}}":', f"{pad}    move c{d} to pile"]
        out += self.stmts(ind + 2, d + 1, f"c{d}")
        if r.random() < 0.5:
            out += [f'{pad}  take(n{d} in range(1, {r.choice(["3", "opt", "len(deck)", self.num(d + 1)])})) "take {{n{d}}}" '
                    f"if {self.cond(d + 1)}:", f"{pad}    counter += n{d}"]
        if r.random() < 0.3:
            out += [f'{pad}  aim(q{d} in [w for w in others(current) if {self.cond(d + 1, "w")}] or nobody) "aim at {{q{d}}}":',
                    f"{pad}    if q{d} != none:", f"{pad}      q{d}.points += 1"]
        out += [f'{pad}  rest "{r.choice(["rest", "pass", "ねる"])}":']
        out += self.stmts(ind + 2, d + 1, local, n=1)
        return out

    def game(self) -> str:
        r = self.rng
        lo = r.choice([1, 2, 2, 3])
        rows = "\n".join(f"  | {r.choice(NAMES[:5] + UNICODE_NAMES)}{i} | {r.randint(0, 9)} | "
                         f"{r.choice(['red', 'green', 'blue'])} |" for i in range(r.randint(1, 6)))
        lines = [
            'game "' + r.choice(TITLES) + '"',
            f"players {lo}..{lo + r.randint(0, 3)}",
            f"option opt: 1..{r.randint(1, 6)} = 1",
            "option mode: fast | slow = fast",
            "enum colour: red, green, blue",
            "table T:",
            "  | name | value: number | hue: colour |",
            rows,
            "kind card:",
            "  from T",
            f"  copies {r.choice(['1', '2', 'opt', 'value'])}",
            "  show name",
            "zone deck of card: hidden" + r.choice(["", ", refill from pile"]),
            "zone pile of card: public",
            "player zone hand of card: owner" + r.choice(["", ", sorted by value"]),
            f"zone stack[colour] of card: public, capacity {r.choice(['1', '3', '6'])}",
            f"zone row[1..player_count{r.choice(['', ' + 1'])}] of card: {r.choice(['public', 'hidden'])}",
            "player zone kept of card: " + r.choice(["others", "owner", "public"]),
            "var counter: number = 0",
            "var flag: bool = false",
            "player var points: number = 0",
            "player var ready: bool = false" + r.choice(["", ", secret"]),
            f"def f(p: player) = {self.num(1, 'p')}",
            "procedure bump(p: player, n: number):",
            "  p.points += n",
        ]
        if r.random() < 0.3:
            lines += [f"  if n > 0 and counter < {r.choice(['5', '500', '100000'])}:", "    counter += 1",
                      "    bump(p, n - 1)"]
        lines += ["setup:", "  move card to deck", "  shuffle deck", "  for p in players:",
                  f"    draw {r.choice(['1', '2', 'opt'])} from deck to p.hand"]
        lines += self.stmts(1, 2)
        if r.random() < 0.7:
            lines += ["turn:"] + self.choose(1, 0, "") + self.stmts(1, 1)
            lines += [f"  if round > {r.choice(['3', '5', 'opt'])} or {self.cond(2)}:", "    end game"]
        else:
            lines += ["phase first:", "  on begin:"] + self.stmts(2, 2) + ["  turn:"] + self.choose(2, 1, "")
            lines += [f"  end when round > {r.choice(['2', 'opt'])}", "  then second", "phase second:", "  turn:"]
            lines += self.choose(2, 1, "") + [f"  end when round > 2 or {self.cond(2)}"]
        lines += ["score of p: " + self.num(1, "p")]
        if r.random() < 0.5:
            lines += ["tiebreak of p: most len(p.hand), then fewest seat(p)"]
        if r.random() < 0.3:
            lines += ["public lead of p: p.points > 3"]
        return "\n".join(lines) + "\n"


def typed_game(rng: random.Random) -> str:
    return _Typed(rng).game()


# ---------------------------------------------------------------- 3. mutations of real files

ODD = ["(", ")", "[", "]", ":", "|", '"', "", "-", "..", "none", "0", "players", "current", "p.hand", "+", "*",
       "==", "true", "\t", "then", "#", "  ", "\n", ",", "choose", "by", "if", "else", "for", "in", "words",
       "each", "secretly", "\\", "\r", "\x0c", "\u2028", "\x00", "\ufeff"]


def _tokens(text: str) -> List[str]:
    return text.replace("\n", " \n ").split(" ")


def _untokens(tokens: List[str]) -> str:
    return " ".join(tokens).replace(" \n ", "\n")


def _deep(rng: random.Random) -> str:
    n = rng.choice([61, 100, 500, 2000])
    kind = rng.random()
    if kind < 0.3:
        return "(" * n + "1" + ")" * n
    if kind < 0.5:
        return "[" * n + "]" * n
    if kind < 0.7:
        return "-" * n + "1"
    if kind < 0.85:
        return "not " * n + "true"
    return " + ".join(["1"] * n)


def _deep_block(rng: random.Random) -> str:
    n = rng.choice([61, 100, 500])
    return "\n".join("  " * i + "if true:" for i in range(n)) + "\n" + "  " * n + "pass"


def mutate(text: str, rng: random.Random, donors: Optional[List[str]] = None) -> str:
    """One to three edits of a rule file, from tokens to bytes to whole blocks."""
    for _ in range(rng.randint(1, 3)):
        op = rng.random()
        if op < 0.35:
            text = _token_edit(text, rng)
        elif op < 0.55:
            text = _line_edit(text, rng)
        elif op < 0.65:
            pos = rng.randrange(len(text) + 1)
            junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8))).decode("latin-1")
            text = text[:pos] + junk + text[pos:]
        elif op < 0.75:
            tokens = _tokens(text)
            numbers = [i for i, t in enumerate(tokens) if t.isdigit()]
            if numbers:
                tokens[rng.choice(numbers)] = rng.choice(HUGE_NUMBERS)
            text = _untokens(tokens)
        elif op < 0.83:
            tokens = _tokens(text)
            j = rng.randrange(len(tokens))
            tokens[j] = _deep(rng) if rng.random() < 0.7 else rng.choice(UNICODE_NAMES + ['"' + u + '"' for u in UNICODE_TEXTS])
            text = _untokens(tokens)
        elif op < 0.88:
            lines = text.split("\n")
            j = rng.randrange(len(lines) + 1)
            lines.insert(j, _deep_block(rng))
            text = "\n".join(lines)
        elif op < 0.95 and donors:
            donor = rng.choice(donors).split("\n")
            a = rng.randrange(len(donor))
            chunk = donor[a:a + rng.randint(1, 12)]
            lines = text.split("\n")
            j = rng.randrange(len(lines) + 1)
            text = "\n".join(lines[:j] + chunk + lines[j:])
        else:
            cut = rng.randrange(len(text) + 1)
            text = text[:cut] if rng.random() < 0.5 else text[cut:]
    return text


def _token_edit(text: str, rng: random.Random) -> str:
    tokens = _tokens(text)
    j = rng.randrange(len(tokens))
    op = rng.random()
    if op < 0.3:
        del tokens[j]
    elif op < 0.55:
        tokens.insert(j, rng.choice(tokens))
    elif op < 0.8:
        k = rng.randrange(len(tokens))
        tokens[j], tokens[k] = tokens[k], tokens[j]
    else:
        tokens[j] = rng.choice(ODD)
    return _untokens(tokens)


def _line_edit(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    j = rng.randrange(len(lines))
    op = rng.random()
    if op < 0.25:
        del lines[j]
    elif op < 0.45:
        lines.insert(j, lines[rng.randrange(len(lines))])
    elif op < 0.6:
        k = rng.randrange(len(lines))
        lines[j], lines[k] = lines[k], lines[j]
    elif op < 0.75:
        lines[j] = "  " + lines[j]
    elif op < 0.85:
        lines[j] = lines[j][rng.randint(1, 4):]
    elif op < 0.92:
        lines[j] = "\t" + lines[j]
    else:
        lines[j:j + 1] = [lines[j]] * rng.randint(2, 300)
    return "\n".join(lines)


# ---------------------------------------------------------------- running one file


class Timeout(BaseException):
    """A file took too long (a BaseException, so no `except Exception` in the tool hides it)."""


class Crash(Exception):
    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.kind, self.detail = kind, detail


def _on_alarm(signum, frame):
    raise Timeout()


def run_one(path: str, text: str, seed: int = 0, moves: int = 20, timeout: int = 10) -> str:
    """Load `text` as if it were the file at `path`, render its diagnostics, and play a
    game it defines for a few random moves. Returns "diagnostics CODE" (the first error's),
    "played" or "rule error CODE";
    raises Crash for anything else (another exception, or more than `timeout` seconds)."""
    old = signal.signal(signal.SIGALRM, _on_alarm)
    signal.alarm(timeout)
    try:
        return _run(path, text, seed, moves)
    except Timeout:
        raise Crash("timeout", f"more than {timeout} s") from None
    except Crash:
        raise
    except BaseException as err:  # noqa: B902 - everything but the documented outcomes is a crash
        if isinstance(err, KeyboardInterrupt):
            raise
        import traceback

        raise Crash(type(err).__name__, "".join(traceback.format_exception(err))[-3000:]) from None
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _run(path: str, text: str, seed: int, moves: int) -> str:
    from gamedsl.errors import GameError
    from gamedsl.diagnostics import render_all, to_json
    from gamedsl.errors import MoveError, RuleError
    from gamedsl.pipeline import load

    try:
        game = load(path, text=text)
    except GameError as err:
        if not err.diagnostics:
            raise Crash("no-diagnostics", "GameError without a diagnostic") from None
        sources = {path: text}
        render_all(err.diagnostics, sources)
        json.loads(to_json(err.diagnostics))
        errors = [d.code for d in err.diagnostics if d.is_error] or ["warnings"]
        return "diagnostics " + errors[0]
    rnd = random.Random(seed)
    try:
        players = rnd.randint(game.min_players, game.max_players)
        state = game.new_game(players, seed)
        for _ in range(moves):
            for s in range(state["n"]):
                game.view(state, s)
            if game.is_over(state):
                break
            legal = game.legal_moves(state)
            if not legal:
                raise Crash("stuck", "nobody can move, yet the game is not over")
            move = rnd.choice(legal)
            copy = json.loads(json.dumps(state))
            state = game.apply(state, move)
            if json.dumps(game.apply(copy, move), sort_keys=True) != json.dumps(state, sort_keys=True):
                raise Crash("json", "a state read back from JSON plays differently")
        game.results(state)
    except RuleError as err:
        if not (isinstance(err.code, str) and err.code.startswith("E5")):
            raise Crash("rule-code", f"RuleError with code {err.code!r}") from None
        str(err)
        return "rule error " + err.code
    except MoveError as err:
        raise Crash("MoveError", f"a legal move was refused: {err}") from None
    return "played"


# ---------------------------------------------------------------- the sources, by name


def sources(donors: Dict[str, str]) -> Dict[str, Callable[[random.Random], tuple]]:
    """Each source gives (path to load as, text) for a random.Random. `donors` maps each real
    file's path to its text."""
    paths = sorted(donors)
    texts = [donors[p] for p in paths]

    def mutant(rng):
        p = rng.choice(paths)
        return p, mutate(donors[p], rng, texts)

    def walk(rng):
        return str(ROOT / "fuzz-walk.game"), grammar_walk(rng)

    def typed(rng):
        text = typed_game(rng)
        if rng.random() < 0.25:
            text = mutate(text, rng, texts)
        return str(ROOT / "fuzz-typed.game"), text

    return {"mutant": mutant, "walk": walk, "typed": typed}


def minimise(path: str, text: str, kind: str, seed: int, moves: int, tries: int = 300) -> str:
    """A shorter text that crashes the same way (lines dropped while the crash stays)."""
    def same(t):
        try:
            run_one(path, t, seed, moves)
        except Crash as c:
            return c.kind == kind
        return False

    lines = text.split("\n")
    chunk = max(1, len(lines) // 2)
    while chunk >= 1 and tries > 0:
        i = 0
        while i < len(lines) and tries > 0:
            trial = lines[:i] + lines[i + chunk:]
            tries -= 1
            if trial and same("\n".join(trial)):
                lines = trial
            else:
                i += chunk
        chunk //= 2
    return "\n".join(lines)
