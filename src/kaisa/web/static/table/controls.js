// The stroke controls (direction, power, cue-tip offset, elevation) and the call builder. What they compute
// without the page (the power from a pull, the tip kept inside its circle, the call text from its parts, the
// called ball) is in plain functions, unit-tested under node (tests/js/controls.test.mjs).

import { api } from "../shared/api.js";
import { BALL_IDS, POCKET_IDS, normaliseDirection } from "../shared/geometry.js";
import { onLangChange, ruleText, t } from "../shared/i18n.js";
import { fmtDecimal, parseDecimal } from "../shared/ui.js";

export { fmtDecimal, normaliseDirection };

/** @typedef {import("../shared/types/api").components["schemas"]} Schemas */
/** The stroke as set: direction (degrees), speed (m/s), cue elevation (degrees) and the tip's offset from the
 * ball's centre (side, follow: fractions of the radius). @typedef {{ direction: number, speed: number,
 *   elevation: number, side: number, follow: number }} StrokeValue */
/** A call's clause the referee says cannot score where it would be played (rule and texts).
 * @typedef {{ clause?: string, fi?: string, en?: string }} Prospect */
/** The server's word on a call text: accepted (its canonical text, ball, pocket, what cannot score) or not.
 * @typedef {{ text: string, ok: true, call: string, ball: string, pocket: string, prospects: Prospect[] }
 *   | { text: string, ok: false, error: string }} Checked */
/** The call as far as it can be read without the server (for the table's highlights).
 * @typedef {{ text: string, noCall: boolean, ball: string | null, pocket: string | null }} CurrentCall */
/** The parts of a call the selects and fields give (konsti: "", "kyyti", "kara" or "kiss").
 * @typedef {{ cueRoute: string, konsti: string, konstiBall: string, ball: string, ballRoute: string,
 *   konstiRoute: string, pocket: string }} CallParts */

export const MAX_TIP = 0.5; // fractions of the ball radius: sqrt(side² + follow²) <= 0.5
export const MAX_SPEED = 8; // m/s
export const MIN_SPEED = 0.1; // m/s

/** The page's element `id` (index.html holds it), of class `kind`.
 * @template {HTMLElement} E @param {string} id @param {new () => E} kind @returns {E} */
function $(id, kind) {
  const node = document.getElementById(id);
  if (!(node instanceof kind)) throw new Error(`#${id}: no such element`);
  return node;
}

/** The speed for a pull `f` of the power bar (0 at its start, 1 at its end; beyond is held there), in steps of
 * 0.05 m/s. @param {number} f */
export function speedFromPull(f) {
  const held = Math.min(1, Math.max(0, f));
  return Math.round((MIN_SPEED + held * (MAX_SPEED - MIN_SPEED)) * 20) / 20;
}

/** The cue tip's offset kept inside its circle (|offset| <= MAX_TIP), in the same direction.
 * @param {number} side @param {number} follow @returns {{ side: number, follow: number }} */
export function clampTip(side, follow) {
  const m = Math.hypot(side, follow);
  return m > MAX_TIP ? { side: (side / m) * MAX_TIP, follow: (follow / m) * MAX_TIP } : { side, follow };
}

export class StrokeControls {
  /** @param {((value: StrokeValue) => void) | null} onChange */
  constructor(onChange) {
    this.onChange = onChange;
    /** @type {StrokeValue} */
    this.value = { direction: 90, speed: 2, elevation: 0, side: 0, follow: 0 };
    this.direction = $("direction", HTMLInputElement);
    this.speed = $("speed", HTMLInputElement);
    this.speedOut = $("speed-out", HTMLElement);
    this.elevation = $("elevation", HTMLInputElement);
    this.elevationOut = $("elevation-out", HTMLElement);
    this.tip = $("tip", HTMLCanvasElement);
    this.tipOut = $("tip-out", HTMLElement);
    this.direction.addEventListener("change", () => {
      const v = parseDecimal(this.direction.value); // "99,73" in Finnish, "99.73" in either language
      if (Number.isFinite(v)) this.set({ direction: normaliseDirection(v) });
      else this.render(); // not a number: the field shows the direction it kept
    });
    // the nudges turn the aim as seen on the screen: a positive data-nudge anticlockwise (↺), a negative one
    // clockwise (↻); screenSense() (set by the page) is -1 when the table is drawn so that a larger direction
    // turns clockwise
    /** @type {() => number} */
    this.screenSense = () => 1;
    for (const button of document.querySelectorAll("[data-nudge]")) {
      if (!(button instanceof HTMLElement)) continue;
      const nudge = Number(button.dataset.nudge);
      button.addEventListener("click", () => this.set({ direction: normaliseDirection(this.value.direction + nudge * this.screenSense()) }));
      const label = () => {
        const digits = Math.abs(nudge) >= 1 ? 0 : Math.round(-Math.log10(Math.abs(nudge)));
        const step = `${fmtDecimal(Math.abs(nudge), digits)}°`;
        button.textContent = `${nudge > 0 ? "↺" : "↻"} ${step}`;
        const said = t(nudge > 0 ? "aim.anticlockwise" : "aim.clockwise", { step });
        button.setAttribute("aria-label", said);
        button.title = said;
      };
      label();
      onLangChange(label);
    }
    onLangChange(() => this.render()); // the direction in the new language's decimals
    this.speed.addEventListener("input", () => this.set({ speed: Number(this.speed.value) }));
    // the power bar: press and pull down (or up) along it; the fill and m/s follow the finger
    this.powerBar = $("power-bar", HTMLElement);
    this.powerFill = $("power-fill", HTMLElement);
    this.powerText = $("power-text", HTMLElement);
    let pulling = false;
    /** @param {PointerEvent} event */
    const powerAt = (event) => {
      const rect = this.powerBar.getBoundingClientRect();
      this.set({ speed: speedFromPull((event.clientX - rect.left) / rect.width) });
    };
    this.powerBar.addEventListener("pointerdown", (event) => {
      pulling = true;
      this.powerBar.setPointerCapture(event.pointerId);
      powerAt(event);
      event.preventDefault();
    });
    this.powerBar.addEventListener("pointermove", (event) => pulling && powerAt(event));
    this.powerBar.addEventListener("pointerup", () => {
      pulling = false;
    });
    this.elevation.addEventListener("input", () => this.set({ elevation: Number(this.elevation.value) }));
    $("tip-centre", HTMLButtonElement).addEventListener("click", () => this.set({ side: 0, follow: 0 }));
    let dragging = false;
    /** @param {PointerEvent} event */
    const tipAt = (event) => {
      const rect = this.tip.getBoundingClientRect();
      const r = rect.width * 0.42;
      const { side, follow } = clampTip((event.clientX - rect.left - rect.width / 2) / r, -(event.clientY - rect.top - rect.height / 2) / r);
      this.set({ side: Math.round(side * 100) / 100, follow: Math.round(follow * 100) / 100 });
    };
    this.tip.addEventListener("pointerdown", (event) => {
      dragging = true;
      this.tip.setPointerCapture(event.pointerId);
      tipAt(event);
    });
    this.tip.addEventListener("pointermove", (event) => dragging && tipAt(event));
    this.tip.addEventListener("pointerup", () => {
      dragging = false;
    });
    // the keyboard: the arrows move the tip 0.05 of the radius (Shift 0.01), kept in its circle
    this.tip.addEventListener("keydown", (event) => {
      const way = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[event.key];
      if (!way) return;
      const step = event.shiftKey ? 0.01 : 0.05;
      const { side, follow } = clampTip(this.value.side + way[0] * step, this.value.follow + way[1] * step);
      this.set({ side: Math.round(side * 100) / 100, follow: Math.round(follow * 100) / 100 });
      event.preventDefault();
      event.stopPropagation(); // not the table's keys (aim and power)
    });
    this.render();
  }

  /** Change part of the stroke, kept within its bounds; the page hears of it unless `silent`.
   * @param {Partial<StrokeValue>} partial */
  set(partial, { silent = false } = {}) {
    Object.assign(this.value, partial);
    const v = this.value;
    Object.assign(v, clampTip(v.side, v.follow));
    v.speed = Math.min(MAX_SPEED, Math.max(MIN_SPEED, v.speed));
    v.elevation = Math.min(60, Math.max(0, v.elevation));
    this.render();
    if (!silent && this.onChange) this.onChange(v);
  }

  /** The stroke of `ball` as the API takes it. @param {string} ball */
  stroke(ball) {
    const v = this.value;
    return { ball, speed: v.speed, direction: v.direction, elevation: v.elevation, side: v.side, follow: v.follow };
  }

  render() {
    const v = this.value;
    if (document.activeElement !== this.direction) this.direction.value = fmtDecimal(v.direction, 2);
    this.speed.value = String(v.speed);
    this.speedOut.textContent = `${fmtDecimal(v.speed, 2)} m/s`;
    this.powerFill.style.width = `${((v.speed - 0.1) / (MAX_SPEED - 0.1)) * 100}%`;
    this.powerText.textContent = `${fmtDecimal(v.speed, 2)} m/s`;
    this.powerBar.setAttribute("aria-valuenow", String(v.speed));
    this.elevation.value = String(v.elevation);
    this.elevationOut.textContent = `${v.elevation.toFixed(0)}°`;
    const follow = v.follow >= 0 ? `${t("stroke.follow")} ${fmtDecimal(v.follow, 2)}` : `${t("stroke.draw")} ${fmtDecimal(-v.follow, 2)}`;
    this.tipOut.textContent = `${t("stroke.side")} ${fmtDecimal(v.side, 2)} · ${follow}`;
    this.tip.dataset.side = String(v.side);
    this.tip.dataset.follow = String(v.follow);
    this.drawTip();
  }

  drawTip() {
    const canvas = this.tip;
    const dpr = window.devicePixelRatio || 1;
    const size = canvas.clientWidth || 120;
    if (canvas.width !== Math.round(size * dpr)) {
      canvas.width = Math.round(size * dpr);
      canvas.height = Math.round(size * dpr);
    }
    const ctx = canvas.getContext("2d");
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, size, size);
    const c = size / 2;
    const r = size * 0.42;
    const grad = ctx.createRadialGradient(c - r * 0.3, c - r * 0.3, r * 0.1, c, c, r);
    grad.addColorStop(0, "#ffffff");
    grad.addColorStop(1, "#cfc7b2");
    ctx.fillStyle = grad;
    ctx.beginPath();
    ctx.arc(c, c, r, 0, 2 * Math.PI);
    ctx.fill();
    ctx.strokeStyle = "#888";
    ctx.stroke();
    ctx.setLineDash([3, 3]);
    ctx.strokeStyle = "#2a7";
    ctx.beginPath();
    ctx.arc(c, c, r * MAX_TIP, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.strokeStyle = "rgba(0,0,0,0.2)";
    ctx.beginPath();
    ctx.moveTo(c - r, c);
    ctx.lineTo(c + r, c);
    ctx.moveTo(c, c - r);
    ctx.lineTo(c, c + r);
    ctx.stroke();
    const x = c + this.value.side * r;
    const y = c - this.value.follow * r;
    ctx.fillStyle = "#1c5fd4";
    ctx.beginPath();
    ctx.arc(x, y, 6, 0, 2 * Math.PI);
    ctx.fill();
  }
}

/** Builds the call text `[cushions] [kyyti|kara X [cushions]] BALL [cushions] [kiss X [cushions]] POCKET`
 * from the selects (or takes it as typed) and checks it with POST /api/calls/check. */
export class CallControls {
  /** @param {((call: CurrentCall) => void) | null} onChange */
  constructor(onChange) {
    this.onChange = onChange;
    this.shooter = "W1";
    /** @type {string[]} */
    this.balls = [];
    this.noCall = $("no-call", HTMLInputElement);
    this.ball = $("call-ball", HTMLSelectElement);
    this.pocket = $("call-pocket", HTMLSelectElement);
    this.cueRoute = $("call-cue-route", HTMLInputElement);
    this.ballRoute = $("call-ball-route", HTMLInputElement);
    this.konsti = $("call-konsti", HTMLSelectElement);
    this.konstiBall = $("call-konsti-ball", HTMLSelectElement);
    this.konstiRoute = $("call-konsti-route", HTMLInputElement);
    this.text = $("call-text", HTMLInputElement);
    this.status = $("call-status", HTMLElement);
    /** @type {Checked | null} */
    this.checked = null;
    /** @type {(() => Record<string, unknown> | null) | null} where the call would be played (set by the page) */
    this.where = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this._timer = undefined;
    this._seq = 0;
    for (const el of [this.ball, this.pocket, this.konsti, this.konstiBall]) el.addEventListener("change", () => this.compose());
    for (const el of [this.cueRoute, this.ballRoute, this.konstiRoute]) el.addEventListener("input", () => this.compose());
    this.noCall.addEventListener("change", () => this.compose());
    this.text.addEventListener("input", () => {
      this.noCall.checked = this.text.value.trim() === "" && this.noCall.checked;
      this.scheduleCheck();
      this.changed();
    });
    this.setBalls(["W2", "R1", "R2", "K"], "W1");
  }

  /** The object balls that may be called (those on the table, not the shooter's own).
   * @param {string[]} balls @param {string} shooter */
  setBalls(balls, shooter) {
    const callable = balls.filter((b) => b !== shooter).sort();
    if (shooter === this.shooter && callable.join() === this.balls.join() && this.pocket.options.length) return;
    const shooterChanged = shooter !== this.shooter;
    this.shooter = shooter;
    this.balls = callable;
    if (shooterChanged) this.scheduleCheck(0);
    fillSelect(this.ball, ["", ...this.balls], this.ball.value);
    fillSelect(this.konstiBall, ["", ...this.balls], this.konstiBall.value);
    fillSelect(this.pocket, ["", ...POCKET_IDS], this.pocket.value);
  }

  reset() {
    this.noCall.checked = false;
    for (const el of [this.ball, this.pocket, this.konsti, this.konstiBall]) el.value = "";
    for (const el of [this.cueRoute, this.ballRoute, this.konstiRoute, this.text]) el.value = "";
    this.checked = null;
    this.renderStatus();
    this.changed();
  }

  /** @param {string} ball */
  setBall(ball) {
    if (!this.balls.includes(ball)) return;
    this.noCall.checked = false;
    this.ball.value = ball;
    this.compose();
  }

  /** @param {string} pocket */
  setPocket(pocket) {
    this.noCall.checked = false;
    this.pocket.value = pocket;
    this.compose();
  }

  /** Load a call text (from the advisor) as it is. @param {string | null | undefined} text */
  setText(text) {
    this.noCall.checked = !text;
    for (const el of [this.ball, this.pocket, this.konsti, this.konstiBall]) el.value = "";
    for (const el of [this.cueRoute, this.ballRoute, this.konstiRoute]) el.value = "";
    this.text.value = text || "";
    const pocket = calledPocket(text || "");
    if (pocket) this.pocket.value = pocket;
    const ball = calledBall(text || "");
    if (ball && this.balls.includes(ball)) this.ball.value = ball;
    this.scheduleCheck(0);
    this.changed();
  }

  compose() {
    this.text.value = this.noCall.checked
      ? ""
      : callText({
          cueRoute: this.cueRoute.value,
          konsti: this.konsti.value,
          konstiBall: this.konstiBall.value,
          ball: this.ball.value,
          ballRoute: this.ballRoute.value,
          konstiRoute: this.konstiRoute.value,
          pocket: this.pocket.value,
        });
    this.scheduleCheck();
    this.changed();
  }

  changed() {
    if (this.onChange) this.onChange(this.current());
  }

  /** {ball, pocket} of the call as far as it can be read without the server (for the table's highlights).
   * @returns {CurrentCall} */
  current() {
    const text = this.text.value.trim();
    return { text, noCall: this.noCall.checked, ball: calledBall(text), pocket: calledPocket(text) };
  }

  scheduleCheck(delay = 250) {
    clearTimeout(this._timer);
    const text = this.text.value.trim();
    if (!text) {
      this.checked = null;
      this.renderStatus();
      return;
    }
    this.status.textContent = t("call.checking");
    this.status.className = "call-status";
    this._timer = setTimeout(() => this.check(), delay);
  }

  /** Whether `text` is the call as checked and accepted (a preview is asked only for such a call: a mistyped
   * one would only be refused). @param {unknown} text */
  accepted(text) {
    const c = this.checked;
    return Boolean(c && c.ok && c.text === String(text).trim());
  }

  /** Check the current text with the server; resolves to {ok, call, error}. @returns {Promise<Checked>} */
  async check() {
    const text = this.text.value.trim();
    const seq = ++this._seq;
    /** @type {Checked} */
    let result;
    try {
      // where the call would be played (a match or a study position), so the referee can say whether it can
      // score there: the break, 2.1, from hand
      const where = this.where ? this.where() : {};
      // verdict: a call that cannot be accepted is answered 200 with its reason (no failed request in the console)
      /** @type {Schemas["CallCheckOut"]} */
      const answer = await api.checkCall(text, this.shooter, { ...(where || {}), verdict: true });
      // the API leaves a prospect's shape open: the referee's clause with its fi/en texts
      const prospects = /** @type {Prospect[]} */ (answer.prospects || []);
      if (answer.valid === false) result = { text, ok: false, error: ruleText({ fi: answer.fi || undefined, en: answer.en || undefined }) };
      else result = { text, ok: true, call: answer.call, ball: answer.ball, pocket: answer.pocket, prospects };
    } catch (error) {
      result = { text, ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    if (seq === this._seq) {
      this.checked = result;
      this.renderStatus();
      this.changed(); // a preview waits for the call to be checked
    }
    return result;
  }

  renderStatus() {
    const c = this.checked;
    if (this.noCall.checked) {
      this.status.textContent = t("call.noCall");
      this.status.className = "call-status";
    } else if (!c) {
      this.status.textContent = "";
      this.status.className = "call-status";
    } else if (c.ok && c.prospects.length) {
      this.status.textContent = `⚠ ${t("call.cannotScore", { call: c.call })} ${c.prospects.map((p) => `(${p.clause}) ${ruleText(p)}`).join(" ")}`;
      this.status.className = "call-status warn";
    } else if (c.ok) {
      this.status.textContent = `✓ ${t("call.valid", { call: c.call })}`;
      this.status.className = "call-status ok";
    } else {
      this.status.textContent = `✗ ${c.error}`;
      this.status.className = "call-status bad";
    }
    this.status.dataset.state = !c ? "none" : !c.ok ? "bad" : c.prospects.length ? "warn" : "ok";
  }

  /** What to send: {call: text|null} or {error}. @returns {Promise<{ call: string | null } | { error: string }>} */
  async resolve() {
    if (this.noCall.checked) return { call: null };
    const text = this.text.value.trim();
    if (!text) return { error: t("call.missing") };
    clearTimeout(this._timer);
    const checked = this.checked && this.checked.text === text ? this.checked : await this.check();
    if (!checked.ok) return { error: checked.error };
    return { call: checked.call };
  }
}

/** @param {HTMLSelectElement} select @param {string[]} values @param {string} keep the value kept if offered */
function fillSelect(select, values, keep) {
  select.replaceChildren(
    ...values.map((v) => {
      const option = document.createElement("option");
      option.value = v;
      option.textContent = v || t("call.choose");
      return option;
    }),
  );
  select.value = values.includes(keep) ? keep : "";
}

/** The call text of its parts, in the order the referee reads it: `[cushions] [kyyti|kara X [cushions]] BALL
 * [cushions] [kiss X [cushions]] POCKET`; "" until both the ball and the pocket are chosen.
 * @param {CallParts} parts */
export function callText(parts) {
  if (!parts.ball || !parts.pocket) return "";
  /** @type {string[]} */
  const tokens = [];
  /** @param {string} value */
  const add = (value) => {
    if (value.trim()) tokens.push(value.trim());
  };
  const { konsti, konstiBall: x } = parts;
  add(parts.cueRoute);
  if ((konsti === "kyyti" || konsti === "kara") && x) {
    tokens.push(konsti, x);
    add(parts.konstiRoute);
  }
  tokens.push(parts.ball);
  add(parts.ballRoute);
  if (konsti === "kiss" && x) {
    tokens.push("kiss", x);
    add(parts.konstiRoute);
  }
  tokens.push(parts.pocket);
  return tokens.join(" ");
}

/** The called pocket of a call text: its last word when that names a pocket (in either case), else null.
 * @param {string} text */
export function calledPocket(text) {
  const tokens = text.trim().split(/\s+/);
  const last = tokens[tokens.length - 1].toUpperCase();
  return POCKET_IDS.includes(last) ? last : null;
}

/** The called ball of a call text: the ball word that does not follow kyyti/kara/kiss.
 * @param {string} text @returns {string | null} */
export function calledBall(text) {
  const tokens = text.trim().split(/\s+/).map((s) => s.toUpperCase());
  for (let i = 0; i < tokens.length; i++) {
    if (["KYYTI", "KARA", "KISS"].includes(tokens[i])) {
      i += 1;
      continue;
    }
    if (BALL_IDS.includes(tokens[i])) return tokens[i];
  }
  return null;
}
