// Farol explorer: pick a spot (by stepping through a game or by clicking cards and coins)
// and show the advice `farol advise` gives there (for Goat Lords, the move of Farol's
// strongest agent). The game is the address's path (/coup) and the spot its #hash, so a
// link (or a reload) shows the same spot again.
"use strict";

const $ = (id) => document.getElementById(id);
let catalog = null;
const view = { game: "cobardes", mode: "step", params: "", history: [] };
let asked = 0; // the latest advice request; older answers are dropped
let stepped = 0; // the latest spot asked for while stepping; likewise
let solving = null; // ends the advice request under way (the server then stops its solve)

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  Object.assign(node, props);
  for (const c of children) node.append(c);
  return node;
}

function showError(message) {
  $("error").textContent = message || "";
  $("error").hidden = !message;
}

async function api(path, body, signal) {
  let response;
  try {
    response = await fetch(path, body === undefined ? {} : {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body), signal });
  } catch (e) {
    if (e.name === "AbortError") throw e;
    throw new Error("the explorer's server does not answer (is farol explore still running?)");
  }
  let data;
  try { data = await response.json(); } catch (e) { data = {}; }
  if (!response.ok || data.error) throw new Error(data.error || `error ${response.status}`);
  return data;
}

// ------------------------------------------------------------------ the address
function saveHash() {
  const h = new URLSearchParams({ mode: view.mode });
  if (view.mode === "step") {
    h.set("params", view.params);
    h.set("history", view.history.join(";"));
  } else {
    h.set("spot", JSON.stringify(buildFields()));
  }
  h.set("options", JSON.stringify(adviceOptions()));
  history.replaceState(null, "", "/" + view.game + "#" + h.toString());
}

function gameInfo() {
  return catalog.games.find((g) => g.key === view.game);
}

function readHash() {
  const h = new URLSearchParams(location.hash.slice(1));
  const out = {};
  for (const [k, v] of h) out[k] = v;
  return out;
}

// ------------------------------------------------------------------ advice
// A number with its sign (none where it rounds to zero, so never "-0.000"); the caller
// shows a number only where the answer has one.
function signed(x, digits = 3) {
  const text = Math.abs(x).toFixed(digits);
  return (Number(text) === 0 ? "" : x > 0 ? "+" : "-") + text;
}

function hasNumber(x) {
  return typeof x === "number" && Number.isFinite(x);
}

// The one source line: what answered and how accurate it is.
function sourceLine(a) {
  return el("p", { className: "muted", id: "source" }, `Source: ${a.source}; ${a.accuracy.text}.`);
}

function bar(fraction, negative = false) {
  const width = Math.max(0, Math.min(1, Math.abs(fraction))) * 100;
  return el("span", { className: "bar" + (negative ? " neg" : ""), style: `width:${width}%` });
}

function showAdvice(answer) {
  const box = $("advice");
  box.replaceChildren();
  const command = answer.command ? el("p", { className: "muted" }, "From the command line: ",
                                      el("code", { id: "command" }, answer.command)) : "";
  if (answer.unavailable) {
    box.append(el("p", { className: "unavailable", id: "unavailable" },
                  "No advice here: " + answer.unavailable), command);
    if (answer.unavailable.includes("under Advanced")) {
      $(view.game === "cobardes" ? "cobardes-options" : "coup-options").open = true;
    }
    box.dataset.state = "unavailable";
    return;
  }
  const a = answer.advice;
  if (a.agent) {
    showAgentMove(box, a);
    return;
  }
  if (a.win_chances) {
    showWinChances(box, a, command);
    return;
  }
  const who = a.player === "you" || a.player === undefined ? "you" :
    (typeof a.player === "number" ? `P${a.player} (you)` : a.player);
  if (hasNumber(a.value)) {
    box.append(el("p", { id: "value" }, `Value for ${who}: `, el("b", {}, signed(a.value, 4))));
    if (a.value_from === "mix") {
      box.append(el("p", { className: "muted small", id: "value-note" },
        "the mix’s value: each move’s value weighed by how often the mix plays it"));
    }
  } else {
    box.append(el("p", { id: "value" }, `No value for ${who} here: ${a.no_value}.`));
  }
  const table = el("table", { id: "actions" },
    el("tr", {}, el("th", {}, "action"), el("th", {}, "mix"), el("th", {}, ""),
       el("th", {}, "value")));
  const biggest = Math.max(1e-9, ...a.actions.map((r) => Math.abs(r.value || 0)));
  for (const r of a.actions) {
    table.append(el("tr", {},
      el("td", {}, r.action),
      el("td", { className: "num" }, (100 * r.probability).toFixed(1) + "%"),
      el("td", { className: "barcell" }, bar(r.probability)),
      hasNumber(r.value) ?
        el("td", { className: "num value" }, signed(r.value, 3), " ",
           bar(r.value / biggest / 2, r.value < 0)) :
        el("td", { className: "muted value" }, "not given")));
  }
  box.append(table);
  const hand = Object.entries(a.opponent_hand || {});
  box.append(el("h3", {}, "The rival's likely hand"));
  if (hand.length === 0) {
    box.append(el("p", { className: "muted" }, "nothing of the rival's hand is hidden from you here"));
  } else {
    const hands = hand.some(([name]) => name.includes("+"));
    box.append(el("p", { className: "muted" }, hands ? "the chance of each hand the rival may hold" :
                  "the chance that the rival holds each card"));
    const t = el("table", { id: "opponent" });
    for (const [card, p] of hand.sort((x, y) => y[1] - x[1])) {
      t.append(el("tr", {}, el("td", {}, card),
        el("td", { className: "num" }, (100 * p).toFixed(1) + "%"),
        el("td", { className: "barcell" }, bar(p))));
    }
    box.append(t);
  }
  if (a.limits) box.append(el("p", { className: "muted", id: "limits" }, a.limits));
  box.append(sourceLine(a));
  const details = el("details", {}, el("summary", {}, "All of farol advise's JSON"),
                     el("pre", {}, JSON.stringify(a.json, null, 1)));
  box.append(command, details);
  const shown = a.charts.filter((c) => catalog.charts.includes(c.file));
  if (shown.length) {
    const charts = el("div", { className: "charts" }, el("h3", {}, "Charts from the report"));
    for (const c of shown) {
      charts.append(el("figure", {}, el("img", { src: "/charts/" + c.file, alt: c.title,
        loading: "lazy" }), el("figcaption", {}, el("b", {}, c.title), ": " + c.describes)));
    }
    box.append(charts);
  }
  box.dataset.state = "ready";
}

// Coup at 3-6 players: each move's chance of winning with its 95% interval, ties marked.
function showWinChances(box, a, command) {
  const pct = (x) => (100 * x).toFixed(1) + "%";
  const ties = a.actions.filter((r) => r.tie).map((r) => r.action);
  box.append(el("p", { id: "value" }, ties.length > 1 ?
    `Best for P${a.player} (you), tied within their intervals: ` : `Best for P${a.player} (you): `,
    el("b", {}, ties.join(", "))));
  const table = el("table", { id: "actions" },
    el("tr", {}, el("th", {}, "action"), el("th", {}, "chance of winning"), el("th", {}, ""),
       el("th", {}, "95% interval"), el("th", {}, "")));
  for (const r of a.actions) {
    table.append(el("tr", {}, el("td", {}, r.action),
      el("td", { className: "num" }, pct(r.win)), el("td", { className: "barcell" }, bar(r.win)),
      el("td", { className: "num" }, `${pct(r.ci95[0])} to ${pct(r.ci95[1])}`),
      el("td", { className: "muted" }, r.tie && ties.length > 1 ? "tie" : "")));
  }
  box.append(table, el("h3", {}, "Each rival's likely hand"));
  for (const [who, hands] of Object.entries(a.opponent_hands)) {
    const t = el("table", { className: "opponent" }, el("tr", {}, el("th", {}, who), el("th", {}, "")));
    for (const [hand, p] of hands) {
      t.append(el("tr", {}, el("td", {}, hand), el("td", { className: "num" }, pct(p))));
    }
    box.append(t);
  }
  box.append(el("p", { className: "muted", id: "limits" }, a.limits), sourceLine(a), command,
             el("details", {}, el("summary", {}, "All of farol advise's JSON"),
                el("pre", {}, JSON.stringify(a.json, null, 1))));
  box.dataset.state = "ready";
}

// Goat Lords: the move Farol's strongest agent makes, among the legal moves.
function showAgentMove(box, a) {
  const chosen = a.actions.find((r) => r.probability === 1);
  box.append(el("p", { id: "value" }, `Farol's strongest agent, in P${a.player}'s seat, plays: `,
                el("b", {}, chosen.action)),
             el("p", { className: "muted", id: "no-value" }, `No value: ${a.no_value}.`));
  const table = el("table", { id: "actions" },
    el("tr", {}, el("th", {}, "legal move"), el("th", {}, "the agent")));
  for (const r of a.actions) {
    table.append(el("tr", {}, el("td", {}, r.action),
                    el("td", {}, r.probability === 1 ? "plays this" : "")));
  }
  box.append(table, sourceLine(a),
             el("details", {}, el("summary", {}, "The agent's answer as JSON"),
                el("pre", {}, JSON.stringify(a.json, null, 1))));
  box.dataset.state = "ready";
}

function stopAsking() {
  if (solving) solving.abort();
  solving = null;
}

function limitText() {
  const s = catalog.time_limit;
  return s < 90 ? `${s} seconds` : `${Math.round(s / 60)} minutes`;
}

async function ask(path, body) {
  stopAsking();
  const mine = ++asked;
  const box = $("advice");
  const controller = new AbortController();
  solving = controller;
  const stop = el("button", { id: "stop", title: "stop this solve" }, "Stop");
  stop.addEventListener("click", () => {
    stopAsking();
    asked++;
    box.replaceChildren(el("p", { className: "muted" }, "Stopped. Press “Advise here” to ask again."));
    box.dataset.state = "stopped";
  });
  box.replaceChildren(el("p", { className: "muted" },
    `Solving… (a first solve may take a minute; the explorer stops a solve after ${limitText()}) `,
    stop));
  box.dataset.state = "solving";
  try {
    const answer = await api(path, body, controller.signal);
    if (mine === asked) showAdvice(answer);
  } catch (e) {
    if (mine !== asked || e.name === "AbortError") return;
    box.replaceChildren(el("p", { className: "muted" }, "No advice (see the error above)."));
    box.dataset.state = "error";
    showError(e.message);
  } finally {
    if (solving === controller) solving = null;
  }
}

function adviceOptions() {
  const out = { turn_cap: Number($("turn-cap").value), cap_pricing: $("cap-pricing").value };
  if ($("exact").checked) out.exact = true;
  if ($("solve-battle").checked) out.solve = true;
  return out;
}

function clearAdvice(text = "Pick a spot.") {
  stopAsking();
  asked++;
  $("advice").replaceChildren(el("p", { className: "muted" }, text));
  $("advice").dataset.state = "empty";
}

// ------------------------------------------------------------------ stepping through a game
async function showSpot() {
  saveHash();
  const mine = ++stepped;
  let spot;
  try {
    spot = await api("/api/moves", { game: view.game, params: view.params,
                                     history: view.history });
  } catch (e) {
    if (mine === stepped) showError(e.message);
    return false;
  }
  // Another spot, or the other mode, was picked meanwhile.
  if (mine !== stepped || view.mode !== "step") return false;
  showError("");
  $("history").replaceChildren(...view.history.map((m, i) => {
    const li = el("li", { title: "go back to just after this move" }, m);
    li.addEventListener("click", () => { view.history = view.history.slice(0, i + 1); showSpot(); });
    return li;
  }));
  $("state").textContent = spot.text;
  $("seen-by").textContent = `The table as P${spot.seat} sees it`;
  $("to-move").textContent = spot.terminal ? `Game over: returns ${spot.returns.join(", ")}` :
    spot.chance ? "Chance (a card dealt): pick the outcome" : `P${spot.player} to move`;
  $("deal").hidden = !spot.chance;
  $("moves").replaceChildren(...spot.moves.map((m) => {
    const label = m.probability === undefined ? m.name :
      `${m.name} (${(100 * m.probability).toFixed(1)}%)`;
    const b = el("button", { className: m.probability === undefined ? "" : "chance" }, label);
    b.dataset.move = m.name;
    b.addEventListener("click", () => play(m.name));
    return b;
  }));
  if (spot.terminal || spot.chance) {
    clearAdvice(spot.terminal ? "The game is over." : "Chance moves next: no one decides here.");
  } else if ($("auto").checked) {
    adviseHere();
  } else {
    clearAdvice("Press “Advise here” for the advice at this spot.");
  }
  return true;
}

// Chance's moves drawn by their probabilities, until a player decides or the game ends.
async function deal() {
  const mine = ++stepped;
  try {
    for (let i = 0; i < 500; i++) {
      const spot = await api("/api/moves", { game: view.game, params: view.params,
                                             history: view.history });
      if (mine !== stepped) return;
      if (!spot.chance) break;
      let left = Math.random();
      let pick = spot.moves[spot.moves.length - 1].name;
      for (const m of spot.moves) {
        left -= m.probability;
        if (left <= 0) { pick = m.name; break; }
      }
      view.history.push(pick);
    }
  } catch (e) {
    if (mine === stepped) showError(e.message);
    return;
  }
  showSpot();
}

function play(name) {
  view.history.push(name);
  showSpot();
}

function adviseHere() {
  saveHash();
  ask("/api/advice", { game: view.game, params: view.params, history: view.history,
                       options: adviceOptions() });
}

function startGame() {
  view.params = $("params").value;
  view.history = [];
  showSpot();
}

// ------------------------------------------------------------------ building a spot
function chipToggles(box, names, on) {
  box.replaceChildren(...names.map((n) => {
    const b = el("button", { className: on.includes(n) ? "on" : "" }, n);
    b.dataset.card = n;
    b.addEventListener("click", () => b.classList.toggle("on"));
    return b;
  }));
}

function chosen(box) {
  return [...box.querySelectorAll("button.on")].map((b) => b.dataset.card);
}

// Coup: cards picked into a list (a card may be there twice), at most `limit`.
function picker(pickBox, listBox, names, limit, picked) {
  const draw = () => listBox.replaceChildren(...picked.map((n, i) => {
    const b = el("button", { title: "remove" }, n + " ×");
    b.addEventListener("click", () => { picked.splice(i, 1); draw(); });
    return b;
  }));
  pickBox.replaceChildren(...names.map((n) => {
    const b = el("button", {}, n);
    b.dataset.card = n;
    b.addEventListener("click", () => { if (picked.length < limit) { picked.push(n); draw(); } });
    return b;
  }));
  draw();
}

const coup = { hidden: [], lost: [], rivalLost: [], coins: 2, rivalCoins: 2 };

function options(select, values, selected) {
  select.replaceChildren(...values.map(([v, t]) => el("option", { value: v, selected: v === selected }, t)));
}

function setupBuild(fields = {}) {
  const cb = catalog.cobardes;
  options($("cb-warriors"), cb.warriors.map((_, w) => [String(w), String(w)]),
          String(fields.warriors ?? cb.warriors.length - 1));
  const top = Number($("cb-warriors").value);
  const warriors = cb.warriors.slice(0, top + 1);
  chipToggles($("cb-mine"), warriors, fields.mine || warriors);
  chipToggles($("cb-theirs"), warriors, fields.theirs || warriors);
  const scores = [["", "none (one battle)"]];
  for (let a = 0; a <= 2; a++) for (let b = 0; b <= 2; b++) scores.push([`${a}-${b}`, `${a}-${b}`]);
  options($("cb-score"), scores, fields.score || "");
  const strip = (c) => (c || "").replace(/\*$/, "");
  const courtiers = [["", "none"], ...cb.courtiers.map((c) => [c, c])];
  options($("cb-my-courtier"), courtiers, strip(fields.my_courtier));
  options($("cb-their-courtier"), courtiers, strip(fields.their_courtier));
  $("cb-my-used").checked = (fields.my_courtier || "").endsWith("*");
  $("cb-their-used").checked = (fields.their_courtier || "").endsWith("*");
  const villains = [["", "none"], ...cb.villains.map((v) => [v, v])];
  options($("cb-my-villain"), villains, fields.my_villain || "");
  options($("cb-their-villain"), [["", "none"], ["?", "hidden (?)"], ...cb.villains.map((v) => [v, v])],
          fields.their_villain || "");
  if (fields.combat) $("cb-combat").value = fields.combat;
  if (fields.combats) $("cb-combats").value = fields.combats;
  // Coup
  options($("cp-deck"), Object.keys(catalog.coup.decks).map((d) => [d, d]), fields.deck || Object.keys(catalog.coup.decks)[0]);
  if (fields.seat !== undefined) $("cp-seat").value = String(fields.seat);
  const you = fields.you || {}, rival = fields.rival || {};
  coup.hidden = you.hidden || []; coup.lost = you.revealed || []; coup.rivalLost = rival.revealed || [];
  coup.coins = you.coins ?? 2; coup.rivalCoins = rival.coins ?? 2;
  if (rival.hidden) $("cp-rival-hidden").value = String(rival.hidden);
  drawCoup();
}

function drawCoup() {
  const names = catalog.coup.decks[$("cp-deck").value];
  picker($("cp-pick-hidden"), $("cp-hidden"), names, 2, coup.hidden);
  picker($("cp-pick-lost"), $("cp-lost"), names, 1, coup.lost);
  picker($("cp-pick-rival-lost"), $("cp-rival-lost"), names, 1, coup.rivalLost);
  $("cp-coins").textContent = coup.coins;
  $("cp-rival-coins").textContent = coup.rivalCoins;
}

function buildFields() {
  if (view.game === "cobardes") {
    const used = (name, box) => (name && $(box).checked ? name + "*" : name);
    return {
      warriors: Number($("cb-warriors").value), mine: chosen($("cb-mine")),
      theirs: chosen($("cb-theirs")), combat: Number($("cb-combat").value),
      combats: Number($("cb-combats").value), score: $("cb-score").value,
      my_courtier: used($("cb-my-courtier").value, "cb-my-used"),
      their_courtier: used($("cb-their-courtier").value, "cb-their-used"),
      my_villain: $("cb-my-villain").value, their_villain: $("cb-their-villain").value,
      options: adviceOptions(),
    };
  }
  return {
    deck: $("cp-deck").value, seat: Number($("cp-seat").value),
    you: { hidden: coup.hidden, revealed: coup.lost, coins: coup.coins },
    rival: { hidden: Number($("cp-rival-hidden").value), revealed: coup.rivalLost,
             coins: coup.rivalCoins },
    options: adviceOptions(),
  };
}

function adviseBuilt() {
  showError("");
  saveHash();
  ask("/api/position", { game: view.game, fields: buildFields() });
}

// ------------------------------------------------------------------ layout
function showMode() {
  if (!gameInfo().build) view.mode = "step";
  $("mode-build").hidden = !gameInfo().build;
  for (const b of document.querySelectorAll(".tab")) b.classList.toggle("active", b.dataset.mode === view.mode);
  $("step").hidden = view.mode !== "step";
  $("build").hidden = view.mode !== "build";
  $("build-actions").hidden = view.mode !== "build";
  $("build-cobardes").hidden = view.game !== "cobardes";
  $("build-coup").hidden = view.game !== "coup";
  $("coup-options").hidden = view.game !== "coup";
  $("cobardes-options").hidden = view.game !== "cobardes";
}

function setPresets() {
  const game = catalog.games.find((g) => g.key === view.game);
  options($("preset"), game.presets.map((p) => [p.params, p.title]), view.params);
  if (!game.presets.some((p) => p.params === view.params)) {
    $("preset").append(el("option", { value: view.params, selected: true }, "your parameters"));
  }
  $("params").value = view.params;
}

function enter() {
  stepped++;
  showError("");
  clearAdvice();
  showMode();
  if (view.mode === "step") {
    setPresets();
    showSpot();
  } else {
    saveHash();
  }
}

async function init() {
  try {
    catalog = await api("/api/catalog");
  } catch (e) {
    showError(e.message);
    return;
  }
  options($("game"), catalog.games.map((g) => [g.key, g.title]), view.game);
  options($("cap-pricing"), catalog.coup.cap_pricings.map((c) => [c, c]), "markov");
  $("turn-cap").max = catalog.coup.max_turn_cap;
  $("turn-cap").value = catalog.coup.turn_cap;
  // A battle's combats: the limit the rules set (games/cobardes/cards.py), the default.
  $("cb-combat").max = $("cb-combats").max = $("cb-combats").value = catalog.cobardes.max_combats;
  const saved = readHash();
  // The game is the address's path; an older link names it in the #hash instead.
  const named = decodeURIComponent(location.pathname.replace(/^\/+|\/+$/g, "")) ||
    saved.game || view.game;
  if (!catalog.games.some((g) => g.key === named)) {
    location.replace("/" + encodeURIComponent(named)); // the server's page-not-found
    return;
  }
  view.game = named;
  $("game").value = view.game;
  view.mode = saved.mode === "build" ? "build" : "step";
  const first = catalog.games.find((g) => g.key === view.game).presets[0].params;
  view.params = saved.params !== undefined ? saved.params : first;
  view.history = saved.history ? saved.history.split(";").filter((m) => m) : [];
  let fields = {};
  try {
    const opts = saved.options ? JSON.parse(saved.options) : {};
    if (opts.turn_cap) $("turn-cap").value = opts.turn_cap;
    if (opts.cap_pricing) $("cap-pricing").value = opts.cap_pricing;
    $("exact").checked = opts.exact === true;
    $("solve-battle").checked = opts.solve === true;
    fields = saved.spot ? JSON.parse(saved.spot) : {};
  } catch (e) {
    showError("the address holds a spot that cannot be read; showing the default one");
  }
  setupBuild(view.mode === "build" ? fields : {});

  $("game").addEventListener("change", () => {
    view.game = $("game").value;
    view.params = catalog.games.find((g) => g.key === view.game).presets[0].params;
    view.history = [];
    enter();
  });
  for (const b of document.querySelectorAll(".tab")) {
    b.addEventListener("click", () => { view.mode = b.dataset.mode; enter(); });
  }
  $("preset").addEventListener("change", () => { $("params").value = $("preset").value; startGame(); });
  $("start").addEventListener("click", startGame);
  $("params").addEventListener("keydown", (e) => { if (e.key === "Enter") startGame(); });
  $("back").addEventListener("click", () => { view.history.pop(); showSpot(); });
  $("advise-here").addEventListener("click", adviseHere);
  $("deal").addEventListener("click", deal);
  $("build-advise").addEventListener("click", adviseBuilt);
  $("cb-warriors").addEventListener("change", () => setupBuild({ ...buildFields(), mine: undefined, theirs: undefined }));
  $("cp-deck").addEventListener("change", () => { coup.hidden.length = 0; coup.lost.length = 0; coup.rivalLost.length = 0; drawCoup(); });
  for (const b of document.querySelectorAll("[data-coins]")) {
    b.addEventListener("click", () => {
      const key = b.dataset.coins === "you" ? "coins" : "rivalCoins";
      coup[key] = Math.max(0, Math.min(catalog.coup.max_coins, coup[key] + Number(b.dataset.step)));
      drawCoup();
    });
  }
  showMode();
  if (view.mode === "step") {
    setPresets();
    showSpot();
  } else if (saved.spot) {
    adviseBuilt();
  }
}

init();
