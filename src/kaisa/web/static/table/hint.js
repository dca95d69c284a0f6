// The match's hint: the advisor's suggestion for the person's turn (its call, odds, words and, from hand, where to
// put the ball), shown under the stroke's controls to take or dismiss.

import { geo } from "./state.js";
import { $, fmtNum } from "./page.js";
import { calledBall } from "./controls.js";
import { lang, t } from "../shared/i18n.js";
import { el } from "../shared/ui.js";

/** @typedef {import("./state.js").Stroke} Stroke @typedef {import("./state.js").Schemas} Schemas */
/** The advisor's suggestion as the server sends it (AdviceOut), its stroke and words spelled out.
 * @typedef {Omit<Schemas["AdviceOut"], "stroke" | "words"> & { stroke: Stroke, words?: { fi?: string, en?: string } | null }} Suggestion */
/** A suggestion as the hint shows it: with a label, and its call's ball and pocket to draw.
 * @typedef {Suggestion & { label: string, ball: string | null, pocket: string | null }} Advice */
/** The hint of a turn: asked (thinking, since performance.now() `since`), shown, or none found.
 * @typedef {{ turn: string | null, state: "thinking" | "shown" | "empty", since: number, advice?: Advice }} Hint */

/** The suggestion with its label ("K FR · 62 %") and its call's ball and pocket. Pure. @param {Suggestion} best @returns {Advice} */
export function adviceOf(best) {
  const tokens = (best.call || "").split(/\s+/);
  const label = `${best.call ?? t("study.safety")} · ${Math.round(best.p_pot * 100)} %`;
  return { ...best, label, ball: best.call ? calledBall(best.call) : null, pocket: best.call ? tokens[tokens.length - 1] : null };
}

/** The hint's box: hidden without a hint, a progress bar while asked, "none" or the suggestion with Take and
 * Dismiss. @param {Hint | null} hint @param {{ take: () => void, dismiss: () => void }} actions */
export function renderHint(hint, { take, dismiss: onDismiss }) {
  const box = $("hint-box");
  const h = hint;
  box.hidden = !h;
  box.dataset.state = h ? h.state : "";
  if (!h) {
    box.replaceChildren();
    return;
  }
  const dismiss = el("button", { type: "button", class: "small", "data-testid": "hint-dismiss", onclick: () => onDismiss() }, t("hint.dismiss"));
  if (h.state === "thinking") {
    const seconds = Math.floor((performance.now() - h.since) / 1000);
    box.replaceChildren(
      el("div", { class: "progress", role: "progressbar", "aria-label": t("hint.title") }, el("span")),
      el("p", { class: "hint", "data-testid": "hint-thinking" }, t("hint.thinking", { s: seconds })),
      dismiss,
    );
    return;
  }
  if (h.state === "empty") {
    box.replaceChildren(el("p", { "data-testid": "hint-none" }, t("hint.none")), dismiss);
    return;
  }
  const a = h.advice;
  if (!a) return;
  const words = a.words ? a.words[lang() === "fi" ? "fi" : "en"] : t("hint.safety");
  const lines = [
    el("p", { class: "hint-call" }, el("strong", { class: "mono", "data-testid": "hint-call" }, a.call ?? t("study.safety")), " ", el("span", { "data-testid": "hint-words" }, words)),
    el("p", { class: "hint", "data-testid": "hint-odds" }, t("hint.odds", { p: Math.round(a.p_pot * 100), e: fmtNum(a.expected_points, 2), f: Math.round(a.p_foul * 100) })),
  ];
  if (a.stroke.place) {
    // where to put the ball in hand as a player measures it: from the head cushion and the nearer side cushion
    const [x, y] = a.stroke.place;
    const right = x > geo().W / 2;
    const side = Math.round((right ? geo().W - x : x) * 100);
    const which = t(right ? "hint.right" : "hint.left");
    lines.push(el("p", { class: "hint" }, t("hint.place", { ball: a.stroke.ball, head: Math.round(y * 100), side, which })));
  }
  box.replaceChildren(
    el("h4", {}, t("hint.title")),
    ...lines,
    el("div", { class: "row wrap" }, el("button", { type: "button", class: "small primary", "data-testid": "hint-take", onclick: () => take() }, t("hint.take")), dismiss),
    el("p", { class: "hint small-print" }, t("hint.note")),
  );
}
