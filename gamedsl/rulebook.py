"""`gamedsl rules`: a checked game written out as a Markdown rulebook.

General, from the syntax tree: components, tables (as Markdown tables), where things
lie, setup, the turn or the phases with every choice, formulas and procedures, the
end and scoring, tie-breaks and options with their defaults. Rules are said in plain
words; expressions are quoted exactly as the designer wrote them (sliced from the
source by their spans), and the designer's own comments above a declaration or a
statement become its prose — so the rulebook reads like the file, only easier.
"""

from __future__ import annotations

from typing import Dict, Iterable, List

from gamedsl.syntax import ast as A
from gamedsl.pipeline import load, parse_with_extends

INDENT = "    "  # Python-Markdown nests lists by four spaces


class _Source:
    """The text behind spans, and the comments around them."""

    def __init__(self, sources: Dict[str, str]):
        self.lines = {name: text.splitlines() for name, text in sources.items()}

    def text(self, node) -> str:
        span = node.span
        lines = self.lines.get(span.file)
        if not lines or span.line < 1:
            return "?"
        if span.line == span.end_line:
            return lines[span.line - 1][span.col - 1:span.end_col - 1].strip()
        parts = [lines[span.line - 1][span.col - 1:]] + lines[span.line:span.end_line - 1]
        parts.append(lines[span.end_line - 1][:span.end_col - 1] if span.end_line <= len(lines) else "")
        return " ".join(p.strip() for p in parts if p.strip())

    def comment_above(self, node) -> str:
        """The whole-line comments right above a node (blank lines stop them)."""
        lines = self.lines.get(node.span.file) or []
        out: List[str] = []
        i = node.span.line - 2
        while 0 <= i < len(lines) and lines[i].strip().startswith("#"):
            out.insert(0, lines[i].strip().lstrip("#").strip())
            i -= 1
        return _paragraphs(out)

    def comment_after(self, node) -> str:
        """A comment at the end of the node's (first) line."""
        lines = self.lines.get(node.span.file) or []
        if not 0 < node.span.line <= len(lines):
            return ""
        line = lines[node.span.line - 1]
        code = _code_part(line)
        return line[len(code):].lstrip("#").strip()

    def header(self, first) -> str:
        """The comment block that opens a file, before its first declaration."""
        lines = self.lines.get(first.span.file) or []
        out = []
        for line in lines[:max(first.span.line - 1, 0)]:
            if line.strip().startswith("#") or not line.strip():
                out.append(line.strip().lstrip("#").strip())
            else:
                break
        return _paragraphs(out)


def _code_part(line: str) -> str:
    """A line without its trailing comment (a '#' inside a text does not start one)."""
    quoted = False
    for i, ch in enumerate(line):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return line[:i]
    return line


def _paragraphs(lines: List[str]) -> str:
    text, blank = [], False
    for line in lines:
        if not line:
            blank = bool(text)
            continue
        text.append(("\n\n" if blank else " ") + line if text else line)
        blank = False
    return "".join(text).strip()


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def _code(text: str) -> str:
    tick = "``" if "`" in text else "`"
    return f"{tick}{text}{tick}"


def _cell(cell: A.Cell) -> str:
    kind, value = cell.kind, cell.value
    if kind == "at_least":
        return f"{_num(value)} or more"
    if kind == "range":
        return f"{_num(value[0])} to {_num(value[1])}"
    if kind == "bool":
        return "yes" if value else "no"
    if kind == "empty":
        return "–"
    if kind == "number":
        return _num(value)
    return str(value).replace("|", "\\|")


def _num(value) -> str:
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def _type(t) -> str:
    if isinstance(t, A.TypeOptional):
        return f"{_type(t.inner)} or none"
    if isinstance(t, A.TypeList):
        return f"list of {_type(t.item)}"
    return t.name


class Rulebook:
    def __init__(self, game: A.GameFile, sources: Dict[str, str]):
        self.game = game
        self.src = _Source(sources)
        self.decls = list(game.decls)
        self.procedures = {d.name for d in self.decls if isinstance(d, A.ProcDecl)}
        # the game's `display`: labels players read, and bookkeeping (not described as game state)
        shown = self.one(A.DisplayDecl)
        self.hidden = {e.name for e in shown.hidden} if shown else set()
        self.labels = {e.name: e.label for e in (shown.table + shown.mat) if e.label} if shown else {}
        self.revealed = {e.name for e in shown.reveal} if shown else set()

    def named(self, name: str) -> str:
        """A declared name in bold, with the label the players read when it differs."""
        label = self.labels.get(name)
        return f"**{name}**" + (f" (“{label}” on the table)" if label and label != name else "")

    def of(self, cls) -> list:
        return [d for d in self.decls if isinstance(d, cls)]

    def one(self, cls):
        found = self.of(cls)
        return found[-1] if found else None

    # ------------------------------------------------------------ the page
    def render(self) -> str:
        out: List[str] = []
        title = self.one(A.GameDecl)
        out.append(f"# {title.title if title else 'Untitled game'}\n")
        if self.decls:
            intro = self.src.header(self.decls[0])
            if intro:
                out.append(intro + "\n")
        players = self.one(A.PlayersDecl)
        if players:
            count = str(players.low) if players.low == players.high else f"{players.low} to {players.high}"
            out.append(f"**Players:** {count}.\n")
        for section in (self.options, self.words, self.tables, self.components, self.zones, self.variables,
                        self.setup, self.play, self.formulas, self.procedures_section, self.ending):
            text = section()
            if text:
                out.append(text)
        return "\n".join(out).rstrip() + "\n"

    def _lead(self, node) -> str:
        above = self.src.comment_above(node)
        after = self.src.comment_after(node)
        text = " ".join(_sentence(t) for t in (above, after) if t)
        return text.replace("|", "\\|")

    # ------------------------------------------------------------ declarations
    def options(self) -> str:
        decls = self.of(A.OptionDecl)
        if not decls:
            return ""
        rows = ["## Options\n", "Set before the game (`gamedsl play --option NAME=VALUE`).\n",
                "| option | choices | default | notes |", "|---|---|---|---|"]
        for d in decls:
            choices = ", ".join(a.word if isinstance(a, A.OptionWord) else f"{a.low} to {a.high}"
                                for a in d.alternatives)
            rows.append(f"| `{d.name}` | {choices} | `{self.src.text(d.default)}` | {self._lead(d)} |")
        return "\n".join(rows) + "\n"

    def words(self) -> str:
        decls = self.of(A.EnumDecl)
        if not decls:
            return ""
        out = ["## Words\n"]
        for d in decls:
            lead = self._lead(d)
            out.append(f"- **{d.name}**: " + ", ".join(f"`{v.name}`" for v in d.values) + (f" — {lead}" if lead else ""))
        return "\n".join(out) + "\n"

    def tables(self) -> str:
        decls = self.of(A.TableDecl)
        if not decls:
            return ""
        out = ["## Tables\n"]
        for d in decls:
            out.append(f"### {d.name}\n")
            lead = self._lead(d)
            if lead:
                out.append(lead + "\n")
            if d.key:
                out.append(f"Looked up by `{d.key}`: `{d.name}[x].column` is the row whose `{d.key}` is x.\n")
            if d.source:
                out.append(f"Read from `{d.source}`.\n")
            if d.columns:
                out.append("| " + " | ".join(c.name for c in d.columns) + " |")
                out.append("|" + "---|" * len(d.columns))
                for row in d.rows:
                    out.append("| " + " | ".join(_cell(c) for c in row) + " |")
                out.append("")
        return "\n".join(out) + "\n"

    def components(self) -> str:
        decls = self.of(A.KindDecl)
        if not decls:
            return ""
        out = ["## Components\n"]
        for d in decls:
            out.append(f"### {d.name}\n")
            lead = self._lead(d)
            if lead:
                out.append(lead + "\n")
            facts = []
            copies = self.src.text(d.copies) if d.copies is not None else None
            if d.each:
                lists = " and ".join(f"`{e.name}` in {_code(self.src.text(e.source))}" for e in d.each)
                how = f"{_code(copies)} of " if copies else "one of "
                rows = f" and each row of the table **{d.source_table}**" if d.source_table else ""
                facts.append(f"{how}each combination of {lists}{rows}, each its attribute")
            elif d.source_table:
                how = f"{_code(copies)} of " if copies else "one of "
                facts.append(f"{how}each row of the table **{d.source_table}**, whose columns are its attributes")
            elif copies:
                facts.append(f"{_code(copies)} in all")
            else:
                facts.append("one")
            if d.per_player:
                facts[-1] = facts[-1].replace(" in all", "") + " for each player (each belongs to its `owner`)"
            for a in d.attrs:
                facts.append(f"`{a.name}` is {_code(self.src.text(a.value))}")
            for s in d.states:
                if s.name in self.hidden:
                    facts.append(f"the rules note `{s.name}` on each ({_type(s.type)}): bookkeeping, not shown")
                else:
                    facts.append(f"each carries `{s.name}` ({_type(s.type)}), at first {_code(self.src.text(s.init))}")
            if d.show is not None:
                facts.append(f"written as {_code(self.src.text(d.show))}")
            out.extend(f"- {f}" for f in facts)
            out.append("")
        return "\n".join(out) + "\n"

    def zones(self) -> str:
        decls = self.of(A.ZoneDecl)
        if not decls:
            return ""
        out = ["## Where things lie\n"]
        for d in decls:
            whose = "Each player's" if d.per_player else "The"
            kinds = " and ".join(k.name for k in d.kinds)
            flags = [self._zone_flag(f, d.per_player) for f in d.flags]
            if not any(f.word in ("hidden", "owner", "others", "public") for f in d.flags):
                flags.insert(0, "open to everyone")
            if d.name in self.hidden:
                flags.append("not shown to the players")
            if d.name in self.revealed:
                flags.append("laid open for everyone when the game is over")
            if d.family is not None:
                family = d.family
                each = (f"each word of {family.enum.name}" if family.enum is not None else
                        f"each number from {self.src.text(family.low)} to {self.src.text(family.high)}")
                flags.insert(0, f"one for {each}, named {d.name}[...]")
            lead = self._lead(d)
            out.append(f"- {whose} {self.named(d.name)} (of {kinds}): " + "; ".join(flags) + "." + (f" {lead}" if lead else ""))
        return "\n".join(out) + "\n"

    @staticmethod
    def _zone_flag(flag: A.ZoneFlag, per_player: bool) -> str:
        if flag.word == "public":
            return "open to everyone"
        if flag.word == "hidden":
            return "face down: nobody sees its contents, only how many"
        if flag.word == "owner":
            return "seen by its player only; the others see how many" if per_player else "seen by its owner"
        if flag.word == "others":
            return "held facing away: every other player sees it, its player only how many"
        if flag.word == "sorted":
            return f"kept sorted by `{flag.arg}`"
        if flag.word == "refill":
            return f"when it runs out, **{flag.arg}** is shuffled into it"
        if flag.word == "grid":
            return f"a board of {flag.arg[0]} × {flag.arg[1]} cells" if flag.arg else "a board without edges"
        if flag.word == "capacity":
            return f"holds at most {flag.arg}"
        return flag.word

    def variables(self) -> str:
        decls = self.of(A.VarDecl)
        if not decls:
            return ""
        out = ["## What is kept track of\n"]
        notes = [d for d in decls if d.name in self.hidden]
        for d in decls:
            if d.name in self.hidden:
                continue
            whose = "each player's" if d.per_player else "the game's"
            secret = " (secret: only its player sees it)" if any(f.name == "secret" for f in d.flags) else ""
            lead = self._lead(d)
            label = self.labels.get(d.name)
            shown = f" (“{label}” on the table)" if label and label != d.name else ""
            out.append(f"- `{d.name}`{shown} — {whose} {_type(d.type)}, at first {_code(self.src.text(d.init))}{secret}."
                       + (f" {lead}" if lead else ""))
        if notes:
            out.append("")
            out.append("The rules also keep notes of their own, not part of the table and never shown: "
                       + ", ".join(f"`{d.name}`" for d in notes) + ".")
        return "\n".join(out) + "\n"

    # ------------------------------------------------------------ the flow
    def setup(self) -> str:
        d = self.one(A.SetupDecl)
        if d is None:
            return ""
        return "\n".join(["## Setup\n", *self.block(d.body, 0), ""]) + "\n"

    def _leaving(self) -> bool:
        """Whether the rules say `leave round` (then a round lasts until everyone has left)."""
        return any(isinstance(s, A.LeaveRound) for s in A.walk(tuple(self.decls)))

    def play(self) -> str:
        phases = self.of(A.PhaseDecl)
        turn = self.one(A.TurnDecl)
        out: List[str] = []
        if phases:
            out.append("## Phases\n")
            order = " → ".join(f"**{p.name}**" for p in phases)
            ends = ("a round ends once every player has left it (or a rule ends it)" if self._leaving()
                    else "a round ends when the turn comes back to the start player")
            out.append(f"The game is played in phases, starting with the first: {order}. "
                       f"Players take turns clockwise from the start player; {ends}.\n")
            for p in phases:
                out.append(f"### Phase: {p.name}\n")
                lead = self._lead(p)
                if lead:
                    out.append(lead + "\n")
                if p.begin:
                    out.append("When the phase begins:\n")
                    out.extend(self.block(p.begin, 0))
                    out.append("")
                if p.turn:
                    out.append("On a turn:\n")
                    out.extend(self.block(p.turn, 0))
                    out.append("")
                if p.end_when is not None:
                    out.append(f"The phase ends after a turn when {_code(self.src.text(p.end_when))}.")
                else:
                    out.append("The phase ends when its rules are done." if not p.turn
                               else "The phase ends only when a rule ends the game.")
                out.append(f"Then comes phase **{p.then.name}**.\n" if p.then else "Then the game ends.\n")
        elif turn is not None:
            out.append("## A turn\n")
            ends = ("a round ends once every player has left it (or a rule ends it)" if self._leaving()
                    else "a round ends when the turn comes back to the start player")
            out.append("Players take turns clockwise from the start player (the first player at first); "
                       f"{ends}. On your turn:\n")
            out.extend(self.block(turn.body, 0))
            out.append("")
        return "\n".join(out) + "\n" if out else ""

    def formulas(self) -> str:
        decls = self.of(A.DefDecl)
        if not decls:
            return ""
        out = ["## Formulas\n"]
        for d in decls:
            params = ", ".join(p.name for p in d.params)
            lead = self._lead(d)
            out.append(f"- **{d.name}**({params}) = {_code(self.src.text(d.body))}" + (f" — {lead}" if lead else ""))
        return "\n".join(out) + "\n"

    def procedures_section(self) -> str:
        decls = self.of(A.ProcDecl)
        if not decls:
            return ""
        out = ["## Procedures\n"]
        for d in decls:
            params = ", ".join(p.name for p in d.params)
            out.append(f"### {d.name}({params})\n")
            lead = self._lead(d)
            if lead:
                out.append(lead + "\n")
            out.extend(self.block(d.body, 0))
            out.append("")
        return "\n".join(out) + "\n"

    def ending(self) -> str:
        score, tiebreak = self.one(A.ScoreDecl), self.one(A.TiebreakDecl)
        results, publics = self.of(A.ResultDecl), self.of(A.PublicDecl)
        endings = self.endings()
        out = ["## End and scoring\n"]
        if endings:
            out.append("The game ends:\n")
            out.extend(f"- {_sentence(e)}" for e in endings)
            out.append("")
        names_winner = any("wins" in e for e in endings)
        cooperative, team = self.one(A.CooperativeDecl), self.one(A.TeamDecl)
        if cooperative:
            out.append("The players play together: everyone wins or loses together.")
        if team:
            out.append(f"Players play in teams: player `{team.var}`'s team is {_code(self.src.text(team.expr))}; "
                       "players of the same team win or lose together, and a team's score is "
                       "the sum of its players' scores.")
        if score and score.var is None:
            out.append(f"The players' shared score is {_code(self.src.text(score.expr))}.\n")
            score = None
            names_winner = True
        elif score:
            out.append(f"A player's score is {_code(self.src.text(score.expr))} (for player `{score.var}`)."
                       + (f" {self._lead(score)}" if self._lead(score) else ""))
        elif not cooperative:
            out.append("There is no score.")
        if tiebreak:
            keys = ", then ".join(f"{k.direction} {_code(self.src.text(k.expr))}" for k in tiebreak.keys)
            out.append(f"Ties are broken by: {keys}.")
        if score:
            best = "lowest" if score.lowest else "highest"
            out.append((f"The team with the {best} score wins; teams still equal share the win." if team
                        else f"The {best} score wins; players still equal share the win.")
                       + (" A player named the winner by a rule wins whatever the scores." if names_winner else "")
                       + "\n")
        elif not cooperative:
            out.append("A game that ends without naming a winner is a draw.\n")
        elif not names_winner:
            out.append("\n")
        if publics:
            out.append("Everyone can see, for each player `p`:\n")
            out.extend(f"- **{d.name}**: {_code(self.src.text(d.expr))}" for d in publics)
            out.append("")
        if results:
            out.append("Reported at the end for each player `p`:\n")
            out.extend(f"- **{d.name}**: {_code(self.src.text(d.expr))}" for d in results)
            out.append("")
        return "\n".join(out) + "\n"

    def endings(self) -> List[str]:
        """Every way the game can end, with the conditions around each `end game`."""
        out: List[str] = []
        places = [("in setup", d.body) for d in self.of(A.SetupDecl)]
        places += [("on a turn", d.body) for d in self.of(A.TurnDecl)]
        for p in self.of(A.PhaseDecl):
            places += [(f"when phase **{p.name}** begins", p.begin), (f"on a turn of phase **{p.name}**", p.turn)]
        places += [(f"in **{d.name}**", d.body) for d in self.of(A.ProcDecl)]
        for where, body in places:
            self._find_endings(body, [where], out)
        for p in self.of(A.PhaseDecl):
            if p.then is None:
                when = f" (after a turn when {_code(self.src.text(p.end_when))})" if p.end_when is not None else ""
                out.append(f"when phase **{p.name}** ends{when}.")
        return out

    def _find_endings(self, body, context: List[str], out: List[str]) -> None:
        c = lambda e: _code(self.src.text(e))  # noqa: E731
        for s in body:
            if isinstance(s, A.EndGame):
                what = (f"and {c(s.winner)} wins" if s.winner is not None
                        else "when that round is over" if s.after_round else "at once")
                if s.outcome is not None:
                    what += f": everyone has {s.outcome}"
                out.append(", ".join(context) + f": the game ends {what}.")
            elif isinstance(s, A.If):
                for i, branch in enumerate(s.branches):
                    word = "if" if i == 0 else "otherwise if"
                    self._find_endings(branch.body, context + [f"{word} {c(branch.cond)}"], out)
                self._find_endings(s.orelse, context + ["otherwise"], out)
            elif isinstance(s, A.For):
                self._find_endings(s.body, context + [f"for a `{s.var}` in {c(s.iterable)}"], out)
            elif isinstance(s, (A.While, A.Repeat)):
                self._find_endings(s.body, context + ["in a loop"], out)
            elif isinstance(s, (A.Choose, A.SecretChoose)):
                for alt in s.alternatives:
                    self._find_endings(alt.body, context + [f"after *{alt.template or alt.name}*"], out)
                for t in s.timeouts:
                    self._find_endings(t.body, context + ["when time runs out"], out)

    # ------------------------------------------------------------ statements
    def block(self, body: Iterable, depth: int) -> List[str]:
        lines: List[str] = []
        for stmt in body:
            lines.extend(self.stmt(stmt, depth))
        return lines

    def _item(self, text: str, depth: int, node=None) -> str:
        note = ""
        if node is not None:
            above = self.src.comment_above(node)
            after = self.src.comment_after(node)
            notes = [t for t in (above, after) if t]
            note = f" *({'; '.join(notes)})*" if notes else ""
        return f"{INDENT * depth}- {text}{note}"

    def stmt(self, s, depth: int) -> List[str]:
        c = lambda e: _code(self.src.text(e))  # noqa: E731 — a quote of the designer's expression
        if isinstance(s, A.If):
            out = []
            for i, branch in enumerate(s.branches):
                word = "If" if i == 0 else "Otherwise, if"
                out.append(self._item(f"{word} {c(branch.cond)}:", depth, branch if i else s))
                out.extend(self.block(branch.body, depth + 1))
            if s.orelse:
                out.append(self._item("Otherwise:", depth))
                out.extend(self.block(s.orelse, depth + 1))
            return out
        if isinstance(s, A.For):
            return [self._item(f"For each `{s.var}` in {c(s.iterable)}:", depth, s), *self.block(s.body, depth + 1)]
        if isinstance(s, A.While):
            return [self._item(f"While {c(s.cond)}:", depth, s), *self.block(s.body, depth + 1)]
        if isinstance(s, A.Repeat):
            head = f"Repeat {c(s.count)} times:" if s.count is not None else "Repeat (until a rule stops it):"
            return [self._item(head, depth, s), *self.block(s.body, depth + 1)]
        if isinstance(s, A.Choose):
            clock = f" within {c(s.timer)} seconds" if s.timer is not None else ""
            out = [self._item(f"**{c(s.player)} chooses one{clock}:**", depth, s)]
            for alt in s.alternatives:
                out.extend(self.alternative(alt, depth + 1))
            for t in s.timeouts:
                out += [self._item("*If time runs out:*", depth + 1, t), *self.block(t.body, depth + 2)]
            return out
        if isinstance(s, A.SecretChoose):
            out = [self._item(f"**Every `{s.var}` in {c(s.players)} chooses secretly** "
                              "(nobody sees the others' choices until all have chosen; then each is carried out "
                              "in that order):", depth, s)]
            for alt in s.alternatives:
                out.extend(self.alternative(alt, depth + 1))
            return out
        return [self._item(self.simple(s, c), depth, s)]

    def alternative(self, alt: A.Alternative, depth: int) -> List[str]:
        c = lambda e: _code(self.src.text(e))  # noqa: E731
        name = f"*{alt.template}*" if alt.template else f"*{alt.name}*"
        details = [f"`{p.name}` from {c(p.domain)}" + (", or nobody when that is empty" if p.nobody else "")
                   if p.domain is not None
                   else f"`{p.name}` typed by the player ({c(p.type)})" for p in alt.params]
        if alt.guard is not None:
            details.append(f"only if {c(alt.guard)}")
        if alt.refusal is not None:
            details.append(f"else refused because {c(alt.refusal)}")
        if alt.suggest is not None:
            details.append(f"bots consider {c(alt.suggest)}")
        head = name + (f" ({'; '.join(details)})" if details else "") + ":"
        return [self._item(head, depth, alt), *self.block(alt.body, depth + 1)]

    def simple(self, s, c) -> str:
        if isinstance(s, A.Let):
            return f"Let `{s.name}` be {c(s.value)}."
        if isinstance(s, A.Assign):
            target, value = c(s.target), c(s.value)
            return {"=": f"Set {target} to {value}.", "+=": f"Add {value} to {target}.",
                    "-=": f"Take {value} from {target}.", "*=": f"Multiply {target} by {value}."}[s.op]
        if isinstance(s, A.CallStmt):
            if s.call.name in self.procedures:
                args = ", ".join(self.src.text(a) for a in s.call.args)
                return f"Carry out **{s.call.name}**({args}) (see Procedures)."
            return f"Do {c(s.call)}."
        if isinstance(s, A.Move):
            if s.place == "top":
                return f"Move {c(s.what)} to the top of {c(s.dest)}."
            if s.place == "cell" and s.end is not None:
                return f"Move {c(s.what)} into {c(s.dest)}, {c(s.cell)} from the {s.end}."
            if s.place == "cell":
                return f"Place {c(s.what)} on {c(s.dest)} at {c(s.cell)}."
            return f"Move {c(s.what)} to {c(s.dest)}."
        if isinstance(s, A.Draw):
            return f"Draw {c(s.count)} from {c(s.source)} to {c(s.dest)}."
        if isinstance(s, A.Shuffle):
            return f"Shuffle {c(s.zone)}."
        if isinstance(s, A.NextTurn):
            return f"{c(s.player)} takes the next turn."
        if isinstance(s, A.LeaveRound):
            who = "The current player" if s.player is None else c(s.player)
            return f"{who} leaves the round: skipped by the turn order until the round ends."
        if isinstance(s, A.EndRound):
            return "The round ends with this turn: everyone is back in, and the start player plays next."
        if isinstance(s, A.EndGame):
            if s.outcome is not None:
                return f"**The game ends: everyone has {s.outcome}.**"
            if s.winner is not None:
                return f"**The game ends: {c(s.winner)} wins.**"
            return "**The game ends when this round is over.**" if s.after_round else "**The game ends.**"
        if isinstance(s, A.Say):
            if s.to is not None:
                return f"Tell {c(s.to)} only: {c(s.message)}."
            return f"Announce {c(s.message)}."
        if isinstance(s, A.Show):
            return f"Let {c(s.to)} look at {c(s.what)} (and remember it while it stays there)."
        if isinstance(s, A.Break):
            return "Stop repeating."
        if isinstance(s, A.Return):
            return "Stop here."
        if isinstance(s, A.Pass):
            return "Nothing happens."
        return c(s)


def render_rulebook(game: A.GameFile, sources: Dict[str, str]) -> str:
    return Rulebook(game, sources).render()


def rulebook_of(path: str) -> str:
    """The Markdown rulebook of a game file. Raises GameError if the file does not check."""
    load(path)  # every error reported, as `gamedsl check` would
    loaded = parse_with_extends(path)
    return render_rulebook(loaded.game, loaded.sources)
