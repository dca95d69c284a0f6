// The end of a match: the summary with the result and each player's figures, a rematch and the replay.

import { $, show } from "./page.js";
import { createMatch } from "./start.js";
import { api } from "../shared/api.js";
import { playerName, t } from "../shared/i18n.js";
import { el } from "../shared/ui.js";

/** @typedef {import("./state.js").View} View @typedef {import("./state.js").Outcome} Outcome */
/** @typedef {import("./state.js").Schemas} Schemas */
/** An action of the history as the summary reads it: its kind and outcome. @typedef {{ action: { kind: string }, outcome: Outcome }} Logged */
/** A player's figures in a match: strokes, legal pots, fouled strokes, the best run of points (`run`: the current).
 * @typedef {{ strokes: number, pots: number, fouls: number, best: number, run: number }} Figures */
/** What the summary needs of the match screen. @typedef {{ id: number, data: View | null, alive(): boolean }} Finished */

/** Each player's figures from the match's history (by seat): a stroke counts for the player whose cue ball
 * played it; a run is the points of an inning's strokes (a foul's negative points end nothing but add nothing).
 * Pure: the node tests call it.
 * @param {{ cue_ball: string | null }[]} players @param {Logged[]} actions @returns {Figures[]} */
export function playerFigures(players, actions) {
  const stats = players.map(() => ({ strokes: 0, pots: 0, fouls: 0, best: 0, run: 0 }));
  for (const a of actions) {
    const ruling = a.outcome && a.outcome.ruling;
    if (a.action.kind !== "shot" || !ruling) continue;
    const seat = players.findIndex((p) => p.cue_ball === ruling.shooter);
    if (seat < 0) continue;
    const s = stats[seat];
    s.strokes++;
    if (ruling.legal_pot) s.pots++;
    if (ruling.fouls.length) s.fouls++;
    s.run += Math.max(0, ruling.points);
    s.best = Math.max(s.best, s.run);
    if (ruling.turn_passes) s.run = 0;
  }
  return stats;
}

/** The end of a match: the result with names, and each player's innings, best run, pots and fouls. */
export async function showSummary(/** @type {Finished} */ mode) {
  const v = mode.data;
  if (!v || !v.result) return;
  /** @type {Logged[]} */
  let actions;
  try {
    // the whole history a page at a time, the pages asked for together
    /** @type {Promise<Logged[]>[]} */
    const pages = [];
    for (let offset = 0; offset < v.actions; offset += 200) pages.push(api.actions(mode.id, offset, 200));
    actions = (await Promise.all(pages)).flat();
  } catch {
    actions = [];
  }
  if (!mode.alive()) return;
  const r = v.result;
  const winner = v.players.find((p) => p.cue_ball === r.winner);
  $("summary-title").textContent = t("summary.title", { name: winner ? playerName(winner) : r.winner });
  const stats = playerFigures(v.players, actions);
  /** @type {[string, (p: Schemas["PlayerOut"], i: number) => string][]} */
  const rows = [
    ["summary.player", (p) => playerName(p)],
    ["summary.points", (p) => String(p.cue_ball ? r.recorded[p.cue_ball] : 0)],
    ["summary.innings", (p) => String(p.cue_ball ? v.innings[p.cue_ball] : 0)],
    ["summary.bestRun", (_p, i) => String(stats[i].best)],
    ["summary.pots", (_p, i) => (stats[i].strokes ? `${stats[i].pots}/${stats[i].strokes} (${Math.round((100 * stats[i].pots) / stats[i].strokes)} %)` : "0")],
    ["summary.fouls", (p, i) => String(p.cue_ball ? v.fouls[p.cue_ball] || stats[i].fouls : stats[i].fouls)],
  ];
  $("summary-rows").replaceChildren(
    ...rows.map(([key, of]) => el("tr", {}, el("th", {}, t(key)), ...v.players.map((p, i) => el("td", { "data-testid": `summary-${key.split(".")[1]}-${i}` }, of(p, i))))),
  );
  $("summary-rematch").onclick = () => {
    show("summary", false);
    // the same players, clock and game length (3: a shorter or longer game than 60 is a rule option)
    const options = v.winning_score && v.winning_score !== 60 ? { winning_score: v.winning_score } : null;
    const [a, b] = v.players;
    // the kinds are the server's own (PlayerOut's kind is one of PlayerIn's)
    const kind = (/** @type {string} */ k) => /** @type {Schemas["kaisa__web__schemas__PlayerIn"]["kind"]} */ (k);
    createMatch([{ name: a.name, kind: kind(a.kind) }, { name: b.name, kind: kind(b.kind) }], v.clock.mode === "wall", null, options);
  };
  $("summary-replay").onclick = () => {
    show("summary", false);
    location.hash = `#/replay/${mode.id}`;
  };
  show("summary", true);
}
