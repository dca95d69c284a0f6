// The replay's reckoning (table/replay-steps.js): the stroke an action is, the counter, the action a stroke jumps
// to, the scoreboard after an action and the list's words, on a history as the server stores it.
import "./support/browser.mjs";
import assert from "node:assert/strict";
import { test } from "node:test";

const { setLang, setPlayerKinds } = await import("../../src/kaisa/web/static/shared/i18n.js");
const steps = await import("../../src/kaisa/web/static/table/replay-steps.js");

// the computer's level as /api/players names it: a player named after it is shown by the level's name
setPlayerKinds({ club: { name: { fi: "seurapelaaja", en: "club player" }, description: { fi: "", en: "" } } });
const players = [
  { name: "Aino", kind: "human", cue_ball: "W1" },
  { name: "club", kind: "club", cue_ball: "W2" },
];

/** An action as /api/matches/ID/actions gives it, `strokes` strokes played after it. */
function action(index, kind, strokes, extra = {}) {
  return {
    index,
    player: extra.player ?? 0,
    action: { kind, ...(extra.action || {}) },
    outcome: extra.outcome || {},
    state_after: {
      phase: "play",
      position: { balls: { W1: [0.5, 0.3], K: [0.7, 1.4] } },
      game: { shooter: "W1", scores: { W1: strokes, W2: 0 }, in_hand: [] },
      owners: strokes || kind === "place-w2" ? ["W1", "W2"] : null,
      innings: { W1: 1, W2: 0 },
      run: 0,
      fouls: { W1: 0, W2: 0 },
      clock: { mode: "wall", elapsed: 10 * index, limit: 2700, final_innings: null },
      shootout: null,
      result: null,
      strokes,
    },
  };
}

/** A shot of `ball` by its owner, ruled `points`. */
function shot(index, strokes, ball = "W1", points = 6, call = "R1 ML") {
  return action(index, "shot", strokes, {
    action: { call, stroke: { ball, speed: 2.5, direction: -31.25, elevation: 0, side: 0, follow: 0 } },
    outcome: { ruling: { shooter: ball, points, items: [], fouls: [] } },
  });
}

// lag, choice, W2 placed, strokes 1-2, a break, strokes 3-4: 8 actions, 4 strokes
const history = [
  action(0, "lag", 0, { player: null }),
  action(1, "choose", 0, { action: { cue_ball: "W1" } }),
  action(2, "place-w2", 0, { player: 1, action: { point: [0.4, 0.25] } }),
  shot(3, 1),
  shot(4, 2, "W1", -2, null),
  action(5, "break", 2, { action: { cue_ball: "W2", seconds: 120 } }),
  shot(6, 3, "W2", 2, "K FL"),
  shot(7, 4, "W2", 0),
];

test("strokesAt counts strokes played: 0 at the start, through the lag and the placement, and while unread", () => {
  assert.deepEqual([-1, 0, 1, 2, 3, 4, 5, 6, 7].map((i) => steps.strokesAt(history, i)), [0, 0, 0, 0, 1, 2, 2, 3, 4]);
  const sparse = [];
  sparse[150] = shot(150, 109);
  assert.equal(steps.strokesAt(sparse, 150), 109);
  assert.equal(steps.strokesAt(sparse, 149), 0);
});

test("shownStroke names the stroke that is playing during its animation, not the one before it", () => {
  assert.equal(steps.shownStroke(history, 2), 0);
  assert.equal(steps.shownStroke(history, 2, 3), 1); // stroke 1 animates from the placement
  assert.equal(steps.shownStroke(history, 4, 5), 2); // the break after stroke 2 keeps 2
  assert.equal(steps.shownStroke(history, 5, 6), 3);
  const sparse = [];
  sparse[149] = shot(149, 108);
  assert.equal(steps.shownStroke(sparse, 149, 150), 108); // the next page not read yet: the shown one stays
});

test("counterText says stroke k of n in the page's language, whole numbers at any count", () => {
  setLang("fi");
  assert.deepEqual(steps.counterText(109, 250), { said: "lyönti 109 / 250", short: "109 / 250" });
  assert.deepEqual(steps.counterText(0, 4321), { said: "lyönti 0 / 4321", short: "0 / 4321" });
  setLang("en");
  assert.deepEqual(steps.counterText(4, 21), { said: "stroke 4 / 21", short: "4 / 21" });
  assert.deepEqual(steps.counterText(2.6, 21), { said: "stroke 3 / 21", short: "3 / 21" });
  assert.deepEqual(steps.counterText(30, 21).short, "21 / 21");
  assert.deepEqual(steps.counterText(Number.NaN, 21).short, "0 / 21");
});

test("strokeSpan: a jump to stroke s reads the actions from s - 1 to as many after as are not strokes", () => {
  // 8 actions, 4 strokes: 4 others may lie between
  assert.deepEqual(steps.strokeSpan(0, 4, 8), { target: 0, lo: -1, hi: -1 });
  assert.deepEqual(steps.strokeSpan(1, 4, 8), { target: 1, lo: 0, hi: 4 });
  assert.deepEqual(steps.strokeSpan(3, 4, 8), { target: 3, lo: 2, hi: 6 });
  assert.deepEqual(steps.strokeSpan(4, 4, 8), { target: 4, lo: 3, hi: 7 });
  assert.deepEqual(steps.strokeSpan(9, 4, 8), { target: 4, lo: 3, hi: 7 }); // past the end: the last stroke
  assert.deepEqual(steps.strokeSpan(-3, 4, 8).target, 0);
  assert.deepEqual(steps.strokeSpan(2.4, 4, 8).target, 2); // a scrubber's value as a whole stroke
  assert.deepEqual(steps.strokeSpan(Number.NaN, 4, 8).target, 0);
  // a long match: 2,600 actions, 2,512 strokes
  assert.deepEqual(steps.strokeSpan(2000, 2512, 2600), { target: 2000, lo: 1999, hi: 2087 });
});

test("actionOfStroke finds the first action after which the stroke is played (the shot, not the break after it)", () => {
  const at = (s) => steps.actionOfStroke(history, steps.strokeSpan(s, 4, 8));
  assert.deepEqual([0, 1, 2, 3, 4].map(at), [-1, 3, 4, 6, 7]);
});

test("actionIndex keeps an action in the match, -1 the start", () => {
  assert.equal(steps.actionIndex(-5, 8), -1);
  assert.equal(steps.actionIndex(3, 8), 3);
  assert.equal(steps.actionIndex(12, 8), 7);
  assert.equal(steps.actionIndex(Number.NaN, 8), -1);
  assert.equal(steps.actionIndex(0, 0), -1); // a match with no action yet
});

test("viewAt: the scoreboard at the start and after an action, from the state stored with it", () => {
  const base = {
    id: 7, actions: 8, strokes: 4, phase: "over", shooter: "W2", from_hand: false, players,
    scores: { W1: 60, W2: 12 }, innings: { W1: 5, W2: 4 }, run: 0, fouls: { W1: 1, W2: 2 },
    clock: { mode: "wall", elapsed: 900, limit: 2700, final_innings: ["W1"], warned: true },
    position: { balls: {} }, shootout: null, result: { winner: "W1", reason: "60 points (3)", recorded: { W1: 3, W2: 0 } },
  };
  const start = steps.viewAt(base, null, steps.initialBalls({ centre: [0.7, 1.4], "head-string": [0.7, 0.7], "foot-string": [0.7, 2.1] }));
  assert.equal(start.phase, "lag");
  assert.deepEqual(start.position.balls, { K: [0.7, 1.4], R1: [0.7, 0.7], R2: [0.7, 2.1] });
  assert.deepEqual(start.scores, { W1: 0, W2: 0 });
  assert.deepEqual(start.players.map((p) => p.cue_ball), [null, null]);
  assert.deepEqual(start.clock, { mode: "wall", elapsed: 0, limit: 2700, final_innings: null, warned: false });
  assert.equal(start.result, null);
  const after = steps.viewAt(base, history[6], {});
  assert.deepEqual(after.scores, { W1: 3, W2: 0 });
  assert.deepEqual(after.players.map((p) => p.cue_ball), ["W1", "W2"]);
  assert.equal(after.clock.elapsed, 60);
  assert.equal(after.clock.limit, 2700);
  assert.equal(after.result, null);
  assert.equal(after.id, 7);
});

test("the list and the action line in both languages: strokes numbered from the match's first", () => {
  setLang("en");
  assert.equal(steps.itemText(history[0], 0, players), "lag");
  assert.equal(steps.itemText(history[1], 1, players), "Aino takes W1");
  assert.equal(steps.itemText(history[2], 2, players), "W2 placed at (0.400, 0.250)");
  assert.equal(steps.itemText(history[3], 3, players), "1. Aino: R1 ML +6");
  assert.equal(steps.itemText(history[4], 4, players), "2. Aino: no call -2");
  assert.equal(steps.itemText(history[5], 5, players), "break of 120 s");
  assert.equal(steps.itemText(history[6], 6, players), "3. Club player: K FL +2");
  assert.equal(steps.itemText(undefined, 150, players), "151. loading…");
  assert.equal(steps.describe(history[3], players), "W1: R1 ML, 2.50 m/s at -31.3°");
  assert.equal(steps.whoOf(history[6], players), "Club player (W2)");
  assert.equal(steps.whoOf(history[0], players), null);
  assert.equal(steps.callOf(history[4]), null);
  assert.equal(steps.callOf(history[5]), undefined);
  setLang("fi");
  assert.equal(steps.itemText(history[2], 2, players), "W2 asetettu kohtaan (0,400, 0,250)");
  assert.equal(steps.itemText(history[4], 4, players), "2. Aino: ei maalausta -2");
  assert.equal(steps.describe(history[3], players), "W1: R1 ML, 2,50 m/s suuntaan −31,3°");
});

test("a club match's marked stroke and forfeit are said as such, not as a break", () => {
  const marked = action(3, "marked", 1, { action: { call: "R2 HL" }, outcome: { ruling: { shooter: "W1", points: 4, items: [], fouls: [] } } });
  const forfeit = action(9, "forfeit", 1, { action: { cue_ball: "W2", clause: "1.4" } });
  setLang("en");
  assert.equal(steps.describe(marked, players), "Aino (W1): R2 HL");
  assert.equal(steps.itemText(marked, 3, players), "1. Aino: R2 HL +4");
  assert.equal(steps.describe(forfeit, players), "1.4: W2 forfeits");
  setLang("fi");
  assert.equal(steps.describe(forfeit, players), "1.4: W2-pelaaja on hävinnyt ottelun kohdan 1.4 mukaisesti");
});
