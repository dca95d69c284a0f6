// The marker's page of the scorekeeping mode: a new club match, then the strokes of a real match as the marker
// saw them, fast with the keyboard and by touch. The server's referee rules every entry; this page shows only
// what the server answered (nothing is confirmed before it said 200), and every refusal's `detail` visibly.

import { ApiError, api, clubApi, exportsOf } from "./api.js";
import {
  $,
  CUE_BALLS,
  MiniTable,
  find,
  beep,
  choosingStarter,
  fmtPoint,
  nameOf,
  onTablePointer,
  otherWhite,
  playing,
  renderBoard,
  renderClock,
  rulingBlock,
  spotAt,
  setSkew,
  spotLabel,
  takenSpots,
  watch,
  whoOf,
} from "./club-common.js";
import { ClubError, EntryQueue, QueuedError, entryKey, serverTime } from "./club-queue.js";
import { applyLabels, lang, onLangChange, ruleText, setLang, t } from "./i18n.js";
import * as placement from "./placement.js";
import { BALL_IDS, POCKET_IDS, dist } from "./table.js";
import { ballChip, el, fmtClock, fmtPoints } from "./ui.js";

const RECENT_KEY = "kaisa.club.recent";
const EVENT_KEY = "kaisa.club.event";
const BALL_KEYS = { 1: "W1", 2: "W2", 3: "R1", 4: "R2", 5: "K", k: "K" };
const POCKET_KEYS = { q: "FL", w: "FR", a: "ML", s: "MR", z: "HL", x: "HR" };
const TARGET_KEYS = { c: "call", d: "pots", f: "first", n: "nakki", o: "off" };
const POCKET_LAYOUT = ["FL", "FR", "ML", "MR", "HL", "HR"]; // two columns: the table seen from the head end
const SNAP = 0.03; // m: a ball dragged this near a free spot is put on it
const MAX_BREAK = 300; // s (6)

const club = { table: null, geo: null, tables: null, session: 0, page: null, vocab: { fields: [], flags: [] } };

/** The fields of `marks` this page edits itself (besides the yes/no facts of the vocabulary): a correction keeps
 * every other field of the stored entry as it was. */
const EDITED = ["pots", "off_table", "first_contact", "nakki", "called_as_called", "moves", "cushion_pots", "place", "struck", "talonmies_angle", "hand_fault", "late_fall"];

// --- messages -------------------------------------------------------------------------------------------------

let shownMessage = null; // the message's text in the current language, when it can be said again

/** A message in the top bar. Given as a function (`() => t(...)`), it is said again in the other language when
 * the language is switched. */
function showMessage(text, kind = "error") {
  shownMessage = typeof text === "function" ? text : null;
  $("message-text").textContent = typeof text === "function" ? text() : text;
  const box = $("message");
  box.className = `message ${kind}`;
  box.dataset.kind = kind;
  box.hidden = false;
}

function showError(error) {
  console.error(error);
  if (error instanceof ClubError) {
    showMessage(error.said(lang()), "error");
    return;
  }
  showMessage(error && error.message ? error.message : String(error), "error");
}

function clearMessage() {
  $("message").hidden = true;
  $("message-text").textContent = "";
}

function showScreen(name) {
  for (const id of ["screen-new", "screen-created", "screen-match"]) $(id).hidden = id !== `screen-${name}`;
  document.body.dataset.screen = name;
}

// --- matches kept on this device ------------------------------------------------------------------------------

function recent() {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function remember(entry) {
  const list = [entry, ...recent().filter((m) => m.id !== entry.id)].slice(0, 20);
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(list));
  } catch {
    // private mode: the links are shown once
  }
}

function recentOf(id) {
  return recent().find((m) => m.id === id) || null;
}

// --- a new match ----------------------------------------------------------------------------------------------

function enterNew() {
  showScreen("new");
  const form = $("form-new");
  form.event.value = form.event.value || localStorage.getItem(EVENT_KEY) || "";
  renderBreakerNames();
  const list = recent();
  $("recent").hidden = list.length === 0;
  $("recent-list").replaceChildren(
    ...list.map((m) =>
      el(
        "li",
        { "data-testid": "recent-item", dataset: { matchId: m.id } },
        el("span", {}, `#${m.id} ${m.names.join(" – ")}${m.event ? ` · ${m.event}` : ""}`),
        el("a", { class: "button small", href: `#/match/${m.id}/${m.token}` }, t("club.new.open")),
        el("a", { class: "button small", href: `/scoreboard#/match/${m.id}`, target: "_blank", rel: "noopener" }, t("club.new.watch")),
        el("a", { class: "button small", href: `#/created/${m.id}`, "data-testid": "recent-qr" }, t("club.new.qr")),
      ),
    ),
  );
}

function renderBreakerNames() {
  const form = $("form-new");
  $("breaker-name-0").textContent = form.name1.value.trim() || t("club.new.player1");
  $("breaker-name-1").textContent = form.name2.value.trim() || t("club.new.player2");
}

const CREATE_RETRY_MS = [1000, 2000, 4000];
let creation = null; // {key, body}: the new match's key, kept until the server answers (one match per form sent)

/** POST the new match with its key; a dropped connection is tried again with the same key (one match is made). */
async function postNewMatch(body) {
  const json = JSON.stringify(body);
  if (!creation || creation.body !== json) creation = { key: entryKey(), body: json };
  const headers = { "content-type": "application/json", "Idempotency-Key": creation.key };
  for (let attempt = 0; ; attempt++) {
    let response;
    try {
      response = await fetch("/api/club/matches", { method: "POST", headers, body: json });
    } catch (error) {
      if (attempt >= CREATE_RETRY_MS.length) throw new Error(t("club.new.offline"), { cause: error });
      await new Promise((resolve) => setTimeout(resolve, CREATE_RETRY_MS[attempt]));
      continue;
    }
    const data = await response.json().catch(() => null);
    if ([502, 503, 504].includes(response.status) && attempt < CREATE_RETRY_MS.length) {
      await new Promise((resolve) => setTimeout(resolve, CREATE_RETRY_MS[attempt]));
      continue;
    }
    if (!response.ok) throw new ClubError(response.status, data);
    creation = null;
    return data;
  }
}

async function createMatch(event) {
  event.preventDefault();
  const form = $("form-new");
  const names = [form.name1.value.trim(), form.name2.value.trim()];
  const night = form.event.value.trim();
  const body = {
    players: names,
    lag_winner: Number(form.lagWinner.value),
    winner_takes: form.takes.value,
    clock: form.clock.checked ? "wall" : "off",
  };
  if (night) body.event = night;
  const table = form.table.value.trim();
  if (table) body.table = table;
  const button = $("create");
  button.disabled = true;
  try {
    const made = await postNewMatch(body);
    const id = made.match.id;
    remember({ id, token: made.token, names, event: night || null, marker: made.marker_url, scoreboard: made.scoreboard_url });
    try {
      if (night) localStorage.setItem(EVENT_KEY, night);
    } catch {
      // private mode
    }
    clearMessage();
    location.hash = `#/created/${id}`;
  } catch (error) {
    showError(error);
  } finally {
    button.disabled = false;
  }
}

function enterCreated(id) {
  const kept = recentOf(id);
  if (!kept) {
    location.hash = "#/new";
    return;
  }
  showScreen("created");
  const origin = location.origin;
  $("created-title").textContent = t("club.created.title", { id, a: kept.names[0], b: kept.names[1] });
  $("marker-link").value = origin + kept.marker;
  $("scoreboard-link").value = origin + kept.scoreboard;
  $("open-scoreboard").href = kept.scoreboard;
  $("event-link-row").hidden = !kept.event;
  if (kept.event) {
    const board = `/scoreboard#/event/${encodeURIComponent(kept.event)}`;
    $("event-link").value = origin + board;
    $("open-event").href = board;
  }
  $("start-marking").href = kept.marker;
  $("scoresheet-link").href = `/club/scoresheet#/match/${id}`;
  // the marker's link as a QR code, made by the server with its address on the club's network
  const box = $("marker-qr");
  box.replaceChildren();
  $("marker-qr-local").hidden = true;
  fetch(`/api/club/matches/${id}/marker-qr`, { headers: { "X-Kaisa-Token": kept.token } })
    .then(async (response) => {
      if (!response.ok) return;
      // a server listening on this machine only: no phone can open the link, so no code; how to start it for phones
      const local = response.headers.get("x-marker-local") === "1";
      $("marker-qr-local").hidden = !local;
      box.parentElement.querySelector("figcaption").hidden = local;
      $("marker-qr-url").textContent = local ? "" : response.headers.get("x-marker-url") || "";
      if (local) return;
      const svg = new DOMParser().parseFromString(await response.text(), "image/svg+xml").documentElement;
      svg.setAttribute("data-testid", "marker-qr-svg");
      svg.setAttribute("role", "img");
      box.replaceChildren(svg);
    })
    .catch(() => {});
}

// --- the stroke entry -----------------------------------------------------------------------------------------

function newEntry() {
  return {
    callText: "",
    legal: true,
    pots: [], // [ball, pocket]
    pending: null, // a ball picked, waiting for its pocket
    first: null,
    nakki: new Set(),
    off: new Set(),
    place: null,
    moves: {},
    wrongBall: false,
    flags: {}, // the yes/no facts of the marker's vocabulary, by field name
    kept: {}, // fields of a stored entry this page does not edit (a correction sends them back as they were)
    cushion: new Set(),
    lateBall: "",
    lateBy: "",
    talonmies: "",
    handFault: "",
    target: "call",
    forfeit: null,
  };
}

/** The entry a stored marked stroke was made from (for a correction); `ctx` is the stroke's context. */
function entryOf(action, ctx) {
  const e = action.entry;
  const entry = newEntry();
  entry.callText = action.call || "";
  entry.legal = e.called_as_called;
  entry.pots = e.pots.map((p) => [p[0], p[1]]);
  entry.first = e.first_contact;
  entry.nakki = new Set(e.nakki);
  entry.off = new Set(e.off_table);
  entry.place = ctx.fromHand ? e.start.balls[ctx.shooter] || null : null;
  for (const [ball, p] of Object.entries(e.final.balls)) {
    const was = e.start.balls[ball];
    if (!was || was[0] !== p[0] || was[1] !== p[1]) entry.moves[ball] = p;
  }
  entry.wrongBall = e.cue_ball !== ctx.shooter;
  for (const flag of club.vocab.flags) entry.flags[flag.name] = Boolean(e[flag.name]);
  const flagNames = new Set(club.vocab.flags.map((f) => f.name));
  for (const name of club.vocab.fields) {
    if (name in e && !EDITED.includes(name) && !flagNames.has(name)) entry.kept[name] = e[name];
  }
  entry.cushion = new Set(e.cushion_pots);
  entry.lateBall = e.late_fall ? e.late_fall.ball : "";
  entry.lateBy = e.late_fall && e.late_fall.caused_by ? e.late_fall.caused_by : "";
  entry.talonmies = e.talonmies_angle === null || e.talonmies_angle === undefined ? "" : String(e.talonmies_angle);
  entry.handFault = e.hand_fault || "";
  entry.target = "pots";
  return entry;
}

function callParts(text) {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  const ball = tokens[0] && BALL_IDS.includes(tokens[0].toUpperCase()) ? tokens[0].toUpperCase() : null;
  const pocket = tokens[1] && POCKET_IDS.includes(tokens[1].toUpperCase()) ? tokens[1].toUpperCase() : null;
  return { tokens, ball, pocket };
}

function ballButton(prefix, ball, onClick) {
  return el(
    "button",
    { type: "button", class: "pick ball-pick", "data-testid": `${prefix}-${ball}`, dataset: { ball }, onclick: () => onClick(ball) },
    ballChip(ball),
    el("span", {}, ball),
  );
}

function pocketButton(prefix, pocket, onClick) {
  return el("button", { type: "button", class: "pick pocket-pick", "data-testid": `${prefix}-${pocket}`, dataset: { pocket }, onclick: () => onClick(pocket) }, pocket);
}

function press(button, on) {
  button.setAttribute("aria-pressed", String(Boolean(on)));
}

// --- the match page -----------------------------------------------------------------------------------------

class MatchPage {
  constructor(id, token) {
    this.id = id;
    this.token = token;
    this.api = clubApi(token);
    this.session = club.session;
    this.view = null;
    this.since = null; // Date.now() when the match last changed
    this.actions = [];
    this.last = null; // {outcome, who, call}: the ruling panel
    this.editing = null; // {index, n, ctx}
    this.entry = newEntry();
    this.ctxKey = null;
    this.canEnter = false;
    this.busy = false;
    this.w2 = null;
    this.breakRun = null; // {ball, start}
    this.alerted = { warning: false, up: false };
    this.event = null;
    this.stream = null;
    this.checkTimer = null;
    this.tokenProblem = null;
    this.own = []; // views this page was answered in the last seconds: {json, at}
    this.skew = 0; // this device's clock minus the server's (ms), from the Date header
    this.confirmUndo = false;
    this.offShooter = null; // whose stroke the marker said the next one is, while strokes wait on this phone
    this.queue = token
      ? new EntryQueue(id, token, {
          onChange: () => {
            if (!this.alive()) return;
            this.renderQueue();
            this.renderEntry();
          },
          onLate: (item, answer) => this.late(item, answer),
          onRefused: (item, error) => this.alive() && showMessage(`${item.label}: ${error.said(lang())}`, "error"),
        })
      : null;
  }

  alive() {
    return club.session === this.session;
  }

  // --- loading ------------------------------------------------------------------------------------------

  async enter() {
    showScreen("match");
    this.buildPickers();
    let view;
    try {
      view = await this.fetchView();
    } catch (error) {
      showError(error);
      $("board").replaceChildren(el("p", { class: "hint" }, t("sb.notFound", { id: this.id })));
      return;
    }
    if (!this.alive()) return;
    this.view = view;
    this.buildPickers();
    this.apply(view);
    if (this.queue) this.queue.flush();
    await Promise.all([this.checkToken(), this.loadActions(), this.loadEvent()]);
    if (!this.alive()) return;
    this.lastFromActions();
    this.render();
    this.showEntry();
    this.stream = watch(`/api/club/matches/${this.id}/stream`, (v) => this.onStream(v), (state) => this.onLink(state));
  }

  leave() {
    if (this.stream) this.stream.close();
    if (this.queue) this.queue.close();
  }

  /** The club view of the match (with its table, a break running and the clock's start). */
  async fetchView() {
    const response = await fetch(`/api/club/matches/${this.id}`);
    if (!response.ok) throw new ClubError(response.status, await response.json().catch(() => null));
    this.noteTime(serverTime(response));
    return response.json();
  }

  /** The server's clock when it answered (ms): this device's difference from it, for the times it sends. */
  noteTime(server) {
    if (Number.isFinite(server)) {
      this.skew = Date.now() - server;
      setSkew(this.skew);
    }
  }

  /** Send an entry through the queue (its key made here): the answer, or a QueuedError when it must wait. */
  async send(kind, path, body, label, method = "POST") {
    const { data, time } = await this.queue.add(kind, method, `/api/club/matches/${this.id}${path}`, body, label);
    this.noteTime(time);
    return data;
  }

  /** An entry that had to wait was confirmed: show the match as it is now. */
  async late(item, answer) {
    if (!this.alive()) return;
    this.noteTime(answer.time);
    const data = answer.data;
    if (data && data.match && data.outcome) this.played(data);
    else if (data && data.id !== undefined) this.apply(data, { own: true });
    await this.loadActions();
    this.lastFromActions();
    this.render();
  }

  async checkToken() {
    if (!this.token) {
      this.canEnter = false;
      this.tokenProblem = { key: "club.token.none", detail: "" };
      return;
    }
    try {
      await this.api.checkToken(this.id);
      this.canEnter = true;
      this.tokenProblem = null;
    } catch (error) {
      if (error instanceof ApiError && error.status === 403) {
        this.canEnter = false;
        this.tokenProblem = { key: "club.token.bad", detail: error.message };
        showMessage(this.tokenText(), "error");
      } else {
        showError(error);
      }
    }
  }

  /** Why nothing can be entered here, in the current language (with the server's words). */
  tokenText() {
    const problem = this.tokenProblem || { key: "club.token.none", detail: "" };
    const text = t(problem.key, { id: this.id });
    return problem.detail ? `${text} (${problem.detail})` : text;
  }

  async loadActions() {
    try {
      const actions = await api.actions(this.id);
      if (this.alive()) this.actions = actions;
    } catch (error) {
      showError(error);
    }
  }

  async loadEvent() {
    // the view does not say which club night a match belongs to; the match's JSON export does
    const kept = recentOf(this.id);
    if (kept && kept.event) {
      this.event = kept.event;
      return;
    }
    try {
      const response = await fetch(exportsOf.match(this.id, "json"));
      if (response.ok) this.event = (await response.json()).event || null;
    } catch {
      this.event = null;
    }
  }

  lastFromActions() {
    const last = this.actions[this.actions.length - 1];
    if (!last || !this.view) {
      this.last = null;
      return;
    }
    const ruling = last.outcome.ruling;
    this.last = {
      outcome: last.outcome,
      who: ruling ? whoOf(this.view, ruling.shooter) : null,
      call: last.action.kind === "marked" ? last.action.call : undefined,
    };
  }

  /** A new view of the match (an answer, or the stream). A changed match restarts the live clock; a new turn
   * starts a fresh entry. */
  apply(view, { own = false } = {}) {
    if (own) this.own.push({ json: JSON.stringify(view), at: Date.now() });
    this.view = this.withBreak(view);
    // the clock counts from the last entry other than a break (a break extends the limit instead)
    const start = Date.parse(view.clock_since || view.updated_at || "");
    this.since = Number.isFinite(start) ? start + this.skew : Date.now();
    const key = `${view.actions}:${view.phase}:${view.shooter}:${view.from_hand}`;
    if (key !== this.ctxKey) {
      this.ctxKey = key;
      // a stroke being entered behind strokes waiting on this phone stays in the form when they are confirmed
      // (it is still the stroke due); any other change of the match starts a fresh entry
      const same = this.entry.behind && this.entry.n === this.ctx().n;
      if (!this.editing && !same) this.entry = newEntry();
      this.w2 = null;
    }
    this.render();
  }

  /** The break running as the server keeps it (a reloaded page, a restarted server, another marker's phone),
   * or as this page started it while the server has not heard of it yet. */
  withBreak(view) {
    const run = view.break_running;
    if (run && (!this.breakRun || this.breakRun.ball !== run.cue_ball)) {
      const since = Date.parse(run.since);
      this.breakRun = { ball: run.cue_ball, start: Number.isFinite(since) ? since + this.skew : Date.now() };
    } else if (!run && this.breakRun && ((view.clock.breaks || {})[this.breakRun.ball] !== undefined || view.phase === "over")) {
      this.breakRun = null;
    }
    if (!run && this.breakRun) {
      return { ...view, break_running: { cue_ball: this.breakRun.ball, since: new Date(this.breakRun.start - this.skew).toISOString() } };
    }
    return view;
  }

  /** The live stream's state: with the server gone the marker is told at once (not only when an entry waits),
   * and when it is back the entries waiting on this phone go at once. */
  onLink(state) {
    if (!this.alive()) return;
    // "connecting" again after a refused connection leaves the notice as it was
    const down = state === "reconnecting" ? true : state === "live" ? false : Boolean(this.linkDown);
    if (this.linkDown && !down && this.queue) this.queue.flush();
    this.linkDown = down;
    let notice = find("link-down");
    if (!notice) {
      notice = el("div", { id: "link-down", class: "token-banner link-down", "data-testid": "link-down", role: "status" });
      $("board").after(notice);
    }
    notice.hidden = !down;
    notice.textContent = t("club.queue.offline");
  }

  async onStream(view) {
    if (!this.alive() || this.busy) return;
    const json = JSON.stringify(view);
    if (this.view && JSON.stringify(this.view) === json) return;
    // older than the match shown (the stream read it before this page's own answer, and under load delivered it
    // after): applying it would put the page back a step, e.g. to placing W2 with the clock stopped at 0:00
    if (this.view && Date.parse(view.updated_at) < Date.parse(this.view.updated_at)) return;
    // the stream polls: a view it sends may be one this page was answered a moment ago and has moved past since
    const now = Date.now();
    this.own = this.own.filter((o) => now - o.at < 5000);
    if (this.own.some((o) => o.json === json)) return;
    if (this.view && view.actions !== this.view.actions && !(this.queue && this.queue.open.length)) showMessage(() => t("club.elsewhere"), "info");
    this.apply(view);
    await this.loadActions();
    this.lastFromActions();
    this.render();
  }

  // --- context of the stroke being entered ----------------------------------------------------------------

  ctx() {
    if (this.editing) return this.editing.ctx;
    const v = this.view;
    const balls = { ...v.position.balls };
    const n = this.dueNumber();
    if (this.waitingStrokes().length) {
      // strokes entered on this phone wait to be sent: this one comes after them, and as the turn may have passed
      // the marker says whose it is (the server refuses it if it is not that player's stroke, or not this stroke)
      return { shooter: this.offShooter || v.shooter, fromHand: false, opening: false, balls, n, waiting: true, unsure: !this.offShooter };
    }
    if (v.from_hand) delete balls[v.shooter];
    return { shooter: v.shooter, fromHand: v.from_hand, opening: v.opening, balls, n };
  }

  /** The number of the stroke due as the marker counts: after the match shown and after every stroke waiting on
   * this phone (each carries its number). A stroke confirmed late is in the match shown at once (late()). */
  dueNumber() {
    let n = this.view.strokes + 1;
    for (const item of this.waitingStrokes()) {
      const sent = item.body && item.body.stroke;
      n = Math.max(n, Number.isInteger(sent) ? sent + 1 : n + 1);
    }
    return n;
  }

  /** The strokes entered on this phone and not yet recorded by the server (waiting or being sent). */
  waitingStrokes() {
    if (!this.queue) return [];
    // an entry sent a moment ago and still awaited in the foreground is not waiting (a good connection: no flicker)
    return this.queue.items.filter((i) => i.kind === "stroke" && (i.state === "pending" || i.state === "sending") && !this.queue.waiters.has(i.key));
  }

  struck() {
    const c = this.ctx();
    return this.entry.wrongBall ? otherWhite(c.shooter) : c.shooter;
  }

  /** The balls on the table when the stroke was played (the cue ball in hand where it was placed). */
  startBalls() {
    const c = this.ctx();
    const balls = { ...c.balls };
    if (c.fromHand && this.entry.place) balls[c.shooter] = this.entry.place;
    return balls;
  }

  gone() {
    return new Set([...this.entry.pots.map((p) => p[0]), ...this.entry.off]);
  }

  /** Where the balls came to rest: the start without the balls that left the table, moved as dragged. */
  restBalls() {
    const gone = this.gone();
    const balls = {};
    for (const [ball, p] of Object.entries(this.startBalls())) {
      if (!gone.has(ball)) balls[ball] = this.entry.moves[ball] || p;
    }
    return balls;
  }

  marks() {
    const e = this.entry;
    const c = this.ctx();
    if (e.lateBall) {
      // 8e is an entry of its own: the ball that fell, and who caused it (the referee reads nothing else)
      const marks = { late_fall: { ball: e.lateBall, caused_by: e.lateBy || null } };
      if (c.fromHand && e.place) marks.place = e.place;
      return marks;
    }
    const gone = this.gone();
    const start = this.startBalls();
    const moves = {};
    for (const [ball, p] of Object.entries(e.moves)) if (!gone.has(ball) && start[ball]) moves[ball] = p;
    const marks = {
      ...e.kept,
      pots: e.pots.map((p) => [p[0], p[1]]),
      off_table: [...e.off],
      first_contact: e.first,
      nakki: [...e.nakki],
      called_as_called: e.legal,
      moves,
      cushion_pots: [...e.cushion],
    };
    for (const flag of club.vocab.flags) marks[flag.name] = Boolean(e.flags[flag.name]);
    if (c.fromHand) marks.place = e.place;
    if (e.wrongBall) marks.struck = otherWhite(c.shooter);
    if (e.talonmies !== "") marks.talonmies_angle = Number(e.talonmies);
    if (e.handFault) marks.hand_fault = e.handFault;
    return marks;
  }

  call() {
    if (this.entry.lateBall) return null;
    const text = this.entry.callText.trim();
    return text ? text : null;
  }

  // --- building the entry form ------------------------------------------------------------------------------

  buildPickers() {
    const fill = (id, prefix, onClick, ids = BALL_IDS, make = ballButton) => $(id).replaceChildren(...ids.map((b) => make(prefix, b, onClick)));
    fill("call-balls", "call-ball", (b) => this.setCallBall(b));
    fill("call-pockets", "call-pocket", (p) => this.setCallPocket(p), POCKET_LAYOUT, pocketButton);
    fill("quick-balls", "quick-ball", (b) => this.setCallBall(b));
    $("quick-balls").append(el("button", { type: "button", class: "pick", "data-testid": "quick-no-call", onclick: () => this.noCall() }, t("club.quick.noCall")));
    fill("quick-pockets", "quick-pocket", (p) => this.setCallPocket(p), POCKET_LAYOUT, pocketButton);
    fill("quick-first", "quick-first", (b) => this.quickMissed(b));
    fill("pot-balls", "pot-ball", (b) => this.pickPotBall(b));
    fill("pot-pockets", "pot-pocket", (p) => this.potPocket(p), POCKET_LAYOUT, pocketButton);
    $("first-balls").replaceChildren(
      ...BALL_IDS.map((b) => ballButton("first", b, (x) => this.setFirst(x))),
      el("button", { type: "button", class: "pick", "data-testid": "first-none", onclick: () => this.setFirst(null) }, t("club.first.none")),
    );
    fill("nakki-balls", "nakki", (b) => this.toggle("nakki", b));
    fill("off-balls", "off", (b) => this.toggleOff(b));
    fill("cushion-balls", "cushion", (b) => this.toggle("cushion", b));
    $("flags").replaceChildren(
      ...club.vocab.flags.map((f) =>
        el(
          "label",
          { class: "check" },
          el("input", { type: "checkbox", "data-testid": f.name.replaceAll("_", "-"), dataset: { flag: f.name } }),
          el("span", {}, f[lang()] || f.en),
        ),
      ),
    );
    const late = $("late-ball");
    late.replaceChildren(el("option", { value: "" }, t("club.late.none")), ...BALL_IDS.map((b) => el("option", { value: b }, b)));
    const by = $("late-by");
    const names = this.view ? this.view.players : [];
    const owner = (b) => (names.find((p) => p.cue_ball === b) || { name: b }).name;
    by.replaceChildren(el("option", { value: "" }, t("club.late.nobody")), ...CUE_BALLS.map((b) => el("option", { value: b }, `${t("club.late.player", { ball: b })}: ${owner(b)}`)));
  }

  // --- entry actions ----------------------------------------------------------------------------------------

  setTarget(target) {
    this.entry.target = target;
    this.renderEntry();
  }

  setCallText(text) {
    this.entry.callText = text;
    this.renderEntry();
    this.checkCall();
  }

  setCallBall(ball) {
    const { tokens } = callParts(this.entry.callText);
    if (tokens.length === 0) tokens.push(ball);
    else tokens[0] = ball;
    this.entry.target = "call";
    this.setCallText(tokens.join(" "));
  }

  setCallPocket(pocket) {
    const { tokens, ball } = callParts(this.entry.callText);
    if (!ball) {
      showMessage(() => t("club.pots.pickBall"), "info");
      return;
    }
    if (tokens.length < 2) tokens.push(pocket);
    else tokens[1] = pocket;
    this.entry.target = "pots";
    this.setCallText(tokens.join(" "));
  }

  noCall() {
    this.entry.target = "pots";
    this.setCallText("");
  }

  checkCall() {
    clearTimeout(this.checkTimer);
    const text = this.entry.callText.trim();
    const status = $("call-status");
    if (!text) {
      status.textContent = t("call.noCall");
      status.className = "call-status";
      return;
    }
    status.textContent = t("call.checking");
    status.className = "call-status";
    const shooter = this.ctx().shooter;
    this.checkTimer = setTimeout(async () => {
      try {
        const checked = await api.checkCall(text, shooter, { verdict: true }); // refused: 200 with its reason
        if (this.entry.callText.trim() !== text) return;
        const ok = checked.valid !== false;
        status.textContent = ok ? t("call.valid", { call: checked.call }) : ruleText(checked);
        status.className = ok ? "call-status ok" : "call-status bad";
      } catch (error) {
        if (this.entry.callText.trim() !== text) return;
        status.textContent = error.message;
        status.className = "call-status bad";
      }
    }, 150);
  }

  pickPotBall(ball) {
    const e = this.entry;
    e.target = "pots";
    const already = e.pots.find((p) => p[0] === ball);
    if (already) {
      showMessage(() => t("club.pots.twice", { ball, pocket: already[1] }), "error");
      e.pending = null;
    } else if (e.off.has(ball)) {
      showMessage(() => t("club.pots.isOff", { ball }), "error");
      e.pending = null;
    } else {
      e.pending = ball;
    }
    this.renderEntry();
  }

  potPocket(pocket) {
    const e = this.entry;
    if (!e.pending) {
      showMessage(() => t("club.pots.pickBall"), "info");
      return;
    }
    this.addPot(e.pending, pocket);
  }

  addPot(ball, pocket) {
    const e = this.entry;
    const already = e.pots.find((p) => p[0] === ball);
    e.pending = null;
    if (already) {
      showMessage(() => t("club.pots.twice", { ball, pocket: already[1] }), "error");
    } else if (e.off.has(ball)) {
      showMessage(() => t("club.pots.isOff", { ball }), "error");
    } else {
      e.pots.push([ball, pocket]);
    }
    this.renderEntry();
  }

  removePot(ball) {
    this.entry.pots = this.entry.pots.filter((p) => p[0] !== ball);
    this.renderEntry();
  }

  potAsCalled() {
    const { ball, pocket } = callParts(this.entry.callText);
    if (!ball || !pocket) {
      showMessage(() => t("club.pots.needCall"), "info");
      return;
    }
    this.addPot(ball, pocket);
    if (!this.entry.first) this.entry.first = ball;
    this.renderEntry();
  }

  /** The one-tap outcomes under the call: dropped as called, or missed with the first ball hit; entered at once
   * (with whatever else the form holds). */
  quickAsCalled() {
    const { ball, pocket } = callParts(this.entry.callText);
    if (!ball || !pocket) {
      showMessage(() => t("club.pots.needCall"), "info");
      return;
    }
    this.potAsCalled();
    return this.submit();
  }

  quickMissed(ball) {
    this.entry.first = ball;
    this.entry.pots = [];
    return this.submit();
  }

  setFirst(ball) {
    this.entry.first = ball;
    this.entry.target = "pots";
    this.renderEntry();
  }

  toggle(field, ball) {
    const set = this.entry[field];
    if (set.has(ball)) set.delete(ball);
    else set.add(ball);
    this.renderEntry();
  }

  toggleOff(ball) {
    const e = this.entry;
    const dropped = e.pots.find((p) => p[0] === ball);
    if (!e.off.has(ball) && dropped) {
      showMessage(() => t("club.pots.twice", { ball, pocket: dropped[1] }), "error");
      return;
    }
    this.toggle("off", ball);
  }

  cueTo(where) {
    const e = this.entry;
    const cue = this.struck();
    e.pots = e.pots.filter((p) => p[0] !== cue);
    e.off.delete(cue);
    if (where === "off") e.off.add(cue);
    else if (where) e.pots.push([cue, where]);
    this.renderEntry();
  }

  placeCueAt(p) {
    const c = this.ctx();
    if (!c.fromHand) return false;
    const a = placement.area(club.geo, "hand", c.balls, c.shooter);
    this.entry.place = placement.legalize(club.geo, p, a, this.entry.place);
    delete this.entry.moves[c.shooter];
    this.renderEntry();
    return true;
  }

  dragRest(ball, p, done) {
    if (!ball) return;
    const others = this.restBalls();
    delete others[ball];
    let q = null;
    for (const spot of Object.values(club.table.spots)) {
      if (dist(p, spot) < SNAP && Object.values(others).every((o) => dist(o, spot) >= 2 * club.geo.R)) q = [spot[0], spot[1]];
    }
    if (!q) q = placement.legalize(club.geo, p, placement.area(club.geo, "bed", others, ball), this.restBalls()[ball]);
    if (!q) return;
    this.entry.moves[ball] = q;
    if (done) this.renderEntry();
    else this.drawRest();
  }

  resetRest() {
    this.entry.moves = {};
    this.renderEntry();
  }

  placeW2At(p) {
    const v = this.view;
    if (!v || v.phase !== "place-w2") return false;
    const a = placement.area(club.geo, "w2", v.position.balls, "W2", { corridors: v.w2_corridors });
    this.w2 = placement.legalize(club.geo, p, a, this.w2);
    this.renderPlace();
    return true;
  }

  /** Esc: a fresh entry for the stroke due (and the end of a correction being edited). */
  clearEntry() {
    this.editing = null;
    this.entry = newEntry();
    this.render();
    this.checkCall();
  }

  // --- talking to the server ----------------------------------------------------------------------------------

  /** One entry sent and answered: the form is locked (keys too) until the page shows the answer, stroke list
   * included, so each answer's visible change comes at the moment the page takes keys again. */
  async run(work) {
    if (this.busy) return;
    if (!this.canEnter) {
      showMessage(this.tokenText(), "error");
      return;
    }
    this.busy = true;
    $("sending").hidden = false;
    this.renderButtons();
    let queued = false;
    try {
      await work();
    } catch (error) {
      if (error instanceof QueuedError) {
        queued = true;
        // kept on this phone and sent when the connection returns: the form is free for the next stroke
        showMessage(() => t("club.queue.offline"), "info");
        this.editing = null;
        this.entry = newEntry();
        this.offShooter = null; // the next stroke's player is asked again
      } else {
        showError(error);
        // refused because the match moved on (another phone's entry, a decided game): the match as it is now, at
        // once (the stream would show it only at its next poll, the stroke number still the old one meanwhile)
        if (error instanceof ClubError && error.status === 409) await this.catchUp();
      }
    } finally {
      this.busy = false;
      $("sending").hidden = true;
      if (this.alive()) this.render();
      // kept on this phone: the next stroke's question (whose is it?) at the top, the count by the confirm button
      if (queued && this.alive()) this.showEntry(true);
    }
  }

  async catchUp() {
    try {
      this.apply(await this.fetchView());
      await this.loadActions();
      this.lastFromActions();
    } catch {
      // unreachable: the stream brings the match when it can
    }
  }

  played(answer) {
    const ruling = answer.outcome.ruling;
    this.last = {
      outcome: answer.outcome,
      who: ruling ? whoOf(answer.match, ruling.shooter) : null,
      call: answer.action.kind === "marked" ? answer.action.call : undefined,
    };
    this.apply(answer.match, { own: true });
  }

  /** After a confirmation: the ruling and where the balls go back, in view (on a phone they are above the
   * entry form, so the page scrolls to them). */
  showRuling() {
    const box = $("ruling");
    if (!box || !box.childElementCount) return;
    // below the top bar, which stays on screen
    const bar = document.querySelector(".topbar");
    const covered = bar && getComputedStyle(bar).position === "sticky" ? bar.offsetHeight : 0;
    box.style.scrollMarginTop = `${covered + 8}px`;
    box.scrollIntoView({ block: "start", behavior: "instant" });
  }

  /** On opening the page: the stroke due in view, the call at the top below the top bar, the confirm button
   * stuck to the bottom edge (on a phone the board and the last ruling come first and push it below the fold). */
  showEntry(always = false, form = false) {
    const quick = $("quick");
    if (!form && !quick.hidden && getComputedStyle(quick).position === "sticky") {
      // a phone: the quick entry sticks to the bottom edge when it is below it; the call above it in view
      quick.scrollIntoView({ block: "end", behavior: "instant" });
      return;
    }
    const box = $("entry");
    if (!box || box.hidden) return;
    const bar = document.querySelector(".topbar");
    // below the top bar and a message shown (both stay on screen)
    const message = $("message");
    const covered = (bar ? bar.getBoundingClientRect().bottom : 0) + (message.hidden ? 0 : message.offsetHeight + 8);
    const top = box.getBoundingClientRect().top;
    if (!always && top >= covered && top < window.innerHeight * 0.4) return;
    box.style.scrollMarginTop = `${covered + 8}px`;
    box.scrollIntoView({ block: "start", behavior: "instant" });
  }

  submit() {
    if (!this.view) return;
    if (this.breakRun) {
      showMessage(() => t("club.break.running", { name: nameOf(this.view, this.breakRun.ball), time: fmtClock((Date.now() - this.breakRun.start) / 1000) }), "info");
      return;
    }
    const call = this.call();
    const marks = this.marks();
    if (this.editing) {
      const { index, n } = this.editing;
      return this.run(async () => {
        const view = await this.send("correct", `/strokes/${index}`, { call, marks }, t("club.undo.stroke", { n }), "PUT");
        await this.loadActions();
        this.editing = null;
        this.entry = newEntry();
        this.ctxKey = null;
        this.apply(view, { own: true });
        this.lastFromActions();
        showMessage(() => t("club.corrected", { n }), "info");
      });
    }
    const c = this.ctx();
    if (c.unsure) {
      showMessage(() => t("club.queue.whoFirst", { n: c.n }), "info");
      $("queue-hold").scrollIntoView({ block: "nearest" });
      return;
    }
    const n = c.n;
    return this.run(async () => {
      // the stroke's number and player as the marker saw them: sent late, it is refused if the match has moved on
      const answer = await this.send("stroke", "/strokes", { call, marks, stroke: n, shooter: c.shooter }, t("club.undo.stroke", { n }));
      await this.loadActions();
      clearMessage();
      this.played(answer);
      this.afterOver();
      this.render();
      this.showRuling();
    });
  }

  afterOver() {
    if (this.view && this.view.result) showMessage(() => t("club.over", { text: t("match.winner", { name: nameOf(this.view, this.view.result.winner), ball: this.view.result.winner }) }), "info");
  }

  confirmW2() {
    if (!this.w2) {
      showMessage(() => t("club.place.missing"), "info");
      return;
    }
    const point = this.w2;
    return this.run(async () => {
      const answer = await this.send("place-w2", "/place-w2", { point }, t("club.strokes.placeW2"));
      await this.loadActions();
      this.played(answer);
    });
  }

  /** 6: the shoot-out's lag winner chose who shoots first. */
  chooseStarter(ball) {
    return this.run(async () => {
      const answer = await this.send("starter", "/shootout-starter", { cue_ball: ball }, t("club.starter.chosen", { name: nameOf(this.view, ball) }));
      await this.loadActions();
      this.played(answer);
    });
  }

  lagWon(winner) {
    return this.run(async () => {
      const answer = await this.send("lag", "/lag", { winner }, t("club.lag.title"));
      await this.loadActions();
      this.played(answer);
    });
  }

  /** Undo asks first: the marker confirms which entry is taken back. */
  askUndo() {
    this.confirmUndo = true;
    this.renderUndo();
    $("undo-confirm").scrollIntoView({ block: "nearest" });
  }

  undo() {
    this.confirmUndo = false;
    this.renderUndo();
    return this.run(async () => {
      const view = await this.send("undo", "/undo", undefined, t("club.undo"));
      await this.loadActions();
      this.editing = null;
      this.ctxKey = null;
      this.apply(view, { own: true });
      this.lastFromActions();
      showMessage(() => t("club.undone"), "info");
    });
  }

  forfeit(ball) {
    return this.run(async () => {
      const answer = await this.send("forfeit", "/forfeit", { cue_ball: ball }, t("club.strokes.forfeit"));
      await this.loadActions();
      this.played(answer);
      this.entry.forfeit = null;
      this.afterOver();
    });
  }

  startBreak(ball) {
    if (!this.canEnter) {
      showMessage(this.tokenText(), "error");
      return;
    }
    this.breakRun = { ball, start: Date.now() };
    // the clock's limit grows with the break as it runs (the server is told too, for the scoreboard)
    const since = new Date(Date.now() - this.skew).toISOString();
    this.view = { ...this.view, break_running: { cue_ball: ball, since } };
    this.render();
    // the server keeps the running break (the scoreboard shows it, a restart keeps it); it is recorded with its
    // length when it ends. Sent in the entries' queue, so that with no connection it goes, in order, later
    this.queue
      .add("break-start", "POST", `/api/club/matches/${this.id}/break-start`, { cue_ball: ball, since }, t("club.break.of", { name: nameOf(this.view, ball) }))
      .catch((error) => {
        if (!(error instanceof QueuedError)) showError(error);
      });
  }

  resumeBreak() {
    const run = this.breakRun;
    if (!run) return;
    const seconds = Math.max(1, Math.min(MAX_BREAK, Math.round((Date.now() - run.start) / 1000)));
    return this.run(async () => {
      const answer = await this.send("break", "/break", { cue_ball: run.ball, seconds }, t("club.break.of", { name: nameOf(this.view, run.ball) }));
      await this.loadActions();
      this.breakRun = null;
      this.played(answer);
    });
  }

  edit(index) {
    const pos = this.actions.findIndex((a) => a.index === index);
    const action = this.actions[pos];
    if (!action || action.action.kind !== "marked" || pos === 0) return;
    const before = this.actions[pos - 1].state_after;
    const shooter = before.game.shooter;
    const fromHand = before.game.opening || before.game.in_hand.includes(shooter);
    const balls = { ...action.action.entry.start.balls };
    if (fromHand) delete balls[shooter];
    const n = this.actions.slice(0, pos + 1).filter((a) => a.action.kind === "marked").length;
    const ctx = { shooter, fromHand, opening: before.game.opening, balls, n };
    this.editing = { index, n, ctx };
    this.entry = entryOf(action.action, ctx);
    clearMessage();
    this.render();
    this.checkCall();
    $("entry").scrollIntoView({ block: "start" });
  }

  // --- rendering -------------------------------------------------------------------------------------------

  render() {
    if (!this.alive() || !this.view) return;
    const v = this.view;
    renderBoard($("board"), v, { since: this.since, playerExtra: (i, ball) => this.breakButton(i, ball) });
    this.renderTokenBanner();
    this.renderDecided();
    const editing = Boolean(this.editing);
    $("place-panel").hidden = !(v.phase === "place-w2" && this.open());
    $("lag-panel").hidden = !(v.phase === "shootout-lag" && this.open());
    // one question at a time: who starts the shoot-out, then its strokes
    const choosing = choosingStarter(v);
    $("starter-panel").hidden = !(choosing && this.open());
    $("entry").hidden = !(((playing(v) && !choosing) || editing) && this.open());
    $("quick").hidden = $("entry").hidden || editing;
    $("break-running").hidden = !this.breakRun;
    if (v.phase === "place-w2") this.renderPlace();
    if (v.phase === "shootout-lag") {
      for (const i of [0, 1]) $(`lag-${i}`).textContent = t("club.lag.won", { name: v.players[i].name });
    }
    if (choosing) this.renderStarter();
    this.renderEntry();
    this.renderRuling();
    this.renderStrokes();
    this.renderExports();
    this.renderQueue();
    this.renderUndo();
    this.tick();
  }

  /** The entries on this phone not yet confirmed (and those confirmed a moment ago), each with its state. */
  renderQueue() {
    const panel = $("queue");
    if (!panel || !this.queue) return;
    // shown while an entry waits or was refused (then with those confirmed a moment ago); with a good connection
    // entries are confirmed at once and the panel stays away, so nothing moves under the marker's finger
    if (this.queue.offline || this.queue.items.some((i) => i.state === "failed")) this.queueShown = true;
    if (!this.queue.items.length) this.queueShown = false;
    const items = this.queueShown ? this.queue.items : [];
    panel.hidden = items.length === 0;
    if (!this.waitingStrokes().length) this.offShooter = null;
    // how many entries wait, where the marker's thumb is (the confirm bar stays on screen)
    const open = this.queue.items.filter((i) => i.state === "pending" || i.state === "sending").length;
    $("queue-badge").hidden = open === 0;
    $("queue-badge").textContent = t("club.queue.badge", { n: open });
    $("queue-offline").hidden = !this.queue.offline;
    $("queue-list").replaceChildren(
      ...items.map((item) =>
        el(
          "li",
          { class: `queue-item ${item.state}`, "data-testid": "queue-item", dataset: { state: item.state, kind: item.kind } },
          el("span", { class: "queue-label" }, item.label),
          el(
            "span",
            { class: "queue-state", "data-testid": "queue-state" },
            item.state === "failed"
              ? t("club.queue.failed", { detail: (item.error && (item.error[lang()] || item.error.detail)) || "" })
              : t(`club.queue.${item.state === "sending" ? "sending" : item.state}`),
          ),
          item.state === "failed"
            ? el("button", { type: "button", class: "small", "data-testid": "queue-drop", onclick: () => this.queue.remove(item.key) }, t("club.queue.drop"))
            : null,
        ),
      ),
    );
    $("queue-retry").hidden = !this.queue.offline;
  }

  renderUndo() {
    const bar = $("undo-confirm");
    if (!bar) return;
    bar.hidden = !this.confirmUndo;
    if (!this.confirmUndo) return;
    const last = this.actions[this.actions.length - 1];
    let what = t("club.undo");
    if (last && last.action.kind === "marked") {
      const n = this.actions.filter((a) => a.action.kind === "marked").length;
      what = `${t("club.undo.stroke", { n })}: ${nameOf(this.view, last.outcome.ruling ? last.outcome.ruling.shooter : last.action.entry.cue_ball)}, ${last.action.call || t("ruling.noCall")}`;
    } else if (last && last.action.kind === "place-w2") {
      what = t("club.strokes.placeW2");
    } else if (last && last.action.kind === "choose") {
      what = t("club.starter.chosen", { name: nameOf(this.view, last.action.cue_ball) });
    } else if (last && last.action.kind === "marked-lag") {
      what = t("club.lag.title");
    } else if (last && last.action.kind === "break") {
      what = t("club.strokes.break", { who: nameOf(this.view, last.action.cue_ball), s: Math.round(last.action.seconds) });
    }
    $("undo-question").textContent = t("club.undo.confirm", { what });
  }

  /** Whether this page takes entries: the link may enter, and the match is not a competition game decided
   * already (by the director's result or by its own end: then a correction goes through the director). */
  open() {
    return this.canEnter && !(this.view && this.view.competition && this.view.competition.decided_by);
  }

  /** A competition game decided: by whom, with the result, the game's pöytäkirja and the bracket. */
  renderDecided() {
    let box = find("decided");
    if (!box) {
      box = el("div", { id: "decided", class: "decided", "data-testid": "decided", role: "status" });
      $("board").after(box);
    }
    const game = this.view && this.view.competition;
    box.hidden = !(game && game.decided_by);
    if (box.hidden) return;
    const names = this.view.players.map((p) => p.name);
    // the kaavio's result; the match's own until the kaavio has read the match's end
    const own = this.view.result ? this.view.players.map((p) => (this.view.result.recorded || this.view.result.scores || {})[p.cue_ball]) : [];
    const points = game.points || own;
    const score = points.length === 2 ? `${names[0]} ${points[0]} – ${points[1]} ${names[1]}` : "";
    box.replaceChildren(
      el("p", { "data-testid": "decided-text" }, t(`club.decided.${game.decided_by}`, { game: game.game, score, name: game.name })),
      el(
        "p",
        { class: "row wrap" },
        game.scoresheet_url ? el("a", { class: "button primary", href: game.scoresheet_url, target: "_blank", rel: "noopener", "data-testid": "decided-sheet" }, t("club.decided.sheet")) : null,
        el("a", { class: "button", href: game.bracket_url, target: "_blank", rel: "noopener", "data-testid": "decided-bracket" }, t("club.decided.bracket")),
      ),
    );
  }

  renderTokenBanner() {
    let banner = find("token-banner");
    if (!banner) {
      banner = el("div", { id: "token-banner", class: "token-banner", "data-testid": "token-error", role: "alert" });
      $("board").after(banner);
    }
    banner.hidden = this.canEnter || !this.tokenProblem;
    banner.textContent = this.tokenProblem ? this.tokenText() : "";
  }

  breakButton(i, ball) {
    const v = this.view;
    if (v.clock.mode !== "wall" || !ball || !this.open()) return null;
    const taken = ball in (v.clock.breaks || {});
    if (taken || v.phase !== "play") return null;
    return el(
      "button",
      { type: "button", class: "small break-button", "data-testid": `break-${i}`, disabled: Boolean(this.breakRun) || this.busy, onclick: () => this.startBreak(ball) },
      t("club.break"),
    );
  }

  /** The lag winner's choice (6): their own cue ball first, then the opponent's. */
  renderStarter() {
    const v = this.view;
    const winner = v.shootout.first;
    $("starter-hint").textContent = t("club.starter.hint", { name: nameOf(v, winner) });
    [winner, otherWhite(winner)].forEach((ball, i) => {
      const button = $(`starter-${i}`);
      button.dataset.ball = ball;
      button.textContent = t("club.starter.starts", { name: nameOf(v, ball), ball });
    });
  }

  renderPlace() {
    const v = this.view;
    const w2owner = v.players.findIndex((p) => p.cue_ball === "W2");
    $("place-hint").textContent = t("club.place.hint", { name: w2owner >= 0 ? v.players[w2owner].name : "W2" });
    const view = club.tables.w2;
    const balls = { ...v.position.balls };
    if (this.w2) balls.W2 = this.w2;
    view.balls = balls;
    view.overlay = { corridors: v.w2_corridors, legal: placement.lightOf(placement.area(club.geo, "w2", v.position.balls, "W2", { corridors: v.w2_corridors })) };
    view.draw();
    $("w2-out").textContent = this.w2 ? `W2 (${this.w2[0].toFixed(3)}, ${this.w2[1].toFixed(3)})` : t("club.hand.none");
    $("w2-out").dataset.point = this.w2 ? this.w2.join(",") : "";
    $("place-confirm").disabled = this.busy;
  }

  renderButtons() {
    const busy = this.busy;
    $("enter-stroke").disabled = busy || Boolean(this.breakRun) || Boolean(this.view && !this.editing && this.ctx().unsure);
    $("undo-last").disabled = busy || !this.open() || !this.view || this.view.actions <= 2;
    $("place-confirm").disabled = busy;
    for (const i of [0, 1]) $(`lag-${i}`).disabled = busy;
    for (const i of [0, 1]) $(`starter-${i}`).disabled = busy;
  }

  renderQuick(c, call, name, onTable, cue) {
    $("quick-title").textContent = c.unsure ? t("club.entry.titleWho", { n: c.n }) : t("club.entry.title", { n: c.n, name, ball: c.shooter });
    for (const b of $("quick-balls").children) {
      if (!b.dataset.ball) {
        press(b, !this.entry.callText.trim());
        continue;
      }
      press(b, call.ball === b.dataset.ball);
      b.disabled = b.dataset.ball === c.shooter;
      b.classList.toggle("absent", !onTable(b.dataset.ball));
    }
    for (const b of $("quick-pockets").children) press(b, call.pocket === b.dataset.pocket);
    for (const b of $("quick-first").children) {
      b.disabled = b.dataset.ball === cue;
      b.classList.toggle("absent", !onTable(b.dataset.ball));
    }
    $("quick-as-called").disabled = !(call.ball && call.pocket) || $("enter-stroke").disabled;
  }

  renderEntry() {
    if (!this.view) return;
    const e = this.entry;
    const c = this.ctx();
    const v = this.view;
    const name = nameOf(v, c.shooter);
    if (!this.editing && e.n === undefined) {
      e.n = c.n; // the stroke this entry is for
      e.behind = Boolean(c.waiting); // begun behind strokes waiting on this phone
    }
    $("entry-title").textContent = c.unsure ? t("club.entry.titleWho", { n: c.n }) : t("club.entry.title", { n: c.n, name, ball: c.shooter });
    this.renderHold(c);
    $("entry-opening").hidden = !c.opening;
    const banner = $("edit-banner");
    banner.hidden = !this.editing;
    if (this.editing) {
      banner.replaceChildren(
        el("span", {}, t("club.entry.correcting", { n: this.editing.n, index: this.editing.index, name, ball: c.shooter })),
        el("button", { type: "button", class: "small", "data-testid": "cancel-correction", onclick: () => this.clearEntry() }, t("club.cancel")),
      );
    }
    $("target").textContent = t(`club.target.${e.target}`);
    $("target").dataset.target = e.target;
    for (const group of document.querySelectorAll("#entry [data-target]")) group.classList.toggle("targeted", group.dataset.target === e.target);

    const start = this.startBalls();
    const onTable = (b) => Boolean(start[b]) || (c.fromHand && b === c.shooter);
    const cue = this.struck();
    // the call
    const call = callParts(e.callText);
    const text = $("call-text");
    if (document.activeElement !== text) text.value = e.callText;
    for (const b of $("call-balls").children) {
      press(b, call.ball === b.dataset.ball);
      b.disabled = b.dataset.ball === c.shooter;
      b.classList.toggle("absent", !onTable(b.dataset.ball));
    }
    for (const b of $("call-pockets").children) press(b, call.pocket === b.dataset.pocket);
    this.renderQuick(c, call, name, onTable, cue);
    press($("no-call"), !e.callText.trim());
    press($("legal-yes"), e.legal);
    press($("legal-no"), !e.legal);
    if (!e.callText.trim()) $("call-status").textContent = t("call.noCall");
    // the drops
    for (const b of $("pot-balls").children) {
      const ball = b.dataset.ball;
      const dropped = e.pots.find((p) => p[0] === ball);
      press(b, e.pending === ball);
      b.dataset.state = dropped ? "dropped" : e.off.has(ball) ? "off" : "";
      b.classList.toggle("absent", !onTable(ball));
    }
    for (const b of $("pot-pockets").children) b.classList.toggle("armed", Boolean(e.pending));
    const pots = $("pots");
    pots.replaceChildren(
      ...(e.pots.length
        ? e.pots.map(([ball, pocket]) =>
            el(
              "li",
              { class: "chip-item", "data-testid": "pot-item", dataset: { ball, pocket } },
              ballChip(ball),
              ` ${ball} → ${pocket} `,
              el("button", { type: "button", class: "x", "aria-label": t("club.pots.remove"), "data-testid": "pot-remove", onclick: () => this.removePot(ball) }, "×"),
            ),
          )
        : [el("li", { class: "hint" }, t("club.pots.none"))]),
    );
    // first contact, nakki, off the table, cushion pots
    for (const b of $("first-balls").children) {
      const ball = b.dataset.ball || null;
      press(b, e.first === ball);
      if (ball) {
        b.disabled = ball === cue;
        b.classList.toggle("absent", !onTable(ball));
      }
    }
    for (const b of $("nakki-balls").children) {
      press(b, e.nakki.has(b.dataset.ball));
      b.disabled = b.dataset.ball === cue;
      b.classList.toggle("absent", !onTable(b.dataset.ball));
    }
    for (const b of $("off-balls").children) {
      press(b, e.off.has(b.dataset.ball));
      b.classList.toggle("absent", !onTable(b.dataset.ball));
    }
    for (const b of $("cushion-balls").children) press(b, e.cushion.has(b.dataset.ball));
    // the cue ball
    $("cue-legend").replaceChildren(ballChip(cue), " ", t("club.cue", { ball: cue }));
    const cuePot = e.pots.find((p) => p[0] === cue);
    const row = $("cue-row");
    row.replaceChildren(
      el("button", { type: "button", class: "pick", "data-testid": "cue-stayed", "aria-pressed": String(!cuePot && !e.off.has(cue)), onclick: () => this.cueTo(null) }, t("club.cue.stayed")),
      el("span", { class: "hint" }, t("club.cue.dropped")),
      ...POCKET_IDS.map((p) =>
        el("button", { type: "button", class: "pick pocket-pick", "data-testid": `cue-pocket-${p}`, "aria-pressed": String(Boolean(cuePot && cuePot[1] === p)), onclick: () => this.cueTo(p) }, p),
      ),
      el("button", { type: "button", class: "pick", "data-testid": "cue-off", "aria-pressed": String(e.off.has(cue)), onclick: () => this.cueTo("off") }, t("club.cue.off")),
    );
    // rare events
    $("wrong-ball").checked = e.wrongBall;
    for (const box of $("flags").querySelectorAll("input[data-flag]")) box.checked = Boolean(e.flags[box.dataset.flag]);
    $("wrong-ball-label").textContent = t("club.wrongBall", { ball: otherWhite(c.shooter) });
    $("late-ball").value = e.lateBall;
    const by = $("late-by");
    by.value = e.lateBy;
    by.disabled = !e.lateBall;
    $("late-only").hidden = !e.lateBall;
    if (document.activeElement !== $("talonmies")) $("talonmies").value = e.talonmies;
    $("hand-fault").value = e.handFault || "";
    $("forfeit-row").replaceChildren(
      ...v.players.map((p, i) =>
        p.cue_ball
          ? el("button", { type: "button", class: "small", "data-testid": `forfeit-${i}`, "aria-pressed": String(e.forfeit === p.cue_ball), onclick: () => this.armForfeit(p.cue_ball) }, t("club.forfeit.player", { name: p.name, ball: p.cue_ball }))
          : null,
      ),
    );
    const confirm = $("forfeit-confirm");
    confirm.hidden = !e.forfeit || Boolean(this.editing);
    if (e.forfeit) confirm.textContent = t("club.forfeit.confirm", { name: nameOf(v, e.forfeit), ball: e.forfeit });
    // ball in hand
    $("hand-group").hidden = !c.fromHand;
    if (c.fromHand) {
      $("hand-legend").textContent = t("club.hand", { ball: c.shooter });
      const view = club.tables.hand;
      const balls = { ...c.balls };
      if (e.place) balls[c.shooter] = e.place;
      view.balls = balls;
      view.overlay = { legal: placement.lightOf(placement.area(club.geo, "hand", c.balls, c.shooter)) };
      view.rings = e.place ? [{ p: e.place, colour: "#ffe066" }] : [];
      view.draw();
      $("hand-out").textContent = e.place ? t("club.hand.placed", fmtPoint(e.place)) : t("club.hand.none");
      $("hand-out").dataset.point = e.place ? e.place.join(",") : "";
    }
    this.drawRest();
    // buttons
    $("enter-stroke").textContent = this.editing ? `${t("club.save")} ⏎` : `${t("club.enter")} ⏎`;
    this.renderButtons();
  }

  /** While strokes wait on this phone: which they are, and whose the stroke entered now is (the marker says). */
  renderHold(c) {
    const waiting = this.editing ? [] : this.waitingStrokes();
    const hold = $("queue-hold");
    hold.hidden = waiting.length === 0;
    if (!waiting.length) return;
    $("queue-hold-text").textContent = t("club.queue.whose", { list: waiting.map((i) => i.label).join(", "), n: c.n });
    $("queue-hold-who").replaceChildren(
      ...this.view.players
        .filter((p) => p.cue_ball)
        .map((p) =>
          el(
            "button",
            {
              type: "button",
              class: "small",
              "data-testid": `queue-who-${p.cue_ball}`,
              "aria-pressed": String(this.offShooter === p.cue_ball),
              onclick: () => {
                this.offShooter = p.cue_ball;
                this.renderEntry();
              },
            },
            `${p.name} (${p.cue_ball})`,
          ),
        ),
      el("span", { class: "hint" }, t("club.queue.hand")),
    );
  }

  armForfeit(ball) {
    this.entry.forfeit = this.entry.forfeit === ball ? null : ball;
    this.renderEntry();
  }

  drawRest() {
    const view = club.tables.rest;
    if (!view) return;
    view.balls = this.restBalls();
    const moved = Object.keys(this.entry.moves).filter((b) => view.balls[b]);
    view.overlay = { draggable: Object.keys(view.balls), dragging: view.overlay.dragging };
    view.rings = moved.map((b) => ({ p: view.balls[b], colour: "#74c0fc" }));
    view.draw();
    $("moves").replaceChildren(
      ...(moved.length
        ? moved.map((b) => {
            const p = view.balls[b];
            const spot = spotAt(club.table, p);
            return el(
              "li",
              { "data-testid": "move-item", dataset: { ball: b, spot: spot || "" } },
              ballChip(b),
              " ",
              spot ? t("club.rest.onSpot", { ball: b, spot: spotLabel(spot) }) : t("club.rest.at", { ball: b, ...fmtPoint(p) }),
            );
          })
        : [el("li", { class: "hint" }, t("club.rest.none"))]),
    );
  }

  renderRuling() {
    const box = $("ruling");
    box.replaceChildren();
    const respots = $("respots");
    respots.hidden = true;
    const last = this.last;
    if (!last || !last.outcome) return;
    const block = rulingBlock(last.outcome, { who: last.who, call: last.call });
    if (block.childElementCount) box.append(el("h3", {}, t("club.lastRuling")), block);
    const ruling = last.outcome.ruling;
    if (!ruling || !Object.keys(ruling.respots || {}).length) return;
    respots.hidden = false;
    const after = ruling.position.balls;
    const balls = Object.keys(ruling.respots);
    const list = $("respot-list");
    list.replaceChildren();
    const view = club.tables.respot;
    view.balls = after;
    view.overlay = {};
    view.rings = [];
    for (const ball of balls) {
      const p = ruling.respots[ball];
      const spot = spotAt(club.table, p);
      const where = spot ? spotLabel(spot) : t("club.respots.at", fmtPoint(p));
      view.rings.push({ p, label: ball });
      // the spots other balls covered when it was put back: the kaisa goes back first (4.1), then a red
      const except = ball === "K" ? balls : balls.filter((b) => b !== "K");
      const taken = takenSpots(club.table, after, except);
      const says = (n) => new RegExp(`\\b${ball}\\b`).test(n.en) || (ball === "K" && /\bkaisa\b/i.test(n.en) && !/\b(R1|R2|red)\b/.test(n.en));
      const notes = ruling.notes.filter((n) => n.clause.startsWith("4") && says(n));
      list.append(
        el(
          "li",
          { class: "respot-item", "data-testid": "respot-item", dataset: { ball, spot: spot || "" } },
          el("strong", { "data-testid": "respot-where" }, ballChip(ball), " ", t("club.respots.item", { ball, spot: where })),
          ...notes.map((n) => el("div", { class: "respot-why", "data-testid": "respot-why" }, el("span", { class: "clause-tag" }, `§ ${n.clause}`), " ", ruleText(n))),
          el(
            "div",
            { class: "hint", "data-testid": "respot-taken" },
            t("club.respots.taken", { list: taken.length ? taken.map((x) => t("club.respots.takenBy", { spot: spotLabel(x.spot), ball: x.ball })).join(", ") : t("club.respots.free") }),
          ),
        ),
      );
    }
    view.draw();
  }

  renderStrokes() {
    const list = $("strokes");
    const rows = [];
    let n = 0;
    for (const a of this.actions) {
      const kind = a.action.kind;
      if (kind === "marked") n += 1;
      if ((kind === "choose" || kind === "marked-lag") && a.index < 2) continue; // the match's creation
      rows.push(this.strokeRow(a, n));
    }
    list.replaceChildren(...rows.reverse());
    $("strokes-empty").hidden = rows.length > 0;
    $("undo-last").hidden = !this.open();
    list.dataset.count = String(n);
  }

  strokeRow(a, n) {
    const kind = a.action.kind;
    const v = this.view;
    const ruling = a.outcome.ruling;
    const parts = [];
    let head;
    if (kind === "marked") {
      const e = a.action.entry;
      head = `${n}. ${nameOf(v, ruling ? ruling.shooter : e.cue_ball)} (${ruling ? ruling.shooter : e.cue_ball})`;
      parts.push(a.action.call || t("ruling.noCall"));
      if (e.pots.length) parts.push(t("club.strokes.drops", { list: e.pots.map((p) => `${p[0]}→${p[1]}`).join(", ") }));
      if (e.off_table.length) parts.push(`${t("club.cue.off")}: ${e.off_table.join(", ")}`);
      parts.push(e.first_contact ? t("club.strokes.first", { ball: e.first_contact }) : t("club.strokes.miss"));
      if (e.nakki.length) parts.push(t("club.strokes.nakki", { list: e.nakki.join(", ") }));
    } else if (kind === "place-w2") {
      head = t("club.strokes.placeW2");
    } else if (kind === "break") {
      head = t("club.strokes.break", { who: nameOf(v, a.action.cue_ball), s: Math.round(a.action.seconds) });
    } else if (kind === "choose") {
      head = t("club.starter.chosen", { name: nameOf(v, a.action.cue_ball) });
    } else if (kind === "marked-lag") {
      head = t("club.strokes.lag", { name: v.players[a.action.winner] ? v.players[a.action.winner].name : a.action.winner + 1 });
    } else if (kind === "forfeit") {
      head = `${t("club.strokes.forfeit")}: ${a.action.cue_ball}`;
    } else {
      head = kind;
    }
    const fouls = ruling ? ruling.fouls.map((f) => el("span", { class: "clause-tag foul", title: ruleText(f) }, `§ ${f.clause}`)) : [];
    const points = ruling ? el("span", { class: `points ${ruling.points < 0 ? "neg" : ruling.points > 0 ? "pos" : ""}`, "data-testid": "stroke-points" }, fmtPoints(ruling.points)) : null;
    const editing = this.editing && this.editing.index === a.index;
    return el(
      "li",
      { class: `stroke-row${editing ? " editing" : ""}`, "data-testid": "stroke-row", dataset: { index: a.index, kind } },
      el("span", { class: "stroke-head" }, head),
      el("span", { class: "stroke-text" }, parts.join(" · ")),
      ...fouls,
      points,
      kind === "marked" && this.open()
        ? el("button", { type: "button", class: "small", "data-testid": "edit", disabled: this.busy, onclick: () => this.edit(a.index) }, t("club.strokes.edit"))
        : null,
    );
  }

  renderExports() {
    const game = this.view && this.view.competition;
    const sheet = game && game.scoresheet_url ? game.scoresheet_url : `/club/scoresheet#/match/${this.id}`;
    const links = [
      ["scoresheet", sheet, t("club.export.sheet")],
      ["match-csv", exportsOf.match(this.id, "csv"), t("club.export.match", { format: "CSV" })],
      ["match-json", exportsOf.match(this.id, "json"), t("club.export.match", { format: "JSON" })],
    ];
    if (this.event) {
      links.push(
        ["event-csv", exportsOf.event(this.event, "csv"), t("club.export.event", { format: "CSV" })],
        ["event-json", exportsOf.event(this.event, "json"), t("club.export.event", { format: "JSON" })],
        ["players-csv", exportsOf.event(this.event, "csv", "player"), t("club.export.players", { format: "CSV" })],
        ["players-json", exportsOf.event(this.event, "json", "player"), t("club.export.players", { format: "JSON" })],
      );
    }
    $("export-links").replaceChildren(...links.map(([id, href, text]) => el("li", {}, el("a", { href, "data-testid": `export-${id}`, target: "_blank", rel: "noopener" }, text))));
    $("nav-scoreboard").href = this.event ? `/scoreboard#/event/${encodeURIComponent(this.event)}` : `/scoreboard#/match/${this.id}`;
    $("nav-scoreboard").dataset.href = $("nav-scoreboard").getAttribute("href");
  }

  /** Every second: the clock, its warning (seen and heard), the break running. */
  tick() {
    if (!this.alive() || !this.view) return;
    const box = document.querySelector("#board [data-testid=clock]");
    if (box) {
      const c = renderClock(box, this.view, this.since);
      if (c.warning && !this.alerted.warning) {
        this.alerted.warning = true;
        beep(2);
      }
      if ((c.up || (c.final && c.final.length)) && !this.alerted.up) {
        this.alerted.up = true;
        beep(3);
      }
    }
    if (this.breakRun) {
      const seconds = (Date.now() - this.breakRun.start) / 1000;
      $("break-text").textContent = t("club.break.running", { name: nameOf(this.view, this.breakRun.ball), time: fmtClock(seconds) });
      if (seconds >= MAX_BREAK && !this.busy) this.resumeBreak();
    }
  }
}

// --- keyboard -----------------------------------------------------------------------------------------------

function onKey(event) {
  const page = club.page;
  if (!page || !page.view || $("entry").hidden) return;
  if (page.busy && !["Tab", "Shift"].includes(event.key)) {
    event.preventDefault(); // an entry is being sent: keys would change the entry it answers
    return;
  }
  const target = event.target;
  const tag = (target && target.tagName) || "";
  const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(tag) && !["checkbox", "radio", "button"].includes(target.type);
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    page.submit();
    return;
  }
  if (typing) {
    if (event.key === "Enter" && $("entry").contains(target)) {
      event.preventDefault(); // no implicit submission from a text field: Enter there only confirms the field
      target.blur();
    } else if (event.key === "Escape") {
      target.blur();
    }
    return;
  }
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const key = event.key;
  const lower = key.length === 1 ? key.toLowerCase() : key;
  let handled = true;
  if (key === "Enter") {
    // a focused button outside the entry, a link or a summary does its own thing; inside the entry (the last ball or
    // pocket tapped keeps the focus) Enter enters the stroke
    if ((tag === "BUTTON" && !$("entry").contains(target)) || tag === "A" || tag === "SUMMARY") return;
    page.submit();
  } else if (key === "Escape") {
    page.clearEntry();
  } else if (key === "U") {
    page.askUndo();
  } else if (key === "?") {
    $("keys").open = !$("keys").open;
  } else if (key === "0") {
    page.noCall();
  } else if (lower === "g") {
    page.potAsCalled();
  } else if (lower === "l") {
    page.entry.legal = !page.entry.legal;
    page.renderEntry();
  } else if (key in BALL_KEYS || lower in BALL_KEYS) {
    keyBall(page, BALL_KEYS[key] || BALL_KEYS[lower]);
  } else if (lower in POCKET_KEYS) {
    keyPocket(page, POCKET_KEYS[lower]);
  } else if (lower in TARGET_KEYS) {
    page.setTarget(TARGET_KEYS[lower]);
  } else {
    handled = false;
  }
  if (handled) event.preventDefault();
}

function keyBall(page, ball) {
  const e = page.entry;
  if (e.target === "call") page.setCallBall(ball);
  else if (e.target === "pots") page.pickPotBall(ball);
  else if (e.target === "first") page.setFirst(ball);
  else if (e.target === "nakki") page.toggle("nakki", ball);
  else if (e.target === "off") page.toggleOff(ball);
}

function keyPocket(page, pocket) {
  const e = page.entry;
  if (e.target === "call") page.setCallPocket(pocket);
  else if (e.target === "pots") page.potPocket(pocket);
  else showMessage(() => t("club.pots.pickBall"), "info");
}

// --- wiring -------------------------------------------------------------------------------------------------

function wire() {
  for (const button of document.querySelectorAll("[data-lang]")) button.addEventListener("click", () => setLang(button.dataset.lang));
  onLangChange(() => {
    if (shownMessage && !$("message").hidden) $("message-text").textContent = shownMessage();
    if (document.body.dataset.screen === "new") enterNew();
    if (document.body.dataset.screen === "created") enterCreated(Number((location.hash.match(/^#\/created\/(\d+)/) || [])[1]));
    if (club.page) {
      club.page.buildPickers();
      club.page.render();
      club.page.checkCall();
    }
  });
  $("message-close").addEventListener("click", clearMessage);
  const form = $("form-new");
  form.addEventListener("submit", createMatch);
  form.name1.addEventListener("input", renderBreakerNames);
  form.name2.addEventListener("input", renderBreakerNames);
  $("copy-marker").addEventListener("click", async () => {
    const input = $("marker-link");
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select();
      document.execCommand("copy");
    }
    showMessage(() => t("club.created.copied"), "info");
  });
  const page = () => club.page;
  $("entry").addEventListener("submit", (event) => {
    event.preventDefault();
    if (page()) page().submit();
  });
  $("call-text").addEventListener("input", (event) => page() && page().setCallText(event.target.value));
  $("no-call").addEventListener("click", () => page() && page().noCall());
  $("legal-yes").addEventListener("click", () => {
    if (!page()) return;
    page().entry.legal = true;
    page().renderEntry();
  });
  $("legal-no").addEventListener("click", () => {
    if (!page()) return;
    page().entry.legal = false;
    page().renderEntry();
  });
  $("pot-as-called").addEventListener("click", () => page() && page().potAsCalled());
  $("quick-as-called").addEventListener("click", () => page() && page().quickAsCalled());
  $("quick-more").addEventListener("click", () => page() && page().showEntry(true, true));
  $("clear-entry").addEventListener("click", () => page() && page().clearEntry());
  $("rest-reset").addEventListener("click", () => page() && page().resetRest());
  $("place-confirm").addEventListener("click", () => page() && page().confirmW2());
  $("lag-0").addEventListener("click", () => page() && page().lagWon(0));
  $("lag-1").addEventListener("click", () => page() && page().lagWon(1));
  for (const i of [0, 1]) $(`starter-${i}`).addEventListener("click", (e) => page() && page().chooseStarter(e.currentTarget.dataset.ball));
  $("undo-last").addEventListener("click", () => page() && page().askUndo());
  $("break-resume").addEventListener("click", () => page() && page().resumeBreak());
  $("forfeit-confirm").addEventListener("click", () => page() && page().entry.forfeit && page().forfeit(page().entry.forfeit));
  $("wrong-ball").addEventListener("change", (event) => {
    if (!page()) return;
    page().entry.wrongBall = event.target.checked;
    page().renderEntry();
  });
  $("flags").addEventListener("change", (event) => {
    const flag = event.target.dataset && event.target.dataset.flag;
    if (!page() || !flag) return;
    page().entry.flags[flag] = event.target.checked;
    page().renderEntry();
  });
  $("late-ball").addEventListener("change", (event) => {
    if (!page()) return;
    page().entry.lateBall = event.target.value;
    if (!event.target.value) page().entry.lateBy = "";
    page().renderEntry();
  });
  $("late-by").addEventListener("change", (event) => page() && (page().entry.lateBy = event.target.value));
  $("talonmies").addEventListener("input", (event) => page() && (page().entry.talonmies = event.target.value));
  $("hand-fault").addEventListener("change", (event) => page() && (page().entry.handFault = event.target.value));
  $("undo-yes").addEventListener("click", () => page() && page().undo());
  $("undo-no").addEventListener("click", () => {
    if (!page()) return;
    page().confirmUndo = false;
    page().renderUndo();
  });
  $("queue-retry").addEventListener("click", () => page() && page().queue && page().queue.retryNow());
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", route);
  setInterval(() => club.page && club.page.tick(), 1000);
}

async function route() {
  club.session += 1;
  clearMessage();
  if (club.page) club.page.leave();
  club.page = null;
  const hash = location.hash || "#/new";
  let m;
  if ((m = hash.match(/^#\/match\/(\d+)(?:\/([^/]+))?$/))) {
    document.title = `Kaisa · ${t("club.brand").split("·").pop().trim()} · ${m[1]}`;
    club.page = new MatchPage(Number(m[1]), m[2] ? decodeURIComponent(m[2]) : null);
    window.kaisaClub.page = club.page;
    await club.page.enter();
  } else if ((m = hash.match(/^#\/created\/(\d+)$/))) {
    enterCreated(Number(m[1]));
  } else {
    enterNew();
  }
  document.body.dataset.ready = "true";
}

/** The small tables, made once; their gestures go to the match page shown. */
function createTables() {
  const tables = {};
  for (const name of ["w2", "hand", "rest", "respot"]) tables[name] = new MiniTable($(`${name}-table`), club.table);
  tables.w2.fit(240, 440);
  tables.hand.fit(190, 350);
  tables.rest.fit(190, 350);
  tables.respot.fit(170, 320);
  const page = () => club.page;
  onTablePointer(tables.w2, {
    down: (p) => Boolean(page() && page().placeW2At(p)),
    move: (p) => page() && page().placeW2At(p),
  });
  onTablePointer(tables.hand, {
    down: (p) => Boolean(page() && page().placeCueAt(p)),
    move: (p) => page() && page().placeCueAt(p),
  });
  let dragging = null;
  onTablePointer(tables.rest, {
    down: (p) => {
      dragging = page() ? tables.rest.ballAt(p, 1.8) : null;
      tables.rest.overlay.dragging = dragging;
      return Boolean(dragging);
    },
    move: (p) => page() && page().dragRest(dragging, p, false),
    up: (p, moved) => {
      if (page() && dragging && moved) page().dragRest(dragging, p, true);
      dragging = null;
      tables.rest.overlay.dragging = null;
      if (page()) page().renderEntry();
    },
  });
  return tables;
}

async function main() {
  applyLabels(document);
  // a message sticks below the top bar, which is two rows high on a phone
  const bar = document.querySelector(".topbar");
  new ResizeObserver(() => document.documentElement.style.setProperty("--club-bar", `${bar.offsetHeight}px`)).observe(bar);
  window.kaisaClub = {
    // for tests and the console: where a table point (metres) is in the window, on one of the small tables
    toClient(name, p) {
      return club.tables[name].toClient(p);
    },
    page: null,
  };
  wire();
  try {
    const vocab = fetch("/api/club/marker-facts").then((r) => (r.ok ? r.json() : Promise.reject(new ClubError(r.status, null))));
    [club.table, club.vocab] = await Promise.all([api.table(), vocab]);
  } catch (error) {
    showError(error);
    return;
  }
  club.tables = createTables();
  club.geo = club.tables.w2.geo;
  await route();
}

main();
