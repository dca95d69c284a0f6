// The table screen's layout: the table sized to the screen, a phone's dock of the shot's controls at the foot,
// which screen and which panels show, and scrolling what matters into view.

import { app } from "./state.js";
import { $, show } from "./page.js";

/** The sticky bar at the top of the page. */
function topbar() {
  const bar = document.querySelector(".topbar");
  if (!(bar instanceof HTMLElement)) throw new Error(".topbar: no such element");
  return bar;
}

/** Scroll the page so that `node` is in view between the top bar and a phone's fixed Shoot bar, with as much
 * of the table above it as fits (a hint is read beside its drawing). @param {HTMLElement} node */
export function reveal(node) {
  const own = node.getBoundingClientRect();
  const table = $("table-wrap").getBoundingClientRect();
  const bottom = footTop();
  const top = topbar().getBoundingClientRect().bottom;
  const above = table.bottom <= own.top + 1; // a phone: the table is right above the panel
  if (above && own.bottom - table.top <= bottom - top) {
    window.scrollBy({ top: table.top - top - 4 }); // the table and the node both
  } else if (above) {
    window.scrollBy({ top: own.bottom - bottom + 8 }); // the node at the foot, the table's lower part above it
  } else if (own.bottom > bottom) {
    window.scrollBy({ top: Math.min(own.bottom - bottom + 8, own.top - top - 8) });
  } else if (own.top < top) {
    window.scrollBy({ top: own.top - top - 8 });
  }
}

/** The phases in which the person to move works on the table (lags, places, aims). */
export const AT_TABLE = new Set(["lag", "shootout-lag", "place-w2", "play", "shootout"]);

/** On a phone, scroll the page so that the whole table is on the screen, right under the top bar and above a
 * bar fixed at the foot: called when balls are about to move and when the person is to aim or place, so neither a
 * stroke nor the aim happens off the screen (the ruling and the controls follow below the table). */
export function keepTableInView() {
  if (!app.view || window.innerWidth >= 820 || $("screen-table").hidden) return;
  const rect = app.view.canvas.getBoundingClientRect();
  const top = topbar().getBoundingClientRect().bottom;
  const bottom = footTop();
  if (rect.top >= top && rect.bottom <= bottom) return;
  window.scrollBy({ top: rect.top - top - 2, behavior: "instant" });
}

// --- layout ------------------------------------------------------------------------------------------------

/** Size the table to the screen. Phones: the table on top, short enough that the controls follow. Wide screens
 * (>= 1180 px): the table on its side with the scoreboard and ruling under it when that makes it larger,
 * else upright with them in a column beside it; the controls in a column on the right either way. */
export function fitTable() {
  if (!app.view) return;
  const wrap = $("table-wrap");
  const screen = $("screen-table");
  const top = topbar().offsetHeight;
  const g = app.view.geo;
  const frame = 0.27; // m of frame around the bed, both sides together
  const wide = window.innerWidth >= 1180;
  dockControls();
  if (!wide) {
    screen.classList.remove("lying", "upright");
    const narrow = window.innerWidth < 820;
    const maxW = Math.max(200, wrap.clientWidth - 8);
    // a phone keeps the whole table between the top bar and the dock of the shot's controls at the foot
    const maxH = Math.max(240, window.innerHeight - top - (narrow ? dockHeight() + 16 : 20));
    app.view.fit(maxW, maxH, false);
  } else {
    const availW = window.innerWidth - 410 - 3 * 16 - 30;
    const availH = window.innerHeight - top - 24;
    const lying = Math.min(availW / (g.L + frame), (availH - 170) / (g.W + frame));
    const upright = Math.min((availW - 320) / (g.W + frame), availH / (g.L + frame));
    const landscape = lying >= upright;
    screen.classList.toggle("lying", landscape);
    screen.classList.toggle("upright", !landscape);
    if (landscape) app.view.fit(availW, availH - 170, true);
    else app.view.fit(availW - 320, availH, false);
    const height = app.view.canvas.getBoundingClientRect().height;
    screen.style.setProperty("--table-h", `${Math.round(height)}px`);
  }
  app.stroke.drawTip();
}

// --- a phone's dock -------------------------------------------------------------------------------------------

/** The nodes a phone's dock holds, each with the dock row it goes to (null: the dock itself, in this order). */
/** @type {[string, string | null][]} */
const DOCKED = [
  ["prompt", null],
  ["phase-actions", null],
  ["call-quick", "dock-call"],
  ["aim-call", "dock-call"],
  ["power-bar", "dock-power"],
  ["shoot-row", null],
];
/** @type {Map<string, Comment>} */
const homes = new Map(); // node id -> the comment that marks its place outside the dock

/** Below 820 px the shot's controls go to the dock at the foot of the screen (so the table, the call, the aim
 * helper, the power and Shoot are all on one screen), and back to their places on a wider screen. */
export function dockControls() {
  const dock = $("dock");
  // (a replay has its own bar at the foot and no shot to play: its controls stay in their places)
  const narrow = window.innerWidth < 820 && document.body.dataset.screen === "table" && $("replay-controls").hidden;
  for (const [id, row] of DOCKED) {
    const node = $(id);
    if (narrow && !homes.has(id)) {
      const mark = document.createComment(`dock:${id}`);
      node.before(mark);
      homes.set(id, mark);
      if (row) $(row).append(node);
      else if (id === "shoot-row") dock.append(node);
      else $("dock-call").before(node);
    } else if (!narrow) {
      const home = homes.get(id);
      if (home) home.replaceWith(node);
      homes.delete(id);
    }
  }
  dock.hidden = !narrow;
  syncDock();
}

/** The dock's rows follow the panels they came from: the call only while calling, the power while stroking. */
export function syncDock() {
  if ($("dock").hidden) return;
  $("dock-call").hidden = $("call-controls").hidden;
  $("dock-power").hidden = $("stroke-controls").hidden;
  document.body.style.setProperty("--dock-h", `${$("dock").offsetHeight}px`);
}

/** The top of whatever is fixed at the foot of the screen (a phone's dock or replay bar), or its height. */
export function footTop() {
  let bottom = window.innerHeight;
  for (const id of ["dock", "shoot-row", "replay-buttons"]) {
    const bar = $(id);
    if (bar.getClientRects().length && getComputedStyle(bar).position === "fixed") bottom = Math.min(bottom, bar.getBoundingClientRect().top);
  }
  return bottom;
}

/** The dock's height when it holds a stroke's controls (the most it holds), so the table keeps its size from
 * phase to phase. */
export function dockHeight() {
  const dock = $("dock");
  if (dock.hidden) return 0;
  const rows = ["dock-call", "dock-power"].map((id) => /** @type {[string, boolean]} */ ([id, $(id).hidden]));
  for (const [id] of rows) $(id).hidden = false;
  const shootRow = $("shoot-row");
  const shootHidden = shootRow.hidden;
  shootRow.hidden = false;
  const height = dock.offsetHeight;
  for (const [id, hidden] of rows) $(id).hidden = hidden;
  shootRow.hidden = shootHidden;
  return Math.max(height, 160);
}

/** @param {"start" | "history" | "table"} name */
export function showScreen(name) {
  for (const id of ["screen-start", "screen-history", "screen-table"]) show(id, id === `screen-${name}`);
  document.body.dataset.screen = name;
  dockControls();
}

/** Which of the table screen's panels a mode shows.
 * @param {{ call?: boolean, stroke?: boolean, shoot?: boolean, study?: boolean, replay?: boolean }} panels */
export function showPanels({ call = false, stroke = false, shoot = false, study = false, replay = false }) {
  show("call-controls", call);
  show("stroke-controls", stroke);
  show("shoot-row", shoot);
  show("study-controls", study);
  show("replay-controls", replay);
  dockControls();
}

/** Whether a button's text fits on one line of its row: beside the other buttons where the row does not wrap
 * (a phone's bar), beside the first one where it does. */
export function fitsOnItsLine(/** @type {HTMLElement} */ button) {
  const row = button.parentElement;
  if (!row) return true;
  const wraps = getComputedStyle(row).flexWrap !== "nowrap";
  const gap = parseFloat(getComputedStyle(row).columnGap) || 8;
  const others = [...row.children].filter((c) => c instanceof HTMLElement && c !== button && c.offsetParent !== null && !c.hidden).map((c) => /** @type {HTMLElement} */ (c));
  const beside = wraps ? others.slice(0, 1) : others;
  const room = row.clientWidth - parseFloat(getComputedStyle(row).paddingLeft) - parseFloat(getComputedStyle(row).paddingRight) - beside.reduce((s, c) => s + c.offsetWidth + gap, 0);
  const white = button.style.whiteSpace;
  button.style.whiteSpace = "nowrap";
  const need = button.scrollWidth;
  button.style.whiteSpace = white;
  return need <= room;
}
