// Number, clock and date formatting of the pages (ui.js): a decimal comma and a real minus sign in Finnish, and
// numbers typed either way read back.
import "./support/browser.mjs";
import assert from "node:assert/strict";
import { test } from "node:test";

const { setLang } = await import("../../src/kaisa/web/static/shared/i18n.js");
const { fmtClock, fmtDate, fmtDecimal, fmtPoints, parseDecimal } = await import("../../src/kaisa/web/static/shared/ui.js");

test("fmtDecimal writes a decimal comma and a minus sign in Finnish, a point and a hyphen in English", () => {
  setLang("fi");
  assert.equal(fmtDecimal(-0.11), "−0,11");
  assert.equal(fmtDecimal(3.25, 1), "3,3");
  setLang("en");
  assert.equal(fmtDecimal(-0.11), "-0.11");
  assert.equal(fmtDecimal(1.5, 0), "2");
});

test("parseDecimal reads what a person types in either language and refuses the rest", () => {
  assert.equal(parseDecimal("1,25"), 1.25);
  assert.equal(parseDecimal(" 1.25 "), 1.25);
  assert.equal(parseDecimal("−0,5"), -0.5);
  assert.equal(parseDecimal("-0.5"), -0.5);
  assert.equal(parseDecimal(",5"), 0.5);
  assert.equal(parseDecimal("1 000,5"), 1000.5);
  for (const bad of ["", "abc", "1,2,3", "1.2.3", "[1]", "--1", "1e5"]) assert.ok(Number.isNaN(parseDecimal(bad)), bad);
});

test("fmtPoints signs a gain, fmtClock writes m:ss and never a negative time", () => {
  assert.equal(fmtPoints(6), "+6");
  assert.equal(fmtPoints(0), "0");
  assert.equal(fmtPoints(-3), "-3");
  assert.equal(fmtClock(0), "0:00");
  assert.equal(fmtClock(61.9), "1:01");
  assert.equal(fmtClock(3600), "60:00");
  assert.equal(fmtClock(-5), "0:00");
});

test("fmtDate writes 3.12.2026 in Finnish and 3 Dec 2026 in English, anything else as given", () => {
  setLang("fi");
  assert.equal(fmtDate("2026-12-03"), "3.12.2026");
  setLang("en");
  assert.equal(fmtDate("2026-12-03"), "3 Dec 2026");
  assert.equal(fmtDate("2026-13-03"), "2026-13-03");
  assert.equal(fmtDate("joulukuu"), "joulukuu");
  assert.equal(fmtDate(""), "");
});
