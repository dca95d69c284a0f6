// The marker's first screens: a new club match (players, lag, clock, club night, table), sent once whatever the
// connection does, and the match just made: its marker link (secret), scoreboard links and the marker's QR code.

import { $, formOf } from "./club-common.js";
import { ClubError, entryKey } from "./club-queue.js";
import { t } from "../shared/i18n.js";
import { clearMessage, recent, recentOf, remember, showError, showScreen } from "./club-shell.js";
import { el } from "../shared/ui.js";

/** @typedef {import("../shared/types/api").components["schemas"]} Schemas */

const EVENT_KEY = "kaisa.club.event";

export function enterNew() {
  showScreen("new");
  const form = formOf("form-new");
  form.event.value = form.event.value || localStorage.getItem(EVENT_KEY) || "";
  renderBreakerNames();
  const list = recent();
  $("recent").hidden = list.length === 0;
  $("recent-list").replaceChildren(
    ...list.map((m) =>
      el(
        "li",
        { "data-testid": "recent-item", dataset: { matchId: m.id } },
        el("span", {}, `#${m.id} ${m.names.join(" – ")}${m.event ? ` · ${m.event}` : ""}`),
        el("a", { class: "button small", href: `#/match/${m.id}/${m.token}` }, t("club.new.open")),
        el("a", { class: "button small", href: `/scoreboard#/match/${m.id}`, target: "_blank", rel: "noopener" }, t("club.new.watch")),
        el("a", { class: "button small", href: `#/created/${m.id}`, "data-testid": "recent-qr" }, t("club.new.qr")),
      ),
    ),
  );
}

export function renderBreakerNames() {
  const form = formOf("form-new");
  $("breaker-name-0").textContent = form.name1.value.trim() || t("club.new.player1");
  $("breaker-name-1").textContent = form.name2.value.trim() || t("club.new.player2");
}

const CREATE_RETRY_MS = [1000, 2000, 4000];
/** @type {{ key: string, body: string } | null} the new match's key, kept until the server answers (one match per form sent) */
let creation = null;

/** POST the new match with its key; a dropped connection is tried again with the same key (one match is made). */
/** @param {Schemas["NewClubMatch"]} body @returns {Promise<Schemas["ClubCreated"]>} */
async function postNewMatch(body) {
  const json = JSON.stringify(body);
  if (!creation || creation.body !== json) creation = { key: entryKey(), body: json };
  const headers = { "content-type": "application/json", "Idempotency-Key": creation.key };
  for (let attempt = 0; ; attempt++) {
    let response;
    try {
      response = await fetch("/api/club/matches", { method: "POST", headers, body: json });
    } catch (error) {
      if (attempt >= CREATE_RETRY_MS.length) throw new Error(t("club.new.offline"), { cause: error });
      await new Promise((resolve) => setTimeout(resolve, CREATE_RETRY_MS[attempt]));
      continue;
    }
    const data = await response.json().catch(() => null);
    if ([502, 503, 504].includes(response.status) && attempt < CREATE_RETRY_MS.length) {
      await new Promise((resolve) => setTimeout(resolve, CREATE_RETRY_MS[attempt]));
      continue;
    }
    if (!response.ok) throw new ClubError(response.status, data);
    creation = null;
    return data;
  }
}

/** @param {Event} event */
export async function createMatch(event) {
  event.preventDefault();
  const form = formOf("form-new");
  /** @type {[string, string]} */
  const names = [form.name1.value.trim(), form.name2.value.trim()];
  const night = form.event.value.trim();
  /** @type {Schemas["NewClubMatch"]} */
  const body = {
    players: names,
    // the form's radio buttons hold 0/1 and W1/W2; the server checks what it is sent
    lag_winner: /** @type {0 | 1} */ (Number(form.lagWinner.value)),
    winner_takes: /** @type {"W1" | "W2"} */ (form.takes.value),
    clock: form.clock.checked ? "wall" : "off",
  };
  if (night) body.event = night;
  const table = form.table.value.trim();
  if (table) body.table = table;
  const button = $("create", HTMLButtonElement);
  button.disabled = true;
  try {
    const made = await postNewMatch(body);
    const id = made.match.id;
    remember({ id, token: made.token, names, event: night || null, marker: made.marker_url, scoreboard: made.scoreboard_url });
    try {
      if (night) localStorage.setItem(EVENT_KEY, night);
    } catch {
      // private mode
    }
    clearMessage();
    location.hash = `#/created/${id}`;
  } catch (error) {
    showError(error);
  } finally {
    button.disabled = false;
  }
}

/** @param {number} id */
export function enterCreated(id) {
  const kept = recentOf(id);
  if (!kept) {
    location.hash = "#/new";
    return;
  }
  showScreen("created");
  const origin = location.origin;
  $("created-title").textContent = t("club.created.title", { id, a: kept.names[0], b: kept.names[1] });
  $("marker-link", HTMLInputElement).value = origin + kept.marker;
  $("scoreboard-link", HTMLInputElement).value = origin + kept.scoreboard;
  $("open-scoreboard", HTMLAnchorElement).href = kept.scoreboard;
  $("event-link-row").hidden = !kept.event;
  if (kept.event) {
    const board = `/scoreboard#/event/${encodeURIComponent(kept.event)}`;
    $("event-link", HTMLInputElement).value = origin + board;
    $("open-event", HTMLAnchorElement).href = board;
  }
  $("start-marking", HTMLAnchorElement).href = kept.marker;
  $("scoresheet-link", HTMLAnchorElement).href = `/club/scoresheet#/match/${id}`;
  // the marker's link as a QR code, made by the server with its address on the club's network
  const box = $("marker-qr");
  box.replaceChildren();
  $("marker-qr-local").hidden = true;
  fetch(`/api/club/matches/${id}/marker-qr`, { headers: { "X-Kaisa-Token": kept.token } })
    .then(async (response) => {
      if (!response.ok) return;
      // a server listening on this machine only: no phone can open the link, so no code; how to start it for phones
      const local = response.headers.get("x-marker-local") === "1";
      $("marker-qr-local").hidden = !local;
      const caption = box.parentElement?.querySelector("figcaption");
      if (caption) caption.hidden = local;
      $("marker-qr-url").textContent = local ? "" : response.headers.get("x-marker-url") || "";
      if (local) return;
      const svg = new DOMParser().parseFromString(await response.text(), "image/svg+xml").documentElement;
      svg.setAttribute("data-testid", "marker-qr-svg");
      svg.setAttribute("role", "img");
      box.replaceChildren(svg);
    })
    .catch(() => {});
}
