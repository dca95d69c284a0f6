// The study's game state as a person sets it by hand, without the page: who is in hand, the break, the 2.1 flag,
// the scores; the referee's game state JSON the server takes; the state the study goes on with after a stroke;
// the advisor's calls once each; the usual places behind the head string; the position kept on this device. Nothing
// here touches the page (node's tests import it: tests/js/study-state.test.mjs); study.js shows what it says.

import { calledBall } from "./controls.js";
import { t } from "../shared/i18n.js";

/** @typedef {import("../shared/types/api").components["schemas"]} Schemas */
/** @typedef {import("./state.js").Point} Point @typedef {import("./state.js").Balls} Balls */
/** @typedef {import("./state.js").Stroke} Stroke */
/** The study's game state as set by hand (the referee's GameState; `twice` is its 2.1 flag).
 * @typedef {{ scores: Record<string, number>, in_hand: string[], opening: boolean, twice: boolean,
 *   kaisa_off_centre: boolean }} StudyState */
/** The referee's game state JSON (kaisa.game.state.GameState.to_json) as far as the study sends and reads it.
 * @typedef {{ shooter: string, scores: Record<string, number>, in_hand: string[], opening: boolean,
 *   last_pot_direct_middle_kaisa: boolean, kaisa_off_centre?: boolean }} GameStateJson */
/** One of the advisor's calls (AdviceOut, its stroke spelled out) with the called ball and pocket for the table.
 * @typedef {Omit<Schemas["AdviceOut"], "stroke"> & { stroke: Stroke, ball: string | null, pocket: string | null }} StudyAdvice */
/** What this device keeps of the study: the balls, whose stroke and the game state (any may be missing).
 * @typedef {{ position?: Balls, shooter?: unknown, state?: Partial<StudyState> }} SavedStudy */

/** A cue ball as the API names it. @typedef {"W1" | "W2"} CueBall */

/** The cue ball `value` names (a select's value, a saved study): W2, or W1 for anything else.
 * @param {unknown} value @returns {CueBall} */
export function cueBallOf(value) {
  return value === "W2" ? "W2" : "W1";
}

/** A fresh study: 0-0, nobody in hand, not the break. @returns {StudyState} */
export function freshState() {
  return { scores: { W1: 0, W2: 0 }, in_hand: [], opening: false, twice: false, kaisa_off_centre: false };
}

/** The state kept on this device over a fresh one (a field it lacks stays fresh).
 * @param {Partial<StudyState> | undefined} saved @returns {StudyState} */
export function stateFrom(saved) {
  return { ...freshState(), ...structuredClone(saved || {}) };
}

/** The referee's game state JSON of the study, `shooter` to play (the server checks it, and says what does not fit).
 * @param {string} shooter @param {StudyState} st @returns {GameStateJson} */
export function gameStateJson(shooter, st) {
  /** @type {GameStateJson} */
  const out = { shooter, scores: { ...st.scores }, in_hand: [...st.in_hand], opening: st.opening, last_pot_direct_middle_kaisa: st.twice };
  if (st.kaisa_off_centre) out.kaisa_off_centre = true;
  return out;
}

/** The shooter plays from behind the head string: its ball in hand, or the break.
 * @param {StudyState} st @param {string} shooter */
export function fromHand(st, shooter) {
  return st.opening || st.in_hand.includes(shooter);
}

/** Cue ball `ball` put in hand (`on`) or taken out: who is in hand, each once, in order.
 * @param {string[]} inHand @param {string} ball @param {boolean} on @returns {string[]} */
export function withHand(inHand, ball, on) {
  const hand = new Set(inHand);
  if (on) hand.add(ball);
  else hand.delete(ball);
  return [...hand].sort();
}

/** A score as typed: its whole number ("12", "12 p"), 0 for anything else (the server refuses what cannot be).
 * @param {string} text @returns {number} */
export function scoreOf(text) {
  const n = Number.parseInt(text, 10);
  return Number.isFinite(n) ? n : 0;
}

/** The state the study goes on with after a stroke: the scores as set by hand (practice points never end a game),
 * who is in hand and the kaisa's flag as the ruling left them, not the break, and the 2.1 flag only for an inning
 * that goes on (the person keeps their cue ball: the turn never passes to the other white).
 * @param {StudyState} st @param {GameStateJson} ruled the ruling's state @param {boolean} turnPasses @returns {StudyState} */
export function stateAfterStroke(st, ruled, turnPasses) {
  return {
    scores: { ...st.scores },
    in_hand: [...ruled.in_hand],
    opening: false,
    twice: !turnPasses && ruled.last_pot_direct_middle_kaisa,
    kaisa_off_centre: Boolean(ruled.kaisa_off_centre),
  };
}

/** The state in one line: whose stroke and the scores, the break, who is in hand, the 2.1 flag.
 * @param {string} shooter @param {StudyState} st @returns {string} */
export function stateSummary(shooter, st) {
  const parts = [t("study.stateSummary", { ball: shooter, w1: st.scores.W1, w2: st.scores.W2 })];
  if (st.opening) parts.push(t("study.stateOpening"));
  for (const b of st.in_hand) parts.push(t("study.stateHand", { ball: b }));
  if (st.twice) parts.push("2.1");
  return parts.join(" · ");
}

/** The advisor's answer as the study lists it: the same call at two speeds is one call to a player, so each call
 * once, its best (the advisor lists best first), at most `limit`; with the called ball and pocket for the table.
 * @param {(Omit<Schemas["AdviceOut"], "stroke"> & { stroke: Stroke })[]} answer @param {number} [limit] @returns {StudyAdvice[]} */
export function distinctAdvice(answer, limit = 5) {
  const seen = new Set();
  const list = answer.filter((a) => {
    const key = a.call ?? "";
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return list.slice(0, limit).map((a) => {
    const tokens = (a.call || "").split(/\s+/);
    return { ...a, ball: a.call ? calledBall(a.call) : null, pocket: a.call ? tokens[tokens.length - 1] : null };
  });
}

/** The usual places of a cue ball behind the head string on a table `width` by `length` (m), in the order tried:
 * not squeezed against the line; W1 starts at the first, so W2 tries them the other way round, clear of it.
 * @param {number} width @param {number} length @param {string} shooter @returns {Point[]} */
export function usualHandSpots(width, length, shooter) {
  /** @type {Point[]} */
  const usual = [[width * 0.62, length * 0.15], [width * 0.38, length * 0.15], [width * 0.5, length * 0.1], [width * 0.8, length * 0.2]];
  if (shooter === "W2") usual.reverse();
  return usual;
}

/** The study kept on this device (localStorage's text), or nothing when it is missing or damaged.
 * @param {string | null} text @returns {SavedStudy} */
export function savedStudy(text) {
  try {
    const data = JSON.parse(text || "{}");
    if (data && data.position && typeof data.position === "object") return data;
  } catch {
    // a damaged saved position: start afresh
  }
  return {};
}
