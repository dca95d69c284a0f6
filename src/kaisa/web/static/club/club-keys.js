// The marker's keyboard: every part of a stroke's entry by key (balls 1-5/K, pockets Q W / A S / Z X as the table
// lies from the head end, the part being entered C D F N O, G as called, 0 no call, L legal, Enter, Esc, U, ?).

import { $ } from "./club-common.js";
import { t } from "../shared/i18n.js";
import { club, showMessage } from "./club-shell.js";

/** @type {Record<string, string>} */
const BALL_KEYS = { 1: "W1", 2: "W2", 3: "R1", 4: "R2", 5: "K", k: "K" };
/** @type {Record<string, string>} */
const POCKET_KEYS = { q: "FL", w: "FR", a: "ML", s: "MR", z: "HL", x: "HR" };
/** @type {Record<string, import("./club-entry.js").Target>} */
const TARGET_KEYS = { c: "call", d: "pots", f: "first", n: "nakki", o: "off" };

/** @typedef {import("./club-match.js").MatchPage} MatchPage */

/** A key pressed on the marker's page, for the match page shown. @param {KeyboardEvent} event */
export function onKey(event) {
  const page = club.page;
  if (!page || !page.view || $("entry").hidden) return;
  if (page.busy && !["Tab", "Shift"].includes(event.key)) {
    event.preventDefault(); // an entry is being sent: keys would change the entry it answers
    return;
  }
  const target = event.target instanceof HTMLElement ? event.target : null;
  const tag = (target && target.tagName) || "";
  const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(tag) && !["checkbox", "radio", "button"].includes(/** @type {HTMLInputElement} */ (target).type);
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    page.submit();
    return;
  }
  if (typing) {
    if (event.key === "Enter" && $("entry").contains(target)) {
      event.preventDefault(); // no implicit submission from a text field: Enter there only confirms the field
      target?.blur();
    } else if (event.key === "Escape") {
      target?.blur();
    }
    return;
  }
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const key = event.key;
  const lower = key.length === 1 ? key.toLowerCase() : key;
  let handled = true;
  if (key === "Enter") {
    // a focused button outside the entry, a link or a summary does its own thing; inside the entry (the last ball or
    // pocket tapped keeps the focus) Enter enters the stroke
    if ((tag === "BUTTON" && !$("entry").contains(target)) || tag === "A" || tag === "SUMMARY") return;
    page.submit();
  } else if (key === "Escape") {
    page.clearEntry();
  } else if (key === "U") {
    page.askUndo();
  } else if (key === "?") {
    $("keys", HTMLDetailsElement).open = !$("keys", HTMLDetailsElement).open;
  } else if (key === "0") {
    page.noCall();
  } else if (lower === "g") {
    page.potAsCalled();
  } else if (lower === "l") {
    page.entry.legal = !page.entry.legal;
    page.renderEntry();
  } else if (key in BALL_KEYS || lower in BALL_KEYS) {
    keyBall(page, BALL_KEYS[key] || BALL_KEYS[lower]);
  } else if (lower in POCKET_KEYS) {
    keyPocket(page, POCKET_KEYS[lower]);
  } else if (lower in TARGET_KEYS) {
    page.setTarget(TARGET_KEYS[lower]);
  } else {
    handled = false;
  }
  if (handled) event.preventDefault();
}

/** @param {MatchPage} page @param {string} ball */
function keyBall(page, ball) {
  const e = page.entry;
  if (e.target === "call") page.setCallBall(ball);
  else if (e.target === "pots") page.pickPotBall(ball);
  else if (e.target === "first") page.setFirst(ball);
  else if (e.target === "nakki") page.toggle("nakki", ball);
  else if (e.target === "off") page.toggleOff(ball);
}

/** @param {MatchPage} page @param {string} pocket */
function keyPocket(page, pocket) {
  const e = page.entry;
  if (e.target === "call") page.setCallPocket(pocket);
  else if (e.target === "pots") page.potPocket(pocket);
  else showMessage(() => t("club.pots.pickBall"), "info");
}
