// The canvas under the pointer: dragging balls, pulling the cue back for power, turning the aim finely, aiming at
// the pointer and clicking (calls). What each gesture does to the table is the mode's (match, study).

import { app } from "./state.js";
import { normaliseDirection } from "./controls.js";

// --- the canvas: dragging, aiming, clicking --------------------------------------------------------------

/** The aim the pointer works on: the cue ball and the direction drawn (null when nothing is being aimed). */
export function currentAim() {
  const aims = (app.view.overlay && app.view.overlay.aims) || [];
  const aim = aims.find((a) => !a.faint);
  return aim || null;
}

/** Drags on the table: a draggable ball moves; from the cue ball pulls back the cue (power); near the aim
 * line turns the aim finely (0.02° a pixel, Shift 0.002°: the sensitivity falls near the aim); elsewhere the
 * aim points at the pointer. A click calls a ball or a pocket. */
export function installPointer(canvas) {
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
export function pullTo(aim, p) {
  const d = [Math.cos((aim.direction * Math.PI) / 180), Math.sin((aim.direction * Math.PI) / 180)];
  const back = -((p[0] - aim.from[0]) * d[0] + (p[1] - aim.from[1]) * d[1]);
  const speed = Math.max(0.1, Math.min(8, (Math.max(0, back) / 0.5) * 8));
  app.stroke.set({ speed: Math.round(speed * 20) / 20 });
}
