// Small DOM helpers shared by the browser table (app.js) and the club pages (club.js, scoreboard.js).

import { lang, ruleText, t } from "./i18n.js";

/** One line of a referee's ruling as the server sends it: the clause it applies, its points, its text in both
 * languages and, for catalogue sentences, the sentence's key.
 * @typedef {{ clause: string, points: number, fi: string, en: string, key?: string }} RulingItem */

/** An element with attributes (`class`, `text`, `dataset`, `on<event>` listeners) and children.
 * @param {string} tag @param {Record<string, any>} [attrs] @param {...any} children @returns {HTMLElement} */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** @param {number} n */
export function fmtPoints(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** Seconds as m:ss.
 * @param {number} seconds */
export function fmtClock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** A small ball (W1 one dot, W2 two dots, red, yellow).
 * @param {string | null | undefined} ball */
export function ballChip(ball) {
  // role img: a span may carry a name only with a role (axe, aria-prohibited-attr); no ball yet, nothing to say
  if (!ball) return el("span", { class: "chip ball-none", "aria-hidden": "true" });
  return el("span", { class: `chip ball-${ball}`, role: "img", title: ball, "aria-label": ball });
}

/** `x` with `digits` decimals in the page's language (a decimal comma and a real minus sign in Finnish): the
 * one number formatting of the pages.
 * @param {number | string} x @param {number} [digits] */
export function fmtDecimal(x, digits = 2) {
  const text = Number(x).toFixed(digits);
  return lang() === "fi" ? text.replace(".", ",").replace("-", "−") : text;
}

/** A number as a person types it in either language: a decimal comma or point, a hyphen or a minus sign.
 * @param {unknown} text @returns {number} */
export function parseDecimal(text) {
  const cleaned = String(text).trim().replace(/\s/g, "").replace(",", ".").replace(/^[−–]/, "-");
  return cleaned === "" || !/^[-+]?(\d+\.?\d*|\.\d+)$/.test(cleaned) ? NaN : Number(cleaned);
}

const MONTHS_EN = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A date (YYYY-MM-DD) as people write it: 3.12.2026 in Finnish, 3 Dec 2026 in English, as the PDFs do
 * (kaisa.competition.paper.date_text); anything else as written.
 * @param {string | null | undefined} iso */
export function fmtDate(iso) {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso || "");
  if (!m || Number(m[2]) < 1 || Number(m[2]) > 12) return iso || "";
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return lang() === "fi" ? `${day}.${month}.${year}` : `${day} ${MONTHS_EN[month - 1]} ${year}`;
}

/** Whether a ruling note is the catalogue's "1.3 rattles" sentence (jaw rattles before the drop need no call):
 * it is only said with a legal pot and changes nothing, so the pages leave it out (it stays in the stored
 * ruling and its clause list). Known by its wording's key; a ruling stored before items carried keys, by its
 * English, old ("Jaw rattles (") and current.
 * @param {RulingItem} item */
function isRattleNote(item) {
  return item.clause === "1.3" && !item.points && (item.key ? item.key === "rattles" : /^(Rattling in the jaws|Jaw rattles \()/.test(item.en || ""));
}

/** The notes of a ruling worth showing: no rattle note (it changed nothing) and, once the stroke ended the game,
 * no respot notes (section 4: where balls go and who plays from hand next, when there is no next turn).
 * @param {{ notes?: RulingItem[], game_over?: boolean }} ruling */
export function shownNotes(ruling) {
  return (ruling.notes || []).filter((n) => !isRattleNote(n) && !(ruling.game_over && n.clause.startsWith("4")));
}

/** One item of a ruling ({clause, points, fi, en, key?}) as a list item citing its clause.
 * @param {RulingItem} item @param {string} kind */
export function rulingItem(item, kind) {
  return el(
    "li",
    { class: `ruling-item ${kind}`, "data-testid": "ruling-item", dataset: { clause: item.clause, kind } },
    el("span", { class: "clause", "data-testid": "clause", title: t("ruling.clause") }, `§ ${item.clause}`),
    el("span", { class: "text", "data-testid": "ruling-text" }, ruleText(item)),
    el("span", { class: `points ${item.points < 0 ? "neg" : item.points > 0 ? "pos" : ""}` }, item.points ? fmtPoints(item.points) : ""),
  );
}
