// The table's geometry and the aim's maths, in metres, with no page and no canvas: what the drawing (table.js),
// the placements (placement.js) and node's unit tests share. The table comes from /api/table; the orientation is
// REFERENCE.md's: x across (0 = the left cushion seen from the head), y along (0 = the head cushion).

/** A point on the table in metres: x across (0 = left seen from the head), y along (0 = the head cushion).
 * @typedef {[number, number]} Point */
/** A pocket's jaw: its point on the cushion line, the rounded nose and the facing into the pocket.
 * @typedef {{ side: string, point: Point, tip: { centre: Point, radius: number }, facing: [Point, Point] }} Jaw */
/** @typedef {{ mouth: number, axis: Point, jaws: [Jaw, Jaw], capture: { centre: Point, radius: number } }} PocketJson */
/** @typedef {{ nose: [Point, Point], pockets: string[] }} RailJson */
/** The table as /api/table gives it (kaisa.table.table_to_json, metres).
 * @typedef {{ width: number, length: number, ball_radius: number, ball_mass?: number, cushion_height?: number,
 *   lines: { head_string: number, centre_line: number, foot_string: number },
 *   spots: Record<string, Point>, rails: Record<string, RailJson>, pockets: Record<string, PocketJson> }} TableJson */
/** Where the balls are: a ball off the table is missing or null. @typedef {Record<string, Point | null | undefined>} Balls */
/** The first thing a rolled ball meets: a ball (`at` is the ghost-ball centre, `objectDir` where the struck ball
 * goes) or a cushion (`reflected` is the direction after it); `d` is the roll's unit direction, `t` its length.
 * @typedef {{ kind: "ball", ball: string, t: number, at: Point, d: Point, objectDir: Point }} BallHit
 * @typedef {{ kind: "cushion", t: number, at: Point, d: Point, reflected: Point }} CushionHit
 * @typedef {BallHit | CushionHit} Hit */
/** The object ball's straight line after a contact: to a pocket's mouth, a ball or a cushion.
 * @typedef {{ from: Point, to: Point, pocket: string | null, stop: "pocket" | "ball" | "cushion" }} ObjectLine */
/** The full aid's preview of the stroke as set (aim.js): each moving ball's path and the ruling it would get.
 * @typedef {{ paths: Record<string, Point[]>, pots: boolean, points?: number, foul?: boolean, called?: boolean,
 *   error?: boolean, text?: string }} Preview */
/** The sampled paths of one stroke's balls as a record of the API has them (a null sample: the ball is gone).
 * @typedef {{ t: number[], balls: Record<string, (Point | null)[]> }} Trajectories
 * @typedef {{ trajectories?: Trajectories | null, stroke?: { ball: string } | null }} StrokeRecord
 * @typedef {{ t: number[], samples: (Point | null)[] }} Path */

export const BALL_IDS = ["W1", "W2", "R1", "R2", "K"];
export const POCKET_IDS = ["HL", "HR", "ML", "MR", "FL", "FR"];
const POCKET_REACH = 0.045; // m: an object ball whose line passes this near a pocket's mouth is drawn going in

/** @param {number} rad */
export function degrees(rad) {
  return (rad * 180) / Math.PI;
}

/** @param {number} deg */
export function radians(deg) {
  return (deg * Math.PI) / 180;
}

/** @param {Point} a @param {Point} b */
export function dist(a, b) {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

/** A direction in degrees as the API takes it: in (-180, 180], to 4 decimals (the stroke controls' field).
 * @param {number} d */
export function normaliseDirection(d) {
  let x = ((d % 360) + 360) % 360;
  if (x > 180) x -= 360;
  return Math.round(x * 10000) / 10000 + 0; // + 0: a direction a hair under 360° is 0, not -0
}

/** What the full aid says of the call for the aim drawn: the preview's ruling (the server's physics and
 * referee, the same as the stroke would play), never geometry: "pots" (the called ball goes in legally),
 * "misses", or "checking" while the preview for this aim is on its way.
 * @param {Preview | null | undefined} preview @returns {"pots" | "misses" | "checking"} */
export function aidVerdict(preview) {
  if (!preview || preview.error) return "checking";
  return preview.pots ? "pots" : "misses";
}

/** The distance from `p` to the segment `a`-`b`. @param {Point} p @param {Point} a @param {Point} b */
export function segmentDistance(p, a, b) {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

/** The point `length` from the segment's start along it (a pocket's facing carried on into the hole).
 * @param {[Point, Point]} segment @param {number} length @returns {Point} */
export function extend(segment, length) {
  const [a, b] = segment;
  const d = [b[0] - a[0], b[1] - a[1]];
  const n = Math.hypot(d[0], d[1]) || 1;
  return [a[0] + (d[0] / n) * length, a[1] + (d[1] / n) * length];
}

/** Geometry of the table JSON with the helpers the page needs. */
export class Geometry {
  /** @param {TableJson} table */
  constructor(table) {
    this.table = table;
    this.W = table.width;
    this.L = table.length;
    this.R = table.ball_radius;
    this.headString = table.lines.head_string;
    this.centreLine = table.lines.centre_line;
    this.footString = table.lines.foot_string;
  }

  /** The middle of a pocket's mouth, between its jaws' points. @param {string} pocket @returns {Point} */
  mouth(pocket) {
    const jaws = this.table.pockets[pocket].jaws;
    return [(jaws[0].point[0] + jaws[1].point[0]) / 2, (jaws[0].point[1] + jaws[1].point[1]) / 2];
  }

  /** Whether a ball centred at p lies on the bed clear of the cushions (with a small safety margin).
   * @param {Point} p */
  fits(p, margin = 0.0005) {
    const r = this.R + margin;
    return p[0] >= r && p[0] <= this.W - r && p[1] >= r && p[1] <= this.L - r;
  }

  /** @param {Point} p @returns {Point} */
  clampToBed(p, margin = 0.0005) {
    const r = this.R + margin;
    return [Math.min(this.W - r, Math.max(r, p[0])), Math.min(this.L - r, Math.max(r, p[1]))];
  }

  /** The first thing a ball rolled from `from` along `directionDeg` meets: a ball (with the ghost-ball centre)
   * or a cushion (with the reflected direction).
   * @param {Point} from @param {number} directionDeg @param {Balls} balls @param {string | null} [exclude]
   * @returns {Hit} */
  cast(from, directionDeg, balls, exclude) {
    /** @type {Point} */
    const d = [Math.cos(radians(directionDeg)), Math.sin(radians(directionDeg))];
    const R2 = 2 * this.R;
    /** @type {{ ball: string, t: number, target: Point } | null} */
    let best = null;
    for (const [id, p] of Object.entries(balls)) {
      if (id === exclude || !p) continue;
      const fx = from[0] - p[0];
      const fy = from[1] - p[1];
      const b = fx * d[0] + fy * d[1];
      const c = fx * fx + fy * fy - R2 * R2;
      const disc = b * b - c;
      if (disc < 0) continue;
      const t = -b - Math.sqrt(disc);
      if (t < -1e-9) continue;
      if (!best || t < best.t) best = { ball: id, t: Math.max(0, t), target: p };
    }
    // the cushions as the box the centre of a ball can reach
    const r = this.R;
    let tw = Infinity;
    /** @type {Point} */
    let normal = [0, 0]; // stays so only for a direction that is not a number: nothing is met
    /** @type {[boolean, number, Point][]} */
    const walls = [
      [d[0] < 0, (r - from[0]) / d[0], [1, 0]],
      [d[0] > 0, (this.W - r - from[0]) / d[0], [-1, 0]],
      [d[1] < 0, (r - from[1]) / d[1], [0, 1]],
      [d[1] > 0, (this.L - r - from[1]) / d[1], [0, -1]],
    ];
    for (const [ok, t, n] of walls) {
      if (ok && t < tw) {
        tw = Math.max(0, t);
        normal = n;
      }
    }
    if (best && best.t <= tw) {
      /** @type {Point} */
      const at = [from[0] + d[0] * best.t, from[1] + d[1] * best.t];
      const n = [best.target[0] - at[0], best.target[1] - at[1]];
      const len = Math.hypot(n[0], n[1]) || 1;
      return { kind: "ball", ball: best.ball, t: best.t, at, d, objectDir: [n[0] / len, n[1] / len] };
    }
    /** @type {Point} */
    const at = [from[0] + d[0] * tw, from[1] + d[1] * tw];
    const dot = d[0] * normal[0] + d[1] * normal[1];
    return { kind: "cushion", t: tw, at, d, reflected: [d[0] - 2 * dot * normal[0], d[1] - 2 * dot * normal[1]] };
  }

  /** Direction (degrees) that sends the cue ball at `cue` to the ghost-ball spot for a direct pot of the ball
   * at `object` into `pocket`. @param {Point} cue @param {Point} object @param {string} pocket */
  ghostAim(cue, object, pocket) {
    const m = this.mouth(pocket);
    const u = [m[0] - object[0], m[1] - object[1]];
    const len = Math.hypot(u[0], u[1]) || 1;
    const ghost = [object[0] - (2 * this.R * u[0]) / len, object[1] - (2 * this.R * u[1]) / len];
    return degrees(Math.atan2(ghost[1] - cue[1], ghost[0] - cue[0]));
  }

  /** Where the object ball struck at `hit` runs: to the first ball, cushion or pocket mouth on its line.
   * @param {Balls} balls @param {BallHit} hit @returns {ObjectLine} */
  objectLine(balls, hit) {
    const target = balls[hit.ball];
    if (!target) return { from: hit.at, to: hit.at, pocket: null, stop: "ball" };
    const dir = degrees(Math.atan2(hit.objectDir[1], hit.objectDir[0]));
    const next = this.cast(target, dir, balls, hit.ball);
    /** @type {string | null} */
    let pocket = null;
    let end = next.at;
    let best = Infinity;
    for (const id of POCKET_IDS) {
      const m = this.mouth(id);
      const rel = [m[0] - target[0], m[1] - target[1]];
      const along = rel[0] * hit.objectDir[0] + rel[1] * hit.objectDir[1];
      if (along <= 0 || along > next.t + 0.12) continue;
      const across = Math.abs(rel[0] * hit.objectDir[1] - rel[1] * hit.objectDir[0]);
      if (across < POCKET_REACH && along < best) {
        best = along;
        pocket = id;
        end = [target[0] + hit.objectDir[0] * along, target[1] + hit.objectDir[1] * along];
      }
    }
    return { from: target, to: end, pocket, stop: pocket ? "pocket" : next.kind };
  }
}

/** Merge the records of one action (a lag has two, played at once) into one set of ball paths.
 * @param {StrokeRecord[] | null | undefined} records
 * @returns {{ paths: Record<string, Path>, duration: number }} */
export function mergeTrajectories(records) {
  /** @type {Record<string, Path>} */
  const paths = {};
  let duration = 0;
  for (const record of records || []) {
    const tr = record.trajectories;
    if (!tr || !tr.t || tr.t.length === 0) continue;
    const mover = record.stroke ? record.stroke.ball : null;
    duration = Math.max(duration, tr.t[tr.t.length - 1]);
    for (const [ball, samples] of Object.entries(tr.balls)) {
      if (paths[ball] && ball !== mover) continue;
      paths[ball] = { t: tr.t, samples };
    }
  }
  return { paths, duration };
}

/** Where a path's ball is at time `t`, interpolated between samples; null once it is gone.
 * @param {Path} path @param {number} t @returns {Point | null} */
export function sampleAt(path, t) {
  const ts = path.t;
  const n = ts.length;
  if (t <= ts[0]) return path.samples[0];
  if (t >= ts[n - 1]) return path.samples[n - 1];
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (ts[mid] <= t) lo = mid;
    else hi = mid;
  }
  const a = path.samples[lo];
  const b = path.samples[hi];
  if (!a) return null;
  if (!b) return a; // dropping into a pocket: hold the last point until the ball is gone
  const f = (t - ts[lo]) / (ts[hi] - ts[lo] || 1);
  return [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f];
}

/** How a ball is told apart without its colour (issue 30: colour-blind players, a greyscale screen): the reds
 * carry their numbers, the kaisa its K, the whites a mark each (W1 one dot, W2 a ring). `ink` is the mark's colour,
 * chosen to contrast with the ball's in lightness, not only in hue.
 * @param {string} id
 * @returns {{ colour: string, ink: string, text: string | null, mark: "dot" | "ring" | null }} */
export function ballLook(id) {
  switch (id) {
    case "W1":
      return { colour: "#f6f1e2", ink: "#1b1b1b", text: null, mark: "dot" };
    case "W2":
      return { colour: "#f6f1e2", ink: "#1b1b1b", text: null, mark: "ring" };
    case "R1":
    case "R2":
      return { colour: "#c3262c", ink: "#ffffff", text: id.slice(1), mark: null };
    case "K":
      return { colour: "#f1bf1c", ink: "#1b1b1b", text: "K", mark: null };
    default:
      return { colour: "#9a9a9a", ink: "#1b1b1b", text: null, mark: null };
  }
}

/** A "#rrggbb" colour darkened to 55 % (a ball's shaded edge). @param {string} hex */
export function shade(hex) {
  const n = parseInt(hex.slice(1), 16);
  const f = 0.55;
  const r = Math.round(((n >> 16) & 255) * f);
  const g = Math.round(((n >> 8) & 255) * f);
  const b = Math.round((n & 255) * f);
  return `rgb(${r},${g},${b})`;
}
