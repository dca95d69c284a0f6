// A kaavio's games as the competition pages show them: what a game, a player and the competition are in the
// competition's view (the shapes the API's CompetitionView leaves open), a game's score in one line, the games by
// round. No rules here: the server's kaavio (kaisa.competition) decides every game.

import { t } from "../shared/i18n.js";

/** @typedef {import("../shared/types/api").components["schemas"]} Schemas */

/** A running game's live score from its club match, in the game's player order.
 * @typedef {{ match: number, phase: string, scores: number[], innings: number[], run: number, to_move: number | null,
 *   cue_balls: (string | null)[] }} LiveScore */
/** A game of the kaavio (KAAVIO 7) as the competition's view gives it.
 * @typedef {{ number: number, round: number, round1: number, round2: number, player1: number, player2: number | null,
 *   points1: string, points2: string, state: "empty" | "ready" | "running" | "played", table: string, innings: number,
 *   longest1: number, longest2: number, comment: string, started: string, ended: string, match_id: string,
 *   names: string[], clubs: string[], outcome: string, winner: number | null, hand_reason: string | null,
 *   live: LiveScore | null }} Game */
/** A registered player with his tallies.
 * @typedef {{ number: number, name: string, club: string, seed: number, wins: number, losses: number, games: number,
 *   points: number, out: boolean, playing: number | null, waiting: boolean }} Player */
/** A share of the entry fees (KAAVIO 10). @typedef {{ amount: number, percent: boolean }} Share */
/** The prize split. @typedef {{ sbil: Share, club: Share, winner_weight: number, paid_places: number }} Prizes */
/** The competition's settings.
 * @typedef {{ name: string, date: string, club: string, kind: string, target: number, placing: string, seeding: string,
 *   tables: string[], max_players: number, entry_fee: number, prizes?: Prizes | null }} Settings */
/** A placing at the end. @typedef {{ place: number, number: number, name: string, wins: number, points: number }} Placing */
/** The competition as the pages show it: the API's CompetitionView with the shapes it leaves open spelled out.
 * @typedef {Omit<Schemas["CompetitionView"], "games" | "players" | "settings" | "tables" | "placings" | "prizes"> & {
 *   games: Game[], players: Player[], settings: Settings, tables: { table: string, game: number | null }[],
 *   placings: Record<string, Placing[]> | null, prizes: { amount: number, [key: string]: unknown }[] | null }} View */

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
