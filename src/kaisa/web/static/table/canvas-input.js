// The canvas under the pointer: dragging balls, pulling the cue back for power, turning the aim finely, aiming at
// the pointer and clicking (calls). What each gesture does to the table is the mode's (match, study).

import { app } from "./state.js";
import { normaliseDirection } from "./controls.js";

/** @typedef {import("./state.js").Point} Point @typedef {import("./state.js").DrawnAim} DrawnAim */
/** A press on the canvas being followed: the ball it moves (null: none), or what it does to the aim (`kind`:
 * "pull" the cue, "fine" turning from `direction` as the pointer leaves `point`); where it started (client px).
 * @typedef {{ ball: string | null, start: Point, moved: boolean, offset: Point, kind?: "pull" | "fine",
 *   aim?: DrawnAim, direction?: number, point?: Point }} Gesture */

// --- the canvas: dragging, aiming, clicking --------------------------------------------------------------

/** The aim the pointer works on: the cue ball and the direction drawn (null when nothing is being aimed). */
export function currentAim() {
  /** @type {DrawnAim[]} */
  const aims = (app.view.overlay && app.view.overlay.aims) || [];
  const aim = aims.find((a) => !a.faint);
  return aim || null;
}

/** Pixels around the cue ball's centre that are on it at any size (a fingertip on a phone's small table). */
const CUE_GRAB_PX = 12;
/** Pixels across the aim line, behind the cue ball, where a press takes the cue (a pull for power). */
const CUE_LINE_PX = 22;
/** Pixels across the aim line, in front of the cue ball, where a press turns the aim finely. */
const FINE_LINE_PX = 18;

/** Drags on the table, the same rule at every size (what is near is measured in screen pixels, the pull in
 * metres on the table):
 * - on a ball the mode lets move (the study's balls, a ball in hand, W2's place, a lag ball): the ball moves,
 *   whichever way it is dragged; the cue ball counts as pressed within 12 px of its centre however small the
 *   table is drawn;
 * - on the cue ball where it may not be moved (within 2.2 ball radii, or 12 px), or behind the cue ball on the
 *   aim line (within 22 px of the line): the cue is pulled back, and the power follows how far (0.5 m of pull is
 *   full power). So where the cue ball moves (the study), the power comes from a pull that starts behind the
 *   ball, off it, or from the power bar;
 * - in front of it near the aim line (18 px): the aim turns finely (0.02° a pixel, Shift 0.002°);
 * - elsewhere the aim points at the pointer. A click calls a ball or a pocket. */
/** What a press at table point `p` takes (the rule above, pure: the node tests call it at any scale): the ball it
 * moves, else "pull" (the cue), "fine" (the aim turned finely) or null (the aim pointed, or a click).
 * @param {Point} p @param {DrawnAim | null} aim the cue ball's aim
 * @param {{ scale: number, R: number, ballHere: string | null, cueMoves: boolean, aims: boolean }} at the view's px
 *   per metre and the ball radius (m); the ball the mode lets move under the press (its own reach); whether the cue
 *   ball may be moved; whether the mode aims at all
 * @returns {{ ball: string | null, kind: "pull" | "fine" | null }} */
export function pressOf(p, aim, { scale, R, ballHere, cueMoves, aims }) {
  const fromCue = aim ? Math.hypot(p[0] - aim.from[0], p[1] - aim.from[1]) * scale : Infinity; // px
  // the cue ball pressed on where the mode lets it move: it moves (within a fingertip's reach on a small table)
  if (!ballHere && aim && cueMoves && fromCue <= Math.max(CUE_GRAB_PX, R * scale)) return { ball: aim.ball, kind: null };
  if (ballHere || !aim || !aims) return { ball: ballHere, kind: null };
  const d = [Math.cos((aim.direction * Math.PI) / 180), Math.sin((aim.direction * Math.PI) / 180)];
  const rel = [p[0] - aim.from[0], p[1] - aim.from[1]];
  const along = rel[0] * d[0] + rel[1] * d[1];
  const across = Math.abs(rel[0] * d[1] - rel[1] * d[0]) * scale; // px
  const onFixedCue = !cueMoves && fromCue <= Math.max(CUE_GRAB_PX, 2.2 * R * scale);
  if (onFixedCue || (along < 0 && across < CUE_LINE_PX)) return { ball: null, kind: "pull" }; // the cue behind the ball
  if (along > 0 && across < FINE_LINE_PX) return { ball: null, kind: "fine" };
  return { ball: null, kind: null };
}

export function installPointer(/** @type {HTMLCanvasElement} */ canvas) {
  /** @type {Gesture | null} */
  let gesture = null;
  canvas.addEventListener("pointerdown", (event) => {
    const mode = app.mode;
    if (!mode || app.view.animating || (mode.busy && mode.busy())) return;
    const p = app.view.eventPoint(event);
    const aim = currentAim();
    const cueMoves = Boolean(aim && mode.draggableAt && mode.draggableAt(aim.from) === aim.ball);
    const ballHere = mode.draggableAt ? mode.draggableAt(p) : null;
    const { ball, kind } = pressOf(p, aim, { scale: app.view.scale, R: app.view.geo.R, ballHere, cueMoves, aims: Boolean(mode.aimAt) });
    const origin = ball ? app.view.balls[ball] : null;
    /** @type {Gesture} */
    const started = { ball, start: [event.clientX, event.clientY], moved: false, offset: origin ? [origin[0] - p[0], origin[1] - p[1]] : [0, 0] };
    gesture = started;
    if (aim && kind === "pull") {
      started.kind = "pull";
      started.aim = aim;
    } else if (aim && kind === "fine") {
      started.kind = "fine";
      started.aim = aim;
      started.direction = aim.direction;
      started.point = p;
    }
    if (ball) app.view.overlay.dragging = ball;
    canvas.setPointerCapture(event.pointerId);
    event.preventDefault();
  });
  canvas.addEventListener("pointermove", (event) => {
    if (!gesture || !app.mode) return;
    if (!gesture.moved && Math.hypot(event.clientX - gesture.start[0], event.clientY - gesture.start[1]) < 4) return;
    const p = app.view.eventPoint(event);
    const g = gesture;
    g.moved = true;
    if (g.ball) {
      if (app.mode.dragTo) app.mode.dragTo(g.ball, [p[0] + g.offset[0], p[1] + g.offset[1]]);
    } else if (g.kind === "pull" && g.aim) {
      pullTo(g.aim, p);
      app.view.overlay.pull = { speed: app.stroke.value.speed };
    } else if (g.kind === "fine" && g.direction !== undefined && g.point) {
      const n = [-Math.sin((g.direction * Math.PI) / 180), Math.cos((g.direction * Math.PI) / 180)];
      const moved = ((p[0] - g.point[0]) * n[0] + (p[1] - g.point[1]) * n[1]) * app.view.scale;
      const gain = event.shiftKey ? 0.002 : 0.02;
      app.stroke.set({ direction: normaliseDirection(g.direction + moved * gain) });
    } else if (app.mode.aimAt) app.mode.aimAt(p);
  });
  const end = (/** @type {PointerEvent} */ event) => {
    if (!gesture || !app.mode) return;
    const p = app.view.eventPoint(event);
    // the power is where the pull was let go (a touch screen may send its last move well before the release)
    if (gesture.kind === "pull" && gesture.aim && gesture.moved && !gesture.ball) pullTo(gesture.aim, p);
    const g = gesture;
    gesture = null;
    app.view.overlay.dragging = null;
    app.view.overlay.pull = null;
    if (!g.moved && g.kind === "pull") return app.view.draw();
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
 * the same for a finger and a mouse): 0.5 m of pull is full power. @param {DrawnAim} aim @param {Point} p */
export function pullTo(aim, p) {
  const d = [Math.cos((aim.direction * Math.PI) / 180), Math.sin((aim.direction * Math.PI) / 180)];
  const back = -((p[0] - aim.from[0]) * d[0] + (p[1] - aim.from[1]) * d[1]);
  const speed = Math.max(0.1, Math.min(8, (Math.max(0, back) / 0.5) * 8));
  app.stroke.set({ speed: Math.round(speed * 20) / 20 });
}
