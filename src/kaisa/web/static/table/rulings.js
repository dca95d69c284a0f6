// The ruling panel: an action's outcome (the lag, the ruling's lines, the points) shown line by line, and the
// balls settling as the ruling says (respotted balls put on their spots as their lines are read).

import { app } from "./state.js";
import { animSpeed, fmtNum, sleep } from "./page.js";
import { serverText, t } from "../shared/i18n.js";
import { ballChip, el, fmtPoints, rulingItem, shownNotes } from "../shared/ui.js";
import { mergeTrajectories } from "../shared/table.js";

/** @typedef {import("./state.js").Point} Point @typedef {import("./state.js").Entry} Entry */
/** @typedef {import("./state.js").Ruling} Ruling @typedef {import("./state.js").StrokeRecord} StrokeRecord */
/** @typedef {import("./state.js").RulingItem} RulingItem @typedef {import("./state.js").Overlay} Overlay */
/** The respotted balls put on their spots as the ruling's lines are read (`onItem`), and those left (`finish`).
 * @typedef {{ onItem(item: RulingItem): Promise<void>, finish(): Promise<void> }} Settling */

// --- rulings ------------------------------------------------------------------------------------------------

/** Render an action's outcome in the ruling panel. With `reveal`, items appear one after another (while
 * `alive()`), and `onItem` is awaited for each ruling line as it appears.
 * @param {HTMLElement} target @param {Entry | null} entry
 * @param {{ reveal?: boolean, alive?: () => boolean, onItem?: ((item: RulingItem) => Promise<void>) | null }} [options] */
export async function renderOutcome(target, entry, { reveal = false, alive = () => true, onItem = null } = {}) {
  target.replaceChildren();
  if (!entry) return;
  const { outcome, who, call } = entry;
  if (!outcome || (!outcome.lag && !outcome.ruling && !(outcome.notes && outcome.notes.length))) return;
  /** @type {HTMLElement[]} */
  const items = [];
  const head = el("h3", {}, t("ruling.title"));
  target.append(head);
  if (outcome.lag) {
    const lag = outcome.lag;
    const names = entry.names || ["1", "2"];
    const box = el("div", { class: "lag-result", "data-testid": "lag-result" });
    const winner = lag.winner;
    box.append(el("p", { class: "strong" }, winner === null || winner === undefined ? t("match.lagAgain") : t("match.lagResult", { name: names[winner] })));
    lag.reasons.forEach((reasons, i) => {
      box.append(
        el("p", { class: "hint" }, reasons.length ? t("match.lagFault", { name: names[i], reasons: reasons.map(serverText).join(", ") }) : t("match.lagGood", { name: names[i] })),
      );
    });
    // how near each lag ball came to the head cushion (its edge from the cushion's nose), as players measure
    const radius = app.table ? app.table.ball_radius : 0.034;
    (outcome.records || []).forEach((record, i) => {
      const ball = record.stroke ? record.stroke.ball : i === 0 ? "W1" : "W2";
      const at = record.final && record.final.balls ? record.final.balls[ball] : null;
      const seat = ball === "W1" ? 0 : 1;
      // the lag balls by their side: W1 and W2 are the cue balls chosen after the lag, not the lag's
      const side = t(seat === 0 ? "match.lagLeft" : "match.lagRight");
      const text = at ? t("match.lagDistance", { name: names[seat], side, cm: fmtNum((at[1] - radius) * 100, 1) }) : t("match.lagGone", { name: names[seat], side });
      box.append(el("p", { class: "lag-distance", "data-testid": `lag-distance-${seat}` }, ballChip(ball), " ", text));
    });
    target.append(box);
  }
  const ruling = outcome.ruling;
  target.dataset.legalPot = ruling ? String(Boolean(ruling.legal_pot)) : "";
  if (ruling) {
    if (who || call !== undefined) {
      const line = [];
      if (who) line.push(who);
      if (call !== undefined) line.push(call ? call : t("ruling.noCall"));
      target.append(el("p", { class: "who", "data-testid": "ruling-who" }, line.join(" · ")));
    }
    if (call && !ruling.legal_pot) target.append(el("p", { class: "missed", "data-testid": "ruling-missed" }, t("ruling.callMissed", { call })));
    const list = el("ul", { class: "ruling-items" });
    target.append(list);
    /** @type {(RulingItem | null)[]} */
    const said = []; // the ruling's lines beside their list items, for onItem
    const add = (/** @type {HTMLElement} */ node, /** @type {RulingItem | null} */ item) => {
      items.push(node);
      said.push(item);
    };
    for (const item of ruling.items) add(rulingItem(item, "item"), item);
    for (const item of ruling.fouls) add(rulingItem(item, "foul"), item);
    for (const item of shownNotes(ruling)) add(rulingItem(item, "note"), item);
    for (const note of outcome.notes || []) add(el("li", { class: "ruling-item note", "data-testid": "outcome-note" }, serverText(note)), null);
    const summary = el(
      "p",
      { class: "summary", "data-testid": "ruling-summary" },
      el("strong", {}, t("ruling.points", { points: fmtPoints(ruling.points) })),
      " · ",
      ruling.game_over ? t("ruling.gameOver") : ruling.turn_passes ? t("ruling.passes") : t("ruling.continues"),
    );
    if (reveal) {
      for (const [i, item] of items.entries()) {
        if (!alive()) return;
        list.append(item);
        item.classList.add("fresh");
        // what the line says happens on the table as it is read (a ball put on its spot)
        const line = said[i];
        if (onItem && line) await onItem(line);
        await sleep(220 / animSpeed());
      }
    } else {
      list.append(...items);
    }
    target.append(summary);
  } else if (outcome.notes && outcome.notes.length) {
    target.append(el("ul", { class: "ruling-items" }, outcome.notes.map((n) => el("li", { class: "ruling-item note", "data-testid": "outcome-note" }, serverText(n)))));
  }
  target.dataset.revealed = String(Number(target.dataset.revealed || 0) + 1);
}

/** Where each ball was last seen moving in `records` (a potted ball: at its pocket).
 * @param {StrokeRecord[] | null | undefined} records @returns {Record<string, Point>} */
export function lastSeen(records) {
  const { paths } = mergeTrajectories(records || []);
  /** @type {Record<string, Point>} */
  const out = {};
  for (const [ball, path] of Object.entries(paths)) {
    for (let i = path.samples.length - 1; i >= 0; i--) {
      const at = path.samples[i];
      if (at) {
        out[ball] = at;
        break;
      }
    }
  }
  return out;
}

/** The balls as the ruling leaves them once the stroke's motion is over, except the respotted ones, which are
 * put on their spots one by one as the ruling's lines say so (`onItem`, for renderOutcome), each from where it
 * left the table (or rests, the kaisa going back to the centre); `finish` puts any left over.
 * @param {StrokeRecord[] | null | undefined} records @param {Ruling & { position: { balls: import("./state.js").Balls } }} ruling
 * @param {Overlay} [overlay] @returns {Settling} */
export function settle(records, ruling, overlay = {}) {
  const respots = new Map(Object.entries(ruling.respots || {}));
  const balls = { ...ruling.position.balls };
  for (const ball of respots.keys()) delete balls[ball];
  app.view.balls = balls;
  app.view.overlay = { ...overlay, respotted: [] };
  app.view.draw();
  const from = lastSeen(records);
  const put = async (/** @type {string} */ ball) => {
    const to = respots.get(ball);
    respots.delete(ball);
    if (!to) return;
    // for tests and the curious: which ball went, and the ruling's line on screen when it did
    const shown = document.querySelectorAll("#ruling .ruling-item");
    const last = shown.length ? shown[shown.length - 1] : null;
    const line = last instanceof HTMLElement ? last.dataset.clause || "" : "";
    const canvas = app.view.canvas;
    canvas.dataset.respotOrder = `${canvas.dataset.respotOrder ? `${canvas.dataset.respotOrder};` : ""}${ball}@${line}`;
    await app.view.respot(ball, from[ball] || null, to, 380 / animSpeed());
  };
  return {
    async onItem(item) {
      if (item.clause !== "4" && item.clause !== "4.1") return;
      const en = item.en || "";
      const ball = [...respots.keys()].find((b) => (b === "K" ? /kaisa/i.test(en) : en.includes(b)));
      if (ball) await put(ball);
    },
    async finish() {
      for (const ball of [...respots.keys()]) await put(ball);
    },
  };
}
