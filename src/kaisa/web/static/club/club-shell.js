// The marker's page's shell (club.html): the state its screens share (the table, the small tables, the match page
// shown, the marker's vocabulary), the message bar, which screen shows, and the matches kept on this device.

import { $ } from "./club-common.js";
import { ClubError } from "./club-queue.js";
import { lang } from "../shared/i18n.js";

const RECENT_KEY = "kaisa.club.recent";

/** @typedef {import("../shared/table.js").TableJson & { spots: Record<string, import("../shared/table.js").Point> }} TableJson */
/** The small tables of the match page: W2's place, the cue ball in hand, the balls at rest, the respots.
 * @typedef {Record<"w2" | "hand" | "rest" | "respot", import("./club-common.js").MiniTable>} SmallTables */
/** A match marked on this device: its links (the marker's holds the token) and who played.
 * @typedef {{ id: number, token: string, names: string[], event: string | null, marker: string, scoreboard: string }} Kept */

/** What the marker's page holds while it is open; `page` is the match page shown (club-match.js).
 * @type {{ table: TableJson | null, geo: import("../shared/table.js").Geometry | null, tables: SmallTables | null, session: number,
 *   page: import("./club-match.js").MatchPage | null, vocab: import("./club-entry.js").Vocabulary }} */
export const club = { table: null, geo: null, tables: null, session: 0, page: null, vocab: { fields: [], flags: [] } };

// --- messages -------------------------------------------------------------------------------------------------

/** @type {(() => string) | null} the message's text in the current language, when it can be said again */
export let shownMessage = null;

/** A message in the top bar. Given as a function (`() => t(...)`), it is said again in the other language when
 * the language is switched. @param {string | (() => string)} text @param {string} [kind] */
export function showMessage(text, kind = "error") {
  shownMessage = typeof text === "function" ? text : null;
  $("message-text").textContent = typeof text === "function" ? text() : text;
  const box = $("message");
  box.className = `message ${kind}`;
  box.dataset.kind = kind;
  box.hidden = false;
}

/** @param {unknown} error */
export function showError(error) {
  console.error(error);
  if (error instanceof ClubError) {
    showMessage(error.said(lang()), "error");
    return;
  }
  showMessage(error instanceof Error && error.message ? error.message : String(error), "error");
}

export function clearMessage() {
  $("message").hidden = true;
  $("message-text").textContent = "";
}

/** @param {"new" | "created" | "match"} name */
export function showScreen(name) {
  for (const id of ["screen-new", "screen-created", "screen-match"]) $(id).hidden = id !== `screen-${name}`;
  document.body.dataset.screen = name;
}

// --- matches kept on this device ------------------------------------------------------------------------------

/** @returns {Kept[]} */
export function recent() {
  try {
    const list = JSON.parse(localStorage.getItem(RECENT_KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** @param {Kept} entry */
export function remember(entry) {
  const list = [entry, ...recent().filter((m) => m.id !== entry.id)].slice(0, 20);
  try {
    localStorage.setItem(RECENT_KEY, JSON.stringify(list));
  } catch {
    // private mode: the links are shown once
  }
}

/** @param {number} id */
export function recentOf(id) {
  return recent().find((m) => m.id === id) || null;
}
