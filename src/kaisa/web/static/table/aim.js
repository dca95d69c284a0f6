// The aiming aids: the setting (full, line only, none) and the full aid's preview of the stroke as it would
// play now. The preview is the server's simulation and ruling of the current aim (no noise, nothing
// recorded), asked for a moment after the aim stops changing.

import { lang, t } from "../shared/i18n.js";

const KEY = "kaisa.aids";
const LEVELS = ["full", "line", "none"];
const DELAY = 250; // ms after the last change of aim, call or power

let current = "full";
try {
  const stored = localStorage.getItem(KEY);
  if (LEVELS.includes(stored)) current = stored;
} catch {
  // no storage: full aids for this page
}

let shown = null; // {key, preview}
let pending = null; // {key, timer}
let seq = 0;
let inflight = Promise.resolve();

/** full: aim line, ghost ball, the object ball's line to its cushion or pocket, the inset and the preview;
 * line: the aim line to the first contact; none: the cue only. */
export function level() {
  return current;
}

export function setLevel(value) {
  if (!LEVELS.includes(value)) return;
  current = value;
  try {
    localStorage.setItem(KEY, value);
  } catch {
    // the setting lasts for this page
  }
}

/** The preview for `mode` (its previewRequest() gives {key, send}), or null while it is being asked for or
 * when the aids are not full. The mode is rendered again when the answer comes. */
export function previewFor(mode) {
  const box = document.getElementById("preview-status");
  if (current !== "full" || !mode.previewRequest) {
    if (box) clear(box);
    return null;
  }
  const request = mode.previewRequest();
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
      const now = mode.alive() && !mode.busy() ? mode.previewRequest() : null;
      if (mine !== seq || !now || now.key !== request.key) return;
      let preview;
      let done;
      inflight = new Promise((resolve) => {
        done = resolve;
      });
      try {
        preview = previewOf(await request.send(), request.called);
      } catch (error) {
        preview = { paths: {}, text: error.message, pots: false, error: true };
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

function clear(box) {
  box.textContent = "";
  delete box.dataset.state;
}

/** The shown preview's line again, in the language just chosen. */
export function retranslate() {
  const box = document.getElementById("preview-status");
  if (box && shown && ["pots", "misses", "error"].includes(box.dataset.state)) showText(shown.preview);
}

function showText(preview) {
  const box = document.getElementById("preview-status");
  if (!box || !preview) return;
  box.textContent = textOf(preview);
  box.dataset.state = preview.error ? "error" : preview.pots ? "pots" : "misses";
}

function textOf(preview) {
  if (preview.error) return preview.text;
  const points = preview.points;
  const signed = points > 0 ? `+${points}` : String(points).replace("-", lang() === "fi" ? "−" : "-");
  if (preview.pots) return t("preview.pots", { points: signed });
  if (preview.foul) return t("preview.foul", { points: signed });
  if (!preview.called) return t("preview.noCall", { points: signed }); // nothing was called: nothing could go in
  return t("preview.misses", { points: signed });
}

function previewOf(answer, called = true) {
  const record = answer.record || {};
  const tr = record.trajectories || { balls: {} };
  const paths = {};
  for (const [ball, samples] of Object.entries(tr.balls || {})) {
    const points = samples.filter((p) => p);
    if (points.length > 1) paths[ball] = points;
  }
  const ruling = answer.ruling || {};
  const foul = Boolean(ruling.fouls && ruling.fouls.length);
  return { paths, pots: Boolean(ruling.legal_pot), points: ruling.points || 0, foul, called };
}
