// A kaavio's games as the competition pages show them: what a game is in the competition's view, its score in one
// line, the games by round. No rules here: the server's kaavio (kaisa.competition) decides every game.

import { t } from "./i18n.js";

/** A running game's live score from its club match, in the game's player order.
 * @typedef {{ match: number, phase: string, scores: number[], innings: number[], run: number, to_move: number | null,
 *   cue_balls: (string | null)[] }} LiveScore */
/** A game of the kaavio (KAAVIO 7) as the competition's view gives it.
 * @typedef {{ number: number, round: number, round1: number, round2: number, player1: number, player2: number | null,
 *   points1: string, points2: string, state: "empty" | "ready" | "running" | "played", table: string, innings: number,
 *   longest1: number, longest2: number, comment: string, started: string, ended: string, match_id: string,
 *   names: string[], clubs: string[], outcome: string, winner: number | null, hand_reason: string | null,
 *   live: LiveScore | null }} Game */

/** The game's score in one line: "60–42", or the walkover of a seed with no opponent.
 * @param {Game} g */
export function scoreText(g) {
  if (g.player2 === null) return t("kv.walkover");
  return `${g.points1 || "0"}–${g.points2 || "0"}`;
}

/** The games by round, the first round first.
 * @param {Game[]} games @returns {[number, Game[]][]} */
export function byRound(games) {
  /** @type {Map<number, Game[]>} */
  const rounds = new Map();
  for (const g of games) {
    const list = rounds.get(g.round) ?? [];
    rounds.set(g.round, list);
    list.push(g);
  }
  return [...rounds.entries()].sort((a, b) => a[0] - b[0]);
}
