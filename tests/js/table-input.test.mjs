// What a press on the table's canvas takes (canvas-input.js pressOf), at a desktop's scale and a phone's: on a
// cue ball that may be moved (the study, a ball in hand) the ball moves, straight back along the aim too (issue
// 31); behind the ball on the aim line, off it, the cue is pulled; on a cue ball that may not move, the cue too.
import "./support/browser.mjs";
import assert from "node:assert/strict";
import { test } from "node:test";

const { pressOf } = await import("../../src/kaisa/web/static/table/canvas-input.js");

const R = 0.034; // m, the ball's radius
const cue = [0.88, 0.43];
const aim = { from: cue, ball: "W1", direction: 90 }; // up the table: "behind" is towards y = 0
const at = (dx, dy) => [cue[0] + dx, cue[1] + dy];
// px per metre: a desktop's table on its side at 1440x900, a phone's upright at 390x844, a small phone's
const SCALES = [330, 150, 95];

for (const scale of SCALES) {
  test(`at ${scale} px/m, a cue ball that may move is moved from on it and pulled from behind it`, () => {
    const study = { scale, R, ballHere: null, cueMoves: true, aims: true };
    // on the ball: the mode's own reach found it, or the fingertip's 12 px around its centre did
    assert.deepEqual(pressOf(cue, aim, { ...study, ballHere: "W1" }), { ball: "W1", kind: null });
    assert.deepEqual(pressOf(at(0, -Math.min(R, 11 / scale)), aim, study), { ball: "W1", kind: null });
    // behind it on the aim line, off the ball (4 ball radii, and 20 px across the line at most): the cue
    assert.deepEqual(pressOf(at(0, -4 * R), aim, study), { ball: null, kind: "pull" });
    assert.deepEqual(pressOf(at(19 / scale, -4 * R), aim, study), { ball: null, kind: "pull" });
    // beside the line behind the ball: the aim; in front near the line: the fine turn, not a pull
    assert.deepEqual(pressOf(at(40 / scale, -4 * R), aim, study), { ball: null, kind: null });
    assert.deepEqual(pressOf(at(0, 0.3), aim, study), { ball: null, kind: "fine" });
    assert.notEqual(pressOf(at(0, Math.max(1.5 * R, 14 / scale)), aim, study).kind, "pull");
  });

  test(`at ${scale} px/m, a cue ball that may not move is pulled from on it`, () => {
    const match = { scale, R, ballHere: null, cueMoves: false, aims: true };
    assert.deepEqual(pressOf(cue, aim, match), { ball: null, kind: "pull" });
    assert.deepEqual(pressOf(at(0, 2 * R), aim, match), { ball: null, kind: "pull" });
    assert.deepEqual(pressOf(at(0, -4 * R), aim, match), { ball: null, kind: "pull" });
  });
}

test("another ball the mode lets move is moved; without an aim or aiming a press only moves or clicks", () => {
  const study = { scale: 150, R, ballHere: "R1", cueMoves: true, aims: true };
  assert.deepEqual(pressOf([0.2, 2.2], aim, study), { ball: "R1", kind: null });
  assert.deepEqual(pressOf(at(0, -4 * R), null, { ...study, ballHere: null }), { ball: null, kind: null });
  assert.deepEqual(pressOf(at(0, -4 * R), aim, { ...study, ballHere: null, aims: false }), { ball: null, kind: null });
});
