// What the table page's screens share while it is open: the table, its view, the players' kinds, the screen's
// mode (a match, a replay, the study) and the stroke and call controls; and the placement areas on this table.
// The types of what the pages read from the API (the match, an action's outcome, a ruling) are written here once.

import * as placement from "../shared/placement.js";

/** @typedef {import("../shared/types/api").components["schemas"]} Schemas */
/** @typedef {import("../shared/table.js").Point} Point @typedef {import("../shared/table.js").TableView} TableView */
/** @typedef {import("../shared/table.js").Overlay} Overlay */
/** @typedef {import("../shared/table.js").TableJson & { spots: Record<string, Point> }} TableJson */
/** @typedef {import("../shared/ui.js").RulingItem} RulingItem @typedef {import("../shared/i18n.js").PlayerKind} PlayerKind */
/** @typedef {import("../shared/placement.js").Area} Area @typedef {import("../shared/placement.js").Corridor} Corridor */
/** @typedef {import("./controls.js").StrokeControls} StrokeControls @typedef {import("./controls.js").CallControls} CallControls */
/** The balls on the table by id (a ball off the table is left out). @typedef {Record<string, Point>} Balls */
/** A text in both languages, as the server says it. @typedef {{ fi?: string, en?: string }} Said */
/** The stroke as set in the controls. @typedef {{ direction: number, speed: number, elevation: number, side: number, follow: number }} StrokeValue */
/** A stroke as the page sends it (StrokeIn); `place` for a cue ball in hand.
 * @typedef {{ ball: string, speed: number, direction: number, elevation: number, side: number, follow: number, place?: Point | null }} Stroke */
/** The competition clock as the match view gives it (rule 6).
 * @typedef {{ mode: string, elapsed: number, limit: number, breaks?: Record<string, number>, warned?: boolean,
 *   final_innings: string[] | null }} Clock */
/** How the match ended. @typedef {{ winner: string, reason: string, recorded: Record<string, number> }} MatchResult */
/** The penalty shoot-out (6). @typedef {{ first: string, innings: Record<string, number> }} Shootout */
/** A referee's ruling of one action; a stroke's says where the balls went and which are respotted.
 * @typedef {{ shooter: string, points: number, items: RulingItem[], fouls: RulingItem[], notes?: RulingItem[],
 *   game_over?: boolean, turn_passes?: boolean, legal_pot?: boolean, respots?: Record<string, Point>,
 *   position?: { balls: Balls } }} Ruling */
/** The lag's result: its winner (null: lagged again) and each lag's faults. @typedef {{ winner?: number | null, reasons: (string | Said)[][] }} Lag */
/** A stroke's motion as the server simulated it (drawn by TableView.animate, heard by sound.playEvents), and where
 * the balls came to rest.
 * @typedef {{ stroke?: { ball: string, speed?: number }, events?: import("../shared/sound.js").PhysicsEvent[],
 *   trajectories?: Trajectories | null, final?: { balls?: Balls } }} StrokeRecord */
/** A stroke's sampled paths: the times, and each ball's place at them (null once it has gone into a pocket).
 * @typedef {{ t: number[], balls: Record<string, (Point | null)[]> }} Trajectories */
/** An action's outcome: its ruling (a stroke's), the lag's result, notes, and the strokes' motion.
 * @typedef {{ ruling?: Ruling | null, lag?: Lag | null, notes?: (string | Said)[], records?: StrokeRecord[] }} Outcome */
/** An action as the match's history gives it (kind: lag, choose, place-w2, shot, break).
 * @typedef {{ kind: string, call?: string | null, cue_ball?: string, point?: Point, seconds?: number, stroke?: Stroke }} Action */
/** A match as the table shows it: the API's MatchView with the shapes it leaves open spelled out.
 * @typedef {Omit<Schemas["MatchView"], "clock" | "result" | "shootout" | "last" | "position" | "w2_corridors"> & {
 *   clock: Clock, result: MatchResult | null, shootout: Shootout | null, last: Outcome | null,
 *   position: { balls: Balls }, w2_corridors: Corridor[] }} View */
/** An action answered: the action, its outcome and the match after it. @typedef {{ action: Action, outcome: Outcome, match: View }} Played */
/** What the ruling panel shows: an outcome, the players' names (for the lag), whose stroke and its call
 * (`call` undefined: not a stroke; null: no call); `computer` for a stroke of the computer.
 * @typedef {{ outcome: Outcome, names?: string[], who?: string | null, call?: string | null, computer?: boolean }} Entry */
/** The aim the table draws from the cue ball (the view's overlay.aims). @typedef {{ from: Point, ball: string, direction: number, faint?: boolean }} DrawnAim */
/** The aim helper's answer (AimOut). @typedef {{ found: boolean, direction: number, width: number, speed: number, side: number, follow: number, said?: Said | null }} AimAnswer */

/** What a screen of the table (a match, a replay, the study) offers the pointer, the keys and the buttons; the
 * optional parts only where the screen has them.
 * @typedef {{
 *   alive(): boolean, busy(): boolean, render?(): void, tick?(): void, onLang?(): void, onStrokeChange?(): void,
 *   draggableAt?(p: Point): string | null, dragTo?(ball: string, p: Point): void, dragEnd?(ball: string): void,
 *   aimAt?(p: Point): void, click?(p: Point, ball: string | null): void, shoot?(): Promise<void>,
 *   undo?(): Promise<void>, startBreak?(): void, aimCall?(): void, callWhere?(): Record<string, unknown>,
 *   cuePosition?(): Point | null, position?: Balls, shooter?: string
 * }} Mode */

/** What the page holds while it is open. main() (app.js) sets the table, its view and the controls before the
 * first screen is shown, and nothing reads them before: they are typed as always there.
 * @type {{ table: TableJson, view: TableView, players: Record<string, PlayerKind> | null, mode: Mode | null, session: number,
 *   stroke: StrokeControls, call: CallControls, aimSeq: number, aimWindow: { direction: number, width: number, key: string } | null,
 *   aimStatus: import("./aim-helper.js").AimStatus | null, showSound: (() => void) | null }} */
export const app = {
  table: /** @type {TableJson} */ (/** @type {unknown} */ (null)), // the table JSON
  view: /** @type {TableView} */ (/** @type {unknown} */ (null)), // its drawing
  players: null, // /api/players
  mode: null, // the current table mode (match, replay, study)
  session: 0, // bumped on every route change: stale async work checks it
  stroke: /** @type {StrokeControls} */ (/** @type {unknown} */ (null)),
  call: /** @type {CallControls} */ (/** @type {unknown} */ (null)),
  aimSeq: 0, // bumped by every aim helper's request: a late answer checks it
  aimWindow: null, // the potting window found for a cue ball's place and call
  aimStatus: null, // the aim helper's line under the stroke
  showSound: null, // the sound button's label, shown again (keys.js's M)
};

// --- placement areas (placement.js) ----------------------------------------------------------------------

export function geo() {
  return app.view.geo;
}

/** @param {string} kind @param {Record<string, Point | null | undefined>} balls @param {string | null} exclude
 * @param {{ corridors?: Corridor[] }} [extra] */
export const area = (kind, balls, exclude, extra = {}) => placement.area(geo(), kind, balls, exclude, extra);
/** @template {Point | null} F @param {Point} p @param {Area} a @param {F} fallback */
export const legalize = (p, a, fallback) => placement.legalize(geo(), p, a, fallback);
/** @param {Point[]} candidates @param {Area} a */
export const firstLegal = (candidates, a) => placement.firstLegal(geo(), candidates, a);
export const lightOf = placement.lightOf;
