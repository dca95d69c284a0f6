// The spectator scoreboard of the scorekeeping mode, for a screen or a TV: one table (#/match/ID) or every
// table of a club night side by side (#/event/NAME), live from the server's event streams, with the clock
// ticking and the last ruling's headline. Read-only: nothing here changes a match, and no token is needed.

import { exportsOf } from "../shared/api.js";
import { $, headline, liveBadge, renderBoard, renderClock, setSkew, tableTitle, watch } from "./club-common.js";
import { serverTime } from "./club-queue.js";
import { applyLabels, onLangChange, setLang, t } from "../shared/i18n.js";
import { el } from "../shared/ui.js";

/** @typedef {import("./club-common.js").View} View */
/** What the page shows: one match, or a club night's tables. @typedef {{ kind: "match", key: number } | { kind: "event", key: string }} Route */

const sb = {
  /** @type {Route | null} */
  route: null,
  /** @type {number[]} match ids in the order the server gave them */
  order: [],
  /** @type {Map<number, View>} */
  views: new Map(),
  /** @type {Map<number, number>} id -> Date.now() when the clock last started counting (the last entry other than a break) */
  since: new Map(),
  /** @type {{ close(): void } | null} */
  stream: null,
  state: "connecting",
};

/** The view of match `id`, which the page has (ids come from `sb.order`). @param {number} id */
function viewOf(id) {
  return /** @type {View} */ (sb.views.get(id));
}

/** @param {string} text */
function showMessage(text) {
  $("message-text").textContent = text;
  $("message").className = "message error";
  $("message").hidden = false;
}

function clearMessage() {
  $("message").hidden = true;
}

/** @param {View[]} tables */
function update(tables) {
  sb.order = tables.map((v) => v.id);
  for (const view of tables) {
    const old = sb.views.get(view.id);
    if (!old || JSON.stringify(old) !== JSON.stringify(view)) {
      sb.since.set(view.id, clockStart(view));
      sb.views.set(view.id, view);
    }
  }
  document.body.dataset.updates = String(Number(document.body.dataset.updates || 0) + 1);
  render();
}

let skew = 0; // this device's clock minus the server's (ms), from the answers' server time

/** @param {View} view */
function clockStart(view) {
  const start = Date.parse(view.clock_since || view.updated_at || "");
  return Number.isFinite(start) ? start + skew : Date.now();
}

/** @param {Response} response */
function noteDate(response) {
  const server = serverTime(response);
  if (Number.isFinite(server)) {
    skew = Date.now() - server;
    setSkew(skew);
  }
}

/** Columns and rows for ``n`` tables on a 16:9 screen: side by side up to three, then two rows of two or three,
 * then rows of four. @param {number} n */
function gridOf(n) {
  const cols = n <= 3 ? Math.max(1, n) : n === 4 ? 2 : n <= 6 ? 3 : 4;
  return [cols, Math.max(1, Math.ceil(n / cols))];
}

/** A match that is over: its own result, or a competition game's result as the kaavio records it (the director's,
 * when typed or corrected). @param {View} view */
function finished(view) {
  return Boolean(view.result || (view.competition && view.competition.decided_by));
}

/** A finished game in one line: the table, the game, the players and the result. @param {View} view */
function doneItem(view) {
  const names = view.players.map((p) => p.name);
  const game = view.competition;
  const result = view.result;
  /** @type {string[] | null} */
  let points = null;
  if (game && game.points) points = game.points;
  else if (result) points = view.players.map((p) => String((result.recorded || result.scores || {})[p.cue_ball ?? ""] ?? ""));
  const where = [tableTitle(view)];
  if (game && game.game !== null) where.push(t("sb.game", { n: game.game }));
  return el(
    "li",
    { class: "sb-done-item", "data-testid": "sb-done", dataset: { matchId: view.id } },
    el("small", { class: "where" }, where.join(" · ")),
    el("span", { class: "who" }, names[0]),
    el("strong", { class: "score" }, points ? `${points[0]}–${points[1]}` : "–"),
    el("span", { class: "who" }, names[1]),
  );
}

function render() {
  const route = sb.route;
  if (!route) return;
  $("sb-live").replaceChildren(liveBadge(sb.state));
  const box = $("sb-tables");
  const single = route.kind === "match";
  box.classList.toggle("single", single);
  // a club night: a card for each game being played and for each table's last game played to its end (its last
  // ruling still on the screen), sized by how many there are (club.css); every other game finished, and a game
  // whose result the director typed, as one line below them, the latest first: each game once
  /** @param {View} view */
  const tableOf = (view) => view.table_label || `#${view.id}`;
  const latest = new Map(sb.order.map((id) => [tableOf(viewOf(id)), id]));
  /** @param {number} id */
  const card = (id) => {
    const view = viewOf(id);
    if (!finished(view)) return true;
    return latest.get(tableOf(view)) === id && !(view.competition && view.competition.decided_by === "director");
  };
  const live = single ? sb.order : sb.order.filter(card);
  const done = single ? [] : sb.order.filter((id) => !card(id)).reverse();
  const [cols, rows] = gridOf(live.length);
  box.style.setProperty("--cols", String(cols));
  box.style.setProperty("--rows", String(rows));
  box.dataset.count = String(live.length);
  const night = sb.order.map((id) => viewOf(id).competition).find(Boolean);
  if (night && !single) $("sb-heading").textContent = night.name;
  box.replaceChildren(
    ...live.map((id) => {
      const view = viewOf(id);
      const board = el("div", { class: "club-board" });
      renderBoard(board, view, { since: sb.since.get(id) });
      const line = headline(view) || (view.phase === "place-w2" ? t("sb.waiting") : "");
      const game = view.competition && view.competition.game !== null ? ` · ${t("sb.game", { n: view.competition.game })}` : "";
      return el(
        "section",
        { class: "sb-table", "data-testid": "sb-table", dataset: { matchId: id, phase: view.phase } },
        el("h2", { "data-testid": "sb-table-title" }, `${tableTitle(view)}${game} · ${view.players.map((p) => p.name).join(" – ")}`),
        board,
        el("div", { class: "sb-headline", "data-testid": "sb-headline" }, line),
      );
    }),
  );
  $("sb-done-box").hidden = done.length === 0;
  $("sb-done-list").replaceChildren(...done.map((id) => doneItem(viewOf(id))));
  fitDone();
  $("sb-empty").hidden = sb.order.length > 0 || single;
  const links =
    route.kind === "event"
      ? [
          [exportsOf.event(route.key, "csv"), `${t("sb.results")} CSV`],
          [exportsOf.event(route.key, "json"), `${t("sb.results")} JSON`],
          [exportsOf.event(route.key, "csv", "player"), t("club.export.players", { format: "CSV" })],
          [exportsOf.event(route.key, "json", "player"), t("club.export.players", { format: "JSON" })],
        ]
      : [
          [exportsOf.match(route.key, "csv"), "CSV"],
          [exportsOf.match(route.key, "json"), "JSON"],
        ];
  $("sb-links").replaceChildren(...links.map(([href, text]) => el("a", { href, target: "_blank", rel: "noopener", "data-testid": "sb-export" }, text)));
}

/** On a screen that cannot scroll (a TV, a desktop): the finished games that fit, the last line saying how many
 * more there are. A phone scrolls and shows them all. */
function fitDone() {
  const list = $("sb-done-list");
  if (window.innerWidth < 1000 || !list.children.length) return;
  const over = () => document.documentElement.scrollHeight > window.innerHeight;
  let hidden = 0;
  while (over() && list.children.length > 1) {
    list.lastElementChild?.remove();
    hidden += 1;
  }
  if (!hidden) return;
  const more = () => el("li", { class: "sb-done-item more", "data-testid": "sb-done-more" }, t("sb.more", { n: hidden }));
  list.append(more());
  while (over() && list.children.length > 2) {
    list.lastElementChild?.remove();
    list.lastElementChild?.remove();
    hidden += 1;
    list.append(more());
  }
}

function tick() {
  for (const section of document.querySelectorAll("[data-testid=sb-table]")) {
    if (!(section instanceof HTMLElement)) continue;
    const id = Number(section.dataset.matchId);
    const view = sb.views.get(id);
    const clock = section.querySelector("[data-testid=clock]");
    if (view && clock instanceof HTMLElement) renderClock(clock, view, sb.since.get(id));
  }
}

/** @param {string} state */
function onState(state) {
  sb.state = state;
  $("sb-live").replaceChildren(liveBadge(state));
}

async function route() {
  if (sb.stream) sb.stream.close();
  sb.stream = null;
  sb.views.clear();
  sb.since.clear();
  sb.order = [];
  clearMessage();
  const hash = location.hash || "#/";
  let m;
  if ((m = hash.match(/^#\/match\/(\d+)$/))) {
    sb.route = { kind: "match", key: Number(m[1]) };
  } else if ((m = hash.match(/^#\/event\/(.+)$/))) {
    sb.route = { kind: "event", key: decodeURIComponent(m[1]) };
  } else {
    sb.route = null;
  }
  $("sb-pick").hidden = sb.route !== null;
  $("sb-view").hidden = sb.route === null;
  if (sb.route) {
    const { kind, key } = sb.route;
    $("sb-heading").textContent = kind === "event" ? key : t("sb.matchNo", { id: key });
    document.title = `Kaisa · ${kind === "event" ? key : key}`;
    if (kind === "match") {
      const found = await fetch(`/api/club/matches/${key}`);
      if (!found.ok) {
        showMessage(t("sb.notFound", { id: key }));
        document.body.dataset.ready = "true";
        return;
      }
      noteDate(found);
      update([await found.json()]);
      sb.stream = watch(`/api/club/matches/${key}/stream`, (/** @type {View} */ view) => update([view]), onState);
    } else {
      const found = await fetch(`/api/club/events/${encodeURIComponent(key)}`);
      if (found.ok) {
        noteDate(found);
        update((await found.json()).tables);
      }
      sb.stream = watch(`/api/club/events/${encodeURIComponent(key)}/stream`, (/** @type {{ tables: View[] }} */ data) => update(data.tables), onState);
    }
  }
  document.body.dataset.ready = "true";
}

function main() {
  applyLabels(document);
  for (const button of document.querySelectorAll("[data-lang]")) {
    if (button instanceof HTMLElement) button.addEventListener("click", () => setLang(button.dataset.lang ?? ""));
  }
  onLangChange(() => {
    if (sb.route && sb.route.kind === "match") $("sb-heading").textContent = t("sb.matchNo", { id: sb.route.key });
    render();
  });
  $("sb-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = $("sb-form", HTMLFormElement);
    const field = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (form.elements.namedItem(name));
    const night = field("event").value.trim();
    if (night) location.hash = `#/event/${encodeURIComponent(night)}`;
    else if (field("match").value) location.hash = `#/match/${Number(field("match").value)}`;
  });
  window.addEventListener("hashchange", route);
  setInterval(tick, 1000);
  window.addEventListener("resize", render);
  route();
}

main();
