// What the marker's match page draws: the scoreboard, the entry form (quick entry, the full form, the small
// tables), the ruling, the strokes entered, the queue of entries on this phone, undo, banners and exports. Each
// function draws from the match page's state (club-match.js) and wires its buttons to the page's actions.

import { exportsOf } from "../shared/api.js";
import {
  $,
  CUE_BALLS,
  find,
  choosingStarter,
  fmtPoint,
  nameOf,
  otherWhite,
  playing,
  renderBoard,
  rulingBlock,
  spotAt,
  spotLabel,
  takenSpots,
} from "./club-common.js";
import { ballButton, callParts, pocketButton, press } from "./club-entry.js";
import { club } from "./club-shell.js";
import { lang, ruleText, t } from "../shared/i18n.js";
import * as placement from "../shared/placement.js";
import { BALL_IDS, POCKET_IDS } from "../shared/table.js";
import { ballChip, el, fmtPoints } from "../shared/ui.js";

/** @typedef {import("./club-match.js").MatchPage} MatchPage @typedef {import("./club-match.js").Ctx} Ctx */
/** @typedef {import("./club-match.js").Action} Action @typedef {import("../shared/table.js").Point} Point */
/** @typedef {import("../shared/table.js").Geometry} Geometry @typedef {NonNullable<typeof club.tables>} SmallTables */

/** The page's button `id`. @param {string} id */
const button = (id) => $(id, HTMLButtonElement);
/** The buttons in the box `id` (a row of balls or pockets to tap). @param {string} id @returns {HTMLButtonElement[]} */
const buttons = (id) => [...$(id).children].filter((b) => b instanceof HTMLButtonElement);
/** The small tables and the geometry, which the page has made before any match page draws. */
const tables = () => /** @type {SmallTables} */ (club.tables);
const geo = () => /** @type {Geometry} */ (club.geo);
const table = () => /** @type {NonNullable<typeof club.table>} */ (club.table);

const POCKET_LAYOUT = ["FL", "FR", "ML", "MR", "HL", "HR"]; // two columns: the table seen from the head end

/** The pickers of the entry form: balls and pockets to tap, the late ball's choices. */
/** @param {MatchPage} page */
export function buildPickers(page) {
  /** @param {string} id @param {string} prefix @param {(value: string) => void} onClick @param {string[]} [ids] */
  const fill = (id, prefix, onClick, ids = BALL_IDS, make = ballButton) => $(id).replaceChildren(...ids.map((b) => make(prefix, b, onClick)));
  fill("call-balls", "call-ball", (b) => page.setCallBall(b));
  fill("call-pockets", "call-pocket", (p) => page.setCallPocket(p), POCKET_LAYOUT, pocketButton);
  fill("quick-balls", "quick-ball", (b) => page.setCallBall(b));
  $("quick-balls").append(el("button", { type: "button", class: "pick", "data-testid": "quick-no-call", onclick: () => page.noCall() }, t("club.quick.noCall")));
  fill("quick-pockets", "quick-pocket", (p) => page.setCallPocket(p), POCKET_LAYOUT, pocketButton);
  fill("quick-first", "quick-first", (b) => page.quickMissed(b));
  fill("pot-balls", "pot-ball", (b) => page.pickPotBall(b));
  fill("pot-pockets", "pot-pocket", (p) => page.potPocket(p), POCKET_LAYOUT, pocketButton);
  $("first-balls").replaceChildren(
    ...BALL_IDS.map((b) => ballButton("first", b, (x) => page.setFirst(x))),
    el("button", { type: "button", class: "pick", "data-testid": "first-none", onclick: () => page.setFirst(null) }, t("club.first.none")),
  );
  fill("nakki-balls", "nakki", (b) => page.toggle("nakki", b));
  fill("off-balls", "off", (b) => page.toggleOff(b));
  fill("cushion-balls", "cushion", (b) => page.toggle("cushion", b));
  $("flags").replaceChildren(
    ...club.vocab.flags.map((f) =>
      el(
        "label",
        { class: "check" },
        el("input", { type: "checkbox", "data-testid": f.name.replaceAll("_", "-"), dataset: { flag: f.name } }),
        el("span", {}, f[lang()] || f.en),
      ),
    ),
  );
  const late = $("late-ball", HTMLSelectElement);
  late.replaceChildren(el("option", { value: "" }, t("club.late.none")), ...BALL_IDS.map((b) => el("option", { value: b }, b)));
  const by = $("late-by");
  const names = page.view ? page.view.players : [];
  const owner = (/** @type {string} */ b) => (names.find((p) => p.cue_ball === b) || { name: b }).name;
  by.replaceChildren(el("option", { value: "" }, t("club.late.nobody")), ...CUE_BALLS.map((b) => el("option", { value: b }, `${t("club.late.player", { ball: b })}: ${owner(b)}`)));
}

/** On a phone, with the cue ball in hand and not yet placed: where it was placed comes first (its table is far
 * down the form); placing it the first time brings the call back into view (club.js).
 * @param {MatchPage} page @returns {boolean} whether the hand's table was brought into view */
export function showHandFirst(page) {
  const hand = $("hand-group");
  if (hand.hidden || !page.ctx().fromHand || page.entry.place || getComputedStyle($("quick")).position !== "sticky") return false;
  const bar = document.querySelector(".topbar");
  hand.style.scrollMarginTop = `${(bar ? bar.getBoundingClientRect().height : 0) + 8}px`;
  hand.scrollIntoView({ block: "start", behavior: "instant" });
  return true;
}

/** @param {MatchPage} page */
export function render(page) {
  if (!page.alive() || !page.view) return;
  const v = page.shown();
  renderBoard($("board"), v, { since: page.since, playerExtra: (i, ball) => breakButton(page, i, ball) });
  renderTokenBanner(page);
  renderDecided(page);
  const editing = Boolean(page.editing);
  $("place-panel").hidden = !(v.phase === "place-w2" && page.open());
  $("lag-panel").hidden = !(v.phase === "shootout-lag" && page.open());
  // one question at a time: who starts the shoot-out, then its strokes
  const choosing = choosingStarter(v);
  $("starter-panel").hidden = !(choosing && page.open());
  $("entry").hidden = !(((playing(v) && !choosing) || editing) && page.open());
  $("quick").hidden = $("entry").hidden || editing;
  $("break-running").hidden = !page.breakRun;
  if (v.phase === "place-w2") renderPlace(page);
  if (v.phase === "shootout-lag") {
    for (const i of [0, 1]) $(`lag-${i}`).textContent = t("club.lag.won", { name: v.players[i].name });
  }
  if (choosing) renderStarter(page);
  renderEntry(page);
  renderRuling(page);
  renderStrokes(page);
  renderExports(page);
  renderQueue(page);
  renderUndo(page);
  page.tick();
}

/** The entries on this phone not yet confirmed (and those confirmed a moment ago), each with its state. */
/** @param {MatchPage} page */
export function renderQueue(page) {
  const panel = $("queue");
  if (!panel || !page.queue) return;
  // shown while an entry waits or was refused (then with those confirmed a moment ago); with a good connection
  // entries are confirmed at once and the panel stays away, so nothing moves under the marker's finger
  if (page.queue.offline || page.queue.items.some((i) => i.state === "failed")) page.queueShown = true;
  if (!page.queue.items.length) page.queueShown = false;
  const items = page.queueShown ? page.queue.items : [];
  panel.hidden = items.length === 0;
  if (!page.waitingStrokes().length) page.offShooter = null;
  // how many entries wait, where the marker's thumb is (the confirm bar stays on screen)
  const open = page.queue.items.filter((i) => i.state === "pending" || i.state === "sending").length;
  $("queue-badge").hidden = open === 0;
  $("queue-badge").textContent = t("club.queue.badge", { n: open });
  $("queue-offline").hidden = !page.queue.offline;
  $("queue-list").replaceChildren(
    ...items.map((item) =>
      el(
        "li",
        { class: `queue-item ${item.state}`, "data-testid": "queue-item", dataset: { state: item.state, kind: item.kind } },
        el("span", { class: "queue-label" }, item.label),
        el(
          "span",
          { class: "queue-state", "data-testid": "queue-state" },
          item.state === "failed"
            ? t("club.queue.failed", { detail: (item.error && (item.error[lang()] || item.error.detail)) || "" })
            : t(`club.queue.${item.state === "sending" ? "sending" : item.state}`),
        ),
        item.state === "failed"
          ? el("button", { type: "button", class: "small", "data-testid": "queue-drop", onclick: () => page.queue?.remove(item.key) }, t("club.queue.drop"))
          : null,
      ),
    ),
  );
  $("queue-retry").hidden = !page.queue.offline;
}

/** @param {MatchPage} page */
export function renderUndo(page) {
  const bar = $("undo-confirm");
  if (!bar) return;
  bar.hidden = !page.confirmUndo;
  if (!page.confirmUndo) return;
  const last = page.actions[page.actions.length - 1];
  let what = t("club.undo");
  if (last && last.action.kind === "marked") {
    const n = page.actions.filter((a) => a.action.kind === "marked").length;
    what = `${t("club.undo.stroke", { n })}: ${nameOf(page.shown(), last.outcome.ruling ? last.outcome.ruling.shooter : last.action.entry.cue_ball)}, ${last.action.call || t("ruling.noCall")}`;
  } else if (last && last.action.kind === "place-w2") {
    what = t("club.strokes.placeW2");
  } else if (last && last.action.kind === "choose") {
    what = t("club.starter.chosen", { name: nameOf(page.shown(), last.action.cue_ball) });
  } else if (last && last.action.kind === "marked-lag") {
    what = t("club.lag.title");
  } else if (last && last.action.kind === "break") {
    what = t("club.strokes.break", { who: nameOf(page.shown(), last.action.cue_ball), s: Math.round(last.action.seconds) });
  }
  $("undo-question").textContent = t("club.undo.confirm", { what });
}

/** A competition game decided: by whom, with the result, the game's pöytäkirja and the bracket. */
/** @param {MatchPage} page */
function renderDecided(page) {
  let box = find("decided");
  if (!box) {
    box = el("div", { id: "decided", class: "decided", "data-testid": "decided", role: "status" });
    $("board").after(box);
  }
  const game = page.view && page.view.competition;
  box.hidden = !(game && game.decided_by);
  if (!game || box.hidden) return;
  const view = page.shown();
  const result = view.result;
  const names = view.players.map((p) => p.name);
  // the kaavio's result; the match's own until the kaavio has read the match's end
  const own = result ? view.players.map((p) => (result.recorded || result.scores || {})[p.cue_ball ?? ""]) : [];
  const points = (game && game.points) || own;
  const score = points.length === 2 ? `${names[0]} ${points[0]} – ${points[1]} ${names[1]}` : "";
  box.replaceChildren(
    el("p", { "data-testid": "decided-text" }, t(`club.decided.${game.decided_by}`, { game: game.game, score, name: game.name })),
    el(
      "p",
      { class: "row wrap" },
      game.scoresheet_url ? el("a", { class: "button primary", href: game.scoresheet_url, target: "_blank", rel: "noopener", "data-testid": "decided-sheet" }, t("club.decided.sheet")) : null,
      el("a", { class: "button", href: game.bracket_url, target: "_blank", rel: "noopener", "data-testid": "decided-bracket" }, t("club.decided.bracket")),
    ),
  );
}

/** @param {MatchPage} page */
function renderTokenBanner(page) {
  let banner = find("token-banner");
  if (!banner) {
    banner = el("div", { id: "token-banner", class: "token-banner", "data-testid": "token-error", role: "alert" });
    $("board").after(banner);
  }
  banner.hidden = page.canEnter || !page.tokenProblem;
  banner.textContent = page.tokenProblem ? page.tokenText() : "";
}

/** @param {MatchPage} page @param {number} i @param {string | null} ball */
function breakButton(page, i, ball) {
  const v = page.shown();
  if (v.clock.mode !== "wall" || !ball || !page.open()) return null;
  const taken = ball in (v.clock.breaks || {});
  if (taken || v.phase !== "play") return null;
  return el(
    "button",
    { type: "button", class: "small break-button", "data-testid": `break-${i}`, disabled: Boolean(page.breakRun) || page.busy, onclick: () => page.startBreak(ball) },
    t("club.break"),
  );
}

/** The lag winner's choice (6): their own cue ball first, then the opponent's. */
/** @param {MatchPage} page */
function renderStarter(page) {
  const v = page.shown();
  const winner = /** @type {import("./club-common.js").Shootout} */ (v.shootout).first;
  $("starter-hint").textContent = t("club.starter.hint", { name: nameOf(v, winner) });
  [winner, otherWhite(winner)].forEach((ball, i) => {
    const starter = $(`starter-${i}`);
    starter.dataset.ball = ball;
    starter.textContent = t("club.starter.starts", { name: nameOf(v, ball), ball });
  });
}

/** @param {MatchPage} page */
export function renderPlace(page) {
  const v = page.shown();
  const w2owner = v.players.findIndex((p) => p.cue_ball === "W2");
  $("place-hint").textContent = t("club.place.hint", { name: w2owner >= 0 ? v.players[w2owner].name : "W2" });
  const view = tables().w2;
  const balls = { ...v.position.balls };
  if (page.w2) balls.W2 = page.w2;
  view.balls = balls;
  const corridors = /** @type {import("../shared/placement.js").Corridor[]} */ (v.w2_corridors);
  view.overlay = { corridors, legal: placement.lightOf(placement.area(geo(), "w2", v.position.balls, "W2", { corridors })) };
  view.draw();
  $("w2-out").textContent = page.w2 ? `W2 (${page.w2[0].toFixed(3)}, ${page.w2[1].toFixed(3)})` : t("club.hand.none");
  $("w2-out").dataset.point = page.w2 ? page.w2.join(",") : "";
  button("place-confirm").disabled = page.busy;
}

/** @param {MatchPage} page */
export function renderButtons(page) {
  const busy = page.busy;
  button("enter-stroke").disabled = busy || Boolean(page.breakRun) || Boolean(page.view && !page.editing && page.ctx().unsure);
  button("undo-last").disabled = busy || !page.open() || !page.view || page.view.actions <= 2;
  button("place-confirm").disabled = busy;
  for (const i of [0, 1]) button(`lag-${i}`).disabled = busy;
  for (const i of [0, 1]) button(`starter-${i}`).disabled = busy;
}

/** @param {MatchPage} page @param {Ctx} c @param {ReturnType<typeof callParts>} call @param {string} name @param {(ball: string | undefined) => boolean} onTable @param {string} cue */
function renderQuick(page, c, call, name, onTable, cue) {
  $("quick-title").textContent = c.unsure ? t("club.entry.titleWho", { n: c.n }) : t("club.entry.title", { n: c.n, name, ball: c.shooter });
  for (const b of buttons("quick-balls")) {
    if (!b.dataset.ball) {
      press(b, !page.entry.callText.trim());
      continue;
    }
    press(b, call.ball === b.dataset.ball);
    b.disabled = b.dataset.ball === c.shooter;
    b.classList.toggle("absent", !onTable(b.dataset.ball));
  }
  for (const b of buttons("quick-pockets")) press(b, call.pocket === b.dataset.pocket);
  for (const b of buttons("quick-first")) {
    b.disabled = b.dataset.ball === cue;
    b.classList.toggle("absent", !onTable(b.dataset.ball));
  }
  button("quick-as-called").disabled = !(call.ball && call.pocket) || button("enter-stroke").disabled;
}

/** @param {MatchPage} page */
export function renderEntry(page) {
  if (!page.view) return;
  const e = page.entry;
  const c = page.ctx();
  const v = page.shown();
  const name = nameOf(v, c.shooter);
  if (!page.editing && e.n === undefined) {
    e.n = c.n; // the stroke this entry is for
    e.behind = Boolean(c.waiting); // begun behind strokes waiting on this phone
  }
  $("entry-title").textContent = c.unsure ? t("club.entry.titleWho", { n: c.n }) : t("club.entry.title", { n: c.n, name, ball: c.shooter });
  renderHold(page, c);
  $("entry-opening").hidden = !c.opening;
  const banner = $("edit-banner");
  banner.hidden = !page.editing;
  if (page.editing) {
    banner.replaceChildren(
      el("span", {}, t("club.entry.correcting", { n: page.editing.n, index: page.editing.index, name, ball: c.shooter })),
      el("button", { type: "button", class: "small", "data-testid": "cancel-correction", onclick: () => page.clearEntry() }, t("club.cancel")),
    );
  }
  $("target").textContent = t(`club.target.${e.target}`);
  $("target").dataset.target = e.target;
  for (const group of document.querySelectorAll("#entry [data-target]")) {
    if (group instanceof HTMLElement) group.classList.toggle("targeted", group.dataset.target === e.target);
  }

  const start = page.startBalls();
  const onTable = (/** @type {string | undefined} */ b) => Boolean(b && start[b]) || (c.fromHand && b === c.shooter);
  const cue = page.struck();
  // the call
  const call = callParts(e.callText);
  const text = $("call-text", HTMLInputElement);
  if (document.activeElement !== text) text.value = e.callText;
  for (const b of buttons("call-balls")) {
    press(b, call.ball === b.dataset.ball);
    b.disabled = b.dataset.ball === c.shooter;
    b.classList.toggle("absent", !onTable(b.dataset.ball));
  }
  for (const b of buttons("call-pockets")) press(b, call.pocket === b.dataset.pocket);
  renderQuick(page, c, call, name, onTable, cue);
  press($("no-call"), !e.callText.trim());
  press($("legal-yes"), e.legal);
  press($("legal-no"), !e.legal);
  if (!e.callText.trim()) $("call-status").textContent = t("call.noCall");
  // the drops
  for (const b of buttons("pot-balls")) {
    const ball = b.dataset.ball ?? "";
    const dropped = e.pots.find((p) => p[0] === ball);
    press(b, e.pending === ball);
    b.dataset.state = dropped ? "dropped" : e.off.has(ball) ? "off" : "";
    b.classList.toggle("absent", !onTable(ball));
  }
  for (const b of buttons("pot-pockets")) b.classList.toggle("armed", Boolean(e.pending));
  const pots = $("pots");
  pots.replaceChildren(
    ...(e.pots.length
      ? e.pots.map(([ball, pocket]) =>
          el(
            "li",
            { class: "chip-item", "data-testid": "pot-item", dataset: { ball, pocket } },
            ballChip(ball),
            ` ${ball} → ${pocket} `,
            el("button", { type: "button", class: "x", "aria-label": t("club.pots.remove"), "data-testid": "pot-remove", onclick: () => page.removePot(ball) }, "×"),
          ),
        )
      : [el("li", { class: "hint" }, t("club.pots.none"))]),
  );
  // first contact, nakki, off the table, cushion pots
  for (const b of buttons("first-balls")) {
    const ball = b.dataset.ball || null;
    press(b, e.first === ball);
    if (ball) {
      b.disabled = ball === cue;
      b.classList.toggle("absent", !onTable(ball));
    }
  }
  for (const b of buttons("nakki-balls")) {
    press(b, e.nakki.has(b.dataset.ball ?? ""));
    b.disabled = b.dataset.ball === cue;
    b.classList.toggle("absent", !onTable(b.dataset.ball));
  }
  for (const b of buttons("off-balls")) {
    press(b, e.off.has(b.dataset.ball ?? ""));
    b.classList.toggle("absent", !onTable(b.dataset.ball));
  }
  for (const b of buttons("cushion-balls")) press(b, e.cushion.has(b.dataset.ball ?? ""));
  // the cue ball
  $("cue-legend").replaceChildren(ballChip(cue), " ", t("club.cue", { ball: cue }));
  const cuePot = e.pots.find((p) => p[0] === cue);
  const row = $("cue-row");
  row.replaceChildren(
    el("button", { type: "button", class: "pick", "data-testid": "cue-stayed", "aria-pressed": String(!cuePot && !e.off.has(cue)), onclick: () => page.cueTo(null) }, t("club.cue.stayed")),
    el("span", { class: "hint" }, t("club.cue.dropped")),
    ...POCKET_IDS.map((p) =>
      el("button", { type: "button", class: "pick pocket-pick", "data-testid": `cue-pocket-${p}`, "aria-pressed": String(Boolean(cuePot && cuePot[1] === p)), onclick: () => page.cueTo(p) }, p),
    ),
    el("button", { type: "button", class: "pick", "data-testid": "cue-off", "aria-pressed": String(e.off.has(cue)), onclick: () => page.cueTo("off") }, t("club.cue.off")),
  );
  // rare events
  $("wrong-ball", HTMLInputElement).checked = e.wrongBall;
  for (const box of $("flags").querySelectorAll("input[data-flag]")) {
    if (box instanceof HTMLInputElement) box.checked = Boolean(e.flags[box.dataset.flag ?? ""]);
  }
  $("wrong-ball-label").textContent = t("club.wrongBall", { ball: otherWhite(c.shooter) });
  $("late-ball", HTMLSelectElement).value = e.lateBall;
  const by = $("late-by", HTMLSelectElement);
  by.value = e.lateBy;
  by.disabled = !e.lateBall;
  $("late-only").hidden = !e.lateBall;
  if (document.activeElement !== $("talonmies")) $("talonmies", HTMLInputElement).value = e.talonmies;
  $("hand-fault", HTMLSelectElement).value = e.handFault || "";
  // a player without a cue ball has no button (and no null child, which replaceChildren would write as "null")
  $("forfeit-row").replaceChildren(
    ...v.players.flatMap((p, i) => {
      const ball = p.cue_ball;
      return ball
        ? [el("button", { type: "button", class: "small", "data-testid": `forfeit-${i}`, "aria-pressed": String(e.forfeit === ball), onclick: () => page.armForfeit(ball) }, t("club.forfeit.player", { name: p.name, ball }))]
        : [];
    }),
  );
  const confirm = $("forfeit-confirm");
  confirm.hidden = !e.forfeit || Boolean(page.editing);
  if (e.forfeit) confirm.textContent = t("club.forfeit.confirm", { name: nameOf(v, e.forfeit), ball: e.forfeit });
  // ball in hand
  $("hand-group").hidden = !c.fromHand;
  if (c.fromHand) {
    $("hand-legend").textContent = t("club.hand", { ball: c.shooter });
    const view = tables().hand;
    const balls = { ...c.balls };
    if (e.place) balls[c.shooter] = e.place;
    view.balls = balls;
    view.overlay = { legal: placement.lightOf(placement.area(geo(), "hand", c.balls, c.shooter)) };
    view.rings = e.place ? [{ p: e.place, colour: "#ffe066" }] : [];
    view.draw();
    $("hand-out").textContent = e.place ? t("club.hand.placed", fmtPoint(e.place)) : t("club.hand.none");
    $("hand-out").dataset.point = e.place ? e.place.join(",") : "";
  }
  drawRest(page);
  // buttons
  $("enter-stroke").textContent = page.editing ? `${t("club.save")} ⏎` : `${t("club.enter")} ⏎`;
  renderButtons(page);
}

/** While strokes wait on this phone: which they are, and whose the stroke entered now is (the marker says). */
/** @param {MatchPage} page @param {Ctx} c */
function renderHold(page, c) {
  const waiting = page.editing ? [] : page.waitingStrokes();
  const hold = $("queue-hold");
  hold.hidden = waiting.length === 0;
  if (!waiting.length) return;
  $("queue-hold-text").textContent = t("club.queue.whose", { list: waiting.map((i) => i.label).join(", "), n: c.n });
  $("queue-hold-who").replaceChildren(
    ...page.shown().players
      .filter((p) => p.cue_ball)
      .map((p) =>
        el(
          "button",
          {
            type: "button",
            class: "small",
            "data-testid": `queue-who-${p.cue_ball}`,
            "aria-pressed": String(page.offShooter === p.cue_ball),
            onclick: () => {
              page.offShooter = p.cue_ball;
              renderEntry(page);
            },
          },
          `${p.name} (${p.cue_ball})`,
        ),
      ),
    el("span", { class: "hint" }, t("club.queue.hand")),
  );
}

/** @param {MatchPage} page */
export function drawRest(page) {
  const view = tables().rest;
  if (!view) return;
  view.balls = page.restBalls();
  const moved = Object.keys(page.entry.moves).filter((b) => view.balls[b]);
  view.overlay = { draggable: Object.keys(view.balls), dragging: view.overlay.dragging };
  view.rings = moved.map((b) => ({ p: /** @type {Point} */ (view.balls[b]), colour: "#74c0fc" }));
  view.draw();
  $("moves").replaceChildren(
    ...(moved.length
      ? moved.map((b) => {
          const p = /** @type {Point} */ (view.balls[b]);
          const spot = spotAt(table(), p);
          return el(
            "li",
            { "data-testid": "move-item", dataset: { ball: b, spot: spot || "" } },
            ballChip(b),
            " ",
            spot ? t("club.rest.onSpot", { ball: b, spot: spotLabel(spot) }) : t("club.rest.at", { ball: b, ...fmtPoint(p) }),
          );
        })
      : [el("li", { class: "hint" }, t("club.rest.none"))]),
  );
}

/** @param {MatchPage} page */
function renderRuling(page) {
  const box = $("ruling");
  const respots = $("respots");
  respots.hidden = true;
  const last = page.last;
  const block = last && last.outcome ? rulingBlock(last.outcome, { who: last.who, call: last.call }) : null;
  const shown = block && block.childElementCount ? [el("h3", {}, t("club.lastRuling")), block] : [];
  // the box is a live region: a screen reader reads what changes in it, so the same ruling drawn again (every
  // stream update renders the page) is left alone, and only a new ruling (or another language) is announced
  const text = shown.map((n) => n.textContent).join("\n");
  if (box.dataset.said !== text) {
    box.replaceChildren(...shown);
    box.dataset.said = text;
  }
  if (!last || !last.outcome) return;
  const ruling = last.outcome.ruling;
  if (!ruling || !Object.keys(ruling.respots || {}).length) return;
  respots.hidden = false;
  const respotted = /** @type {Record<string, Point>} */ (ruling.respots);
  const after = /** @type {{ balls: Record<string, Point | null> }} */ (ruling.position).balls;
  const balls = Object.keys(respotted);
  const list = $("respot-list");
  list.replaceChildren();
  const view = tables().respot;
  view.balls = after;
  view.overlay = {};
  view.rings = [];
  for (const ball of balls) {
    const p = respotted[ball];
    const spot = spotAt(table(), p);
    const where = spot ? spotLabel(spot) : t("club.respots.at", fmtPoint(p));
    view.rings.push({ p, label: ball });
    // the spots other balls covered when it was put back: the kaisa goes back first (4.1), then a red
    const except = ball === "K" ? balls : balls.filter((b) => b !== "K");
    const taken = takenSpots(table(), after, except);
    const says = (/** @type {import("../shared/ui.js").RulingItem} */ n) => new RegExp(`\\b${ball}\\b`).test(n.en) || (ball === "K" && /\bkaisa\b/i.test(n.en) && !/\b(R1|R2|red)\b/.test(n.en));
    const notes = (ruling.notes || []).filter((n) => n.clause.startsWith("4") && says(n));
    list.append(
      el(
        "li",
        { class: "respot-item", "data-testid": "respot-item", dataset: { ball, spot: spot || "" } },
        el("strong", { "data-testid": "respot-where" }, ballChip(ball), " ", t("club.respots.item", { ball, spot: where })),
        ...notes.map((n) => el("div", { class: "respot-why", "data-testid": "respot-why" }, el("span", { class: "clause-tag" }, `§ ${n.clause}`), " ", ruleText(n))),
        el(
          "div",
          { class: "hint", "data-testid": "respot-taken" },
          t("club.respots.taken", { list: taken.length ? taken.map((x) => t("club.respots.takenBy", { spot: spotLabel(x.spot), ball: x.ball })).join(", ") : t("club.respots.free") }),
        ),
      ),
    );
  }
  view.draw();
}

/** @param {MatchPage} page */
function renderStrokes(page) {
  const list = $("strokes");
  const rows = [];
  let n = 0;
  for (const a of page.actions) {
    const kind = a.action.kind;
    if (kind === "marked") n += 1;
    if ((kind === "choose" || kind === "marked-lag") && a.index < 2) continue; // the match's creation
    rows.push(strokeRow(page, a, n));
  }
  list.replaceChildren(...rows.reverse());
  $("strokes-empty").hidden = rows.length > 0;
  $("undo-last").hidden = !page.open();
  list.dataset.count = String(n);
}

/** @param {MatchPage} page @param {Action} a @param {number} n */
function strokeRow(page, a, n) {
  const kind = a.action.kind;
  const v = page.shown();
  const ruling = a.outcome.ruling;
  const parts = [];
  let head;
  if (kind === "marked") {
    const e = a.action.entry;
    head = `${n}. ${nameOf(v, ruling ? ruling.shooter : e.cue_ball)} (${ruling ? ruling.shooter : e.cue_ball})`;
    parts.push(a.action.call || t("ruling.noCall"));
    if (e.pots.length) parts.push(t("club.strokes.drops", { list: e.pots.map((p) => `${p[0]}→${p[1]}`).join(", ") }));
    if (e.off_table.length) parts.push(`${t("club.cue.off")}: ${e.off_table.join(", ")}`);
    parts.push(e.first_contact ? t("club.strokes.first", { ball: e.first_contact }) : t("club.strokes.miss"));
    if (e.nakki.length) parts.push(t("club.strokes.nakki", { list: e.nakki.join(", ") }));
  } else if (kind === "place-w2") {
    head = t("club.strokes.placeW2");
  } else if (kind === "break") {
    head = t("club.strokes.break", { who: nameOf(v, a.action.cue_ball), s: Math.round(a.action.seconds) });
  } else if (kind === "choose") {
    head = t("club.starter.chosen", { name: nameOf(v, a.action.cue_ball) });
  } else if (kind === "marked-lag") {
    head = t("club.strokes.lag", { name: v.players[a.action.winner] ? v.players[a.action.winner].name : a.action.winner + 1 });
  } else if (kind === "forfeit") {
    head = `${t("club.strokes.forfeit")}: ${a.action.cue_ball}`;
  } else {
    head = kind;
  }
  const fouls = ruling ? ruling.fouls.map((f) => el("span", { class: "clause-tag foul", title: ruleText(f) }, `§ ${f.clause}`)) : [];
  const points = ruling ? el("span", { class: `points ${ruling.points < 0 ? "neg" : ruling.points > 0 ? "pos" : ""}`, "data-testid": "stroke-points" }, fmtPoints(ruling.points)) : null;
  const editing = page.editing && page.editing.index === a.index;
  return el(
    "li",
    { class: `stroke-row${editing ? " editing" : ""}`, "data-testid": "stroke-row", dataset: { index: a.index, kind } },
    el("span", { class: "stroke-head" }, head),
    el("span", { class: "stroke-text" }, parts.join(" · ")),
    ...fouls,
    points,
    kind === "marked" && page.open()
      ? el("button", { type: "button", class: "small", "data-testid": "edit", disabled: page.busy, onclick: () => page.edit(a.index) }, t("club.strokes.edit"))
      : null,
  );
}

/** @param {MatchPage} page */
function renderExports(page) {
  const game = page.view && page.view.competition;
  const sheet = game && game.scoresheet_url ? game.scoresheet_url : `/club/scoresheet#/match/${page.id}`;
  const links = [
    ["scoresheet", sheet, t("club.export.sheet")],
    ["match-csv", exportsOf.match(page.id, "csv"), t("club.export.match", { format: "CSV" })],
    ["match-json", exportsOf.match(page.id, "json"), t("club.export.match", { format: "JSON" })],
  ];
  if (page.event) {
    links.push(
      ["event-csv", exportsOf.event(page.event, "csv"), t("club.export.event", { format: "CSV" })],
      ["event-json", exportsOf.event(page.event, "json"), t("club.export.event", { format: "JSON" })],
      ["players-csv", exportsOf.event(page.event, "csv", "player"), t("club.export.players", { format: "CSV" })],
      ["players-json", exportsOf.event(page.event, "json", "player"), t("club.export.players", { format: "JSON" })],
    );
  }
  $("export-links").replaceChildren(...links.map(([id, href, text]) => el("li", {}, el("a", { href, "data-testid": `export-${id}`, target: "_blank", rel: "noopener" }, text))));
  $("nav-scoreboard", HTMLAnchorElement).href = page.event ? `/scoreboard#/event/${encodeURIComponent(page.event)}` : `/scoreboard#/match/${page.id}`;
  $("nav-scoreboard").dataset.href = $("nav-scoreboard").getAttribute("href") ?? "";
}
