// The table page's small tools: its elements by id, the message bar, the animation speed, waiting, numbers in the
// page's language. They hold no state and touch the page only when called (node's tests can import them).

import { fmtDecimal } from "./controls.js";

/** The page's element `id` (index.html holds it); throws when there is none. */
export const $ = (id) => {
  const node = document.getElementById(id);
  if (!node) throw new Error(`#${id}: no such element`);
  return node;
};
export const ANIM_KEY = "kaisa.animSpeed";

// --- messages -------------------------------------------------------------------------------------------

export function showMessage(text, kind = "error") {
  const box = $("message");
  $("message-text").textContent = text;
  box.className = `message ${kind}`;
  box.dataset.kind = kind;
  box.hidden = false;
}

export function showError(error) {
  const text = error && error.message ? error.message : String(error);
  console.error(error);
  showMessage(text, "error");
}

export function clearMessage() {
  $("message").hidden = true;
  $("message-text").textContent = "";
}

// --- small helpers ----------------------------------------------------------------------------------------

export function animSpeed() {
  const v = Number(localStorage.getItem(ANIM_KEY) || "1");
  return Number.isFinite(v) && v > 0 ? v : 1;
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export function show(id, visible) {
  $(id).hidden = !visible;
}

/** A number in the page's language: decimal comma in Finnish. */
export function fmtNum(x, digits) {
  return fmtDecimal(x, digits);
}
