// Aiming from the page: a click that calls or aims, "Aim at the called pot" (the aim helper) and the potting
// window it draws on the aim, its status line, and the arrow keys' step and sense on the screen.

import { app } from "./state.js";
import { $, fmtNum, showMessage } from "./page.js";
import { normaliseDirection } from "./controls.js";
import * as aids from "./aim.js";
import { lang, t } from "../shared/i18n.js";
import { degrees, dist } from "../shared/table.js";

/** @typedef {import("./state.js").Point} Point @typedef {import("./state.js").Balls} Balls */
/** @typedef {import("./state.js").Stroke} Stroke @typedef {import("./state.js").AimAnswer} AimAnswer */
/** @typedef {import("./state.js").Said} Said */
/** A screen that aims and calls (a match, the study): what the aim helper asks of it. `askAim` is its aim
 * request (`deep`: search speed and spin too); `aiming` while the helper works.
 * @typedef {{ alive(): boolean, busy(): boolean, render(): void, aimAt(p: Point): void, strokeNow(): Stroke,
 *   aiming?: boolean, askAim?(call: string, stroke: Stroke, deep?: boolean): Promise<AimAnswer> }} AimingMode */
/** The aim helper's line under the stroke: what it says, not its words (they follow the language).
 * @typedef {{ state: "working" } | { state: "ok", width: number, speed: number, said?: Said | null }
 *   | { state: "none", said?: Said | null } | { state: "error", text: string }} AimStatus */
/** A window of directions that pots the call, or none at this power and spin. @typedef {{ direction: number, width: number }} Window */

/** Clicks on the table in modes with aiming and calling: a pocket calls it, an object ball calls it, anywhere
 * else aims there. */
export function clickToCallOrAim(/** @type {AimingMode} */ mode, /** @type {Point} */ p, /** @type {string} */ cue) {
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

/** Aim from `origin` (the cue ball) at table point `p`. @param {Point | null | undefined} origin @param {Point} p */
export function aimFrom(origin, p) {
  if (!origin || dist(origin, p) < 1e-4) return;
  app.stroke.set({ direction: normaliseDirection(degrees(Math.atan2(p[1] - origin[1], p[0] - origin[0]))) });
}

/** "Aim at the called pot": first the ghost-ball aim at once, then the centre of the window of directions
 * that pots the call with the physics (`ask(call, stroke)` is the match's or the study table's aim request);
 * the speed and spin are kept unless they pot in no direction, then the helper's are taken (and it says so).
 * When nothing pots, the aim stays where it was and the status says what to try.
 * @param {AimingMode} mode @param {Point | null | undefined} cue @param {Balls} balls
 * @param {(call: string, stroke: Stroke) => Promise<AimAnswer>} ask */
export async function aimAtCall(mode, cue, balls, ask) {
  const c = app.call.current();
  if (!c.ball || !c.pocket || !balls[c.ball] || !cue) {
    showMessage(t("stroke.aimNeedsCall"), "info");
    return;
  }
  const before = app.stroke.value.direction;
  app.stroke.set({ direction: normaliseDirection(app.view.geo.ghostAim(cue, balls[c.ball], c.pocket)) });
  const resolved = await app.call.resolve();
  if ("error" in resolved || !resolved.call) {
    showMessage("error" in resolved ? resolved.error : t("stroke.aimNeedsCall"), "error");
    return;
  }
  const call = resolved.call;
  const seq = (app.aimSeq = app.aimSeq + 1);
  setAimStatus({ state: "working" });
  mode.aiming = true;
  mode.render();
  try {
    const stroke = mode.strokeNow();
    const answer = await ask(call, stroke);
    if (seq !== app.aimSeq || !mode.alive()) return;
    if (!answer.found) {
      app.stroke.set({ direction: before });
      app.aimWindow = null;
      setAimStatus({ state: "none", said: answer.said });
      return;
    }
    app.stroke.set({ direction: normaliseDirection(answer.direction), speed: answer.speed, side: answer.side, follow: answer.follow });
    app.aimWindow = { direction: normaliseDirection(answer.direction), width: answer.width, key: aimKey(cue, call) };
    setAimStatus({ state: "ok", width: answer.width, speed: answer.speed, said: answer.said });
  } catch (error) {
    if (seq !== app.aimSeq) return;
    setAimStatus({ state: "error", text: error instanceof Error ? error.message : String(error) });
  } finally {
    mode.aiming = false;
    if (mode.alive()) mode.render();
  }
}

const WINDOW_DELAY = 400; // ms after the last change of call, power or spin before the window is asked for
/** The window asked for last: its set-up's key, the answer ({none} when no direction pots), the pending timer.
 * @type {{ key: string | null, answer: Window | { none: true } | null, timer: ReturnType<typeof setTimeout> | undefined, seq: number }} */
let shownWindow = { key: null, answer: null, timer: undefined, seq: 0 };

/** The full aid's potting window for the call as set (the aim helper's search, asked in the background when
 * the call, the cue ball, the power or the spin change, never the direction): {direction, width} to draw on
 * the aim, or null while it is asked for, when no direction pots at this power and spin, or without a call.
 * @param {AimingMode} mode @param {Point} cue @param {Balls} balls @returns {Window | null} */
export function windowFor(mode, cue, balls) {
  const askAim = mode.askAim ? mode.askAim.bind(mode) : null;
  if (aids.level() !== "full" || !askAim || !cue) return null;
  const text = app.call.current().text;
  if (!text || !app.call.accepted(text)) return null;
  const stroke = mode.strokeNow();
  const key = JSON.stringify([balls, text, cue, stroke.speed, stroke.side, stroke.follow, stroke.elevation, stroke.place || null]);
  if (shownWindow.key === key) return shownWindow.answer && "direction" in shownWindow.answer ? shownWindow.answer : null;
  clearTimeout(shownWindow.timer);
  const mine = shownWindow.seq + 1;
  shownWindow = { key, answer: null, timer: undefined, seq: mine };
  shownWindow.timer = setTimeout(async () => {
    if (!mode.alive() || mode.busy()) {
      if (shownWindow.seq === mine) shownWindow.key = null; // asked again at the next render
      return;
    }
    /** @type {AimAnswer | null} */
    let answer;
    try {
      answer = await askAim(text, stroke, false);
    } catch {
      answer = null; // no window to draw (the call cannot be aimed at here): the preview still says what happens
    }
    if (shownWindow.seq !== mine || !mode.alive()) return;
    const same = answer && answer.found && Math.abs(answer.speed - stroke.speed) < 0.005 && answer.side === stroke.side && answer.follow === stroke.follow;
    const found = answer && same ? { direction: normaliseDirection(answer.direction), width: answer.width } : null;
    shownWindow.answer = found || { none: true };
    if (found) app.aimWindow = { ...found, key: aimKey(cue, text) };
    if (!mode.busy()) mode.render();
  }, WINDOW_DELAY);
  return null;
}

/** What a found window belongs to: the cue ball's place and the call (a window of another set-up is no help).
 * @param {Point} cue @param {string} call */
function aimKey(cue, call) {
  return `${cue[0].toFixed(4)},${cue[1].toFixed(4)}:${call}`;
}

/** The aim helper's line under the stroke, kept as what it says (not its words), so that it follows the
 * language; null clears it (a new turn, a new setup, a stroke played). */
export function setAimStatus(/** @type {AimStatus | null} */ status) {
  app.aimStatus = status;
  renderAimStatus();
}

export function renderAimStatus() {
  const box = $("aim-status");
  const s = app.aimStatus;
  if (!s) {
    box.textContent = "";
    delete box.dataset.state;
    return;
  }
  const said = "said" in s && s.said ? (lang() === "fi" ? s.said.fi : s.said.en) || "" : "";
  if (s.state === "working") box.textContent = t("aim.searching");
  else if (s.state === "ok") box.textContent = [t("aim.window", { width: fmtNum(s.width, 3), speed: fmtNum(s.speed, 2) }), said].filter(Boolean).join(" ");
  else if (s.state === "none") box.textContent = said;
  else box.textContent = s.text;
  box.dataset.state = s.state;
}

/** Forget the aim helper's answer: its status line and its window. */
export function clearAim() {
  app.aimSeq += 1;
  app.aimWindow = null;
  setAimStatus(null);
}

/** +1 when a larger direction turns the aim anticlockwise as seen on the screen, -1 if the table were drawn
 * mirrored: read from how the view maps the table's axes to the screen (whose y runs down). */
export function screenSense() {
  if (!app.view) return 1;
  const [a, b, c] = /** @type {Point[]} */ ([[0, 0], [1, 0], [0, 1]]).map((p) => app.view.toPx(p));
  const cross = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return cross < 0 ? 1 : -1;
}

/** The arrow keys' step (degrees): 0.1, and 0.01 near a window the aim helper found (within 0.5 degrees of its
 * centre, for the same cue ball and call) or while the preview says the call goes in. */
export function fineStep() {
  const w = app.aimWindow;
  const mode = app.mode;
  const cue = mode && mode.cuePosition ? mode.cuePosition() : mode && mode.position && mode.shooter ? mode.position[mode.shooter] : null;
  const text = app.call ? app.call.current().text : "";
  const near = w && cue && text && w.key === aimKey(cue, text) && Math.abs(normaliseDirection(app.stroke.value.direction - w.direction)) < 0.5;
  const preview = document.getElementById("preview-status");
  return near || (preview && preview.dataset.state === "pots") ? 0.01 : 0.1;
}
