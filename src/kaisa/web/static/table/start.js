// The start screen (a game against the computer or between two people) and the history of matches.

import { app } from "./state.js";
import { $, clearMessage, formOf, showError } from "./page.js";
import { showScreen } from "./layout.js";
import { api } from "../shared/api.js";
import { lang, levelDescription, levelName, playerName, t } from "../shared/i18n.js";
import { el } from "../shared/ui.js";

/** @typedef {import("./state.js").Schemas} Schemas @typedef {import("./state.js").MatchResult} MatchResult */
/** A match in the history (MatchSummary) with its result spelled out.
 * @typedef {Omit<Schemas["MatchSummary"], "result"> & { result: MatchResult | null }} Summary */

export const NAME_KEY = "kaisa.name";

// --- start and history screens -------------------------------------------------------------------------------

export async function enterStart() {
  showScreen("start");
  app.mode = null;
  const name = localStorage.getItem(NAME_KEY) || "";
  const form = formOf("form-computer");
  if (!form.name.value) form.name.value = name || t("start.defaultName");
  const two = formOf("form-two");
  if (!two.name1.value) two.name1.value = name || `${t("start.defaultName")} 1`;
  if (!two.name2.value) two.name2.value = `${t("start.defaultName")} 2`;
  renderLevels();
}

/** The computer's levels to choose from, by name in the page's language. */
export function renderLevels() {
  const select = formOf("form-computer").level;
  const keep = select.value || "beginner";
  const levels = Object.keys(app.players || {}).filter((k) => k !== "human");
  select.replaceChildren(...levels.map((k) => el("option", { value: k }, levelName(k))));
  select.value = levels.includes(keep) ? keep : levels[0];
  describeLevel();
}

export function describeLevel() {
  const level = formOf("form-computer").level.value;
  $("level-description").textContent = app.players && level ? levelDescription(level) : "";
}

/** Start a match and go to it. @param {Schemas["NewMatch"]["players"]} players @param {boolean} clock the clock on
 * @param {string | number | null} seed @param {Schemas["NewMatch"]["options"] | null} [options] the rule options */
export async function createMatch(players, clock, seed, options = null) {
  clearMessage();
  /** @type {Schemas["NewMatch"]} */
  const body = { players, clock: clock ? "wall" : "off" };
  if (seed !== null && seed !== "" && seed !== undefined) body.seed = Number(seed);
  if (options) body.options = options;
  try {
    /** @type {Schemas["MatchView"]} */
    const view = await api.createMatch(body);
    location.hash = `#/match/${view.id}`;
  } catch (error) {
    showError(error);
  }
}

export async function enterHistory() {
  showScreen("history");
  app.mode = null;
  const session = app.session;
  /** @type {Summary[]} */
  let matches;
  try {
    matches = await api.matches();
  } catch (error) {
    showError(error);
    return;
  }
  if (session !== app.session) return;
  const rows = $("history-rows");
  const locale = lang() === "fi" ? "fi-FI" : "en-GB";
  rows.replaceChildren(
    ...matches.map((m) => {
      // names with their recorded points, the winner in bold; the kind of a computer player after a name given
      // to it (one named after its level shows the level's name alone)
      const who = m.players.map((p) => {
        const shown = playerName(p);
        const label = `${shown}${p.kind === "human" || shown !== p.name ? "" : ` (${levelName(p.kind)})`}`;
        const won = m.result && p.cue_ball && m.result.winner === p.cue_ball;
        const points = m.result && p.cue_ball ? ` ${m.result.recorded[p.cue_ball]}` : "";
        return el(won ? "strong" : "span", { "data-testid": won ? "history-winner" : null }, `${label}${points}`);
      });
      const when = new Date(m.created_at).toLocaleString(locale, { dateStyle: "short", timeStyle: "short" });
      const result = m.result;
      const winner = result ? m.players.find((p) => p.cue_ball === result.winner) : undefined;
      const status = m.status === "over" ? (result ? t("history.won", { name: winner ? playerName(winner) : result.winner }) : t("history.over")) : t("history.playing");
      return el(
        "tr",
        { "data-testid": "history-row", dataset: { matchId: String(m.id), status: m.status } },
        el("td", { class: "who" }, el("div", {}, who[0], " – ", who[1]), el("div", { class: "hint", "data-testid": "history-date" }, when)),
        el("td", { "data-testid": "history-status" }, status),
        el("td", { "data-testid": "history-strokes", "data-label": t("history.strokes") }, m.strokes === null || m.strokes === undefined ? "" : String(m.strokes)),
        el(
          "td",
          {},
          el(
            "div",
            { class: "actions" },
            m.status !== "over" ? el("a", { class: "button small primary", href: `#/match/${m.id}`, "data-testid": "continue" }, t("history.continue")) : null,
            m.actions > 0 ? el("a", { class: "button small", href: `#/replay/${m.id}`, "data-testid": "replay" }, t("history.replay")) : null,
          ),
        ),
      );
    }),
  );
  $("history-empty").hidden = matches.length > 0;
}
