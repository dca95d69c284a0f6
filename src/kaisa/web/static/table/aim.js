// The aiming aids: the setting (full, line only, none) and the full aid's preview of the stroke as it would
// play now. The preview is the server's simulation and ruling of the current aim (no noise, nothing
// recorded), asked for a moment after the aim stops changing.

import { lang, t } from "../shared/i18n.js";

/** @typedef {import("../shared/geometry.js").Point} Point @typedef {import("../shared/geometry.js").Preview} Preview */
/** How much the aids show. @typedef {"full" | "line" | "none"} Level */
/** What the preview reads of the server's answer to a stroke tried without being played (the match's preview,
 * the study's shot): the balls' sampled paths and the ruling.
 * @typedef {{ record?: { trajectories?: { balls?: Record<string, (Point | null)[]> } | null } | null,
 *   ruling?: { legal_pot?: boolean, points?: number, fouls?: unknown[] | null } | null }} PreviewAnswer */
/** The aim a preview is for: `key` names it (the same key, the same preview), `send` asks the server, `called`
 * says whether a call was made. @typedef {{ key: string, send: () => Promise<PreviewAnswer>, called?: boolean }} PreviewRequest */
/** A screen of the table that has an aim to preview (the match, the study).
 * @typedef {{ previewRequest?: () => PreviewRequest | null, alive: () => boolean, busy: () => boolean,
 *   render: () => void }} PreviewMode */

const KEY = "kaisa.aids";
/** @type {Level[]} */
const LEVELS = ["full", "line", "none"];
const DELAY = 250; // ms after the last change of aim, call or power

/** @param {unknown} value @returns {value is Level} */
function isLevel(value) {
  return LEVELS.some((l) => l === value);
}

/** @type {Level} */
let current = "full";
try {
  const stored = localStorage.getItem(KEY);
  if (isLevel(stored)) current = stored;
} catch {
  // no storage: full aids for this page
}

/** @type {{ key: string, preview: Preview } | null} */
let shown = null;
/** @type {{ key: string, timer: ReturnType<typeof setTimeout> } | null} */
let pending = null;
let seq = 0;
/** @type {Promise<void>} */
let inflight = Promise.resolve();

/** full: aim line, ghost ball, the object ball's line to its cushion or pocket, the inset and the preview;
 * line: the aim line to the first contact; none: the cue only. @returns {Level} */
export function level() {
  return current;
}

/** @param {string} value a level; anything else is ignored */
export function setLevel(value) {
  if (!isLevel(value)) return;
  current = value;
  try {
    localStorage.setItem(KEY, value);
  } catch {
    // the setting lasts for this page
  }
}

/** The preview for `mode` (its previewRequest() gives {key, send}), or null while it is being asked for or
 * when the aids are not full. The mode is rendered again when the answer comes.
 * @param {PreviewMode} mode @returns {Preview | null} */
export function previewFor(mode) {
  const box = document.getElementById("preview-status");
  if (current !== "full" || !mode.previewRequest) {
    if (box) clear(box);
    return null;
  }
  const ask = () => (mode.previewRequest ? mode.previewRequest() : null);
  const request = ask();
  if (!request) {
    if (box) clear(box);
    return null;
  }
  if (shown && shown.key === request.key) return shown.preview;
  if (pending && pending.key === request.key) return null;
  if (pending) clearTimeout(pending.timer);
  const mine = ++seq;
  if (box) {
    box.textContent = "";
    box.dataset.state = "working";
  }
  pending = {
    key: request.key,
    timer: setTimeout(async () => {
      // the aim may have moved on, or a stroke begun, while the timer ran: ask only for the aim as it is now
      const now = mode.alive() && !mode.busy() ? ask() : null;
      if (mine !== seq || !now || now.key !== request.key) return;
      /** @type {Preview} */
      let preview;
      /** @type {() => void} */
      let done = () => {};
      inflight = new Promise((resolve) => {
        done = resolve;
      });
      try {
        preview = previewOf(await request.send(), request.called);
      } catch (error) {
        preview = { paths: {}, text: error instanceof Error ? error.message : String(error), pots: false, error: true };
      } finally {
        done();
      }
      if (mine !== seq) return;
      pending = null;
      shown = { key: request.key, preview };
      showText(preview);
      if (mode.alive() && !mode.busy()) mode.render();
    }, DELAY),
  };
  return null;
}

/** Resolves when no preview is being asked for (a stroke waits for it, so that a preview never reaches the
 * server after the stroke it previews). */
export function settled() {
  return inflight;
}

/** Forget the shown preview (a stroke was played: the position changed). */
export function clearPreview() {
  shown = null;
  if (pending) clearTimeout(pending.timer);
  pending = null;
  seq++;
  const box = document.getElementById("preview-status");
  if (box) clear(box);
}

/** @param {HTMLElement} box */
function clear(box) {
  box.textContent = "";
  delete box.dataset.state;
}

/** The shown preview's line again, in the language just chosen. */
export function retranslate() {
  const box = document.getElementById("preview-status");
  if (box && shown && ["pots", "misses", "error"].includes(box.dataset.state || "")) showText(shown.preview);
}

/** @param {Preview} preview */
function showText(preview) {
  const box = document.getElementById("preview-status");
  if (!box) return;
  box.textContent = textOf(preview);
  box.dataset.state = preview.error ? "error" : preview.pots ? "pots" : "misses";
}

/** The preview's line under the table, in the page's language: the points the stroke would score (a real
 * minus sign in Finnish) and whether the call goes in, is a foul, or is missing. @param {Preview} preview */
export function textOf(preview) {
  if (preview.error) return preview.text || "";
  const points = preview.points || 0;
  const signed = points > 0 ? `+${points}` : String(points).replace("-", lang() === "fi" ? "−" : "-");
  if (preview.pots) return t("preview.pots", { points: signed });
  if (preview.foul) return t("preview.foul", { points: signed });
  if (!preview.called) return t("preview.noCall", { points: signed }); // nothing was called: nothing could go in
  return t("preview.misses", { points: signed });
}

/** The preview of a server's answer: each ball's path that moves (a ball that stays has one point and no path;
 * a null sample, the ball gone, is left out) and the ruling's verdict.
 * @param {PreviewAnswer} answer @returns {Preview} */
export function previewOf(answer, called = true) {
  const record = answer.record || {};
  const tr = record.trajectories || { balls: {} };
  /** @type {Record<string, Point[]>} */
  const paths = {};
  for (const [ball, samples] of Object.entries(tr.balls || {})) {
    const points = samples.filter((p) => p !== null);
    if (points.length > 1) paths[ball] = points;
  }
  const ruling = answer.ruling || {};
  const foul = Boolean(ruling.fouls && ruling.fouls.length);
  return { paths, pots: Boolean(ruling.legal_pot), points: ruling.points || 0, foul, called };
}
