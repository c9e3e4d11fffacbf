// The web table's page: draws whatever view the server sends, for any .game file.
// Plain JS, no build step, nothing from elsewhere. Every text from the game is put in the
// page with textContent (never as HTML), so a card named "<b>" is a card named "<b>".
"use strict";

const token = decodeURIComponent(location.pathname.split("/").pop());
let info = null;      // the game's shape (hello)
let last = null;      // the last state or pass message
let socket = null;
let clockTimer = null;

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else if (k === "onclick") node.addEventListener("click", v);
    else node[k] = v;
  }
  for (const c of children) {
    if (c === null || c === undefined) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// ------------------------------------------------------------------ values as people read them

function label(seat) { return "P" + (seat + 1); }

function num(v) {
  if (typeof v === "number" && !Number.isInteger(v)) return String(Math.round(v * 1000) / 1000);
  return String(v);
}

function write(v, kind, shows) {
  if (v === null || v === undefined) return "none";
  if (Array.isArray(v)) {
    if (kind === "cell" && v.length === 2 && !Array.isArray(v[0])) return v[0] + "," + v[1];
    return v.length ? v.map((x) => write(x, kind, shows)).join(" ") : "-";
  }
  if (typeof v === "boolean") return v ? "true" : "false";
  if (kind === "player" && Number.isInteger(v)) return label(v);
  if (kind === "component" && Number.isInteger(v)) return shows[String(v)] ?? "?";
  return num(v);
}

function varKind(name) {
  const v = (info.vars || []).find((x) => x.name === name);
  return v ? v.kind : "value";
}

// ------------------------------------------------------------------ zones

function card(view, cid) {
  const shows = view.shows || {};
  const node = el("div", {class: "card", "data-cid": String(cid)}, el("span", {class: "face"}, shows[String(cid)] ?? "?"));
  if ((view.moved || []).includes(cid)) node.classList.add("moved");
  for (const [state, values] of Object.entries(view.cstate || {})) {
    if (String(cid) in values) {
      node.append(el("span", {class: "cstate"}, state + ": " + write(values[String(cid)], (info.states || {})[state] || "value", shows)));
    }
  }
  return node;
}

function zoneNode(view, zone, value, faces) {
  if (value && !Array.isArray(value) && typeof value === "object" && Object.keys(value).length === 1 && "count" in value) {
    const n = value.count;
    const row = el("div", {class: "cards hidden-cards"});
    if (!n) row.append(el("span", {class: "empty"}, "(empty)"));
    for (let i = 0; i < Math.min(n, 12); i++) row.append(el("div", {class: "card back"}));
    if (n) row.append(el("span", {class: "count"}, n + " hidden"));
    return row;
  }
  if (Array.isArray(value)) {
    const row = el("div", {class: "cards"});
    if (!value.length) row.append(el("span", {class: "empty"}, "(empty)"));
    for (const cid of value) row.append(card(view, cid));
    return row;
  }
  if (value && typeof value === "object") return board(view, zone, value, faces || {});
  return el("span", {}, num(value));
}

function board(view, zone, cells, faces) {
  const coords = Object.keys(cells).map((k) => k.split(",").map(Number)).filter((c) => c.length === 2 && !c.some(isNaN));
  let xs = [], ys = [];
  if (zone && zone.size) {
    xs = [...Array(zone.size[0]).keys()];
    ys = [...Array(zone.size[1]).keys()];
  } else if (coords.length) {
    const range = (a, b) => Array.from({length: b - a + 1}, (_, i) => a + i);
    xs = range(Math.min(...coords.map((c) => c[0])), Math.max(...coords.map((c) => c[0])));
    ys = range(Math.min(...coords.map((c) => c[1])), Math.max(...coords.map((c) => c[1])));
  }
  if (!xs.length) return el("span", {class: "empty"}, "(empty board)");
  const shows = view.shows || {};
  const moved = new Set(view.moved || []);
  const table = el("table", {class: "board", "data-zone": zone ? zone.name : ""});
  const head = el("tr", {}, el("th", {}));
  for (const x of xs) head.append(el("th", {}, x));
  table.append(head);
  for (const y of ys) {
    const row = el("tr", {}, el("th", {}, y));
    for (const x of xs) {
      const key = x + "," + y;
      const cid = cells[key];
      const cell = el("td", {"data-cell": key});
      if (cid !== undefined && cid !== null) {
        cell.textContent = key in faces ? String(faces[key]) : (shows[String(cid)] ?? "?");
        cell.classList.add("piece");
        if (moved.has(cid)) cell.classList.add("moved");
      }
      row.append(cell);
    }
    table.append(row);
  }
  return table;
}

function zoneBlock(view, zone, title, value, faces) {
  return el("div", {class: "zone", "data-zone": zone.name}, el("h3", {}, title), zoneNode(view, zone, value, faces));
}

// ------------------------------------------------------------------ the whole view

function drawBoard(msg) {
  const view = msg.view;
  const shows = view.shows || {};
  const root = $("board");
  root.replaceChildren();
  // the game's declared header (or its counter: "hand 3"), else the engine's round
  let head = view.header || ("Round " + view.round + (view.phase ? " — phase " + view.phase : ""));
  root.append(el("div", {class: "roundline"}, head));
  const vars = Object.entries(view.vars || {});
  if (vars.length) {
    const list = el("div", {class: "vars"});
    for (const [k, v] of vars) list.append(el("span", {class: "var"}, el("b", {}, k), " " + write(v, varKind(k), shows)));
    root.append(list);
  }
  const zones = Object.fromEntries(info.zones.map((z) => [z.name, z]));
  // the players: their values, public facts and own zones
  const columns = Object.assign({}, view.pvars || {}, view.public || {});
  const players = el("div", {class: "players"});
  for (let s = 0; s < view.players; s++) {
    const kind = info.seats[s].kind;
    const panel = el("div", {class: "player", "data-seat": String(s)});
    if (s === view.seat) panel.classList.add("you");
    if ((msg.waiting_for || []).includes(s)) panel.classList.add("waiting");
    const out = (view.out || []).includes(s) && !view.over;
    if (out) panel.classList.add("out");
    panel.append(el("h2", {}, label(s) + (s === view.seat ? " (you)" : kind !== "human" ? " (" + kind + ")" : "")
                                + (out ? " — out of the round" : "")));
    const facts = el("dl", {});
    for (const [name, values] of Object.entries(columns)) {
      facts.append(el("dt", {}, name), el("dd", {}, write(values[s], varKind(name), shows)));
    }
    if (facts.childNodes.length) panel.append(facts);
    for (const [name, value] of Object.entries(view.zones)) {
      const zone = zones[name];
      if (zone && zone.per_player) panel.append(zoneBlock(view, zone, name, value[s], null));
    }
    players.append(panel);
  }
  root.append(players);
  const shared = el("div", {class: "shared"});
  for (const [name, value] of Object.entries(view.zones)) {
    const zone = zones[name] || {name: name};
    if (!zone.per_player) shared.append(zoneBlock(view, zone, name, value, (view.faces || {})[name]));
  }
  root.append(shared);
}

// ------------------------------------------------------------------ moves

function firstDifference(texts) {
  const split = texts.map((t) => t.split(/\s+/));
  for (let i = 0; ; i++) {
    const words = new Set(split.map((w) => w[i]));
    if (words.size > 1 || words.has(undefined)) return i;
  }
}

function moveButton(m, i) {
  return el("button", {class: "move", "data-alt": m.alt, "data-choice": String(i), type: "button",
                        onclick: () => send({type: "move", version: last.version, choice: i})}, m.text);
}

function drawTurn(msg) {
  const root = $("turn");
  root.replaceChildren();
  if (msg.over) return;
  if (!msg.your_turn) {
    const who = (msg.waiting_for || []).map(label).join(", ");
    root.append(el("p", {class: "waiting"}, who ? "Waiting for " + who + "…" : "…"));
    if (msg.view.submitted !== null && msg.view.submitted !== undefined) root.append(el("p", {}, "You have chosen."));
    return;
  }
  root.append(el("h2", {}, "Your move, " + label(msg.seat)));
  // grouped as in the terminal: by alternative, then (when many) by the first parameter
  const groups = new Map();
  msg.moves.forEach((m, i) => {
    if (!groups.has(m.alt)) groups.set(m.alt, []);
    groups.get(m.alt).push([m, i]);
  });
  for (const [alt, items] of groups) {
    const box = el("div", {class: "alt", "data-alt": alt}, el("h3", {}, alt));
    if (items.length <= 12) {
      for (const [m, i] of items) box.append(moveButton(m, i));
    } else {
      const at = firstDifference(items.map(([m]) => m.text));
      // the first parameter runs from the first word that differs to the next word every
      // move of the alternative has (its template's next literal: "work Ada Lovelace on ...")
      const sets = items.map(([m]) => new Set(m.text.split(/\s+/)));
      const common = new Set([...sets[0]].filter((w) => sets.every((set) => set.has(w))));
      const sub = new Map();
      for (const item of items) {
        const words = item[0].text.split(/\s+/);
        let end = at + 1;
        for (let j = at + 1; j < words.length; j++) {
          if (common.has(words[j])) { end = j; break; }
        }
        const key = words.slice(0, end).join(" ");
        if (!sub.has(key)) sub.set(key, []);
        sub.get(key).push(item);
      }
      for (const [key, some] of sub) {
        const d = el("details", {class: "param"}, el("summary", {}, key + " … (" + some.length + ")"));
        for (const [m, i] of some) d.append(moveButton(m, i));
        box.append(d);
      }
    }
    root.append(box);
  }
  const form = el("form", {id: "typed", autocomplete: "off"});
  const input = el("input", {id: "typed-text", name: "move", maxLength: 200,
                             placeholder: msg.typed.length ? msg.typed[0] : "or type a move"});
  input.setAttribute("list", "typed-hints");
  const hints = el("datalist", {id: "typed-hints"});
  for (const h of msg.typed) hints.append(el("option", {value: h}));
  form.append(el("label", {for: "typed-text"}, msg.typed.length ? "Type:" : "or type:"), input, hints,
              el("button", {type: "submit"}, "Play"));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (input.value.trim()) send({type: "typed", version: last.version, text: input.value});
  });
  root.append(form);
  if (msg.hints && msg.suggested === null) {
    root.append(el("button", {id: "ask-hint", type: "button",
                              onclick: () => send({type: "hint", version: last.version})},
                   "Hint: the moves the rules suggest"));
  } else if (msg.suggested !== null && msg.suggested !== undefined) {
    const box = el("div", {class: "alt", id: "suggested"}, el("h3", {}, "suggested"));
    if (!msg.suggested.length) box.append(el("p", {class: "help"}, "the rules suggest nothing more"));
    msg.suggested.forEach((text, i) => box.append(
      el("button", {class: "move", type: "button", "data-choice": String(i),
                    onclick: () => send({type: "suggested", version: last.version, choice: i})}, text)));
    root.append(box);
  }
  for (const h of msg.typed) root.append(el("p", {class: "hint"}, "type: " + h));
  for (const h of msg.help) for (const line of h.split("\n")) root.append(el("p", {class: "help"}, line));
}

// ------------------------------------------------------------------ the clock, the log, the end

function drawClock(msg) {
  const box = $("clock");
  clearInterval(clockTimer);
  if (msg.type !== "state" || msg.seconds_left === null || msg.seconds_left === undefined || !msg.your_turn) {
    box.hidden = true;
    return;
  }
  const end = performance.now() + msg.seconds_left * 1000;
  const tick = () => {
    const left = Math.max(0, Math.ceil((end - performance.now()) / 1000));
    box.hidden = false;
    box.textContent = left + (left === 1 ? " second" : " seconds") + " left";
    box.classList.toggle("urgent", left <= 10);
    if (left <= 0) { box.textContent = "time is up"; clearInterval(clockTimer); }
  };
  tick();
  clockTimer = setInterval(tick, 250);
}

function drawLog(msg) {
  const list = $("log");
  list.replaceChildren();
  for (const e of msg.log || []) {
    const item = el("li", {}, el("b", {}, label(e.seat) + ": "), e.text);
    for (const s of e.said || []) item.append(el("div", {class: "said"}, "» " + s));
    list.append(item);
  }
  list.scrollTop = list.scrollHeight;
}

function drawResult(msg, box) {
  box = box || $("result");
  box.replaceChildren();
  if (msg.error) {
    box.hidden = false;
    box.append(el("h2", {}, "The game stopped"), el("p", {}, msg.error));
  }
  const r = msg.result;
  if (!r) { box.hidden = !msg.error; return; }
  box.hidden = false;
  const status = r.finished ? "Game over after " + r.turns + " turns" : "Stopped unfinished after " + r.turns + " turns";
  box.append(el("h2", {id: "game-over"}, status));
  if (r.cooperative) {
    // one shared result: everyone won or lost together
    const verdict = {won: "Everyone won together", lost: "Everyone lost together"}[r.outcome] || "Cooperative game";
    box.append(el("p", {id: "winners"}, verdict + " · shared score " + num(r.shared_score)));
  } else if (r.teams) {
    const teamName = (side) => "Team " + side.map(label).join(" + ");
    const teamOrder = [...r.teams.keys()].sort((a, b) => r.team_ranks[a] - r.team_ranks[b] || a - b);
    const teams = el("ol", {class: "ranks"});
    for (const i of teamOrder) {
      let line = r.team_ranks[i] + ". " + teamName(r.teams[i]) + "  score " + num(r.team_scores[i]);
      if (r.finished && r.winners.includes(r.teams[i][0])) line += "  — winners";
      teams.append(el("li", {"data-team": String(i)}, line));
    }
    box.append(teams);
    const won = teamOrder.filter((i) => r.winners.includes(r.teams[i][0])).map((i) => teamName(r.teams[i]));
    if (r.finished) box.append(el("p", {id: "winners"}, "Winners: " + (won.join(", ") || "none")));
  } else {
    const order = [...r.ranks.keys()].sort((a, b) => r.ranks[a] - r.ranks[b] || a - b);
    const list = el("ol", {class: "ranks"});
    for (const s of order) {
      let line = r.ranks[s] + ". " + label(s) + "  score " + num(r.scores[s]);
      for (const [name, values] of Object.entries(r.fields || {})) line += "  " + name + " " + num(values[s]);
      if (r.winners.includes(s)) line += "  — winner";
      list.append(el("li", {"data-seat": String(s)}, line));
    }
    box.append(list);
    if (r.finished) box.append(el("p", {id: "winners"}, "Winners: " + (r.winners.map(label).join(", ") || "none")));
  }
  if (msg.log_ready) box.append(el("a", {id: "download-log", href: "/log/" + encodeURIComponent(token), download: ""}, "Download the game's log"));
  if (info.hot_seat && msg.type === "state") {
    // at the end of a hot-seat game, every hand may be looked at in turn
    for (const s of info.humans) {
      if (s !== msg.seat) box.append(el("button", {class: "ready", type: "button", "data-seat": String(s),
                                                   onclick: () => send({type: "ready", seat: s})}, "Show " + label(s) + "'s hand"));
    }
  }
}

// ------------------------------------------------------------------ hot seat: pass the device

function drawPass(msg) {
  const box = $("pass");
  box.replaceChildren();
  // the last seat's hand leaves the page, not just the screen
  for (const id of ["board", "turn", "log"]) $(id).replaceChildren();
  $("table").hidden = true;
  box.hidden = false;
  if (msg.over || msg.error) {
    box.append(el("h2", {}, msg.error ? "The game stopped" : "Game over"));
    // drawn here rather than copied: the table's result box stays empty, so ids stay unique
    $("result").replaceChildren();
    $("result").hidden = true;
    const result = el("section", {id: "pass-result"});
    drawResult(msg, result);
    box.append(result);
    for (const s of info.humans) {
      box.append(el("button", {class: "ready", type: "button", "data-seat": String(s),
                               onclick: () => send({type: "ready", seat: s})}, "Show " + label(s) + "'s hand"));
    }
  } else if (msg.seat === null) {
    box.append(el("h2", {}, "The bots are playing…"));
  } else {
    box.append(el("h2", {id: "pass-to"}, "Pass the device to " + label(msg.seat)),
               el("p", {}, "Only " + label(msg.seat) + " should look from here on."),
               el("button", {class: "ready", type: "button", "data-seat": String(msg.seat),
                             onclick: () => send({type: "ready", seat: msg.seat})},
                  "I am " + label(msg.seat) + ": show my hand"));
  }
}

// ------------------------------------------------------------------ the wire

function status(text, msg) {
  const s = $("status");
  s.textContent = text;
  if (msg) {
    s.dataset.version = String(msg.version);
    s.dataset.kind = msg.type;
    s.dataset.seat = msg.seat === null || msg.seat === undefined ? "" : String(msg.seat);
    s.dataset.yourTurn = msg.your_turn ? "yes" : "no";
    s.dataset.over = msg.over ? "yes" : "no";
  }
}

function show(msg) {
  last = msg;
  drawClock(msg);
  if (msg.type === "pass") {
    status(msg.over ? "game over" : msg.seat === null ? "bots are playing" : "pass to " + label(msg.seat), msg);
    drawPass(msg);
    return;
  }
  $("pass").hidden = true;
  $("table").hidden = false;
  document.title = info.title + " — " + label(msg.seat);
  status("You are " + label(msg.seat) + (msg.over ? " — game over" : msg.your_turn ? " — your move" : ""), msg);
  drawBoard(msg);
  drawTurn(msg);
  drawResult(msg);
  drawLog(msg);
}

function refusal(text) {
  const box = $("refusal");
  box.textContent = text;
  box.hidden = !text;
}

function send(data) {
  refusal("");
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(data));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  socket = new WebSocket(scheme + location.host + "/ws/" + encodeURIComponent(token));
  socket.addEventListener("message", (event) => {
    const msg = JSON.parse(event.data);
    if (msg.type === "hello") {
      info = msg.info;
      $("title").textContent = info.title;
    } else if (msg.type === "refused") {
      refusal(msg.message);
    } else if (msg.type === "state" || msg.type === "pass") {
      show(msg);
    }
  });
  socket.addEventListener("close", () => {
    if (!last || !last.over) status("disconnected from the table — reload to try again");
  });
}

connect();
