// The marker's match page: one club match, loaded and followed live, the context of the stroke being entered, the
// entry's actions (call, pots, first contact, placements...), and talking to the server through the marker's
// queue. What it draws is in club-match-screen.js. No rules live here: the server's referee rules every entry.

import { ApiError, api, clubApi, exportsOf } from "../shared/api.js";
import {
  $,
  find,
  beep,
  nameOf,
  otherWhite,
  renderClock,
  setSkew,
  watch,
  whoOf,
} from "./club-common.js";
import { ClubError, EntryQueue, QueuedError, serverTime } from "./club-queue.js";
import { callParts, entryOf, newEntry } from "./club-entry.js";
import * as screen from "./club-match-screen.js";
import { club, clearMessage, recentOf, showError, showMessage, showScreen } from "./club-shell.js";
import { lang, ruleText, t } from "../shared/i18n.js";
import * as placement from "../shared/placement.js";
import { dist } from "../shared/table.js";
import { el, fmtClock } from "../shared/ui.js";

/** @typedef {import("./club-common.js").View} View @typedef {import("./club-common.js").Outcome} Outcome */
/** @typedef {import("./club-entry.js").Entry} Entry @typedef {import("./club-entry.js").StoredEntry} StoredEntry */
/** @typedef {import("../shared/table.js").Geometry} Geometry */
/** @typedef {import("../shared/table.js").Point} Point @typedef {import("./club-queue.js").QueueItem} QueueItem */
/** @typedef {import("./club-queue.js").Answer} Answer */
/** The context of the stroke being entered: whose it is, from hand, the opening, the balls before it, its number as
 * the marker counts; `waiting` while strokes wait on this phone, `unsure` while the marker has not said whose it is.
 * @typedef {{ shooter: string, fromHand: boolean, opening: boolean, balls: Record<string, Point | null>, n: number,
 *   waiting?: boolean, unsure?: boolean }} Ctx */
/** One action of the match's history (/api/matches/ID/actions) as this page reads it.
 * @typedef {{ index: number, player: number | null, outcome: Outcome,
 *   action: { kind: string, call?: string | null, entry: StoredEntry, cue_ball: string, seconds: number, winner: number, [key: string]: unknown },
 *   state_after: { game: { shooter: string, opening: boolean, in_hand: string[] }, [key: string]: unknown } }} Action */
/** An entry answered: the action, its outcome and the match after it (ClubPlayed).
 * @typedef {{ action: Action["action"], outcome: Outcome, match: View }} Played */
/** The ruling panel: the last outcome, whose, and its call. @typedef {{ outcome: Outcome, who: string | null, call: string | null | undefined }} Last */

const SNAP = 0.03; // m: a ball dragged this near a free spot is put on it
const MAX_BREAK = 300; // s (6)

export class MatchPage {
  /** @param {number} id @param {string | null} token the marker's token, from the link */
  constructor(id, token) {
    this.id = id;
    this.token = token;
    this.api = clubApi(token);
    this.session = club.session;
    /** @type {View | null} */
    this.view = null;
    /** @type {number | null} Date.now() when the match last changed */
    this.since = null;
    /** @type {Action[]} */
    this.actions = [];
    /** @type {Last | null} the ruling panel */
    this.last = null;
    /** @type {{ index: number, n: number, ctx: Ctx } | null} the stroke being corrected */
    this.editing = null;
    this.entry = newEntry();
    /** @type {string | null} */
    this.ctxKey = null;
    this.canEnter = false;
    this.busy = false;
    /** @type {Point | null} */
    this.w2 = null;
    /** @type {{ ball: string, start: number } | null} */
    this.breakRun = null;
    this.alerted = { warning: false, up: false };
    /** @type {string | null} */
    this.event = null;
    /** @type {{ close(): void } | null} */
    this.stream = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.checkTimer = undefined;
    /** @type {{ key: string, detail: string } | null} */
    this.tokenProblem = null;
    /** @type {{ json: string, at: number }[]} views this page was answered in the last seconds */
    this.own = [];
    this.skew = 0; // this device's clock minus the server's (ms), from the Date header
    this.confirmUndo = false;
    /** @type {string | null} whose stroke the marker said the next one is, while strokes wait on this phone */
    this.offShooter = null;
    /** the queue's panel is shown (an entry waits or was refused) */
    this.queueShown = false;
    /** @type {boolean | undefined} the live stream is down */
    this.linkDown = undefined;
    this.queue = token
      ? new EntryQueue(id, token, {
          onChange: () => {
            if (!this.alive()) return;
            this.renderQueue();
            this.renderEntry();
          },
          onLate: (item, answer) => void this.late(item, answer),
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

  /** The club view of the match (with its table, a break running and the clock's start). @returns {Promise<View>} */
  async fetchView() {
    const response = await fetch(`/api/club/matches/${this.id}`);
    if (!response.ok) throw new ClubError(response.status, await response.json().catch(() => null));
    this.noteTime(serverTime(response));
    return response.json();
  }

  /** The server's clock when it answered (ms): this device's difference from it, for the times it sends. */
  /** @param {number} server */
  noteTime(server) {
    if (Number.isFinite(server)) {
      this.skew = Date.now() - server;
      setSkew(this.skew);
    }
  }

  /** Send an entry through the queue (its key made here): the answer, or a QueuedError when it must wait. */
  /** @param {string} kind @param {string} path @param {unknown} body @param {string} label @returns {Promise<any>} */
  async send(kind, path, body, label, method = "POST") {
    const queue = /** @type {EntryQueue} */ (this.queue); // entries are sent only with the marker's token
    const { data, time } = await queue.add(kind, method, `/api/club/matches/${this.id}${path}`, body, label);
    this.noteTime(time);
    return data;
  }

  /** An entry that had to wait was confirmed: show the match as it is now. */
  /** @param {QueueItem} item @param {Answer} answer */
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
  /** @param {View} view @param {{ own?: boolean }} [options] */
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
  /** @param {View} view @returns {View} */
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
  /** @param {string} state */
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

  /** @param {View} view */
  async onStream(view) {
    if (!this.alive() || this.busy) return;
    const json = JSON.stringify(view);
    if (this.view && JSON.stringify(this.view) === json) return;
    // older than the match shown (the stream read it before this page's own answer, and under load delivered it
    // after): applying it would put the page back a step, e.g. to placing W2 with the clock stopped at 0:00
    if (this.view && Date.parse(view.updated_at ?? "") < Date.parse(this.view.updated_at ?? "")) return;
    // the stream sends every change: a view it sends may be one this page was answered a moment ago and has moved past since
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

  /** @returns {Ctx} */
  ctx() {
    if (this.editing) return this.editing.ctx;
    const v = this.shown();
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
    let n = this.shown().strokes + 1;
    for (const item of this.waitingStrokes()) {
      const sent = item.body && /** @type {{ stroke?: unknown }} */ (item.body).stroke;
      n = Math.max(n, typeof sent === "number" && Number.isInteger(sent) ? sent + 1 : n + 1);
    }
    return n;
  }

  /** The strokes entered on this phone and not yet recorded by the server (waiting or being sent). */
  waitingStrokes() {
    if (!this.queue) return [];
    // an entry sent a moment ago and still awaited in the foreground is not waiting (a good connection: no flicker)
    const queue = this.queue;
    return queue.items.filter((i) => i.kind === "stroke" && (i.state === "pending" || i.state === "sending") && !queue.waiters.has(i.key));
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
    /** @type {Record<string, Point>} */
    const balls = {};
    for (const [ball, p] of Object.entries(this.startBalls())) {
      if (!gone.has(ball) && (this.entry.moves[ball] || p)) balls[ball] = this.entry.moves[ball] || /** @type {Point} */ (p);
    }
    return balls;
  }

  /** The entry as the marked stroke's `marks` (MarkedStrokeIn). @returns {Record<string, unknown>} */
  marks() {
    const e = this.entry;
    const c = this.ctx();
    if (e.lateBall) {
      // 8e is an entry of its own: the ball that fell, and who caused it (the referee reads nothing else)
      /** @type {Record<string, unknown>} */
      const marks = { late_fall: { ball: e.lateBall, caused_by: e.lateBy || null } };
      if (c.fromHand && e.place) marks.place = e.place;
      return marks;
    }
    const gone = this.gone();
    const start = this.startBalls();
    /** @type {Record<string, Point>} */
    const moves = {};
    for (const [ball, p] of Object.entries(e.moves)) if (!gone.has(ball) && start[ball]) moves[ball] = p;
    /** @type {Record<string, unknown>} */
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


  // --- entry actions ----------------------------------------------------------------------------------------

  /** @param {import("./club-entry.js").Target} target */
  setTarget(target) {
    this.entry.target = target;
    this.renderEntry();
  }

  /** @param {string} text */
  setCallText(text) {
    this.entry.callText = text;
    this.renderEntry();
    this.checkCall();
  }

  /** @param {string} ball */
  setCallBall(ball) {
    const { tokens } = callParts(this.entry.callText);
    if (tokens.length === 0) tokens.push(ball);
    else tokens[0] = ball;
    this.entry.target = "call";
    this.setCallText(tokens.join(" "));
  }

  /** @param {string} pocket */
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
        status.textContent = error instanceof Error ? error.message : String(error);
        status.className = "call-status bad";
      }
    }, 150);
  }

  /** @param {string} ball */
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

  /** @param {string} pocket */
  potPocket(pocket) {
    const e = this.entry;
    if (!e.pending) {
      showMessage(() => t("club.pots.pickBall"), "info");
      return;
    }
    this.addPot(e.pending, pocket);
  }

  /** @param {string} ball @param {string} pocket */
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

  /** @param {string} ball */
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

  /** @param {string} ball */
  quickMissed(ball) {
    this.entry.first = ball;
    this.entry.pots = [];
    return this.submit();
  }

  /** @param {string | null} ball */
  setFirst(ball) {
    this.entry.first = ball;
    this.entry.target = "pots";
    this.renderEntry();
  }

  /** @param {"nakki" | "off" | "cushion"} field @param {string} ball */
  toggle(field, ball) {
    const set = this.entry[field];
    if (set.has(ball)) set.delete(ball);
    else set.add(ball);
    this.renderEntry();
  }

  /** @param {string} ball */
  toggleOff(ball) {
    const e = this.entry;
    const dropped = e.pots.find((p) => p[0] === ball);
    if (!e.off.has(ball) && dropped) {
      showMessage(() => t("club.pots.twice", { ball, pocket: dropped[1] }), "error");
      return;
    }
    this.toggle("off", ball);
  }

  /** @param {string | null} where a pocket, "off" the table, or null (stayed on) */
  cueTo(where) {
    const e = this.entry;
    const cue = this.struck();
    e.pots = e.pots.filter((p) => p[0] !== cue);
    e.off.delete(cue);
    if (where === "off") e.off.add(cue);
    else if (where) e.pots.push([cue, where]);
    this.renderEntry();
  }

  /** @param {Point} p */
  placeCueAt(p) {
    const c = this.ctx();
    if (!c.fromHand) return false;
    const geo = /** @type {Geometry} */ (club.geo);
    const a = placement.area(geo, "hand", c.balls, c.shooter);
    this.entry.place = placement.legalize(geo, p, a, this.entry.place);
    delete this.entry.moves[c.shooter];
    this.renderEntry();
    return true;
  }

  /** @param {string | null} ball @param {Point} p @param {boolean} done */
  dragRest(ball, p, done) {
    if (!ball) return;
    const others = this.restBalls();
    delete others[ball];
    const geo = /** @type {Geometry} */ (club.geo);
    /** @type {Point | null} */
    let q = null;
    for (const spot of Object.values(/** @type {NonNullable<typeof club.table>} */ (club.table).spots)) {
      if (dist(p, spot) < SNAP && Object.values(others).every((o) => dist(o, spot) >= 2 * geo.R)) q = [spot[0], spot[1]];
    }
    if (!q) q = placement.legalize(geo, p, placement.area(geo, "bed", others, ball), this.restBalls()[ball] ?? null);
    if (!q) return;
    this.entry.moves[ball] = q;
    if (done) this.renderEntry();
    else this.drawRest();
  }

  resetRest() {
    this.entry.moves = {};
    this.renderEntry();
  }

  /** @param {Point} p */
  placeW2At(p) {
    const v = this.view;
    if (!v || v.phase !== "place-w2") return false;
    const geo = /** @type {Geometry} */ (club.geo);
    const a = placement.area(geo, "w2", v.position.balls, "W2", { corridors: /** @type {import("../shared/placement.js").Corridor[]} */ (v.w2_corridors) });
    this.w2 = placement.legalize(geo, p, a, this.w2);
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
  /** @param {() => Promise<void>} work */
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

  /** @param {Played} answer */
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
    const covered = bar instanceof HTMLElement && getComputedStyle(bar).position === "sticky" ? bar.offsetHeight : 0;
    box.style.scrollMarginTop = `${covered + 8}px`;
    box.scrollIntoView({ block: "start", behavior: "instant" });
  }

  /** On opening the page: the stroke due in view, the call at the top below the top bar, the confirm button
   * stuck to the bottom edge (on a phone the board and the last ruling come first and push it below the fold). */
  showEntry(always = false, form = false) {
    const quick = $("quick");
    if (!form && screen.showHandFirst(this)) return;
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
    const run = this.breakRun;
    if (run) {
      showMessage(() => t("club.break.running", { name: nameOf(this.shown(), run.ball), time: fmtClock((Date.now() - run.start) / 1000) }), "info");
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
    const view = this.view;
    const result = view && view.result;
    if (view && result) showMessage(() => t("club.over", { text: t("match.winner", { name: nameOf(view, result.winner), ball: result.winner }) }), "info");
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
  /** @param {string} ball */
  chooseStarter(ball) {
    return this.run(async () => {
      const answer = await this.send("starter", "/shootout-starter", { cue_ball: ball }, t("club.starter.chosen", { name: nameOf(this.shown(), ball) }));
      await this.loadActions();
      this.played(answer);
    });
  }

  /** @param {number} winner */
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

  /** @param {string} ball */
  forfeit(ball) {
    return this.run(async () => {
      const answer = await this.send("forfeit", "/forfeit", { cue_ball: ball }, t("club.strokes.forfeit"));
      await this.loadActions();
      this.played(answer);
      this.entry.forfeit = null;
      this.afterOver();
    });
  }

  /** @param {string} ball */
  startBreak(ball) {
    if (!this.canEnter) {
      showMessage(this.tokenText(), "error");
      return;
    }
    this.breakRun = { ball, start: Date.now() };
    // the clock's limit grows with the break as it runs (the server is told too, for the scoreboard)
    const since = new Date(Date.now() - this.skew).toISOString();
    this.view = { ...this.shown(), break_running: { cue_ball: ball, since } };
    this.render();
    // the server keeps the running break (the scoreboard shows it, a restart keeps it); it is recorded with its
    // length when it ends. Sent in the entries' queue, so that with no connection it goes, in order, later
    /** @type {EntryQueue} */ (this.queue) // a break is started only with the marker's token
      .add("break-start", "POST", `/api/club/matches/${this.id}/break-start`, { cue_ball: ball, since }, t("club.break.of", { name: nameOf(this.shown(), ball) }))
      .catch((error) => {
        if (!(error instanceof QueuedError)) showError(error);
      });
  }

  resumeBreak() {
    const run = this.breakRun;
    if (!run) return;
    const seconds = Math.max(1, Math.min(MAX_BREAK, Math.round((Date.now() - run.start) / 1000)));
    return this.run(async () => {
      const answer = await this.send("break", "/break", { cue_ball: run.ball, seconds }, t("club.break.of", { name: nameOf(this.shown(), run.ball) }));
      await this.loadActions();
      this.breakRun = null;
      this.played(answer);
    });
  }

  /** @param {number} index */
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
    this.entry = entryOf(action.action, ctx, club.vocab);
    clearMessage();
    this.render();
    this.checkCall();
    $("entry").scrollIntoView({ block: "start" });
  }

  buildPickers() {
    screen.buildPickers(this);
  }

  // --- rendering (club-match-screen.js) ----------------------------------------------------------------------

  render() {
    return screen.render(this);
  }

  renderQueue() {
    return screen.renderQueue(this);
  }

  renderUndo() {
    return screen.renderUndo(this);
  }

  renderPlace() {
    return screen.renderPlace(this);
  }

  renderButtons() {
    return screen.renderButtons(this);
  }

  renderEntry() {
    return screen.renderEntry(this);
  }

  drawRest() {
    return screen.drawRest(this);
  }

  /** The match shown: the page acts on a match only once it has its view. */
  shown() {
    return /** @type {View} */ (this.view);
  }

  /** Whether this page takes entries: the link may enter, and the match is not a competition game decided
   * already (by the director's result or by its own end: then a correction goes through the director). */
  open() {
    return this.canEnter && !(this.view && this.view.competition && this.view.competition.decided_by);
  }

  /** @param {string} ball */
  armForfeit(ball) {
    this.entry.forfeit = this.entry.forfeit === ball ? null : ball;
    this.renderEntry();
  }

  /** Every second: the clock, its warning (seen and heard), the break running. */
  tick() {
    if (!this.alive() || !this.view) return;
    const box = document.querySelector("#board [data-testid=clock]");
    if (box instanceof HTMLElement) {
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
      $("break-text").textContent = t("club.break.running", { name: nameOf(this.shown(), this.breakRun.ball), time: fmtClock(seconds) });
      if (seconds >= MAX_BREAK && !this.busy) this.resumeBreak();
    }
  }
}
