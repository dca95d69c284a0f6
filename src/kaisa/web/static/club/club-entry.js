// The marker's entry of one stroke, as data: a fresh entry, the entry a stored stroke was made from (to correct
// it), a typed call's parts, and the ball and pocket buttons the entry form is made of.

import { BALL_IDS, POCKET_IDS } from "../shared/table.js";
import { ballChip, el } from "../shared/ui.js";

/** @typedef {import("../shared/types/api").components["schemas"]} Schemas @typedef {import("../shared/table.js").Point} Point */
/** The marker's vocabulary (/api/club/marker-facts): every field of an entry, and the yes/no facts asked.
 * @typedef {Schemas["MarkerVocabulary"]} Vocabulary */
/** What the page is entering with the keys: the call, the pots, the first contact, nakki or off the table.
 * @typedef {"call" | "pots" | "first" | "nakki" | "off"} Target */
/** One stroke's entry as the marker builds it on the page.
 * @typedef {{ callText: string, legal: boolean, pots: [string, string][], pending: string | null,
 *   first: string | null, nakki: Set<string>, off: Set<string>, place: Point | null, moves: Record<string, Point>,
 *   wrongBall: boolean, flags: Record<string, boolean>, kept: Record<string, unknown>, cushion: Set<string>,
 *   lateBall: string, lateBy: string, talonmies: string, handFault: string, target: Target, forfeit: string | null,
 *   n?: number, behind?: boolean }} Entry */
/** A marked stroke as stored (the marks with the positions before and after).
 * @typedef {{ pots: [string, string][], first_contact: string | null, nakki: string[], off_table: string[],
 *   called_as_called: boolean, cue_ball: string, cushion_pots: string[], start: { balls: Record<string, Point> },
 *   final: { balls: Record<string, Point> }, late_fall?: { ball: string, caused_by?: string | null } | null,
 *   talonmies_angle?: number | null, hand_fault?: string | null, [field: string]: unknown }} StoredEntry */
/** The context of a stroke: whose it is and whether from hand (the match page's `ctx()`, in part).
 * @typedef {{ shooter: string, fromHand: boolean }} StrokeContext */

/** The fields of `marks` this page edits itself (besides the yes/no facts of the vocabulary): a correction keeps
 * every other field of the stored entry as it was. */
const EDITED = ["pots", "off_table", "first_contact", "nakki", "called_as_called", "moves", "cushion_pots", "place", "struck", "talonmies_angle", "hand_fault", "late_fall"];

/** @returns {Entry} */
export function newEntry() {
  return {
    callText: "",
    legal: true,
    pots: [], // [ball, pocket]
    pending: null, // a ball picked, waiting for its pocket
    first: null,
    nakki: new Set(),
    off: new Set(),
    place: null,
    moves: {},
    wrongBall: false,
    flags: {}, // the yes/no facts of the marker's vocabulary, by field name
    kept: {}, // fields of a stored entry this page does not edit (a correction sends them back as they were)
    cushion: new Set(),
    lateBall: "",
    lateBy: "",
    talonmies: "",
    handFault: "",
    target: "call",
    forfeit: null,
  };
}

/** The entry a stored marked stroke was made from (for a correction); `ctx` is the stroke's context, `vocab` the
 * marker's vocabulary (/api/club/marker-facts).
 * @param {{ call?: string | null, entry: StoredEntry }} action @param {StrokeContext} ctx @param {Vocabulary} vocab */
export function entryOf(action, ctx, vocab) {
  const e = action.entry;
  const entry = newEntry();
  entry.callText = action.call || "";
  entry.legal = e.called_as_called;
  entry.pots = e.pots.map((p) => [p[0], p[1]]);
  entry.first = e.first_contact;
  entry.nakki = new Set(e.nakki);
  entry.off = new Set(e.off_table);
  entry.place = ctx.fromHand ? e.start.balls[ctx.shooter] || null : null;
  for (const [ball, p] of Object.entries(e.final.balls)) {
    const was = e.start.balls[ball];
    if (!was || was[0] !== p[0] || was[1] !== p[1]) entry.moves[ball] = p;
  }
  entry.wrongBall = e.cue_ball !== ctx.shooter;
  for (const flag of vocab.flags) entry.flags[flag.name] = Boolean(e[flag.name]);
  const flagNames = new Set(vocab.flags.map((f) => f.name));
  for (const name of vocab.fields) {
    if (name in e && !EDITED.includes(name) && !flagNames.has(name)) entry.kept[name] = e[name];
  }
  entry.cushion = new Set(e.cushion_pots);
  entry.lateBall = e.late_fall ? e.late_fall.ball : "";
  entry.lateBy = e.late_fall && e.late_fall.caused_by ? e.late_fall.caused_by : "";
  entry.talonmies = e.talonmies_angle === null || e.talonmies_angle === undefined ? "" : String(e.talonmies_angle);
  entry.handFault = e.hand_fault || "";
  entry.target = "pots";
  return entry;
}

/** A typed call's words, with the ball and the pocket it names (as far as typed), in capitals.
 * @param {string} text @returns {{ tokens: string[], ball: string | null, pocket: string | null }} */
export function callParts(text) {
  const tokens = text.trim().split(/\s+/).filter(Boolean);
  const ball = tokens[0] && BALL_IDS.includes(tokens[0].toUpperCase()) ? tokens[0].toUpperCase() : null;
  const pocket = tokens[1] && POCKET_IDS.includes(tokens[1].toUpperCase()) ? tokens[1].toUpperCase() : null;
  return { tokens, ball, pocket };
}

/** A ball to tap (data-testid `${prefix}-${ball}`).
 * @param {string} prefix @param {string} ball @param {(ball: string) => void} onClick */
export function ballButton(prefix, ball, onClick) {
  return el(
    "button",
    { type: "button", class: "pick ball-pick", "data-testid": `${prefix}-${ball}`, dataset: { ball }, onclick: () => onClick(ball) },
    ballChip(ball),
    el("span", {}, ball),
  );
}

/** A pocket to tap (data-testid `${prefix}-${pocket}`).
 * @param {string} prefix @param {string} pocket @param {(pocket: string) => void} onClick */
export function pocketButton(prefix, pocket, onClick) {
  return el("button", { type: "button", class: "pick pocket-pick", "data-testid": `${prefix}-${pocket}`, dataset: { pocket }, onclick: () => onClick(pocket) }, pocket);
}

/** Show a toggle button pressed or not. @param {Element} button @param {unknown} on */
export function press(button, on) {
  button.setAttribute("aria-pressed", String(Boolean(on)));
}
