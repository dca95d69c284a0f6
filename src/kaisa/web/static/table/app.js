// The browser table: routing between the start screen, a match, the history with replays and the study
// table. No rules live here: the server's referee decides everything; the page places, aims, calls, animates
// and shows what the server answered.

import { api, serverNow } from "../shared/api.js";
import { CallControls, StrokeControls, calledBall, normaliseDirection } from "./controls.js";
import { applyLabels, lang, levelDescription, levelName, onLangChange, playerName, serverText, setLang, setPlayerKinds, t } from "../shared/i18n.js";
import * as placement from "../shared/placement.js";
import { ballChip, el, fmtClock, fmtPoints, rulingItem, shownNotes } from "../shared/ui.js";
import { fmtDecimal } from "./controls.js";
import * as aids from "./aim.js";
import * as sound from "../shared/sound.js";
import { BALL_IDS, TableView, degrees, dist, mergeTrajectories } from "../shared/table.js";

const $ = (id) => document.getElementById(id);
const LAG_SPEED = 1.41; // m/s: about what brings a lag ball back near the head cushion
const ANIM_KEY = "kaisa.animSpeed";
const NAME_KEY = "kaisa.name";
const HINT_KEY = "kaisa.hintLevel";
const LOG_PAGE = 60; // the stroke log reads the newest this many actions
const REPLAY_PAGE = 50; // the replay reads the history this many actions at a time, as it needs them
const STUDY_KEY = "kaisa.study";
/** The study's game state as set by hand (the referee's GameState; `twice` is its 2.1 flag). */
const STUDY_STATE = { scores: { W1: 0, W2: 0 }, in_hand: [], opening: false, twice: false, kaisa_off_centre: false };

const app = {
  table: null, // the table JSON
  view: null, // TableView
  players: null, // /api/players
  mode: null, // the current table mode (match, replay, study)
  session: 0, // bumped on every route change: stale async work checks it
  stroke: null,
  call: null,
};

// --- messages -------------------------------------------------------------------------------------------

function showMessage(text, kind = "error") {
  const box = $("message");
  $("message-text").textContent = text;
  box.className = `message ${kind}`;
  box.dataset.kind = kind;
  box.hidden = false;
}

function showError(error) {
  const text = error && error.message ? error.message : String(error);
  console.error(error);
  showMessage(text, "error");
}

function clearMessage() {
  $("message").hidden = true;
  $("message-text").textContent = "";
}

// --- small helpers ----------------------------------------------------------------------------------------

function animSpeed() {
  const v = Number(localStorage.getItem(ANIM_KEY) || "1");
  return Number.isFinite(v) && v > 0 ? v : 1;
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function show(id, visible) {
  $(id).hidden = !visible;
}

/** Scroll the page so that `node` is in view between the top bar and a phone's fixed Shoot bar, with as much
 * of the table above it as fits (a hint is read beside its drawing). */
function reveal(node) {
  const own = node.getBoundingClientRect();
  const table = $("table-wrap").getBoundingClientRect();
  const bottom = footTop();
  const top = document.querySelector(".topbar").getBoundingClientRect().bottom;
  const above = table.bottom <= own.top + 1; // a phone: the table is right above the panel
  if (above && own.bottom - table.top <= bottom - top) {
    window.scrollBy({ top: table.top - top - 4 }); // the table and the node both
  } else if (above) {
    window.scrollBy({ top: own.bottom - bottom + 8 }); // the node at the foot, the table's lower part above it
  } else if (own.bottom > bottom) {
    window.scrollBy({ top: Math.min(own.bottom - bottom + 8, own.top - top - 8) });
  } else if (own.top < top) {
    window.scrollBy({ top: own.top - top - 8 });
  }
}

/** The phases in which the person to move works on the table (lags, places, aims). */
const AT_TABLE = new Set(["lag", "shootout-lag", "place-w2", "play", "shootout"]);

/** On a phone, scroll the page so that the whole table is on the screen, right under the top bar and above a
 * bar fixed at the foot: called when balls are about to move and when the person is to aim or place, so neither a
 * stroke nor the aim happens off the screen (the ruling and the controls follow below the table). */
function keepTableInView() {
  if (!app.view || window.innerWidth >= 820 || $("screen-table").hidden) return;
  const rect = app.view.canvas.getBoundingClientRect();
  const top = document.querySelector(".topbar").getBoundingClientRect().bottom;
  const bottom = footTop();
  if (rect.top >= top && rect.bottom <= bottom) return;
  window.scrollBy({ top: rect.top - top - 2, behavior: "instant" });
}

// --- placement areas (placement.js) ----------------------------------------------------------------------

function geo() {
  return app.view.geo;
}

const area = (kind, balls, exclude, extra = {}) => placement.area(geo(), kind, balls, exclude, extra);
const legalize = (p, a, fallback) => placement.legalize(geo(), p, a, fallback);
const firstLegal = (candidates, a) => placement.firstLegal(geo(), candidates, a);
const lightOf = placement.lightOf;

// --- layout ------------------------------------------------------------------------------------------------

/** Size the table to the screen. Phones: the table on top, short enough that the controls follow. Wide screens
 * (>= 1180 px): the table on its side with the scoreboard and ruling under it when that makes it larger,
 * else upright with them in a column beside it; the controls in a column on the right either way. */
function fitTable() {
  if (!app.view) return;
  const wrap = $("table-wrap");
  const screen = $("screen-table");
  const top = document.querySelector(".topbar").offsetHeight;
  const g = app.view.geo;
  const frame = 0.27; // m of frame around the bed, both sides together
  const wide = window.innerWidth >= 1180;
  dockControls();
  if (!wide) {
    screen.classList.remove("lying", "upright");
    const narrow = window.innerWidth < 820;
    const maxW = Math.max(200, wrap.clientWidth - 8);
    // a phone keeps the whole table between the top bar and the dock of the shot's controls at the foot
    const maxH = Math.max(240, window.innerHeight - top - (narrow ? dockHeight() + 16 : 20));
    app.view.fit(maxW, maxH, false);
  } else {
    const availW = window.innerWidth - 410 - 3 * 16 - 30;
    const availH = window.innerHeight - top - 24;
    const lying = Math.min(availW / (g.L + frame), (availH - 170) / (g.W + frame));
    const upright = Math.min((availW - 320) / (g.W + frame), availH / (g.L + frame));
    const landscape = lying >= upright;
    screen.classList.toggle("lying", landscape);
    screen.classList.toggle("upright", !landscape);
    if (landscape) app.view.fit(availW, availH - 170, true);
    else app.view.fit(availW - 320, availH, false);
    const height = app.view.canvas.getBoundingClientRect().height;
    screen.style.setProperty("--table-h", `${Math.round(height)}px`);
  }
  app.stroke.drawTip();
}

// --- a phone's dock -------------------------------------------------------------------------------------------

/** The nodes a phone's dock holds, each with the dock row it goes to (null: the dock itself, in this order). */
const DOCKED = [
  ["prompt", null],
  ["phase-actions", null],
  ["call-quick", "dock-call"],
  ["aim-call", "dock-call"],
  ["power-bar", "dock-power"],
  ["shoot-row", null],
];
const homes = new Map(); // node id -> the comment that marks its place outside the dock

/** Below 820 px the shot's controls go to the dock at the foot of the screen (so the table, the call, the aim
 * helper, the power and Shoot are all on one screen), and back to their places on a wider screen. */
function dockControls() {
  const dock = $("dock");
  // (a replay has its own bar at the foot and no shot to play: its controls stay in their places)
  const narrow = window.innerWidth < 820 && document.body.dataset.screen === "table" && $("replay-controls").hidden;
  for (const [id, row] of DOCKED) {
    const node = $(id);
    if (narrow && !homes.has(id)) {
      const mark = document.createComment(`dock:${id}`);
      node.before(mark);
      homes.set(id, mark);
      if (row) $(row).append(node);
      else if (id === "shoot-row") dock.append(node);
      else $("dock-call").before(node);
    } else if (!narrow && homes.has(id)) {
      homes.get(id).replaceWith(node);
      homes.delete(id);
    }
  }
  dock.hidden = !narrow;
  syncDock();
}

/** The dock's rows follow the panels they came from: the call only while calling, the power while stroking. */
function syncDock() {
  if ($("dock").hidden) return;
  $("dock-call").hidden = $("call-controls").hidden;
  $("dock-power").hidden = $("stroke-controls").hidden;
  document.body.style.setProperty("--dock-h", `${$("dock").offsetHeight}px`);
}

/** The top of whatever is fixed at the foot of the screen (a phone's dock or replay bar), or its height. */
function footTop() {
  let bottom = window.innerHeight;
  for (const id of ["dock", "shoot-row", "replay-buttons"]) {
    const bar = $(id);
    if (bar && bar.getClientRects().length && getComputedStyle(bar).position === "fixed") bottom = Math.min(bottom, bar.getBoundingClientRect().top);
  }
  return bottom;
}

/** The dock's height when it holds a stroke's controls (the most it holds), so the table keeps its size from
 * phase to phase. */
function dockHeight() {
  const dock = $("dock");
  if (dock.hidden) return 0;
  const rows = ["dock-call", "dock-power"].map((id) => [id, $(id).hidden]);
  for (const [id] of rows) $(id).hidden = false;
  const shootRow = $("shoot-row");
  const shootHidden = shootRow.hidden;
  shootRow.hidden = false;
  const height = dock.offsetHeight;
  for (const [id, hidden] of rows) $(id).hidden = hidden;
  shootRow.hidden = shootHidden;
  return Math.max(height, 160);
}

function showScreen(name) {
  for (const id of ["screen-start", "screen-history", "screen-table"]) show(id, id === `screen-${name}`);
  document.body.dataset.screen = name;
  dockControls();
}

/** Which of the table screen's panels a mode shows. */
function showPanels({ call = false, stroke = false, shoot = false, study = false, replay = false }) {
  show("call-controls", call);
  show("stroke-controls", stroke);
  show("shoot-row", shoot);
  show("study-controls", study);
  show("replay-controls", replay);
  dockControls();
}

// --- the canvas: dragging, aiming, clicking --------------------------------------------------------------

/** The aim the pointer works on: the cue ball and the direction drawn (null when nothing is being aimed). */
function currentAim() {
  const aims = (app.view.overlay && app.view.overlay.aims) || [];
  const aim = aims.find((a) => !a.faint);
  return aim || null;
}

/** Drags on the table: a draggable ball moves; from the cue ball pulls back the cue (power); near the aim
 * line turns the aim finely (0.02° a pixel, Shift 0.002°: the sensitivity falls near the aim); elsewhere the
 * aim points at the pointer. A click calls a ball or a pocket. */
function installPointer(canvas) {
  let gesture = null;
  canvas.addEventListener("pointerdown", (event) => {
    const mode = app.mode;
    if (!mode || app.view.animating || (mode.busy && mode.busy())) return;
    const p = app.view.eventPoint(event);
    const ball = mode.draggableAt ? mode.draggableAt(p) : null;
    const origin = ball ? app.view.balls[ball] : null;
    gesture = { ball, start: [event.clientX, event.clientY], moved: false, offset: origin ? [origin[0] - p[0], origin[1] - p[1]] : [0, 0] };
    // a cue ball that may be both moved and pulled back from (the study): the first move decides (straight back
    // from the aim pulls the cue, any other way moves the ball)
    gesture.either = Boolean(ball && mode.aimAt && mode.pullsFrom && mode.pullsFrom(ball) && currentAim());
    const aim = ball && !gesture.either ? null : currentAim();
    if (aim && mode.aimAt) {
      const g = app.view.geo;
      const scale = app.view.scale;
      const d = [Math.cos((aim.direction * Math.PI) / 180), Math.sin((aim.direction * Math.PI) / 180)];
      const rel = [p[0] - aim.from[0], p[1] - aim.from[1]];
      const along = rel[0] * d[0] + rel[1] * d[1];
      const across = Math.abs(rel[0] * d[1] - rel[1] * d[0]);
      if (Math.hypot(rel[0], rel[1]) < g.R * 2.2 || (along < 0 && across * scale < 22)) {
        gesture.kind = "pull"; // from the cue ball, or on the cue behind it
        gesture.aim = aim;
      } else if (along > 0 && across * scale < 18) {
        gesture.kind = "fine";
        gesture.aim = aim;
        gesture.direction = aim.direction;
        gesture.point = p;
      }
    }
    if (ball && !gesture.either) app.view.overlay.dragging = ball;
    canvas.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  canvas.addEventListener("pointermove", (event) => {
    if (!gesture || !app.mode) return;
    if (!gesture.moved && Math.hypot(event.clientX - gesture.start[0], event.clientY - gesture.start[1]) < 4) return;
    const p = app.view.eventPoint(event);
    if (!gesture.moved && gesture.either) {
      const a = gesture.aim;
      const d = [Math.cos((a.direction * Math.PI) / 180), Math.sin((a.direction * Math.PI) / 180)];
      const from = app.view.eventPoint({ clientX: gesture.start[0], clientY: gesture.start[1] });
      const move = [p[0] - from[0], p[1] - from[1]];
      if (-(move[0] * d[0] + move[1] * d[1]) > 0.7 * Math.hypot(move[0], move[1])) gesture.ball = null; // back: pull
      else {
        gesture.kind = null;
        app.view.overlay.dragging = gesture.ball;
      }
    }
    gesture.moved = true;
    if (gesture.ball) app.mode.dragTo(gesture.ball, [p[0] + gesture.offset[0], p[1] + gesture.offset[1]]);
    else if (gesture.kind === "pull") {
      pullTo(gesture.aim, p);
      app.view.overlay.pull = { speed: app.stroke.value.speed };
    } else if (gesture.kind === "fine") {
      const a = gesture.aim;
      const n = [-Math.sin((gesture.direction * Math.PI) / 180), Math.cos((gesture.direction * Math.PI) / 180)];
      const moved = ((p[0] - gesture.point[0]) * n[0] + (p[1] - gesture.point[1]) * n[1]) * app.view.scale;
      const gain = event.shiftKey ? 0.002 : 0.02;
      app.stroke.set({ direction: normaliseDirection(gesture.direction + moved * gain) });
      void a;
    } else if (app.mode.aimAt) app.mode.aimAt(p);
  });
  const end = (event) => {
    if (!gesture || !app.mode) return;
    const p = app.view.eventPoint(event);
    // the power is where the pull was let go (a touch screen may send its last move well before the release)
    if (gesture.kind === "pull" && gesture.moved && !gesture.ball) pullTo(gesture.aim, p);
    const g = gesture;
    gesture = null;
    app.view.overlay.dragging = null;
    app.view.overlay.pull = null;
    if (!g.moved && g.kind === "pull" && !g.either) return app.view.draw();
    if (!g.moved && app.mode.click) app.mode.click(p, g.ball);
    else if (g.ball && app.mode.dragEnd) app.mode.dragEnd(g.ball);
    app.view.draw();
  };
  canvas.addEventListener("pointerup", end);
  canvas.addEventListener("pointercancel", () => {
    gesture = null;
    app.view.overlay.dragging = null;
  });
}

/** The power from how far the cue is pulled back behind the cue ball to table point `p` (metres along the aim,
 * the same for a finger and a mouse): 0.5 m of pull is full power. */
function pullTo(aim, p) {
  const d = [Math.cos((aim.direction * Math.PI) / 180), Math.sin((aim.direction * Math.PI) / 180)];
  const back = -((p[0] - aim.from[0]) * d[0] + (p[1] - aim.from[1]) * d[1]);
  const speed = Math.max(0.1, Math.min(8, (Math.max(0, back) / 0.5) * 8));
  app.stroke.set({ speed: Math.round(speed * 20) / 20 });
}

/** Clicks on the table in modes with aiming and calling: a pocket calls it, an object ball calls it, anywhere
 * else aims there. */
function clickToCallOrAim(mode, p, cue) {
  // a tap inside a pocket's drawn hole calls the pocket, even with a ball hanging in its jaws
  const hole = app.view.pocketHoleAt(p);
  if (hole) {
    app.call.setPocket(hole);
    return;
  }
  const ball = app.view.ballAt(p, 1.2);
  if (ball && ball !== cue) {
    app.call.setBall(ball);
    return;
  }
  const pocket = app.view.pocketAt(p);
  if (pocket) {
    app.call.setPocket(pocket);
    return;
  }
  mode.aimAt(p);
}

function aimFrom(origin, p) {
  if (!origin || dist(origin, p) < 1e-4) return;
  app.stroke.set({ direction: normaliseDirection(degrees(Math.atan2(p[1] - origin[1], p[0] - origin[0]))) });
}

/** "Aim at the called pot": first the ghost-ball aim at once, then the centre of the window of directions
 * that pots the call with the physics (`ask(call, stroke)` is the match's or the study table's aim request);
 * the speed and spin are kept unless they pot in no direction, then the helper's are taken (and it says so).
 * When nothing pots, the aim stays where it was and the status says what to try. */
async function aimAtCall(mode, cue, balls, ask) {
  const c = app.call.current();
  if (!c.ball || !c.pocket || !balls[c.ball] || !cue) {
    showMessage(t("stroke.aimNeedsCall"), "info");
    return;
  }
  const before = app.stroke.value.direction;
  app.stroke.set({ direction: normaliseDirection(app.view.geo.ghostAim(cue, balls[c.ball], c.pocket)) });
  const resolved = await app.call.resolve();
  if (resolved.error || !resolved.call) {
    showMessage(resolved.error || t("stroke.aimNeedsCall"), "error");
    return;
  }
  const seq = (app.aimSeq = (app.aimSeq || 0) + 1);
  setAimStatus({ state: "working" });
  mode.aiming = true;
  mode.render();
  try {
    const stroke = mode.strokeNow();
    const answer = await ask(resolved.call, stroke);
    if (seq !== app.aimSeq || !mode.alive()) return;
    if (!answer.found) {
      app.stroke.set({ direction: before });
      app.aimWindow = null;
      setAimStatus({ state: "none", said: answer.said });
      return;
    }
    app.stroke.set({ direction: normaliseDirection(answer.direction), speed: answer.speed, side: answer.side, follow: answer.follow });
    app.aimWindow = { direction: normaliseDirection(answer.direction), width: answer.width, key: aimKey(cue, resolved.call) };
    setAimStatus({ state: "ok", width: answer.width, speed: answer.speed, said: answer.said });
  } catch (error) {
    if (seq !== app.aimSeq) return;
    setAimStatus({ state: "error", text: error.message });
  } finally {
    mode.aiming = false;
    if (mode.alive()) mode.render();
  }
}

const WINDOW_DELAY = 400; // ms after the last change of call, power or spin before the window is asked for
let shownWindow = { key: null, answer: null, timer: null, seq: 0 };

/** The full aid's potting window for the call as set (the aim helper's search, asked in the background when
 * the call, the cue ball, the power or the spin change, never the direction): {direction, width} to draw on
 * the aim, or null while it is asked for, when no direction pots at this power and spin, or without a call. */
function windowFor(mode, cue, balls) {
  if (aids.level() !== "full" || !mode.askAim || !cue) return null;
  const text = app.call.current().text;
  if (!text || !app.call.accepted(text)) return null;
  const stroke = mode.strokeNow();
  const key = JSON.stringify([balls, text, cue, stroke.speed, stroke.side, stroke.follow, stroke.elevation, stroke.place || null]);
  if (shownWindow.key === key) return shownWindow.answer && shownWindow.answer.direction !== undefined ? shownWindow.answer : null;
  clearTimeout(shownWindow.timer);
  const mine = shownWindow.seq + 1;
  shownWindow = { key, answer: null, timer: null, seq: mine };
  shownWindow.timer = setTimeout(async () => {
    if (!mode.alive() || mode.busy()) {
      if (shownWindow.seq === mine) shownWindow.key = null; // asked again at the next render
      return;
    }
    let answer;
    try {
      answer = await mode.askAim(text, stroke, false);
    } catch {
      answer = null; // no window to draw (the call cannot be aimed at here): the preview still says what happens
    }
    if (shownWindow.seq !== mine || !mode.alive()) return;
    const same = answer && answer.found && Math.abs(answer.speed - stroke.speed) < 0.005 && answer.side === stroke.side && answer.follow === stroke.follow;
    shownWindow.answer = same ? { direction: normaliseDirection(answer.direction), width: answer.width } : { none: true };
    if (same) app.aimWindow = { ...shownWindow.answer, key: aimKey(cue, text) };
    if (!mode.busy()) mode.render();
  }, WINDOW_DELAY);
  return null;
}

/** What a found window belongs to: the cue ball's place and the call (a window of another set-up is no help). */
function aimKey(cue, call) {
  return `${cue[0].toFixed(4)},${cue[1].toFixed(4)}:${call}`;
}

/** The aim helper's line under the stroke, kept as what it says (not its words), so that it follows the
 * language; null clears it (a new turn, a new setup, a stroke played). */
function setAimStatus(status) {
  app.aimStatus = status;
  renderAimStatus();
}

function renderAimStatus() {
  const box = $("aim-status");
  const s = app.aimStatus;
  if (!s) {
    box.textContent = "";
    delete box.dataset.state;
    return;
  }
  const said = s.said ? (lang() === "fi" ? s.said.fi : s.said.en) : "";
  let text = s.text || "";
  if (s.state === "working") text = t("aim.searching");
  else if (s.state === "ok") text = [t("aim.window", { width: fmtNum(s.width, 3), speed: fmtNum(s.speed, 2) }), said].filter(Boolean).join(" ");
  else if (s.state === "none") text = said;
  box.textContent = text;
  box.dataset.state = s.state;
}

/** Forget the aim helper's answer: its status line and its window. */
function clearAim() {
  app.aimSeq = (app.aimSeq || 0) + 1;
  app.aimWindow = null;
  setAimStatus(null);
}

/** +1 when a larger direction turns the aim anticlockwise as seen on the screen, -1 if the table were drawn
 * mirrored: read from how the view maps the table's axes to the screen (whose y runs down). */
function screenSense() {
  if (!app.view) return 1;
  const [a, b, c] = [[0, 0], [1, 0], [0, 1]].map((p) => app.view.toPx(p));
  const cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return cross < 0 ? 1 : -1;
}

/** The arrow keys' step (degrees): 0.1, and 0.01 near a window the aim helper found (within 0.5 degrees of its
 * centre, for the same cue ball and call) or while the preview says the call goes in. */
function fineStep() {
  const w = app.aimWindow;
  const cue = app.mode && app.mode.cuePosition ? app.mode.cuePosition() : app.mode && app.mode.position ? app.mode.position[app.mode.shooter] : null;
  const text = app.call ? app.call.current().text : "";
  const near = w && cue && text && w.key === aimKey(cue, text) && Math.abs(normaliseDirection(app.stroke.value.direction - w.direction)) < 0.5;
  const preview = document.getElementById("preview-status");
  return near || (preview && preview.dataset.state === "pots") ? 0.01 : 0.1;
}

/** A number in the page's language: decimal comma in Finnish. */
function fmtNum(x, digits) {
  return fmtDecimal(x, digits);
}

// --- rulings ------------------------------------------------------------------------------------------------

/** Render an action's outcome in the ruling panel. With `reveal`, items appear one after another. */
async function renderOutcome(target, entry, { reveal = false, alive = () => true, onItem = null } = {}) {
  target.replaceChildren();
  if (!entry) return;
  const { outcome, who, call } = entry;
  if (!outcome || (!outcome.lag && !outcome.ruling && !(outcome.notes && outcome.notes.length))) return;
  const items = [];
  const head = el("h3", {}, t("ruling.title"));
  target.append(head);
  if (outcome.lag) {
    const lag = outcome.lag;
    const names = entry.names || ["1", "2"];
    const box = el("div", { class: "lag-result", "data-testid": "lag-result" });
    box.append(el("p", { class: "strong" }, lag.winner === null || lag.winner === undefined ? t("match.lagAgain") : t("match.lagResult", { name: names[lag.winner] })));
    lag.reasons.forEach((reasons, i) => {
      box.append(
        el("p", { class: "hint" }, reasons.length ? t("match.lagFault", { name: names[i], reasons: reasons.map(serverText).join(", ") }) : t("match.lagGood", { name: names[i] })),
      );
    });
    // how near each lag ball came to the head cushion (its edge from the cushion's nose), as players measure
    const radius = app.table ? app.table.ball_radius : 0.034;
    (outcome.records || []).forEach((record, i) => {
      const ball = record.stroke ? record.stroke.ball : i === 0 ? "W1" : "W2";
      const at = record.final && record.final.balls ? record.final.balls[ball] : null;
      const seat = ball === "W1" ? 0 : 1;
      // the lag balls by their side: W1 and W2 are the cue balls chosen after the lag, not the lag's
      const side = t(seat === 0 ? "match.lagLeft" : "match.lagRight");
      const text = at ? t("match.lagDistance", { name: names[seat], side, cm: fmtNum((at[1] - radius) * 100, 1) }) : t("match.lagGone", { name: names[seat], side });
      box.append(el("p", { class: "lag-distance", "data-testid": `lag-distance-${seat}` }, ballChip(ball), " ", text));
    });
    target.append(box);
  }
  const ruling = outcome.ruling;
  target.dataset.legalPot = ruling ? String(Boolean(ruling.legal_pot)) : "";
  if (ruling) {
    if (who || call !== undefined) {
      const line = [];
      if (who) line.push(who);
      if (call !== undefined) line.push(call ? call : t("ruling.noCall"));
      target.append(el("p", { class: "who", "data-testid": "ruling-who" }, line.join(" · ")));
    }
    if (call && !ruling.legal_pot) target.append(el("p", { class: "missed", "data-testid": "ruling-missed" }, t("ruling.callMissed", { call })));
    const list = el("ul", { class: "ruling-items" });
    target.append(list);
    const said = []; // the ruling's lines beside their list items, for onItem
    const add = (node, item) => {
      items.push(node);
      said.push(item);
    };
    for (const item of ruling.items) add(rulingItem(item, "item"), item);
    for (const item of ruling.fouls) add(rulingItem(item, "foul"), item);
    for (const item of shownNotes(ruling)) add(rulingItem(item, "note"), item);
    for (const note of outcome.notes || []) add(el("li", { class: "ruling-item note", "data-testid": "outcome-note" }, serverText(note)), null);
    const summary = el(
      "p",
      { class: "summary", "data-testid": "ruling-summary" },
      el("strong", {}, t("ruling.points", { points: fmtPoints(ruling.points) })),
      " · ",
      ruling.game_over ? t("ruling.gameOver") : ruling.turn_passes ? t("ruling.passes") : t("ruling.continues"),
    );
    if (reveal) {
      for (const [i, item] of items.entries()) {
        if (!alive()) return;
        list.append(item);
        item.classList.add("fresh");
        // what the line says happens on the table as it is read (a ball put on its spot)
        if (onItem && said[i]) await onItem(said[i]);
        await sleep(220 / animSpeed());
      }
    } else {
      list.append(...items);
    }
    target.append(summary);
  } else if (outcome.notes && outcome.notes.length) {
    target.append(el("ul", { class: "ruling-items" }, outcome.notes.map((n) => el("li", { class: "ruling-item note", "data-testid": "outcome-note" }, serverText(n)))));
  }
  target.dataset.revealed = String(Number(target.dataset.revealed || 0) + 1);
}

/** Where each ball was last seen moving in `records` (a potted ball: at its pocket). */
function lastSeen(records) {
  const { paths } = mergeTrajectories(records || []);
  const out = {};
  for (const [ball, path] of Object.entries(paths)) {
    for (let i = path.samples.length - 1; i >= 0; i--) {
      if (path.samples[i]) {
        out[ball] = path.samples[i];
        break;
      }
    }
  }
  return out;
}

/** The balls as the ruling leaves them once the stroke's motion is over, except the respotted ones, which are
 * put on their spots one by one as the ruling's lines say so (`onItem`, for renderOutcome), each from where it
 * left the table (or rests, the kaisa going back to the centre); `finish` puts any left over. */
function settle(records, ruling, overlay = {}) {
  const respots = new Map(Object.entries((ruling && ruling.respots) || {}));
  const balls = { ...ruling.position.balls };
  for (const ball of respots.keys()) delete balls[ball];
  app.view.balls = balls;
  app.view.overlay = { ...overlay, respotted: [] };
  app.view.draw();
  const from = lastSeen(records);
  const put = async (ball) => {
    const to = respots.get(ball);
    respots.delete(ball);
    // for tests and the curious: which ball went, and the ruling's line on screen when it did
    const shown = document.querySelectorAll("#ruling .ruling-item");
    const line = shown.length ? shown[shown.length - 1].dataset.clause || "" : "";
    const canvas = app.view.canvas;
    canvas.dataset.respotOrder = `${canvas.dataset.respotOrder ? `${canvas.dataset.respotOrder};` : ""}${ball}@${line}`;
    await app.view.respot(ball, from[ball] || null, to, 380 / animSpeed());
  };
  return {
    async onItem(item) {
      if (item.clause !== "4" && item.clause !== "4.1") return;
      const en = item.en || "";
      const ball = [...respots.keys()].find((b) => (b === "K" ? /kaisa/i.test(en) : en.includes(b)));
      if (ball) await put(ball);
    },
    async finish() {
      for (const ball of [...respots.keys()]) await put(ball);
    },
  };
}

// --- the match ------------------------------------------------------------------------------------------------

class MatchMode {
  constructor(id) {
    this.id = id;
    this.session = app.session;
    this.data = null; // MatchView
    this.working = false;
    this.turnKey = null;
    this.place = null; // the shooter's placement when in hand
    this.lag = {}; // player index -> {place, stroke}
    this.lagActive = null;
    this.w2 = null;
    this.entry = null; // the outcome in the ruling panel
    this.inning = []; // the computer's strokes (and choice) since the person's last action, before this.entry
    this.log = [];
    this.breakStart = null; // the server's time when this page's break began (the clock stands while it runs)
    this.computerError = null;
    this.hint = null; // the advisor's hint for this turn: {turn, state: "thinking" | "shown" | "empty", advice, since}
  }

  alive() {
    return app.session === this.session;
  }

  busy() {
    return this.working || app.view.animating;
  }

  async enter() {
    showScreen("table");
    showPanels({});
    fitTable();
    $("inning").replaceChildren();
    let view;
    try {
      view = await api.match(this.id);
    } catch (error) {
      showError(error);
      $("prompt").textContent = t("match.notFound", { id: this.id });
      return;
    }
    if (!this.alive()) return;
    this.entry = view.last ? { outcome: view.last, names: view.players.map((p) => playerName(p)) } : null;
    this.update(view);
    this.loadLog();
  }

  /** The stroke log: the newest page of the history (a long match is not read whole), numbered from the
   * match's first stroke. */
  async loadLog() {
    try {
      const total = this.data ? this.data.actions : 0;
      const offset = Math.max(0, total - LOG_PAGE);
      const actions = total ? await api.actions(this.id, offset, LOG_PAGE) : [];
      if (!this.alive()) return;
      this.log = [];
      this.logEarlier = actions.length > 0 && actions[0].state_after.strokes > (actions[0].action.kind === "shot" ? 1 : 0);
      for (const a of actions) this.addLog(a.action, a.outcome, false, a.state_after.strokes);
      const last = actions[actions.length - 1];
      if (last && this.entry && last.action.kind === "shot" && last.outcome.ruling) {
        this.entry.call = last.action.call;
        this.entry.who = this.whoOf(last.outcome.ruling.shooter);
      }
      this.renderLog();
      this.renderRuling();
    } catch (error) {
      showError(error);
    }
  }

  names() {
    return this.data.players.map((p) => playerName(p));
  }

  playerOf(ball) {
    return this.data.players.findIndex((p) => p.cue_ball === ball);
  }

  whoOf(ball) {
    const i = this.playerOf(ball);
    return i >= 0 ? t("ruling.byShooter", { name: playerName(this.data.players[i]), ball }) : ball;
  }

  isHuman(i) {
    return i !== null && i !== undefined && this.data.players[i].kind === "human";
  }

  humanToMove() {
    const v = this.data;
    if (!v || v.phase === "over" || v.computer_to_move) return false;
    if (v.to_move === null) return v.players.some((p) => p.kind === "human");
    return this.isHuman(v.to_move);
  }

  lagBall(i) {
    return i === 0 ? "W1" : "W2";
  }

  update(view) {
    this.data = view;
    const turn = this.turnKey;
    this.syncTurn();
    this.render();
    // the person's new turn at the table (to lag, place or aim): the whole table on a phone's screen
    if (this.turnKey !== turn && this.humanToMove() && AT_TABLE.has(view.phase)) keepTableInView();
    this.maybeComputer();
  }

  /** New turn (any new action): fresh placements and aim. */
  syncTurn() {
    const v = this.data;
    const key = `${v.actions}:${v.phase}:${v.shooter}:${v.from_hand}`;
    if (key === this.turnKey) return;
    this.turnKey = key;
    this.hint = null; // a hint is for one turn
    clearAim(); // and so is the aim helper's answer
    this.lastPhase = this.syncedPhase;
    this.syncedPhase = v.phase;
    const g = geo();
    const balls = v.position.balls;
    if (v.phase === "lag" || v.phase === "shootout-lag") {
      const objects = v.phase === "shootout-lag" ? {} : balls;
      this.lag = {};
      this.lagActive = null;
      for (const i of [0, 1]) {
        if (!this.isHuman(i)) continue;
        const a = area(i === 0 ? "lag-left" : "lag-right", objects, null);
        const place = firstLegal([[i === 0 ? g.W / 4 : (3 * g.W) / 4, g.L / 8]], a);
        // a starting power near a good lag, a little different for each player: the person sets the lag, the
        // default does not win it (nor tie two people who both leave it)
        const speed = Math.round((LAG_SPEED + (Math.random() - 0.5) * 0.3) * 100) / 100;
        this.lag[i] = { place, stroke: { direction: 90, speed, elevation: 0, side: 0, follow: 0 } };
        if (this.lagActive === null) this.lagActive = i;
      }
      if (this.lagActive !== null) app.stroke.set({ ...this.lag[this.lagActive].stroke }, { silent: true });
    } else if (v.phase === "place-w2") {
      const a = area("w2", balls, "W2", { corridors: v.w2_corridors });
      this.w2 = firstLegal([[g.W * 0.5, g.L * 0.92], [g.W * 0.5, g.L * 0.85], [g.W * 0.2, g.L * 0.7], [g.W * 0.8, g.L * 0.7]], a);
    } else if (v.phase === "play" || v.phase === "shootout") {
      if (this.lastPhase !== "play" && this.lastPhase !== "shootout") app.stroke.set({ speed: 2 }, { silent: true });
      this.place = null;
      if (v.from_hand) {
        const a = area("hand", balls, v.shooter);
        this.place = firstLegal([[g.W * 0.62, g.L * 0.15], [g.W * 0.38, g.L * 0.15], [g.W * 0.5, g.L * 0.1], [g.W * 0.8, g.L * 0.2]], a);
      }
      const cue = this.cuePosition();
      const target = balls.K || balls.R2 || balls.R1 || Object.values(balls).find((p, i) => Object.keys(balls)[i] !== v.shooter);
      const direction = cue && target ? normaliseDirection(degrees(Math.atan2(target[1] - cue[1], target[0] - cue[0]))) : 90;
      app.stroke.set({ direction, elevation: 0, side: 0, follow: 0 }, { silent: true });
      app.call.reset();
    }
  }

  cuePosition() {
    const v = this.data;
    if (v.from_hand) return this.place;
    return v.position.balls[v.shooter] || null;
  }

  /** The balls to draw now: the position plus whatever is being placed. */
  tableBalls() {
    const v = this.data;
    const balls = { ...v.position.balls };
    if (v.phase === "lag" || v.phase === "shootout-lag") {
      if (v.phase === "shootout-lag") for (const b of Object.keys(balls)) delete balls[b]; // the shoot-out lag is played on an empty table
      for (const [i, lag] of Object.entries(this.lag)) if (lag.place) balls[this.lagBall(Number(i))] = lag.place;
    } else if (v.phase === "place-w2" && this.humanToMove() && this.w2) {
      balls.W2 = this.w2;
    } else if ((v.phase === "play" || v.phase === "shootout") && v.from_hand && this.humanToMove() && this.place) {
      balls[v.shooter] = this.place;
    }
    return balls;
  }

  render() {
    if (!this.alive() || !this.data) return;
    const v = this.data;
    const human = this.humanToMove();
    const busy = this.busy();
    const playing = v.phase === "play" || v.phase === "shootout";
    const lagging = v.phase === "lag" || v.phase === "shootout-lag";
    renderScoreboard(v, { liveSeconds: human && playing ? this.thinkingSeconds() : 0 });
    showPanels({
      call: human && playing,
      stroke: human && (playing || (lagging && this.lagActive !== null)),
      shoot: human && (playing || lagging) ? true : v.can_undo,
    });
    const shoot = $("shoot");
    shoot.hidden = !(human && (playing || lagging));
    shoot.textContent = lagging ? t("stroke.lag") : t("stroke.shoot");
    shoot.disabled = busy || this.breakStart !== null;
    const undo = $("undo");
    undo.hidden = !v.can_undo || !v.players.some((p) => p.kind === "human");
    // the whole sentence when it fits on the bar's line, else the person's own stroke alone (a phone's bar at
    // the foot, a narrow column); the whole sentence stays the button's title and accessible name
    const label = this.undoLabel();
    undo.textContent = label.full;
    undo.title = label.full;
    undo.setAttribute("aria-label", label.full);
    if (!undo.hidden && undo.offsetParent !== null && !fitsOnItsLine(undo)) undo.textContent = label.short;
    undo.disabled = busy;
    const brk = $("take-break");
    const myBall = this.breakBall();
    brk.hidden = !(v.clock.mode === "wall" && v.phase === "play" && human && myBall && !(myBall in (v.clock.breaks || {})) && this.breakStart === null);
    brk.disabled = busy;
    $("aim-call").disabled = busy || this.aiming || aids.level() === "none";
    $("aim-call").hidden = !playing; // nothing is called in the lag: nothing to aim at
    show("hint-row", human && playing);
    show("hint", human && playing);
    $("hint").disabled = busy || Boolean(this.hint && this.hint.state === "thinking");
    for (const option of $("hint-level").options) option.textContent = levelName(option.value);
    this.renderHint();

    // the table
    const balls = this.tableBalls();
    const overlay = {};
    if (human && lagging) {
      const objects = v.phase === "shootout-lag" ? {} : v.position.balls;
      const active = this.lagActive;
      overlay.draggable = Object.keys(this.lag).map((i) => this.lagBall(Number(i)));
      if (active !== null) overlay.legal = lightOf(area(active === 0 ? "lag-left" : "lag-right", objects, null));
      overlay.aims = Object.entries(this.lag).map(([i, lag]) => ({
        from: lag.place,
        ball: this.lagBall(Number(i)),
        direction: Number(i) === active ? app.stroke.value.direction : lag.stroke.direction,
        speed: lag.stroke.speed,
        faint: Number(i) !== active,
      }));
    } else if (human && v.phase === "place-w2") {
      overlay.corridors = v.w2_corridors;
      overlay.draggable = ["W2"];
      overlay.legal = lightOf(area("w2", v.position.balls, "W2", { corridors: v.w2_corridors }));
    } else if (v.phase === "place-w2") {
      overlay.corridors = v.w2_corridors;
    } else if (human && playing) {
      app.call.setBalls(Object.keys(balls), v.shooter);
      const cue = this.cuePosition();
      if (v.from_hand) {
        overlay.draggable = [v.shooter];
        overlay.legal = lightOf(area("hand", v.position.balls, v.shooter));
      }
      const c = app.call.current();
      if (cue) overlay.aims = [{ from: cue, ball: v.shooter, direction: app.stroke.value.direction, speed: app.stroke.value.speed, aids: aids.level(), call: c, window: windowFor(this, cue, balls) }];
      overlay.preview = aids.previewFor(this);
      overlay.callBall = c.ball;
      overlay.callPocket = c.pocket;
      if (this.hint && this.hint.advice) overlay.advice = [this.hint.advice];
    }
    if (!app.view.animating) {
      app.view.balls = balls;
      app.view.overlay = overlay;
      app.view.draw();
    }
    const canvas = app.view.canvas;
    canvas.dataset.phase = v.phase;
    canvas.dataset.balls = Object.keys(balls).sort().join(",");
    canvas.dataset.hint = this.hint && this.hint.advice ? this.hint.advice.call || "safety" : "";
    const cue = playing ? this.cuePosition() : null;
    canvas.dataset.cue = cue ? `${cue[0].toFixed(4)},${cue[1].toFixed(4)}` : "";
    canvas.dataset.w2 = this.w2 && v.phase === "place-w2" ? `${this.w2[0].toFixed(4)},${this.w2[1].toFixed(4)}` : "";
    canvas.dataset.lag = Object.entries(this.lag)
      .map(([i, l]) => `${i}:${l.place[0].toFixed(4)},${l.place[1].toFixed(4)}`)
      .join(";");

    this.renderPrompt();
    this.renderPhaseActions();
  }

  breakBall() {
    const v = this.data;
    if (!v.players.some((p) => p.cue_ball)) return null;
    if (v.to_move !== null && this.isHuman(v.to_move)) return v.players[v.to_move].cue_ball;
    const human = v.players.find((p) => p.kind === "human");
    return human ? human.cue_ball : null;
  }

  renderPrompt() {
    const v = this.data;
    const prompt = $("prompt");
    const names = this.names();
    let text = "";
    if (this.breakStart !== null) {
      text = t("clock.breakRunning", { time: fmtClock((serverNow() - this.breakStart) / 1000) });
    } else if (v.phase === "over") {
      text = t("match.overPrompt");
    } else if (this.playing) {
      text = "";
    } else if (v.computer_to_move) {
      const i = v.to_move === null ? 0 : v.to_move;
      text = t("match.thinking", { name: names[i] });
    } else if (v.phase === "lag" || v.phase === "shootout-lag") {
      const humans = Object.keys(this.lag).length;
      text = humans > 1 ? t("match.lagPromptTwo") : t("match.lagPrompt");
      if (humans > 1 && this.lagActive !== null) text += ` ${t("match.lagActive", { name: names[this.lagActive], ball: this.lagBall(this.lagActive) })}`;
    } else if (v.phase === "choose") {
      text = t("match.choosePrompt", { name: names[v.lag_winner] });
    } else if (v.phase === "place-w2") {
      text = t("match.placePrompt", { name: names[v.to_move] });
    } else if (v.to_move !== null) {
      const name = names[v.to_move];
      text = v.from_hand ? t("match.handPrompt", { name, ball: v.shooter }) : t("match.playPrompt", { name, ball: v.shooter });
      if (v.opening) text += ` ${t("match.openingPrompt")}`;
    }
    prompt.textContent = text;
    prompt.title = text;
    prompt.dataset.phase = v.phase;
  }

  renderPhaseActions() {
    const v = this.data;
    const box = $("phase-actions");
    box.replaceChildren();
    const busy = this.busy();
    if (this.breakStart !== null) {
      box.append(el("button", { type: "button", class: "primary", "data-testid": "resume", onclick: () => this.endBreak() }, t("clock.resume")));
      return;
    }
    if (this.computerError && v.computer_to_move) {
      box.append(el("button", { type: "button", "data-testid": "computer-retry", onclick: () => this.runComputer() }, t("match.retry")));
    }
    // a finished match (closed summary, a reload, a match opened from the history) shows its summary again
    if (v.phase === "over" && v.result) {
      box.append(el("button", { type: "button", class: "primary", "data-testid": "summary-open", onclick: () => showSummary(this) }, t("summary.open")));
    }
    if (!this.humanToMove()) return;
    if (v.phase === "choose") {
      for (const ball of ["W1", "W2"]) {
        box.append(
          el("button", { type: "button", class: "primary", "data-testid": `choose-${ball}`, disabled: busy, onclick: () => this.act(() => api.choose(this.id, ball)) }, ballChip(ball), t(ball === "W1" ? "match.chooseW1" : "match.chooseW2")),
        );
      }
    } else if (v.phase === "place-w2") {
      box.append(
        el("button", { type: "button", class: "primary", "data-testid": "place-w2", disabled: busy || !this.w2, onclick: () => this.act(() => api.placeW2(this.id, this.w2)) }, t("match.placeW2")),
      );
    } else if ((v.phase === "lag" || v.phase === "shootout-lag") && Object.keys(this.lag).length > 1) {
      for (const i of Object.keys(this.lag).map(Number)) {
        box.append(
          el("button", { type: "button", class: i === this.lagActive ? "selected" : "", "data-testid": `lag-active-${i}`, onclick: () => this.activateLag(i) }, ballChip(this.lagBall(i)), this.names()[i]),
        );
      }
    }
  }

  renderRuling() {
    renderOutcome($("ruling"), this.entry);
    this.renderInning();
  }

  /** The computer's inning so far, above the ruling of its latest stroke: each stroke before it in a line (its
   * call, points and the ruling's lines, so a pot, a ball taken in hand and the miss that ended it all stay
   * readable), and its choice of cue ball in words. Cleared when the person acts. */
  renderInning() {
    const box = $("inning");
    box.replaceChildren();
    const items = (this.inning || []).map((e) => {
      if (e.chose) {
        const what = t(e.chose.ball === "W1" ? "match.choseW1" : "match.choseW2");
        return el("li", { "data-testid": "inning-item" }, t("match.chose", { name: playerName(this.data.players[e.chose.seat]), ball: e.chose.ball, what }));
      }
      const r = e.outcome.ruling;
      const lines = [...r.items, ...r.fouls].map((i) => (lang() === "fi" ? i.fi : i.en)).join(" ");
      const head = `${e.call ?? t("ruling.noCall")} · ${t("ruling.points", { points: fmtPoints(r.points) })}`;
      return el("li", { "data-testid": "inning-item" }, ballChip(r.shooter), " ", el("strong", {}, head), lines ? ` — ${lines}` : "");
    });
    if (!items.length) return;
    box.append(el("h3", {}, t("inning.title")), el("ol", { class: "inning-items" }, ...items));
  }

  renderLog() {
    const box = $("log");
    box.replaceChildren();
    if (!this.log.length) return;
    box.append(el("h3", {}, t("log.title")));
    // the strokes numbered from the first of the match, newest on top (the list scrolls)
    const list = el("ol", { class: "log-items", reversed: true });
    for (const item of this.log.slice().reverse()) {
      list.append(
        el("li", { "data-testid": "log-item", value: String(item.n) }, ballChip(item.ball), ` ${item.call ?? t("ruling.noCall")} `, el("span", { class: item.points < 0 ? "neg" : item.points > 0 ? "pos" : "" }, fmtPoints(item.points)), item.passes ? " ⇄" : ""),
      );
    }
    box.append(list);
    if (this.logEarlier) box.append(el("p", { class: "hint" }, el("a", { href: `#/replay/${this.id}`, "data-testid": "log-earlier" }, t("log.earlier"))));
  }

  /** What Undo takes back: the last person's stroke (the call set apart in quotes; whose, by name, when two
   * people play) and the computer's strokes after it. `full` says it all; `short` names the person's stroke
   * only, for a phone's bar. */
  undoLabel() {
    const v = this.data;
    const people = v.players.filter((p) => p.kind === "human").length;
    let computer = 0;
    for (let i = this.log.length - 1; i >= 0; i--) {
      const seat = v.players.findIndex((p) => p.cue_ball === this.log[i].ball);
      if (seat >= 0 && !this.isHuman(seat)) {
        computer++;
        continue;
      }
      const call = this.log[i].call;
      const what = call ? t("match.undoCalled", { call }) : t("match.undoUncalled");
      if (people > 1 && seat >= 0) {
        const name = playerName(v.players[seat]);
        const short = call ? `${t("match.undoShortCalled", { call })} (${name})` : t("match.undoShortOf", { name });
        return { full: t("match.undoStrokeOf", { what, name }), short };
      }
      const short = call ? t("match.undoShortCalled", { call }) : t("match.undoShort");
      if (!computer) return { full: t("match.undoStroke", { what }), short };
      const full = computer === 1 ? t("match.undoStrokeAndOne", { what }) : t("match.undoStrokeAndMany", { what, n: computer });
      return { full, short };
    }
    return { full: t("match.undo"), short: t("match.undo") };
  }

  /** A stroke into the log; `n` is its number in the match (the strokes played up to it). */
  addLog(action, outcome, render = true, n = null) {
    if (action.kind !== "shot" || !outcome.ruling) return;
    const number = n ?? (this.log.length ? this.log[this.log.length - 1].n + 1 : 1);
    this.log.push({ n: number, ball: outcome.ruling.shooter, call: action.call, points: outcome.ruling.points, passes: outcome.ruling.turn_passes });
    if (render) this.renderLog();
  }

  // --- interaction ---

  activateLag(i) {
    if (this.lagActive !== null && this.lag[this.lagActive]) this.lag[this.lagActive].stroke = { ...app.stroke.value };
    this.lagActive = i;
    app.stroke.set({ ...this.lag[i].stroke }, { silent: true });
    this.render();
  }

  draggableAt(p) {
    const v = this.data;
    if (!this.humanToMove()) return null;
    const ball = app.view.ballAt(p, 1.8);
    if (!ball) return null;
    if (v.phase === "lag" || v.phase === "shootout-lag") {
      const i = ball === "W1" ? 0 : ball === "W2" ? 1 : null;
      if (i !== null && this.lag[i]) {
        if (i !== this.lagActive) this.activateLag(i);
        return ball;
      }
      return null;
    }
    if (v.phase === "place-w2" && ball === "W2") return ball;
    if ((v.phase === "play" || v.phase === "shootout") && v.from_hand && ball === v.shooter) return ball;
    return null;
  }

  dragTo(ball, p) {
    const v = this.data;
    if (v.phase === "lag" || v.phase === "shootout-lag") {
      const i = ball === "W1" ? 0 : 1;
      const objects = v.phase === "shootout-lag" ? {} : { ...v.position.balls };
      const other = this.lag[1 - i];
      if (other) objects[this.lagBall(1 - i)] = other.place;
      this.lag[i].place = legalize(p, area(i === 0 ? "lag-left" : "lag-right", objects, ball), this.lag[i].place);
    } else if (v.phase === "place-w2") {
      this.w2 = legalize(p, area("w2", v.position.balls, "W2", { corridors: v.w2_corridors }), this.w2);
    } else {
      this.place = legalize(p, area("hand", v.position.balls, v.shooter), this.place);
    }
    this.render();
  }

  aimOrigin() {
    const v = this.data;
    if (v.phase === "lag" || v.phase === "shootout-lag") return this.lagActive !== null ? this.lag[this.lagActive].place : null;
    return this.cuePosition();
  }

  aimAt(p) {
    if (!this.humanToMove()) return;
    const v = this.data;
    if (!["lag", "shootout-lag", "play", "shootout"].includes(v.phase)) return;
    aimFrom(this.aimOrigin(), p);
  }

  click(p, ball) {
    const v = this.data;
    if (!this.humanToMove()) return;
    if (v.phase === "play" || v.phase === "shootout") {
      if (ball === v.shooter) return;
      clickToCallOrAim(this, p, v.shooter);
    } else if (v.phase === "lag" || v.phase === "shootout-lag") {
      if (!ball) this.aimAt(p);
    }
  }

  onStrokeChange() {
    if (this.lagActive !== null && this.lag[this.lagActive] && (this.data.phase === "lag" || this.data.phase === "shootout-lag")) {
      this.lag[this.lagActive].stroke = { ...app.stroke.value };
    }
    this.render();
  }

  aimCall() {
    aimAtCall(this, this.cuePosition(), this.tableBalls(), (call, stroke) => this.askAim(call, stroke));
  }

  /** The aim helper on the match as it stands (a read); not `deep`: the stroke as set only. */
  askAim(call, stroke, deep = true) {
    return api.aim(this.id, call, stroke, deep);
  }

  callWhere() {
    return { match: this.id };
  }

  /** The stroke as set now, with its place when the cue ball is in hand. */
  strokeNow() {
    const v = this.data;
    const stroke = app.stroke.stroke(v.shooter);
    if (v.from_hand) stroke.place = this.place;
    return stroke;
  }

  /** The full aiming aid's preview: the stroke as it would play now (no noise), ruled, not recorded. */
  previewRequest() {
    const v = this.data;
    if (!v || !this.humanToMove() || !(v.phase === "play" || v.phase === "shootout")) return null;
    const cue = this.cuePosition();
    if (!cue || this.busy() || (v.from_hand && !this.place)) return null;
    const text = app.call.current().text || null;
    if (text && !app.call.accepted(text)) return null; // a call not (yet) accepted gets no preview
    const stroke = this.strokeNow();
    return { key: JSON.stringify([v.actions, text, stroke]), called: Boolean(text), send: () => api.preview(this.id, text, stroke) };
  }

  // --- the hint ---

  /** Ask the advisor for this turn (a read: the match goes on as if it was never asked). */
  async askHint() {
    const v = this.data;
    if (!v || this.busy() || !this.humanToMove() || !(v.phase === "play" || v.phase === "shootout")) return;
    if (this.hint && this.hint.state === "thinking") return;
    const mine = { turn: this.turnKey, state: "thinking", since: performance.now() };
    this.hint = mine;
    this.render();
    let answer;
    try {
      answer = await api.hint(this.id, $("hint-level").value, 3);
    } catch (error) {
      if (!this.alive() || this.hint !== mine) return;
      this.hint = null;
      showError(error);
      this.render();
      return;
    }
    if (!this.alive() || this.hint !== mine || this.turnKey !== mine.turn) return; // dismissed, or the turn moved on
    const best = answer[0];
    if (!best) {
      this.hint = { ...mine, state: "empty" };
    } else {
      const tokens = (best.call || "").split(/\s+/);
      const label = `${best.call ?? t("study.safety")} · ${Math.round(best.p_pot * 100)} %`;
      const advice = { ...best, label, ball: best.call ? calledBall(best.call) : null, pocket: best.call ? tokens[tokens.length - 1] : null };
      this.hint = { ...mine, state: "shown", advice };
    }
    this.render();
    reveal($("hint-box")); // on a phone the answer may be below the view
  }

  /** Take the hint: its call, aim, power, spin and (from hand) place go into the controls, to play or change. */
  takeHint() {
    const a = this.hint && this.hint.advice;
    if (!a || this.busy()) return;
    const s = a.stroke;
    if (s.place && this.data.from_hand) this.place = s.place;
    app.stroke.set({ direction: normaliseDirection(s.direction), speed: s.speed, elevation: s.elevation || 0, side: s.side || 0, follow: s.follow || 0 }, { silent: true });
    app.call.setText(a.call || "");
    this.hint = null;
    this.render();
  }

  dismissHint() {
    this.hint = null;
    this.render();
  }

  renderHint() {
    const box = $("hint-box");
    const h = this.hint;
    box.hidden = !h;
    box.dataset.state = h ? h.state : "";
    if (!h) {
      box.replaceChildren();
      return;
    }
    const dismiss = el("button", { type: "button", class: "small", "data-testid": "hint-dismiss", onclick: () => this.dismissHint() }, t("hint.dismiss"));
    if (h.state === "thinking") {
      const seconds = Math.floor((performance.now() - h.since) / 1000);
      box.replaceChildren(
        el("div", { class: "progress", role: "progressbar", "aria-label": t("hint.title") }, el("span")),
        el("p", { class: "hint", "data-testid": "hint-thinking" }, t("hint.thinking", { s: seconds })),
        dismiss,
      );
      return;
    }
    if (h.state === "empty") {
      box.replaceChildren(el("p", { "data-testid": "hint-none" }, t("hint.none")), dismiss);
      return;
    }
    const a = h.advice;
    const words = a.words ? a.words[lang() === "fi" ? "fi" : "en"] : t("hint.safety");
    const lines = [
      el("p", { class: "hint-call" }, el("strong", { class: "mono", "data-testid": "hint-call" }, a.call ?? t("study.safety")), " ", el("span", { "data-testid": "hint-words" }, words)),
      el("p", { class: "hint", "data-testid": "hint-odds" }, t("hint.odds", { p: Math.round(a.p_pot * 100), e: fmtNum(a.expected_points, 2), f: Math.round(a.p_foul * 100) })),
    ];
    if (a.stroke.place) {
      // where to put the ball in hand as a player measures it: from the head cushion and the nearer side cushion
      const [x, y] = a.stroke.place;
      const right = x > geo().W / 2;
      const side = Math.round((right ? geo().W - x : x) * 100);
      const which = t(right ? "hint.right" : "hint.left");
      lines.push(el("p", { class: "hint" }, t("hint.place", { ball: a.stroke.ball, head: Math.round(y * 100), side, which })));
    }
    box.replaceChildren(
      el("h4", {}, t("hint.title")),
      ...lines,
      el("div", { class: "row wrap" }, el("button", { type: "button", class: "small primary", "data-testid": "hint-take", onclick: () => this.takeHint() }, t("hint.take")), dismiss),
      el("p", { class: "hint small-print" }, t("hint.note")),
    );
  }

  // --- actions ---

  async shoot() {
    const v = this.data;
    if (this.busy() || !this.humanToMove()) return;
    clearMessage();
    if (v.phase === "lag" || v.phase === "shootout-lag") {
      if (this.lagActive !== null) this.lag[this.lagActive].stroke = { ...app.stroke.value };
      const strokes = [0, 1].map((i) => (this.lag[i] ? { ...this.lag[i].stroke, ball: this.lagBall(i), place: this.lag[i].place } : null));
      await this.act(() => api.lag(this.id, strokes));
      return;
    }
    this.working = true;
    this.render();
    const resolved = await app.call.resolve();
    this.working = false;
    if (!this.alive()) return;
    if (resolved.error) {
      showMessage(resolved.error, "error");
      this.render();
      return;
    }
    const stroke = app.stroke.stroke(v.shooter);
    if (v.from_hand) stroke.place = this.place;
    const seconds = v.clock.mode === "wall" ? Math.min(3600, this.thinkingSeconds()) : null;
    aids.clearPreview();
    await aids.settled();
    await this.act(() => api.shot(this.id, resolved.call, stroke, seconds), { call: resolved.call });
  }

  /** Send one action; animate and rule what came back; carry on. */
  async act(send, context = {}) {
    if (this.working) return;
    this.working = true;
    this.render();
    let played;
    try {
      played = await send();
    } catch (error) {
      this.working = false;
      if (!this.alive()) return;
      showError(error);
      await this.resync();
      return;
    }
    if (!this.alive()) return;
    clearMessage();
    await this.playOut(played, context);
  }

  async playOut(played, context = {}) {
    const before = this.data;
    const outcome = played.outcome;
    const action = played.action;
    this.working = true;
    this.playing = true; // "thinking" is over: the answer is here
    const stroke = Boolean(outcome.records && outcome.records.length);
    if (stroke) $("ruling").replaceChildren(); // the last ruling goes at the strike
    this.hint = null; // and so does a hint
    aids.clearPreview();
    clearAim();
    this.render();
    const mover = before.to_move;
    const computerShot = action.kind === "shot" && mover !== null && mover !== undefined && !this.isHuman(mover);
    const computerMove = mover !== null && mover !== undefined && !this.isHuman(mover);
    if (!computerMove) this.inning = []; // the person's action: the computer's last inning has been read
    if (computerMove && action.kind === "choose") {
      this.inning.push({ chose: { seat: mover, ball: action.cue_ball } });
    }
    if (computerShot && this.entry && this.entry.computer) this.inning.push(this.entry); // its stroke before, kept readable
    this.renderInning();
    if (stroke || computerShot) keepTableInView(); // the balls are about to move
    if (computerShot && action.stroke) {
      // the computer's placement from hand and its aim, shown before its stroke
      const stroke = action.stroke;
      const balls = { ...before.position.balls };
      if (stroke.place) balls[stroke.ball] = stroke.place;
      app.view.balls = balls;
      app.view.overlay = {
        aims: balls[stroke.ball] ? [{ from: balls[stroke.ball], ball: stroke.ball, direction: stroke.direction, speed: stroke.speed, aids: "line" }] : [],
        callBall: action.call ? calledBall(action.call) : null,
        callPocket: action.call ? action.call.trim().split(/\s+/).pop() : null,
        placed: stroke.place ? stroke.ball : null,
      };
      app.view.draw();
      await sleep((stroke.place ? 900 : 500) / animSpeed());
      if (!this.alive()) return;
    }
    if (outcome.records && outcome.records.length) {
      app.view.overlay = { callBall: app.view.overlay.callBall, callPocket: app.view.overlay.callPocket };
      sound.playEvents(outcome.records, animSpeed());
      await app.view.animate(outcome.records, animSpeed());
    }
    if (!this.alive()) return;
    // cue balls taken in hand go as the balls settle; respotted balls go to their spots with the ruling's lines
    const settled = outcome.ruling && outcome.ruling.position ? settle(outcome.records, outcome.ruling) : null;
    const call = played.action.kind === "shot" ? played.action.call : context.call;
    const says = outcome.ruling || outcome.lag || (outcome.notes && outcome.notes.length);
    if (!says) {
      // a choice or a placement says nothing: the last ruling (the lag's) stays up until the next stroke
      this.addLog(played.action, outcome);
      this.data = played.match;
      this.working = false;
      this.playing = false;
      this.turnKey = null;
      this.update(played.match);
      return;
    }
    this.entry = {
      outcome,
      names: before.players.map((p) => playerName(p)),
      who: outcome.ruling ? this.whoOf(outcome.ruling.shooter) : null,
      call: played.action.kind === "shot" ? call : undefined,
      computer: computerShot,
    };
    this.addLog(played.action, outcome, true, played.match.strokes);
    this.data = played.match; // the scoreboard changes with the ruling
    renderScoreboard(played.match, {});
    await renderOutcome($("ruling"), this.entry, { reveal: true, alive: () => this.alive(), onItem: settled && settled.onItem });
    if (settled) await settled.finish();
    if (!this.alive()) return;
    this.working = false;
    this.playing = false;
    this.turnKey = null;
    this.update(played.match);
    if (played.match.phase === "over" && before.phase !== "over") showSummary(this);
  }

  async resync() {
    try {
      const view = await api.match(this.id);
      if (this.alive()) this.update(view);
    } catch (error) {
      if (this.alive()) showError(error);
    }
  }

  maybeComputer() {
    const v = this.data;
    if (!v || !v.computer_to_move || this.working || this.computerError) return;
    const key = v.actions;
    setTimeout(() => {
      if (this.alive() && this.data.actions === key && this.data.computer_to_move && !this.working) this.runComputer();
    }, 350 / animSpeed());
  }

  async runComputer() {
    if (this.working) return;
    this.computerError = null;
    const v = this.data;
    const send = v.phase === "lag" || v.phase === "shootout-lag" ? () => api.lag(this.id, [null, null]) : () => api.computer(this.id);
    this.working = true;
    this.render();
    let played;
    try {
      played = await send();
    } catch (error) {
      this.working = false;
      if (!this.alive()) return;
      this.computerError = error;
      showError(error);
      this.render();
      return;
    }
    if (!this.alive()) return;
    await this.playOut(played);
  }

  async undo() {
    if (this.busy()) return;
    this.working = true;
    try {
      const view = await api.undo(this.id);
      if (!this.alive()) return;
      clearMessage();
      this.working = false;
      this.turnKey = null;
      this.entry = view.last ? { outcome: view.last, names: view.players.map((p) => playerName(p)) } : null;
      this.renderRuling();
      this.update(view);
      if (this.log.length) this.loadLog();
    } catch (error) {
      this.working = false;
      showError(error);
      await this.resync();
    }
  }

  /** Seconds the stroke due has taken: since the server says the clock last started counting (the last entry
   * other than a break, `clock_since`), on the server's clock, so a reloaded page or a second screen counts
   * the same turn from the same moment. A break taken in the turn is counted too and extends the limit by its
   * length (6, as the marker's page counts it), so nothing thought before the break is lost; the clock stands
   * while the break runs. */
  thinkingSeconds() {
    const v = this.data;
    const since = Date.parse((v && (v.clock_since || v.updated_at)) || "");
    if (!Number.isFinite(since)) return 0;
    const now = this.breakStart !== null ? this.breakStart : serverNow();
    return Math.max(0, (now - since) / 1000);
  }

  startBreak() {
    this.breakStart = serverNow();
    this.render();
  }

  async endBreak() {
    const seconds = Math.min(300, Math.max(1, (serverNow() - this.breakStart) / 1000));
    const ball = this.breakBall();
    this.breakStart = null;
    await this.act(() => api.takeBreak(this.id, ball, Math.round(seconds * 10) / 10));
  }

  tick() {
    const v = this.data;
    if (!v) return;
    if (this.hint && this.hint.state === "thinking") this.renderHint();
    if (this.breakStart !== null) this.renderPrompt();
    if (v.clock.mode === "wall" && this.humanToMove() && (v.phase === "play" || v.phase === "shootout") && !this.working) {
      renderClock(v, this.thinkingSeconds());
    }
  }

  onLang() {
    // the ruling's names follow the language too (a computer player goes by its level's name)
    const ruling = this.entry && this.entry.outcome && this.entry.outcome.ruling;
    if (this.entry && this.data) {
      this.entry = { ...this.entry, names: this.data.players.map((p) => playerName(p)), ...(this.entry.who && ruling ? { who: this.whoOf(ruling.shooter) } : {}) };
    }
    this.render();
    this.renderRuling();
    this.renderLog();
  }
}

/** Whether a button's text fits on one line of its row: beside the other buttons where the row does not wrap
 * (a phone's bar), beside the first one where it does. */
function fitsOnItsLine(button) {
  const row = button.parentElement;
  const wraps = getComputedStyle(row).flexWrap !== "nowrap";
  const gap = parseFloat(getComputedStyle(row).columnGap) || 8;
  const others = [...row.children].filter((c) => c !== button && c.offsetParent !== null && !c.hidden);
  const beside = wraps ? others.slice(0, 1) : others;
  const room = row.clientWidth - parseFloat(getComputedStyle(row).paddingLeft) - parseFloat(getComputedStyle(row).paddingRight) - beside.reduce((s, c) => s + c.offsetWidth + gap, 0);
  const white = button.style.whiteSpace;
  button.style.whiteSpace = "nowrap";
  const need = button.scrollWidth;
  button.style.whiteSpace = white;
  return need <= room;
}

// --- the scoreboard -------------------------------------------------------------------------------------------

function kindLabel(kind) {
  return kind === "human" ? "" : t("match.computer", { level: levelName(kind) });
}

function renderScoreboard(v, { liveSeconds = 0 } = {}) {
  const box = $("scoreboard");
  box.replaceChildren();
  const playing = v.phase === "play" || v.phase === "shootout";
  const target = v.winning_score || 60; // the points that win (3)
  const players = el("div", { class: "players" });
  v.players.forEach((p, i) => {
    const ball = p.cue_ball;
    const atTable = Boolean(ball && playing && v.shooter === ball);
    // a finished match shows the recorded result (a winner's 65 is recorded 60, the target)
    const score = ball ? (v.result && v.result.recorded ? v.result.recorded[ball] : v.scores[ball]) : 0;
    const card = el(
      "div",
      { class: `player${atTable ? " at-table" : ""}`, "data-testid": `player-${i}`, dataset: { ball: ball || "" } },
      el("div", { class: "name-row" }, ballChip(ball), el("span", { class: "name", "data-testid": `name-${i}` }, playerName(p))),
      el("div", { class: "kind" }, [kindLabel(p.kind), ball || t("match.noBall")].filter(Boolean).join(" · ")),
      el("div", { class: "score-row" }, el("span", { class: "score", "data-testid": `score-${i}` }, String(score)), el("span", { class: "target", "data-testid": `target-${i}` }, `/ ${target}`)),
      el("div", { class: "bar" }, el("span", { style: `width:${Math.max(0, Math.min(100, (score / target) * 100))}%` })),
      el(
        "div",
        { class: "stats" },
        `${t("match.innings")}: `,
        el("span", { "data-testid": `innings-${i}` }, String(ball ? v.innings[ball] : 0)),
        ` · ${t("match.fouls")}: `,
        el("span", { "data-testid": `fouls-${i}` }, String(ball ? v.fouls[ball] || 0 : 0)),
      ),
      el(
        "div",
        { class: "tags" },
        atTable ? el("span", { class: "tag at", "data-testid": `at-table-${i}` }, t("match.atTable")) : null,
        atTable && v.from_hand ? el("span", { class: "tag hand", "data-testid": `in-hand-${i}` }, t("match.inHand")) : null,
      ),
    );
    players.append(card);
  });
  box.append(players);
  const meta = el("div", { class: "meta" });
  meta.append(el("span", { "data-testid": "phase", dataset: { phase: v.phase } }, `${t("match.phase")}: ${t(`phase.${v.phase}`)}`));
  if (playing) meta.append(el("span", { "data-testid": "run" }, `${t("match.run")}: ${v.run}`));
  box.append(meta);
  const clock = el("div", { class: "clock", id: "clock", "data-testid": "clock" });
  box.append(clock);
  renderClock(v, liveSeconds);
  if (v.shootout) {
    const so = v.shootout;
    const order = [so.first, so.first === "W1" ? "W2" : "W1"];
    const nameOf = (ball) => { const p = v.players.find((q) => q.cue_ball === ball); return p ? playerName(p) : ball; };
    box.append(
      el(
        "div",
        { class: "shootout", "data-testid": "shootout" },
        el("strong", {}, `${t("shootout.title")}: `),
        order.map((b) => t("shootout.innings", { name: nameOf(b), ball: b, n: so.innings[b] })).join(" · "),
        ` (${t("shootout.first", { name: nameOf(so.first) })})`,
      ),
    );
  }
  if (v.result) {
    const r = v.result;
    const i = v.players.findIndex((p) => p.cue_ball === r.winner);
    const rec = v.players.map((p) => (p.cue_ball ? r.recorded[p.cue_ball] : 0));
    box.append(
      el(
        "div",
        { class: "result", "data-testid": "result" },
        el("strong", {}, t("match.winner", { name: i >= 0 ? playerName(v.players[i]) : r.winner, ball: r.winner })),
        ` · ${t("match.recorded", { a: rec[0], b: rec[1] })} · ${serverText(r.reason)}`,
      ),
    );
  }
}

function renderClock(v, liveSeconds) {
  const box = document.getElementById("clock");
  if (!box) return;
  const c = v.clock;
  box.replaceChildren();
  if (c.mode !== "wall") {
    box.append(el("span", { class: "hint" }, `${t("clock.title")}: ${t("clock.off")}`));
    box.dataset.mode = c.mode;
    return;
  }
  box.dataset.mode = "wall";
  const elapsed = c.elapsed + liveSeconds;
  box.append(el("strong", {}, `${t("clock.title")}: `), el("span", { class: "mono", "data-testid": "clock-time" }, `${fmtClock(elapsed)} / ${fmtClock(c.limit)}`));
  if (c.final_innings) {
    if (c.final_innings.length) box.append(el("span", { class: "tag warn", "data-testid": "clock-final" }, t("clock.final", { left: c.final_innings.join(", ") })));
    else box.append(el("span", { class: "tag warn", "data-testid": "clock-final" }, t("clock.over")));
  } else if (c.warned || elapsed >= c.limit - 300) {
    box.append(el("span", { class: "tag warn", "data-testid": "clock-warning" }, t("clock.warning")));
  }
}

// --- the replay ----------------------------------------------------------------------------------------------

class ReplayMode {
  constructor(id, step) {
    this.id = id;
    this.session = app.session;
    this.count = 0; // actions in the match
    this.actions = []; // the history as far as read: a page at a time, as the replay needs it
    this.pages = new Map(); // page number -> its request
    this.base = null;
    this.index = step; // the last action shown (-1: the start)
    this.working = false;
    this.playing = false;
    this.entry = null;
    this.going = 0; // the latest jump asked for (a scrubber sends many)
  }

  alive() {
    return app.session === this.session;
  }

  busy() {
    return this.working || app.view.animating;
  }

  async enter() {
    showScreen("table");
    showPanels({ replay: true });
    show("hint-box", false);
    fitTable();
    $("phase-actions").replaceChildren();
    $("log").replaceChildren();
    $("ruling").replaceChildren();
    $("inning").replaceChildren();
    try {
      const base = await api.match(this.id);
      if (!this.alive()) return;
      this.base = base;
      this.count = base.actions;
      this.index = Math.max(-1, Math.min(this.count - 1, this.index ?? -1));
      await this.ensure(Math.max(0, this.index));
      if (!this.alive()) return;
    } catch (error) {
      showError(error);
      return;
    }
    this.renderList();
    this.showStatic();
  }

  /** Read the page of the history holding action `i` (once; pages already read are kept). */
  async ensure(i) {
    if (i < 0 || i >= this.count || this.actions[i]) return;
    const page = Math.floor(i / REPLAY_PAGE);
    if (!this.pages.has(page)) {
      const request = api.actions(this.id, page * REPLAY_PAGE, REPLAY_PAGE).then((actions) => {
        for (const a of actions) this.actions[a.index] = a;
        if (this.alive() && $("replay-list").children.length) this.renderItems(page * REPLAY_PAGE, page * REPLAY_PAGE + actions.length);
      });
      request.catch(() => this.pages.delete(page)); // asked again next time
      this.pages.set(page, request);
    }
    await this.pages.get(page);
  }

  initialPosition() {
    const s = app.table.spots;
    return { K: s.centre, R1: s["head-string"], R2: s["foot-string"] };
  }

  /** A scoreboard view of the match as it stood after action `i` (read from the state stored with it). */
  viewAt(i) {
    const b = this.base;
    if (i < 0) {
      return { ...b, phase: "lag", position: { balls: this.initialPosition() }, scores: { W1: 0, W2: 0 }, innings: { W1: 0, W2: 0 }, run: 0, players: b.players.map((p) => ({ ...p, cue_ball: null })), fouls: { W1: 0, W2: 0 }, shootout: null, result: null, clock: { ...b.clock, elapsed: 0, final_innings: null, warned: false } };
    }
    const s = this.actions[i].state_after;
    return {
      ...b,
      phase: s.phase,
      position: s.position,
      scores: s.game.scores,
      innings: s.innings,
      run: s.run,
      shooter: s.game.shooter,
      from_hand: (s.game.in_hand || []).includes(s.game.shooter),
      players: b.players.map((p, k) => ({ ...p, cue_ball: s.owners ? s.owners[k] : null })),
      fouls: s.fouls || { W1: 0, W2: 0 },
      shootout: s.shootout,
      result: s.result,
      clock: { ...b.clock, ...s.clock, limit: b.clock.limit },
    };
  }

  showStatic() {
    const v = this.viewAt(this.index);
    renderScoreboard(v);
    app.view.balls = { ...v.position.balls };
    app.view.overlay = {};
    app.view.draw();
    const a = this.index >= 0 ? this.actions[this.index] : null;
    this.entry = a ? { outcome: a.outcome, names: this.base.players.map((p) => playerName(p)), who: this.whoOf(a), call: a.action.kind === "shot" ? a.action.call : undefined } : null;
    renderOutcome($("ruling"), this.entry);
    this.renderControls();
  }

  /** "name (ball)" of the shooter of action `a`. */
  whoOf(a) {
    const ruling = a.outcome.ruling;
    if (!ruling) return null;
    const owners = a.state_after.owners || [];
    const i = owners.indexOf(ruling.shooter);
    return i >= 0 ? t("ruling.byShooter", { name: playerName(this.base.players[i]), ball: ruling.shooter }) : ruling.shooter;
  }

  describe(a) {
    if (!a) return this.index >= 0 ? t("replay.loading") : t("replay.start");
    const act = a.action;
    const names = this.base.players.map((p) => playerName(p));
    if (act.kind === "lag") return t("replay.lag");
    if (act.kind === "choose") return t("replay.choose", { name: names[a.player] ?? "", ball: act.cue_ball });
    if (act.kind === "place-w2") return t("replay.place", { x: fmtNum(act.point[0], 3), y: fmtNum(act.point[1], 3) });
    if (act.kind === "shot") return t("replay.shot", { ball: act.stroke.ball, call: act.call ?? t("ruling.noCall"), speed: fmtNum(act.stroke.speed, 2), direction: fmtNum(act.stroke.direction, 1) });
    return t("replay.break", { s: act.seconds });
  }

  /** The list item's text of action `i`: a stroke numbered from the match's first, with the shooter, the call
   * and the points; "…" until its page is read. */
  itemText(i) {
    const a = this.actions[i];
    if (!a) return `${i + 1}. ${t("replay.loading")}`;
    const ruling = a.outcome.ruling;
    if (a.action.kind === "shot" && ruling) {
      const owners = a.state_after.owners || [];
      const k = owners.indexOf(ruling.shooter);
      const who = k >= 0 ? playerName(this.base.players[k]) : ruling.shooter;
      return `${a.state_after.strokes}. ${who}: ${a.action.call ?? t("ruling.noCall")} ${fmtPoints(ruling.points)}`;
    }
    return this.describe(a);
  }

  /** Every action in a list to jump to. The pages not read yet are read as their items scroll into view. */
  renderList() {
    const list = $("replay-list");
    if (this.observer) this.observer.disconnect();
    this.observer = new IntersectionObserver(
      (entries) => {
        for (const e of entries) if (e.isIntersecting) this.ensure(Number(e.target.dataset.index)).catch(() => {});
      },
      { root: list },
    );
    const items = [];
    for (let i = 0; i < this.count; i++) {
      const item = el("li", { "data-testid": "replay-item", dataset: { index: String(i) }, onclick: () => this.go(i) }, el("button", { type: "button", class: "linkish" }, this.itemText(i)));
      if (!this.actions[i]) {
        item.dataset.pending = "true";
        this.observer.observe(item);
      }
      items.push(item);
    }
    list.replaceChildren(...items);
  }

  /** The list's items from `a` to `b` once their page is read. */
  renderItems(a, b) {
    const list = $("replay-list");
    for (let i = a; i < b; i++) {
      const item = list.children[i];
      if (!item || !this.actions[i]) continue;
      item.firstChild.textContent = this.itemText(i);
      delete item.dataset.pending;
      if (this.observer) this.observer.unobserve(item);
    }
  }

  /** Strokes played up to action `i` (0 at the start and through the lag and the placements). */
  strokesAt(i) {
    const a = i >= 0 ? this.actions[i] : null;
    return a ? a.state_after.strokes : 0;
  }

  /** The step counter: "stroke k / n", or "k / n" in a phone's bar (the words stay its accessible name). */
  showStep(k) {
    const box = $("replay-step");
    const said = t("replay.step", { i: k, n: this.base.strokes });
    box.textContent = window.innerWidth < 820 ? `${k} / ${this.base.strokes}` : said;
    box.title = said;
    box.setAttribute("aria-label", said);
  }

  renderControls() {
    const n = this.count;
    // people count a match in strokes: the step and the scrubber go by stroke; the lag, the choice, the
    // placement and the breaks stay in the list and under the arrow buttons
    const strokes = this.base.strokes;
    const k = this.strokesAt(this.index);
    const scrub = $("replay-scrub");
    scrub.max = String(strokes);
    scrub.value = String(k);
    scrub.disabled = this.busy();
    for (const item of $("replay-list").children) {
      const current = Number(item.dataset.index) === this.index;
      if (current) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
      if (current) {
        // keep the current action in the list's view without scrolling the page
        const list = item.parentElement;
        if (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
          list.scrollTop = item.offsetTop - list.clientHeight / 2;
        }
      }
    }
    this.showStep(k);
    $("replay-step").dataset.index = String(this.index);
    $("replay-step").dataset.stroke = String(k);
    $("replay-action").textContent = this.describe(this.index >= 0 ? this.actions[this.index] : null);
    const names = this.base.players.map((p) => playerName(p));
    $("prompt").textContent = t("replay.prompt", { id: this.id, a: names[0], b: names[1] });
    const busy = this.busy();
    $("replay-first").disabled = busy || this.index < 0;
    $("replay-prev").disabled = busy || this.index < 0;
    $("replay-next").disabled = busy || this.index >= n - 1;
    $("replay-play").textContent = this.playing ? "■" : t("replay.play");
    $("replay-play").disabled = this.index >= n - 1 && !this.playing;
    history.replaceState(null, "", `#/replay/${this.id}/${this.index}`);
  }

  async next() {
    if (this.busy() || this.index >= this.count - 1) return false;
    const i = this.index + 1;
    this.working = true;
    this.renderControls();
    let played;
    try {
      [played] = await Promise.all([api.animation(this.id, i), this.ensure(i)]);
    } catch (error) {
      this.working = false;
      showError(error);
      this.renderControls();
      return false;
    }
    if (!this.alive()) return false;
    const before = this.viewAt(i - 1);
    app.view.balls = { ...before.position.balls };
    app.view.overlay = {};
    if (played.outcome.records && played.outcome.records.length) {
      // the counter and the line say the stroke that is playing, not the one before it
      if (this.actions[i]) {
        this.showStep(this.strokesAt(i));
        $("replay-action").textContent = this.describe(this.actions[i]);
      }
      keepTableInView();
      sound.playEvents(played.outcome.records, animSpeed());
      await app.view.animate(played.outcome.records, animSpeed());
    }
    if (!this.alive()) return false;
    this.index = i;
    const a = this.actions[i];
    // the scoreboard from the stored state after action i: the animation's own view counts the fouls (and the
    // actions) of the whole match, not of the match up to action i
    renderScoreboard(this.viewAt(i));
    const ruling = played.outcome.ruling;
    const settled = ruling && ruling.position ? settle(played.outcome.records, ruling) : null;
    if (!settled) {
      app.view.balls = { ...a.state_after.position.balls };
      app.view.draw();
    }
    this.entry = { outcome: played.outcome, names: this.base.players.map((p) => playerName(p)), who: this.whoOf(a), call: a.action.kind === "shot" ? a.action.call : undefined };
    await renderOutcome($("ruling"), this.entry, { reveal: true, alive: () => this.alive(), onItem: settled && settled.onItem });
    if (settled) await settled.finish();
    if (!this.alive()) return false;
    app.view.balls = { ...a.state_after.position.balls };
    app.view.draw();
    this.working = false;
    this.renderControls();
    return true;
  }

  /** Jump to stroke `s` (0: the start): the first action after which `s` strokes are played. Only the other
   * actions (the lag, the choice, the placement, breaks) lie between strokes, so it is one of the few actions
   * from `s - 1` on: their pages are read first. */
  async goStroke(s) {
    if (this.busy()) return;
    const target = Math.max(0, Math.min(this.base.strokes, s));
    if (target === 0) return this.go(-1);
    const lo = Math.min(this.count - 1, target - 1);
    const hi = Math.min(this.count - 1, lo + this.count - this.base.strokes);
    const mine = ++this.going;
    try {
      await Promise.all([this.ensure(lo), this.ensure(hi)]);
    } catch (error) {
      if (this.alive()) showError(error);
      return;
    }
    if (!this.alive() || mine !== this.going) return;
    let i = lo;
    while (i < hi && this.strokesAt(i) < target) i++;
    return this.go(i);
  }

  /** Jump to action `i` (its page read first; of many jumps asked at once, the latest is shown). */
  async go(i) {
    if (this.busy()) return;
    const target = Math.max(-1, Math.min(this.count - 1, i));
    const mine = ++this.going;
    try {
      await this.ensure(target);
    } catch (error) {
      if (this.alive()) showError(error);
      return;
    }
    if (!this.alive() || mine !== this.going || this.busy()) return;
    this.index = target;
    this.showStatic();
  }

  async playAll() {
    if (this.playing) {
      this.playing = false;
      this.renderControls();
      return;
    }
    this.playing = true;
    this.renderControls();
    while (this.playing && this.alive() && this.index < this.count - 1) {
      if (!(await this.next())) break;
      await sleep(300 / animSpeed());
    }
    this.playing = false;
    if (this.alive()) this.renderControls();
  }

  onLang() {
    renderScoreboard(this.viewAt(this.index));
    const a = this.index >= 0 ? this.actions[this.index] : null;
    if (this.entry && a) this.entry = { ...this.entry, names: this.base.players.map((p) => playerName(p)), who: this.whoOf(a) };
    renderOutcome($("ruling"), this.entry);
    this.renderControls();
  }
}

// --- the study table -----------------------------------------------------------------------------------------

class StudyMode {
  constructor() {
    this.session = app.session;
    this.working = false;
    const saved = loadStudy();
    this.position = saved.position || this.startPosition();
    this.shooter = saved.shooter || "W1";
    this.state = { ...structuredClone(STUDY_STATE), ...(saved.state || {}) }; // the game state set by hand (gameState)
    this.offTable = {}; // where a cue ball stood before it was put in hand, to put it back there
    this.before = null;
    this.advice = [];
    this.entry = null;
  }

  alive() {
    return app.session === this.session;
  }

  busy() {
    return this.working || app.view.animating;
  }

  startPosition() {
    const s = app.table.spots;
    const g = app.view.geo;
    return { W1: [g.W * 0.62, g.L * 0.15], W2: [g.W * 0.5, g.L * 0.92], R1: s["head-string"], R2: s["foot-string"], K: s.centre };
  }

  enter() {
    showScreen("table");
    showPanels({ call: true, stroke: true, shoot: true, study: true });
    show("hint-row", false); // study has its own advisor
    show("hint", false);
    show("hint-box", false);
    $("undo").hidden = true;
    $("take-break").hidden = true;
    $("phase-actions").replaceChildren();
    $("log").replaceChildren();
    $("ruling").replaceChildren();
    $("inning").replaceChildren();
    $("scoreboard").replaceChildren();
    fitTable();
    app.call.reset();
    clearAim();
    this.aimDefault();
    this.render();
  }

  save() {
    try {
      localStorage.setItem(STUDY_KEY, JSON.stringify({ position: this.position, shooter: this.shooter, state: this.state }));
    } catch {
      // storage full or off: the study position lasts for this page only
    }
  }

  aimDefault() {
    const cue = this.position[this.shooter];
    const k = this.position.K;
    if (cue && k) app.stroke.set({ direction: normaliseDirection(degrees(Math.atan2(k[1] - cue[1], k[0] - cue[0]))) }, { silent: true });
  }

  render() {
    if (!this.alive()) return;
    const busy = this.busy();
    for (const option of $("advise-level").options) option.textContent = levelName(option.value);
    $("study-shooter").value = this.shooter;
    const shoot = $("shoot");
    shoot.hidden = false;
    shoot.textContent = t("stroke.shoot");
    shoot.disabled = busy;
    $("advise").disabled = busy;
    $("study-back").disabled = busy || !this.before;
    $("prompt").textContent = this.position[this.shooter] ? t("study.prompt", { ball: this.shooter }) : t("study.cueMissing", { ball: this.shooter });
    this.renderState();
    const boxes = $("study-balls");
    boxes.replaceChildren(
      ...BALL_IDS.map((b) =>
        el(
          "label",
          { class: "check" },
          el("input", { type: "checkbox", "data-testid": `study-ball-${b}`, checked: Boolean(this.position[b]), disabled: busy, onchange: (e) => this.toggle(b, e.target.checked) }),
          ballChip(b),
          b,
        ),
      ),
    );
    app.call.setBalls(Object.keys(this.position), this.shooter);
    if (!app.view.animating) {
      const c = app.call.current();
      app.view.balls = { ...this.position };
      const cue = this.position[this.shooter];
      app.view.overlay = {
        draggable: Object.keys(this.position),
        legal: this.fromHand() ? lightOf(area("hand", this.position, this.shooter)) : null,
        aims: cue && !this.advice.length ? [{ from: cue, ball: this.shooter, direction: app.stroke.value.direction, speed: app.stroke.value.speed, aids: aids.level(), call: c, window: windowFor(this, cue, this.position) }] : [],
        preview: this.advice.length ? null : aids.previewFor(this),
        advice: this.advice,
        callBall: c.ball,
        callPocket: c.pocket,
      };
      app.view.draw();
    }
    app.view.canvas.dataset.adviceCount = String(this.advice.length);
    app.view.canvas.dataset.phase = "study";
    const cue = this.position[this.shooter];
    app.view.canvas.dataset.cue = cue ? `${cue[0].toFixed(4)},${cue[1].toFixed(4)}` : "";
    this.renderAdvice();
  }

  /** The game state's controls: who is in hand, the break, the 2.1 flag, the scores, and a one-line summary. */
  renderState() {
    const st = this.state;
    const busy = this.busy();
    for (const b of ["W1", "W2"]) {
      const box = $(`study-hand-${b}`);
      box.checked = st.in_hand.includes(b);
      box.disabled = busy;
      $(`study-hand-${b}-label`).textContent = t("study.inHand", { ball: b });
      const score = $(`study-score-${b}`);
      if (document.activeElement !== score) score.value = String(st.scores[b]);
      score.disabled = busy;
    }
    $("study-opening").checked = st.opening;
    $("study-opening").disabled = busy;
    $("study-twice").checked = st.twice;
    $("study-twice").disabled = busy;
    const parts = [t("study.stateSummary", { ball: this.shooter, w1: st.scores.W1, w2: st.scores.W2 })];
    if (st.opening) parts.push(t("study.stateOpening"));
    for (const b of st.in_hand) parts.push(t("study.stateHand", { ball: b }));
    if (st.twice) parts.push("2.1");
    $("study-state-summary").textContent = parts.join(" · ");
  }

  /** The shooter plays from behind the head string: its ball in hand, or the break. */
  fromHand() {
    return this.state.opening || this.state.in_hand.includes(this.shooter);
  }

  /** A shooter playing from hand stands behind the head string: moved there (the nearest free place). */
  placeInHand() {
    if (!this.fromHand()) return;
    const g = geo();
    const a = area("hand", this.position, this.shooter);
    const here = this.position[this.shooter];
    const kept = here && legalize(here, a, null);
    // where it stands if that is legal, else a usual place behind the line (not squeezed against the line)
    const usual = [[g.W * 0.62, g.L * 0.15], [g.W * 0.38, g.L * 0.15], [g.W * 0.5, g.L * 0.1], [g.W * 0.8, g.L * 0.2]];
    if (this.shooter === "W2") usual.reverse(); // W1 starts at the first: W2 goes clear of it
    const spot = kept && dist(kept, here) < 1e-6 ? kept : firstLegal(usual, a) || kept;
    if (spot) this.position[this.shooter] = spot;
  }

  /** A cue ball put in hand (or taken out): the opponent's leaves the table (and comes back where it was), the
   * shooter's goes behind the head string. */
  setHand(ball, on) {
    const hand = new Set(this.state.in_hand);
    if (on) hand.add(ball);
    else hand.delete(ball);
    this.state.in_hand = [...hand].sort();
    if (ball !== this.shooter) {
      if (on && this.position[ball]) {
        this.offTable[ball] = this.position[ball];
        delete this.position[ball];
      } else if (!on && !this.position[ball]) {
        const back = this.offTable[ball] || this.startPosition()[ball];
        const spot = legalize(back, area("bed", this.position, ball), null) || firstLegal([back], area("bed", this.position, ball));
        if (spot) this.position[ball] = spot;
      }
    }
    this.placeInHand();
    this.changedState();
  }

  setOpening(on) {
    this.state.opening = on;
    this.placeInHand();
    this.changedState();
  }

  setTwice(on) {
    this.state.twice = on;
    this.changedState();
  }

  setScore(ball, text) {
    const n = Number.parseInt(text, 10);
    this.state.scores[ball] = Number.isFinite(n) ? n : 0;
    this.changedState();
  }

  changedState() {
    this.advice = [];
    this.save();
    app.call.scheduleCheck(0); // the call's prospects depend on the state (the break, 2.1, from hand)
    this.render();
  }

  renderAdvice() {
    const list = $("advice-list");
    list.replaceChildren(
      ...this.advice.map((a, i) =>
        el(
          "li",
          { "data-testid": "advice-item", class: "advice-item", onclick: () => this.useAdvice(i) },
          el("span", { class: "mono strong" }, a.call ?? `(${t("study.safety")})`),
          " ",
          el("span", { class: "hint" }, [t("study.pPot", { p: Math.round(a.p_pot * 100) }), t("study.ev", { e: fmtNum(a.expected_points, 2) }), t("study.pFoul", { p: Math.round(a.p_foul * 100) }), t("study.leave", { v: (a.position_value >= 0 ? "+" : "") + fmtNum(a.position_value, 2) })].join(" · ")),
        ),
      ),
    );
  }

  toggle(ball, on) {
    this.advice = [];
    if (on && ball !== this.shooter && this.state.in_hand.includes(ball)) {
      this.state.in_hand = this.state.in_hand.filter((b) => b !== ball); // back on the table: no longer in hand
    }
    if (on) {
      const start = this.startPosition()[ball];
      const spot = legalize(start, area("bed", this.position, ball), null) || firstLegal([start], area("bed", this.position, ball));
      if (spot) this.position[ball] = spot;
    } else {
      delete this.position[ball];
    }
    this.save();
    this.render();
  }

  draggableAt(p) {
    return app.view.ballAt(p, 1.3);
  }

  /** The cue ball is pulled back from (power) as in a match, and still moved by dragging it any other way. */
  pullsFrom(ball) {
    return ball === this.shooter;
  }

  dragTo(ball, p) {
    this.advice = [];
    const where = ball === this.shooter && this.fromHand() ? "hand" : "bed";
    this.position[ball] = legalize(p, area(where, this.position, ball), this.position[ball]);
    this.render();
  }

  dragEnd() {
    this.save();
  }

  aimAt(p) {
    this.advice = [];
    aimFrom(this.position[this.shooter], p);
  }

  click(p, ball) {
    if (ball === this.shooter) return;
    clickToCallOrAim(this, p, this.shooter);
  }

  onStrokeChange() {
    this.advice = [];
    this.render();
  }

  aimCall() {
    aimAtCall(this, this.position[this.shooter], this.position, (call, stroke) => this.askAim(call, stroke));
  }

  /** The aim helper in the study's position and state (a read); not `deep`: the stroke as set only. */
  askAim(call, stroke, deep = true) {
    return api.studyAim({ position: { balls: this.position }, state: this.gameState(), call, stroke, deep });
  }

  strokeNow() {
    return app.stroke.stroke(this.shooter);
  }

  callWhere() {
    return { position: { balls: this.position }, state: this.gameState() };
  }

  /** The referee's game state JSON of the study (checked by the server, which says what does not fit). */
  gameState() {
    const st = this.state;
    const out = { shooter: this.shooter, scores: { ...st.scores }, in_hand: [...st.in_hand], opening: st.opening, last_pot_direct_middle_kaisa: st.twice };
    if (st.kaisa_off_centre) out.kaisa_off_centre = true;
    return out;
  }

  previewRequest() {
    if (!this.position[this.shooter]) return null;
    const text = app.call.current().text || null;
    if (text && !app.call.accepted(text)) return null; // a call not (yet) accepted gets no preview
    const stroke = this.strokeNow();
    const body = { position: { balls: this.position }, stroke, call: text, state: this.gameState() };
    return { key: JSON.stringify(body), called: Boolean(text), send: () => api.studyShot(body) };
  }

  setShooter(ball) {
    this.shooter = ball;
    this.advice = [];
    if (!this.position[ball] && this.state.in_hand.includes(ball)) this.position[ball] = this.offTable[ball] || this.startPosition()[ball];
    this.placeInHand();
    this.save();
    app.call.reset();
    this.aimDefault();
    this.render();
  }

  async shoot() {
    if (this.busy()) return;
    clearMessage();
    if (!this.position[this.shooter]) {
      showMessage(t("study.cueMissing", { ball: this.shooter }), "error");
      return;
    }
    this.working = true;
    this.render();
    const resolved = await app.call.resolve();
    if (resolved.error) {
      this.working = false;
      showMessage(resolved.error, "error");
      this.render();
      return;
    }
    const body = { position: { balls: this.position }, stroke: app.stroke.stroke(this.shooter), call: resolved.call, state: this.gameState() };
    let answer;
    try {
      answer = await api.studyShot(body);
    } catch (error) {
      this.working = false;
      showError(error);
      this.render();
      return;
    }
    if (!this.alive()) return;
    this.advice = [];
    aids.clearPreview();
    clearAim();
    sound.playEvents([answer.record], animSpeed());
    keepTableInView();
    await app.view.animate([answer.record], animSpeed());
    if (!this.alive()) return;
    this.before = { position: { ...this.position }, shooter: this.shooter, state: structuredClone(this.state) };
    // the study goes on from the ruling's position with the person's own cue ball (the turn never passes to the
    // other white) and the scores as set by hand (practice points never end a game); who is in hand and the
    // flags as the ruling left them, the 2.1 flag only for an inning that goes on
    const next = answer.ruling.state;
    this.position = { ...answer.ruling.position.balls };
    const goesOn = !answer.ruling.turn_passes;
    this.state = { scores: { ...this.state.scores }, in_hand: [...next.in_hand], opening: false, twice: goesOn && next.last_pot_direct_middle_kaisa, kaisa_off_centre: next.kaisa_off_centre };
    this.placeInHand();
    this.save();
    this.entry = { outcome: { ruling: answer.ruling, notes: [] }, who: answer.ruling.shooter, call: resolved.call };
    const settled = settle([answer.record], answer.ruling);
    await renderOutcome($("ruling"), this.entry, { reveal: true, alive: () => this.alive(), onItem: settled.onItem });
    await settled.finish();
    if (!this.alive()) return;
    this.working = false;
    app.call.reset();
    this.aimDefault();
    this.render();
  }

  async advise() {
    if (this.busy()) return;
    clearMessage();
    this.working = true;
    this.render();
    $("prompt").textContent = t("study.advising");
    $("advise").dataset.state = "working";
    try {
      const answer = await api.advise({ position: { balls: this.position }, state: this.gameState(), level: $("advise-level").value, limit: 8 });
      if (!this.alive()) return;
      // the same call at two speeds is one call to a player: keep its best (the advisor lists best first)
      const seen = new Set();
      const list = answer.filter((a) => {
        const key = a.call ?? "";
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      }).slice(0, 5);
      this.advice = list.map((a) => {
        const tokens = (a.call || "").split(/\s+/);
        return { ...a, ball: a.call ? calledBall(a.call) : null, pocket: a.call ? tokens[tokens.length - 1] : null };
      });
      if (!this.advice.length) showMessage(t("study.noAdvice"), "info");
    } catch (error) {
      if (this.alive()) showError(error);
    }
    $("advise").dataset.state = "done";
    this.working = false;
    this.render();
  }

  useAdvice(i) {
    const a = this.advice[i];
    if (!a) return;
    const s = a.stroke;
    app.stroke.set({ direction: normaliseDirection(s.direction), speed: s.speed, elevation: s.elevation || 0, side: s.side || 0, follow: s.follow || 0 }, { silent: true });
    app.call.setText(a.call || "");
    this.advice = [a];
    this.render();
  }

  back() {
    if (!this.before || this.busy()) return;
    this.position = { ...this.before.position };
    this.shooter = this.before.shooter;
    this.state = this.before.state;
    this.before = null;
    this.advice = [];
    this.newSetup();
    this.save();
    this.render();
  }

  reset() {
    if (this.busy()) return;
    this.position = this.startPosition();
    this.state = structuredClone(STUDY_STATE);
    this.before = null;
    this.advice = [];
    this.newSetup();
    this.save();
    this.aimDefault();
    this.render();
  }

  /** A new position to study: the last stroke's ruling, the aim helper's answer and the preview are of
   * another position, so they go. */
  newSetup() {
    this.entry = null;
    $("ruling").replaceChildren();
    $("inning").replaceChildren();
    clearAim();
    aids.clearPreview();
    app.call.reset();
  }

  tick() {}

  onLang() {
    this.render();
    renderOutcome($("ruling"), this.entry);
  }
}

function loadStudy() {
  try {
    const data = JSON.parse(localStorage.getItem(STUDY_KEY) || "{}");
    if (data && data.position && typeof data.position === "object") return data;
  } catch {
    // a damaged saved position: start afresh
  }
  return {};
}

// --- start and history screens -------------------------------------------------------------------------------

async function enterStart() {
  showScreen("start");
  app.mode = null;
  const name = localStorage.getItem(NAME_KEY) || "";
  const form = $("form-computer");
  if (!form.name.value) form.name.value = name || t("start.defaultName");
  const two = $("form-two");
  if (!two.name1.value) two.name1.value = name || `${t("start.defaultName")} 1`;
  if (!two.name2.value) two.name2.value = `${t("start.defaultName")} 2`;
  renderLevels();
}

function renderLevels() {
  const select = $("form-computer").level;
  const keep = select.value || "beginner";
  const levels = Object.keys(app.players || {}).filter((k) => k !== "human");
  select.replaceChildren(...levels.map((k) => el("option", { value: k }, levelName(k))));
  select.value = levels.includes(keep) ? keep : levels[0];
  describeLevel();
}

function describeLevel() {
  const level = $("form-computer").level.value;
  $("level-description").textContent = app.players && level ? levelDescription(level) : "";
}

async function createMatch(players, clock, seed, options = null) {
  clearMessage();
  const body = { players, clock: clock ? "wall" : "off" };
  if (seed !== null && seed !== "" && seed !== undefined) body.seed = Number(seed);
  if (options) body.options = options;
  try {
    const view = await api.createMatch(body);
    location.hash = `#/match/${view.id}`;
  } catch (error) {
    showError(error);
  }
}

async function enterHistory() {
  showScreen("history");
  app.mode = null;
  const session = app.session;
  let matches;
  try {
    matches = await api.matches();
  } catch (error) {
    showError(error);
    return;
  }
  if (session !== app.session) return;
  const rows = $("history-rows");
  const locale = lang() === "fi" ? "fi-FI" : "en-GB";
  rows.replaceChildren(
    ...matches.map((m) => {
      // names with their recorded points, the winner in bold; the kind of a computer player after a name given
      // to it (one named after its level shows the level's name alone)
      const who = m.players.map((p) => {
        const shown = playerName(p);
        const label = `${shown}${p.kind === "human" || shown !== p.name ? "" : ` (${levelName(p.kind)})`}`;
        const won = m.result && p.cue_ball && m.result.winner === p.cue_ball;
        const points = m.result && p.cue_ball ? ` ${m.result.recorded[p.cue_ball]}` : "";
        return el(won ? "strong" : "span", { "data-testid": won ? "history-winner" : null }, `${label}${points}`);
      });
      const when = new Date(m.created_at).toLocaleString(locale, { dateStyle: "short", timeStyle: "short" });
      const status = m.status === "over" ? (m.result ? t("history.won", { name: ((p) => (p ? playerName(p) : m.result.winner))(m.players.find((p) => p.cue_ball === m.result.winner)) }) : t("history.over")) : t("history.playing");
      return el(
        "tr",
        { "data-testid": "history-row", dataset: { matchId: String(m.id), status: m.status } },
        el("td", { class: "who" }, el("div", {}, who[0], " – ", who[1]), el("div", { class: "hint", "data-testid": "history-date" }, when)),
        el("td", { "data-testid": "history-status" }, status),
        el("td", { "data-testid": "history-strokes", "data-label": t("history.strokes") }, m.strokes === null || m.strokes === undefined ? "" : String(m.strokes)),
        el(
          "td",
          {},
          el(
            "div",
            { class: "actions" },
            m.status !== "over" ? el("a", { class: "button small primary", href: `#/match/${m.id}`, "data-testid": "continue" }, t("history.continue")) : null,
            m.actions > 0 ? el("a", { class: "button small", href: `#/replay/${m.id}`, "data-testid": "replay" }, t("history.replay")) : null,
          ),
        ),
      );
    }),
  );
  $("history-empty").hidden = matches.length > 0;
}

// --- routing -------------------------------------------------------------------------------------------------

async function route() {
  app.session += 1;
  show("summary", false); // the summary belongs to the match it was opened on (New game, Back, a link)
  const id = (location.hash.match(/^#\/(?:match|replay)\/(\d+)/) || [])[1];
  document.title = id ? `Kaisa · ${id}` : "Kaisa";
  app.view.skip();
  clearMessage();
  const hash = location.hash || "#/";
  let m;
  if ((m = hash.match(/^#\/match\/(\d+)$/))) {
    app.mode = new MatchMode(Number(m[1]));
    await app.mode.enter();
  } else if ((m = hash.match(/^#\/replay\/(\d+)(?:\/(-?\d+))?$/))) {
    app.mode = new ReplayMode(Number(m[1]), m[2] === undefined ? -1 : Number(m[2]));
    await app.mode.enter();
  } else if (hash === "#/study") {
    app.mode = new StudyMode();
    app.mode.enter();
  } else if (hash === "#/history") {
    await enterHistory();
  } else {
    await enterStart();
  }
  document.body.dataset.ready = "true";
}

// --- start-up ------------------------------------------------------------------------------------------------

function wire() {
  for (const button of document.querySelectorAll("[data-lang]")) button.addEventListener("click", () => setLang(button.dataset.lang));
  onLangChange(() => {
    app.stroke.render();
    app.call.renderStatus();
    renderAimStatus();
    aids.retranslate();
    if (document.body.dataset.screen === "start") renderLevels();
    if (document.body.dataset.screen === "history") enterHistory();
    if (app.mode && app.mode.onLang) app.mode.onLang();
  });
  $("message-close").addEventListener("click", clearMessage);
  $("shoot").addEventListener("click", () => app.mode && app.mode.shoot && app.mode.shoot());
  $("undo").addEventListener("click", () => app.mode && app.mode.undo && app.mode.undo());
  $("take-break").addEventListener("click", () => app.mode && app.mode.startBreak && app.mode.startBreak());
  $("aim-call").addEventListener("click", () => app.mode && app.mode.aimCall && app.mode.aimCall());
  $("skip-anim").addEventListener("click", () => app.view.skip());
  const speed = $("anim-speed");
  speed.value = String(animSpeed());
  if (!speed.value) speed.value = "1";
  speed.addEventListener("change", () => localStorage.setItem(ANIM_KEY, speed.value));
  $("advise").addEventListener("click", () => app.mode instanceof StudyMode && app.mode.advise());
  $("study-back").addEventListener("click", () => app.mode instanceof StudyMode && app.mode.back());
  $("study-reset").addEventListener("click", () => app.mode instanceof StudyMode && app.mode.reset());
  $("study-shooter").addEventListener("change", (e) => app.mode instanceof StudyMode && app.mode.setShooter(e.target.value));
  for (const b of ["W1", "W2"]) {
    $(`study-hand-${b}`).addEventListener("change", (e) => app.mode instanceof StudyMode && app.mode.setHand(b, e.target.checked));
    $(`study-score-${b}`).addEventListener("change", (e) => app.mode instanceof StudyMode && app.mode.setScore(b, e.target.value));
  }
  $("study-opening").addEventListener("change", (e) => app.mode instanceof StudyMode && app.mode.setOpening(e.target.checked));
  $("study-twice").addEventListener("change", (e) => app.mode instanceof StudyMode && app.mode.setTwice(e.target.checked));
  $("hint").addEventListener("click", () => app.mode instanceof MatchMode && app.mode.askHint());
  const hintLevel = $("hint-level");
  hintLevel.value = localStorage.getItem(HINT_KEY) || "club";
  hintLevel.addEventListener("change", () => localStorage.setItem(HINT_KEY, hintLevel.value));
  $("replay-next").addEventListener("click", () => app.mode instanceof ReplayMode && app.mode.next());
  $("replay-prev").addEventListener("click", () => app.mode instanceof ReplayMode && app.mode.go(app.mode.index - 1));
  $("replay-first").addEventListener("click", () => app.mode instanceof ReplayMode && app.mode.go(-1));
  $("replay-play").addEventListener("click", () => app.mode instanceof ReplayMode && app.mode.playAll());
  $("replay-scrub").addEventListener("input", (e) => app.mode instanceof ReplayMode && app.mode.goStroke(Number(e.target.value)));

  const form = $("form-computer");
  form.level.addEventListener("change", describeLevel);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = form.name.value.trim() || t("start.defaultName");
    localStorage.setItem(NAME_KEY, name);
    const me = { name, kind: "human" };
    const level = form.level.value;
    // stored under its level's id, shown by the level's name in the language of whoever looks (playerName)
    const bot = { name: `${level[0].toUpperCase()}${level.slice(1)}`, kind: level };
    createMatch(form.second.checked ? [bot, me] : [me, bot], form.clock.checked, form.seed.value);
  });
  const two = $("form-two");
  two.addEventListener("submit", (event) => {
    event.preventDefault();
    createMatch(
      [
        { name: two.name1.value.trim() || `${t("start.defaultName")} 1`, kind: "human" },
        { name: two.name2.value.trim() || `${t("start.defaultName")} 2`, kind: "human" },
      ],
      two.clock.checked,
      null,
    );
  });

  document.addEventListener("keydown", onKey);
  $("aids").value = aids.level();
  $("aids").addEventListener("change", (e) => {
    aids.setLevel(e.target.value);
    if (app.mode && app.mode.render) app.mode.render();
  });
  const soundButton = $("sound-toggle");
  const showSound = () => {
    soundButton.setAttribute("aria-pressed", String(sound.isOn()));
    soundButton.textContent = sound.isOn() ? `♪ ${t("sound.on")}` : t("sound.off");
  };
  soundButton.addEventListener("click", () => {
    sound.setOn(!sound.isOn());
    showSound();
  });
  onLangChange(showSound);
  showSound();
  app.showSound = showSound;
  $("help-open").addEventListener("click", () => toggleHelp(true));
  $("help-close").addEventListener("click", () => toggleHelp(false));
  $("summary-close").addEventListener("click", () => show("summary", false));
  window.addEventListener("resize", fitTable);
  let docked = 0;
  new ResizeObserver(() => {
    const height = $("dock").offsetHeight;
    document.body.style.setProperty("--dock-h", `${height}px`);
    // a taller dock (a longer phase line, the call's row) takes the table's foot: fit the table again
    if (height && Math.abs(height - docked) > 6 && !$("dock").hidden) {
      docked = height;
      fitTable();
    }
  }).observe($("dock"));
  window.addEventListener("hashchange", route);
  setInterval(() => app.mode && app.mode.tick && app.mode.tick(), 1000);
}

function toggleHelp(open) {
  const help = $("help");
  help.hidden = open === undefined ? !help.hidden : !open;
  if (!help.hidden) $("help-close").focus();
}

/** The keys of the table: arrows aim (Shift fine, Alt coarse) and set the power, Space or Enter shoots. */
function onKey(event) {
  const tag = (event.target && event.target.tagName) || "";
  if (event.key === "Escape") {
    show("help", false);
    show("summary", false);
    return;
  }
  if (["INPUT", "SELECT", "TEXTAREA"].includes(tag) || !app.mode || !app.stroke) return;
  if (event.ctrlKey || event.metaKey) return;
  if (event.key === "?") {
    toggleHelp();
    event.preventDefault();
    return;
  }
  if (document.body.dataset.screen !== "table" || !$("help").hidden || !$("summary").hidden) return;
  const v = app.stroke.value;
  if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
    // on the screen: left turns the aim anticlockwise, right clockwise, whichever way the table is drawn
    const step = event.shiftKey ? 0.01 : event.altKey ? 1 : fineStep();
    const turn = (event.key === "ArrowLeft" ? 1 : -1) * screenSense();
    app.stroke.set({ direction: normaliseDirection(v.direction + turn * step) });
    event.preventDefault();
  } else if (event.key === "ArrowUp" || event.key === "ArrowDown") {
    const step = (event.shiftKey ? 0.01 : 0.05) * (event.key === "ArrowUp" ? 1 : -1);
    app.stroke.set({ speed: Math.round((v.speed + step) * 100) / 100 });
    event.preventDefault();
  } else if ((event.key === " " || event.key === "Enter") && tag !== "BUTTON" && tag !== "A") {
    const shoot = $("shoot");
    if (!shoot.hidden && !shoot.disabled && !$("shoot-row").hidden && app.mode.shoot) app.mode.shoot();
    event.preventDefault();
  } else if (event.key === "a" || event.key === "A") {
    if (app.mode.aimCall && !$("aim-call").disabled && !$("call-controls").hidden) app.mode.aimCall();
  } else if ((event.key === "h" || event.key === "H") && app.mode instanceof MatchMode) {
    if (!$("hint").hidden && !$("hint").disabled) app.mode.askHint();
  } else if (event.key === "m" || event.key === "M") {
    sound.setOn(!sound.isOn());
    if (app.showSound) app.showSound();
  }
}

/** The end of a match: the result with names, and each player's innings, best run, pots and fouls. */
async function showSummary(mode) {
  const v = mode.data;
  if (!v || !v.result) return;
  let actions;
  try {
    // the whole history a page at a time, the pages asked for together
    const pages = [];
    for (let offset = 0; offset < v.actions; offset += 200) pages.push(api.actions(mode.id, offset, 200));
    actions = (await Promise.all(pages)).flat();
  } catch {
    actions = [];
  }
  if (!mode.alive()) return;
  const r = v.result;
  const winner = v.players.find((p) => p.cue_ball === r.winner);
  $("summary-title").textContent = t("summary.title", { name: winner ? playerName(winner) : r.winner });
  const stats = v.players.map(() => ({ strokes: 0, pots: 0, fouls: 0, best: 0, run: 0 }));
  for (const a of actions) {
    const ruling = a.outcome && a.outcome.ruling;
    if (a.action.kind !== "shot" || !ruling) continue;
    const seat = v.players.findIndex((p) => p.cue_ball === ruling.shooter);
    if (seat < 0) continue;
    const s = stats[seat];
    s.strokes++;
    if (ruling.legal_pot) s.pots++;
    if (ruling.fouls.length) s.fouls++;
    s.run += Math.max(0, ruling.points);
    s.best = Math.max(s.best, s.run);
    if (ruling.turn_passes) s.run = 0;
  }
  const rows = [
    ["summary.player", (p) => playerName(p)],
    ["summary.points", (p) => String(p.cue_ball ? r.recorded[p.cue_ball] : 0)],
    ["summary.innings", (p) => String(p.cue_ball ? v.innings[p.cue_ball] : 0)],
    ["summary.bestRun", (_p, i) => String(stats[i].best)],
    ["summary.pots", (_p, i) => (stats[i].strokes ? `${stats[i].pots}/${stats[i].strokes} (${Math.round((100 * stats[i].pots) / stats[i].strokes)} %)` : "0")],
    ["summary.fouls", (p, i) => String(p.cue_ball ? v.fouls[p.cue_ball] || stats[i].fouls : stats[i].fouls)],
  ];
  $("summary-rows").replaceChildren(
    ...rows.map(([key, of]) => el("tr", {}, el("th", {}, t(key)), ...v.players.map((p, i) => el("td", { "data-testid": `summary-${key.split(".")[1]}-${i}` }, of(p, i))))),
  );
  $("summary-rematch").onclick = () => {
    show("summary", false);
    // the same players, clock and game length (3: a shorter or longer game than 60 is a rule option)
    const options = v.winning_score && v.winning_score !== 60 ? { winning_score: v.winning_score } : null;
    createMatch(v.players.map((p) => ({ name: p.name, kind: p.kind })), v.clock.mode === "wall", null, options);
  };
  $("summary-replay").onclick = () => {
    show("summary", false);
    location.hash = `#/replay/${mode.id}`;
  };
  show("summary", true);
}

async function main() {
  applyLabels(document);
  app.stroke = new StrokeControls(() => app.mode && app.mode.onStrokeChange && app.mode.onStrokeChange());
  app.stroke.screenSense = screenSense;
  app.call = new CallControls(() => app.mode && app.mode.render && app.mode.render());
  app.call.where = () => (app.mode && app.mode.callWhere ? app.mode.callWhere() : {});
  wire();
  try {
    const [table, players] = await Promise.all([api.table(), api.players()]);
    app.table = table;
    app.players = players;
    setPlayerKinds(players);
  } catch (error) {
    showError(error);
    return;
  }
  app.view = new TableView($("table"), app.table);
  installPointer(app.view.canvas);
  // for tests and the console: where a table point (metres) is in the window
  window.kaisa = {
    table: app.table,
    balls: () => ({ ...app.view.balls }),
    toClient(p) {
      const rect = app.view.canvas.getBoundingClientRect();
      const [x, y] = app.view.toPx(p);
      return [rect.left + x, rect.top + y];
    },
  };
  await route();
}

main();
