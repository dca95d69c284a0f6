// The stroke controls' and the call builder's logic (controls.js) without the page: the power from a pull of the
// bar, the cue tip kept inside its circle, the call text from its parts, and the called ball and pocket read back.
import "./support/browser.mjs";
import assert from "node:assert/strict";
import { test } from "node:test";

const c = await import("../../src/kaisa/web/static/table/controls.js");
const geometry = await import("../../src/kaisa/web/static/shared/geometry.js");

test("the power bar's pull gives 0.1 to 8 m/s in steps of 0.05, held at its ends", () => {
  assert.equal(c.speedFromPull(0), 0.1);
  assert.equal(c.speedFromPull(1), 8);
  assert.equal(c.speedFromPull(0.5), 4.05);
  assert.equal(c.speedFromPull(0.25), 2.1); // 2.075 to the nearest 0.05
  assert.equal(c.speedFromPull(-0.4), 0.1);
  assert.equal(c.speedFromPull(1.7), 8);
  for (let f = 0; f <= 1; f += 0.01) {
    const speed = c.speedFromPull(f);
    assert.ok(Math.abs(speed * 20 - Math.round(speed * 20)) < 1e-9, `${speed} is not a step of 0.05`);
  }
});

test("the cue tip is kept within half the ball's radius of its centre, in the direction it was put", () => {
  assert.deepEqual(c.clampTip(0.3, 0.4), { side: 0.3, follow: 0.4 }); // on the circle: kept
  assert.deepEqual(c.clampTip(0.6, 0.8), { side: 0.3, follow: 0.4 });
  assert.deepEqual(c.clampTip(0, -2), { side: 0, follow: -0.5 });
  assert.deepEqual(c.clampTip(0, 0), { side: 0, follow: 0 });
  const { side, follow } = c.clampTip(-3, 3);
  assert.ok(Math.abs(Math.hypot(side, follow) - c.MAX_TIP) < 1e-12);
  assert.ok(side < 0 && follow > 0 && Math.abs(side + follow) < 1e-12);
});

const NONE = { cueRoute: "", konsti: "", konstiBall: "", ball: "", ballRoute: "", konstiRoute: "", pocket: "" };

test("the call text is written in the referee's order from the selects and the routes", () => {
  assert.equal(c.callText({ ...NONE, ball: "R1", pocket: "FL" }), "R1 FL");
  assert.equal(c.callText({ ...NONE, ball: "R1", pocket: "FL", cueRoute: " h lf ", ballRoute: "rf" }), "h lf R1 rf FL");
  assert.equal(c.callText({ ...NONE, ball: "R2", pocket: "MR", konsti: "kara", konstiBall: "K", konstiRoute: "2" }), "kara K 2 R2 MR");
  assert.equal(c.callText({ ...NONE, ball: "R2", pocket: "MR", konsti: "kyyti", konstiBall: "W2" }), "kyyti W2 R2 MR");
  assert.equal(c.callText({ ...NONE, ball: "K", pocket: "HL", konsti: "kiss", konstiBall: "R1", konstiRoute: "1", ballRoute: "h" }), "K h kiss R1 1 HL");
});

test("no call text until both the ball and the pocket are chosen; a konsti without its ball is left out", () => {
  assert.equal(c.callText({ ...NONE, ball: "R1" }), "");
  assert.equal(c.callText({ ...NONE, pocket: "FL", cueRoute: "h" }), "");
  assert.equal(c.callText({ ...NONE, ball: "R1", pocket: "FL", konsti: "kara" }), "R1 FL");
});

test("the called ball is the ball word that does not follow kyyti, kara or kiss; the pocket is the last word", () => {
  assert.equal(c.calledBall("kara K 2 R2 MR"), "R2");
  assert.equal(c.calledBall("h lf r1 rf fl"), "R1");
  assert.equal(c.calledBall("K h kiss R1 1 HL"), "K");
  assert.equal(c.calledBall("kyyti W2"), null);
  assert.equal(c.calledBall(""), null);
  assert.equal(c.calledPocket("K h kiss R1 1 hl"), "HL");
  assert.equal(c.calledPocket("R1 rf"), null);
  assert.equal(c.calledPocket("  "), null);
});

test("the controls' direction is the geometry's normalised direction", () => {
  assert.equal(c.normaliseDirection, geometry.normaliseDirection);
  assert.equal(c.normaliseDirection(359.99995), 0);
});
