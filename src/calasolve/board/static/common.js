// What the board's two pages share: building the page, asking the JSON API, cards and points as text.
"use strict";

const SUITS = ["B", "S", "C", "D"];
const SYMBOL = { B: "\u2663", S: "\u2660", C: "\u2665", D: "\u2666" };
const SVG = "http://www.w3.org/2000/svg";

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.setAttribute("class", v);
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function count(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function cardLabel(token) {
  return token.slice(0, -1) + SYMBOL[token.slice(-1)];
}

function status(text, isError = false) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("error", isError);
}

// A request that was aborted because its answer is no longer wanted: dropped silently.
function dropped(err) {
  return err.name === "AbortError";
}

async function api(method, path, body, signal) {
  const options = { method, headers: {}, signal };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    if (dropped(err)) throw err;
    throw new Error(`the board's server does not answer (${err.message})`);
  }
  const text = await response.text();
  let data = null;
  try {
    data = JSON.parse(text);
  } catch {
    // not our JSON (a proxy's page, a crash): its status and first line
  }
  if (!response.ok) {
    const said = data && data.error ? data.error : text.split("\n")[0].trim() || response.statusText;
    throw new Error(data && data.error ? said : `${response.status} ${said}`.trim());
  }
  if (data === null) throw new Error(`${path}: the answer is not JSON`);
  return data;
}

function signedPoints(x) {
  const text = Number.isInteger(x) ? String(x) : x.toFixed(1);
  return x > 0 ? `+${text}` : text;
}

function pointsRange(pair) {
  return `${signedPoints(pair[0])} to ${signedPoints(pair[1])}`;
}

// The seat's-view advice (docs/seat.md) as the board and the game page show it: the view, the answer, a row per option.
function seatAdviceNodes({ advice, text }) {
  const best = advice.options[0];
  const card = advice.decision === "card";
  const verdict = advice.clear ? "clearly best" : "not clearly better than every other option";
  const answer = el("p", { class: "info seat-answer" }, `Seat ${advice.seat}, ${advice.decision}: ` +
    `${advice.recommendation}, ${signedPoints(best.points)} game points (${pointsRange(best.points_95)}); ${verdict}`);
  const heads = ["option", "game points", "95%", "behind the best", "95%", ...(card ? ["dd thirds"] : [])];
  const rows = advice.options.map((o, i) => el("tr", i === 0 ? { class: "best" } : {},
    el("td", {}, o.option), el("td", {}, signedPoints(o.points)), el("td", {}, pointsRange(o.points_95)),
    el("td", {}, i === 0 ? "-" : o.behind.toFixed(2)), el("td", {}, i === 0 ? "" : pointsRange(o.behind_95)),
    ...(card ? [el("td", {}, o.dd === null ? "" : o.dd.toFixed(1))] : [])));
  const table = el("table", { class: "seat-table" }, el("tr", {}, ...heads.map((h) => el("th", {}, h))), ...rows);
  const rests = el("p", { class: "note" }, `${advice.layouts} deals per option from the bidding model's posterior ` +
    `(${advice.proposed} drawn), played by the ${advice.players}; seed ${advice.seed}; ${advice.seconds.toFixed(1)} s`);
  return [el("pre", { class: "note seat-view" }, text), answer, table, rests];
}
