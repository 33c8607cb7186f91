// The calasolve analysis board: draws what the JSON API (docs/board.md) answers.
"use strict";

const FIRST_LOOK = 1;  // seconds of the first, provisional exchange search

const state = {
  deal: null,        // {record: N} or {text: "..."}
  exchange: null,    // the exchange applied when the record lacks one (Exchange.to_dict form)
  line: [],          // the cards of the line being studied; `cursor` of them are played
  cursor: 0,
  recordPlay: [],    // the record's own played line (the graph's)
  graph: null,
  view: null,
  seq: 0,            // answers to older requests are dropped
  opened: 0,         // the deal's number: answers about a deal no longer open are dropped
  abort: null,       // stops the open deal's requests (and so their work on the server)
  tableWorkers: 1,   // the server's processes for the table's entries
  checking: null,    // a pasted record being checked: settles once it is open or refused
};

function dealSpec(played) {
  const spec = { ...state.deal };
  if (state.exchange) spec.exchange = state.exchange;
  if (played !== undefined) spec.played = played;
  return spec;
}

// -- the table ---------------------------------------------------------------

function lossClass(loss) {
  if (loss === 0) return "best";
  if (loss <= 2) return "loss1";
  if (loss <= 5) return "loss2";
  return "loss3";
}

function drawSeat(view, seat) {
  const info = view.seats[seat];
  const box = $(`seat-${seat}`);
  const moving = view.to_move === seat;
  box.replaceChildren();
  box.classList.toggle("to-move", moving);
  box.classList.toggle("soloist", info.role === "soloist");
  const tags = [info.role];
  if (seat === view.first_leader) tags.push("led first");
  if (seat === view.trick.leader && !view.over) tags.push("leads this trick");
  if (moving) tags.push("to move");
  box.append(el("h3", {}, `Seat ${seat} `, el("span", { class: "tags" }, tags.join(" \u00b7 "))));
  box.append(el("p", { class: "note" },
    `${count(info.hand_thirds, "third")} in hand \u00b7 won ${count(info.tricks_won, "trick")}, ${count(info.captured, "third")}`));
  for (const suit of SUITS) {
    const row = el("div", { class: `suit suit-${suit}` }, el("span", { class: "sym" }, SYMBOL[suit]));
    for (const card of info.hand[suit]) {
      const legal = moving && card in view.values;
      const button = el("button", { type: "button", class: "card", dataset: { card } },
        el("span", { class: "face" }, cardLabel(card)));
      if (legal) {
        button.classList.add("legal", lossClass(view.loss[card]));
        button.append(el("span", { class: "val" }, String(view.values[card])));
        button.title = view.loss[card] ? `${view.values[card]} thirds: loses ${view.loss[card]}` : `${view.values[card]} thirds: best`;
        button.addEventListener("click", () => play(card));
      } else {
        button.disabled = true;
        if (moving) button.classList.add("illegal");
      }
      row.append(button);
    }
    if (!info.hand[suit].length) row.append(el("span", { class: "void" }, "\u2014"));
    box.append(row);
  }
}

function drawTrick(view) {
  const trick = $("trick");
  trick.replaceChildren();
  let shown = view.trick;
  let note = "";
  if (!shown.cards.length && view.last_trick) {
    shown = view.last_trick;
    note = `last trick: won by seat ${view.last_trick.winner} (+${view.last_trick.thirds})`;
  }
  shown.cards.forEach((card, i) => {
    const seat = (shown.leader + i) % 3;
    trick.append(el("div", { class: `played at-${seat} suit-${card.slice(-1)}` + (shown === view.trick ? "" : " old") },
      el("span", { class: "face" }, cardLabel(card)), el("span", { class: "who" }, `seat ${seat}`)));
  });
  if (view.over) note = "the deal is over";
  else if (!note) note = `seat ${view.to_move} to play`;
  $("trick-note").textContent = note;
}

function drawInfo(view) {
  const r = view.record;
  const name = r.name ? `${r.name} \u2014 ` : "";
  const monte = view.monte_cards.map(cardLabel).join(" ");
  $("deal-info").replaceChildren(
    el("strong", {}, `${name}${r.contract}`), ` \u00b7 soloist seat ${r.soloist} \u00b7 first lead seat ${view.first_leader}`,
    ` \u00b7 rules ${view.rules}`, el("br"), `monte: ${monte} (${count(view.monte_thirds, "third")})`,
    ` \u00b7 exchange: ${view.exchange_text}`);
  const verdict = view.makes ? "makes" : "fails";
  const dd = view.over ? "" : ` \u00b7 double dummy: ${view.value} thirds (${Math.floor(view.value / 3)} points), ${verdict}`;
  let text = `Soloist ${view.sides.soloist} thirds \u00b7 defenders ${view.sides.defenders} thirds${dd}`;
  if (view.result) {
    const res = view.result;
    text += ` \u00b7 result: ${res.soloist_thirds} thirds, ${res.makes ? "made" : "failed"}, payments ${res.payments.join(" / ")}`;
  }
  $("score").textContent = text;
  $("step").textContent = `card ${state.cursor} of ${state.line.length}`;
  $("go-back").disabled = state.cursor === 0;
  $("go-start").disabled = state.cursor === 0;
  $("go-forward").disabled = state.cursor >= state.line.length;
  $("go-end").disabled = state.cursor >= state.line.length;
}

function draw(view) {
  state.view = view;
  for (const seat of [0, 1, 2]) drawSeat(view, seat);
  drawTrick(view);
  drawInfo(view);
  drawGraph();
  $("pimc-panel").hidden = false;
  $("pimc-go").disabled = view.over;
  markPimc();
}

// -- moves ---------------------------------------------------------------------

async function request(method, path, body, onAnswer) {
  const mine = ++state.seq;
  const deal = state.opened;
  try {
    const data = await api(method, path, body, state.abort && state.abort.signal);
    if (mine === state.seq && deal === state.opened) onAnswer(data);
    return data;
  } catch (err) {
    if (mine === state.seq && deal === state.opened && !dropped(err)) status(err.message, true);
    return null;
  }
}

function show(view, cursor) {
  state.cursor = cursor;
  status("");
  draw(view);
}

async function play(card) {
  stopPimc();
  const before = state.line.slice(0, state.cursor);
  await request("POST", "/api/play", { deal: dealSpec(before), card }, (view) => {
    if (state.line[state.cursor] !== card) state.line = before.concat([card]);
    show(view, state.cursor + 1);
  });
}

async function undo() {
  if (state.cursor === 0) return;
  stopPimc();
  await request("POST", "/api/undo", { deal: dealSpec(state.line.slice(0, state.cursor)) },
    (view) => show(view, state.cursor - 1));
}

async function goTo(cursor) {
  stopPimc();
  cursor = Math.max(0, Math.min(cursor, state.line.length));
  await request("POST", "/api/position", { deal: dealSpec(state.line.slice(0, cursor)) }, (view) => show(view, cursor));
}

async function redo() {
  if (state.cursor < state.line.length) await play(state.line[state.cursor]);
}

// -- opening a deal --------------------------------------------------------------

// Opening a deal drops everything asked about the one before: its answers are ignored
// and its requests aborted, which stops their searches on the server.
async function openDeal(deal, summary) {
  if (state.abort) state.abort.abort();
  state.abort = new AbortController();
  const mine = ++state.opened;
  state.deal = deal;
  state.exchange = null;
  state.graph = null;
  state.view = null;
  state.recordPlay = summary.played.slice();
  state.line = summary.played.slice();
  $("exchange-panel").hidden = true;
  $("exchange-searching").hidden = true;
  $("graph-panel").hidden = true;
  resetPimc();
  resetTable();
  forgetReview();
  $("exchange-judged").textContent = "";
  status("");
  if (summary.needs_exchange) {
    // the table waits for the exchange: nothing of the deal before stays on it
    for (const seat of [0, 1, 2]) $(`seat-${seat}`).replaceChildren();
    $("trick").replaceChildren();
    $("trick-note").textContent = "";
    $("score").textContent = "";
    const name = summary.name ? `${summary.name} \u2014 ` : "";
    $("deal-info").replaceChildren(el("strong", {}, `${name}${summary.contract}`), " \u00b7 the exchange is being searched");
    if (!(await searchExchange(mine, summary.contract))) return;
  }
  if (mine !== state.opened) return;
  // like `calasolve solve`: where the played line stops; a deal played out opens at the first lead
  const start = state.line.length === 36 ? 0 : state.line.length;
  await goTo(start);
  if (mine === state.opened && state.recordPlay.length) analyse(mine);
}

function searching(contract, mine) {
  const started = Date.now();
  const note = $("exchange-searching");
  const tick = () => {
    if (mine !== state.opened || note.hidden) return;
    const seconds = Math.round((Date.now() - started) / 1000);
    $("exchange-elapsed").textContent = `${seconds} s`;
    setTimeout(tick, 1000);
  };
  $("exchange-what").textContent = `Searching the best exchange of this ${contract}\u2026`;
  note.hidden = false;
  tick();
}

// True once the exchange is drawn; false when the deal was left (or the search failed).
async function searchExchange(mine, contract) {
  status("searching the best exchange\u2026");
  searching(contract, mine);
  let found;
  $("exchange-so-far").hidden = true;
  try {
    // first the best found within a second (most searches end in it), shown while the exact search runs
    found = await api("POST", "/api/exchange", { deal: dealSpec(), top: 10, time_limit: FIRST_LOOK }, state.abort.signal);
    if (mine !== state.opened) return false;
    if (!found.proven) {
      const so = $("exchange-so-far");
      // what is proven, in a player's terms ("at least 20 thirds: makes; the best may be higher"): no bare bound
      so.textContent = `Best found in the first second: ${found.best.text} \u2192 ${found.best.soloist_thirds} thirds; `
        + `${found.known.text} (not proven yet: the exact search goes on).`;
      so.hidden = false;
      found = await api("POST", "/api/exchange", { deal: dealSpec(), top: 10 }, state.abort.signal);
    }
  } catch (err) {
    if (mine === state.opened && !dropped(err)) {
      $("exchange-searching").hidden = true;
      status(err.message, true);
    }
    return false;
  }
  if (mine !== state.opened) return false;
  $("exchange-searching").hidden = true;
  status("");
  const choices = found.draws || found.alternatives;
  state.exchange = found.best.exchange;
  $("exchange-note").textContent = found.draws
    ? `The draw is chance: ${choices.length} draws, mean ${found.mean.toFixed(2)} thirds; the worst for the soloist is applied.`
    : `The record gives no complete exchange: the double-dummy best is applied. Pick another:`;
  const list = $("exchange-list");
  list.replaceChildren();
  choices.forEach((choice) => {
    const item = el("li", {}, el("button", { type: "button", class: "exchange-choice", onclick: () => pickExchange(choice.exchange, item) },
      `${choice.text} \u2192 ${choice.soloist_thirds} thirds`));
    if (JSON.stringify(choice.exchange) === JSON.stringify(state.exchange)) item.classList.add("chosen");
    list.append(item);
  });
  $("exchange-panel").hidden = false;
  return true;
}

async function pickExchange(exchange, item) {
  state.exchange = exchange;
  state.line = [];
  resetPimc();
  for (const li of $("exchange-list").children) li.classList.toggle("chosen", li === item);
  await goTo(0);
}

// -- the double-dummy table and par -------------------------------------------------

const CONTRACTS = ["chiamo", "solo", "solissimo", "dividete", "scegliete"];

// As `calasolve table` writes a cell: left of "|" the play for thirds (thirds, * made), right of it the play
// for game points (the soloist's game points, x2/x3 when every outcome has it, "at N" its thirds where the
// left's cannot pay them).
function tableCell(entry) {
  const gp = signedPoints(entry.game_points[entry.soloist]);
  const multipliers = new Set(entry.draws ? entry.draws.map((d) => d.multiplier) : [entry.multiplier]);
  const [only] = multipliers;
  const times = multipliers.size === 1 && only !== 1 ? ` x${only}` : "";
  if (entry.draws) {
    const thirds = Number.isInteger(entry.soloist_thirds) ? entry.soloist_thirds : entry.soloist_thirds.toFixed(1);
    return `${thirds} (${entry.low}-${entry.high}) ${entry.made_draws}/${entry.draws.length} | ${gp}${times}`
      + (entry.proven ? "" : " ?");
  }
  const early = entry.proven ? "" : " ?";  // an early answer: a better exchange may exist
  const at = entry.points_play_thirds === null ? "" : ` at ${entry.points_play_thirds}`;
  return `${entry.soloist_thirds}${entry.makes ? "*" : ""} | ${gp}${times}${at}${early}`;
}

function resetTable() {
  const table = $("dd-table");
  table.replaceChildren(el("tr", {}, el("th", {}, ""), ...CONTRACTS.map((c) => el("th", {}, c))));
  for (const seat of [0, 1, 2]) {
    table.append(el("tr", {}, el("th", {}, `seat ${seat}`),
      ...CONTRACTS.map((c) => el("td", { id: `dd-${seat}-${c}`, class: "pending" }, "\u2026"))));
  }
  $("par-line").textContent = "";
  $("table-progress").textContent = "";
  $("table-go").disabled = false;
  $("table-panel").hidden = state.deal === null;
}

// The entries by their usual cost, dearest first (as `calasolve table` runs them).
const DEAREST_FIRST = ["chiamo", "dividete", "solo", "scegliete", "solissimo"];
// The first pass's limit per entry, in seconds: 15 entries on two cores fill the table in about 5 s.
const EARLY_LIMIT = 0.5;

function showEntry(task, entry) {
  const cell = $(`dd-${task.soloist}-${task.contract}`);
  cell.textContent = tableCell(entry);
  cell.className = (entry.makes ? "made" : "") + (entry.proven ? "" : " early");
  const what = entry.draws ? entry.draws.map((d) => `${d.exchange}: ${d.soloist_thirds}`).join("\n") : entry.exchange;
  cell.title = entry.proven ? what : `${what}\n(early answer: a better exchange may exist; the exact search follows)`;
}

// The 15 entries, each a search on the server, `state.tableWorkers` at a time (one per core there), in two
// passes: first every entry's early answer (its exchange search cut after EARLY_LIMIT s, marked "?" until
// proven) and a provisional par, then the exact search of each entry not yet proven, each cell replaced as
// it ends, and the par again.  In each pass one runner takes the dearest left, the others the cheapest.
// Opening another deal aborts the requests under way, which stops their searches.
async function computeTable() {
  $("table-go").disabled = true;
  // a click while a paste is checked asks for the table of the deal it opens, not of the one on its way out
  await state.checking;
  const mine = state.opened;
  const signal = state.abort.signal;
  const deal = { ...state.deal };  // the deal as dealt: its exchange and play do not matter
  $("table-go").disabled = true;
  const tasks = DEAREST_FIRST.flatMap((contract) => [0, 1, 2].map((soloist) => ({ soloist, contract })));
  const entries = new Map();  // by "seat contract": the latest answer of each entry
  const key = (t) => `${t.soloist} ${t.contract}`;
  const running = new Map();
  let failed = false;  // an error stops every runner after its entry under way
  const pass = async (queue, body, label) => {
    const progress = () => {
      const now = [...running.values()].map((t) => `seat ${t.soloist} in ${t.contract}`).join(", ");
      const proven = [...entries.values()].filter((e) => e.proven).length;
      $("table-progress").textContent = `${label(entries.size, proven)}; searching ${now}\u2026`;
    };
    const runner = async (id, dearFirst) => {
      while (queue.length && mine === state.opened && !failed) {
        const task = dearFirst ? queue.shift() : queue.pop();
        running.set(id, task);
        progress();
        const entry = await api("POST", "/api/table-entry", { deal, ...task, ...body }, signal);
        running.delete(id);
        if (mine !== state.opened) return;
        entries.set(key(task), entry);
        showEntry(task, entry);
      }
    };
    const workers = Math.max(1, state.tableWorkers);
    await Promise.all(Array.from({ length: workers }, (_, i) => runner(i, i === 0)));
  };
  const showPar = async () => {
    const found = await api("POST", "/api/par", { deal, entries: tasks.map((t) => entries.get(key(t))) }, signal);
    if (mine !== state.opened) return false;
    $("par-line").textContent = found.par.proven ? found.text
      : found.text.replace("par:", "par (provisional: it rests on early answers):");
    return true;
  };
  try {
    await pass([...tasks], { time_limit: EARLY_LIMIT }, (n) => `early answers: ${n} of 15 entries`);
    if (mine !== state.opened) return;
    if (!(await showPar())) return;
    const open = tasks.filter((t) => !entries.get(key(t)).proven);
    if (open.length) {
      await pass(open, {}, (_, proven) => `${proven} of 15 entries proven`);
      if (mine !== state.opened) return;
      $("table-progress").textContent = "the par\u2026";
      if (!(await showPar())) return;
    }
    $("table-progress").textContent = "";
  } catch (err) {
    failed = true;
    if (mine === state.opened && !dropped(err)) {
      $("table-progress").textContent = "";
      $("table-go").disabled = false;
      status(err.message, true);
    }
  }
}

async function openRecord(index, summary) {
  $("paste-error").textContent = "";
  try {
    await openDeal({ record: index }, summary);
  } catch (err) {
    if (!dropped(err)) status(err.message, true);
  }
}

async function openPasted() {
  const text = $("paste").value;
  const problem = $("paste-error");
  problem.textContent = "";
  let opened;  // settles once the pasted deal is shown, or the paste refused
  state.checking = new Promise((resolve) => { opened = resolve; });
  try {
    const checked = await api("POST", "/api/check", { text });
    if (checked.records.length !== 1) throw new Error(`<pasted>: ${checked.records.length} records; paste one record at a time`);
    $("record-list").selectedIndex = -1;
    const opening = openDeal({ text }, checked.records[0]);
    opened();
    await opening;
  } catch (err) {
    if (!dropped(err)) problem.textContent = err.message;
  } finally {
    opened();
  }
}

// -- the evaluation graph --------------------------------------------------------

async function analyse(mine) {
  const deal = dealSpec();
  delete deal.played;
  try {
    const answer = await api("POST", "/api/analyse", { deal }, state.abort.signal);
    if (mine !== state.opened) return;
    state.graph = answer;
    drawGraph();
  } catch (err) {
    if (mine === state.opened && !dropped(err)) status(err.message, true);
  }
}

function onRecordLine() {
  return state.line.slice(0, state.cursor).every((c, i) => c === state.recordPlay[i]);
}

function jumpTo(cursor) {
  if (!onRecordLine() || state.line.length < state.recordPlay.length) state.line = state.recordPlay.slice();
  goTo(cursor);
}

function drawGraph() {
  const panel = $("graph-panel");
  if (!state.graph) { panel.hidden = true; return; }
  panel.hidden = false;
  const { points, mistakes, make } = state.graph.graph;
  const W = 760, H = 230, left = 34, right = 12, top = 12, bottom = 28;
  const x = (i) => left + (i * (W - left - right)) / 36;
  const y = (v) => top + ((35 - v) * (H - top - bottom)) / 35;
  const svg = el("svg:svg", { viewBox: `0 0 ${W} ${H}`, class: "graph", role: "img", "aria-label": "evaluation graph" });
  svg.append(el("svg:rect", { x: left, y: top, width: W - left - right, height: y(make) - top, class: "band-make" }));
  for (let t = 0; t <= 12; t++) {
    svg.append(el("svg:line", { x1: x(3 * t), x2: x(3 * t), y1: top, y2: H - bottom, class: "grid" }));
    if (t) svg.append(el("svg:text", { x: x(3 * t - 1.5), y: H - bottom + 16, class: "axis" }, String(t)));
  }
  svg.append(el("svg:text", { x: left - 6, y: H - bottom + 16, class: "axis end" }, "trick"));
  for (const v of [0, 9, 18, 27, 35]) {
    svg.append(el("svg:text", { x: left - 6, y: y(v) + 4, class: "axis end" }, String(v)));
  }
  svg.append(el("svg:line", { x1: left, x2: W - right, y1: y(make), y2: y(make), class: "make" }));
  if (onRecordLine()) {
    svg.append(el("svg:line", { x1: x(state.cursor), x2: x(state.cursor), y1: top, y2: H - bottom, class: "cursor" }));
  }
  svg.append(el("svg:polyline", { points: points.map((v, i) => `${x(i)},${y(v)}`).join(" "), class: "eval" }));
  if (pimc.result && pimc.cards.length) {
    // the PIMC line from where it started, to compare with the record's own play
    const from = pimc.cards[0];
    const line = [[from.index, from.before], ...pimc.cards.map((c) => [c.index + 1, c.after])];
    svg.append(el("svg:polyline", { points: line.map(([i, v]) => `${x(i)},${y(v)}`).join(" "), class: "pimc-eval" },
      el("svg:title", {}, `the PIMC line ${fromText(pimc.from)}: ${pimc.result.soloist_thirds} thirds at the end`)));
  }
  points.forEach((v, i) => {
    const dot = el("svg:circle", { cx: x(i), cy: y(v), r: 3, class: "point" },
      el("svg:title", {}, i ? `after card ${i} (${state.recordPlay[i - 1]}): ${v} thirds` : `first lead: ${v} thirds`));
    dot.addEventListener("click", () => jumpTo(i));
    svg.append(dot);
  });
  const list = $("mistakes");
  list.replaceChildren();
  for (const m of mistakes) {
    const label = `trick ${m.trick}: seat ${m.seat} (${m.role}) played ${cardLabel(m.card)}, costs ${m.cost} (best ${m.best.map(cardLabel).join(" ")})${m.swing ? ", the contract changes hands" : ""}`;
    const mark = el("svg:circle", { cx: x(m.index + 1), cy: y(m.after), r: 6 + Math.min(m.cost, 6), class: `mistake seat-${m.seat}` },
      el("svg:title", {}, label));
    mark.addEventListener("click", () => jumpTo(m.index));
    svg.append(mark);
    svg.append(el("svg:text", { x: x(m.index + 1), y: y(m.after) - 12 - Math.min(m.cost, 6), class: `cost seat-${m.seat}` }, `\u2212${m.cost}`));
    list.append(el("li", { class: `seat-${m.seat}` }, el("button", { type: "button", class: "link", onclick: () => jumpTo(m.index) }, label)));
  }
  if (!mistakes.length) list.append(el("li", {}, "no mistakes: every card was double-dummy best"));
  $("graph").replaceChildren(svg);
}

// -- continue with PIMC ---------------------------------------------------------------

const pimc = {
  run: 0,           // the run shown: answers to any other are dropped
  abort: null,      // stops the run's request under way (and so its search on the server)
  running: false,
  from: 0,          // the cards played before the run's first
  played: [],       // the line from the first lead, as far as the run has played it
  cards: [],        // the PIMC cards, each judged double dummy (as analyse's cards)
  dd: null,         // the double-dummy answer from the run's position
  result: null,     // the score of the PIMC line, once it is played out
};

// A run under way ends when the board moves on (a card played, a step, another deal): it
// belongs to the position it started from.  A finished line stays, to be stepped through.
function stopPimc(note = "stopped: the board moved on") {
  if (!pimc.running) return;
  pimc.run++;
  pimc.running = false;
  if (pimc.abort) pimc.abort.abort();
  pimc.abort = null;
  pimc.cards = [];
  pimc.dd = null;
  drawPimc();
  $("pimc-progress").hidden = true;
  $("pimc-status").textContent = note;
}

function resetPimc() {
  stopPimc("");
  pimc.run++;
  pimc.cards = [];
  pimc.dd = null;
  pimc.result = null;
  drawPimc();
  $("pimc-status").textContent = "";
  $("pimc-panel").hidden = true;
}

function cardsLeft(view) {
  return view.seats.reduce((n, seat) => n + SUITS.reduce((k, s) => k + seat.hand[s].length, 0), 0);
}

// The rest of the deal, card by card (each a question the server can drop): PIMC players
// on every seat, the same line as `calasolve play --players pimc` from this position.
async function startPimc() {
  stopPimc("");
  const mine = ++pimc.run;
  const deal = state.opened;
  const body = { samples: Number($("pimc-samples").value), seed: Number($("pimc-seed").value), cards: 1 };
  const total = cardsLeft(state.view);
  let toMove = state.view.to_move;
  pimc.abort = new AbortController();
  pimc.running = true;
  pimc.from = state.cursor;
  pimc.played = state.line.slice(0, state.cursor);
  pimc.cards = [];
  pimc.dd = null;
  pimc.result = null;
  status("");
  drawPimc();
  const bar = $("pimc-progress");
  bar.max = total;
  bar.hidden = false;
  try {
    for (;;) {
      bar.value = pimc.cards.length;
      $("pimc-status").textContent = `card ${pimc.cards.length + 1} of ${total}: seat ${toMove} thinking\u2026`;
      const answer = await api("POST", "/api/pimc", { ...body, deal: dealSpec(pimc.played), double_dummy: !pimc.dd },
        pimc.abort.signal);
      if (mine !== pimc.run || deal !== state.opened) return;
      pimc.dd = pimc.dd || answer.double_dummy;
      pimc.cards.push(...answer.cards);
      pimc.played = answer.played;
      toMove = answer.to_move;
      if (answer.over) pimc.result = answer.result;
      drawPimc();
      if (answer.over) break;
    }
  } catch (err) {
    if (mine === pimc.run && !dropped(err)) {
      pimc.running = false;
      bar.hidden = true;
      drawPimc();  // the cards played before the error stay, to be looked at
      $("pimc-status").textContent = "";
      status(err.message, true);
    }
    return;
  }
  pimc.running = false;
  pimc.abort = null;
  bar.hidden = true;
  $("pimc-status").textContent = `done: ${count(pimc.cards.length, "card")} (${body.samples} samples a decision, seed ${body.seed})`;
  // the board's line is now the PIMC line: the arrows step through it
  state.line = pimc.played.slice();
  drawPimc();
  drawInfo(state.view);
}

function fromText(from) {
  return from ? `after ${count(from, "card")}` : "from the first lead";
}

function thirdsText(thirds, makes) {
  return `${count(thirds, "third")} (${Math.floor(thirds / 3)} points), ${makes ? "made" : "failed"}`;
}

function gamePoints(result) {
  return result ? ` \u00b7 game points ${result.payments.map(signedPoints).join(" / ")}` : "";
}

function drawPimc() {
  const line = $("pimc-line");
  line.replaceChildren();
  let trick = null;
  for (const c of pimc.cards) {
    if (!trick || c.trick !== Number(trick.dataset.trick)) {
      trick = el("li", { dataset: { trick: String(c.trick) } }, el("span", { class: "trick-no" }, `${c.trick}.`));
      line.append(trick);
    }
    const best = c.best.map(cardLabel).join(" ");
    const button = el("button", { type: "button", class: `pimc-card suit-${c.card.slice(-1)} ${lossClass(c.cost)}`, dataset: { index: String(c.index), card: c.card } },
      el("span", { class: "who" }, `seat ${c.seat}`), el("span", { class: "face" }, cardLabel(c.card)));
    if (c.cost) button.append(el("span", { class: "cost" }, `\u2212${c.cost}`));
    button.title = `trick ${c.trick}: seat ${c.seat} (${c.role}) played ${cardLabel(c.card)}: `
      + (c.cost ? `costs ${c.cost} (best ${best})` : "double-dummy best") + `; ${c.after} thirds after it`;
    button.disabled = pimc.running;
    button.addEventListener("click", () => {
      state.line = pimc.played.slice();
      goTo(c.index);
    });
    trick.append(button);
  }
  const result = $("pimc-result");
  result.replaceChildren();
  if (pimc.result && pimc.dd) {
    const cost = [0, 1, 2].map((seat) => pimc.cards.filter((c) => c.seat === seat).reduce((n, c) => n + c.cost, 0));
    const given = cost.map((n, seat) => `seat ${seat} ${count(n, "third")}`).join(", ");
    const dd = pimc.dd.result;
    result.append(
      el("p", { id: "pimc-final" }, el("strong", {}, `PIMC ${fromText(pimc.from)}: `),
        `the soloist ends with ${thirdsText(pimc.result.soloist_thirds, pimc.result.makes)}${gamePoints(pimc.result)}`,
        ` \u00b7 what its cards cost double dummy: ${given}`),
      el("p", { id: "pimc-dd" }, el("strong", {}, `Double dummy ${fromText(pimc.from)}: `),
        `the soloist ends with ${thirdsText(pimc.dd.soloist_thirds, pimc.dd.makes)}${gamePoints(dd)}`));
  }
  if (state.graph) drawGraph();
  $("pimc-dd-line").textContent = pimc.dd && pimc.result ? `Double-dummy line from there: ${ddLine(pimc.from, pimc.dd.line)}` : "";
  markPimc();
}

// The double-dummy line by trick (a trick is 3 cards from the first lead).
function ddLine(from, cards) {
  const tricks = [];
  cards.forEach((card, i) => {
    const t = Math.floor((from + i) / 3);
    if (!tricks.length || tricks[tricks.length - 1].t !== t) tricks.push({ t, cards: [] });
    tricks[tricks.length - 1].cards.push(cardLabel(card));
  });
  return tricks.map(({ t, cards: c }) => `${t + 1}. ${c.join(" ")}`).join(" \u00b7 ");
}

// On the PIMC line, its card about to be played at the position shown is marked.
function markPimc() {
  const onLine = state.cursor >= pimc.from && state.line.slice(0, state.cursor).every((c, i) => c === pimc.played[i]);
  for (const b of document.querySelectorAll(".pimc-card")) {
    b.classList.toggle("next", onLine && Number(b.dataset.index) === state.cursor);
  }
}

// -- advice -------------------------------------------------------------------------

const advice = {
  run: null,        // the run this page asked for: statuses of any other are dropped
  poll: null,       // the timer of the next poll
  abort: null,      // the poll under way
};

function forgetAdvice() {
  clearTimeout(advice.poll);
  if (advice.abort) advice.abort.abort();
  advice.abort = null;
}

async function startAdvice(event) {
  event.preventDefault();
  forgetAdvice();
  advice.run = null;
  $("advice-error").textContent = "";
  $("advice-panel").hidden = true;
  $("advice-progress").hidden = true;
  const body = {
    hand: $("advice-hand").value,
    seat: Number($("advice-seat").value),
    samples: Number($("advice-samples").value),
    seed: Number($("advice-seed").value),
    contracts: [...document.querySelectorAll("#advice-contracts input:checked")].map((box) => box.value),
    play: $("advice-play").value,
  };
  try {
    const run = await api("POST", "/api/advise", body);
    advice.run = run.run;
    adviceStatus(run);
  } catch (err) {
    $("advice-error").textContent = err.message;
  }
}

function adviceStatus(run) {
  if (run.run !== advice.run) return;  // another run's (an older question's): not this page's answer
  const bar = $("advice-progress");
  const running = run.state === "running";
  $("advice-cancel").disabled = !running;
  bar.hidden = !running;
  if (running) {
    bar.max = run.total;
    bar.value = run.done;
    clearTimeout(advice.poll);
    advice.poll = setTimeout(pollAdvice, 400);
  } else if (run.state === "done") {
    drawAdvice(run.result);
  } else if (run.state === "error") {
    $("advice-error").textContent = run.error;
  } else if (run.state === "cancelled") {
    $("advice-error").textContent = "cancelled";
  }
}

async function pollAdvice() {
  const run = advice.run;
  advice.abort = new AbortController();
  try {
    adviceStatus(await api("GET", "/api/advise", undefined, advice.abort.signal));
  } catch (err) {
    if (run === advice.run && !dropped(err)) $("advice-error").textContent = err.message;
  }
}

async function cancelAdvice() {
  forgetAdvice();
  const run = advice.run;
  if (run === null) return;
  try {
    adviceStatus(await api("DELETE", `/api/advise?run=${run}`));
  } catch (err) {
    if (run === advice.run) $("advice-error").textContent = err.message;
  }
}

// A page that goes away stops its own advice run (the server also stops runs nobody polls).
function leaving() {
  if (advice.run !== null && !$("advice-cancel").disabled) {
    fetch(`/api/advise?run=${advice.run}`, { method: "DELETE", keepalive: true }).catch(() => {});
  }
  if (state.abort) state.abort.abort();
  if (pimc.abort) pimc.abort.abort();
}

// The advice at a glance, as `calasolve advise` prints it (docs/advisor.md): the answer on one line,
// one table in bidding order (pass at 0) with the double-dummy floor, the chart of P(make) per
// contract (as `advise --plot` draws it), what it rests on, and the method behind "How".
const CONTRACT_ORDER = ["chiamo", "solo", "solissimo", "dividete", "scegliete"];

// Game points as a player reads them: one decimal under 10, whole numbers above.
function gamePoints(v) {
  if (v === null || v === undefined || Number.isNaN(v)) return "?";
  if (Math.abs(v) < 0.05) return "0.0";
  const size = Math.abs(v) < 9.95 ? Math.abs(v).toFixed(1) : Math.abs(v).toFixed(0);
  return (v > 0 ? "+" : "-") + size;
}

function odds(p) {
  if (p === null || p === undefined) return "-";
  return p > 0 && p < 0.005 ? "<1%" : `${Math.round(100 * p)}%`;
}

function oddsSpan(r) {
  return r && r[0] !== null && r[1] !== null ? `${Math.round(100 * r[0])}-${Math.round(100 * r[1])}%` : "";
}

function pointsSpan(r) {
  return r && r[0] !== null && r[1] !== null ? `${gamePoints(r[0])} to ${gamePoints(r[1])}` : "";
}

function choiceRank(choice) {
  return CONTRACT_ORDER.indexOf(choice) + 1;  // pass first
}

// The rows in bidding order, the recommendation and its toss-ups, the two closest in game points.
function adviceGlance(result) {
  const played = result.played || null;
  const dd = Object.fromEntries(result.contracts.map((c) => [c.contract, c]));
  const main = played ? Object.fromEntries(played.contracts.map((c) => [c.contract, c])) : dd;
  const rows = [{ choice: "pass", p: null, p95: null, points: 0, points95: null, floor: null, floor95: null }];
  for (const c of CONTRACT_ORDER) {
    if (!main[c]) continue;
    rows.push({ choice: c, p: main[c].p_make, p95: main[c].p_make_95, points: main[c].expected_points,
      points95: main[c].expected_points_95, floor: played ? dd[c].p_make : null, floor95: played ? dd[c].p_make_95 : null,
      main: main[c], dd: dd[c] });
  }
  const row = (choice) => rows.find((r) => r.choice === choice);
  const best = row(result.recommendation).points;
  const closest = result.toss_up.filter((c) => row(c))
    .sort((a, b) => Math.abs(row(a).points - best) - Math.abs(row(b).points - best) || choiceRank(a) - choiceRank(b))
    .slice(0, 2);
  return { rows, row, played, recommendation: result.recommendation, tossUp: result.toss_up, closest };
}

function adviceAnswer(g) {
  const rec = g.row(g.recommendation);
  const names = g.closest.join(", ");
  if (rec.choice === "pass") {
    return el("p", { class: "info answer" }, el("strong", {}, "Pass"),
      names ? `: no bid clearly gains; as good within the noise: ${names}` : ": every bid clearly loses game points");
  }
  const tail = names ? `; as good within the noise: ${names}` : "; clearly the best";
  return el("p", { class: "info answer" }, el("strong", {}, `Bid ${rec.choice}`),
    `: makes ${odds(rec.p)} (${oddsSpan(rec.p95)}), ${gamePoints(rec.points)} game points ` +
    `(${pointsSpan(rec.points95)})${tail}`);
}

function oddsBar(p) {
  const svg = el("svg:svg", { viewBox: "0 0 100 10", class: "odds-bar", "aria-hidden": "true" },
    el("svg:rect", { x: 0, y: 0, width: 100, height: 10, class: "track" }));
  if (p !== null && p !== undefined) svg.append(el("svg:rect", { x: 0, y: 0, width: 100 * p, height: 10, class: "fill" }));
  return svg;
}

function adviceTable(g) {
  const head = el("tr", {}, el("th", {}, ""), el("th", {}, "bid"),
    el("th", { colspan: 2 }, g.played ? "P(make) under play" : "P(make) double dummy"), el("th", {}, "game points (95%)"));
  if (g.played) head.append(el("th", { title: "double dummy: defenders who see every card" }, "DD floor"));
  const body = el("tbody");
  for (const r of g.rows) {
    const chosen = r.choice === g.recommendation, tie = g.tossUp.includes(r.choice);
    const mark = chosen ? ">" : tie ? "~" : "";
    const tr = el("tr", { class: chosen ? "chosen" : tie ? "toss-up" : "" },
      el("td", { class: "mark", title: chosen ? "the bid" : tie ? "as good within the noise" : "" }, mark),
      el("th", {}, r.choice));
    if (r.choice === "pass") {
      tr.append(el("td", {}, ""), el("td", {}, ""), el("td", { class: "num" }, "0"));
      if (g.played) tr.append(el("td", {}, ""));
    } else {
      tr.append(el("td", {}, oddsBar(r.p)), el("td", { class: "num" }, `${odds(r.p)} (${oddsSpan(r.p95)})`),
        el("td", { class: "num" }, `${gamePoints(r.points)} (${pointsSpan(r.points95)})`));
      if (g.played) tr.append(el("td", { class: "num" }, odds(r.floor)));
    }
    body.append(tr);
  }
  return el("table", { class: g.played ? "odds" : "odds dd" }, el("thead", {}, head), body);
}

// P(make) per contract in bidding order with its 95% interval: the main odds and, beside them,
// the double-dummy floor; the recommendation green, the expected game points under each.
function adviceChart(g) {
  const rows = g.rows.filter((r) => r.choice !== "pass");
  const W = 560, H = 250, left = 44, right = 8, top = 30, bottom = 42;
  const y = (p) => top + (1 - Math.min(1, Math.max(0, p))) * (H - top - bottom);
  const group = Math.min(100, (W - left - right) / Math.max(1, rows.length));
  const start = left + (W - left - right - group * rows.length) / 2;  // few contracts: centred, not wide
  const width = g.played ? group * 0.34 : group * 0.5;
  const svg = el("svg:svg", { viewBox: `0 0 ${W} ${H}`, class: "advice" + (g.played ? " with-played" : ""),
    role: "img", "aria-label": "advice chart" });
  const mainClass = g.played ? "bar odds-played" : "pmake";
  const legend = el("svg:g", { class: "advice-legend" },
    el("svg:rect", { x: left, y: 6, width: 12, height: 10, class: g.played ? "swatch odds-played" : "swatch main" }),
    el("svg:text", { x: left + 16, y: 15, class: "axis" }, g.played ? "under play (own hand only)" : "double dummy (every card seen)"));
  if (g.played) {
    legend.append(el("svg:rect", { x: left + 200, y: 6, width: 12, height: 10, class: "swatch odds-dd" }),
      el("svg:text", { x: left + 216, y: 15, class: "axis" }, "double dummy (the floor)"));
  }
  svg.append(legend);
  for (const p of [0, 0.5, 1]) {
    svg.append(el("svg:line", { x1: left, x2: W - right, y1: y(p), y2: y(p), class: "grid" }));
    svg.append(el("svg:text", { x: left - 6, y: y(p) + 4, class: "axis end" }, `${p * 100}%`));
  }
  const bar = (x, p, range, cls, title) => {
    const value = p === null || p === undefined ? 0 : p;
    svg.append(el("svg:rect", { x, y: y(value), width, height: y(0) - y(value), class: cls }, el("svg:title", {}, title)));
    if (range && range[0] !== null && range[1] !== null) {
      const mid = x + width / 2;
      svg.append(el("svg:line", { x1: mid, x2: mid, y1: y(range[0]), y2: y(range[1]), class: "interval" }));
      for (const end of range) svg.append(el("svg:line", { x1: mid - 4, x2: mid + 4, y1: y(end), y2: y(end), class: "interval" }));
    }
    svg.append(el("svg:text", { x: x + width / 2, y: y(0) - 3, class: "axis mid on-bar" + (value > 0.12 ? " inside" : "") }, odds(p)));
  };
  rows.forEach((r, i) => {
    const centre = start + (i + 0.5) * group;
    const chosen = r.choice === g.recommendation;
    const x = g.played ? centre - width : centre - width / 2;
    const what = g.played ? "played" : "double dummy";
    bar(x, r.p, r.p95, mainClass + (chosen ? " chosen" : ""),
      `${r.choice}, ${what}: P(make) ${odds(r.p)} (95%: ${oddsSpan(r.p95)}), ${gamePoints(r.points)} game points (95%: ${pointsSpan(r.points95)})` +
      (g.played ? `; ${r.main.deals} deals played out: ${r.main.makes} made (double dummy ${r.main.dd_makes})` : `, ${r.main.samples} samples`));
    if (g.played) {
      bar(centre, r.floor, r.floor95, "bar odds-dd",
        `${r.choice}, double dummy: P(make) ${odds(r.floor)} (95%: ${oddsSpan(r.floor95)}), ${gamePoints(r.dd.expected_points)} game points, ${r.dd.samples} samples`);
    }
    svg.append(el("svg:text", { x: centre, y: H - bottom + 16, class: "axis mid" + (chosen ? " strong chosen" : "") }, r.choice));
    svg.append(el("svg:text", { x: centre, y: H - bottom + 30, class: "axis mid" + (chosen ? " chosen" : "") }, `${gamePoints(r.points)} pts`));
  });
  return svg;
}

function drawAdvice(result) {
  const g = adviceGlance(result);
  const played = g.played;
  const solved = result.contracts.reduce((n, c) => n + c.samples, 0);
  const deals = played ? played.contracts.reduce((n, c) => n + c.deals, 0) : 0;
  const rests = `${count(solved, "deal")} solved double dummy${deals ? `, ${deals} played out` : ""}; ${result.seconds.toFixed(1)} s`;
  const how = el("details", { class: "how" }, el("summary", {}, "How: the method"),
    el("p", { class: "note" }, `Hand ${result.hand}, seat ${result.seat}, up to ${result.samples} samples per contract ` +
      `(${result.sampling}), seed ${result.seed}; ${result.policy_notes.soloist}; ${result.policy_notes.defenders}.`));
  if (played) {
    const first = played.contracts.length ? played.contracts[0].deals : 0;
    const ddTies = result.dd_toss_up.length ? ` (a toss-up with ${result.dd_toss_up.join(", ")})` : "";
    how.append(
      el("p", { class: "note" }, `Played: the first ${count(first, "deal")} of each contract played out by ${played.players}; ` +
        `the defenders' exchange policy ${played.defender_policy}.`),
      el("p", { class: "note" }, `Recommendation, on the played odds: ${result.recommendation} \u2014 ${result.reason}`),
      el("p", { class: "note dd-recommendation" }, `Double dummy alone (the floor): ${result.dd_recommendation}${ddTies} \u2014 ${result.dd_reason}`),
      el("p", { class: "note" }, `Played intervals: ${played.interval_method}`));
  } else {
    how.append(el("p", { class: "note" }, `Recommendation: ${result.recommendation} \u2014 ${result.reason}`));
  }
  how.append(el("p", { class: "note" }, `Intervals: 95% ${result.interval_method}; game points by ${result.payoff_method}.`));
  const legend = g.tossUp.length ? [el("p", { class: "note" }, "> the bid, ~ as good within the noise")] : [];
  $("advice-chart").replaceChildren(adviceAnswer(g), adviceTable(g), ...legend, adviceChart(g),
    el("p", { class: "note rests" }, rests), how);
  $("advice-panel").hidden = false;
}

// -- advice for a seat's decision ------------------------------------------------------

let seatAbort = null;  // stops the seat's advice under way when another is asked

async function seatAdvice(pasted) {
  const body = {};
  if (pasted) {
    body.text = $("seat-paste").value;
  } else {
    if (!state.deal) {
      $("seat-error").textContent = "open a deal first, or paste a view";
      return;
    }
    body.deal = dealSpec(state.line.slice(0, state.cursor));
    body.seat = Number($("seat-which").value);
  }
  const layouts = $("seat-layouts").value;
  if (layouts) body.layouts = Number(layouts);
  if (seatAbort) seatAbort.abort();
  seatAbort = new AbortController();
  $("seat-error").textContent = "";
  $("seat-status").textContent = "playing the options out\u2026";
  try {
    drawSeatAdvice(await api("POST", "/api/seat-advice", body, seatAbort.signal));
    $("seat-status").textContent = "";
  } catch (err) {
    if (!dropped(err)) {
      $("seat-status").textContent = "";
      $("seat-error").textContent = err.message;
    }
  }
}

function drawSeatAdvice(answer) {
  $("seat-result").replaceChildren(...seatAdviceNodes(answer));
  $("seat-panel").hidden = false;
}

// -- a seat's decisions against its view's advice ------------------------------------------------

const review = { abort: null, game: null };

function verdictOf(advice, taken) {
  const i = advice.options.findIndex((o) => o.option === taken);
  if (i === 0) return ["best", "the advice's choice"];
  if (i < 0) return ["close", `not among the ${count(advice.options.length, "option")} the advice valued`];
  const o = advice.options[i];
  if (o.behind === 0) return ["best", `as good as ${advice.recommendation} (an equal choice)`];
  const behind = `${o.behind.toFixed(2)} game points behind ${advice.recommendation} (${pointsRange(o.behind_95)})`;
  return o.behind_95[0] > 0 ? ["mistake", `a mistake: ${behind}`] : ["close", `within the noise: ${behind}`];
}

function decisionLine(d, answer) {
  const where = d.trick ? `trick ${d.trick}, ` : "";
  const item = el("li", { dataset: { kind: d.kind } }, `${where}${d.kind}: chose ${d.taken}`);
  if (!answer) return item;
  const [kind, text] = verdictOf(answer.advice, d.taken);
  const best = answer.advice.options[0];
  item.dataset.verdict = kind;
  item.append(" — ", el("span", { class: `verdict-${kind}` }, text),
    el("span", { class: "note" }, ` · advice: ${answer.advice.recommendation} ${signedPoints(best.points)}` +
      (d.hint ? " · you asked for this hint" : "")));
  return item;
}

async function reviewDecisions() {
  if (!state.deal) {
    $("decisions-status").textContent = "open a record first";
    return;
  }
  if (review.abort) review.abort.abort();
  const abort = review.abort = new AbortController();
  const seat = Number($("decisions-seat").value);
  const list = $("decisions-list");
  list.replaceChildren();
  $("decisions-summary").textContent = "";
  $("decisions-stop").disabled = false;
  const progress = $("decisions-progress");
  try {
    const body = { deal: dealSpec([]), seat };
    delete body.deal.played;
    if (review.game) body.game = review.game;
    const { decisions } = await api("POST", "/api/decisions", body, abort.signal);
    progress.hidden = false;
    progress.max = decisions.length;
    const tally = { best: 0, close: 0, mistake: 0 };
    for (const [i, d] of decisions.entries()) {
      progress.value = i;
      $("decisions-status").textContent = `decision ${i + 1} of ${decisions.length}…`;
      const hinted = d.hint && d.hint.advice.options.some((o) => o.option === d.taken);
      const answer = hinted ? d.hint : await api("POST", "/api/seat-advice", { text: d.text, include: d.actions }, abort.signal);
      const line = decisionLine(d, answer);
      tally[line.dataset.verdict] += 1;
      list.append(line);
    }
    $("decisions-status").textContent = "";
    $("decisions-summary").textContent = `seat ${seat}: ${count(decisions.length, "decision")}; the advice's choice at ` +
      `${tally.best}, within the noise at ${tally.close}, ${count(tally.mistake, "mistake")} the seat could have seen`;
  } catch (err) {
    if (!dropped(err)) $("decisions-status").textContent = err.message;
  } finally {
    progress.hidden = true;
    if (review.abort === abort) $("decisions-stop").disabled = true;
  }
}

function forgetReview() {
  if (review.abort) review.abort.abort();
  review.game = null;
  $("decisions-list").replaceChildren();
  $("decisions-summary").textContent = "";
  $("decisions-status").textContent = "";
}

function stopReview() {
  if (review.abort) review.abort.abort();
  $("decisions-status").textContent = "stopped";
  $("decisions-stop").disabled = true;
}

// A finished game of the game page (/?game=ID): its record opens here, with its player's decisions reviewed.
async function openGame(id) {
  const v = await api("GET", `/api/game/${encodeURIComponent(id)}`);
  if (!v.record) throw new Error(`game ${id}: ${v.over ? "everybody passed: there is no play to review" : "the deal is not over yet"}`);
  $("paste").value = v.record;
  await openPasted();
  review.game = id;
  $("decisions-seat").value = String(v.seat);
  judgeExchange();  // queued beside the decisions' advice: the server answers slow questions one at a time
  await reviewDecisions();
  if (review.game === id) await computeTable();
}

// The exchange made against the double-dummy best (`calasolve analyse --exchange`), under the evaluation graph.
async function judgeExchange() {
  const mine = state.opened;
  const deal = dealSpec();
  delete deal.played;
  const line = $("exchange-judged");
  line.textContent = "judging the exchange against the best one\u2026";
  try {
    const { analysis } = await api("POST", "/api/analyse", { deal, exchange: true }, state.abort.signal);
    if (mine !== state.opened) return;
    const ex = analysis.exchange;
    line.textContent = !ex ? "no exchange in this contract" :
      `The exchange (made by the ${ex.chosen_by}): ${ex.actual} thirds for the soloist double dummy; the best, ` +
      `${ex.best_exchange}, gives ${ex.best}` + (ex.cost ? `: the exchange made cost ${count(ex.cost, "third")}.` : ": it was the best.");
  } catch (err) {
    if (mine === state.opened && !dropped(err)) line.textContent = err.message;
  }
}

// -- start ---------------------------------------------------------------------------

function onKey(event) {
  if (["INPUT", "TEXTAREA", "SELECT"].includes(event.target.tagName)) return;
  const actions = { ArrowLeft: undo, ArrowRight: redo, Home: () => goTo(0), End: () => goTo(state.line.length) };
  const action = actions[event.key];
  if (action) {
    event.preventDefault();
    action();
  }
}

async function start() {
  $("go-start").addEventListener("click", () => goTo(0));
  $("go-back").addEventListener("click", undo);
  $("go-forward").addEventListener("click", redo);
  $("go-end").addEventListener("click", () => goTo(state.line.length));
  $("open-paste").addEventListener("click", openPasted);
  $("table-go").addEventListener("click", computeTable);
  $("pimc-go").addEventListener("click", startPimc);
  $("advice-form").addEventListener("submit", startAdvice);
  $("advice-cancel").addEventListener("click", cancelAdvice);
  $("seat-shown").addEventListener("click", () => seatAdvice(false));
  $("seat-go").addEventListener("click", () => seatAdvice(true));
  document.addEventListener("keydown", onKey);
  const { file, records, table_workers: tableWorkers } = await api("GET", "/api/records");
  state.tableWorkers = tableWorkers || 1;
  $("file-name").textContent = file ? `${file}: ${records.length} records` : "no file: paste a record below";
  const list = $("record-list");
  records.forEach((r) => list.append(el("option", { value: r.index }, `${r.index}. ${r.name || r.contract} (${r.contract})`)));
  list.addEventListener("change", () => {
    const r = records[list.selectedIndex];
    if (r) openRecord(r.index, r);
    list.blur();  // the arrow keys step through the play, not the list
  });
  window.addEventListener("pagehide", leaving);
  $("decisions-go").addEventListener("click", reviewDecisions);
  $("decisions-stop").addEventListener("click", stopReview);
  const fromGame = new URLSearchParams(window.location.search).get("game");
  if (fromGame) {
    await openGame(fromGame);
  } else if (records.length) {
    list.selectedIndex = 0;
    await openRecord(1, records[0]);
  } else {
    status("paste a record to begin");
  }
}

start().catch((err) => status(err.message, true));
