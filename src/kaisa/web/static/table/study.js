// The study table: any position set by hand (balls, the shooter, the game state), strokes ruled but not
// recorded, the advisor's suggestions, a step back. The position is kept on this device. The game state's edits
// (who is in hand, the scores, the state after a stroke, the advice once per call) are study-state.js's.

import { app, area, firstLegal, geo, legalize, lightOf } from "./state.js";
import { $, animSpeed, clearMessage, fmtNum, show, showError, showMessage } from "./page.js";
import { fitTable, keepTableInView, showPanels, showScreen } from "./layout.js";
import { aimAtCall, aimFrom, clearAim, clickToCallOrAim, windowFor } from "./aim-helper.js";
import { renderOutcome, settle } from "./rulings.js";
import { api } from "../shared/api.js";
import { normaliseDirection } from "./controls.js";
import * as aids from "./aim.js";
import { levelName, t } from "../shared/i18n.js";
import * as sound from "../shared/sound.js";
import { ballChip, el } from "../shared/ui.js";
import { BALL_IDS, degrees, dist } from "../shared/table.js";
import * as studied from "./study-state.js";

/** @typedef {import("../shared/types/api").components["schemas"]} Schemas */
/** @typedef {import("./state.js").Point} Point @typedef {import("./state.js").Balls} Balls */
/** @typedef {import("./state.js").Stroke} Stroke @typedef {import("./state.js").Ruling} Ruling */
/** @typedef {import("./state.js").Entry} Entry @typedef {import("./state.js").AimAnswer} AimAnswer */
/** A stroke's record as the server simulated it: its motion (drawn) and its events (heard).
 * @typedef {import("./state.js").StrokeRecord & import("../shared/sound.js").StrokeRecord} StrokeRecord */
/** @typedef {import("./study-state.js").StudyState} StudyState @typedef {import("./study-state.js").StudyAdvice} StudyAdvice */
/** @typedef {import("./study-state.js").GameStateJson} GameStateJson @typedef {import("./study-state.js").CueBall} CueBall */
/** The study's stroke ruled (StudyShotOut, its open shapes spelled out): the motion, and the ruling with where the
 * balls went and the game state after it. @typedef {{ record: StrokeRecord, ruling: Ruling & { position: { balls: Balls },
 *   state: GameStateJson } }} StudyShot */

const STUDY_KEY = "kaisa.study";

// --- the study table -----------------------------------------------------------------------------------------

export class StudyMode {
  constructor() {
    this.session = app.session;
    this.working = false;
    this.aiming = false; // the aim helper is at work (aim-helper.js)
    const saved = loadStudy();
    /** @type {Balls} */
    this.position = saved.position || this.startPosition();
    this.shooter = studied.cueBallOf(saved.shooter);
    this.state = studied.stateFrom(saved.state); // the game state set by hand (gameState)
    /** @type {Balls} where a cue ball stood before it was put in hand, to put it back there */
    this.offTable = {};
    /** @type {{ position: Balls, shooter: CueBall, state: StudyState } | null} the study before the last stroke */
    this.before = null;
    /** @type {StudyAdvice[]} */
    this.advice = [];
    /** @type {Entry | null} the ruling panel */
    this.entry = null;
  }

  alive() {
    return app.session === this.session;
  }

  busy() {
    return this.working || app.view.animating;
  }

  /** The study's first position: W1 behind the head string, W2 at the foot, the reds and the kaisa on their spots.
   * @returns {Balls} */
  startPosition() {
    const s = app.table.spots;
    const g = app.view.geo;
    return { W1: [g.W * 0.62, g.L * 0.15], W2: [g.W * 0.5, g.L * 0.92], R1: s["head-string"], R2: s["foot-string"], K: s.centre };
  }

  enter() {
    showScreen("table");
    showPanels({ call: true, stroke: true, shoot: true, study: true });
    show("hint-row", false); // study has its own advisor
    show("hint", false);
    show("hint-box", false);
    $("undo").hidden = true;
    $("take-break").hidden = true;
    $("phase-actions").replaceChildren();
    $("log").replaceChildren();
    $("ruling").replaceChildren();
    $("inning").replaceChildren();
    $("scoreboard").replaceChildren();
    fitTable();
    app.call.reset();
    clearAim();
    this.aimDefault();
    this.render();
  }

  save() {
    try {
      localStorage.setItem(STUDY_KEY, JSON.stringify({ position: this.position, shooter: this.shooter, state: this.state }));
    } catch {
      // storage full or off: the study position lasts for this page only
    }
  }

  aimDefault() {
    const cue = this.position[this.shooter];
    const k = this.position.K;
    if (cue && k) app.stroke.set({ direction: normaliseDirection(degrees(Math.atan2(k[1] - cue[1], k[0] - cue[0]))) }, { silent: true });
  }

  render() {
    if (!this.alive()) return;
    const busy = this.busy();
    for (const option of $("advise-level", HTMLSelectElement).options) option.textContent = levelName(option.value);
    $("study-shooter", HTMLSelectElement).value = this.shooter;
    const shoot = $("shoot", HTMLButtonElement);
    shoot.hidden = false;
    shoot.textContent = t("stroke.shoot");
    shoot.disabled = busy;
    $("advise", HTMLButtonElement).disabled = busy;
    $("study-back", HTMLButtonElement).disabled = busy || !this.before;
    $("prompt").textContent = this.position[this.shooter] ? t("study.prompt", { ball: this.shooter }) : t("study.cueMissing", { ball: this.shooter });
    this.renderState();
    const boxes = $("study-balls");
    boxes.replaceChildren(
      ...BALL_IDS.map((b) =>
        el(
          "label",
          { class: "check" },
          el("input", { type: "checkbox", "data-testid": `study-ball-${b}`, checked: Boolean(this.position[b]), disabled: busy, onchange: (/** @type {Event} */ e) => e.target instanceof HTMLInputElement && this.toggle(b, e.target.checked) }),
          ballChip(b),
          b,
        ),
      ),
    );
    app.call.setBalls(Object.keys(this.position), this.shooter);
    if (!app.view.animating) {
      const c = app.call.current();
      app.view.balls = { ...this.position };
      const cue = this.position[this.shooter];
      app.view.overlay = {
        draggable: Object.keys(this.position),
        legal: this.fromHand() ? lightOf(area("hand", this.position, this.shooter)) : null,
        aims: cue && !this.advice.length ? [{ from: cue, ball: this.shooter, direction: app.stroke.value.direction, speed: app.stroke.value.speed, aids: aids.level(), call: c, window: windowFor(this, cue, this.position) }] : [],
        preview: this.advice.length ? null : aids.previewFor(this),
        advice: this.advice,
        callBall: c.ball,
        callPocket: c.pocket,
      };
      app.view.draw();
    }
    app.view.canvas.dataset.adviceCount = String(this.advice.length);
    app.view.canvas.dataset.phase = "study";
    const cue = this.position[this.shooter];
    app.view.canvas.dataset.cue = cue ? `${cue[0].toFixed(4)},${cue[1].toFixed(4)}` : "";
    this.renderAdvice();
  }

  /** The game state's controls: who is in hand, the break, the 2.1 flag, the scores, and a one-line summary. */
  renderState() {
    const st = this.state;
    const busy = this.busy();
    for (const b of ["W1", "W2"]) {
      const box = $(`study-hand-${b}`, HTMLInputElement);
      box.checked = st.in_hand.includes(b);
      box.disabled = busy;
      $(`study-hand-${b}-label`).textContent = t("study.inHand", { ball: b });
      const score = $(`study-score-${b}`, HTMLInputElement);
      if (document.activeElement !== score) score.value = String(st.scores[b]);
      score.disabled = busy;
    }
    const opening = $("study-opening", HTMLInputElement);
    opening.checked = st.opening;
    opening.disabled = busy;
    const twice = $("study-twice", HTMLInputElement);
    twice.checked = st.twice;
    twice.disabled = busy;
    $("study-state-summary").textContent = studied.stateSummary(this.shooter, st);
  }

  /** The shooter plays from behind the head string: its ball in hand, or the break. */
  fromHand() {
    return studied.fromHand(this.state, this.shooter);
  }

  /** A shooter playing from hand stands behind the head string: moved there (the nearest free place). */
  placeInHand() {
    if (!this.fromHand()) return;
    const g = geo();
    const a = area("hand", this.position, this.shooter);
    const here = this.position[this.shooter];
    const kept = here ? legalize(here, a, null) : null;
    // where it stands if that is legal, else a usual place behind the line (not squeezed against the line)
    const usual = studied.usualHandSpots(g.W, g.L, this.shooter);
    const spot = kept && here && dist(kept, here) < 1e-6 ? kept : firstLegal(usual, a) || kept;
    if (spot) this.position[this.shooter] = spot;
  }

  /** A cue ball put in hand (or taken out): the opponent's leaves the table (and comes back where it was), the
   * shooter's goes behind the head string. @param {string} ball @param {boolean} on */
  setHand(ball, on) {
    this.state.in_hand = studied.withHand(this.state.in_hand, ball, on);
    if (ball !== this.shooter) {
      if (on && this.position[ball]) {
        this.offTable[ball] = this.position[ball];
        delete this.position[ball];
      } else if (!on && !this.position[ball]) {
        const back = this.offTable[ball] || this.startPosition()[ball];
        const spot = legalize(back, area("bed", this.position, ball), null) || firstLegal([back], area("bed", this.position, ball));
        if (spot) this.position[ball] = spot;
      }
    }
    this.placeInHand();
    this.changedState();
  }

  /** @param {boolean} on */
  setOpening(on) {
    this.state.opening = on;
    this.placeInHand();
    this.changedState();
  }

  /** @param {boolean} on */
  setTwice(on) {
    this.state.twice = on;
    this.changedState();
  }

  /** @param {string} ball @param {string} text the score as typed */
  setScore(ball, text) {
    this.state.scores[ball] = studied.scoreOf(text);
    this.changedState();
  }

  changedState() {
    this.advice = [];
    this.save();
    app.call.scheduleCheck(0); // the call's prospects depend on the state (the break, 2.1, from hand)
    this.render();
  }

  renderAdvice() {
    const list = $("advice-list");
    list.replaceChildren(
      ...this.advice.map((a, i) =>
        el(
          "li",
          { "data-testid": "advice-item", class: "advice-item", onclick: () => this.useAdvice(i) },
          el("span", { class: "mono strong" }, a.call ?? `(${t("study.safety")})`),
          " ",
          el("span", { class: "hint" }, [t("study.pPot", { p: Math.round(a.p_pot * 100) }), t("study.ev", { e: fmtNum(a.expected_points, 2) }), t("study.pFoul", { p: Math.round(a.p_foul * 100) }), t("study.leave", { v: (a.position_value >= 0 ? "+" : "") + fmtNum(a.position_value, 2) })].join(" · ")),
        ),
      ),
    );
  }

  /** Ball `ball` put on the table (its start or the nearest free place) or taken off. @param {string} ball @param {boolean} on */
  toggle(ball, on) {
    this.advice = [];
    if (on && ball !== this.shooter && this.state.in_hand.includes(ball)) {
      this.state.in_hand = this.state.in_hand.filter((b) => b !== ball); // back on the table: no longer in hand
    }
    if (on) {
      const start = this.startPosition()[ball];
      const spot = legalize(start, area("bed", this.position, ball), null) || firstLegal([start], area("bed", this.position, ball));
      if (spot) this.position[ball] = spot;
    } else {
      delete this.position[ball];
    }
    this.save();
    this.render();
  }

  /** @param {Point} p */
  draggableAt(p) {
    return app.view.ballAt(p, 1.3);
  }

  /** @param {string} ball @param {Point} p */
  dragTo(ball, p) {
    this.advice = [];
    const where = ball === this.shooter && this.fromHand() ? "hand" : "bed";
    this.position[ball] = legalize(p, area(where, this.position, ball), this.position[ball]);
    this.render();
  }

  dragEnd() {
    this.save();
  }

  /** @param {Point} p */
  aimAt(p) {
    this.advice = [];
    aimFrom(this.position[this.shooter], p);
  }

  /** @param {Point} p @param {string | null} ball the ball under the pointer */
  click(p, ball) {
    if (ball === this.shooter) return;
    clickToCallOrAim(this, p, this.shooter);
  }

  onStrokeChange() {
    this.advice = [];
    this.render();
  }

  aimCall() {
    aimAtCall(this, this.position[this.shooter], this.position, (call, stroke) => this.askAim(call, stroke));
  }

  /** The aim helper in the study's position and state (a read); not `deep`: the stroke as set only.
   * @param {string} call @param {Stroke} stroke @returns {Promise<AimAnswer>} */
  askAim(call, stroke, deep = true) {
    return api.studyAim({ position: { balls: this.position }, state: this.gameState(), call, stroke: { ...stroke, ball: this.shooter }, deep });
  }

  /** The stroke as set, of the shooter's cue ball. @returns {Stroke & { ball: CueBall }} */
  strokeNow() {
    return { ...app.stroke.stroke(this.shooter), ball: this.shooter };
  }

  callWhere() {
    return { position: { balls: this.position }, state: this.gameState() };
  }

  /** The referee's game state JSON of the study (checked by the server, which says what does not fit). */
  gameState() {
    return studied.gameStateJson(this.shooter, this.state);
  }

  previewRequest() {
    if (!this.position[this.shooter]) return null;
    const text = app.call.current().text || null;
    if (text && !app.call.accepted(text)) return null; // a call not (yet) accepted gets no preview
    const stroke = this.strokeNow();
    const body = { position: { balls: this.position }, stroke, call: text, state: this.gameState() };
    return { key: JSON.stringify(body), called: Boolean(text), send: () => api.studyShot(body) };
  }

  /** @param {string} ball the shooter's select */
  setShooter(ball) {
    this.shooter = studied.cueBallOf(ball);
    this.advice = [];
    const shooter = this.shooter;
    if (!this.position[shooter] && this.state.in_hand.includes(shooter)) this.position[shooter] = this.offTable[shooter] || this.startPosition()[shooter];
    this.placeInHand();
    this.save();
    app.call.reset();
    this.aimDefault();
    this.render();
  }

  async shoot() {
    if (this.busy()) return;
    clearMessage();
    if (!this.position[this.shooter]) {
      showMessage(t("study.cueMissing", { ball: this.shooter }), "error");
      return;
    }
    this.working = true;
    this.render();
    const resolved = await app.call.resolve();
    if ("error" in resolved) {
      this.working = false;
      showMessage(resolved.error, "error");
      this.render();
      return;
    }
    const body = { position: { balls: this.position }, stroke: this.strokeNow(), call: resolved.call, state: this.gameState() };
    /** @type {StudyShot} */
    let answer;
    try {
      answer = await api.studyShot(body);
    } catch (error) {
      this.working = false;
      showError(error);
      this.render();
      return;
    }
    if (!this.alive()) return;
    this.advice = [];
    aids.clearPreview();
    clearAim();
    sound.playEvents([answer.record], animSpeed());
    keepTableInView();
    await app.view.animate([answer.record], animSpeed());
    if (!this.alive()) return;
    this.before = { position: { ...this.position }, shooter: this.shooter, state: structuredClone(this.state) };
    // the study goes on from the ruling's position with the person's own cue ball, the state as stateAfterStroke says
    this.position = { ...answer.ruling.position.balls };
    this.state = studied.stateAfterStroke(this.state, answer.ruling.state, Boolean(answer.ruling.turn_passes));
    this.placeInHand();
    this.save();
    this.entry = { outcome: { ruling: answer.ruling, notes: [] }, who: answer.ruling.shooter, call: resolved.call };
    const settled = settle([answer.record], answer.ruling);
    await renderOutcome($("ruling"), this.entry, { reveal: true, alive: () => this.alive(), onItem: settled.onItem });
    await settled.finish();
    if (!this.alive()) return;
    this.working = false;
    app.call.reset();
    this.aimDefault();
    this.render();
  }

  async advise() {
    if (this.busy()) return;
    clearMessage();
    this.working = true;
    this.render();
    $("prompt").textContent = t("study.advising");
    $("advise").dataset.state = "working";
    try {
      // the select offers the API's levels only (index.html); the server refuses any other
      const level = /** @type {Schemas["AdviseIn"]["level"]} */ ($("advise-level", HTMLSelectElement).value);
      const answer = await api.advise({ position: { balls: this.position }, state: this.gameState(), level, limit: 8 });
      if (!this.alive()) return;
      this.advice = studied.distinctAdvice(answer);
      if (!this.advice.length) showMessage(t("study.noAdvice"), "info");
    } catch (error) {
      if (this.alive()) showError(error);
    }
    $("advise").dataset.state = "done";
    this.working = false;
    this.render();
  }

  /** The advice `i` taken: its stroke and call set, the others cleared from the table. @param {number} i */
  useAdvice(i) {
    const a = this.advice[i];
    if (!a) return;
    const s = a.stroke;
    app.stroke.set({ direction: normaliseDirection(s.direction), speed: s.speed, elevation: s.elevation || 0, side: s.side || 0, follow: s.follow || 0 }, { silent: true });
    app.call.setText(a.call || "");
    this.advice = [a];
    this.render();
  }

  back() {
    if (!this.before || this.busy()) return;
    this.position = { ...this.before.position };
    this.shooter = this.before.shooter;
    this.state = this.before.state;
    this.before = null;
    this.advice = [];
    this.newSetup();
    this.save();
    this.render();
  }

  reset() {
    if (this.busy()) return;
    this.position = this.startPosition();
    this.state = studied.freshState();
    this.before = null;
    this.advice = [];
    this.newSetup();
    this.save();
    this.aimDefault();
    this.render();
  }

  /** A new position to study: the last stroke's ruling, the aim helper's answer and the preview are of
   * another position, so they go. */
  newSetup() {
    this.entry = null;
    $("ruling").replaceChildren();
    $("inning").replaceChildren();
    clearAim();
    aids.clearPreview();
    app.call.reset();
  }

  tick() {}

  onLang() {
    this.render();
    renderOutcome($("ruling"), this.entry);
  }
}

/** The study kept on this device (nothing if it is missing or damaged). */
export function loadStudy() {
  return studied.savedStudy(localStorage.getItem(STUDY_KEY));
}
