// The table's keys: the arrows aim and set the power, Space or Enter shoots, A aims at the call, H asks for a
// hint, M mutes, ? opens the help, Escape closes it.

import { app } from "./state.js";
import { $, show } from "./page.js";
import { fineStep, screenSense } from "./aim-helper.js";
import { MatchMode } from "./match.js";
import { normaliseDirection } from "./controls.js";
import * as sound from "../shared/sound.js";

const button = (/** @type {string} */ id) => $(id, HTMLButtonElement);

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
    const shoot = button("shoot");
    if (!shoot.hidden && !shoot.disabled && !$("shoot-row").hidden && app.mode.shoot) app.mode.shoot();
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
