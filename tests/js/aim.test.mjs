// The aiming aids (aim.js) without the page: the setting kept on the device, and the full aid's preview read
// from the server's answer (each moving ball's path, the ruling) and said in either language.
import "./support/browser.mjs";
import assert from "node:assert/strict";
import { test } from "node:test";

const { setLang } = await import("../../src/kaisa/web/static/shared/i18n.js");
const aids = await import("../../src/kaisa/web/static/table/aim.js");

test("the aids' level is full at first, kept on the device when set, and anything else is ignored", () => {
  assert.equal(aids.level(), "full");
  aids.setLevel("line");
  assert.equal(aids.level(), "line");
  assert.equal(localStorage.getItem("kaisa.aids"), "line");
  aids.setLevel("everything");
  assert.equal(aids.level(), "line");
  aids.setLevel("none");
  assert.equal(localStorage.getItem("kaisa.aids"), "none");
  aids.setLevel("full");
});

test("a preview keeps the paths of the balls that move, without the samples where a ball is gone", () => {
  const answer = {
    record: { trajectories: { balls: { W1: [[0.5, 0.5], [0.6, 0.9], [0.7, 1.3]], R1: [[1.0, 2.0], [1.1, 2.6], null, null], K: [[0.7, 2.1]] } } },
    ruling: { legal_pot: true, points: 6, fouls: [] },
  };
  const preview = aids.previewOf(answer, true);
  assert.deepEqual(preview.paths, { W1: [[0.5, 0.5], [0.6, 0.9], [0.7, 1.3]], R1: [[1.0, 2.0], [1.1, 2.6]] });
  assert.equal(preview.pots, true);
  assert.equal(preview.points, 6);
  assert.equal(preview.foul, false);
  assert.equal(preview.called, true);
});

test("a foul, a miss and an answer without record or ruling are read as such", () => {
  const foul = aids.previewOf({ ruling: { legal_pot: false, points: -3, fouls: [{ code: "no-contact" }] } });
  assert.deepEqual(foul, { paths: {}, pots: false, points: -3, foul: true, called: true });
  const bare = aids.previewOf({}, false);
  assert.deepEqual(bare, { paths: {}, pots: false, points: 0, foul: false, called: false });
});

test("the preview's line says the points with a sign, a real minus sign in Finnish, and what the stroke does", () => {
  setLang("en");
  assert.equal(aids.textOf({ paths: {}, pots: true, points: 6 }), "Preview: the call goes in (+6)");
  assert.equal(aids.textOf({ paths: {}, pots: false, points: 0, called: true }), "Preview: the call misses (0)");
  assert.equal(aids.textOf({ paths: {}, pots: false, points: -3, foul: true }), "Preview: a foul (-3)");
  assert.equal(aids.textOf({ paths: {}, pots: false, points: 2, called: false }), "Preview: no call was made, so nothing scores (+2)");
  assert.equal(aids.textOf({ paths: {}, pots: false, error: true, text: "the server cannot be reached" }), "the server cannot be reached");
  setLang("fi");
  assert.equal(aids.textOf({ paths: {}, pots: false, points: -3, foul: true }), "Ennuste: virhe (−3)");
  assert.equal(aids.textOf({ paths: {}, pots: true, points: 4 }), "Ennuste: maalattu pallo menee pussiin (+4)");
});
