// The marker's page of the scorekeeping mode: a new club match, then the strokes of a real match as the marker
// saw them, fast with the keyboard and by touch. The server's referee rules every entry; this page shows only
// what the server answered (nothing is confirmed before it said 200), and every refusal's `detail` visibly.
// This module wires the page: its routes (#/new, #/created/ID, #/match/ID/TOKEN), its buttons, the small tables and
// the keyboard; the screens live in club-new.js and club-match.js (drawn by club-match-screen.js).

import { api } from "../shared/api.js";
import {
  $,
  formOf,
  MiniTable,
  onTablePointer,
} from "./club-common.js";
import { ClubError } from "./club-queue.js";
import { onKey } from "./club-keys.js";
import { MatchPage } from "./club-match.js";
import { createMatch, enterCreated, enterNew, renderBreakerNames } from "./club-new.js";
import { club, clearMessage, shownMessage, showError, showMessage } from "./club-shell.js";
import { applyLabels, onLangChange, setLang, t } from "../shared/i18n.js";

// --- wiring -------------------------------------------------------------------------------------------------

/** @typedef {import("./club-shell.js").SmallTables} SmallTables @typedef {import("../shared/table.js").Point} Point */
/** What the page shows tests and the console: where a table point is in the window, and the match page.
 * @typedef {{ toClient(name: keyof SmallTables, p: Point): [number, number], page: MatchPage | null }} KaisaClub */

/** The page's handle for tests and the console (window.kaisaClub). @type {KaisaClub} */
const handle = {
  // where a table point (metres) is in the window, on one of the small tables
  toClient(name, p) {
    return /** @type {SmallTables} */ (club.tables)[name].toClient(p);
  },
  page: null,
};

/** Run `act` on the match page shown, if there is one. @param {(page: MatchPage) => void} act */
function onPage(act) {
  if (club.page) act(club.page);
}

/** What an input or select event's field holds. @param {Event} event */
const valueOf = (event) => /** @type {HTMLInputElement | HTMLSelectElement} */ (event.target).value;
/** Whether a checkbox event's box is checked. @param {Event} event */
const checkedOf = (event) => /** @type {HTMLInputElement} */ (event.target).checked;

function wire() {
  for (const button of document.querySelectorAll("[data-lang]")) {
    if (button instanceof HTMLElement) button.addEventListener("click", () => setLang(button.dataset.lang ?? ""));
  }
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
  const form = formOf("form-new");
  form.addEventListener("submit", createMatch);
  form.name1.addEventListener("input", renderBreakerNames);
  form.name2.addEventListener("input", renderBreakerNames);
  $("copy-marker").addEventListener("click", async () => {
    const input = $("marker-link", HTMLInputElement);
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select();
      document.execCommand("copy");
    }
    showMessage(() => t("club.created.copied"), "info");
  });
  $("entry").addEventListener("submit", (event) => {
    event.preventDefault();
    onPage((page) => page.submit());
  });
  $("call-text").addEventListener("input", (event) => onPage((page) => page.setCallText(valueOf(event))));
  $("no-call").addEventListener("click", () => onPage((page) => page.noCall()));
  $("legal-yes").addEventListener("click", () =>
    onPage((page) => {
      page.entry.legal = true;
      page.renderEntry();
    }),
  );
  $("legal-no").addEventListener("click", () =>
    onPage((page) => {
      page.entry.legal = false;
      page.renderEntry();
    }),
  );
  $("pot-as-called").addEventListener("click", () => onPage((page) => page.potAsCalled()));
  $("quick-as-called").addEventListener("click", () => onPage((page) => page.quickAsCalled()));
  $("quick-more").addEventListener("click", () => onPage((page) => page.showEntry(true, true)));
  $("clear-entry").addEventListener("click", () => onPage((page) => page.clearEntry()));
  $("rest-reset").addEventListener("click", () => onPage((page) => page.resetRest()));
  $("place-confirm").addEventListener("click", () => onPage((page) => page.confirmW2()));
  $("lag-0").addEventListener("click", () => onPage((page) => page.lagWon(0)));
  $("lag-1").addEventListener("click", () => onPage((page) => page.lagWon(1)));
  for (const i of [0, 1]) {
    const starter = $(`starter-${i}`);
    starter.addEventListener("click", () => onPage((page) => page.chooseStarter(starter.dataset.ball ?? "")));
  }
  $("undo-last").addEventListener("click", () => onPage((page) => page.askUndo()));
  $("break-resume").addEventListener("click", () => onPage((page) => page.resumeBreak()));
  $("forfeit-confirm").addEventListener("click", () => onPage((page) => page.entry.forfeit && page.forfeit(page.entry.forfeit)));
  $("wrong-ball").addEventListener("change", (event) =>
    onPage((page) => {
      page.entry.wrongBall = checkedOf(event);
      page.renderEntry();
    }),
  );
  $("flags").addEventListener("change", (event) => {
    const box = event.target;
    const flag = box instanceof HTMLInputElement ? box.dataset.flag : undefined;
    if (!club.page || !flag) return;
    club.page.entry.flags[flag] = checkedOf(event);
    club.page.renderEntry();
  });
  $("late-ball").addEventListener("change", (event) =>
    onPage((page) => {
      page.entry.lateBall = valueOf(event);
      if (!valueOf(event)) page.entry.lateBy = "";
      page.renderEntry();
    }),
  );
  $("late-by").addEventListener("change", (event) => onPage((page) => (page.entry.lateBy = valueOf(event))));
  $("talonmies").addEventListener("input", (event) => onPage((page) => (page.entry.talonmies = valueOf(event))));
  $("hand-fault").addEventListener("change", (event) => onPage((page) => (page.entry.handFault = valueOf(event))));
  $("undo-yes").addEventListener("click", () => onPage((page) => page.undo()));
  $("undo-no").addEventListener("click", () =>
    onPage((page) => {
      page.confirmUndo = false;
      page.renderUndo();
    }),
  );
  $("queue-retry").addEventListener("click", () => onPage((page) => page.queue && page.queue.retryNow()));
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
    document.title = `Kaisa · ${(t("club.brand").split("·").pop() ?? "").trim()} · ${m[1]}`;
    const page = new MatchPage(Number(m[1]), m[2] ? decodeURIComponent(m[2]) : null);
    club.page = page;
    handle.page = page;
    await page.enter();
  } else if ((m = hash.match(/^#\/created\/(\d+)$/))) {
    enterCreated(Number(m[1]));
  } else {
    enterNew();
  }
  document.body.dataset.ready = "true";
}

/** The small tables, made once; their gestures go to the match page shown. */
/** @param {import("./club-shell.js").TableJson} table @returns {SmallTables} */
function createTables(table) {
  /** @param {string} name */
  const make = (name) => new MiniTable($(`${name}-table`, HTMLCanvasElement), table);
  const tables = { w2: make("w2"), hand: make("hand"), rest: make("rest"), respot: make("respot") };
  tables.w2.fit(240, 440);
  tables.hand.fit(190, 350);
  tables.rest.fit(190, 350);
  tables.respot.fit(170, 320);
  onTablePointer(tables.w2, {
    down: (p) => Boolean(club.page && club.page.placeW2At(p)),
    move: (p) => onPage((page) => page.placeW2At(p)),
  });
  /** @type {boolean} whether the press placed the cue ball for the first time (then the call comes into view) */
  let firstPlace = false;
  onTablePointer(tables.hand, {
    down: (p) => {
      firstPlace = Boolean(club.page && !club.page.entry.place);
      return Boolean(club.page && club.page.placeCueAt(p));
    },
    move: (p) => onPage((page) => page.placeCueAt(p)),
    up: () => {
      if (firstPlace) onPage((page) => page.showEntry());
      firstPlace = false;
    },
  });
  /** @type {string | null} the ball being dragged */
  let dragging = null;
  onTablePointer(tables.rest, {
    down: (p) => {
      dragging = club.page ? tables.rest.ballAt(p, 1.8) : null;
      tables.rest.overlay.dragging = dragging;
      return Boolean(dragging);
    },
    move: (p) => onPage((page) => page.dragRest(dragging, p, false)),
    up: (p, moved) => {
      if (club.page && dragging && moved) club.page.dragRest(dragging, p, true);
      dragging = null;
      tables.rest.overlay.dragging = null;
      onPage((page) => page.renderEntry());
    },
  });
  return tables;
}

async function main() {
  applyLabels(document);
  // a message sticks below the top bar, which is two rows high on a phone
  const bar = document.querySelector(".topbar");
  if (bar instanceof HTMLElement) new ResizeObserver(() => document.documentElement.style.setProperty("--club-bar", `${bar.offsetHeight}px`)).observe(bar);
  /** @type {Window & { kaisaClub?: KaisaClub }} */ (window).kaisaClub = handle;
  wire();
  try {
    const vocab = fetch("/api/club/marker-facts").then((r) => (r.ok ? r.json() : Promise.reject(new ClubError(r.status, null))));
    [club.table, club.vocab] = await Promise.all([api.table(), vocab]);
  } catch (error) {
    showError(error);
    return;
  }
  club.tables = createTables(/** @type {import("./club-shell.js").TableJson} */ (club.table));
  club.geo = club.tables.w2.geo;
  await route();
}

main();
