// What the marker's page (club.js) and the spectator scoreboard (scoreboard.js) share: the scoreboard of a
// club match with its live clock, the ruling, the spots a respotted ball goes to, small tables, the live stream.
// No rules live here: the server's referee decides; these pages show what it answered.

import "./club-strings.js";
import { serverTime } from "./club-queue.js";
import { ruleText, serverText, t } from "../shared/i18n.js";
import { TableView } from "../shared/table.js";
import { ballChip, el, fmtClock, fmtPoints, rulingItem, shownNotes } from "../shared/ui.js";

/** @typedef {import("../shared/types/api").components["schemas"]} Schemas */
/** @typedef {import("../shared/table.js").Point} Point @typedef {import("../shared/table.js").TableJson} TableJson */
/** @typedef {import("../shared/ui.js").RulingItem} RulingItem */
/** The competition clock as the match view gives it (rule 6).
 * @typedef {{ mode: string, elapsed: number, limit: number, breaks?: Record<string, number>, warned?: boolean,
 *   final_innings: string[] | null, [key: string]: unknown }} Clock */
/** How the match ended: the winner, the scores, the scoresheet's (3) and why.
 * @typedef {{ winner: string, reason: string, scores: Record<string, number>, recorded: Record<string, number> }} MatchResult */
/** The penalty shoot-out (6). @typedef {{ first: string, innings: Record<string, number>, choice_open?: boolean }} Shootout */
/** A referee's ruling of one action.
 * @typedef {{ shooter: string, points: number, items: RulingItem[], fouls: RulingItem[], notes?: RulingItem[],
 *   game_over?: boolean, turn_passes?: boolean, [key: string]: unknown }} Ruling */
/** An action's outcome: its ruling (a stroke's) and notes (a lag's, a placement's...).
 * @typedef {{ ruling?: Ruling | null, notes?: (string | { fi?: string, en?: string })[], [key: string]: unknown }} Outcome */
/** A club match as the pages show it: the API's ClubView with the shapes it leaves open spelled out.
 * @typedef {Omit<Schemas["ClubView"], "clock" | "result" | "shootout" | "last" | "break_running" | "position"> & {
 *   clock: Clock, result: MatchResult | null, shootout: Shootout | null, last: Outcome | null,
 *   break_running?: { cue_ball: string, since: string } | null,
 *   position: { balls: Record<string, Point | null>, [key: string]: unknown }, winning_score?: number }} View */

/** The page's element `id` (the page's HTML holds it), of class `kind` (HTMLElement unless told).
 * @template {HTMLElement} [E=HTMLElement] @param {string} id @param {new () => E} [kind] @returns {E} */
export function $(id, kind) {
  const node = document.getElementById(id);
  if (!(node instanceof (kind || HTMLElement))) throw new Error(`#${id}: no such element`);
  return /** @type {E} */ (node);
}

/** A form field as the page reads it by name: an input, a select or a radio group (value, checked...).
 * @typedef {HTMLInputElement & HTMLSelectElement} Field */
/** A form of the page with its fields by name (the DOM's named access to form controls). Not HTMLFormElement
 * itself: its `[name: string]: any` would make every field `any`.
 * @typedef {{ [name: string]: Field } & Pick<HTMLFormElement, "addEventListener" | "contains">} Form */
/** The page's form `id`. @param {string} id @returns {Form} */
export function formOf(id) {
  return /** @type {Form} */ (/** @type {unknown} */ ($(id, HTMLFormElement)));
}

/** The page's element `id` if it is there yet (a notice made on first need), else null.
 * @param {string} id @returns {HTMLElement | null} */
export function find(id) {
  const node = document.getElementById(id);
  return node instanceof HTMLElement ? node : null;
}
export const CUE_BALLS = ["W1", "W2"];
export const WARNING_SECONDS = 300; // rule 6: the warning five minutes before the time is up

/** @param {string} ball */
export function otherWhite(ball) {
  return ball === "W1" ? "W2" : "W1";
}

/** @param {{ players: Schemas["PlayerOut"][] }} view @param {string} ball */
export function nameOf(view, ball) {
  const player = view.players.find((p) => p.cue_ball === ball);
  return player ? player.name : ball;
}

/** @param {View} view @param {string} ball */
export function whoOf(view, ball) {
  return t("ruling.byShooter", { name: nameOf(view, ball), ball });
}

/** @param {View} view */
export function playing(view) {
  return view.phase === "play" || view.phase === "shootout";
}

/** 6: the shoot-out's lag winner is still to choose who shoots first. @param {View} view */
export function choosingStarter(view) {
  return view.phase === "shootout" && Boolean(view.shootout && view.shootout.choice_open);
}

// --- the clock ----------------------------------------------------------------------------------------------

/** The competition clock now: the server's playing time plus the time since the match last changed (`since`,
 * a Date.now() value) while a stroke is due, the limit with the breaks, and whether to warn.
 * @param {View} view @param {number | null | undefined} since */
export function clockNow(view, since, now = Date.now()) {
  const c = view.clock;
  const running = c.mode === "wall" && view.phase === "play" && !c.final_innings && typeof since === "number";
  const live = running ? Math.max(0, (now - since) / 1000) : 0;
  const elapsed = c.elapsed + live;
  // a break running extends the limit as it goes (6): the time left stands still, and no minute vanishes
  const limit = c.limit + (running ? breakSeconds(view, now) : 0);
  const up = !c.final_innings && elapsed >= limit;
  const warning = !c.final_innings && !up && (c.warned || elapsed >= limit - WARNING_SECONDS);
  return { mode: c.mode, elapsed, limit, running, warning, up, final: c.final_innings };
}

let serverSkew = 0;
/** This device's clock minus the server's (ms), for the times the server sends. @param {number} ms */
export function setSkew(ms) {
  serverSkew = ms;
}

/** Seconds of the break running now (0 when none). @param {View} view */
export function breakSeconds(view, now = Date.now()) {
  const run = view.break_running;
  if (!run) return 0;
  const since = Date.parse(run.since);
  return Number.isFinite(since) ? Math.max(0, Math.min(300, (now - since - serverSkew) / 1000)) : 0;
}

/** The physical table's name (the club's own number), or the match's number when no table was given.
 * @param {{ table_label?: string | null, id: number }} view */
export function tableTitle(view) {
  return view.table_label ? t("sb.table", { label: view.table_label }) : t("sb.matchNo", { id: view.id });
}

/** When each stored match last changed, as Date.now() values: /api/matches has the server's times; the answer's
 * server time corrects for a difference between the server's clock and this device's.
 * @returns {Promise<Map<number, number>>} */
export async function changeTimes() {
  const response = await fetch("/api/matches");
  if (!response.ok) return new Map();
  const server = serverTime(response);
  const skew = Number.isFinite(server) ? Date.now() - server : 0;
  /** @type {Schemas["MatchSummary"][]} */
  const list = await response.json();
  return new Map(list.map((m) => [m.id, Date.parse(m.updated_at ?? "") + skew]));
}

/** Fill `box` with the clock of `view`.
 * @param {HTMLElement} box @param {View} view @param {number | null | undefined} since */
export function renderClock(box, view, since) {
  box.replaceChildren();
  const c = clockNow(view, since);
  box.dataset.mode = c.mode;
  box.dataset.running = String(c.running);
  if (c.mode !== "wall") {
    box.append(el("span", { class: "hint", "data-testid": "clock-off" }, `${t("clock.title")}: ${t("clock.off")}`));
    return c;
  }
  box.append(
    el("span", { class: "clock-label" }, `${t("clock.title")} `),
    el("span", { class: "clock-time mono", "data-testid": "clock-time" }, `${fmtClock(c.elapsed)} / ${fmtClock(c.limit)}`),
  );
  if (c.final) {
    const left = c.final.map((ball) => nameOf(view, ball)).join(", "); // whose innings, by the players' names
    const text = c.final.length ? t("clock.final", { left }) : t("clock.over");
    box.append(el("span", { class: "tag warn", "data-testid": "clock-final" }, text));
  } else if (c.up) {
    box.append(el("span", { class: "tag warn", "data-testid": "clock-up" }, t("club.clock.up")));
  } else if (c.warning) {
    box.append(el("span", { class: "tag warn blink", "data-testid": "clock-warning", role: "alert" }, t("clock.warning")));
  }
  if (view.break_running) {
    const ball = view.break_running.cue_ball;
    box.append(
      el("span", { class: "tag warn break-now", "data-testid": "break-now" }, t("sb.break", { name: nameOf(view, ball), time: fmtClock(breakSeconds(view)) })),
    );
  }
  for (const ball of CUE_BALLS) {
    const seconds = (view.clock.breaks || {})[ball];
    if (seconds !== undefined) {
      box.append(el("span", { class: "tag", "data-testid": `break-taken-${ball}` }, `${nameOf(view, ball)}: ${t("club.break.taken", { s: Math.round(seconds) })}`));
    }
  }
  return c;
}

/** A short beep (WebAudio); counted in body[data-beeps] so that it can be checked. */
/** @type {AudioContext | null} */
let audio = null;
export function beep(times = 2) {
  document.body.dataset.beeps = String(Number(document.body.dataset.beeps || 0) + 1);
  try {
    const Context = window.AudioContext || /** @type {{ webkitAudioContext?: typeof AudioContext }} */ (window).webkitAudioContext;
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume();
    for (let i = 0; i < times; i++) {
      const start = audio.currentTime + 0.05 + i * 0.28;
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = "sine";
      osc.frequency.value = 880;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.3, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.18);
      osc.connect(gain).connect(audio.destination);
      osc.start(start);
      osc.stop(start + 0.2);
    }
    document.body.dataset.audio = audio.state;
  } catch (error) {
    document.body.dataset.audio = `unavailable: ${error instanceof Error ? error.message : String(error)}`;
  }
}

// --- the scoreboard -----------------------------------------------------------------------------------------

/** Fill `box` with the scoreboard of a club match: names, cue balls, scores to the target (60, or a
 * competition's), innings, run, fouls, who is at the table and in hand, the clock (ticking from `since`), the
 * shoot-out and the result. `playerExtra(i)` may add controls to a player's card (the marker's break buttons).
 * @param {HTMLElement} box @param {View} view
 * @param {{ since?: number | null, playerExtra?: ((i: number, ball: string | null) => Node | null) | null }} [options] */
export function renderBoard(box, view, { since = null, playerExtra = null } = {}) {
  box.replaceChildren();
  box.dataset.phase = view.phase;
  const live = playing(view) && !choosingStarter(view);
  const target = view.winning_score || 60; // the points that win (3): the competition's target, or 60
  // a competition game whose result the director typed: the game's result is the kaavio's, not what the strokes
  // entered here (often none) add up to
  const byDirector = view.competition && view.competition.decided_by === "director" ? view.competition.points : null;
  const players = el("div", { class: "players" });
  view.players.forEach((p, i) => {
    const ball = p.cue_ball;
    const atTable = Boolean(ball && live && view.shooter === ball);
    const score = byDirector ? Number(byDirector[i]) || 0 : ball ? view.scores[ball] : 0;
    const won = byDirector ? Number(byDirector[i]) > Number(byDirector[1 - i]) : view.result && view.result.winner === ball;
    players.append(
      el(
        "div",
        { class: `player${atTable ? " at-table" : ""}${won ? " winner" : ""}`, "data-testid": `player-${i}`, dataset: { ball: ball || "" } },
        el(
          "div",
          { class: "name-row" },
          ballChip(ball),
          el("span", { class: "name", "data-testid": `name-${i}` }, p.name),
          el("span", { class: "ball-id", "data-testid": `ball-${i}` }, ball || ""),
        ),
        el(
          "div",
          { class: "score-row" },
          el("span", { class: "score", "data-testid": `score-${i}` }, String(score)),
          el("span", { class: "target", "data-testid": `target-${i}` }, `/ ${target}`),
        ),
        el("div", { class: "bar" }, el("span", { style: `width:${Math.max(0, Math.min(100, (score / target) * 100))}%` })),
        el(
          "div",
          { class: "stats" },
          `${t("match.innings")}: `,
          el("span", { "data-testid": `innings-${i}` }, String(ball ? view.innings[ball] : 0)),
          ` · ${t("match.fouls")}: `,
          el("span", { "data-testid": `fouls-${i}` }, String(ball ? view.fouls[ball] || 0 : 0)),
        ),
        el(
          "div",
          { class: "tags" },
          atTable ? el("span", { class: "tag at", "data-testid": `at-table-${i}` }, t("match.atTable")) : null,
          atTable && view.from_hand ? el("span", { class: "tag hand", "data-testid": `in-hand-${i}` }, t("match.inHand")) : null,
        ),
        playerExtra ? playerExtra(i, ball) : null,
      ),
    );
  });
  box.append(players);
  const meta = el("div", { class: "meta" });
  if (view.table_label) meta.append(el("span", { class: "table-label", "data-testid": "table-label" }, t("sb.table", { label: view.table_label })));
  meta.append(el("span", { "data-testid": "phase", dataset: { phase: view.phase } }, `${t("match.phase")}: ${t(`phase.${view.phase}`)}`));
  if (live) meta.append(el("span", { "data-testid": "run" }, `${t("match.run")}: ${view.run}`));
  box.append(meta);
  const clock = el("div", { class: "clock", "data-testid": "clock" });
  box.append(clock);
  renderClock(clock, view, since);
  if (view.shootout) {
    const so = view.shootout;
    const order = [so.first, otherWhite(so.first)];
    box.append(
      el(
        "div",
        { class: "shootout", "data-testid": "shootout" },
        el("strong", {}, `${t("shootout.title")}: `),
        order.map((b) => t("shootout.innings", { name: nameOf(view, b), ball: b, n: so.innings[b] })).join(" · "),
        el(
          "span",
          { "data-testid": "shootout-starter", dataset: { choosing: String(Boolean(so.choice_open)) } },
          ` (${so.choice_open ? t("club.starter.choosing", { name: nameOf(view, so.first) }) : t("shootout.first", { name: nameOf(view, so.first) })})`,
        ),
      ),
    );
  }
  if (byDirector) {
    const score = `${view.players[0].name} ${byDirector[0]}–${byDirector[1]} ${view.players[1].name}`;
    box.append(el("div", { class: "result", "data-testid": "result-by-director" }, t("sb.byDirector", { score })));
  } else if (view.result) box.append(resultLine(view));
}

/** The result in one line (of a finished match). @param {View} view */
export function resultLine(view) {
  const r = /** @type {MatchResult} */ (view.result);
  const rec = view.players.map((p) => (p.cue_ball ? r.recorded[p.cue_ball] : 0));
  return el(
    "div",
    { class: "result", "data-testid": "result" },
    el("strong", {}, t("match.winner", { name: nameOf(view, r.winner), ball: r.winner })),
    ` · ${t("match.recorded", { a: rec[0], b: rec[1] })} · ${serverText(r.reason)}`,
  );
}

/** The last ruling in one line, for the spectators. @param {View} view */
export function headline(view) {
  const last = view.last;
  if (!last) return "";
  const r = last.ruling;
  if (r) {
    const notes = shownNotes(r);
    const main = r.fouls[0] || r.items[0] || notes[notes.length - 1];
    const parts = [whoOf(view, r.shooter)];
    if (main) parts.push(`${ruleText(main)} (§ ${main.clause})`);
    parts.push(t("ruling.points", { points: fmtPoints(r.points) }));
    if (!r.game_over) parts.push(r.turn_passes ? t("ruling.passes") : t("ruling.continues"));
    return parts.join(" · ");
  }
  return (last.notes || []).map(serverText).join(" · ");
}

// --- the ruling -------------------------------------------------------------------------------------------------

/** An action's outcome item by item with the clauses, as the referee gave it.
 * @param {Outcome | null | undefined} outcome @param {{ who?: string | null, call?: string | null }} [options] */
export function rulingBlock(outcome, { who = null, call } = {}) {
  const box = el("div", { class: "ruling-block" });
  if (!outcome) return box;
  const ruling = outcome.ruling;
  if (ruling) {
    const line = [];
    if (who) line.push(who);
    if (call !== undefined) line.push(call ? call : t("ruling.noCall"));
    if (line.length) box.append(el("p", { class: "who", "data-testid": "ruling-who" }, line.join(" · ")));
    const list = el("ul", { class: "ruling-items" });
    for (const item of ruling.items) list.append(rulingItem(item, "item"));
    for (const item of ruling.fouls) list.append(rulingItem(item, "foul"));
    for (const item of shownNotes(ruling)) list.append(rulingItem(item, "note"));
    for (const note of outcome.notes || []) list.append(el("li", { class: "ruling-item note", "data-testid": "outcome-note" }, serverText(note)));
    box.append(
      list,
      el(
        "p",
        { class: "summary", "data-testid": "ruling-summary" },
        el("strong", {}, t("ruling.points", { points: fmtPoints(ruling.points) })),
        " · ",
        ruling.turn_passes ? t("ruling.passes") : t("ruling.continues"),
      ),
    );
  } else if (outcome.notes && outcome.notes.length) {
    box.append(el("ul", { class: "ruling-items" }, outcome.notes.map((n) => el("li", { class: "ruling-item note", "data-testid": "outcome-note" }, serverText(n)))));
  }
  return box;
}

// --- spots ------------------------------------------------------------------------------------------------------

/** The name of the table spot at `p` (the table JSON's spots), or null.
 * @param {TableJson & { spots: Record<string, Point> }} table @param {Point} p */
export function spotAt(table, p, tolerance = 0.002) {
  for (const [name, q] of Object.entries(table.spots)) {
    if (Math.hypot(p[0] - q[0], p[1] - q[1]) <= tolerance) return name;
  }
  return null;
}

/** @param {string} name */
export function spotLabel(name) {
  return t(`spot.${name}`);
}

/** The spots that a ball other than `except` covers in `balls` (a ball put on the spot would touch it).
 * @param {TableJson & { spots: Record<string, Point> }} table @param {Record<string, Point | null | undefined>} balls
 * @param {string[]} [except] */
export function takenSpots(table, balls, except = []) {
  /** @type {{ spot: string, ball: string }[]} */
  const taken = [];
  const reach = 2 * table.ball_radius;
  for (const [name, q] of Object.entries(table.spots)) {
    for (const [ball, p] of Object.entries(balls)) {
      if (except.includes(ball) || !p) continue;
      if (Math.hypot(p[0] - q[0], p[1] - q[1]) < reach) {
        taken.push({ spot: name, ball });
        break;
      }
    }
  }
  return taken;
}

/** @param {Point} p */
export function fmtPoint(p) {
  return { x: p[0].toFixed(3), y: p[1].toFixed(3) };
}

// --- small tables -------------------------------------------------------------------------------------------

/** The table drawing of table.js, small, with rings that mark balls (a respot, a placement). */
export class MiniTable extends TableView {
  /** @param {HTMLCanvasElement} canvas @param {TableJson} table */
  constructor(canvas, table) {
    super(canvas, table);
    /** @type {{ p: Point, label?: string, colour?: string }[]} */
    this.rings = [];
  }

  _drawOverlayOver() {
    super._drawOverlayOver();
    const ctx = this.ctx;
    const px = 1 / this.scale;
    for (const ring of this.rings) {
      ctx.strokeStyle = ring.colour || "#ffe066";
      ctx.lineWidth = 3 * px;
      ctx.beginPath();
      ctx.arc(ring.p[0], ring.p[1], this.geo.R + 5 * px, 0, 2 * Math.PI);
      ctx.stroke();
    }
    if (this.rings.some((r) => r.label)) {
      this._pixels();
      ctx.font = `bold ${Math.max(11, Math.round(this.scale * 0.07))}px system-ui, sans-serif`;
      ctx.textAlign = "left";
      ctx.textBaseline = "middle";
      for (const ring of this.rings) {
        if (!ring.label) continue;
        const [x, y] = this.toPx(ring.p);
        const w = ctx.measureText(ring.label).width + 8;
        ctx.fillStyle = "rgba(0,0,0,0.72)";
        ctx.fillRect(x + 12, y - 10, w, 20);
        ctx.fillStyle = ring.colour || "#ffe066";
        ctx.fillText(ring.label, x + 16, y);
      }
      this._metres();
    }
  }

  /** Where table point `p` (metres) is in the window, for tests and the console.
   * @param {Point} p @returns {[number, number]} */
  toClient(p) {
    const rect = this.canvas.getBoundingClientRect();
    const [x, y] = this.toPx(p);
    return [rect.left + x, rect.top + y];
  }
}

/** Pointer gestures on a small table: `down(p)` returns whether to follow the gesture; `move(p)` while dragging;
 * `up(p, moved)` at the end.
 * @param {TableView} view
 * @param {{ down: (p: Point) => unknown, move?: (p: Point) => void, up?: (p: Point, moved: boolean) => void }} handlers */
export function onTablePointer(view, { down, move = () => {}, up = () => {} }) {
  const canvas = view.canvas;
  /** @type {{ start: [number, number], moved: boolean } | null} */
  let gesture = null;
  canvas.addEventListener("pointerdown", (event) => {
    const p = view.eventPoint(event);
    if (!down(p)) return;
    gesture = { start: [event.clientX, event.clientY], moved: false };
    canvas.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  canvas.addEventListener("pointermove", (event) => {
    if (!gesture) return;
    if (!gesture.moved && Math.hypot(event.clientX - gesture.start[0], event.clientY - gesture.start[1]) < 3) return;
    gesture.moved = true;
    move(view.eventPoint(event));
  });
  canvas.addEventListener("pointerup", (event) => {
    if (!gesture) return;
    const moved = gesture.moved;
    gesture = null;
    up(view.eventPoint(event), moved);
  });
  canvas.addEventListener("pointercancel", () => {
    gesture = null;
  });
}

// --- the live stream ------------------------------------------------------------------------------------------

/** Follow a server-sent-events stream of `view` messages; EventSource reconnects by itself after a dropped
 * connection, and this starts it again after a refused one. `onState` hears "connecting", "live", "reconnecting".
 * @template V @param {string} url @param {(view: V) => void} onView @param {(state: string) => void} [onState] */
export function watch(url, onView, onState = () => {}) {
  /** @type {EventSource | null} */
  let source = null;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer = undefined;
  let closed = false;
  const open = () => {
    if (closed) return;
    onState("connecting");
    source = new EventSource(url);
    source.addEventListener("open", () => onState("live"));
    const opened = source;
    source.addEventListener("view", (event) => {
      onState("live");
      onView(JSON.parse(event.data));
    });
    source.addEventListener("error", () => {
      document.body.dataset.reconnects = String(Number(document.body.dataset.reconnects || 0) + 1);
      onState("reconnecting");
      if (opened.readyState === EventSource.CLOSED) {
        opened.close();
        timer = setTimeout(open, 3000);
      }
    });
  };
  open();
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      if (source) source.close();
    },
  };
}

/** @param {string} state */
export function liveBadge(state) {
  const key = state === "live" ? "sb.live" : "sb.reconnecting";
  return el("span", { class: `live-badge ${state}`, "data-testid": "live-status", dataset: { state } }, t(key));
}
