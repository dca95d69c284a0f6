// The study table: any position set by hand (balls, the shooter, the game state), strokes ruled but not
// recorded, the advisor's suggestions, a step back. The position is kept on this device.

import { app, area, firstLegal, geo, legalize, lightOf } from "./state.js";
import { $, animSpeed, clearMessage, fmtNum, show, showError, showMessage } from "./page.js";
import { fitTable, keepTableInView, showPanels, showScreen } from "./layout.js";
import { aimAtCall, aimFrom, clearAim, clickToCallOrAim, windowFor } from "./aim-helper.js";
import { renderOutcome, settle } from "./rulings.js";
import { api } from "../shared/api.js";
import { calledBall, normaliseDirection } from "./controls.js";
import * as aids from "./aim.js";
import { levelName, t } from "../shared/i18n.js";
import * as sound from "../shared/sound.js";
import { ballChip, el } from "../shared/ui.js";
import { BALL_IDS, degrees, dist } from "../shared/table.js";

const STUDY_KEY = "kaisa.study";
/** The study's game state as set by hand (the referee's GameState; `twice` is its 2.1 flag). */
const STUDY_STATE = { scores: { W1: 0, W2: 0 }, in_hand: [], opening: false, twice: false, kaisa_off_centre: false };

// --- the study table -----------------------------------------------------------------------------------------

export class StudyMode {
  constructor() {
    this.session = app.session;
    this.working = false;
    const saved = loadStudy();
    this.position = saved.position || this.startPosition();
    this.shooter = saved.shooter || "W1";
    this.state = { ...structuredClone(STUDY_STATE), ...(saved.state || {}) }; // the game state set by hand (gameState)
    this.offTable = {}; // where a cue ball stood before it was put in hand, to put it back there
    this.before = null;
    this.advice = [];
    this.entry = null;
  }

  alive() {
    return app.session === this.session;
  }

  busy() {
    return this.working || app.view.animating;
  }

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
    for (const option of $("advise-level").options) option.textContent = levelName(option.value);
    $("study-shooter").value = this.shooter;
    const shoot = $("shoot");
    shoot.hidden = false;
    shoot.textContent = t("stroke.shoot");
    shoot.disabled = busy;
    $("advise").disabled = busy;
    $("study-back").disabled = busy || !this.before;
    $("prompt").textContent = this.position[this.shooter] ? t("study.prompt", { ball: this.shooter }) : t("study.cueMissing", { ball: this.shooter });
    this.renderState();
    const boxes = $("study-balls");
    boxes.replaceChildren(
      ...BALL_IDS.map((b) =>
        el(
          "label",
          { class: "check" },
          el("input", { type: "checkbox", "data-testid": `study-ball-${b}`, checked: Boolean(this.position[b]), disabled: busy, onchange: (e) => this.toggle(b, e.target.checked) }),
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
      const box = $(`study-hand-${b}`);
      box.checked = st.in_hand.includes(b);
      box.disabled = busy;
      $(`study-hand-${b}-label`).textContent = t("study.inHand", { ball: b });
      const score = $(`study-score-${b}`);
      if (document.activeElement !== score) score.value = String(st.scores[b]);
      score.disabled = busy;
    }
    $("study-opening").checked = st.opening;
    $("study-opening").disabled = busy;
    $("study-twice").checked = st.twice;
    $("study-twice").disabled = busy;
    const parts = [t("study.stateSummary", { ball: this.shooter, w1: st.scores.W1, w2: st.scores.W2 })];
    if (st.opening) parts.push(t("study.stateOpening"));
    for (const b of st.in_hand) parts.push(t("study.stateHand", { ball: b }));
    if (st.twice) parts.push("2.1");
    $("study-state-summary").textContent = parts.join(" · ");
  }

  /** The shooter plays from behind the head string: its ball in hand, or the break. */
  fromHand() {
    return this.state.opening || this.state.in_hand.includes(this.shooter);
  }

  /** A shooter playing from hand stands behind the head string: moved there (the nearest free place). */
  placeInHand() {
    if (!this.fromHand()) return;
    const g = geo();
    const a = area("hand", this.position, this.shooter);
    const here = this.position[this.shooter];
    const kept = here && legalize(here, a, null);
    // where it stands if that is legal, else a usual place behind the line (not squeezed against the line)
    const usual = [[g.W * 0.62, g.L * 0.15], [g.W * 0.38, g.L * 0.15], [g.W * 0.5, g.L * 0.1], [g.W * 0.8, g.L * 0.2]];
    if (this.shooter === "W2") usual.reverse(); // W1 starts at the first: W2 goes clear of it
    const spot = kept && dist(kept, here) < 1e-6 ? kept : firstLegal(usual, a) || kept;
    if (spot) this.position[this.shooter] = spot;
  }

  /** A cue ball put in hand (or taken out): the opponent's leaves the table (and comes back where it was), the
   * shooter's goes behind the head string. */
  setHand(ball, on) {
    const hand = new Set(this.state.in_hand);
    if (on) hand.add(ball);
    else hand.delete(ball);
    this.state.in_hand = [...hand].sort();
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

  setOpening(on) {
    this.state.opening = on;
    this.placeInHand();
    this.changedState();
  }

  setTwice(on) {
    this.state.twice = on;
    this.changedState();
  }

  setScore(ball, text) {
    const n = Number.parseInt(text, 10);
    this.state.scores[ball] = Number.isFinite(n) ? n : 0;
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

  draggableAt(p) {
    return app.view.ballAt(p, 1.3);
  }

  /** The cue ball is pulled back from (power) as in a match, and still moved by dragging it any other way. */
  pullsFrom(ball) {
    return ball === this.shooter;
  }

  dragTo(ball, p) {
    this.advice = [];
    const where = ball === this.shooter && this.fromHand() ? "hand" : "bed";
    this.position[ball] = legalize(p, area(where, this.position, ball), this.position[ball]);
    this.render();
  }

  dragEnd() {
    this.save();
  }

  aimAt(p) {
    this.advice = [];
    aimFrom(this.position[this.shooter], p);
  }

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

  /** The aim helper in the study's position and state (a read); not `deep`: the stroke as set only. */
  askAim(call, stroke, deep = true) {
    return api.studyAim({ position: { balls: this.position }, state: this.gameState(), call, stroke, deep });
  }

  strokeNow() {
    return app.stroke.stroke(this.shooter);
  }

  callWhere() {
    return { position: { balls: this.position }, state: this.gameState() };
  }

  /** The referee's game state JSON of the study (checked by the server, which says what does not fit). */
  gameState() {
    const st = this.state;
    const out = { shooter: this.shooter, scores: { ...st.scores }, in_hand: [...st.in_hand], opening: st.opening, last_pot_direct_middle_kaisa: st.twice };
    if (st.kaisa_off_centre) out.kaisa_off_centre = true;
    return out;
  }

  previewRequest() {
    if (!this.position[this.shooter]) return null;
    const text = app.call.current().text || null;
    if (text && !app.call.accepted(text)) return null; // a call not (yet) accepted gets no preview
    const stroke = this.strokeNow();
    const body = { position: { balls: this.position }, stroke, call: text, state: this.gameState() };
    return { key: JSON.stringify(body), called: Boolean(text), send: () => api.studyShot(body) };
  }

  setShooter(ball) {
    this.shooter = ball;
    this.advice = [];
    if (!this.position[ball] && this.state.in_hand.includes(ball)) this.position[ball] = this.offTable[ball] || this.startPosition()[ball];
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
    if (resolved.error) {
      this.working = false;
      showMessage(resolved.error, "error");
      this.render();
      return;
    }
    const body = { position: { balls: this.position }, stroke: app.stroke.stroke(this.shooter), call: resolved.call, state: this.gameState() };
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
    // the study goes on from the ruling's position with the person's own cue ball (the turn never passes to the
    // other white) and the scores as set by hand (practice points never end a game); who is in hand and the
    // flags as the ruling left them, the 2.1 flag only for an inning that goes on
    const next = answer.ruling.state;
    this.position = { ...answer.ruling.position.balls };
    const goesOn = !answer.ruling.turn_passes;
    this.state = { scores: { ...this.state.scores }, in_hand: [...next.in_hand], opening: false, twice: goesOn && next.last_pot_direct_middle_kaisa, kaisa_off_centre: next.kaisa_off_centre };
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
      const answer = await api.advise({ position: { balls: this.position }, state: this.gameState(), level: $("advise-level").value, limit: 8 });
      if (!this.alive()) return;
      // the same call at two speeds is one call to a player: keep its best (the advisor lists best first)
      const seen = new Set();
      const list = answer.filter((a) => {
        const key = a.call ?? "";
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      }).slice(0, 5);
      this.advice = list.map((a) => {
        const tokens = (a.call || "").split(/\s+/);
        return { ...a, ball: a.call ? calledBall(a.call) : null, pocket: a.call ? tokens[tokens.length - 1] : null };
      });
      if (!this.advice.length) showMessage(t("study.noAdvice"), "info");
    } catch (error) {
      if (this.alive()) showError(error);
    }
    $("advise").dataset.state = "done";
    this.working = false;
    this.render();
  }

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
    this.state = structuredClone(STUDY_STATE);
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

export function loadStudy() {
  try {
    const data = JSON.parse(localStorage.getItem(STUDY_KEY) || "{}");
    if (data && data.position && typeof data.position === "object") return data;
  } catch {
    // a damaged saved position: start afresh
  }
  return {};
}
