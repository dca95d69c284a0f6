// The table page's small tools: its elements by id, the message bar, the animation speed, waiting, numbers in the
// page's language. They hold no state and touch the page only when called (node's tests can import them).

import { fmtDecimal } from "../shared/ui.js";

/** The page's element `id` (index.html holds it), of class `kind` (HTMLElement unless told); throws when there is
 * none, so a lookup needs no null check.
 * @template {HTMLElement} [E=HTMLElement] @param {string} id @param {new () => E} [kind] @returns {E} */
export function $(id, kind) {
  const node = document.getElementById(id);
  if (!(node instanceof (kind || HTMLElement))) throw new Error(`#${id}: no such element`);
  return /** @type {E} */ (node);
}

/** The page's input `id` (a field, a checkbox, a range). @param {string} id */
export const input = (id) => $(id, HTMLInputElement);
/** The page's select `id`. @param {string} id */
export const select = (id) => $(id, HTMLSelectElement);
/** The page's button `id`. @param {string} id */
export const button = (id) => $(id, HTMLButtonElement);

/** A form field as the page reads it by name: an input or a select (value, checked...).
 * @typedef {HTMLInputElement & HTMLSelectElement} Field */
/** A form of the page with its fields by name (the DOM's named access to form controls). Not HTMLFormElement
 * itself: its `[name: string]: any` would make every field `any`.
 * @typedef {{ [name: string]: Field } & Pick<HTMLFormElement, "addEventListener">} Form */
/** The page's form `id`. @param {string} id @returns {Form} */
export function formOf(id) {
  return /** @type {Form} */ (/** @type {unknown} */ ($(id, HTMLFormElement)));
}
export const ANIM_KEY = "kaisa.animSpeed";

// --- messages -------------------------------------------------------------------------------------------

/** A message in the bar at the top. @param {string} text @param {"error" | "info"} [kind] */
export function showMessage(text, kind = "error") {
  const box = $("message");
  $("message-text").textContent = text;
  box.className = `message ${kind}`;
  box.dataset.kind = kind;
  box.hidden = false;
}

/** An error in the message bar (and the console). @param {unknown} error */
export function showError(error) {
  const text = error instanceof Error && error.message ? error.message : String(error);
  console.error(error);
  showMessage(text, "error");
}

export function clearMessage() {
  $("message").hidden = true;
  $("message-text").textContent = "";
}

// --- small helpers ----------------------------------------------------------------------------------------

/** How fast the balls move on the screen (the setting at the foot; 1: as on the table). */
export function animSpeed() {
  const v = Number(localStorage.getItem(ANIM_KEY) || "1");
  return Number.isFinite(v) && v > 0 ? v : 1;
}

/** @param {number} ms @returns {Promise<void>} */
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** @param {string} id @param {boolean} visible */
export function show(id, visible) {
  $(id).hidden = !visible;
}

/** A number in the page's language: decimal comma in Finnish. @param {number} x @param {number} digits */
export function fmtNum(x, digits) {
  return fmtDecimal(x, digits);
}
