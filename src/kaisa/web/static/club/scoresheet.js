// The scoresheet (pöytäkirja) of a club match, to print and sign: players, table, date, each inning's points
// with the running score, the strokes of the inning as the marker numbered them, fouls with their clauses,
// runs, innings, the result and signature lines. The PDF button gets the same from the server as A4.

import "./club-strings.js";
import { applyLabels, lang, onLangChange, setLang, t } from "../shared/i18n.js";
import { el, fmtDate } from "../shared/ui.js";

/** @typedef {import("../shared/types/api").components["schemas"]} Schemas */
/** A foul on the sheet: its clause, points and text in both languages.
 * @typedef {{ clause: string, points: number, fi?: string, en: string }} SheetFoul */
/** The scoresheet as the server sends it, with the shapes the API leaves open spelled out.
 * @typedef {Omit<Schemas["Scoresheet"], "players" | "result" | "innings"> & {
 *   players: Schemas["PlayerOut"][],
 *   result: { winner: string, recorded?: Record<string, number>, scores: Record<string, number> } | null,
 *   innings: (Omit<Schemas["ScoresheetInning"], "fouls"> & { fouls: SheetFoul[] })[] }} Sheet */

/** @type {{ sheet: Sheet | null, id: string | null, api: string | null }} */
const state = { sheet: null, id: null, api: null };

/** The page's element `id`, which scoresheet.html holds. @param {string} id */
function byId(id) {
  return /** @type {HTMLElement} */ (document.getElementById(id));
}

/** The strokes of an inning as a range ("12–15"). @param {number[]} numbers */
function strokes(numbers) {
  if (!numbers.length) return "";
  return numbers.length === 1 ? String(numbers[0]) : `${numbers[0]}–${numbers[numbers.length - 1]}`;
}

/** A break's length as m:ss. @param {number} seconds */
function minutes(seconds) {
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

/** @param {Sheet} sheet @param {string} cueBall */
function nameOf(sheet, cueBall) {
  const player = sheet.players.find((p) => p.cue_ball === cueBall);
  return player ? player.name : cueBall;
}

/** @param {number} n */
function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

function render() {
  const s = state.sheet;
  const box = byId("sheet");
  if (!s) return;
  const names = s.players.map((p) => `${p.name} (${p.cue_ball || "–"})`);
  const game = s.competition;
  /** @type {HTMLAnchorElement} */ (byId("pdf")).href = `${state.api}.pdf?lang=${lang()}`;
  const facts = [`${t("ss.date")}: ${fmtDate(s.date)}`];
  if (s.table_label) facts.push(`${t("ss.table")}: ${s.table_label}`);
  if (game) facts.push(`${t("ss.competition")}: ${game.name}`);
  else if (s.event) facts.push(`${t("ss.event")}: ${s.event}`);
  const rows = s.innings.map((i) =>
    el(
      "tr",
      { "data-testid": "ss-inning" },
      el("td", { class: "num" }, String(i.number)),
      el("td", { class: "num" }, strokes(i.strokes)),
      ...[0, 1].map((seat) => el("td", { class: "num" }, i.player === seat ? `${signed(i.points)} → ${i.score}` : "")),
      el("td", { class: "fouls" }, i.fouls.map((f) => `§ ${f.clause} (${signed(f.points)}) ${f[lang()] || f.en}`).join("; ")),
    ),
  );
  const result = s.result;
  let resultText = t("ss.unfinished");
  if (game && game.points && (game.decided_by === "director" || !result)) {
    resultText = `${t("ss.result")}: ${game.points[0]} – ${game.points[1]}`;
    if (game.decided_by === "director" && s.id !== null) resultText += ` (${t("ss.byDirector")})`;
  } else if (result) {
    const winner = s.players.find((p) => p.cue_ball === result.winner);
    const scores = s.players.map((p) => (result.recorded || result.scores)[p.cue_ball ?? ""]).join(" – ");
    resultText = `${t("ss.result")}: ${scores} · ${t("ss.winner", { name: winner ? winner.name : result.winner })}`;
  }
  const breaks = Object.entries(s.breaks || {});
  box.replaceChildren(
    el("h1", { "data-testid": "ss-title" }, game && game.game !== null ? `${t("ss.title")} · ${t("ss.game", { n: game.game })} · ${t("ss.round", { n: game.round })}` : `${t("ss.title")} · ${t("ss.match", { id: s.id })}`),
    el("p", { class: "facts", "data-testid": "ss-facts" }, ...facts.map((f) => el("span", {}, f))),
    el("p", { class: "players" }, `1: ${names[0]} · 2: ${names[1]}`),
    el(
      "div",
      // a region that may scroll sideways on a phone: reachable and named for the keyboard and screen readers
      { class: "table-wrap", tabindex: "0", role: "region", "aria-label": t("ss.title") },
      el(
        "table",
        { "data-testid": "ss-table" },
        el("thead", {}, el("tr", {}, el("th", {}, t("ss.inning")), el("th", {}, t("ss.strokes")), ...s.players.map((p) => el("th", {}, el("span", { class: "th-name" }, `${p.name} `), `(${p.cue_ball || "–"})`)), el("th", {}, t("ss.fouls")))),
        el("tbody", {}, ...rows),
      ),
    ),
    el(
      "div",
      { class: "totals", "data-testid": "ss-totals" },
      ...[0, 1].map((seat) =>
        el("div", {}, `${names[seat]}: ${t("ss.innings")} ${s.inning_counts[seat]} · ${t("ss.runs")} ${s.runs[seat]} · ${t("ss.foulCount")} ${s.fouls[seat]}`),
      ),
      breaks.length
        ? el("div", { "data-testid": "ss-breaks" }, `${t("ss.breaks")}: ${breaks.map(([b, sec]) => `${nameOf(s, b)} (${b}) ${minutes(sec)}`).join(", ")}`)
        : null,
    ),
    el("p", { class: "result", "data-testid": "ss-result" }, resultText),
    el(
      "div",
      { class: "signatures" },
      el("div", {}, t("ss.sign.marker")),
      ...s.players.map((p) => el("div", {}, t("ss.sign.player", { name: p.name }))),
    ),
  );
  document.title = `Kaisa · ${t("ss.title")} ${game && game.game !== null ? t("ss.game", { n: game.game }) : s.id}`;
}

/** The sheet's address: a club match's (#/match/ID) or a competition game's (#/kaavio/COMPETITION/GAME). */
function route() {
  const hash = location.hash || "";
  const match = hash.match(/^#\/match\/(\d+)$/);
  if (match) return { id: match[1], api: `/api/club/matches/${match[1]}/scoresheet` };
  const game = hash.match(/^#\/kaavio\/(\d+)\/(\d+)$/);
  if (game) return { id: `${game[1]}/${game[2]}`, api: `/api/kaavio/competitions/${game[1]}/games/${game[2]}/scoresheet` };
  return null;
}

async function load() {
  const found = route();
  if (!found) return;
  state.id = found.id;
  state.api = found.api;
  const response = await fetch(found.api);
  if (response.ok) {
    state.sheet = /** @type {Sheet} */ (await response.json());
    render();
  } else {
    byId("sheet").textContent = t("sb.notFound", { id: state.id });
  }
  document.body.dataset.ready = "true";
}

applyLabels(document);
for (const button of document.querySelectorAll("[data-lang]")) {
  if (button instanceof HTMLElement) button.addEventListener("click", () => setLang(button.dataset.lang ?? ""));
}
byId("print").addEventListener("click", () => window.print());
onLangChange(render);
window.addEventListener("hashchange", load);
load();
