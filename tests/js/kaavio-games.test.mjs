// A kaavio's games as the competition pages show them (kaavio-games.js): the score in one line, in the page's
// language for a walkover, and the games grouped by round in the order of the rounds.
import "./support/browser.mjs";
import assert from "node:assert/strict";
import { test } from "node:test";

const { setLang } = await import("../../src/kaisa/web/static/shared/i18n.js");
await import("../../src/kaisa/web/static/kaavio/kaavio-strings.js");
const { byRound, scoreText } = await import("../../src/kaisa/web/static/kaavio/kaavio-games.js");

/** A game as the competition's view gives it, with what the test sets. */
function game(fields) {
  return { number: 1, round: 1, player1: 1, player2: 2, points1: "", points2: "", state: "ready", ...fields };
}

test("scoreText writes the points as typed, an empty column as 0", () => {
  assert.equal(scoreText(game({ points1: "60", points2: "42" })), "60–42");
  assert.equal(scoreText(game({ points1: "v", points2: "" })), "v–0");
  assert.equal(scoreText(game({})), "0–0");
});

test("scoreText says walkover for a seed with no opponent, in the page's language", () => {
  setLang("fi");
  assert.equal(scoreText(game({ player2: null })), "luovutusvoitto");
  setLang("en");
  assert.equal(scoreText(game({ player2: null })), "walkover");
});

test("byRound groups the games by round, the rounds in order and each round's games as given", () => {
  const games = [game({ number: 5, round: 2 }), game({ number: 1, round: 1 }), game({ number: 7, round: 3 }), game({ number: 2, round: 1 }), game({ number: 6, round: 2 })];
  const rounds = byRound(games);
  assert.deepEqual(
    rounds.map(([round, list]) => [round, list.map((g) => g.number)]),
    [
      [1, [1, 2]],
      [2, [5, 6]],
      [3, [7]],
    ],
  );
  assert.deepEqual(byRound([]), []);
});
