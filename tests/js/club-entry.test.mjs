// The marker's entry as data (club-entry.js): a typed call's parts, and the entry a stored stroke was made from,
// which a correction starts from and sends back with every field the page does not edit kept as it was.
import "./support/browser.mjs";
import assert from "node:assert/strict";
import { test } from "node:test";

const { callParts, entryOf, newEntry } = await import("../../src/kaisa/web/static/club/club-entry.js");

test("callParts reads the ball and the pocket of a call in any case, as far as it is typed", () => {
  assert.deepEqual(callParts(" k  fl "), { tokens: ["k", "fl"], ball: "K", pocket: "FL" });
  assert.deepEqual(callParts("R1"), { tokens: ["R1"], ball: "R1", pocket: null });
  assert.deepEqual(callParts(""), { tokens: [], ball: null, pocket: null });
  // an unknown ball or pocket is not guessed: the server's referee says what is wrong with the call
  assert.deepEqual(callParts("X FL"), { tokens: ["X", "FL"], ball: null, pocket: "FL" });
  assert.deepEqual(callParts("W2 ZZ"), { tokens: ["W2", "ZZ"], ball: "W2", pocket: null });
});

test("a new entry starts at the call with nothing marked", () => {
  const e = newEntry();
  assert.equal(e.target, "call");
  assert.equal(e.legal, true);
  assert.deepEqual(e.pots, []);
  assert.equal(e.nakki.size + e.off.size + e.cushion.size, 0);
  // each entry has its own sets: marking one never marks another
  e.nakki.add("R1");
  assert.equal(newEntry().nakki.size, 0);
});

const vocab = {
  fields: ["pots", "first_contact", "nakki", "off_table", "double_hit", "stopped_balls", "late_fall"],
  flags: [{ name: "double_hit", fi: "Kaksoiskosketus?", en: "Double hit?" }],
};

function stored(overrides = {}) {
  return {
    pots: [["R1", "FL"]],
    first_contact: "R1",
    nakki: ["R2"],
    off_table: [],
    called_as_called: true,
    cue_ball: "W1",
    cushion_pots: ["R1"],
    start: { balls: { W1: [0.5, 0.3], W2: [0.6, 1.2], R1: [0.4, 2.0], R2: [0.9, 2.1] } },
    final: { balls: { W1: [0.7, 0.9], W2: [0.6, 1.2], R2: [0.9, 2.1] } },
    late_fall: { ball: "R2", caused_by: "W1" },
    talonmies_angle: 0,
    hand_fault: null,
    double_hit: true,
    stopped_balls: ["K"],
    ...overrides,
  };
}

test("entryOf gives back the entry a stored stroke was made from, for a correction", () => {
  const e = entryOf({ call: "R1 FL", entry: stored() }, { shooter: "W1", fromHand: false }, vocab);
  assert.equal(e.callText, "R1 FL");
  assert.deepEqual(e.pots, [["R1", "FL"]]);
  assert.equal(e.first, "R1");
  assert.deepEqual([...e.nakki], ["R2"]);
  assert.deepEqual([...e.cushion], ["R1"]);
  // only the balls that moved; a ball gone into a pocket is a pot, not a move
  assert.deepEqual(e.moves, { W1: [0.7, 0.9] });
  assert.equal(e.place, null);
  assert.equal(e.wrongBall, false);
  assert.deepEqual(e.flags, { double_hit: true });
  // a field this page does not edit goes back as it was; the ones it edits are not kept twice
  assert.deepEqual(e.kept, { stopped_balls: ["K"] });
  assert.equal(e.lateBall, "R2");
  assert.equal(e.lateBy, "W1");
  assert.equal(e.talonmies, "0"); // an angle of 0 is an angle, not "none"
  assert.equal(e.handFault, "");
  assert.equal(e.target, "pots");
});

test("entryOf: a stroke from hand keeps the cue ball's place; the other cue ball struck is the wrong ball", () => {
  const e = entryOf({ call: null, entry: stored({ cue_ball: "W2", late_fall: null, talonmies_angle: null }) }, { shooter: "W1", fromHand: true }, vocab);
  assert.equal(e.callText, "");
  assert.deepEqual(e.place, [0.5, 0.3]);
  assert.equal(e.wrongBall, true);
  assert.equal(e.lateBall, "");
  assert.equal(e.lateBy, "");
  assert.equal(e.talonmies, "");
});
