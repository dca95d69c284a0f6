// What the table page's screens share while it is open: the table, its view, the players' kinds, the screen's
// mode (a match, a replay, the study) and the stroke and call controls; and the placement areas on this table.

import * as placement from "../shared/placement.js";

export const app = {
  table: null, // the table JSON
  view: null, // TableView
  players: null, // /api/players
  mode: null, // the current table mode (match, replay, study)
  session: 0, // bumped on every route change: stale async work checks it
  stroke: null,
  call: null,
};

// --- placement areas (placement.js) ----------------------------------------------------------------------

export function geo() {
  return app.view.geo;
}

export const area = (kind, balls, exclude, extra = {}) => placement.area(geo(), kind, balls, exclude, extra);
export const legalize = (p, a, fallback) => placement.legalize(geo(), p, a, fallback);
export const firstLegal = (candidates, a) => placement.firstLegal(geo(), candidates, a);
export const lightOf = placement.lightOf;
