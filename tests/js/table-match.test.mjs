// The browser table's match logic that is not drawing: what Undo says it takes back (match.js) and each player's
// figures in the end-of-match summary (summary.js), run by node without a page.
import "./support/browser.mjs";
import assert from "node:assert/strict";
import { test } from "node:test";

const { setLang } = await import("../../src/kaisa/web/static/shared/i18n.js");
const { logItem, undoLabel } = await import("../../src/kaisa/web/static/table/match-log.js");
const { playerFigures } = await import("../../src/kaisa/web/static/table/summary.js");
const { adviceOf } = await import("../../src/kaisa/web/static/table/hint.js");

const person = { name: "Aino", kind: "human", cue_ball: "W1" };
const computer = { name: "Beginner", kind: "beginner", cue_ball: "W2" };
const eero = { name: "Eero", kind: "human", cue_ball: "W2" };
/** A stroke in the log. */
const stroke = (n, ball, call, points = 0) => ({ n, ball, call, points, passes: points <= 0 });

test("Undo names the person's last stroke and counts the computer's strokes after it", () => {
  setLang("en");
  const log = [stroke(1, "W1", "R1 HL", 2), stroke(2, "W1", null), stroke(3, "W2", "K FR", 6), stroke(4, "W2", "R2 ML")];
  // the person's last stroke (uncalled) and the computer's two after it; a phone's bar names the person's alone
  assert.deepEqual(undoLabel([person, computer], log), { full: "Undo your stroke without a call and the computer's 2 strokes", short: "Undo your stroke" });
  assert.equal(undoLabel([person, computer], log.slice(0, 3)).full, "Undo your stroke without a call and the computer's stroke");
  assert.deepEqual(undoLabel([person, computer], log.slice(0, 2)), { full: "Undo your stroke without a call", short: "Undo your stroke" });
  // the call is said when there is one
  assert.deepEqual(undoLabel([person, computer], log.slice(0, 1)), { full: "Undo your stroke “R1 HL”", short: "Undo “R1 HL”" });
});

test("Undo with two people says whose stroke it takes back; with no stroke it is plain Undo", () => {
  setLang("en");
  const label = undoLabel([person, eero], [stroke(1, "W1", "R1 HL", 2), stroke(2, "W2", "K FR")]);
  assert.deepEqual(label, { full: "Undo Eero's stroke “K FR”", short: "Undo “K FR” (Eero)" });
  const none = undoLabel([person, computer], []);
  assert.equal(none.full, none.short);
  setLang("fi");
  assert.match(undoLabel([person, eero], [stroke(1, "W1", null)]).full, /Aino/);
});

test("the log numbers a stroke as the server counts it, else one after the last; other actions are not logged", () => {
  const ruling = { shooter: "W2", points: 6, items: [], fouls: [], turn_passes: false };
  assert.deepEqual(logItem({ kind: "shot", call: "K FR" }, { ruling }, [], 263), { n: 263, ball: "W2", call: "K FR", points: 6, passes: false });
  assert.equal(logItem({ kind: "shot", call: null }, { ruling }, [stroke(219, "W1", null)]).n, 220);
  assert.equal(logItem({ kind: "shot", call: null }, { ruling }, []).n, 1);
  assert.equal(logItem({ kind: "choose", cue_ball: "W1" }, {}, []), null);
  assert.equal(logItem({ kind: "shot", call: null }, { ruling: null }, []), null);
});

test("a hint's suggestion is labelled with its call and odds, and names its call's ball and pocket", () => {
  setLang("en");
  const stroke = { ball: "W1", speed: 2, direction: 90, elevation: 0, side: 0, follow: 0 };
  const pot = adviceOf({ call: "K FR", p_pot: 0.624, stroke });
  assert.deepEqual([pot.label, pot.ball, pot.pocket], ["K FR · 62 %", "K", "FR"]);
  const safety = adviceOf({ call: null, p_pot: 0, stroke });
  assert.deepEqual([safety.ball, safety.pocket], [null, null]);
  assert.match(safety.label, / · 0 %$/);
});

/** An action of the history: a stroke by `shooter` ruled `points`. */
const shot = (shooter, points, { pot = points > 0, foul = points < 0, passes = points <= 0 } = {}) => ({
  action: { kind: "shot" },
  outcome: { ruling: { shooter, points, legal_pot: pot, fouls: foul ? [{ clause: "3", points, fi: "", en: "" }] : [], items: [], turn_passes: passes } },
});

test("the summary's figures: strokes, pots, fouls and the best run by seat, other actions left out", () => {
  const actions = [
    { action: { kind: "lag" }, outcome: {} },
    shot("W1", 2, { passes: false }),
    shot("W1", 6, { passes: false }),
    shot("W1", 0),
    shot("W2", -2),
    shot("W2", 3, { passes: false }),
    shot("W2", 0),
    shot("W1", 4),
    { action: { kind: "break" }, outcome: { ruling: null } },
  ];
  const [w1, w2] = playerFigures([person, computer], actions);
  assert.deepEqual({ strokes: w1.strokes, pots: w1.pots, fouls: w1.fouls, best: w1.best }, { strokes: 4, pots: 3, fouls: 0, best: 8 });
  assert.deepEqual({ strokes: w2.strokes, pots: w2.pots, fouls: w2.fouls, best: w2.best }, { strokes: 3, pots: 1, fouls: 1, best: 3 });
  // a player without a cue ball yet (before the choice) has no strokes
  assert.deepEqual(playerFigures([{ cue_ball: null }, { cue_ball: null }], actions).map((f) => f.strokes), [0, 0]);
});
