// Where a ball may be placed (lag, W2's opening place, ball in hand, anywhere on the bed) and the legal point
// nearest to where the pointer is: shared by the browser table and the club marker's small tables. `g` is a
// geometry.js Geometry. Only geometry lives here; the server's referee has the last word on every placement.

import { dist, segmentDistance } from "./geometry.js";

/** @typedef {import("./geometry.js").Point} Point @typedef {import("./geometry.js").Geometry} Geometry */
/** A straight corridor a placed ball must keep clear of (W2's place: the kaisa's lines to the foot corners).
 * @typedef {{ from: Point, to: Point, clearance: number }} Corridor */
/** A rectangle of the table. @typedef {{ x0: number, x1: number, y0: number, y1: number }} Box */
/** Where a ball's centre may go: its bounds, the balls and corridors it must keep clear of, the part to light up.
 * @typedef {Box & { blockers: Point[], corridors: Corridor[], light: Box | null }} Area */
/** What a placement is for. @typedef {"hand" | "lag-left" | "lag-right" | "w2" | "anywhere"} AreaKind */

/** @param {Point} p @returns {Point} */
export function round4(p) {
  return [Math.round(p[0] * 10000) / 10000, Math.round(p[1] * 10000) / 10000];
}

/** The area to light up on the table, with the balls a placed ball may not touch.
 * @param {Area} a */
export function lightOf(a) {
  return { ...a.light, blocked: a.blockers };
}

/** The area a ball's centre may be placed in: bounds, balls it may not overlap, corridors it must keep clear
 * of, and the part of the table to light up.
 * @param {Geometry} g @param {AreaKind | string} kind @param {Record<string, Point | null | undefined>} balls
 * @param {string | null} exclude @param {{ corridors?: Corridor[] }} [extra] @returns {Area} */
export function area(g, kind, balls, exclude, extra = {}) {
  const m = 0.0015;
  const blockers = Object.entries(balls)
    .filter(([id, p]) => id !== exclude && p)
    .map(([, p]) => /** @type {Point} */ (p));
  /** @type {{ blockers: Point[], corridors: Corridor[] }} */
  const base = { blockers, corridors: [] };
  if (kind === "hand") {
    return { ...base, x0: g.R + m, x1: g.W - g.R - m, y0: g.R + m, y1: g.headString - 0.002, light: { x0: 0, x1: g.W, y0: 0, y1: g.headString } };
  }
  if (kind === "lag-left" || kind === "lag-right") {
    const left = kind === "lag-left";
    return {
      ...base,
      x0: left ? g.R + m : g.W / 2 + 0.002,
      x1: left ? g.W / 2 - 0.002 : g.W - g.R - m,
      y0: g.R + m,
      y1: g.headString - 0.002,
      light: { x0: left ? 0 : g.W / 2, x1: left ? g.W / 2 : g.W, y0: 0, y1: g.headString },
    };
  }
  if (kind === "w2") {
    return {
      ...base,
      corridors: extra.corridors || [],
      x0: g.R + m,
      x1: g.W - g.R - m,
      y0: g.centreLine + 0.002,
      y1: g.L - g.R - m,
      light: { x0: 0, x1: g.W, y0: g.centreLine, y1: g.L },
    };
  }
  return { ...base, x0: g.R + m, x1: g.W - g.R - m, y0: g.R + m, y1: g.L - g.R - m, light: null };
}

/** @param {Geometry} g @param {Point} q @param {Area} a */
export function isLegal(g, q, a) {
  if (q[0] < a.x0 - 1e-9 || q[0] > a.x1 + 1e-9 || q[1] < a.y0 - 1e-9 || q[1] > a.y1 + 1e-9) return false;
  if (a.blockers.some((b) => dist(q, b) < 2 * g.R + 0.0005)) return false;
  return !a.corridors.some((c) => segmentDistance(q, c.from, c.to) < c.clearance + 0.0005);
}

/** The legal point nearest to `p` (pushed out of other balls and corridors, clamped to the area), or
 * `fallback` when there is none nearby.
 * @template {Point | null} F @param {Geometry} g @param {Point} p @param {Area} a @param {F} fallback
 * @returns {Point | F} */
export function legalize(g, p, a, fallback) {
  const eps = 0.001;
  /** @param {Point} q @returns {Point} */
  const clamp = (q) => [Math.min(a.x1, Math.max(a.x0, q[0])), Math.min(a.y1, Math.max(a.y0, q[1]))];
  let q = clamp(p);
  for (let i = 0; i < 12; i++) {
    let moved = false;
    for (const b of a.blockers) {
      const d = dist(q, b);
      const need = 2 * g.R + eps;
      if (d < need) {
        /** @type {Point} */
        const u = d > 1e-9 ? [(q[0] - b[0]) / d, (q[1] - b[1]) / d] : [1, 0];
        q = [b[0] + u[0] * need, b[1] + u[1] * need];
        moved = true;
      }
    }
    for (const c of a.corridors) {
      const need = c.clearance + eps;
      const gap = segmentDistance(q, c.from, c.to);
      if (gap < need) {
        const dx = c.to[0] - c.from[0];
        const dy = c.to[1] - c.from[1];
        const s = Math.max(0, Math.min(1, ((q[0] - c.from[0]) * dx + (q[1] - c.from[1]) * dy) / (dx * dx + dy * dy)));
        /** @type {Point} */
        const on = [c.from[0] + s * dx, c.from[1] + s * dy];
        /** @type {Point} */
        let u = [q[0] - on[0], q[1] - on[1]];
        const n = Math.hypot(u[0], u[1]);
        u = n > 1e-9 ? [u[0] / n, u[1] / n] : [-dy / Math.hypot(dx, dy), dx / Math.hypot(dx, dy)];
        q = [on[0] + u[0] * need, on[1] + u[1] * need];
        moved = true;
      }
    }
    q = clamp(q);
    if (!moved) break;
  }
  return isLegal(g, q, a) ? round4(q) : fallback;
}

/** The first of `candidates` that can be made legal, else any legal point of the area, else null.
 * @param {Geometry} g @param {Point[]} candidates @param {Area} a @returns {Point | null} */
export function firstLegal(g, candidates, a) {
  for (const c of candidates) {
    const q = legalize(g, c, a, null);
    if (q) return q;
  }
  for (let y = a.y0; y <= a.y1; y += 0.05) {
    for (let x = a.x0; x <= a.x1; x += 0.05) {
      if (isLegal(g, [x, y], a)) return round4([x, y]);
    }
  }
  return null;
}
