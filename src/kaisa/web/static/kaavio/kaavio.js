// The competition pages: the director's page (create, register, draw, start games on tables, type results),
// the bracket for players and the hall TV. No rules live here: the server's kaavio (kaisa.competition) decides
// pairings, readiness and placings; these pages show what it answered and send the director's changes.

import "../club/club-strings.js";
import "./kaavio-strings.js";
import { applyLabels, lang, onLangChange, setLang, t } from "../shared/i18n.js";
import { byRound, scoreText } from "./kaavio-games.js";
import { el, fmtDate } from "../shared/ui.js";

/** The page's element `id` (kaavio.html holds it), of class `kind` (HTMLElement unless told).
 * @template {HTMLElement} [E=HTMLElement] @param {string} id @param {new () => E} [kind] @returns {E} */
function $(id, kind) {
  const node = document.getElementById(id);
  if (!(node instanceof (kind || HTMLElement))) throw new Error(`#${id}: no such element`);
  return /** @type {E} */ (node);
}
/** A form field as the page reads it by name: an input or a select (value, checked, options...).
 * @typedef {HTMLInputElement & HTMLSelectElement} Field */
/** A form of the page with its fields by name (the DOM's named access to form controls).
 * (Not HTMLFormElement itself: its `[name: string]: any` would make every field `any`.)
 * @typedef {{ [name: string]: Field } & Pick<HTMLFormElement, "addEventListener" | "contains">} Form */
/** The page's form `id`. @param {string} id @returns {Form} */
function formOf(id) {
  return /** @type {Form} */ (/** @type {unknown} */ ($(id, HTMLFormElement)));
}

/** @typedef {import("../shared/types/api").components["schemas"]} Schemas @typedef {import("./kaavio-games.js").Game} Game */
/** @typedef {import("./kaavio-games.js").Player} Player @typedef {import("./kaavio-games.js").Prizes} Prizes */
/** @typedef {import("./kaavio-games.js").Settings} Settings @typedef {import("./kaavio-games.js").View} View */
/** A change the director made, with the competition after it. @typedef {{ competition: View, answer: Record<string, any> }} Changed */
/** A choice of the new competition's form. @typedef {{ value: string, fi?: string, en?: string }} Choice */
/** Which page: home, a director's (with the link's token), the bracket or the hall TV.
 * @typedef {{ screen: "home" } | { screen: "director", id: number, token: string | null } | { screen: "bracket" | "tv", id: number }} Route */

const API = "/api/kaavio/competitions";
/** @type {{ kinds: Choice[], placings: Choice[], seedings: Choice[], search_reruns: Choice[] } | null} the bracket types (with the kaavio's own names), placing modes and seedings */
let choices = null;
const TOKEN_KEY = (/** @type {number} */ id) => `kaisa.kaavio.director.${id}`;

/** @type {Route} */
let route = { screen: "home" };
/** @type {View | null} the competition as last answered */
let view = null;
/** @type {EventSource | null} the live stream */
let source = null;
/** @type {string | null} the placing mode shown at the end */
let shownMode = null;
/** @type {Game | null} the game a dialog acts on */
let pending = null;

/** The competition shown, which every renderer has (`show` sets it first). */
function shown() {
  return /** @type {View} */ (view);
}

/** The competition's id on a page that shows one. */
function routeId() {
  return route.screen === "home" ? NaN : route.id;
}

// --- talking to the server ------------------------------------------------------------------------------------

/** @typedef {{ code?: string, detail?: unknown, fi?: string, en?: string }} Refusal */

class KaavioError extends Error {
  /** @param {number} status @param {Refusal | null} body */
  constructor(status, body) {
    super((body && (body.en || String(body.detail ?? ""))) || `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
  said() {
    if (this.status === 0) return t("kv.unreachable");
    return (lang() === "fi" ? this.body.fi : this.body.en) || this.message;
  }
}

function newKey() {
  // crypto.randomUUID needs a secure context; a club's LAN page is plain http
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
}

/** One JSON request of the competition API.
 * @param {string} method @param {string} path @param {unknown} [body]
 * @param {{ token?: string | null, key?: boolean }} [options] @returns {Promise<any>} the answer, typed by the caller */
async function call(method, path, body = undefined, { token = null, key = false } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["X-Kaisa-Token"] = token;
  if (key) headers["Idempotency-Key"] = newKey();
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new KaavioError(0, { code: "offline", fi: t("kv.unreachable"), en: t("kv.unreachable") });
  }
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new KaavioError(res.status, data);
  return data;
}

function token() {
  if (route.screen !== "director") return null;
  try {
    return localStorage.getItem(TOKEN_KEY(route.id));
  } catch {
    return route.token || null;
  }
}

// --- messages -------------------------------------------------------------------------------------------------

/** @type {ReturnType<typeof setTimeout> | undefined} */
let messageTimer = undefined;

/** @param {string} text @param {string} [kind] */
function showMessage(text, kind = "error") {
  $("message-text").textContent = text;
  const box = $("message");
  box.className = `message ${kind}`;
  box.dataset.kind = kind;
  box.hidden = false;
  clearTimeout(messageTimer);
  // a confirmation goes by itself; an error stays until it is read and closed
  if (kind === "info" && text !== t("kv.offline")) messageTimer = setTimeout(clearMessage, 6000);
}

function clearMessage() {
  $("message").hidden = true;
}

/** @param {unknown} error */
function showError(error) {
  console.error(error);
  showMessage(error instanceof KaavioError ? error.said() : error instanceof Error && error.message ? error.message : String(error));
}

// --- routing --------------------------------------------------------------------------------------------------

/** @returns {Route} */
function parseRoute() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  if (parts[0] === "director" && /^\d+$/.test(parts[1] || "")) return { screen: "director", id: Number(parts[1]), token: parts[2] || null };
  if ((parts[0] === "bracket" || parts[0] === "tv") && /^\d+$/.test(parts[1] || "")) return { screen: parts[0], id: Number(parts[1]) };
  return { screen: "home" };
}

/** @param {string} name */
function showScreen(name) {
  for (const id of ["screen-home", "screen-director", "screen-bracket"]) $(id).hidden = id !== `screen-${name}`;
  document.body.dataset.screen = name;
  document.body.classList.toggle("tv", route.screen === "tv");
}

async function enter() {
  route = parseRoute();
  if (source) source.close();
  source = null;
  view = null;
  clearMessage();
  if (route.screen === "director" && route.token) {
    try {
      localStorage.setItem(TOKEN_KEY(route.id), route.token);
    } catch {
      // private mode: the link's token lasts for this page
    }
  }
  if (route.screen === "home") {
    showScreen("home");
    await renderHome();
    await renderRanking();
    document.body.dataset.ready = "true";
    return;
  }
  showScreen(route.screen === "director" ? "director" : "bracket");
  if (route.screen === "director" && !token()) {
    await asBracket(t("kv.noToken"));
    return;
  }
  await reload();
  listen();
  document.body.dataset.ready = "true";
}

/** A director's link without a token, or with a wrong one: the bracket as anyone sees it, no director's buttons
 * that would only be refused, and what to do about it. @param {string} text */
async function asBracket(text) {
  try {
    localStorage.removeItem(TOKEN_KEY(routeId()));
  } catch {
    // private mode: nothing was kept
  }
  route = { screen: "bracket", id: routeId() };
  showScreen("bracket");
  document.body.dataset.denied = "true";
  await reload();
  showMessage(text);
  listen();
  document.body.dataset.ready = "true";
}

async function reload() {
  try {
    const path = route.screen === "director" ? `${API}/${route.id}/director` : `${API}/${routeId()}`;
    show(await call("GET", path, undefined, { token: token() }));
  } catch (error) {
    if (route.screen === "director" && error instanceof KaavioError && error.status === 403) {
      if (source) source.close();
      source = null;
      await asBracket(t("kv.badToken"));
      return;
    }
    showError(error);
  }
}

function listen() {
  source = new EventSource(`${API}/${routeId()}/stream`);
  source.addEventListener("view", (event) => {
    /** @type {View} */
    const next = JSON.parse(event.data);
    if (view && next.version === view.version && route.screen !== "director" && !hasLive(next)) return;
    if (route.screen === "director") reload(); // the director's view carries the markers' links
    else show(next);
  });
  source.onerror = () => {
    if (route.screen === "tv" || route.screen === "bracket") showMessage(t("kv.offline"), "info");
  };
  source.onopen = () => {
    if (!$("message").hidden && $("message").dataset.kind === "info") clearMessage();
  };
}

/** @param {View} v */
function hasLive(v) {
  return v.games.some((g) => g.live);
}

// --- the home screen ------------------------------------------------------------------------------------------

async function fillChoices() {
  if (!choices) choices = await call("GET", "/api/kaavio/choices");
  const known = /** @type {NonNullable<typeof choices>} */ (choices);
  const form = formOf("form-new");
  /** @param {Field} select @param {Choice[]} options @param {(choice: Choice) => string} label @param {string} fallback */
  const fill = (select, options, label, fallback) => {
    const chosen = select.value || fallback;
    select.replaceChildren(...options.map((o) => el("option", { value: o.value }, label(o))));
    select.value = chosen;
  };
  fill(form.kind, known.kinds, (k) => (lang() === "fi" ? k.fi : k.en) ?? k.value, "TuplaKaavio");
  fill(form.placing, known.placings, (p) => t(`kv.placing.${p.value}`), "points");
  fill(form.seeding, known.seedings, (x) => t(`kv.seeding.${x.value}`), "none");
  fill(form.rerun, known.search_reruns, (x) => t(`kv.rerun.${x.value}`), "kaisakaavio");
}

async function renderHome() {
  try {
    await fillChoices();
  } catch (error) {
    showError(error);
  }
  const form = formOf("form-new");
  if (!form.date.value) form.date.value = new Date().toISOString().slice(0, 10);
  /** @type {Schemas["CompetitionListed"][]} */
  let list = [];
  try {
    list = await call("GET", API);
  } catch (error) {
    showError(error);
  }
  const mine = (/** @type {number} */ id) => {
    try {
      return localStorage.getItem(TOKEN_KEY(id));
    } catch {
      return null;
    }
  };
  $("list").replaceChildren(
    ...(list.length
      ? list.map((c) =>
          el(
            "li",
            { "data-testid": "competition-item" },
            el("span", { class: "grow" }, el("b", {}, c.name), ` · ${fmtDate(c.date)} · ${t("kv.list.players", { n: c.players })} · `,
              t(c.finished ? "kv.list.finished" : c.drawn ? "kv.list.running" : "kv.list.open")),
            mine(c.id) ? el("a", { class: "button small", href: `#/director/${c.id}` }, t("kv.list.direct")) : null,
            el("a", { class: "button small", href: `#/bracket/${c.id}` }, t("kv.list.bracket")),
          ),
        )
      : [el("li", { class: "hint" }, t("kv.list.empty"))]),
  );
}

async function renderRanking() {
  const form = formOf("form-ranking");
  if (!form.since.value) form.since.value = `${new Date().getFullYear()}-01-01`;
  const query = new URLSearchParams({ since: form.since.value, until: form.until.value, name: form.name.value.trim() });
  for (const bonus of ["beat_1", "beat_2", "beat_3", "ko2_round1"]) if (Number(form[bonus].value) > 0) query.set(bonus, String(Number(form[bonus].value)));
  try {
    /** @type {Schemas["Ranking"]} */
    const ranking = await call("GET", `/api/kaavio/ranking?${query}`);
    $("ranking-hint").textContent = t("kv.rank.hint", { n: ranking.competitions.length });
    $("ranking").replaceChildren(
      el("thead", {}, el("tr", {}, el("th", {}, t("kv.final.place")), el("th", {}, t("kv.final.name")), el("th", {}, t("kv.rank.points")))),
      el("tbody", {}, ...ranking.rows.map((r) => el("tr", {}, el("td", {}, `${r.rank}.`), el("td", {}, r.name), el("td", {}, String(r.points))))),
    );
    $("ranking").hidden = ranking.rows.length === 0;
  } catch (error) {
    showError(error);
  }
}

// The prize split's fields (KAAVIO 10), on the new competition's form and the director's page.
/** @param {Form} form @returns {Prizes} */
function readPrizes(form) {
  /** @param {string} amount @param {string} unit */
  const share = (amount, unit) => ({ amount: Number(form[amount].value || 0), percent: form[unit].value === "pct" });
  return {
    sbil: share("sbil", "sbil_unit"),
    club: share("club_share", "club_unit"),
    winner_weight: Number(form.weight.value || 0),
    paid_places: Number(form.paid.value || 3),
  };
}

/** @param {Form} form @param {Settings} settings */
function fillPrizes(form, settings) {
  if (form.contains(document.activeElement)) return; // the director is typing
  const p = settings.prizes || { sbil: { amount: 0, percent: false }, club: { amount: 0, percent: false }, winner_weight: 50, paid_places: 3 };
  form.fee.value = String(settings.entry_fee);
  form.sbil.value = String(p.sbil.amount);
  form.sbil_unit.value = p.sbil.percent ? "pct" : "eur";
  form.club_share.value = String(p.club.amount);
  form.club_unit.value = p.club.percent ? "pct" : "eur";
  form.weight.value = String(p.winner_weight);
  form.paid.value = String(p.paid_places);
}

/** @param {Event} event */
async function savePrizes(event) {
  event.preventDefault();
  const form = formOf("form-prizes");
  try {
    const body = { entry_fee: Number(form.fee.value || 0), ...readPrizes(form) };
    /** @type {Changed} */
    const changed = await call("POST", `${API}/${routeId()}/prizes`, body, { token: token(), key: true });
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    show(changed.competition);
    showMessage(t("kv.prize.saved"), "info");
  } catch (error) {
    showError(error);
  }
}

// A past competition saved by KaisaKaavio: the file as the request body; the new competition opens for its director.
async function importFile() {
  const input = $("import-file", HTMLInputElement);
  const file = input.files && input.files[0];
  input.value = "";
  if (!file) return;
  try {
    let res;
    try {
      res = await fetch(`${API}/import`, { method: "POST", headers: { Accept: "application/json", "Content-Type": "application/xml" }, body: file });
    } catch {
      throw new KaavioError(0, null);
    }
    const data = await res.json().catch(() => null);
    if (!res.ok) throw new KaavioError(res.status, data);
    try {
      localStorage.setItem(TOKEN_KEY(data.id), data.token);
    } catch {
      // private mode
    }
    location.hash = data.director_url.replace(/^\/kaavio/, "");
    showMessage(t("kv.import.done", { name: file.name }), "info");
  } catch (error) {
    showError(error);
  }
}

/** @param {Event} event */
async function createCompetition(event) {
  event.preventDefault();
  const form = formOf("form-new");
  const body = {
    name: form.name.value.trim(),
    date: form.date.value,
    club: form.club.value.trim(),
    kind: form.kind.value,
    target: Number(form.target.value),
    placing: form.placing.value,
    seeding: form.seeding.value,
    search_rerun: form.rerun.value,
    entry_fee: Number(form.fee.value || 0),
    tables: form.tables.value.split(",").map((s) => s.trim()).filter(Boolean),
    prizes: readPrizes(form),
  };
  $("create", HTMLButtonElement).disabled = true;
  try {
    const made = await call("POST", API, body);
    try {
      localStorage.setItem(TOKEN_KEY(made.id), made.token);
    } catch {
      // private mode
    }
    location.hash = made.director_url.replace(/^\/kaavio/, "");
  } catch (error) {
    showError(error);
  } finally {
    $("create", HTMLButtonElement).disabled = false;
  }
}

// --- shared pieces --------------------------------------------------------------------------------------------

/** @param {number | null} number */
function playerName(number) {
  const p = shown().players.find((x) => x.number === number);
  return p ? shownName(p) : String(number);
}

// A player's name as the pages show it: with the club where another player has the same name.
/** @param {{ name: string, club: string }} p */
function shownName(p) {
  const same = shown().players.filter((x) => x.name.toLowerCase() === p.name.toLowerCase()).length > 1;
  return same && p.club ? `${p.name} (${p.club})` : p.name;
}

/** @param {Game} g @param {{ live?: boolean }} [options] */
function names(g, { live = false } = {}) {
  const winner = g.winner;
  const who = (/** @type {number} */ i) => {
    const number = i === 0 ? g.player1 : g.player2;
    if (number === null) return el("span", { class: "who" }, "—");
    const cls = winner === null ? "who" : winner === number ? "who won" : "who lost";
    return el("span", { class: cls }, el("small", { class: "num" }, `${number}`), playerName(number));
  };
  const middle = live && g.live
    ? el("span", { class: "score live", "data-testid": "live-score" }, `${g.live.scores[0]}–${g.live.scores[1]}`)
    : g.state === "played"
      ? el("span", { class: "score" }, scoreText(g))
      : el("span", { class: "vs" }, "–");
  return el("span", { class: "pair" }, who(0), middle, who(1));
}

/** @param {Game} g */
function meta(g) {
  const bits = [t("kv.gameRound", { n: g.number, r: g.round })];
  if (g.table) bits.push(t("kv.table", { t: g.table }));
  if (typeof g.hand_reason === "string") bits.push(g.hand_reason ? `${t("kv.byHand")}: ${g.hand_reason}` : t("kv.byHand"));
  return el("small", { class: "meta" }, bits.join(" · "));
}

/** @param {Game} g @param {HTMLElement[]} [actions] @param {{ live?: boolean }} [options] */
function gameItem(g, actions = [], { live = false } = {}) {
  /** @type {HTMLElement[]} */
  const extra = [];
  if (live && g.state === "running") {
    if (g.live) extra.push(el("small", { class: "meta", "data-testid": "live-innings" }, t("kv.liveInnings", { i: Math.max(...g.live.innings) })));
    else if (g.match_id) extra.push(el("small", { class: "meta" }, t("kv.waitingMarker")));
  }
  if ((g.state === "played" || g.state === "running") && g.player2 !== null) extra.push(sheetLink(g));
  return el(
    "li",
    { class: `game ${g.state}`, "data-testid": `game-${g.number}`, dataset: { number: g.number, state: g.state } },
    el("div", { class: "line" }, g.table && g.state === "running" ? el("span", { class: "table-chip" }, g.table) : null, names(g, { live })),
    el("div", { class: "sub" }, meta(g), ...extra, ...actions),
  );
}

/** The game's pöytäkirja (scoresheet): its club match's innings, or its players and result, under the competition,
 * the round and the game's own number. @param {Game} g */
function sheetLink(g) {
  return el(
    "a",
    { class: "button small", href: `/club/scoresheet#/kaavio/${shown().id}/${g.number}`, target: "_blank", rel: "noopener", "data-testid": `sheet-${g.number}` },
    t("kv.sheet"),
  );
}

/** @param {Game[]} games @param {(g: Game) => HTMLElement[]} actions */
function roundsBlock(games, actions) {
  const played = games.filter((g) => g.state === "played");
  if (!played.length) return [el("p", { class: "hint" }, t("kv.nothing"))];
  return byRound(played)
    .reverse()
    .map(([r, list]) =>
      el(
        "div",
        { class: "round", "data-testid": `round-${r}` },
        el("h3", {}, t("kv.round", { n: r })),
        el("ul", { class: "games compact" }, ...list.map((g) => gameItem(g, actions(g)))),
      ),
    );
}

function subtitle() {
  const view = shown();
  const s = view.settings;
  const kind = lang() === "fi" ? view.kind_label.fi : view.kind_label.en;
  const bits = [fmtDate(s.date), s.club, t("kv.sub", { kind, target: s.target, tables: s.tables.join(", ") })].filter(Boolean);
  return bits.join(" · ");
}

/** @param {HTMLElement} box */
function finalBlock(box) {
  const view = shown();
  if (!view.finished || !view.placings) {
    box.hidden = true;
    return;
  }
  box.hidden = false;
  const modes = Object.keys(view.placings);
  if (!shownMode || !modes.includes(shownMode)) shownMode = modes.includes(view.settings.placing) ? view.settings.placing : modes[0];
  const mode = /** @type {string} */ (shownMode);
  const rows = view.placings[mode];
  box.style.setProperty("--rows", String(rows.length));
  const winner = rows.find((r) => r.place === 1);
  const select = el(
    "select",
    { "data-testid": "placing-mode", onchange: (/** @type {Event} */ e) => { shownMode = /** @type {HTMLSelectElement} */ (e.target).value; finalBlock(box); } },
    ...modes.map((m) => el("option", { value: m, selected: m === shownMode }, t(`kv.placing.${m}`))),
  );
  const prizes = view.prizes && shownMode === view.settings.placing ? view.prizes : null;
  // no null child: replaceChildren would write it as the text "null" (a competition without prizes showed it)
  const parts = [
    el("h2", {}, t("kv.final.title")),
    winner ? el("p", { class: "winner", "data-testid": "winner" }, t("kv.final.winner", { name: winner.name })) : null,
    route.screen === "tv" ? el("p", { class: "mode", "data-testid": "placing-mode-tv" }, t(`kv.placing.${shownMode}`)) : el("label", { class: "mode" }, el("span", {}, t("kv.final.mode")), select),
    el(
      "table",
      { class: "placings", "data-testid": "placings" },
      el("thead", {}, el("tr", {}, ...["place", "name", "wins", "points"].map((k) => el("th", {}, t(`kv.final.${k}`))), prizes ? el("th", {}, "€") : null)),
      el(
        "tbody",
        {},
        ...rows.map((r, i) =>
          el("tr", {}, el("td", {}, `${r.place}.`), el("td", {}, r.name), el("td", {}, String(r.wins)), el("td", {}, String(r.points)),
            prizes ? el("td", { "data-testid": "prize" }, prizes[i] ? `${prizes[i].amount} €` : "") : null),
        ),
      ),
    ),
    prizes && view.prize_money ? el("p", { class: "hint", "data-testid": "prize-money" }, t("kv.prize.money", view.prize_money)) : null,
  ];
  box.replaceChildren(...parts.filter((part) => part !== null));
}

// --- the director's page --------------------------------------------------------------------------------------

/** @param {View} next */
function show(next) {
  view = next;
  if (route.screen === "director") renderDirector();
  else renderBracket();
  document.body.dataset.version = String(next.version);
}

/** @param {string} id */
const anchor = (id) => $(id, HTMLAnchorElement);

function renderDirector() {
  const v = shown();
  $("d-title").textContent = v.settings.name;
  $("d-sub").textContent = subtitle();
  anchor("d-bracket").href = `/kaavio#/bracket/${v.id}`;
  anchor("d-tv").href = `/kaavio#/tv/${v.id}`;
  anchor("d-xml").href = `${API}/${v.id}/kaisakaavio.xml`;
  $("d-link", HTMLInputElement).value = `${location.origin}/kaavio#/director/${v.id}/${token()}`;
  const base = `${API}/${v.id}`;
  anchor("d-sheets").href = `${base}/scoresheets.pdf?lang=${lang()}`;
  anchor("d-blank").href = `${base}/scoresheets.pdf?lang=${lang()}&blanks=10`;
  anchor("d-results-pdf").href = `${base}/results.pdf?lang=${lang()}`;
  anchor("d-results-csv").href = `${base}/results.csv?lang=${lang()}`;
  anchor("d-placings-csv").href = `${base}/placings.csv?lang=${lang()}`;
  $("d-placings-csv").hidden = !v.finished;
  // registration, and late entries until a round-2 game starts
  $("d-register").hidden = !v.late_entries;
  $("draw").hidden = v.drawn;
  $("d-register-title").textContent = t(v.drawn ? "kv.reg.lateTitle" : "kv.reg.title");
  $("d-register-hint").textContent = v.drawn ? t("kv.reg.late") : t("kv.reg.before", { n: v.players.length });
  $("draw", HTMLButtonElement).disabled = v.players.length < 4;
  formOf("form-player").seed.hidden = v.drawn || v.settings.seeding === "none";
  formOf("form-player").seed.max = v.settings.seeding === "24" ? "24" : "8";
  // games
  const running = v.games.filter((g) => g.state === "running");
  const ready = v.games.filter((g) => g.state === "ready");
  $("d-running-card").hidden = !v.drawn;
  $("d-ready-card").hidden = !v.drawn || v.finished;
  $("d-running").replaceChildren(
    ...(running.length ? running.map((g) => gameItem(g, runningActions(g), { live: true })) : [el("li", { class: "hint" }, t("kv.nothing"))]),
  );
  const free = v.tables.filter((x) => x.game === null).map((x) => x.table);
  $("d-tables").textContent = free.length ? t("kv.freeTables", { t: free.join(", ") }) : t("kv.noFreeTables");
  $("d-ready").replaceChildren(
    ...(ready.length
      ? ready.map((g) =>
          gameItem(g, [
            el("button", { type: "button", class: "primary", "data-testid": `start-${g.number}`, disabled: !free.length, onclick: () => openStart(g) }, t("kv.start")),
            el("button", { type: "button", "data-testid": `type-${g.number}`, onclick: () => openResult(g) }, t("kv.type")),
          ]),
        )
      : [el("li", { class: "hint" }, t("kv.nothing"))]),
  );
  $("d-players").replaceChildren(...v.players.slice().sort((a, b) => (a.number || 999) - (b.number || 999) || a.name.localeCompare(b.name)).map((p) => playerItem(p)));
  $("d-rounds").replaceChildren(...roundsBlock(v.games, (g) => (g.player2 === null ? [] : [el("button", { type: "button", class: "small", "data-testid": `correct-${g.number}`, onclick: () => openResult(g) }, t("kv.correct"))])));
  $("d-pair-card").hidden = !v.drawn || v.finished;
  $("d-rounds-card").hidden = !v.drawn;
  const options = v.players.filter((p) => !p.out && p.playing === null).map((p) => el("option", { value: p.number }, `${p.number} ${p.name}`));
  formOf("form-pair").a.replaceChildren(...options.map((o) => o.cloneNode(true)));
  formOf("form-pair").b.replaceChildren(...options);
  fillPrizes(formOf("form-prizes"), v.settings);
  finalBlock($("d-final"));
}

/** @param {Game} g */
function runningActions(g) {
  const view = shown();
  /** @type {HTMLElement[]} */
  const out = [];
  const url = view.markers && view.markers[String(g.number)];
  if (url) {
    out.push(el("a", { class: "button small", href: url, target: "_blank", rel: "noopener", "data-testid": `marker-${g.number}` }, t("kv.marker")));
    out.push(el("button", { type: "button", class: "small", "data-testid": `qr-${g.number}`, onclick: () => openMarker(g, url) }, t("kv.qr")));
  } else if (!g.match_id) {
    out.push(el("small", { class: "meta" }, t("kv.noMarker")));
  }
  out.push(el("button", { type: "button", class: "small", "data-testid": `type-${g.number}`, onclick: () => openResult(g) }, t("kv.type")));
  return out;
}

/** @param {Game} g @param {string} url */
async function openMarker(g, url) {
  // the club's QR code carries the link with this server's address on the club's network (not localhost)
  const [, match, secret] = /#\/match\/(\d+)\/(.+)$/.exec(url) || [];
  let link = location.origin + url;
  $("marker-title").textContent = t("kv.markerTitle", { n: g.number, t: g.table });
  $("marker-qr").replaceChildren();
  try {
    const res = await fetch(`/api/club/matches/${match}/marker-qr`, { headers: { "X-Kaisa-Token": decodeURIComponent(secret ?? "") } });
    if (res.ok && res.headers.get("X-Marker-Local") === "1") {
      // the server listens on this machine only: a code would send the phone nowhere, so say how to reach it
      $("marker-qr").replaceChildren(el("p", { class: "keep", "data-testid": "marker-qr-local" }, t("club.created.qrLocal")));
    } else if (res.ok) {
      link = res.headers.get("X-Marker-Url") || link;
      const img = el("img", { alt: link, src: URL.createObjectURL(await res.blob()) });
      $("marker-qr").replaceChildren(img);
    }
  } catch (error) {
    console.error(error);
  }
  $("marker-url", HTMLInputElement).value = link;
  anchor("marker-open").href = url;
  $("dlg-marker", HTMLDialogElement).showModal();
}

/** @param {string} text */
async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    showMessage(t("kv.copied"), "info");
  } catch {
    window.prompt(t("kv.copy"), text);
  }
}

/** @param {Player} p */
function playerItem(p) {
  const view = shown();
  let status = t("kv.status.in");
  let cls = "in";
  if (view.finished && !p.out) [status, cls] = [t("kv.status.winner"), "winner"];
  else if (p.out) [status, cls] = [t("kv.status.out"), "out"];
  else if (p.playing !== null) {
    const g = view.games.find((x) => x.number === p.playing);
    [status, cls] = [g && g.table ? t("kv.status.playing", { t: g.table }) : t("kv.status.playingHere"), "playing"];
  } else if (p.waiting) [status, cls] = [t("kv.status.waiting"), "waiting"];
  return el(
    "li",
    { class: `player ${cls}`, "data-testid": "player", dataset: { number: p.number } },
    el("small", { class: "num" }, p.number ? String(p.number) : "·"),
    el("span", { class: "grow" }, p.name, p.club ? el("small", { class: "club" }, ` ${p.club}`) : null,
      p.seed ? el("small", { class: "seed" }, ` ${t("kv.seeded", { n: p.seed })}`) : null),
    view.drawn ? el("small", { class: "rec" }, t("kv.record", { w: p.wins, l: p.losses })) : null,
    view.drawn ? el("small", { class: `status ${cls}` }, status) : null,
    route.screen === "director" && !view.drawn
      ? el("button", { type: "button", class: "small", "data-testid": "withdraw", onclick: () => withdraw(p) }, t("kv.withdraw"))
      : null,
  );
}

/** @param {Player} p */
async function withdraw(p) {
  if (!window.confirm(t("kv.withdrawAsk", { name: p.name }))) return;
  try {
    /** @type {Changed} */
    const changed = await call("POST", `${API}/${routeId()}/players/withdraw`, { name: p.name, club: p.club }, { token: token(), key: true });
    showMessage(t("kv.withdrawn", { name: p.name }), "info");
    show(changed.competition);
  } catch (error) {
    showError(error);
  }
}

/** @param {Event} event */
async function addPlayer(event) {
  event.preventDefault();
  const form = formOf("form-player");
  const name = form.name.value.trim();
  if (!name) return;
  try {
    /** @type {{ name: string, club: string, seed?: number }} */
    const body = { name, club: form.club.value.trim() };
    if (view && view.settings.seeding !== "none" && form.seed.value) body.seed = Number(form.seed.value);
    /** @type {Changed} */
    const changed = await call("POST", `${API}/${routeId()}/players`, body, { token: token(), key: true });
    form.seed.value = "";
    form.name.value = "";
    form.club.value = "";
    form.name.focus();
    showMessage(t("kv.reg.added", { name }), "info");
    show(changed.competition);
  } catch (error) {
    showError(error);
  }
}

async function draw() {
  $("draw", HTMLButtonElement).disabled = true;
  try {
    /** @type {Changed} */
    const changed = await call("POST", `${API}/${routeId()}/draw`, {}, { token: token(), key: true });
    showMessage(t("kv.drawn", { n: changed.competition.games.filter((g) => g.state === "ready").length }), "info");
    show(changed.competition);
  } catch (error) {
    showError(error);
    $("draw", HTMLButtonElement).disabled = false;
  }
}

/** @param {Game} g */
function openStart(g) {
  pending = g;
  const form = formOf("form-start");
  $("start-title").textContent = t("kv.start.title", { n: g.number, a: playerName(g.player1), b: playerName(g.player2) });
  const free = shown().tables.filter((x) => x.game === null).map((x) => x.table);
  form.table.replaceChildren(...free.map((x) => el("option", { value: x }, x)));
  $("start-lag-0").textContent = playerName(g.player1);
  $("start-lag-1").textContent = playerName(g.player2);
  form.lag.value = "0";
  form.marker.checked = true; // each game's own choice: a start without a marker does not carry over to the next
  $("start-lag", HTMLFieldSetElement).disabled = !form.marker.checked;
  $("dlg-start", HTMLDialogElement).showModal();
}

/** @param {Event} event */
async function start(event) {
  event.preventDefault();
  const g = /** @type {Game} */ (pending);
  const form = formOf("form-start");
  const body = {
    table: form.table.value || null,
    marker: form.marker.checked,
    lag_winner: Number(form.lag.value),
    winner_takes: form.takes.value,
    expect: [g.player1, g.player2],
  };
  $("dlg-start", HTMLDialogElement).close();
  try {
    /** @type {Changed} */
    const changed = await call("POST", `${API}/${routeId()}/games/${g.number}/start`, body, { token: token(), key: true });
    showMessage(t("kv.started", { n: g.number, t: changed.answer.table }), "info");
    await reload();
  } catch (error) {
    showError(error);
  }
}

/** @param {Game} g */
function openResult(g) {
  pending = g;
  const form = formOf("form-result");
  $("result-title").textContent = t("kv.result.title", { n: g.number });
  $("result-name-1").textContent = playerName(g.player1);
  $("result-name-2").textContent = playerName(g.player2);
  form.p1.value = g.points1 || "";
  form.p2.value = g.points2 || "";
  form.innings.value = g.innings ? String(g.innings) : "";
  form.l1.value = g.longest1 ? String(g.longest1) : "";
  form.l2.value = g.longest2 ? String(g.longest2) : "";
  $("dlg-result", HTMLDialogElement).showModal();
  form.p1.focus();
}

/** @param {Event} event */
async function saveResult(event) {
  event.preventDefault();
  const g = /** @type {Game} */ (pending);
  const form = formOf("form-result");
  const body = {
    points1: form.p1.value.trim(),
    points2: form.p2.value.trim(),
    innings: Number(form.innings.value || 0),
    longest1: Number(form.l1.value || 0),
    longest2: Number(form.l2.value || 0),
    expect: [g.player1, g.player2],
  };
  try {
    /** @type {Changed} */
    const changed = await call("POST", `${API}/${routeId()}/games/${g.number}/result`, body, { token: token(), key: true });
    $("dlg-result", HTMLDialogElement).close();
    const added = changed.answer.added || [];
    // a score that decides nothing is kept as an interim score: say so, and keep the message until it is read
    if (changed.answer.interim) showMessage(changed.answer.interim[lang() === "fi" ? "fi" : "en"], "warning");
    else showMessage(added.length ? t("kv.result.added", { n: g.number, k: added.length }) : t("kv.result.saved", { n: g.number }), "info");
    await reload();
  } catch (error) {
    showError(error);
  }
}

/** @param {Event} event */
async function pair(event) {
  event.preventDefault();
  const form = formOf("form-pair");
  try {
    /** @type {Changed} */
    const changed = await call("POST", `${API}/${routeId()}/pair`, { players: [Number(form.a.value), Number(form.b.value)], reason: form.reason.value.trim() }, { token: token(), key: true });
    form.reason.value = "";
    show(changed.competition);
  } catch (error) {
    showError(error);
  }
}

// --- the bracket and the hall TV ------------------------------------------------------------------------------

// --- the hall TV: the tables strip, the latest results, the games ready, who waits and who is out; one screen
// whatever the field (a TV cannot scroll): each list shows what fits and says how many more there are.

/** @param {Game} g @param {string} score */
function tvPair(g, score) {
  const who = (/** @type {number} */ i) => {
    const number = i === 0 ? g.player1 : g.player2;
    const cls = g.winner === null ? "who" : g.winner === number ? "who won" : "who lost";
    return el("span", { class: cls }, el("small", { class: "num" }, `${number}`), g.names[i] || playerName(number));
  };
  return el("span", { class: "tv-pair" }, who(0), el("span", { class: score ? "score" : "vs" }, score || "–"), who(1));
}

function renderTv() {
  const v = shown();
  $("tv-title").textContent = v.settings.name;
  $("tv-sub").textContent = subtitle();
  /** @type {Map<number, Game>} */
  const byNumber = new Map(v.games.map((g) => [g.number, g]));
  const n = v.tables.length;
  $("tv-tables").style.setProperty("--cols", String(n <= 8 ? n : Math.ceil(n / 2)));
  $("tv-tables").replaceChildren(
    ...v.tables.map((x) => {
      const g = x.game === null ? null : byNumber.get(x.game);
      const score = g ? (g.live ? `${g.live.scores[0]}–${g.live.scores[1]}` : `${g.points1 || "0"}–${g.points2 || "0"}`) : "";
      return el(
        "li",
        { class: g ? "tv-table busy" : "tv-table free", "data-testid": "tv-table", dataset: { table: x.table } },
        el("span", { class: "table-chip" }, x.table),
        g
          ? el("div", { class: "tv-game" },
              el("span", { class: "who" }, el("small", { class: "num" }, `${g.player1}`), g.names[0]),
              el("span", { class: "score live", "data-testid": "tv-live" }, score),
              el("span", { class: "who" }, el("small", { class: "num" }, `${g.player2}`), g.names[1]),
              el("small", { class: "meta" }, t("kv.tv.game", { n: g.number, r: g.round })))
          : el("span", { class: "tv-free" }, t("kv.tv.free")),
      );
    }),
  );
  const played = v.games.filter((g) => g.state === "played" && g.player2 !== null);
  played.sort((a, b) => (b.ended || "").localeCompare(a.ended || "") || b.number - a.number);
  const item = (/** @type {Game} */ g, /** @type {string} */ score) => el("li", { class: "tv-item" }, tvPair(g, score), el("small", { class: "meta" }, t("kv.tv.game", { n: g.number, r: g.round })));
  const list = (/** @type {string} */ id, /** @type {HTMLElement[]} */ items) => $(id).replaceChildren(...(items.length ? items : [el("li", { class: "hint" }, t("kv.nothing"))]));
  list("tv-latest", played.map((g) => item(g, scoreText(g))));
  list("tv-ready", v.games.filter((g) => g.state === "ready").map((g) => item(g, "")));
  $("tv-waiting").replaceChildren(...(v.players.filter((p) => p.waiting).map((p) => el("li", { class: "tv-chip" }, `${p.number} ${p.name}`))));
  if (!$("tv-waiting").children.length) $("tv-waiting").append(el("li", { class: "hint" }, t("kv.nobody")));
  $("tv-out").replaceChildren(...v.players.filter((p) => p.out).map((p) => el("li", { class: "tv-chip" }, `${p.number} ${p.name} (${p.wins}–${p.losses})`)));
  if (!$("tv-out").children.length) $("tv-out").append(el("li", { class: "hint" }, t("kv.nobody")));
  fitTv();
}

/** Trim each of the TV's lists to what its box shows, the last item saying how many more there are. */
function fitTv() {
  for (const box of document.querySelectorAll("#tv-board .tv-list, #tv-board .tv-tables, body.tv #b-final table.placings tbody")) {
    if (!(box instanceof HTMLElement)) continue;
    const scroller = box.tagName === "TBODY" ? $("b-final") : box;
    const over = () => scroller.scrollHeight > scroller.clientHeight + 1;
    let hidden = 0;
    while (over() && box.children.length > 1) {
      box.lastElementChild?.remove();
      hidden += 1;
    }
    if (!hidden) continue;
    const more = () => (box.tagName === "TBODY"
      ? el("tr", { class: "more" }, el("td", { colspan: "9" }, t("kv.tv.more", { n: hidden })))
      : el("li", { class: "more", "data-testid": "tv-more" }, t("kv.tv.more", { n: hidden })));
    box.append(more());
    while (over() && box.children.length > 2) {
      box.lastElementChild?.remove();
      box.lastElementChild?.remove();
      hidden += 1;
      box.append(more());
    }
  }
}

function renderBracket() {
  const v = shown();
  const tv = route.screen === "tv";
  $("tv-board").hidden = !tv || !v.drawn || v.finished;
  if (tv && v.drawn && !v.finished) {
    renderTv();
    return;
  }
  $("b-title").textContent = v.settings.name;
  $("b-sub").textContent = subtitle();
  anchor("b-pdf").href = `${API}/${v.id}/results.pdf?lang=${lang()}`;
  const pdfLine = $("b-pdf").closest("p");
  if (pdfLine) pdfLine.hidden = route.screen === "tv";
  const running = v.games.filter((g) => g.state === "running");
  const ready = v.games.filter((g) => g.state === "ready");
  $("b-running").replaceChildren(
    ...(running.length ? running.map((g) => gameItem(g, [], { live: true })) : [el("li", { class: "hint" }, t("kv.nothing"))]),
  );
  $("b-ready").replaceChildren(...(ready.length ? ready.map((g) => gameItem(g)) : [el("li", { class: "hint" }, t("kv.nothing"))]));
  const waiting = v.players.filter((p) => p.waiting);
  const out = v.players.filter((p) => p.out);
  $("b-waiting").textContent = waiting.length ? waiting.map((p) => `${p.number} ${shownName(p)}`).join(", ") : t("kv.none");
  $("b-out").textContent = out.length ? out.map((p) => `${p.number} ${shownName(p)} (${p.wins}–${p.losses})`).join(", ") : t("kv.none");
  $("b-rounds").replaceChildren(...roundsBlock(v.games, () => []));
  for (const id of ["b-running-card", "b-ready-card", "b-waiting-box"]) $(id).hidden = v.finished || !v.drawn;
  $("b-rounds-card").hidden = !v.drawn;
  finalBlock($("b-final"));
  if (tv) fitTv();
}

// --- start ----------------------------------------------------------------------------------------------------

function init() {
  let stored;
  try {
    stored = localStorage.getItem("kaisa.lang");
  } catch {
    stored = null;
  }
  if (stored !== "fi" && stored !== "en") setLang("fi"); // Finnish first: the clubs' language
  applyLabels(document);
  for (const button of document.querySelectorAll("[data-lang]")) {
    if (button instanceof HTMLElement) button.addEventListener("click", () => setLang(button.dataset.lang ?? ""));
  }
  onLangChange(() => {
    if (route.screen === "home") {
      fillChoices();
      renderRanking();
    }
    if (view) show(view);
  });
  $("message-close").addEventListener("click", clearMessage);
  formOf("form-new").addEventListener("submit", createCompetition);
  $("import-file").addEventListener("change", importFile);
  formOf("form-player").addEventListener("submit", addPlayer);
  $("draw").addEventListener("click", draw);
  formOf("form-start").addEventListener("submit", start);
  formOf("form-start").marker.addEventListener("change", () => ($("start-lag", HTMLFieldSetElement).disabled = !formOf("form-start").marker.checked));
  formOf("form-result").addEventListener("submit", saveResult);
  formOf("form-pair").addEventListener("submit", pair);
  formOf("form-prizes").addEventListener("submit", savePrizes);
  $("marker-copy").addEventListener("click", () => copy($("marker-url", HTMLInputElement).value));
  $("d-link-copy").addEventListener("click", () => copy($("d-link", HTMLInputElement).value));
  formOf("form-ranking").addEventListener("change", renderRanking);
  formOf("form-ranking").addEventListener("submit", (event) => {
    event.preventDefault();
    renderRanking();
  });
  for (const button of document.querySelectorAll("dialog [data-close]")) button.addEventListener("click", () => button.closest("dialog")?.close());
  window.addEventListener("hashchange", enter);
  window.addEventListener("resize", () => {
    if (view && route.screen !== "director") renderBracket();
  });
  enter();
}

init();
