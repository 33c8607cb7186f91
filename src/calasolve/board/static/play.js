// The board's game page (/play): one seat against the agents, drawn from what the server says that seat knows.
"use strict";

const POLL_MS = 250;
const SERIES_KEY = "calasolve-series";
const GAME_KEY = "calasolve-game";  // the deal under way, taken up again when the tab reloads

const game = {
  id: null,
  view: null,
  settings: null,    // what the last deal was asked with (the next deal reuses it)
  selected: new Set(),  // the cards picked for a set of discards or scegliete's split
  polling: false,
  thinkingSince: null,
  hintAbort: null,   // stops the hint under way (another decision, another deal)
  hintAt: null,      // the decision (actions before it) the hint shown belongs to
  finished: false,   // the series has this deal
};

const POS = ["bottom", "right", "left"];

function posOf(seat) {
  return POS[(seat - game.view.seat + 3) % 3];
}

function who(v, seat) {
  return seat === v.seat ? "you" : `${v.agents[seat].split(":")[0]} agent`;
}

function roleOf(v, seat) {
  if (v.soloist === null) return "";
  return seat === v.soloist ? "soloist" : "defender";
}

function callsOf(v, seat) {
  return v.calls.filter(([s]) => s === seat).map(([, c]) => c);
}

function bySuit(tokens) {
  const out = Object.fromEntries(SUITS.map((s) => [s, []]));
  for (const t of tokens) out[t.slice(-1)].push(t);
  return out;
}

// -- the table ---------------------------------------------------------------

function handRows(tokens, clickable, onClick) {
  const rows = [];
  const suits = bySuit(tokens);
  for (const suit of SUITS) {
    const row = el("div", { class: `suit suit-${suit}` }, el("span", { class: "sym" }, SYMBOL[suit]));
    for (const card of suits[suit]) {
      const button = el("button", { type: "button", class: "card", dataset: { card } }, el("span", { class: "face" }, cardLabel(card)));
      if (clickable(card)) {
        button.classList.add("legal");
        if (game.selected.has(card)) button.classList.add("picked");
        button.addEventListener("click", () => onClick(card));
      } else {
        button.disabled = true;
      }
      row.append(button);
    }
    if (!suits[suit].length) row.append(el("span", { class: "void" }, "\u2014"));
    rows.push(row);
  }
  return rows;
}

function drawSeat(v, seat) {
  const box = $(`pos-${posOf(seat)}`);
  const tags = [roleOf(v, seat)].filter(Boolean);
  if (v.thinking === seat) tags.push("thinking\u2026");
  else if (v.to_act === seat && !v.over) tags.push(seat === v.seat ? "your turn" : "to act");
  box.replaceChildren(el("h3", seat === v.seat ? {} : { title: v.agents[seat] }, `Seat ${seat}: ${who(v, seat)} `,
    el("span", { class: "tags" }, tags.join(" \u00b7 "))));
  box.classList.toggle("to-move", v.to_act === seat && !v.over);
  box.classList.toggle("soloist", v.soloist === seat);
  box.dataset.seat = seat;
  const calls = callsOf(v, seat);
  const thirds = v.play_started ? ` \u00b7 ${count(v.thirds[seat], "third")}` : "";
  box.append(el("p", { class: "note" }, `calls: ${calls.join(", ") || "\u2014"} \u00b7 won ${count(v.won[seat], "trick")}${thirds}`));
  if (v.over) {
    box.append(el("p", { class: "note" }, "dealt:"), ...handRows(v.hands[seat], () => false));
  } else if (seat === v.seat) {
    const d = v.decision;
    const legal = new Set(d && d.cards && ["card", "return"].includes(d.kind) ? d.cards : []);
    const picking = d && d.kind === "discards";
    box.append(...handRows(v.hand, (c) => legal.has(c) || picking,
      (c) => (picking ? toggle(c, d.count) : act({ card: c }))));
  } else {
    const backs = Array.from({ length: v.held[seat] }, () => el("span", { class: "back" }));
    box.append(el("div", { class: "backs", title: `${count(v.held[seat], "card")} in hand` }, ...backs));
  }
}

function drawTrick(v) {
  const trick = $("trick");
  trick.replaceChildren();
  let shown = v.trick;
  let note = "";
  const last = v.tricks.length ? v.tricks[v.tricks.length - 1] : null;
  if ((!shown || !shown.cards.length) && last) {
    shown = last;
    note = `trick ${v.tricks.length} won by seat ${last.winner} (${who(v, last.winner)})`;
  }
  if (shown) {
    shown.cards.forEach((card, i) => {
      const seat = (shown.leader + i) % 3;
      trick.append(el("div", { class: `played at-${posOf(seat)} suit-${card.slice(-1)}` + (shown === last ? " old" : "") },
        el("span", { class: "face" }, cardLabel(card)), el("span", { class: "who" }, `seat ${seat}`)));
    });
  }
  if (v.monte && !v.play_started) note = `monte: ${v.monte.map(cardLabel).join(" ")}`;
  $("trick-note").textContent = v.over ? "the deal is over" : note;
}

function drawInfo(v) {
  const parts = [`Deal: ${v.source}`, `you are seat ${v.seat}`];
  if (v.contract) parts.push(`${v.contract} by seat ${v.soloist} (${who(v, v.soloist)})`);
  else if (v.bid) parts.push(`seat ${v.soloist} won the auction with ${v.bid}`);
  if (v.monte) parts.push(`monte ${v.monte.map(cardLabel).join(" ")}`);
  if (v.hints.length) parts.push(`${count(v.hints.length, "hint")} used`);
  $("game-info").textContent = parts.join(" \u00b7 ");
  $("log").replaceChildren(...v.log.map((line) => el("li", {}, line)));
}

// -- your decision -------------------------------------------------------------------

const PROMPTS = {
  call: "Your call:",
  declare: "You won solissimo: play it, or aggravate it.",
  "chiamo-call": "Call a card you do not hold (its holder hands it to you; in the monte, you go alone):",
  return: "Return one of your cards to the seat that handed you the called card: click it in your hand.",
  card: "Your card: click it in your hand.",
};

function toggle(card, limit) {
  if (game.selected.has(card)) game.selected.delete(card);
  else if (game.selected.size < limit) game.selected.add(card);
  draw(game.view);
}

function drawDecision(v) {
  const d = v.decision;
  $("decision").hidden = !d;
  $("hint-go").disabled = !d;
  if (!d) return;
  const options = $("decision-options");
  options.replaceChildren();
  let prompt = PROMPTS[d.kind] || "";
  if (d.kind === "call" || d.kind === "declare") {
    d.calls.forEach((c) => options.append(el("button", { type: "button", class: "call", dataset: { call: c }, onclick: () => act({ call: c }) }, c)));
  } else if (d.kind === "chiamo-call") {
    for (const row of handRows(d.cards, () => true, (c) => act({ card: c }))) options.append(row);
    options.classList.add("cards");
  } else if (d.kind === "discards") {
    prompt = `Discard ${count(d.count, "card")}: click them in your hand (${game.selected.size} picked), then Discard.`;
    const go = el("button", { type: "button", id: "discard-go", onclick: () => act({ cards: [...game.selected] }) }, "Discard");
    go.disabled = game.selected.size !== d.count;
    options.append(go);
  } else if (d.kind === "split") {
    prompt = "Share the face-up monte: click the cards you take (your partner takes the rest), then Share.";
    for (const card of d.monte) {
      const b = el("button", { type: "button", class: "card legal" + (game.selected.has(card) ? " picked" : ""), dataset: { card },
        onclick: () => toggle(card, 4) }, el("span", { class: "face" }, cardLabel(card)));
      options.append(b);
    }
    options.append(el("button", { type: "button", id: "split-go", onclick: () => act({ takes: [...game.selected] }) }, "Share"));
  }
  options.classList.toggle("cards", d.kind === "chiamo-call");
  $("decision-prompt").textContent = prompt;
}

async function act(body) {
  $("act-error").textContent = "";
  try {
    game.selected.clear();
    draw(await api("POST", `/api/game/${game.id}/act`, body));
    follow();
  } catch (err) {
    $("act-error").textContent = err.message;
    draw(game.view);
  }
}

// -- the agents' turns: the page asks again until it is yours or the deal is over ------------------------------

async function follow() {
  if (game.polling) return;
  game.polling = true;
  const id = game.id;
  try {
    while (game.id === id && game.view && !game.view.over && !game.view.decision && !game.view.error) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (game.id !== id) return;
      draw(await api("GET", `/api/game/${id}`));
    }
  } catch (err) {
    if (game.id === id) status(err.message, true);
  } finally {
    game.polling = false;
  }
}

function drawThinking(v) {
  if (v.thinking === null) {
    game.thinkingSince = null;
    $("thinking").textContent = v.error ? "" : v.over ? "" : v.decision ? "your turn" : "";
    return;
  }
  game.thinkingSince = game.thinkingSince || Date.now();
  const seconds = Math.floor((Date.now() - game.thinkingSince) / 1000);
  $("thinking").textContent = `seat ${v.thinking} (${who(v, v.thinking)}) is thinking\u2026` + (seconds ? ` ${seconds} s` : "");
}

// -- hints -----------------------------------------------------------------------

async function hint() {
  const v = game.view;
  if (!v || !v.decision) return;
  if (game.hintAbort) game.hintAbort.abort();
  game.hintAbort = new AbortController();
  game.hintAt = v.history;
  $("hint-panel").hidden = false;
  $("hint-result").replaceChildren();
  $("hint-status").textContent = "playing each option out from what your seat knows\u2026";
  try {
    const answer = await api("POST", `/api/game/${game.id}/hint`, {}, game.hintAbort.signal);
    if (game.hintAt !== answer.at) return;
    $("hint-status").textContent = "";
    const [view, ...rest] = seatAdviceNodes(answer);
    $("hint-result").replaceChildren(...rest, el("details", {}, el("summary", {}, "the view the advice read"), view));
  } catch (err) {
    if (!dropped(err)) $("hint-status").textContent = err.message;
  }
}

function forgetHint() {
  if (game.hintAbort) game.hintAbort.abort();
  game.hintAbort = null;
  game.hintAt = null;
  $("hint-panel").hidden = true;
}

// -- the end ------------------------------------------------------------------------

function resultText(v) {
  if (v.void) return "Everybody passed: the deal is void (0 game points each).";
  const r = v.result;
  const mine = v.returns[v.seat];
  return `${v.contract} by seat ${v.soloist} (${who(v, v.soloist)}): ${r.soloist_thirds} thirds, ` +
    `${r.makes ? "made" : "failed"}${r.bonus ? ` (${r.bonus})` : ""}; game points ${v.returns.map(signedPoints).join(" / ")}; ` +
    `you (seat ${v.seat}) ${signedPoints(mine)}.`;
}

function series() {
  try {
    return JSON.parse(sessionStorage.getItem(SERIES_KEY) || "[]");
  } catch {
    return [];
  }
}

function drawSeries() {
  const list = series();
  const total = list.reduce((sum, g) => sum + g.points, 0);
  $("series-score").textContent = list.length ? `${count(list.length, "deal")}: you ${signedPoints(total)} game points` : "no deal finished yet";
  $("series-list").replaceChildren(...list.map((g) => el("li", {}, `${g.source}, seat ${g.seat}: ${g.contract || "void"}, ${signedPoints(g.points)}`)));
}

function drawEnd(v) {
  $("end-panel").hidden = !v.over;
  if (!v.over) return;
  if (!game.finished) {
    game.finished = true;
    const list = series();
    list.push({ id: v.id, source: v.source, seat: v.seat, contract: v.contract, points: v.returns[v.seat] });
    sessionStorage.setItem(SERIES_KEY, JSON.stringify(list));
    drawSeries();
  }
  $("end-result").textContent = resultText(v);
  $("record-text").value = v.record || "";
  $("review-link").hidden = !v.record;
  $("review-link").href = `/?game=${encodeURIComponent(v.id)}`;
  $("save").disabled = !v.record;
  $("again").disabled = !v.record;
  $("duplicate").disabled = !v.record;
  const dup = v.duplicate;
  let text = "";
  if (dup && dup.state === "running") text = "the table agent is playing your seat\u2026";
  else if (dup && dup.state === "error") text = dup.error;
  else if (dup) text = `from your seat the table agent reached ${dup.contract || "a void deal"}` +
    (dup.contract ? ` by seat ${dup.soloist}` : "") + `: ${signedPoints(dup.points)} game points (you: ${signedPoints(v.returns[v.seat])})`;
  $("duplicate-result").textContent = text;
}

function save() {
  const v = game.view;
  const hints = v.hints.length ? `# hints asked at ${count(v.hints.length, "decision")}\n` : "# no hints asked\n";
  const head = `# played on the calasolve board: seat ${v.seat} by you, the others by ${v.agents.filter(Boolean).join(" and ")}\n` +
    `# ${v.source}; you scored ${signedPoints(v.returns[v.seat])}\n${hints}`;
  const blob = new Blob([head + v.record + "\n"], { type: "text/plain" });
  const link = el("a", { href: URL.createObjectURL(blob), download: `calasolve-game-${v.id}.deal` });
  document.body.append(link);
  link.click();
  link.remove();
}

async function duplicate() {
  try {
    draw(await api("POST", `/api/game/${game.id}/duplicate`, {}));
    const id = game.id;
    while (game.id === id && game.view.duplicate && game.view.duplicate.state === "running") {
      await new Promise((resolve) => setTimeout(resolve, 500));
      if (game.id === id) draw(await api("GET", `/api/game/${id}`));
    }
  } catch (err) {
    $("duplicate-result").textContent = err.message;
  }
}

// -- a deal -------------------------------------------------------------------------

function draw(v) {
  if (v.id !== game.id) return;  // an answer about a deal this page has left (a poll under way when it dealt anew)
  if (game.view && v.history !== game.view.history) {
    game.selected.clear();
    if (game.hintAt !== null && game.hintAt !== v.history) forgetHint();
  }
  game.view = v;
  v.play_started = ["play", "over"].includes(v.phase) && v.contract !== null;
  for (let s = 0; s < 3; s++) drawSeat(v, s);
  drawTrick(v);
  drawInfo(v);
  drawDecision(v);
  drawThinking(v);
  drawEnd(v);
  $("leave").disabled = v.over;
  if (v.error) status(v.error, true);
  else status(v.over ? "the deal is over" : v.decision ? "your turn" : `seat ${v.to_act} to act`);
}

async function deal(settings) {
  $("game-error").textContent = "";
  if (game.id && game.view && !game.view.over) await leave();
  try {
    const v = await api("POST", "/api/game", settings);
    game.id = v.id;
    sessionStorage.setItem(GAME_KEY, JSON.stringify({ id: v.id, settings }));
    game.settings = settings;
    game.view = null;
    game.finished = false;
    game.selected.clear();
    forgetHint();
    draw(v);
    follow();
  } catch (err) {
    $("game-error").textContent = err.message;
  }
}

function formSettings() {
  const settings = { seat: Number($("game-seat").value), agents: $("game-agents").value.trim(), pace: Number($("game-pace").value) };
  const source = document.querySelector("input[name=source]:checked").value;
  if (source === "seed" && $("game-seed").value !== "") settings.seed = Number($("game-seed").value);
  if (source === "record") settings.deal = { record: Number($("game-record").value) };
  if (source === "text") settings.deal = { text: $("game-text").value };
  return settings;
}

async function leave() {
  const id = game.id;
  if (!id) return;
  game.id = null;
  sessionStorage.removeItem(GAME_KEY);
  forgetHint();
  try {
    await api("DELETE", `/api/game/${id}`);
  } catch {
    // the server may be gone: the page is free all the same
  }
  $("decision").hidden = true;
  $("leave").disabled = true;
  $("hint-go").disabled = true;
  $("thinking").textContent = "";
  status("you left the deal");
}

function nextDeal() {
  const settings = { ...game.settings };
  if (!settings.deal && settings.seed !== undefined) settings.seed += 1;
  deal(settings);
}

function again() {
  deal({ ...game.settings, seat: Number($("again-seat").value), deal: { text: game.view.record } });
}

async function start() {
  $("game-form").addEventListener("submit", (event) => {
    event.preventDefault();
    deal(formSettings());
  });
  $("hint-go").addEventListener("click", hint);
  $("leave").addEventListener("click", leave);
  $("save").addEventListener("click", save);
  $("next-deal").addEventListener("click", nextDeal);
  $("again").addEventListener("click", again);
  $("duplicate").addEventListener("click", duplicate);
  setInterval(() => game.view && drawThinking(game.view), 1000);
  drawSeries();
  const { records } = await api("GET", "/api/records");
  const list = $("game-record");
  records.forEach((r) => list.append(el("option", { value: r.index }, `${r.index}. ${r.name || r.contract}`)));
  $("source-record").disabled = !records.length;
  list.disabled = !records.length;
  status("deal to begin");
  await resume();
}

// After a reload: the deal this tab was playing, if the server still has it.
async function resume() {
  let kept = null;
  try {
    kept = JSON.parse(sessionStorage.getItem(GAME_KEY) || "null");
  } catch {
    kept = null;
  }
  if (!kept) return;
  try {
    const v = await api("GET", `/api/game/${encodeURIComponent(kept.id)}`);
    game.id = v.id;
    game.settings = kept.settings;
    game.finished = series().some((g) => g.id === v.id);
    draw(v);
    follow();
  } catch {
    sessionStorage.removeItem(GAME_KEY);  // the server restarted, or dropped it
  }
}

start().catch((err) => status(err.message, true));
