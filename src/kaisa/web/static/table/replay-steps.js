// The replay's reckoning, without the page: the stroke an action is, the counter's numbers, the action a stroke
// jumps to, the scoreboard as it stood after an action, and the words of the list and the action line. Nothing
// here touches the page (node's tests import it: tests/js/replay-steps.test.mjs); replay.js shows what it says.

import { playerName, serverText, t } from "../shared/i18n.js";
import { fmtDecimal, fmtPoints } from "../shared/ui.js";

/** @typedef {import("../shared/types/api").components["schemas"]} Schemas */
/** @typedef {import("./state.js").Point} Point @typedef {import("./state.js").Balls} Balls */
/** @typedef {import("./state.js").View} View @typedef {import("./state.js").Outcome} Outcome */
/** @typedef {import("./state.js").Stroke} Stroke @typedef {Schemas["PlayerOut"]} Player */
/** What an action was (kaisa.game.state.action_to_json): the browser table records the lag, the choice of a cue
 * ball, W2's placement, strokes and breaks; a club match's marked strokes, marked lags and forfeits come too.
 * @typedef {{ kind: "lag" } | { kind: "choose", cue_ball: string } | { kind: "place-w2", point: Point }
 *   | { kind: "shot", call: string | null, stroke: Stroke } | { kind: "marked", call: string | null }
 *   | { kind: "marked-lag", winner: number } | { kind: "forfeit", cue_ball: string, clause: string }
 *   | { kind: "break", cue_ball: string, seconds: number }} ActionJson */
/** The match's state stored with an action (kaisa.game.state.MatchState.to_json), as far as the replay reads it.
 * @typedef {{ phase: string, position: { balls: Balls }, game: { shooter: string, scores: Record<string, number>,
 *   in_hand?: string[] }, owners: string[] | null, innings: Record<string, number>, run: number,
 *   fouls?: Record<string, number>, clock: View["clock"], shootout: View["shootout"], result: View["result"],
 *   strokes: number }} StateAfter */
/** One action of the match's history (/api/matches/ID/actions: Schemas["ActionOut"], its open shapes spelled out).
 * @typedef {{ index: number, player: number | null, action: ActionJson, outcome: Outcome, state_after: StateAfter }} ReplayAction */
/** The history's actions as far as read: a sparse array by action index. @typedef {(ReplayAction | undefined)[]} Actions */

/** `n` as a whole number from `lo` to `hi` (NaN, a fraction from a slider or a route: the nearest, else `lo`).
 * @param {number} n @param {number} lo @param {number} hi */
function wholeIn(n, lo, hi) {
  const whole = Number.isFinite(n) ? Math.round(n) : lo;
  return Math.max(lo, Math.min(hi, whole));
}

/** Action `i` clamped into the match: -1 (the start) to `count - 1` (its last action).
 * @param {number} i @param {number} count @returns {number} */
export function actionIndex(i, count) {
  return wholeIn(i, -1, count - 1);
}

/** Strokes played up to action `i`: 0 at the start (-1) and through the lag and the placements; that of the
 * stored state after it otherwise (0 while its page is not read).
 * @param {Actions} actions @param {number} i @returns {number} */
export function strokesAt(actions, i) {
  const a = i >= 0 ? actions[i] : undefined;
  return a ? a.state_after.strokes : 0;
}

/** The counter's stroke: with action `index` shown, the strokes played up to it; while action `playing` is
 * animated (read), the stroke that plays, not the one before it.
 * @param {Actions} actions @param {number} index @param {number | null} [playing] @returns {number} */
export function shownStroke(actions, index, playing = null) {
  if (playing !== null && actions[playing]) return strokesAt(actions, playing);
  return strokesAt(actions, index);
}

/** The counter's words ("lyönti 109 / 250"; its accessible name and title) and the phone bar's short form
 * ("109 / 250"): stroke `k` of `n`, whole numbers.
 * @param {number} k @param {number} n @returns {{ said: string, short: string }} */
export function counterText(k, n) {
  const total = wholeIn(n, 0, Number.MAX_SAFE_INTEGER);
  const i = wholeIn(k, 0, total);
  return { said: t("replay.step", { i, n: total }), short: `${i} / ${total}` };
}

/** Jumping to stroke `s` of a match of `strokes` strokes in `count` actions: the stroke (a whole number from 0 to
 * `strokes`) and the actions one of which it is. Only the other actions (the lag, the choice, the placement,
 * breaks: `count - strokes` of them) lie between strokes, so the first action after which `target` strokes are
 * played is one of those from `target - 1` to that many after it; their pages are read before `actionOfStroke`.
 * @param {number} s @param {number} strokes @param {number} count @returns {{ target: number, lo: number, hi: number }} */
export function strokeSpan(s, strokes, count) {
  const target = wholeIn(s, 0, strokes);
  if (target === 0) return { target, lo: -1, hi: -1 };
  const lo = Math.min(count - 1, target - 1);
  const hi = Math.min(count - 1, lo + count - strokes);
  return { target, lo, hi };
}

/** The first action from `lo` to `hi` after which `target` strokes are played (`strokeSpan`'s); -1 for stroke 0.
 * @param {Actions} actions @param {{ target: number, lo: number, hi: number }} span @returns {number} */
export function actionOfStroke(actions, { target, lo, hi }) {
  if (target === 0) return -1;
  let i = lo;
  while (i < hi && strokesAt(actions, i) < target) i++;
  return i;
}

/** Where the balls stand before the lag: the kaisa on the centre spot, the reds on the strings.
 * @param {Record<string, Point>} spots the table's spots (/api/table) @returns {Balls} */
export function initialBalls(spots) {
  return { K: spots.centre, R1: spots["head-string"], R2: spots["foot-string"] };
}

/** The scoreboard's view of match `base` as it stood after action `a` (its stored state), or at the start (null),
 * the balls then at `initial`.
 * @param {View} base @param {ReplayAction | null} a @param {Balls} initial @returns {View} */
export function viewAt(base, a, initial) {
  const b = base;
  if (!a) {
    return {
      ...b,
      phase: "lag",
      position: { balls: initial },
      scores: { W1: 0, W2: 0 },
      innings: { W1: 0, W2: 0 },
      run: 0,
      players: b.players.map((p) => ({ ...p, cue_ball: null })),
      fouls: { W1: 0, W2: 0 },
      shootout: null,
      result: null,
      clock: { ...b.clock, elapsed: 0, final_innings: null, warned: false },
    };
  }
  const s = a.state_after;
  return {
    ...b,
    phase: s.phase,
    position: s.position,
    scores: s.game.scores,
    innings: s.innings,
    run: s.run,
    shooter: s.game.shooter,
    from_hand: (s.game.in_hand || []).includes(s.game.shooter),
    players: b.players.map((p, k) => ({ ...p, cue_ball: s.owners ? s.owners[k] : null })),
    fouls: s.fouls || { W1: 0, W2: 0 },
    shootout: s.shootout,
    result: s.result,
    clock: { ...b.clock, ...s.clock, limit: b.clock.limit },
  };
}

/** The seat (0 or 1) that owns cue ball `ball` after action `a`, or -1 before the choice.
 * @param {ReplayAction} a @param {string} ball */
function seatOf(a, ball) {
  return (a.state_after.owners || []).indexOf(ball);
}

/** "name (ball)" of the shooter of action `a` (its ball alone before the cue balls are chosen); null for an action
 * without a ruling. @param {ReplayAction} a @param {Player[]} players @returns {string | null} */
export function whoOf(a, players) {
  const ruling = a.outcome.ruling;
  if (!ruling) return null;
  const k = seatOf(a, ruling.shooter);
  return k >= 0 ? t("ruling.byShooter", { name: playerName(players[k]), ball: ruling.shooter }) : ruling.shooter;
}

/** The action line's words for action `a` (a club match's marked stroke and forfeit too: the history lists
 * every stored match).
 * @param {ReplayAction} a @param {Player[]} players @returns {string} */
export function describe(a, players) {
  const act = a.action;
  const names = players.map((p) => playerName(p));
  switch (act.kind) {
    case "lag":
    case "marked-lag":
      return t("replay.lag");
    case "choose":
      return t("replay.choose", { name: (a.player === null ? undefined : names[a.player]) ?? "", ball: act.cue_ball });
    case "place-w2":
      return t("replay.place", { x: fmtDecimal(act.point[0], 3), y: fmtDecimal(act.point[1], 3) });
    case "shot":
      return t("replay.shot", { ball: act.stroke.ball, call: act.call ?? t("ruling.noCall"), speed: fmtDecimal(act.stroke.speed, 2), direction: fmtDecimal(act.stroke.direction, 1) });
    case "break":
      return t("replay.break", { s: act.seconds });
    case "marked":
      // a club match's stroke as its marker entered it: whose and the call (no stroke was measured)
      return `${whoOf(a, players) ?? ""}: ${act.call ?? t("ruling.noCall")}`;
    case "forfeit":
      return serverText(`${act.clause}: ${act.cue_ball} forfeits`) ?? "";
  }
}

/** The list's text of action `a` (the `i`-th): a stroke numbered from the match's first, with its shooter, the
 * call and the points; "…" until its page is read; any other action as the action line says it.
 * @param {ReplayAction | undefined} a @param {number} i @param {Player[]} players @returns {string} */
export function itemText(a, i, players) {
  if (!a) return `${i + 1}. ${t("replay.loading")}`;
  const ruling = a.outcome.ruling;
  if ((a.action.kind === "shot" || a.action.kind === "marked") && ruling) {
    const k = seatOf(a, ruling.shooter);
    const who = k >= 0 ? playerName(players[k]) : ruling.shooter;
    return `${a.state_after.strokes}. ${who}: ${a.action.call ?? t("ruling.noCall")} ${fmtPoints(ruling.points)}`;
  }
  return describe(a, players);
}

/** The call of action `a` for the ruling panel (a stroke's; undefined for any other action).
 * @param {ReplayAction} a @returns {string | null | undefined} */
export function callOf(a) {
  return a.action.kind === "shot" || a.action.kind === "marked" ? a.action.call : undefined;
}
