// The table's geometry and the aim's maths (geometry.js): the ghost ball, the first contact of a rolled ball,
// where the struck ball runs, directions, distances and the animation's sampling, with values worked by hand on
// a table of the official size; and the balls' looks, told apart without their colours.
import assert from "node:assert/strict";
import { test } from "node:test";

const g = await import("../../src/kaisa/web/static/shared/geometry.js");
const { Geometry } = g;

const R = 0.034;
/** A jaw whose point is `p` (only the points matter to the maths). */
const jaw = (p) => ({ side: "", point: p, tip: { centre: p, radius: 0.01 }, facing: [p, p] });
/** A pocket between the points `a` and `b`. */
const pocket = (a, b) => ({ mouth: 0.1, axis: [0, 0], jaws: [jaw(a), jaw(b)], capture: { centre: [(a[0] + b[0]) / 2, (a[1] + b[1]) / 2], radius: 0.036 } });
/** The official table's size (1.42 m x 2.84 m, balls of 34 mm radius) with corner pockets 0.1 m wide along each
 * cushion and side pockets 0.082 m wide at the centre line. */
const TABLE = {
  width: 1.42,
  length: 2.84,
  ball_radius: R,
  lines: { head_string: 0.71, centre_line: 1.42, foot_string: 2.13 },
  spots: { centre: [0.71, 1.42] },
  rails: {},
  pockets: {
    HL: pocket([0.05, 0], [0, 0.05]),
    HR: pocket([1.37, 0], [1.42, 0.05]),
    ML: pocket([0, 1.379], [0, 1.461]),
    MR: pocket([1.42, 1.379], [1.42, 1.461]),
    FL: pocket([0, 2.79], [0.05, 2.84]),
    FR: pocket([1.37, 2.84], [1.42, 2.79]),
  },
};
const geo = new Geometry(TABLE);

/** Two numbers (or points) equal to within `eps`. */
function near(actual, expected, eps = 1e-9) {
  if (Array.isArray(expected)) {
    assert.equal(actual.length, expected.length);
    expected.forEach((e, i) => near(actual[i], e, eps));
    return;
  }
  assert.ok(Math.abs(actual - expected) <= eps, `${actual} is not ${expected} (±${eps})`);
}

test("degrees and radians convert both ways, and a direction is normalised into (-180, 180] to 4 decimals", () => {
  near(g.degrees(Math.PI), 180);
  near(g.radians(90), Math.PI / 2);
  near(g.degrees(g.radians(-37.5)), -37.5);
  assert.equal(g.normaliseDirection(270), -90);
  assert.equal(g.normaliseDirection(-190), 170);
  assert.equal(g.normaliseDirection(540), 180);
  assert.equal(g.normaliseDirection(-180), 180);
  assert.equal(g.normaliseDirection(12.345678), 12.3457);
  assert.equal(g.normaliseDirection(-720.1), -0.1);
});

test("distances: between points, and from a point to a segment (its end when the foot falls outside it)", () => {
  assert.equal(g.dist([0, 0], [3, 4]), 5);
  near(g.segmentDistance([1, 1], [0, 0], [2, 0]), 1);
  near(g.segmentDistance([3, 4], [0, 0], [2, 0]), Math.sqrt(17));
  near(g.segmentDistance([-1, 0], [0, 0], [2, 0]), 1);
  near(g.segmentDistance([1, 1], [0, 0], [0, 0]), Math.SQRT2); // a segment of no length is its point
  near(g.extend([[0, 0], [3, 4]], 10), [6, 8]);
});

test("a pocket's mouth is halfway between its jaws' points; a ball fits on the bed clear of the cushions", () => {
  near(geo.mouth("HL"), [0.025, 0.025]);
  near(geo.mouth("MR"), [1.42, 1.42]);
  assert.ok(geo.fits([0.71, 1.42]));
  assert.ok(geo.fits([R + 0.001, R + 0.001]));
  assert.ok(!geo.fits([R, 1]), "touching the cushion is not clear of it (the safety margin)");
  assert.ok(!geo.fits([0.71, 2.84]));
  near(geo.clampToBed([-1, 5]), [R + 0.0005, 2.84 - R - 0.0005]);
  near(geo.clampToBed([0.5, 0.5]), [0.5, 0.5]);
});

test("a full-ball contact: the ghost ball two radii short of the object ball, which runs straight on", () => {
  const hit = geo.cast([0.71, 0.5], 90, { W1: [0.71, 0.5], R1: [0.71, 1.0] }, "W1");
  assert.equal(hit.kind, "ball");
  assert.equal(hit.ball, "R1");
  near(hit.t, 0.5 - 2 * R);
  near(hit.at, [0.71, 1.0 - 2 * R]);
  near(hit.objectDir, [0, 1]);
});

test("a half-ball contact (the object ball one radius off the line) sends the object ball 30° off the aim", () => {
  const hit = geo.cast([0.71, 0.5], 90, { R1: [0.71 + R, 1.0] });
  assert.equal(hit.kind, "ball");
  const back = 2 * R * Math.cos(Math.PI / 6); // the ghost ball's centre is 2R from the object ball's
  near(hit.at, [0.71, 1.0 - back]);
  near(hit.objectDir, [0.5, Math.sqrt(3) / 2]);
});

test("the first ball on the line is the one met; a ball behind, a ball missed and the excluded ball are not", () => {
  const balls = { W1: [0.71, 0.5], R1: [0.71, 1.5], R2: [0.71, 1.0], K: [0.71, 0.2], W2: [0.71 + 2.5 * R, 0.8] };
  const hit = geo.cast(balls.W1, 90, balls, "W1");
  assert.equal(hit.kind, "ball");
  assert.equal(hit.ball, "R2");
});

test("with nothing in the way the ball meets the cushion and comes off it mirrored", () => {
  const right = geo.cast([0.71, 0.5], 0, {});
  assert.equal(right.kind, "cushion");
  near(right.t, 1.42 - R - 0.71);
  near(right.at, [1.42 - R, 0.5]);
  near(right.reflected, [-1, 0]);
  const diagonal = geo.cast([0.71, 0.71], 45, {});
  assert.equal(diagonal.kind, "cushion");
  near(diagonal.at[0], 1.42 - R);
  near(diagonal.reflected, [-Math.SQRT1_2, Math.SQRT1_2]);
  const down = geo.cast([0.3, 1.0], -90, {});
  near(down.at, [0.3, R]);
  near(down.reflected, [0, 1]);
});

test("the ghost-ball aim of a straight pot along the table's diagonal is that diagonal, 45°", () => {
  // FR's mouth is (1.395, 2.815): the object ball and the cue ball on the 45° line through it
  const object = [1.395 - 0.5, 2.815 - 0.5];
  const cue = [object[0] - 0.6, object[1] - 0.6];
  near(geo.ghostAim(cue, object, "FR"), 45, 1e-9);
  // a cut: from straight below the object ball the aim leans left of the object ball, towards the ghost ball
  const cut = geo.ghostAim([object[0], object[1] - 0.6], object, "FR");
  const ghost = [object[0] - 2 * R * Math.SQRT1_2, object[1] - 2 * R * Math.SQRT1_2];
  near(cut, g.degrees(Math.atan2(ghost[1] - (object[1] - 0.6), ghost[0] - object[0])));
  assert.ok(cut > 90);
});

test("the object ball's line ends in the pocket it runs into, else at the cushion or ball it meets", () => {
  const object = [1.395 - 0.5, 2.815 - 0.5];
  const balls = { W1: [object[0] - 0.6, object[1] - 0.6], R1: object };
  const hit = geo.cast(balls.W1, 45, balls, "W1");
  assert.equal(hit.kind, "ball");
  const line = geo.objectLine(balls, hit);
  assert.equal(line.pocket, "FR");
  assert.equal(line.stop, "pocket");
  near(line.from, object);
  near(line.to, [1.395, 2.815], 1e-9);

  const straight = { W1: [1.0, 1.5], R1: [1.0, 2.2] };
  const up = geo.cast(straight.W1, 90, straight, "W1");
  if (up.kind !== "ball") throw new Error("R1 is straight ahead");
  const miss = geo.objectLine(straight, up);
  assert.equal(miss.pocket, null);
  assert.equal(miss.stop, "cushion");
  near(miss.to, [1.0, 2.84 - R]);

  const blocked = { W1: [1.0, 1.5], R1: [1.0, 2.0], K: [1.0, 2.4] };
  const onto = geo.cast(blocked.W1, 90, blocked, "W1");
  if (onto.kind !== "ball") throw new Error("R1 is straight ahead");
  const kissed = geo.objectLine(blocked, onto);
  assert.equal(kissed.stop, "ball");
  near(kissed.to, [1.0, 2.4 - 2 * R]);
});

test("the aid's verdict is the preview's ruling: pots, misses, or checking while there is none", () => {
  assert.equal(g.aidVerdict(null), "checking");
  assert.equal(g.aidVerdict({ paths: {}, pots: false, error: true, text: "no server" }), "checking");
  assert.equal(g.aidVerdict({ paths: {}, pots: true }), "pots");
  assert.equal(g.aidVerdict({ paths: {}, pots: false }), "misses");
});

test("a lag's two records merge: each mover's path from its own record, the longer duration", () => {
  const a = { stroke: { ball: "W1" }, trajectories: { t: [0, 1, 2], balls: { W1: [[0.3, 0.1], [0.3, 1.5], [0.3, 2.6]], W2: [[1.1, 0.1], [1.1, 0.1], [1.1, 0.1]] } } };
  const b = { stroke: { ball: "W2" }, trajectories: { t: [0, 1.5, 3], balls: { W1: [[0.3, 0.1], [0.3, 0.1], [0.3, 0.1]], W2: [[1.1, 0.1], [1.1, 1.6], [1.1, 2.5]] } } };
  const { paths, duration } = g.mergeTrajectories([a, b]);
  assert.equal(duration, 3);
  assert.deepEqual(paths.W1.samples, a.trajectories.balls.W1);
  assert.deepEqual(paths.W2.samples, b.trajectories.balls.W2);
  assert.deepEqual(paths.W2.t, [0, 1.5, 3]);
  assert.deepEqual(g.mergeTrajectories([{ trajectories: { t: [], balls: {} } }, { trajectories: null }]), { paths: {}, duration: 0 });
  assert.deepEqual(g.mergeTrajectories(null), { paths: {}, duration: 0 });
});

test("a path is sampled by time: held before its start and after its end, interpolated between, gone after a null", () => {
  const path = { t: [0, 1, 2, 3], samples: [[0, 0], [1, 2], [1, 4], null] };
  near(g.sampleAt(path, -1), [0, 0]);
  near(g.sampleAt(path, 0.5), [0.5, 1]);
  near(g.sampleAt(path, 1.25), [1, 2.5]);
  near(g.sampleAt(path, 2.5), [1, 4]); // dropping into a pocket: the last point is held until it is gone
  assert.equal(g.sampleAt(path, 3), null);
  assert.equal(g.sampleAt(path, 9), null);
});

/** The relative luminance of "#rrggbb" (WCAG 2.1): what a person who sees no colour still sees. */
function luminance(hex) {
  const [r, gr, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * gr + 0.0722 * b;
}

test("every ball is told apart without colour: its own number, letter or mark, in ink of contrasting lightness", () => {
  const looks = g.BALL_IDS.map((id) => g.ballLook(id));
  assert.deepEqual(looks.map((l) => l.text), [null, null, "1", "2", "K"]);
  assert.deepEqual(looks.map((l) => l.mark), ["dot", "ring", null, null, null]);
  const signs = new Set(looks.map((l) => `${l.text}/${l.mark}`));
  assert.equal(signs.size, g.BALL_IDS.length, "no two balls carry the same sign");
  for (const [i, look] of looks.entries()) {
    const [light, dark] = [luminance(look.colour), luminance(look.ink)].sort((x, y) => y - x);
    const ratio = (light + 0.05) / (dark + 0.05);
    assert.ok(ratio >= 3, `${g.BALL_IDS[i]}: its mark's contrast ${ratio.toFixed(2)} is under 3:1`);
  }
});

test("a ball's shaded edge is its colour at 55 %", () => {
  assert.equal(g.shade("#ffffff"), "rgb(140,140,140)");
  assert.equal(g.shade("#c3262c"), "rgb(107,21,24)");
});
