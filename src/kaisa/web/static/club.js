// The marker's page of the scorekeeping mode: a new club match, then the strokes of a real match as the marker
// saw them, fast with the keyboard and by touch. The server's referee rules every entry; this page shows only
// what the server answered (nothing is confirmed before it said 200), and every refusal's `detail` visibly.
// This module wires the page: its routes (#/new, #/created/ID, #/match/ID/TOKEN), its buttons, the small tables and
// the keyboard; the screens live in club-new.js and club-match.js (drawn by club-match-screen.js).

import { api } from "./api.js";
import {
  $,
  MiniTable,
  onTablePointer,
} from "./club-common.js";
import { ClubError } from "./club-queue.js";
import { onKey } from "./club-keys.js";
import { MatchPage } from "./club-match.js";
import { createMatch, enterCreated, enterNew, renderBreakerNames } from "./club-new.js";
import { club, clearMessage, shownMessage, showError, showMessage } from "./club-shell.js";
import { applyLabels, onLangChange, setLang, t } from "./i18n.js";

// --- wiring -------------------------------------------------------------------------------------------------

function wire() {
  for (const button of document.querySelectorAll("[data-lang]")) button.addEventListener("click", () => setLang(button.dataset.lang));
  onLangChange(() => {
    if (shownMessage && !$("message").hidden) $("message-text").textContent = shownMessage();
    if (document.body.dataset.screen === "new") enterNew();
    if (document.body.dataset.screen === "created") enterCreated(Number((location.hash.match(/^#\/created\/(\d+)/) || [])[1]));
    if (club.page) {
      club.page.buildPickers();
      club.page.render();
      club.page.checkCall();
    }
  });
  $("message-close").addEventListener("click", clearMessage);
  const form = $("form-new");
  form.addEventListener("submit", createMatch);
  form.name1.addEventListener("input", renderBreakerNames);
  form.name2.addEventListener("input", renderBreakerNames);
  $("copy-marker").addEventListener("click", async () => {
    const input = $("marker-link");
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select();
      document.execCommand("copy");
    }
    showMessage(() => t("club.created.copied"), "info");
  });
  const page = () => club.page;
  $("entry").addEventListener("submit", (event) => {
    event.preventDefault();
    if (page()) page().submit();
  });
  $("call-text").addEventListener("input", (event) => page() && page().setCallText(event.target.value));
  $("no-call").addEventListener("click", () => page() && page().noCall());
  $("legal-yes").addEventListener("click", () => {
    if (!page()) return;
    page().entry.legal = true;
    page().renderEntry();
  });
  $("legal-no").addEventListener("click", () => {
    if (!page()) return;
    page().entry.legal = false;
    page().renderEntry();
  });
  $("pot-as-called").addEventListener("click", () => page() && page().potAsCalled());
  $("quick-as-called").addEventListener("click", () => page() && page().quickAsCalled());
  $("quick-more").addEventListener("click", () => page() && page().showEntry(true, true));
  $("clear-entry").addEventListener("click", () => page() && page().clearEntry());
  $("rest-reset").addEventListener("click", () => page() && page().resetRest());
  $("place-confirm").addEventListener("click", () => page() && page().confirmW2());
  $("lag-0").addEventListener("click", () => page() && page().lagWon(0));
  $("lag-1").addEventListener("click", () => page() && page().lagWon(1));
  for (const i of [0, 1]) $(`starter-${i}`).addEventListener("click", (e) => page() && page().chooseStarter(e.currentTarget.dataset.ball));
  $("undo-last").addEventListener("click", () => page() && page().askUndo());
  $("break-resume").addEventListener("click", () => page() && page().resumeBreak());
  $("forfeit-confirm").addEventListener("click", () => page() && page().entry.forfeit && page().forfeit(page().entry.forfeit));
  $("wrong-ball").addEventListener("change", (event) => {
    if (!page()) return;
    page().entry.wrongBall = event.target.checked;
    page().renderEntry();
  });
  $("flags").addEventListener("change", (event) => {
    const flag = event.target.dataset && event.target.dataset.flag;
    if (!page() || !flag) return;
    page().entry.flags[flag] = event.target.checked;
    page().renderEntry();
  });
  $("late-ball").addEventListener("change", (event) => {
    if (!page()) return;
    page().entry.lateBall = event.target.value;
    if (!event.target.value) page().entry.lateBy = "";
    page().renderEntry();
  });
  $("late-by").addEventListener("change", (event) => page() && (page().entry.lateBy = event.target.value));
  $("talonmies").addEventListener("input", (event) => page() && (page().entry.talonmies = event.target.value));
  $("hand-fault").addEventListener("change", (event) => page() && (page().entry.handFault = event.target.value));
  $("undo-yes").addEventListener("click", () => page() && page().undo());
  $("undo-no").addEventListener("click", () => {
    if (!page()) return;
    page().confirmUndo = false;
    page().renderUndo();
  });
  $("queue-retry").addEventListener("click", () => page() && page().queue && page().queue.retryNow());
  document.addEventListener("keydown", onKey);
  window.addEventListener("hashchange", route);
  setInterval(() => club.page && club.page.tick(), 1000);
}

async function route() {
  club.session += 1;
  clearMessage();
  if (club.page) club.page.leave();
  club.page = null;
  const hash = location.hash || "#/new";
  let m;
  if ((m = hash.match(/^#\/match\/(\d+)(?:\/([^/]+))?$/))) {
    document.title = `Kaisa · ${t("club.brand").split("·").pop().trim()} · ${m[1]}`;
    club.page = new MatchPage(Number(m[1]), m[2] ? decodeURIComponent(m[2]) : null);
    window.kaisaClub.page = club.page;
    await club.page.enter();
  } else if ((m = hash.match(/^#\/created\/(\d+)$/))) {
    enterCreated(Number(m[1]));
  } else {
    enterNew();
  }
  document.body.dataset.ready = "true";
}

/** The small tables, made once; their gestures go to the match page shown. */
function createTables() {
  const tables = {};
  for (const name of ["w2", "hand", "rest", "respot"]) tables[name] = new MiniTable($(`${name}-table`), club.table);
  tables.w2.fit(240, 440);
  tables.hand.fit(190, 350);
  tables.rest.fit(190, 350);
  tables.respot.fit(170, 320);
  const page = () => club.page;
  onTablePointer(tables.w2, {
    down: (p) => Boolean(page() && page().placeW2At(p)),
    move: (p) => page() && page().placeW2At(p),
  });
  onTablePointer(tables.hand, {
    down: (p) => Boolean(page() && page().placeCueAt(p)),
    move: (p) => page() && page().placeCueAt(p),
  });
  let dragging = null;
  onTablePointer(tables.rest, {
    down: (p) => {
      dragging = page() ? tables.rest.ballAt(p, 1.8) : null;
      tables.rest.overlay.dragging = dragging;
      return Boolean(dragging);
    },
    move: (p) => page() && page().dragRest(dragging, p, false),
    up: (p, moved) => {
      if (page() && dragging && moved) page().dragRest(dragging, p, true);
      dragging = null;
      tables.rest.overlay.dragging = null;
      if (page()) page().renderEntry();
    },
  });
  return tables;
}

async function main() {
  applyLabels(document);
  // a message sticks below the top bar, which is two rows high on a phone
  const bar = document.querySelector(".topbar");
  new ResizeObserver(() => document.documentElement.style.setProperty("--club-bar", `${bar.offsetHeight}px`)).observe(bar);
  window.kaisaClub = {
    // for tests and the console: where a table point (metres) is in the window, on one of the small tables
    toClient(name, p) {
      return club.tables[name].toClient(p);
    },
    page: null,
  };
  wire();
  try {
    const vocab = fetch("/api/club/marker-facts").then((r) => (r.ok ? r.json() : Promise.reject(new ClubError(r.status, null))));
    [club.table, club.vocab] = await Promise.all([api.table(), vocab]);
  } catch (error) {
    showError(error);
    return;
  }
  club.tables = createTables();
  club.geo = club.tables.w2.geo;
  await route();
}

main();
