// The study's game state as a person sets it (table/study-state.js): the referee's JSON it sends, who is in hand,
// the scores as typed, the state after a stroke, the advice once per call, the places behind the head string and
// the study kept on this device.
import "./support/browser.mjs";
import assert from "node:assert/strict";
import { test } from "node:test";

const { setLang } = await import("../../src/kaisa/web/static/shared/i18n.js");
const studied = await import("../../src/kaisa/web/static/table/study-state.js");

test("gameStateJson is the referee's game state: the 2.1 flag by its name, the kaisa's flag only when set", () => {
  const st = { scores: { W1: 12, W2: -3 }, in_hand: ["W2"], opening: false, twice: true, kaisa_off_centre: false };
  assert.deepEqual(studied.gameStateJson("W1", st), { shooter: "W1", scores: { W1: 12, W2: -3 }, in_hand: ["W2"], opening: false, last_pot_direct_middle_kaisa: true });
  const off = studied.gameStateJson("W2", { ...st, kaisa_off_centre: true });
  assert.equal(off.kaisa_off_centre, true);
  assert.equal(off.shooter, "W2");
  // a copy: editing the JSON leaves the study's state as it was
  off.scores.W1 = 0;
  off.in_hand.push("W1");
  assert.deepEqual(st.scores, { W1: 12, W2: -3 });
  assert.deepEqual(st.in_hand, ["W2"]);
});

test("fromHand: the shooter's ball in hand or the break puts it behind the head string", () => {
  const fresh = studied.freshState();
  assert.equal(studied.fromHand(fresh, "W1"), false);
  assert.equal(studied.fromHand({ ...fresh, opening: true }, "W1"), true);
  assert.equal(studied.fromHand({ ...fresh, in_hand: ["W2"] }, "W1"), false);
  assert.equal(studied.fromHand({ ...fresh, in_hand: ["W2"] }, "W2"), true);
});

test("withHand keeps who is in hand once each, in order", () => {
  assert.deepEqual(studied.withHand([], "W2", true), ["W2"]);
  assert.deepEqual(studied.withHand(["W2"], "W1", true), ["W1", "W2"]);
  assert.deepEqual(studied.withHand(["W1", "W2"], "W1", true), ["W1", "W2"]);
  assert.deepEqual(studied.withHand(["W1", "W2"], "W1", false), ["W2"]);
  assert.deepEqual(studied.withHand([], "W1", false), []);
});

test("scoreOf reads a typed score as a whole number, anything else as 0", () => {
  assert.equal(studied.scoreOf("12"), 12);
  assert.equal(studied.scoreOf("-7"), -7);
  assert.equal(studied.scoreOf("59.9"), 59);
  assert.equal(studied.scoreOf(""), 0);
  assert.equal(studied.scoreOf("abc"), 0);
});

test("stateAfterStroke: the scores as set, in hand and the kaisa's flag as ruled, 2.1 only while the inning goes on", () => {
  const st = { scores: { W1: 40, W2: 55 }, in_hand: [], opening: true, twice: false, kaisa_off_centre: false };
  const ruled = { shooter: "W2", scores: { W1: 46, W2: 55 }, in_hand: ["W1"], opening: false, last_pot_direct_middle_kaisa: true, kaisa_off_centre: true };
  assert.deepEqual(studied.stateAfterStroke(st, ruled, false), { scores: { W1: 40, W2: 55 }, in_hand: ["W1"], opening: false, twice: true, kaisa_off_centre: true });
  assert.deepEqual(studied.stateAfterStroke(st, ruled, true).twice, false);
  const plain = { shooter: "W1", scores: {}, in_hand: [], opening: false, last_pot_direct_middle_kaisa: false };
  assert.equal(studied.stateAfterStroke(st, plain, false).kaisa_off_centre, false);
});

test("stateFrom lays a saved state over a fresh one", () => {
  assert.deepEqual(studied.stateFrom(undefined), studied.freshState());
  assert.deepEqual(studied.stateFrom({ scores: { W1: 3, W2: 0 }, twice: true }), { scores: { W1: 3, W2: 0 }, in_hand: [], opening: false, twice: true, kaisa_off_centre: false });
});

test("stateSummary says the state in one line in the page's language", () => {
  const st = { scores: { W1: 12, W2: 30 }, in_hand: ["W2"], opening: true, twice: true, kaisa_off_centre: false };
  setLang("en");
  assert.equal(studied.stateSummary("W1", st), "W1 to play · 12–30 · the break · W2 in hand · 2.1");
  setLang("fi");
  assert.equal(studied.stateSummary("W1", st), "W1 lyö · 12–30 · aloituslyönti · W2 käsipallona · 2.1");
  assert.equal(studied.stateSummary("W2", studied.freshState()), "W2 lyö · 0–0");
});

test("distinctAdvice lists each call once (its best, first), at most five, with the called ball and pocket", () => {
  const advice = (call, ev) => ({ call, kind: "pot", expected_points: ev, p_pot: 0.5, p_foul: 0.1, p_win: 0.5, penalties: {}, position_value: 0, score: ev, window: 1, stroke: { ball: "W1", speed: 2, direction: 10, elevation: 0, side: 0, follow: 0 } });
  const answer = [advice("R1 ML", 3), advice("R1 ML", 2.5), advice(null, 0.2), advice("kyyti W2 K FR", 1.9), advice(null, 0.1), advice("R2 HL", 1), advice("K MR", 0.9), advice("W2 FL", 0.5)];
  const list = studied.distinctAdvice(answer);
  assert.deepEqual(list.map((a) => [a.call, a.expected_points, a.ball, a.pocket]), [
    ["R1 ML", 3, "R1", "ML"],
    [null, 0.2, null, null],
    ["kyyti W2 K FR", 1.9, "K", "FR"],
    ["R2 HL", 1, "R2", "HL"],
    ["K MR", 0.9, "K", "MR"],
  ]);
  assert.equal(studied.distinctAdvice(answer, 2).length, 2);
});

test("usualHandSpots: behind the head string, W2 trying them the other way round", () => {
  const w1 = studied.usualHandSpots(1.5, 3, "W1");
  assert.deepEqual(w1.map(([x, y]) => [Math.round(x * 1000), Math.round(y * 1000)]), [[930, 450], [570, 450], [750, 300], [1200, 600]]);
  assert.deepEqual(studied.usualHandSpots(1.5, 3, "W2"), [...w1].reverse());
});

test("the study kept on this device: read back when whole, nothing when damaged; a cue ball read as W1 or W2", () => {
  const kept = { position: { W1: [0.5, 0.3] }, shooter: "W2", state: { twice: true } };
  assert.deepEqual(studied.savedStudy(JSON.stringify(kept)), kept);
  for (const bad of [null, "", "{", "[]", "null", '{"position": 3}', '{"shooter": "W2"}']) assert.deepEqual(studied.savedStudy(bad), {}, String(bad));
  assert.equal(studied.cueBallOf("W2"), "W2");
  assert.equal(studied.cueBallOf("W1"), "W1");
  assert.equal(studied.cueBallOf("R1"), "W1");
  assert.equal(studied.cueBallOf(undefined), "W1");
});
