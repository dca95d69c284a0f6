// The table to scale on a canvas: geometry from /api/table (metres), drawing, hit testing and the animation
// of simulated strokes from their sampled trajectories.
//
// Orientation: portrait, the head (break end, y = 0) at the bottom and the foot at the top, so "left"
// (x = 0) is on the left as seen from the head end, as in REFERENCE.md.

import { fmtDecimal } from "./ui.js";

const CUSHION = 0.05; // m: drawn cushion depth behind the nose
const WOOD = 0.085; // m: drawn frame width outside the cushions
const MARGIN = CUSHION + WOOD;
const BALL_COLOURS = { W1: "#f6f1e2", W2: "#f6f1e2", R1: "#c3262c", R2: "#c3262c", K: "#f1bf1c" };
export const BALL_IDS = ["W1", "W2", "R1", "R2", "K"];
export const POCKET_IDS = ["HL", "HR", "ML", "MR", "FL", "FR"];
const POCKET_REACH = 0.045; // m: an object ball whose line passes this near a pocket's mouth is drawn going in
const ADVICE_COLOURS = ["#ffe066", "#74c0fc", "#ff8787", "#b197fc", "#8ce99a", "#ffa94d"];

export function degrees(rad) {
  return (rad * 180) / Math.PI;
}

export function radians(deg) {
  return (deg * Math.PI) / 180;
}

export function dist(a, b) {
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

/** What the full aid says of the call for the aim drawn: the preview's ruling (the server's physics and
 * referee, the same as the stroke would play), never geometry: "pots" (the called ball goes in legally),
 * "misses", or "checking" while the preview for this aim is on its way. */
export function aidVerdict(preview) {
  if (!preview || preview.error) return "checking";
  return preview.pots ? "pots" : "misses";
}

const VERDICT_COLOURS = { pots: "rgba(120,255,140,0.95)", misses: "rgba(255,170,60,0.95)", checking: "rgba(255,255,255,0.6)" };

export function segmentDistance(p, a, b) {
  const dx = b[0] - a[0];
  const dy = b[1] - a[1];
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2));
  return Math.hypot(p[0] - (a[0] + t * dx), p[1] - (a[1] + t * dy));
}

/** Geometry of the table JSON with the helpers the page needs. */
export class Geometry {
  constructor(table) {
    this.table = table;
    this.W = table.width;
    this.L = table.length;
    this.R = table.ball_radius;
    this.headString = table.lines.head_string;
    this.centreLine = table.lines.centre_line;
    this.footString = table.lines.foot_string;
  }

  mouth(pocket) {
    const jaws = this.table.pockets[pocket].jaws;
    return [(jaws[0].point[0] + jaws[1].point[0]) / 2, (jaws[0].point[1] + jaws[1].point[1]) / 2];
  }

  /** Whether a ball centred at p lies on the bed clear of the cushions (with a small safety margin). */
  fits(p, margin = 0.0005) {
    const r = this.R + margin;
    return p[0] >= r && p[0] <= this.W - r && p[1] >= r && p[1] <= this.L - r;
  }

  clampToBed(p, margin = 0.0005) {
    const r = this.R + margin;
    return [Math.min(this.W - r, Math.max(r, p[0])), Math.min(this.L - r, Math.max(r, p[1]))];
  }

  /** The first thing a ball rolled from `from` along `directionDeg` meets: a ball (with the ghost-ball centre)
   * or a cushion (with the reflected direction). */
  cast(from, directionDeg, balls, exclude) {
    const d = [Math.cos(radians(directionDeg)), Math.sin(radians(directionDeg))];
    const R2 = 2 * this.R;
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
      if (!best || t < best.t) best = { kind: "ball", ball: id, t: Math.max(0, t) };
    }
    // the cushions as the box the centre of a ball can reach
    const r = this.R;
    let tw = Infinity;
    let normal = null;
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
      const at = [from[0] + d[0] * best.t, from[1] + d[1] * best.t];
      const target = balls[best.ball];
      const n = [target[0] - at[0], target[1] - at[1]];
      const len = Math.hypot(n[0], n[1]) || 1;
      return { ...best, at, d, objectDir: [n[0] / len, n[1] / len] };
    }
    const at = [from[0] + d[0] * tw, from[1] + d[1] * tw];
    const dot = d[0] * normal[0] + d[1] * normal[1];
    return { kind: "cushion", t: tw, at, d, reflected: [d[0] - 2 * dot * normal[0], d[1] - 2 * dot * normal[1]] };
  }

  /** Direction (degrees) that sends the cue ball at `cue` to the ghost-ball spot for a direct pot of the ball
   * at `object` into `pocket`. */
  ghostAim(cue, object, pocket) {
    const m = this.mouth(pocket);
    const u = [m[0] - object[0], m[1] - object[1]];
    const len = Math.hypot(u[0], u[1]) || 1;
    const ghost = [object[0] - (2 * this.R * u[0]) / len, object[1] - (2 * this.R * u[1]) / len];
    return degrees(Math.atan2(ghost[1] - cue[1], ghost[0] - cue[0]));
  }
}

/** Merge the records of one action (a lag has two, played at once) into one set of ball paths. */
export function mergeTrajectories(records) {
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

function sampleAt(path, t) {
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

export class TableView {
  constructor(canvas, table) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.geo = new Geometry(table);
    this.table = table;
    this.balls = {};
    this.overlay = {};
    this.scale = 100;
    this.dpr = 1;
    this.landscape = false; // wide screens lay the table on its side, the head string on the left
    this.animating = false;
    this._skip = false;
    this.canvas.dataset.animating = "false";
    this.canvas.dataset.animFrames = "0";
  }

  // --- sizing and transforms ------------------------------------------------------------------------

  /** Fit the table into `box` (CSS pixels) and make the backing store crisp on high-DPI screens. */
  fit(maxWidth, maxHeight, landscape = false) {
    const g = this.geo;
    this.landscape = landscape;
    const totalW = (landscape ? g.L : g.W) + 2 * MARGIN;
    const totalH = (landscape ? g.W : g.L) + 2 * MARGIN;
    const s = Math.max(40, Math.min(maxWidth / totalW, maxHeight / totalH));
    this.scale = s;
    this.dpr = window.devicePixelRatio || 1;
    const cssW = Math.floor(totalW * s);
    const cssH = Math.floor(totalH * s);
    this.canvas.style.width = `${cssW}px`;
    this.canvas.style.height = `${cssH}px`;
    this.canvas.width = Math.round(cssW * this.dpr);
    this.canvas.height = Math.round(cssH * this.dpr);
    this.draw();
  }

  /** Table metres -> CSS pixels in the canvas. */
  toPx(p) {
    if (this.landscape) return [(MARGIN + p[1]) * this.scale, (MARGIN + p[0]) * this.scale];
    return [(MARGIN + p[0]) * this.scale, (MARGIN + this.geo.L - p[1]) * this.scale];
  }

  /** CSS pixels in the canvas -> table metres. */
  toTable(px, py) {
    if (this.landscape) return [py / this.scale - MARGIN, px / this.scale - MARGIN];
    return [px / this.scale - MARGIN, this.geo.L + MARGIN - py / this.scale];
  }

  eventPoint(event) {
    const rect = this.canvas.getBoundingClientRect();
    return this.toTable(event.clientX - rect.left, event.clientY - rect.top);
  }

  _metres() {
    const k = this.dpr * this.scale;
    if (this.landscape) this.ctx.setTransform(0, k, k, 0, k * MARGIN, k * MARGIN);
    else this.ctx.setTransform(k, 0, 0, -k, k * MARGIN, k * (MARGIN + this.geo.L));
  }

  /** Draw in metres around `centre` magnified `zoom` times, into the CSS-pixel circle at `at` of radius `r`. */
  _zoomed(centre, zoom, at, r, paint) {
    const ctx = this.ctx;
    ctx.save();
    this._pixels();
    ctx.beginPath();
    ctx.arc(at[0], at[1], r, 0, 2 * Math.PI);
    ctx.fillStyle = "#23874f";
    ctx.fill();
    ctx.clip();
    const k = this.dpr * this.scale * zoom;
    const [cx, cy] = this.toPx(centre);
    // the same orientation as the table, centre moved to `at`
    const base = this.landscape ? [0, k, k, 0] : [k, 0, 0, -k];
    const e = this.dpr * at[0] - (base[0] * centre[0] + base[2] * centre[1]);
    const f = this.dpr * at[1] - (base[1] * centre[0] + base[3] * centre[1]);
    void cx;
    void cy;
    ctx.setTransform(base[0], base[1], base[2], base[3], e, f);
    paint(1 / (this.scale * zoom));
    ctx.restore();
    this._pixels();
    ctx.strokeStyle = "rgba(255,255,255,0.9)";
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.arc(at[0], at[1], r, 0, 2 * Math.PI);
    ctx.stroke();
    this._metres();
  }

  _pixels() {
    this.ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
  }

  // --- hit testing ------------------------------------------------------------------------------------

  ballAt(p, reach = 1.6) {
    let best = null;
    let bestD = this.geo.R * reach;
    for (const [id, q] of Object.entries(this.balls)) {
      if (!q) continue;
      const d = dist(p, q);
      if (d <= bestD) {
        best = id;
        bestD = d;
      }
    }
    return best;
  }

  /** The pocket whose drawn hole (its capture circle) holds table point `p`, or null. */
  pocketHoleAt(p) {
    for (const id of POCKET_IDS) {
      const capture = this.table.pockets[id].capture;
      if (dist(p, capture.centre) <= capture.radius * 1.25) return id;
    }
    return null;
  }

  pocketAt(p) {
    let best = null;
    let bestD = 0.075;
    for (const id of POCKET_IDS) {
      const d = dist(p, this.geo.mouth(id));
      if (d <= bestD) {
        best = id;
        bestD = d;
      }
    }
    return best;
  }

  // --- drawing ------------------------------------------------------------------------------------------

  draw() {
    const ctx = this.ctx;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    this._metres();
    this._drawBed(1 / this.scale);
    this._drawOverlayUnder();
    for (const id of BALL_IDS) {
      const p = this.balls[id];
      if (p) this._drawBall(id, p);
    }
    this._drawOverlayOver();
    this._drawLabels();
    // where the zoomed insets went (CSS px: centre and radius), for the tests
    // what the drawn aid says of the call (the object ball's colour): pots, misses, checking, or "" (none drawn)
    this.canvas.dataset.verdict = this.verdict || "";
    // the potting window drawn on the aim (its centre's direction), "" when none
    this.canvas.dataset.window = this.window || "";
    this.canvas.dataset.insets = JSON.stringify(this.insets.map((i) => [Math.round(i.at[0]), Math.round(i.at[1]), Math.round(i.r)]));
  }

  /** The frame, cushions, pockets, lines and spots (`px`: one CSS pixel in metres). */
  _drawBed(px) {
    const ctx = this.ctx;
    const g = this.geo;
    const t = this.table;
    // frame (wood)
    ctx.fillStyle = "#5a3319";
    roundRect(ctx, -MARGIN, -MARGIN, g.W + 2 * MARGIN, g.L + 2 * MARGIN, 0.05);
    ctx.fill();
    ctx.strokeStyle = "#3d210f";
    ctx.lineWidth = 2 * px;
    ctx.stroke();
    // sights on the frame: quarters of the width, eighths of the length
    ctx.fillStyle = "#e9dcc0";
    for (let i = 1; i < 4; i++) {
      for (const y of [-CUSHION - WOOD / 2, g.L + CUSHION + WOOD / 2]) dot(ctx, (g.W * i) / 4, y, 0.008);
    }
    for (let i = 1; i < 8; i++) {
      if (i === 4) continue;
      for (const x of [-CUSHION - WOOD / 2, g.W + CUSHION + WOOD / 2]) dot(ctx, x, (g.L * i) / 8, 0.008);
    }

    // cushion band and bed
    ctx.fillStyle = "#17603a";
    ctx.fillRect(-CUSHION, -CUSHION, g.W + 2 * CUSHION, g.L + 2 * CUSHION);
    ctx.fillStyle = "#23874f";
    ctx.fillRect(0, 0, g.W, g.L);

    // pockets: the throat between the jaw facings, and the hole
    for (const id of POCKET_IDS) {
      const pocket = t.pockets[id];
      const [a, b] = pocket.jaws;
      ctx.fillStyle = "#0b0b0b";
      ctx.beginPath();
      ctx.moveTo(...a.point);
      ctx.lineTo(...a.facing[0]);
      ctx.lineTo(...extend(a.facing, CUSHION * 1.8));
      ctx.lineTo(...extend(b.facing, CUSHION * 1.8));
      ctx.lineTo(...b.facing[0]);
      ctx.lineTo(...b.point);
      ctx.closePath();
      ctx.fill();
      ctx.beginPath();
      ctx.arc(pocket.capture.centre[0], pocket.capture.centre[1], pocket.capture.radius * 1.25, 0, 2 * Math.PI);
      ctx.fill();
      // jaw noses
      ctx.fillStyle = "#17603a";
      for (const jaw of pocket.jaws) dot(ctx, jaw.tip.centre[0], jaw.tip.centre[1], jaw.tip.radius);
    }
    // cushion noses
    ctx.strokeStyle = "rgba(0,0,0,0.35)";
    ctx.lineWidth = 1.5 * px;
    for (const rail of Object.values(t.rails)) {
      ctx.beginPath();
      ctx.moveTo(...rail.nose[0]);
      ctx.lineTo(...rail.nose[1]);
      ctx.stroke();
    }

    // lines and spots
    ctx.strokeStyle = "rgba(255,255,255,0.45)";
    ctx.lineWidth = 1 * px;
    for (const y of [g.headString, g.centreLine, g.footString]) {
      ctx.beginPath();
      ctx.moveTo(0, y);
      ctx.lineTo(g.W, y);
      ctx.stroke();
    }
    ctx.fillStyle = "rgba(255,255,255,0.8)";
    for (const p of Object.values(t.spots)) dot(ctx, p[0], p[1], Math.max(0.005, 2 * px));
  }

  /** Where a pocket's name is written on the frame (metres). */
  _labelAt(id) {
    const g = this.geo;
    const x = id.endsWith("L") ? -CUSHION - WOOD / 2 : g.W + CUSHION + WOOD / 2;
    const y = id.startsWith("H") ? 0.18 : id.startsWith("F") ? g.L - 0.18 : g.L / 2 - 0.14;
    return [x, y];
  }

  _drawLabels() {
    const ctx = this.ctx;
    this._pixels();
    ctx.font = `600 ${Math.max(9, Math.round(this.scale * 0.042))}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (const id of POCKET_IDS) {
      const [px, py] = this.toPx(this._labelAt(id));
      ctx.fillStyle = this.overlay.callPocket === id ? "#ffe066" : "rgba(255,240,210,0.85)";
      ctx.fillText(id, px, py);
    }
  }

  _drawBall(id, p, label = true) {
    const ctx = this.ctx;
    const r = this.geo.R;
    const px = 1 / this.scale;
    ctx.save();
    ctx.fillStyle = "rgba(0,0,0,0.25)";
    dot(ctx, p[0] + r * 0.12, p[1] - r * 0.12, r);
    const grad = ctx.createRadialGradient(p[0] - r * 0.35, p[1] + r * 0.35, r * 0.1, p[0], p[1], r);
    grad.addColorStop(0, "#ffffff");
    grad.addColorStop(0.25, BALL_COLOURS[id]);
    grad.addColorStop(1, shade(BALL_COLOURS[id]));
    ctx.fillStyle = grad;
    dot(ctx, p[0], p[1], r);
    ctx.strokeStyle = "rgba(0,0,0,0.45)";
    ctx.lineWidth = px;
    ctx.stroke();
    ctx.fillStyle = "#222";
    if (id === "W1") dot(ctx, p[0], p[1], r * 0.2);
    if (id === "W2") {
      dot(ctx, p[0] - r * 0.36, p[1], r * 0.18);
      dot(ctx, p[0] + r * 0.36, p[1], r * 0.18);
    }
    ctx.restore();
    if (label && (id === "R1" || id === "R2")) {
      this._pixels();
      const [x, y] = this.toPx(p);
      ctx.fillStyle = "rgba(255,255,255,0.85)";
      ctx.font = `bold ${Math.max(8, Math.round(this.scale * r * 0.9))}px system-ui, sans-serif`;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText(id[1], x, y + 0.5);
      this._metres();
    }
  }

  _drawOverlayUnder() {
    const ctx = this.ctx;
    const o = this.overlay;
    const g = this.geo;
    const px = 1 / this.scale;
    if (o.legal) {
      const { x0, x1, y0, y1, blocked = [] } = o.legal;
      ctx.fillStyle = "rgba(255,255,255,0.14)";
      ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
      ctx.setLineDash([6 * px, 4 * px]);
      ctx.strokeStyle = "rgba(255,255,255,0.7)";
      ctx.lineWidth = 1.5 * px;
      ctx.strokeRect(x0, y0, x1 - x0, y1 - y0);
      ctx.setLineDash([]);
      ctx.fillStyle = "rgba(0,0,0,0.22)";
      for (const p of blocked) dot(ctx, p[0], p[1], 2 * g.R);
    }
    for (const c of o.corridors || []) {
      ctx.strokeStyle = "rgba(230,50,50,0.28)";
      ctx.lineCap = "round";
      ctx.lineWidth = 2 * c.clearance;
      ctx.beginPath();
      ctx.moveTo(...c.from);
      ctx.lineTo(...c.to);
      ctx.stroke();
      ctx.lineCap = "butt";
      ctx.strokeStyle = "rgba(255,120,120,0.9)";
      ctx.setLineDash([5 * px, 4 * px]);
      ctx.lineWidth = 1.2 * px;
      ctx.beginPath();
      ctx.moveTo(...c.from);
      ctx.lineTo(...c.to);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    if (o.preview && o.preview.paths) {
      // the full aid's preview: where each ball would run with the stroke as set
      ctx.setLineDash([5 * px, 4 * px]);
      ctx.lineWidth = 1.6 * px;
      for (const [ball, points] of Object.entries(o.preview.paths)) {
        ctx.strokeStyle = ball === "K" ? "rgba(255,224,80,0.8)" : ball.startsWith("R") ? "rgba(255,140,140,0.85)" : "rgba(255,255,255,0.7)";
        ctx.beginPath();
        ctx.moveTo(...points[0]);
        for (const q of points.slice(1)) ctx.lineTo(...q);
        ctx.stroke();
        const last = points[points.length - 1];
        ctx.beginPath();
        ctx.arc(last[0], last[1], g.R, 0, 2 * Math.PI);
        ctx.stroke();
      }
      ctx.setLineDash([]);
    }
    if (o.callPocket) {
      const m = g.mouth(o.callPocket);
      ctx.strokeStyle = "#ffe066";
      ctx.lineWidth = 3 * px;
      ctx.beginPath();
      ctx.arc(m[0], m[1], 0.05, 0, 2 * Math.PI);
      ctx.stroke();
    }
  }

  _drawOverlayOver() {
    const ctx = this.ctx;
    const o = this.overlay;
    const g = this.geo;
    const px = 1 / this.scale;
    if (o.callBall && this.balls[o.callBall]) {
      const p = this.balls[o.callBall];
      ctx.strokeStyle = "#ffe066";
      ctx.lineWidth = 2.5 * px;
      ctx.beginPath();
      ctx.arc(p[0], p[1], g.R + 4 * px, 0, 2 * Math.PI);
      ctx.stroke();
    }
    for (const id of o.draggable || []) {
      const p = this.balls[id];
      if (!p) continue;
      ctx.strokeStyle = id === o.dragging ? "#ffffff" : "rgba(255,255,255,0.75)";
      ctx.setLineDash([3 * px, 3 * px]);
      ctx.lineWidth = 1.5 * px;
      ctx.beginPath();
      ctx.arc(p[0], p[1], g.R + 6 * px, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    for (const id of [o.placed, ...(o.respotted || [])]) {
      const p = id && this.balls[id];
      if (!p) continue;
      // a ball just placed from hand or respotted: a ring that says so
      ctx.strokeStyle = "#ffe066";
      ctx.lineWidth = 2.5 * px;
      ctx.beginPath();
      ctx.arc(p[0], p[1], g.R + 7 * px, 0, 2 * Math.PI);
      ctx.stroke();
    }
    this.insets = [];
    this.verdict = "";
    this.window = "";
    for (const aim of o.aims || []) this._drawAim(aim);
    (o.advice || []).forEach((a, i) => this._drawAdvice(a, i));
  }

  /** Where the object ball struck at `hit` runs: to the first ball, cushion or pocket mouth on its line. */
  objectLine(hit) {
    const g = this.geo;
    const target = this.balls[hit.ball];
    const dir = degrees(Math.atan2(hit.objectDir[1], hit.objectDir[0]));
    const next = g.cast(target, dir, this.balls, hit.ball);
    let pocket = null;
    let end = next.at;
    let best = Infinity;
    for (const id of POCKET_IDS) {
      const m = g.mouth(id);
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

  _drawAim(aim) {
    const ctx = this.ctx;
    const g = this.geo;
    const px = 1 / this.scale;
    const level = aim.aids || "full";
    const from = aim.from;
    const hit = g.cast(from, aim.direction, this.balls, aim.ball);
    const called = aim.call || {};
    const preview = aim.faint ? null : this.overlay.preview;
    const verdict = aidVerdict(preview);
    if (!aim.faint) {
      this.verdict = level === "full" && hit.kind === "ball" ? verdict : "";
      this.window = level === "full" && aim.window ? String(aim.window.direction) : "";
    }
    const paint = (px) => {
      ctx.lineWidth = 1.5 * px;
      ctx.strokeStyle = aim.faint ? "rgba(255,255,255,0.45)" : "rgba(255,255,255,0.95)";
      ctx.beginPath();
      ctx.moveTo(...from);
      ctx.lineTo(...hit.at);
      ctx.stroke();
      // the ghost ball where the cue ball first meets something
      ctx.setLineDash([4 * px, 3 * px]);
      ctx.beginPath();
      ctx.arc(hit.at[0], hit.at[1], g.R, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.setLineDash([]);
      if (level !== "full") return;
      if (aim.window && !aim.faint) {
        // the potting window the server's search found at this power and spin: aim the white ghost ball onto
        // the green one (the insets magnify both)
        const w = g.cast(from, aim.window.direction, this.balls, aim.ball);
        ctx.strokeStyle = "rgba(120,255,140,0.85)";
        ctx.lineWidth = 1 * px;
        ctx.setLineDash([2 * px, 4 * px]);
        ctx.beginPath();
        ctx.moveTo(...from);
        ctx.lineTo(...w.at);
        ctx.stroke();
        ctx.setLineDash([]);
        ctx.lineWidth = 1.5 * px;
        ctx.beginPath();
        ctx.arc(w.at[0], w.at[1], g.R, 0, 2 * Math.PI);
        ctx.stroke();
      }
      if (hit.kind === "ball") {
        // the object ball's line: its colour is the preview's verdict (physics and referee), not this geometry;
        // the straight line is the ghost-ball guide, the preview's path (drawn over it) where the ball really runs
        const line = this.objectLine(hit);
        ctx.strokeStyle = VERDICT_COLOURS[verdict];
        ctx.lineWidth = 2 * px;
        if (verdict === "checking") ctx.setLineDash([2 * px, 3 * px]);
        ctx.beginPath();
        ctx.moveTo(...line.from);
        ctx.lineTo(...line.to);
        ctx.stroke();
        ctx.setLineDash([]);
        const real = preview && preview.paths && preview.paths[hit.ball];
        if (real) {
          ctx.strokeStyle = VERDICT_COLOURS[verdict];
          ctx.lineWidth = 2.4 * px;
          ctx.beginPath();
          ctx.moveTo(...real[0]);
          for (const q of real.slice(1)) ctx.lineTo(...q);
          ctx.stroke();
        }
        // the cue ball's tangent line after a contact without roll
        const n = hit.objectDir;
        const side = hit.d[0] * n[1] - hit.d[1] * n[0] >= 0 ? 1 : -1;
        const tangent = [side * n[1], -side * n[0]];
        ctx.strokeStyle = "rgba(255,255,255,0.45)";
        ctx.lineWidth = 1.2 * px;
        ctx.beginPath();
        ctx.moveTo(...hit.at);
        ctx.lineTo(hit.at[0] + tangent[0] * 0.2, hit.at[1] + tangent[1] * 0.2);
        ctx.stroke();
      } else {
        ctx.strokeStyle = "rgba(255,255,255,0.4)";
        const next = g.cast(hit.at, degrees(Math.atan2(hit.reflected[1], hit.reflected[0])), this.balls, aim.ball);
        ctx.beginPath();
        ctx.moveTo(...hit.at);
        ctx.lineTo(...next.at);
        ctx.stroke();
      }
    };
    if (level !== "none") paint(px);
    if (level === "full" && !aim.faint && hit.kind === "ball") this._drawInsets(hit, called, paint, aim);
    // cue stick behind the ball, pulled back with the power
    if (!aim.faint) {
      const d = [Math.cos(radians(aim.direction)), Math.sin(radians(aim.direction))];
      const back = 0.03 + (aim.speed || 2) * 0.03;
      ctx.strokeStyle = "#d9b77e";
      ctx.lineWidth = 5 * px;
      ctx.lineCap = "round";
      ctx.beginPath();
      ctx.moveTo(from[0] - d[0] * (g.R + back), from[1] - d[1] * (g.R + back));
      ctx.lineTo(from[0] - d[0] * (g.R + back + 0.45), from[1] - d[1] * (g.R + back + 0.45));
      ctx.stroke();
      ctx.lineCap = "butt";
      if (this.overlay.pull) this._drawPull(from, d, aim.speed || 0);
    }
  }

  /** The power while the cue is pulled back: a bar beside the cue ball with m/s. */
  _drawPull(from, d, speed) {
    const ctx = this.ctx;
    this._pixels();
    const [x, y] = this.toPx(from);
    const w = 120;
    const h = 12;
    const bx = Math.min(this.canvas.width / this.dpr - w - 8, Math.max(8, x - w / 2));
    const by = Math.max(8, y - 40);
    ctx.fillStyle = "rgba(0,0,0,0.7)";
    ctx.fillRect(bx - 4, by - 4, w + 8, h + 26);
    ctx.fillStyle = "#f1bf1c";
    ctx.fillRect(bx, by, (w * speed) / 8, h);
    ctx.strokeStyle = "#fff";
    ctx.strokeRect(bx, by, w, h);
    ctx.fillStyle = "#fff";
    ctx.font = "bold 12px system-ui, sans-serif";
    ctx.textAlign = "left";
    ctx.textBaseline = "top";
    ctx.fillText(`${speed.toFixed(2)} m/s`, bx, by + h + 3);
    this._metres();
    void d;
  }

  /** Two magnified circles: the contact (ghost ball and object ball) and the called pocket's mouth with the
   * object ball's line, each where it hides least (_insetSpot): not over a ball, a pocket or its name, the aim's
   * lines, the cue or the area a ball is being placed in. */
  _drawInsets(hit, called, paint, aim) {
    const g = this.geo;
    const cssW = this.canvas.width / this.dpr;
    const cssH = this.canvas.height / this.dpr;
    const r = Math.max(38, Math.min(80, Math.min(cssW, cssH) * 0.14));
    const target = this.balls[hit.ball];
    const line = this.objectLine(hit);
    const d = [Math.cos(radians(aim.direction)), Math.sin(radians(aim.direction))];
    const back = g.R + 0.03 + (aim.speed || 2) * 0.03;
    const lines = [
      [aim.from, hit.at],
      [line.from, line.to],
      [[aim.from[0] - d[0] * back, aim.from[1] - d[1] * back], [aim.from[0] - d[0] * (back + 0.45), aim.from[1] - d[1] * (back + 0.45)]],
    ];
    const labels = []; // the advisor's calls (a hint, the study's advice): their lines and labels
    for (const advice of this.overlay.advice || []) {
      const cue = advice.stroke.place || this.balls[advice.stroke.ball];
      if (!cue) continue;
      const others = { ...this.balls };
      delete others[advice.stroke.ball];
      const reach = g.cast(cue, advice.stroke.direction, others, advice.stroke.ball);
      lines.push([cue, reach.at]);
      const b = advice.ball && advice.pocket ? this.balls[advice.ball] : null;
      if (b) lines.push([b, g.mouth(advice.pocket)]);
      labels.push(b || reach.at);
    }
    const paths = (this.overlay.preview && this.overlay.preview.paths) || {};
    for (const points of Object.values(paths)) {
      const every = Math.max(1, Math.ceil(points.length / 40));
      for (let i = every; i < points.length; i += every) lines.push([points[i - every], points[i]]);
    }
    const drawBalls = () => {
      for (const id of BALL_IDS) if (this.balls[id]) this._drawBall(id, this.balls[id], false);
    };
    const contact = [(hit.at[0] + target[0]) / 2, (hit.at[1] + target[1]) / 2];
    const first = this._insetSpot(r, lines, [], labels);
    this._zoomed(contact, 5, first, r, (px) => {
      this._drawBed(px);
      drawBalls();
      paint(px);
    });
    this.insets = [{ kind: "contact", at: first, r }];
    const pocket = called.pocket || line.pocket;
    if (pocket) {
      const m = g.mouth(pocket);
      const second = this._insetSpot(r, lines, this.insets, labels);
      this._zoomed(m, 3, second, r, (px) => {
        this._drawBed(px);
        drawBalls();
        paint(px);
      });
      this.insets.push({ kind: "pocket", at: second, r, pocket });
    }
  }

  /** The centre (CSS px) for an inset of radius `r` that stays clearest of every ball, pocket and pocket name,
   * the `lines` (metres: the aim, the object ball's line, the cue, the preview's paths), the area a ball is
   * being placed in, the insets `taken` and the advisor's `labels` (metres: written within about 60 px of the
   * point): the best of a grid over the canvas. */
  _insetSpot(r, lines, taken, labels = []) {
    const g = this.geo;
    const cssW = this.canvas.width / this.dpr;
    const cssH = this.canvas.height / this.dpr;
    const k = this.scale;
    const circles = [];
    for (const id of BALL_IDS) if (this.balls[id]) circles.push([this.toPx(this.balls[id]), g.R * k + 4]);
    for (const id of POCKET_IDS) {
      const capture = this.table.pockets[id].capture;
      circles.push([this.toPx(capture.centre), capture.radius * 1.25 * k + 4]);
      circles.push([this.toPx(this._labelAt(id)), 10]);
    }
    for (const inset of taken) circles.push([inset.at, inset.r + 4]);
    for (const at of labels) circles.push([this.toPx(at), 60]);
    const segments = lines.map(([a, b]) => [this.toPx(a), this.toPx(b)]);
    const rects = [];
    const legal = this.overlay.legal;
    if (legal) {
      const a = this.toPx([legal.x0, legal.y0]);
      const b = this.toPx([legal.x1, legal.y1]);
      rects.push([Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1])]);
    }
    const step = Math.max(6, r / 4);
    let best = null;
    for (let y = r + 4; y <= cssH - r - 4; y += step) {
      for (let x = r + 4; x <= cssW - r - 4; x += step) {
        const p = [x, y];
        let clear = Infinity;
        for (const [c, radius] of circles) clear = Math.min(clear, dist(p, c) - radius - r);
        for (const [a, b] of segments) clear = Math.min(clear, segmentDistance(p, a, b) - r - 3);
        for (const [x0, y0, x1, y1] of rects) {
          const out = Math.hypot(Math.max(x0 - x, 0, x - x1), Math.max(y0 - y, 0, y - y1));
          const depth = out > 0 ? 0 : Math.min(x - x0, x1 - x, y - y0, y1 - y);
          clear = Math.min(clear, out - depth - r);
        }
        if (!best || clear > best.clear) best = { at: p, clear };
      }
    }
    return best ? best.at : [r + 6, r + 6];
  }

  _drawAdvice(advice, index) {
    const ctx = this.ctx;
    const g = this.geo;
    const px = 1 / this.scale;
    const colour = ADVICE_COLOURS[index % ADVICE_COLOURS.length];
    const cueId = advice.stroke.ball;
    // from hand the advisor places the cue ball itself: its line starts there, with the place ringed
    const cue = advice.stroke.place || this.balls[cueId];
    if (!cue) return;
    const others = { ...this.balls };
    delete others[cueId];
    const hit = g.cast(cue, advice.stroke.direction, others, cueId);
    if (advice.stroke.place) {
      ctx.strokeStyle = colour;
      ctx.lineWidth = 2 * px;
      ctx.setLineDash([3 * px, 3 * px]);
      ctx.beginPath();
      ctx.arc(cue[0], cue[1], g.R, 0, 2 * Math.PI);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    ctx.strokeStyle = colour;
    ctx.lineWidth = (index === 0 ? 3 : 2) * px;
    ctx.beginPath();
    ctx.moveTo(...cue);
    ctx.lineTo(...hit.at);
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(hit.at[0], hit.at[1], g.R, 0, 2 * Math.PI);
    ctx.stroke();
    let labelAt = hit.at;
    if (advice.ball && advice.pocket && this.balls[advice.ball]) {
      const b = this.balls[advice.ball];
      const m = g.mouth(advice.pocket);
      ctx.setLineDash([6 * px, 4 * px]);
      ctx.beginPath();
      ctx.moveTo(...b);
      ctx.lineTo(...m);
      ctx.stroke();
      ctx.setLineDash([]);
      labelAt = b;
    }
    this._pixels();
    const [x, y] = this.toPx(labelAt);
    const text = advice.label || `${index + 1}: ${Math.round(advice.p_pot * 100)} % · ${fmtDecimal(advice.expected_points, 1)}`;
    ctx.font = `bold ${Math.max(10, Math.round(this.scale * 0.05))}px system-ui, sans-serif`;
    const w = ctx.measureText(text).width + 8;
    // the first place near its ball where the label covers no ball and no other label
    if (index === 0) this._labelBoxes = [];
    const cssW = this.canvas.width / this.dpr;
    const cssH = this.canvas.height / this.dpr;
    const ballR = this.geo.R * this.scale + 2;
    const balls = Object.values(this.balls).filter(Boolean).map((p) => this.toPx(p));
    const overlaps = (bx, by) =>
      bx < 0 || by - 9 < 0 || bx + w > cssW || by + 9 > cssH ||
      this._labelBoxes.some((b) => bx < b.x + b.w && bx + w > b.x && by - 9 < b.y + 9 && by + 9 > b.y - 9) ||
      balls.some(([px, py]) => px + ballR > bx && px - ballR < bx + w && py + ballR > by - 9 && py - ballR < by + 9);
    const candidates = [];
    for (const d of [14, 34, 56, 80]) {
      candidates.push([x + d, y], [x - d - w, y], [x - w / 2, y - d], [x - w / 2, y + d], [x + d, y - d], [x - d - w, y + d]);
    }
    let [bx, by] = candidates.find(([cx, cy]) => !overlaps(cx, cy)) || [x + 10, y - 12 + index * 20];
    bx = Math.max(0, Math.min(cssW - w, bx));
    by = Math.max(9, Math.min(cssH - 9, by));
    this._labelBoxes.push({ x: bx, y: by, w });
    ctx.fillStyle = "rgba(0,0,0,0.7)";
    ctx.fillRect(bx, by - 9, w, 18);
    ctx.fillStyle = colour;
    ctx.textAlign = "left";
    ctx.textBaseline = "middle";
    ctx.fillText(text, bx + 4, by);
    this._metres();
  }

  // --- animation ------------------------------------------------------------------------------------------

  /** Play the balls' paths of `records` in real time times `speed`, drawing every animation frame with the
   * positions interpolated by time. Resolves with the number of frames drawn. */
  animate(records, speed = 1) {
    const { paths, duration } = mergeTrajectories(records);
    if (Object.keys(paths).length === 0) return Promise.resolve({ frames: 0, duration: 0 });
    this.animating = true;
    this._skip = false;
    this.canvas.dataset.animating = "true";
    const saved = this.overlay;
    this.overlay = { callBall: saved.callBall, callPocket: saved.callPocket };
    return new Promise((resolve) => {
      let start = null;
      let frames = 0;
      const step = (now) => {
        if (start === null) start = now;
        const t = ((now - start) / 1000) * speed;
        const done = t >= duration || this._skip;
        const at = done ? duration : t;
        const balls = {};
        for (const [ball, path] of Object.entries(paths)) {
          const p = sampleAt(path, at);
          if (p) balls[ball] = p;
        }
        this.balls = balls;
        this.draw();
        frames += 1;
        this.canvas.dataset.animTime = at.toFixed(3);
        if (done) {
          this.animating = false;
          this.canvas.dataset.animating = "false";
          this.canvas.dataset.animFrames = String(frames);
          this.canvas.dataset.animDuration = duration.toFixed(3);
          this.canvas.dataset.animCount = String(Number(this.canvas.dataset.animCount || 0) + 1);
          this.overlay = saved;
          resolve({ frames, duration });
        } else {
          requestAnimationFrame(step);
        }
      };
      requestAnimationFrame(step);
    });
  }

  skip() {
    if (this.animating) this._skip = true;
  }

  /** A ball put on its spot by the ruling: it travels from where it left the table (or rests) to the spot in
   * `ms` milliseconds, ringed, and stays there. Resolves when it is there (at once when skipped). */
  respot(id, from, to, ms = 350) {
    const rings = new Set(this.overlay.respotted || []);
    rings.add(id);
    this.overlay = { ...this.overlay, respotted: [...rings] };
    this.canvas.dataset.respots = String(Number(this.canvas.dataset.respots || 0) + 1);
    this.canvas.dataset.lastRespot = id;
    if (!from || ms <= 0 || this._skip) {
      this.balls = { ...this.balls, [id]: to };
      this.draw();
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      let start = null;
      const step = (now) => {
        if (start === null) start = now;
        const k = Math.min(1, (now - start) / ms);
        const e = 1 - (1 - k) * (1 - k); // ease out: it slows onto the spot
        this.balls = { ...this.balls, [id]: [from[0] + (to[0] - from[0]) * e, from[1] + (to[1] - from[1]) * e] };
        this.draw();
        if (k >= 1 || this._skip) {
          this.balls = { ...this.balls, [id]: to };
          this.draw();
          resolve();
        } else {
          requestAnimationFrame(step);
        }
      };
      requestAnimationFrame(step);
    });
  }
}

// --- small drawing helpers ------------------------------------------------------------------------------

function dot(ctx, x, y, r) {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, 2 * Math.PI);
  ctx.fill();
}

function roundRect(ctx, x, y, w, h, r) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.lineTo(x + w - r, y);
  ctx.arcTo(x + w, y, x + w, y + r, r);
  ctx.lineTo(x + w, y + h - r);
  ctx.arcTo(x + w, y + h, x + w - r, y + h, r);
  ctx.lineTo(x + r, y + h);
  ctx.arcTo(x, y + h, x, y + h - r, r);
  ctx.lineTo(x, y + r);
  ctx.arcTo(x, y, x + r, y, r);
  ctx.closePath();
}

function extend(segment, length) {
  const [a, b] = segment;
  const d = [b[0] - a[0], b[1] - a[1]];
  const n = Math.hypot(d[0], d[1]) || 1;
  return [a[0] + (d[0] / n) * length, a[1] + (d[1] / n) * length];
}

function shade(hex) {
  const n = parseInt(hex.slice(1), 16);
  const f = 0.55;
  const r = Math.round(((n >> 16) & 255) * f);
  const g = Math.round(((n >> 8) & 255) * f);
  const b = Math.round((n & 255) * f);
  return `rgb(${r},${g},${b})`;
}
