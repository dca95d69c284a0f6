// The table to scale on a canvas: drawing, hit testing and the animation of simulated strokes from their sampled
// trajectories. The geometry and the aim's maths (no canvas) are geometry.js's; what the pages import of them is
// exported here too.
//
// Orientation: portrait, the head (break end, y = 0) at the bottom and the foot at the top, so "left"
// (x = 0) is on the left as seen from the head end, as in REFERENCE.md.

import { BALL_IDS, POCKET_IDS, Geometry, aidVerdict, ballLook, degrees, dist, extend, mergeTrajectories, radians, sampleAt, segmentDistance, shade } from "./geometry.js";
import { fmtDecimal } from "./ui.js";

export { BALL_IDS, POCKET_IDS, Geometry, aidVerdict, degrees, dist, mergeTrajectories, radians, segmentDistance };

/** @typedef {import("./geometry.js").Point} Point @typedef {import("./geometry.js").TableJson} TableJson */
/** @typedef {import("./geometry.js").Balls} Balls @typedef {import("./geometry.js").Preview} Preview */
/** @typedef {import("./geometry.js").BallHit} BallHit @typedef {import("./geometry.js").StrokeRecord} StrokeRecord */
/** The area lit for a placement (placement.js lightOf): the box, and the balls a placed ball may not touch.
 * @typedef {{ x0?: number, x1?: number, y0?: number, y1?: number, blocked?: Point[] }} Legal */
/** An aim drawn from `from` (the cue ball, or a lag ball) along `direction` (degrees) with the aids `aids`; a
 * faint one is another's (the other lag ball), drawn without the cue and the preview.
 * @typedef {{ from: Point, ball: string, direction: number, speed?: number, aids?: string, faint?: boolean,
 *   call?: { ball?: string | null, pocket?: string | null } | null, window?: { direction: number } | null }} Aim */
/** One of the advisor's calls (a hint, the study's advice): its stroke and what it expects.
 * @typedef {{ stroke: { ball: string, direction: number, place?: Point | null }, ball?: string | null,
 *   pocket?: string | null, label?: string, p_pot?: number, expected_points?: number }} Advice */
/** What is drawn with the balls; each page sets what it needs.
 * @typedef {{ legal?: Legal | null, corridors?: import("./placement.js").Corridor[] | null,
 *   preview?: Preview | null, callBall?: string | null, callPocket?: string | null, draggable?: string[],
 *   dragging?: string | null, placed?: string | null, respotted?: string[], aims?: Aim[], advice?: Advice[],
 *   pull?: { speed: number } | null }} Overlay */
/** A magnified circle drawn on the table (CSS px). @typedef {{ kind: string, at: Point, r: number, pocket?: string }} Inset */
/** What the object ball's line says: @typedef {"pots" | "misses" | "checking"} Verdict */

const CUSHION = 0.05; // m: drawn cushion depth behind the nose
const WOOD = 0.085; // m: drawn frame width outside the cushions
const MARGIN = CUSHION + WOOD;
const ADVICE_COLOURS = ["#ffe066", "#74c0fc", "#ff8787", "#b197fc", "#8ce99a", "#ffa94d"];
const VERDICT_COLOURS = { pots: "rgba(120,255,140,0.95)", misses: "rgba(255,170,60,0.95)", checking: "rgba(255,255,255,0.6)" };

export class TableView {
  /** @param {HTMLCanvasElement} canvas @param {TableJson} table */
  constructor(canvas, table) {
    this.canvas = canvas;
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("the table needs a canvas that draws in 2D");
    this.ctx = ctx;
    this.geo = new Geometry(table);
    this.table = table;
    /** @type {Balls} */
    this.balls = {};
    /** @type {Overlay} */
    this.overlay = {};
    this.scale = 100;
    this.dpr = 1;
    this.landscape = false; // wide screens lay the table on its side, the head string on the left
    this.animating = false;
    this._skip = false;
    /** @type {Inset[]} the magnified circles drawn last (for the tests: data-insets) */
    this.insets = [];
    /** @type {Verdict | ""} what the drawn aid says of the call, "" when none is drawn */
    this.verdict = "";
    /** the potting window drawn on the aim (its centre's direction), "" when none */
    this.window = "";
    /** @type {{ x: number, y: number, w: number }[]} the advisor's labels written so far (CSS px) */
    this._labelBoxes = [];
    this.canvas.dataset.animating = "false";
    this.canvas.dataset.animFrames = "0";
  }

  // --- sizing and transforms ------------------------------------------------------------------------

  /** Fit the table into `maxWidth` x `maxHeight` (CSS pixels) and make the backing store crisp on high-DPI
   * screens. @param {number} maxWidth @param {number} maxHeight */
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

  /** Table metres -> CSS pixels in the canvas. @param {Point} p @returns {Point} */
  toPx(p) {
    if (this.landscape) return [(MARGIN + p[1]) * this.scale, (MARGIN + p[0]) * this.scale];
    return [(MARGIN + p[0]) * this.scale, (MARGIN + this.geo.L - p[1]) * this.scale];
  }

  /** CSS pixels in the canvas -> table metres. @param {number} px @param {number} py @returns {Point} */
  toTable(px, py) {
    if (this.landscape) return [py / this.scale - MARGIN, px / this.scale - MARGIN];
    return [px / this.scale - MARGIN, this.geo.L + MARGIN - py / this.scale];
  }

  /** The table point under a pointer. @param {{ clientX: number, clientY: number }} event */
  eventPoint(event) {
    const rect = this.canvas.getBoundingClientRect();
    return this.toTable(event.clientX - rect.left, event.clientY - rect.top);
  }

  _metres() {
    const k = this.dpr * this.scale;
    if (this.landscape) this.ctx.setTransform(0, k, k, 0, k * MARGIN, k * MARGIN);
    else this.ctx.setTransform(k, 0, 0, -k, k * MARGIN, k * (MARGIN + this.geo.L));
  }

  /** Draw in metres around `centre` magnified `zoom` times, into the CSS-pixel circle at `at` of radius `r`.
   * @param {Point} centre @param {number} zoom @param {Point} at @param {number} r
   * @param {(px: number) => void} paint given one CSS pixel in metres */
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
    // the same orientation as the table, centre moved to `at`
    const base = this.landscape ? [0, k, k, 0] : [k, 0, 0, -k];
    const e = this.dpr * at[0] - (base[0] * centre[0] + base[2] * centre[1]);
    const f = this.dpr * at[1] - (base[1] * centre[0] + base[3] * centre[1]);
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

  /** The ball nearest `p` within `reach` radii, or null. @param {Point} p @returns {string | null} */
  ballAt(p, reach = 1.6) {
    /** @type {string | null} */
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

  /** The pocket whose drawn hole (its capture circle) holds table point `p`, or null.
   * @param {Point} p @returns {string | null} */
  pocketHoleAt(p) {
    for (const id of POCKET_IDS) {
      const capture = this.table.pockets[id].capture;
      if (dist(p, capture.centre) <= capture.radius * 1.25) return id;
    }
    return null;
  }

  /** The pocket whose mouth is nearest `p` (within 7.5 cm), or null. @param {Point} p @returns {string | null} */
  pocketAt(p) {
    /** @type {string | null} */
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

  /** The frame, cushions, pockets, lines and spots (`px`: one CSS pixel in metres). @param {number} px */
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

  /** Where a pocket's name is written on the frame (metres). @param {string} id @returns {Point} */
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

  /** A ball at `p` with what tells it apart without its colour (geometry.js ballLook): the reds' numbers, the
   * kaisa's K, W1's dot and W2's ring; the text is written upright whichever way the table lies, and sized with
   * the ball (in the magnified insets too). @param {string} id @param {Point} p */
  _drawBall(id, p) {
    const ctx = this.ctx;
    const r = this.geo.R;
    const look = ballLook(id);
    ctx.save();
    ctx.fillStyle = "rgba(0,0,0,0.25)";
    dot(ctx, p[0] + r * 0.12, p[1] - r * 0.12, r);
    const grad = ctx.createRadialGradient(p[0] - r * 0.35, p[1] + r * 0.35, r * 0.1, p[0], p[1], r);
    grad.addColorStop(0, "#ffffff");
    grad.addColorStop(0.25, look.colour);
    grad.addColorStop(1, shade(look.colour));
    ctx.fillStyle = grad;
    dot(ctx, p[0], p[1], r);
    ctx.strokeStyle = "rgba(0,0,0,0.45)";
    ctx.lineWidth = 1 / this.scale;
    ctx.stroke();
    ctx.fillStyle = look.ink;
    ctx.strokeStyle = look.ink;
    if (look.mark === "dot") dot(ctx, p[0], p[1], r * 0.34);
    if (look.mark === "ring") {
      ctx.lineWidth = r * 0.2;
      ctx.beginPath();
      ctx.arc(p[0], p[1], r * 0.52, 0, 2 * Math.PI);
      ctx.stroke();
    }
    if (look.text) {
      const m = ctx.getTransform();
      const at = m.transformPoint({ x: p[0], y: p[1] });
      const k = Math.sqrt(Math.abs(m.a * m.d - m.b * m.c)); // device pixels per metre, in an inset too
      const size = k * r * 1.45;
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.font = `bold ${size.toFixed(1)}px system-ui, sans-serif`;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.fillText(look.text, at.x, at.y + size * 0.06);
    }
    ctx.restore();
  }

  _drawOverlayUnder() {
    const ctx = this.ctx;
    const o = this.overlay;
    const g = this.geo;
    const px = 1 / this.scale;
    const box = legalBox(o.legal);
    if (box) {
      const [x0, y0, x1, y1] = box;
      ctx.fillStyle = "rgba(255,255,255,0.14)";
      ctx.fillRect(x0, y0, x1 - x0, y1 - y0);
      ctx.setLineDash([6 * px, 4 * px]);
      ctx.strokeStyle = "rgba(255,255,255,0.7)";
      ctx.lineWidth = 1.5 * px;
      ctx.strokeRect(x0, y0, x1 - x0, y1 - y0);
      ctx.setLineDash([]);
      ctx.fillStyle = "rgba(0,0,0,0.22)";
      for (const p of (o.legal && o.legal.blocked) || []) dot(ctx, p[0], p[1], 2 * g.R);
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
    const called = o.callBall ? this.balls[o.callBall] : null;
    if (called) {
      const p = called;
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

  /** Where the object ball struck at `hit` runs: to the first ball, cushion or pocket mouth on its line.
   * @param {BallHit} hit */
  objectLine(hit) {
    return this.geo.objectLine(this.balls, hit);
  }

  /** An aim with the aids it asks for: the line to the first contact and the ghost ball; with the full aid the
   * potting window, the object ball's line in the preview's verdict, its real path, the cue ball's tangent and
   * the insets; the cue (pulled back with the power) unless the aim is faint. @param {Aim} aim */
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
    /** @param {number} px one CSS pixel in metres (smaller in an inset) */
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
      if (this.overlay.pull) this._drawPull(from, aim.speed || 0);
    }
  }

  /** The power while the cue is pulled back: a bar beside the cue ball with m/s.
   * @param {Point} from @param {number} speed */
  _drawPull(from, speed) {
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
  }

  /** Two magnified circles: the contact (ghost ball and object ball) and the called pocket's mouth with the
   * object ball's line, each where it hides least (_insetSpot): not over a ball, a pocket or its name, the aim's
   * lines, the cue or the area a ball is being placed in.
   * @param {BallHit} hit @param {{ pocket?: string | null }} called @param {(px: number) => void} paint
   * @param {Aim} aim */
  _drawInsets(hit, called, paint, aim) {
    const g = this.geo;
    const cssW = this.canvas.width / this.dpr;
    const cssH = this.canvas.height / this.dpr;
    const r = Math.max(38, Math.min(80, Math.min(cssW, cssH) * 0.14));
    const line = this.objectLine(hit);
    const target = line.from;
    const d = [Math.cos(radians(aim.direction)), Math.sin(radians(aim.direction))];
    const back = g.R + 0.03 + (aim.speed || 2) * 0.03;
    /** @type {[Point, Point][]} */
    const lines = [
      [aim.from, hit.at],
      [line.from, line.to],
      [[aim.from[0] - d[0] * back, aim.from[1] - d[1] * back], [aim.from[0] - d[0] * (back + 0.45), aim.from[1] - d[1] * (back + 0.45)]],
    ];
    /** @type {Point[]} */
    const labels = []; // the advisor's calls (a hint, the study's advice): their lines and labels
    for (const advice of this.overlay.advice || []) {
      const cue = advice.stroke.place || this.balls[advice.stroke.ball];
      if (!cue) continue;
      const others = { ...this.balls };
      delete others[advice.stroke.ball];
      const reach = g.cast(cue, advice.stroke.direction, others, advice.stroke.ball);
      lines.push([cue, reach.at]);
      const b = advice.ball && advice.pocket ? this.balls[advice.ball] : null;
      if (b && advice.pocket) lines.push([b, g.mouth(advice.pocket)]);
      labels.push(b || reach.at);
    }
    const paths = (this.overlay.preview && this.overlay.preview.paths) || {};
    for (const points of Object.values(paths)) {
      const every = Math.max(1, Math.ceil(points.length / 40));
      for (let i = every; i < points.length; i += every) lines.push([points[i - every], points[i]]);
    }
    const drawBalls = () => {
      for (const id of BALL_IDS) if (this.balls[id]) this._drawBall(id, this.balls[id]);
    };
    /** @type {Point} */
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
   * point): the best of a grid over the canvas.
   * @param {number} r @param {[Point, Point][]} lines @param {Inset[]} taken @param {Point[]} [labels]
   * @returns {Point} */
  _insetSpot(r, lines, taken, labels = []) {
    const g = this.geo;
    const cssW = this.canvas.width / this.dpr;
    const cssH = this.canvas.height / this.dpr;
    const k = this.scale;
    /** @type {[Point, number][]} */
    const circles = [];
    for (const id of BALL_IDS) {
      const p = this.balls[id];
      if (p) circles.push([this.toPx(p), g.R * k + 4]);
    }
    for (const id of POCKET_IDS) {
      const capture = this.table.pockets[id].capture;
      circles.push([this.toPx(capture.centre), capture.radius * 1.25 * k + 4]);
      circles.push([this.toPx(this._labelAt(id)), 10]);
    }
    for (const inset of taken) circles.push([inset.at, inset.r + 4]);
    for (const at of labels) circles.push([this.toPx(at), 60]);
    const segments = lines.map(([a, b]) => [this.toPx(a), this.toPx(b)]);
    /** @type {[number, number, number, number][]} */
    const rects = [];
    const legal = legalBox(this.overlay.legal);
    if (legal) {
      const a = this.toPx([legal[0], legal[1]]);
      const b = this.toPx([legal[2], legal[3]]);
      rects.push([Math.min(a[0], b[0]), Math.min(a[1], b[1]), Math.max(a[0], b[0]), Math.max(a[1], b[1])]);
    }
    const step = Math.max(6, r / 4);
    /** @type {{ at: Point, clear: number } | null} */
    let best = null;
    for (let y = r + 4; y <= cssH - r - 4; y += step) {
      for (let x = r + 4; x <= cssW - r - 4; x += step) {
        /** @type {Point} */
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

  /** One of the advisor's calls in its colour: the cue ball's line (from its place when in hand), the ghost ball,
   * the object ball's line to the pocket, and a label that covers no ball and no other label.
   * @param {Advice} advice @param {number} index */
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
    const b = advice.ball ? this.balls[advice.ball] : null;
    if (advice.pocket && b) {
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
    const text = advice.label || `${index + 1}: ${Math.round((advice.p_pot || 0) * 100)} % · ${fmtDecimal(advice.expected_points || 0, 1)}`;
    ctx.font = `bold ${Math.max(10, Math.round(this.scale * 0.05))}px system-ui, sans-serif`;
    const w = ctx.measureText(text).width + 8;
    // the first place near its ball where the label covers no ball and no other label
    if (index === 0) this._labelBoxes = [];
    const cssW = this.canvas.width / this.dpr;
    const cssH = this.canvas.height / this.dpr;
    const ballR = this.geo.R * this.scale + 2;
    const balls = Object.values(this.balls).flatMap((p) => (p ? [this.toPx(p)] : []));
    /** @param {number} bx @param {number} by */
    const overlaps = (bx, by) =>
      bx < 0 || by - 9 < 0 || bx + w > cssW || by + 9 > cssH ||
      this._labelBoxes.some((b) => bx < b.x + b.w && bx + w > b.x && by - 9 < b.y + 9 && by + 9 > b.y - 9) ||
      balls.some(([px, py]) => px + ballR > bx && px - ballR < bx + w && py + ballR > by - 9 && py - ballR < by + 9);
    /** @type {Point[]} */
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
   * positions interpolated by time. Resolves with the number of frames drawn.
   * @param {StrokeRecord[] | null | undefined} records @returns {Promise<{ frames: number, duration: number }>} */
  animate(records, speed = 1) {
    const { paths, duration } = mergeTrajectories(records);
    if (Object.keys(paths).length === 0) return Promise.resolve({ frames: 0, duration: 0 });
    this.animating = true;
    this._skip = false;
    this.canvas.dataset.animating = "true";
    const saved = this.overlay;
    this.overlay = { callBall: saved.callBall, callPocket: saved.callPocket };
    return new Promise((resolve) => {
      /** @type {number | null} */
      let start = null;
      let frames = 0;
      /** @param {number} now */
      const step = (now) => {
        if (start === null) start = now;
        const t = ((now - start) / 1000) * speed;
        const done = t >= duration || this._skip;
        const at = done ? duration : t;
        /** @type {Balls} */
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
   * `ms` milliseconds, ringed, and stays there. Resolves when it is there (at once when skipped).
   * @param {string} id @param {Point | null | undefined} from @param {Point} to @returns {Promise<void>} */
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
      /** @type {number | null} */
      let start = null;
      /** @param {number} now */
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

/** The lit placement area's box [x0, y0, x1, y1], or null when there is none (placement.js lights none for a
 * placement anywhere). @param {Legal | null | undefined} legal @returns {[number, number, number, number] | null} */
function legalBox(legal) {
  if (!legal || legal.x0 === undefined || legal.x1 === undefined || legal.y0 === undefined || legal.y1 === undefined) return null;
  return [legal.x0, legal.y0, legal.x1, legal.y1];
}

/** @param {CanvasRenderingContext2D} ctx @param {number} x @param {number} y @param {number} r */
function dot(ctx, x, y, r) {
  ctx.beginPath();
  ctx.arc(x, y, r, 0, 2 * Math.PI);
  ctx.fill();
}

/** @param {CanvasRenderingContext2D} ctx @param {number} x @param {number} y @param {number} w @param {number} h
 * @param {number} r */
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
