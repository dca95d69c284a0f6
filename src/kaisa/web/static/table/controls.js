// The stroke controls (direction, power, cue-tip offset, elevation) and the call builder.

import { api } from "../shared/api.js";
import { onLangChange, ruleText, t } from "../shared/i18n.js";
import { POCKET_IDS } from "../shared/table.js";
import { fmtDecimal, parseDecimal } from "../shared/ui.js";

export { fmtDecimal };

export const MAX_TIP = 0.5; // fractions of the ball radius: sqrt(side² + follow²) <= 0.5
const $ = (id) => document.getElementById(id);

export const MAX_SPEED = 8; // m/s

export function normaliseDirection(d) {
  let x = ((d % 360) + 360) % 360;
  if (x > 180) x -= 360;
  return Math.round(x * 10000) / 10000;
}

export class StrokeControls {
  constructor(onChange) {
    this.onChange = onChange;
    this.value = { direction: 90, speed: 2, elevation: 0, side: 0, follow: 0 };
    this.direction = $("direction");
    this.speed = $("speed");
    this.speedOut = $("speed-out");
    this.elevation = $("elevation");
    this.elevationOut = $("elevation-out");
    this.tip = $("tip");
    this.tipOut = $("tip-out");
    this.direction.addEventListener("change", () => {
      const v = parseDecimal(this.direction.value); // "99,73" in Finnish, "99.73" in either language
      if (Number.isFinite(v)) this.set({ direction: normaliseDirection(v) });
      else this.render(); // not a number: the field shows the direction it kept
    });
    // the nudges turn the aim as seen on the screen: a positive data-nudge anticlockwise (↺), a negative one
    // clockwise (↻); screenSense() (set by the page) is -1 when the table is drawn so that a larger direction
    // turns clockwise
    this.screenSense = () => 1;
    for (const button of document.querySelectorAll("[data-nudge]")) {
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
    this.powerBar = $("power-bar");
    this.powerFill = $("power-fill");
    this.powerText = $("power-text");
    let pulling = false;
    const powerAt = (event) => {
      const rect = this.powerBar.getBoundingClientRect();
      const f = Math.min(1, Math.max(0, (event.clientX - rect.left) / rect.width));
      this.set({ speed: Math.round((0.1 + f * (MAX_SPEED - 0.1)) * 20) / 20 });
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
    $("tip-centre").addEventListener("click", () => this.set({ side: 0, follow: 0 }));
    let dragging = false;
    const tipAt = (event) => {
      const rect = this.tip.getBoundingClientRect();
      const r = rect.width * 0.42;
      let side = (event.clientX - rect.left - rect.width / 2) / r;
      let follow = -(event.clientY - rect.top - rect.height / 2) / r;
      const m = Math.hypot(side, follow);
      if (m > MAX_TIP) {
        side = (side / m) * MAX_TIP;
        follow = (follow / m) * MAX_TIP;
      }
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
    this.render();
  }

  set(partial, { silent = false } = {}) {
    Object.assign(this.value, partial);
    const v = this.value;
    const m = Math.hypot(v.side, v.follow);
    if (m > MAX_TIP) {
      v.side = (v.side / m) * MAX_TIP;
      v.follow = (v.follow / m) * MAX_TIP;
    }
    v.speed = Math.min(MAX_SPEED, Math.max(0.1, v.speed));
    v.elevation = Math.min(60, Math.max(0, v.elevation));
    this.render();
    if (!silent && this.onChange) this.onChange(v);
  }

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
  constructor(onChange) {
    this.onChange = onChange;
    this.shooter = "W1";
    this.balls = [];
    this.noCall = $("no-call");
    this.ball = $("call-ball");
    this.pocket = $("call-pocket");
    this.cueRoute = $("call-cue-route");
    this.ballRoute = $("call-ball-route");
    this.konsti = $("call-konsti");
    this.konstiBall = $("call-konsti-ball");
    this.konstiRoute = $("call-konsti-route");
    this.text = $("call-text");
    this.status = $("call-status");
    this.checked = null; // {text, ok, call, error}
    this._timer = null;
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

  /** The object balls that may be called (those on the table, not the shooter's own). */
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

  setBall(ball) {
    if (!this.balls.includes(ball)) return;
    this.noCall.checked = false;
    this.ball.value = ball;
    this.compose();
  }

  setPocket(pocket) {
    this.noCall.checked = false;
    this.pocket.value = pocket;
    this.compose();
  }

  /** Load a call text (from the advisor) as it is. */
  setText(text) {
    this.noCall.checked = !text;
    for (const el of [this.ball, this.pocket, this.konsti, this.konstiBall]) el.value = "";
    for (const el of [this.cueRoute, this.ballRoute, this.konstiRoute]) el.value = "";
    this.text.value = text || "";
    const tokens = (text || "").split(/\s+/);
    const last = tokens[tokens.length - 1];
    if (POCKET_IDS.includes(last)) this.pocket.value = last;
    const ball = calledBall(text || "");
    if (ball && this.balls.includes(ball)) this.ball.value = ball;
    this.scheduleCheck(0);
    this.changed();
  }

  compose() {
    if (this.noCall.checked) {
      this.text.value = "";
    } else {
      const tokens = [];
      const konsti = this.konsti.value;
      const x = this.konstiBall.value;
      const add = (value) => value.trim() && tokens.push(value.trim());
      add(this.cueRoute.value);
      if ((konsti === "kyyti" || konsti === "kara") && x) {
        tokens.push(konsti, x);
        add(this.konstiRoute.value);
      }
      if (this.ball.value) tokens.push(this.ball.value);
      add(this.ballRoute.value);
      if (konsti === "kiss" && x) {
        tokens.push("kiss", x);
        add(this.konstiRoute.value);
      }
      if (this.pocket.value) tokens.push(this.pocket.value);
      this.text.value = this.ball.value && this.pocket.value ? tokens.join(" ") : "";
    }
    this.scheduleCheck();
    this.changed();
  }

  changed() {
    if (this.onChange) this.onChange(this.current());
  }

  /** {ball, pocket} of the call as far as it can be read without the server (for the table's highlights). */
  current() {
    const text = this.text.value.trim();
    const tokens = text.split(/\s+/).map((s) => s.toUpperCase());
    const last = tokens[tokens.length - 1];
    return { text, noCall: this.noCall.checked, ball: calledBall(text), pocket: POCKET_IDS.includes(last) ? last : null };
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
   * one would only be refused). */
  accepted(text) {
    const c = this.checked;
    return Boolean(c && c.ok && c.text === String(text).trim());
  }

  /** Check the current text with the server; resolves to {ok, call, error}. */
  async check() {
    const text = this.text.value.trim();
    const seq = ++this._seq;
    let result;
    try {
      // where the call would be played (a match or a study position), so the referee can say whether it can
      // score there: the break, 2.1, from hand
      const where = this.where ? this.where() : {};
      // verdict: a call that cannot be accepted is answered 200 with its reason (no failed request in the console)
      const answer = await api.checkCall(text, this.shooter, { ...(where || {}), verdict: true });
      if (answer.valid === false) result = { text, ok: false, error: ruleText(answer) };
      else result = { text, ok: true, call: answer.call, ball: answer.ball, pocket: answer.pocket, prospects: answer.prospects || [] };
    } catch (error) {
      result = { text, ok: false, error: error.message };
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
    } else if (c.ok && c.prospects && c.prospects.length) {
      this.status.textContent = `⚠ ${t("call.cannotScore", { call: c.call })} ${c.prospects.map((p) => `(${p.clause}) ${ruleText(p)}`).join(" ")}`;
      this.status.className = "call-status warn";
    } else if (c.ok) {
      this.status.textContent = `✓ ${t("call.valid", { call: c.call })}`;
      this.status.className = "call-status ok";
    } else {
      this.status.textContent = `✗ ${c.error}`;
      this.status.className = "call-status bad";
    }
    this.status.dataset.state = !c ? "none" : !c.ok ? "bad" : c.prospects && c.prospects.length ? "warn" : "ok";
  }

  /** What to send: {call: text|null} or {error}. */
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

/** The called ball of a call text: the ball word that does not follow kyyti/kara/kiss. */
export function calledBall(text) {
  const tokens = text.trim().split(/\s+/).map((s) => s.toUpperCase());
  for (let i = 0; i < tokens.length; i++) {
    if (["KYYTI", "KARA", "KISS"].includes(tokens[i])) {
      i += 1;
      continue;
    }
    if (["W1", "W2", "R1", "R2", "K"].includes(tokens[i])) return tokens[i];
  }
  return null;
}
