// Small DOM helpers shared by the browser table (app.js) and the club pages (club.js, scoreboard.js).

import { ruleText, t } from "./i18n.js";

/** An element with attributes (`class`, `text`, `dataset`, `on<event>` listeners) and children. */
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

export function fmtPoints(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** Seconds as m:ss. */
export function fmtClock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** A small ball (W1 one dot, W2 two dots, red, yellow). */
export function ballChip(ball) {
  return el("span", { class: `chip ball-${ball || "none"}`, title: ball || "", "aria-label": ball || "" });
}

/** One item of a ruling ({clause, points, fi, en}) as a list item citing its clause. */
export function rulingItem(item, kind) {
  return el(
    "li",
    { class: `ruling-item ${kind}`, "data-testid": "ruling-item", dataset: { clause: item.clause, kind } },
    el("span", { class: "clause", "data-testid": "clause", title: t("ruling.clause") }, `§ ${item.clause}`),
    el("span", { class: "text", "data-testid": "ruling-text" }, ruleText(item)),
    el("span", { class: `points ${item.points < 0 ? "neg" : item.points > 0 ? "pos" : ""}` }, item.points ? fmtPoints(item.points) : ""),
  );
}
