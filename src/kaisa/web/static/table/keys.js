// The table's keys: the arrows aim and set the power, Space or Enter shoots, A aims at the call, H asks for a
// hint, M mutes, ? opens the help, Escape closes it. A ball being placed (W2's place, the cue ball in hand, the
// study's cue ball, a lag ball) moves with the arrows: at once where nothing is aimed (W2's place), after B
// where the arrows also aim; so the table can be played with the keyboard alone.

import { app } from "./state.js";
import { $, show } from "./page.js";
import { fineStep, screenSense } from "./aim-helper.js";
import { MatchMode } from "./match.js";
import { currentAim } from "./canvas-input.js";
import { t } from "../shared/i18n.js";
import { normaliseDirection } from "./controls.js";
import * as sound from "../shared/sound.js";

const button = (/** @type {string} */ id) => $(id, HTMLButtonElement);

/** Metres a press of an arrow moves a ball being placed: 1 cm (Shift 1 mm, Alt 5 cm). */
const MOVE_STEP = { plain: 0.01, fine: 0.001, coarse: 0.05 };

/** Whether B has given the arrows to the ball being placed (where they would otherwise aim). */
let movingBall = false;

/** The ball the arrows can move now (the mode lets it be dragged), or null: the aim's ball (the cue ball in
 * hand, the study's cue ball, a lag ball), or W2 while its place is chosen. */
function placeableBall() {
  const mode = app.mode;
  if (!mode || !mode.draggableAt || !mode.dragTo) return null;
  const aim = currentAim();
  for (const ball of [aim ? aim.ball : null, "W2"]) {
    const p = ball ? app.view.balls[ball] : null;
    if (ball && p && mode.draggableAt(p) === ball) return ball;
  }
  return null;
}

/** Move `ball` by a screen direction (`dx`, `dy`: -1, 0 or 1), `step` metres, as a drag would (the mode keeps it
 * where it may go). @param {string} ball @param {number} dx @param {number} dy @param {number} step */
function moveBall(ball, dx, dy, step) {
  const mode = app.mode;
  const p = app.view.balls[ball];
  if (!mode || !mode.dragTo || !p) return;
  const [px, py] = app.view.toPx(p);
  const pixels = step * app.view.scale;
  const q = app.view.toTable(px + dx * pixels, py + dy * pixels);
  mode.dragTo(ball, q);
  if (mode.dragEnd) mode.dragEnd(ball);
  app.view.draw();
  $("key-status").textContent = t("keys.moved", { ball });
}

/** B: the arrows move the ball being placed, or aim again. */
function toggleMoving() {
  const ball = placeableBall();
  movingBall = Boolean(ball) && !movingBall;
  $("key-status").textContent = movingBall && ball ? t("keys.moving", { ball }) : ball ? t("keys.aiming") : t("keys.nothingToMove");
}

/** Open or close the help (`open` undefined: the other way). @param {boolean} [open] */
export function toggleHelp(open) {
  const help = $("help");
  help.hidden = open === undefined ? !help.hidden : !open;
  if (!help.hidden) $("help-close").focus();
}

/** The keys of the table: arrows aim (Shift fine, Alt coarse) and set the power, Space or Enter shoots. */
export function onKey(/** @type {KeyboardEvent} */ event) {
  const tag = event.target instanceof Element ? event.target.tagName : "";
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
  const arrow = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[event.key];
  const ball = arrow ? placeableBall() : null;
  if (arrow && !ball) movingBall = false; // the ball was placed (or the turn passed): the arrows aim again
  if (arrow && ball && (movingBall || !currentAim())) {
    // a ball being placed: the arrows move it on the screen (up is up however the table lies)
    const step = event.shiftKey ? MOVE_STEP.fine : event.altKey ? MOVE_STEP.coarse : MOVE_STEP.plain;
    moveBall(ball, arrow[0], arrow[1], step);
    event.preventDefault();
  } else if (event.key === "b" || event.key === "B") {
    toggleMoving();
    event.preventDefault();
  } else if ((event.key === " " || event.key === "Enter") && !currentAim() && tag !== "BUTTON" && tag !== "A") {
    // where nothing is aimed, the phase's own button (W2's place) takes Enter
    const place = document.querySelector("[data-testid=place-w2]");
    if (place instanceof HTMLButtonElement && !place.disabled) place.click();
    event.preventDefault();
  } else if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
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
    const shoot = button("shoot");
    if (!shoot.hidden && !shoot.disabled && !$("shoot-row").hidden && app.mode.shoot) {
      movingBall = false; // the next stroke starts aiming
      $("key-status").textContent = "";
      app.mode.shoot();
    }
    event.preventDefault();
  } else if (event.key === "a" || event.key === "A") {
    if (app.mode.aimCall && !button("aim-call").disabled && !$("call-controls").hidden) app.mode.aimCall();
  } else if ((event.key === "h" || event.key === "H") && app.mode instanceof MatchMode) {
    if (!$("hint").hidden && !button("hint").disabled) app.mode.askHint();
  } else if (event.key === "m" || event.key === "M") {
    sound.setOn(!sound.isOn());
    if (app.showSound) app.showSound();
  }
}
