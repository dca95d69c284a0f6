// The match's stroke log: the strokes numbered from the match's first, newest on top, and what Undo says it takes
// back. The numbering and Undo's words are pure functions (the node tests call them); renderLog draws the list.

import { $ } from "./page.js";
import { playerName, t } from "../shared/i18n.js";
import { ballChip, el, fmtPoints } from "../shared/ui.js";

/** @typedef {import("./state.js").Action} Action @typedef {import("./state.js").Outcome} Outcome */
/** @typedef {import("./state.js").Schemas} Schemas */
/** One of the match's history as the stroke log reads it (ActionOut). @typedef {{ action: Action, outcome: Outcome, state_after: { strokes: number } }} Logged */
/** A stroke in the log: its number in the match, whose cue ball, the call, the points, whether the turn passed.
 * @typedef {{ n: number, ball: string, call: string | null | undefined, points: number, passes: boolean | undefined }} LogItem */

/** The log's item of a stroke: numbered `n` (the strokes played up to it, as the server counts), else one after
 * the log's last; null for an action that is not a ruled stroke.
 * @param {Action} action @param {Outcome} outcome @param {LogItem[]} log @param {number | null} [n] @returns {LogItem | null} */
export function logItem(action, outcome, log, n = null) {
  if (action.kind !== "shot" || !outcome.ruling) return null;
  const number = n ?? (log.length ? log[log.length - 1].n + 1 : 1);
  return { n: number, ball: outcome.ruling.shooter, call: action.call, points: outcome.ruling.points, passes: outcome.ruling.turn_passes };
}

/** What Undo takes back, said in full and short (a phone's bar): the last person's stroke in `log` (the call
 * set apart in quotes; whose, by name, when two people play) and the computer's strokes after it. Pure: the node
 * tests call it. @param {Schemas["PlayerOut"][]} players @param {LogItem[]} log @returns {{ full: string, short: string }} */
export function undoLabel(players, log) {
  const people = players.filter((p) => p.kind === "human").length;
  let computer = 0;
  for (let i = log.length - 1; i >= 0; i--) {
    const seat = players.findIndex((p) => p.cue_ball === log[i].ball);
    if (seat >= 0 && players[seat].kind !== "human") {
      computer++;
      continue;
    }
    const call = log[i].call;
    const what = call ? t("match.undoCalled", { call }) : t("match.undoUncalled");
    if (people > 1 && seat >= 0) {
      const name = playerName(players[seat]);
      const short = call ? `${t("match.undoShortCalled", { call })} (${name})` : t("match.undoShortOf", { name });
      return { full: t("match.undoStrokeOf", { what, name }), short };
    }
    const short = call ? t("match.undoShortCalled", { call }) : t("match.undoShort");
    if (!computer) return { full: t("match.undoStroke", { what }), short };
    const full = computer === 1 ? t("match.undoStrokeAndOne", { what }) : t("match.undoStrokeAndMany", { what, n: computer });
    return { full, short };
  }
  return { full: t("match.undo"), short: t("match.undo") };
}

/** The log under the ruling; `earlier`: the match's id when strokes before the log's first were played (a link to
 * the replay for them). @param {LogItem[]} log @param {number | null} earlier */
export function renderLog(log, earlier) {
  const box = $("log");
  box.replaceChildren();
  if (!log.length) return;
  box.append(el("h3", {}, t("log.title")));
  // the strokes numbered from the first of the match, newest on top (the list scrolls)
  const list = el("ol", { class: "log-items", reversed: true });
  for (const item of log.slice().reverse()) {
    list.append(
      el("li", { "data-testid": "log-item", value: String(item.n) }, ballChip(item.ball), ` ${item.call ?? t("ruling.noCall")} `, el("span", { class: item.points < 0 ? "neg" : item.points > 0 ? "pos" : "" }, fmtPoints(item.points)), item.passes ? " ⇄" : ""),
    );
  }
  box.append(list);
  if (earlier !== null) box.append(el("p", { class: "hint" }, el("a", { href: `#/replay/${earlier}`, "data-testid": "log-earlier" }, t("log.earlier"))));
}
