// A match at the table: the person's lag, choice, placement, aim and call; the computer's strokes; each stroke
// animated and its ruling shown; the stroke log, Undo, the hint and the clock's break. No rules live here: the
// server's referee decides everything.

import { app, area, firstLegal, geo, legalize, lightOf } from "./state.js";
import { $, animSpeed, button, clearMessage, select, show, showError, showMessage, sleep } from "./page.js";
import { AT_TABLE, fitTable, fitsOnItsLine, keepTableInView, reveal, showPanels, showScreen } from "./layout.js";
import { aimAtCall, aimFrom, clearAim, clickToCallOrAim, windowFor } from "./aim-helper.js";
import { renderOutcome, settle } from "./rulings.js";
import { renderClock, renderScoreboard } from "./scoreboard-panel.js";
import { showSummary } from "./summary.js";
import { logItem, renderLog, undoLabel } from "./match-log.js";
import { adviceOf, renderHint } from "./hint.js";
import { api, serverNow } from "../shared/api.js";
import { calledBall, normaliseDirection } from "./controls.js";
import * as aids from "./aim.js";
import { lang, levelName, playerName, t } from "../shared/i18n.js";
import * as sound from "../shared/sound.js";
import { ballChip, el, fmtClock, fmtPoints } from "../shared/ui.js";
import { degrees } from "../shared/table.js";

const LAG_SPEED = 1.41; // m/s: about what brings a lag ball back near the head cushion
const LOG_PAGE = 60; // the stroke log reads the newest this many actions

/** @typedef {import("./state.js").Point} Point @typedef {import("./state.js").Balls} Balls */
/** @typedef {import("./state.js").View} View @typedef {import("./state.js").Entry} Entry */
/** @typedef {import("./state.js").Played} Played @typedef {import("./state.js").Action} Action */
/** @typedef {import("./state.js").Outcome} Outcome @typedef {import("./state.js").Stroke} Stroke */
/** @typedef {import("./state.js").StrokeValue} StrokeValue @typedef {import("./state.js").AimAnswer} AimAnswer */
/** @typedef {import("./state.js").Overlay} Overlay @typedef {import("./state.js").Schemas} Schemas */
/** @typedef {import("./match-log.js").Logged} Logged @typedef {import("./match-log.js").LogItem} LogItem */
/** @typedef {import("./hint.js").Hint} Hint @typedef {import("./hint.js").Suggestion} Suggestion */
/** A person's lag: where the ball is placed and the stroke set for it. @typedef {{ place: Point | null, stroke: StrokeValue }} LagSet */
/** The computer's inning above the ruling: its strokes (as ruled) and its choice of cue ball.
 * @typedef {Entry | { chose: { seat: number, ball: string } }} InningItem */

// --- the match ------------------------------------------------------------------------------------------------

export class MatchMode {
  /** @param {number} id */
  constructor(id) {
    this.id = id;
    this.session = app.session;
    /** @type {View | null} the match as last read (enter() reads it) */
    this.data = null;
    this.working = false;
    /** @type {boolean} while a stroke's answer is played out ("thinking" is over) */
    this.playing = false;
    /** @type {boolean} while the aim helper works */
    this.aiming = false;
    /** @type {string | null} */
    this.turnKey = null;
    /** @type {string | null} the phase before the turn now, and the turn now's */
    this.lastPhase = null;
    /** @type {string | null} */
    this.syncedPhase = null;
    /** @type {Point | null} the shooter's placement when in hand */
    this.place = null;
    /** @type {Record<number, LagSet>} player index -> the lag set */
    this.lag = {};
    /** @type {number | null} */
    this.lagActive = null;
    /** @type {Point | null} */
    this.w2 = null;
    /** @type {Entry | null} the outcome in the ruling panel */
    this.entry = null;
    /** @type {InningItem[]} the computer's strokes (and choice) since the person's last action, before this.entry */
    this.inning = [];
    /** @type {LogItem[]} */
    this.log = [];
    /** whether the log starts after the match's first stroke (a link to the replay for the earlier) */
    this.logEarlier = false;
    /** @type {number | null} the server's time when this page's break began (the clock stands while it runs) */
    this.breakStart = null;
    /** @type {unknown} */
    this.computerError = null;
    /** @type {Hint | null} the advisor's hint for this turn */
    this.hint = null;
  }

  /** The match as last read: the methods that use it run once enter() has read it. @returns {View} */
  match() {
    if (!this.data) throw new Error("the match is not read yet");
    return this.data;
  }

  alive() {
    return app.session === this.session;
  }

  busy() {
    return this.working || app.view.animating;
  }

  async enter() {
    showScreen("table");
    showPanels({});
    fitTable();
    $("inning").replaceChildren();
    /** @type {View} */
    let view;
    try {
      view = await api.match(this.id);
    } catch (error) {
      showError(error);
      $("prompt").textContent = t("match.notFound", { id: this.id });
      return;
    }
    if (!this.alive()) return;
    this.entry = view.last ? { outcome: view.last, names: view.players.map((p) => playerName(p)) } : null;
    this.update(view);
    this.loadLog();
  }

  /** The stroke log: the newest page of the history (a long match is not read whole), numbered from the
   * match's first stroke. */
  async loadLog() {
    try {
      const total = this.data ? this.data.actions : 0;
      const offset = Math.max(0, total - LOG_PAGE);
      /** @type {Logged[]} */
      const actions = total ? await api.actions(this.id, offset, LOG_PAGE) : [];
      if (!this.alive()) return;
      this.log = [];
      this.logEarlier = actions.length > 0 && actions[0].state_after.strokes > (actions[0].action.kind === "shot" ? 1 : 0);
      for (const a of actions) this.addLog(a.action, a.outcome, false, a.state_after.strokes);
      const last = actions[actions.length - 1];
      if (last && this.entry && last.action.kind === "shot" && last.outcome.ruling) {
        this.entry.call = last.action.call;
        this.entry.who = this.whoOf(last.outcome.ruling.shooter);
      }
      this.renderLog();
      this.renderRuling();
    } catch (error) {
      showError(error);
    }
  }

  names() {
    return this.match().players.map((p) => playerName(p));
  }

  /** The seat of the player with cue ball `ball` (-1: none yet). @param {string} ball */
  playerOf(ball) {
    return this.match().players.findIndex((p) => p.cue_ball === ball);
  }

  /** "name (ball)" of the shooter. @param {string} ball */
  whoOf(ball) {
    const i = this.playerOf(ball);
    return i >= 0 ? t("ruling.byShooter", { name: playerName(this.match().players[i]), ball }) : ball;
  }

  /** @param {number | null | undefined} i a seat */
  isHuman(i) {
    return i !== null && i !== undefined && this.match().players[i].kind === "human";
  }

  humanToMove() {
    const v = this.data;
    if (!v || v.phase === "over" || v.computer_to_move) return false;
    if (v.to_move === null) return v.players.some((p) => p.kind === "human");
    return this.isHuman(v.to_move);
  }

  /** @param {number} i a seat */
  lagBall(i) {
    return i === 0 ? "W1" : "W2";
  }

  /** @param {View} view */
  update(view) {
    this.data = view;
    const turn = this.turnKey;
    this.syncTurn();
    this.render();
    // the person's new turn at the table (to lag, place or aim): the whole table on a phone's screen
    if (this.turnKey !== turn && this.humanToMove() && AT_TABLE.has(view.phase)) keepTableInView();
    this.maybeComputer();
  }

  /** New turn (any new action): fresh placements and aim. */
  syncTurn() {
    const v = this.match();
    const key = `${v.actions}:${v.phase}:${v.shooter}:${v.from_hand}`;
    if (key === this.turnKey) return;
    this.turnKey = key;
    this.hint = null; // a hint is for one turn
    clearAim(); // and so is the aim helper's answer
    this.lastPhase = this.syncedPhase;
    this.syncedPhase = v.phase;
    const g = geo();
    const balls = v.position.balls;
    if (v.phase === "lag" || v.phase === "shootout-lag") {
      const objects = v.phase === "shootout-lag" ? {} : balls;
      this.lag = {};
      this.lagActive = null;
      for (const i of [0, 1]) {
        if (!this.isHuman(i)) continue;
        const a = area(i === 0 ? "lag-left" : "lag-right", objects, null);
        const place = firstLegal([[i === 0 ? g.W / 4 : (3 * g.W) / 4, g.L / 8]], a);
        // a starting power near a good lag, a little different for each player: the person sets the lag, the
        // default does not win it (nor tie two people who both leave it)
        const speed = Math.round((LAG_SPEED + (Math.random() - 0.5) * 0.3) * 100) / 100;
        this.lag[i] = { place, stroke: { direction: 90, speed, elevation: 0, side: 0, follow: 0 } };
        if (this.lagActive === null) this.lagActive = i;
      }
      if (this.lagActive !== null) app.stroke.set({ ...this.lag[this.lagActive].stroke }, { silent: true });
    } else if (v.phase === "place-w2") {
      const a = area("w2", balls, "W2", { corridors: v.w2_corridors });
      this.w2 = firstLegal([[g.W * 0.5, g.L * 0.92], [g.W * 0.5, g.L * 0.85], [g.W * 0.2, g.L * 0.7], [g.W * 0.8, g.L * 0.7]], a);
    } else if (v.phase === "play" || v.phase === "shootout") {
      if (this.lastPhase !== "play" && this.lastPhase !== "shootout") app.stroke.set({ speed: 2 }, { silent: true });
      this.place = null;
      if (v.from_hand) {
        const a = area("hand", balls, v.shooter);
        this.place = firstLegal([[g.W * 0.62, g.L * 0.15], [g.W * 0.38, g.L * 0.15], [g.W * 0.5, g.L * 0.1], [g.W * 0.8, g.L * 0.2]], a);
      }
      const cue = this.cuePosition();
      const target = balls.K || balls.R2 || balls.R1 || Object.values(balls).find((p, i) => Object.keys(balls)[i] !== v.shooter);
      const direction = cue && target ? normaliseDirection(degrees(Math.atan2(target[1] - cue[1], target[0] - cue[0]))) : 90;
      app.stroke.set({ direction, elevation: 0, side: 0, follow: 0 }, { silent: true });
      app.call.reset();
    }
  }

  cuePosition() {
    const v = this.match();
    if (v.from_hand) return this.place;
    return v.position.balls[v.shooter] || null;
  }

  /** The balls to draw now: the position plus whatever is being placed. */
  tableBalls() {
    const v = this.match();
    const balls = { ...v.position.balls };
    if (v.phase === "lag" || v.phase === "shootout-lag") {
      if (v.phase === "shootout-lag") for (const b of Object.keys(balls)) delete balls[b]; // the shoot-out lag is played on an empty table
      for (const [i, lag] of Object.entries(this.lag)) if (lag.place) balls[this.lagBall(Number(i))] = lag.place;
    } else if (v.phase === "place-w2" && this.humanToMove() && this.w2) {
      balls.W2 = this.w2;
    } else if ((v.phase === "play" || v.phase === "shootout") && v.from_hand && this.humanToMove() && this.place) {
      balls[v.shooter] = this.place;
    }
    return balls;
  }

  render() {
    if (!this.alive() || !this.data) return;
    const v = this.data;
    const human = this.humanToMove();
    const busy = this.busy();
    const playing = v.phase === "play" || v.phase === "shootout";
    const lagging = v.phase === "lag" || v.phase === "shootout-lag";
    renderScoreboard(v, { liveSeconds: human && playing ? this.thinkingSeconds() : 0 });
    showPanels({
      call: human && playing,
      stroke: human && (playing || (lagging && this.lagActive !== null)),
      shoot: human && (playing || lagging) ? true : v.can_undo,
    });
    const shoot = button("shoot");
    shoot.hidden = !(human && (playing || lagging));
    shoot.textContent = lagging ? t("stroke.lag") : t("stroke.shoot");
    shoot.disabled = busy || this.breakStart !== null;
    const undo = button("undo");
    undo.hidden = !v.can_undo || !v.players.some((p) => p.kind === "human");
    // the whole sentence when it fits on the bar's line, else the person's own stroke alone (a phone's bar at
    // the foot, a narrow column); the whole sentence stays the button's title and accessible name
    const label = this.undoLabel();
    undo.textContent = label.full;
    undo.title = label.full;
    undo.setAttribute("aria-label", label.full);
    if (!undo.hidden && undo.offsetParent !== null && !fitsOnItsLine(undo)) undo.textContent = label.short;
    undo.disabled = busy;
    const brk = button("take-break");
    const myBall = this.breakBall();
    brk.hidden = !(v.clock.mode === "wall" && v.phase === "play" && human && myBall && !(myBall in (v.clock.breaks || {})) && this.breakStart === null);
    brk.disabled = busy;
    button("aim-call").disabled = busy || this.aiming || aids.level() === "none";
    $("aim-call").hidden = !playing; // nothing is called in the lag: nothing to aim at
    show("hint-row", human && playing);
    show("hint", human && playing);
    button("hint").disabled = busy || Boolean(this.hint && this.hint.state === "thinking");
    for (const option of select("hint-level").options) option.textContent = levelName(option.value);
    this.renderHint();

    // the table
    const balls = this.tableBalls();
    /** @type {Overlay} */
    const overlay = {};
    if (human && lagging) {
      const objects = v.phase === "shootout-lag" ? {} : v.position.balls;
      const active = this.lagActive;
      overlay.draggable = Object.keys(this.lag).map((i) => this.lagBall(Number(i)));
      if (active !== null) overlay.legal = lightOf(area(active === 0 ? "lag-left" : "lag-right", objects, null));
      // (a lag ball with no legal place to stand has no aim to draw)
      overlay.aims = Object.entries(this.lag).flatMap(([i, lag]) =>
        lag.place
          ? [{ from: lag.place, ball: this.lagBall(Number(i)), direction: Number(i) === active ? app.stroke.value.direction : lag.stroke.direction, speed: lag.stroke.speed, faint: Number(i) !== active }]
          : [],
      );
    } else if (human && v.phase === "place-w2") {
      overlay.corridors = v.w2_corridors;
      overlay.draggable = ["W2"];
      overlay.legal = lightOf(area("w2", v.position.balls, "W2", { corridors: v.w2_corridors }));
    } else if (v.phase === "place-w2") {
      overlay.corridors = v.w2_corridors;
    } else if (human && playing) {
      app.call.setBalls(Object.keys(balls), v.shooter);
      const cue = this.cuePosition();
      if (v.from_hand) {
        overlay.draggable = [v.shooter];
        overlay.legal = lightOf(area("hand", v.position.balls, v.shooter));
      }
      const c = app.call.current();
      if (cue) overlay.aims = [{ from: cue, ball: v.shooter, direction: app.stroke.value.direction, speed: app.stroke.value.speed, aids: aids.level(), call: c, window: windowFor(this, cue, balls) }];
      overlay.preview = aids.previewFor(this);
      overlay.callBall = c.ball;
      overlay.callPocket = c.pocket;
      if (this.hint && this.hint.advice) overlay.advice = [this.hint.advice];
    }
    if (!app.view.animating) {
      app.view.balls = balls;
      app.view.overlay = overlay;
      app.view.draw();
    }
    const canvas = app.view.canvas;
    canvas.dataset.phase = v.phase;
    canvas.dataset.balls = Object.keys(balls).sort().join(",");
    canvas.dataset.hint = this.hint && this.hint.advice ? this.hint.advice.call || "safety" : "";
    const cue = playing ? this.cuePosition() : null;
    canvas.dataset.cue = cue ? `${cue[0].toFixed(4)},${cue[1].toFixed(4)}` : "";
    canvas.dataset.w2 = this.w2 && v.phase === "place-w2" ? `${this.w2[0].toFixed(4)},${this.w2[1].toFixed(4)}` : "";
    canvas.dataset.lag = Object.entries(this.lag)
      .map(([i, l]) => (l.place ? `${i}:${l.place[0].toFixed(4)},${l.place[1].toFixed(4)}` : `${i}:`))
      .join(";");

    this.renderPrompt();
    this.renderPhaseActions();
  }

  breakBall() {
    const v = this.match();
    if (!v.players.some((p) => p.cue_ball)) return null;
    if (v.to_move !== null && this.isHuman(v.to_move)) return v.players[v.to_move].cue_ball;
    const human = v.players.find((p) => p.kind === "human");
    return human ? human.cue_ball : null;
  }

  renderPrompt() {
    const v = this.match();
    const prompt = $("prompt");
    const names = this.names();
    let text = "";
    if (this.breakStart !== null) {
      text = t("clock.breakRunning", { time: fmtClock((serverNow() - this.breakStart) / 1000) });
    } else if (v.phase === "over") {
      text = t("match.overPrompt");
    } else if (this.playing) {
      text = "";
    } else if (v.computer_to_move) {
      const i = v.to_move === null ? 0 : v.to_move;
      text = t("match.thinking", { name: names[i] });
    } else if (v.phase === "lag" || v.phase === "shootout-lag") {
      const humans = Object.keys(this.lag).length;
      text = humans > 1 ? t("match.lagPromptTwo") : t("match.lagPrompt");
      if (humans > 1 && this.lagActive !== null) text += ` ${t("match.lagActive", { name: names[this.lagActive], ball: this.lagBall(this.lagActive) })}`;
    } else if (v.phase === "choose") {
      text = t("match.choosePrompt", { name: names[v.lag_winner ?? 0] });
    } else if (v.phase === "place-w2") {
      text = t("match.placePrompt", { name: names[v.to_move ?? 0] });
    } else if (v.to_move !== null) {
      const name = names[v.to_move];
      text = v.from_hand ? t("match.handPrompt", { name, ball: v.shooter }) : t("match.playPrompt", { name, ball: v.shooter });
      if (v.opening) text += ` ${t("match.openingPrompt")}`;
    }
    prompt.textContent = text;
    prompt.title = text;
    prompt.dataset.phase = v.phase;
  }

  renderPhaseActions() {
    const v = this.match();
    const box = $("phase-actions");
    box.replaceChildren();
    const busy = this.busy();
    if (this.breakStart !== null) {
      box.append(el("button", { type: "button", class: "primary", "data-testid": "resume", onclick: () => this.endBreak() }, t("clock.resume")));
      return;
    }
    if (this.computerError && v.computer_to_move) {
      box.append(el("button", { type: "button", "data-testid": "computer-retry", onclick: () => this.runComputer() }, t("match.retry")));
    }
    // a finished match (closed summary, a reload, a match opened from the history) shows its summary again
    if (v.phase === "over" && v.result) {
      box.append(el("button", { type: "button", class: "primary", "data-testid": "summary-open", onclick: () => showSummary(this) }, t("summary.open")));
    }
    if (!this.humanToMove()) return;
    if (v.phase === "choose") {
      for (const ball of ["W1", "W2"]) {
        box.append(
          el("button", { type: "button", class: "primary", "data-testid": `choose-${ball}`, disabled: busy, onclick: () => this.act(() => api.choose(this.id, ball)) }, ballChip(ball), t(ball === "W1" ? "match.chooseW1" : "match.chooseW2")),
        );
      }
    } else if (v.phase === "place-w2") {
      box.append(
        el("button", { type: "button", class: "primary", "data-testid": "place-w2", disabled: busy || !this.w2, onclick: () => this.w2 && this.act(() => api.placeW2(this.id, /** @type {Point} */ (this.w2))) }, t("match.placeW2")),
      );
    } else if ((v.phase === "lag" || v.phase === "shootout-lag") && Object.keys(this.lag).length > 1) {
      for (const i of Object.keys(this.lag).map(Number)) {
        box.append(
          el("button", { type: "button", class: i === this.lagActive ? "selected" : "", "data-testid": `lag-active-${i}`, onclick: () => this.activateLag(i) }, ballChip(this.lagBall(i)), this.names()[i]),
        );
      }
    }
  }

  renderRuling() {
    renderOutcome($("ruling"), this.entry);
    this.renderInning();
  }

  /** The computer's inning so far, above the ruling of its latest stroke: each stroke before it in a line (its
   * call, points and the ruling's lines, so a pot, a ball taken in hand and the miss that ended it all stay
   * readable), and its choice of cue ball in words. Cleared when the person acts. */
  renderInning() {
    const box = $("inning");
    box.replaceChildren();
    const items = (this.inning || []).map((e) => {
      if ("chose" in e) {
        const what = t(e.chose.ball === "W1" ? "match.choseW1" : "match.choseW2");
        return el("li", { "data-testid": "inning-item" }, t("match.chose", { name: playerName(this.match().players[e.chose.seat]), ball: e.chose.ball, what }));
      }
      const r = e.outcome.ruling;
      if (!r) return null;
      const lines = [...r.items, ...r.fouls].map((i) => (lang() === "fi" ? i.fi : i.en)).join(" ");
      const head = `${e.call ?? t("ruling.noCall")} · ${t("ruling.points", { points: fmtPoints(r.points) })}`;
      return el("li", { "data-testid": "inning-item" }, ballChip(r.shooter), " ", el("strong", {}, head), lines ? ` — ${lines}` : "");
    });
    if (!items.length) return;
    box.append(el("h3", {}, t("inning.title")), el("ol", { class: "inning-items" }, ...items));
  }

  renderLog() {
    renderLog(this.log, this.logEarlier ? this.id : null);
  }

  /** What Undo takes back (undoLabel). */
  undoLabel() {
    return undoLabel(this.match().players, this.log);
  }

  /** A stroke into the log; `n` is its number in the match (the strokes played up to it).
   * @param {Action} action @param {Outcome} outcome @param {boolean} [render] @param {number | null} [n] */
  addLog(action, outcome, render = true, n = null) {
    const item = logItem(action, outcome, this.log, n);
    if (!item) return;
    this.log.push(item);
    if (render) this.renderLog();
  }

  // --- interaction ---

  /** The person whose lag the controls set. @param {number} i a seat */
  activateLag(i) {
    if (this.lagActive !== null && this.lag[this.lagActive]) this.lag[this.lagActive].stroke = { ...app.stroke.value };
    this.lagActive = i;
    app.stroke.set({ ...this.lag[i].stroke }, { silent: true });
    this.render();
  }

  /** @param {Point} p @returns {string | null} */
  draggableAt(p) {
    if (!this.humanToMove()) return null;
    const v = this.match();
    const ball = app.view.ballAt(p, 1.8);
    if (!ball) return null;
    if (v.phase === "lag" || v.phase === "shootout-lag") {
      const i = ball === "W1" ? 0 : ball === "W2" ? 1 : null;
      if (i !== null && this.lag[i]) {
        if (i !== this.lagActive) this.activateLag(i);
        return ball;
      }
      return null;
    }
    if (v.phase === "place-w2" && ball === "W2") return ball;
    if ((v.phase === "play" || v.phase === "shootout") && v.from_hand && ball === v.shooter) return ball;
    return null;
  }

  /** @param {string} ball @param {Point} p */
  dragTo(ball, p) {
    const v = this.match();
    if (v.phase === "lag" || v.phase === "shootout-lag") {
      const i = ball === "W1" ? 0 : 1;
      /** @type {Record<string, Point | null>} */
      const objects = v.phase === "shootout-lag" ? {} : { ...v.position.balls };
      const other = this.lag[1 - i];
      if (other) objects[this.lagBall(1 - i)] = other.place;
      this.lag[i].place = legalize(p, area(i === 0 ? "lag-left" : "lag-right", objects, ball), this.lag[i].place);
    } else if (v.phase === "place-w2") {
      this.w2 = legalize(p, area("w2", v.position.balls, "W2", { corridors: v.w2_corridors }), this.w2);
    } else {
      this.place = legalize(p, area("hand", v.position.balls, v.shooter), this.place);
    }
    this.render();
  }

  aimOrigin() {
    const v = this.match();
    if (v.phase === "lag" || v.phase === "shootout-lag") return this.lagActive !== null ? this.lag[this.lagActive].place : null;
    return this.cuePosition();
  }

  /** @param {Point} p */
  aimAt(p) {
    if (!this.humanToMove()) return;
    const v = this.match();
    if (!["lag", "shootout-lag", "play", "shootout"].includes(v.phase)) return;
    aimFrom(this.aimOrigin(), p);
  }

  /** @param {Point} p @param {string | null} ball */
  click(p, ball) {
    if (!this.humanToMove()) return;
    const v = this.match();
    if (v.phase === "play" || v.phase === "shootout") {
      if (ball === v.shooter) return;
      clickToCallOrAim(this, p, v.shooter);
    } else if (v.phase === "lag" || v.phase === "shootout-lag") {
      if (!ball) this.aimAt(p);
    }
  }

  onStrokeChange() {
    const phase = this.data ? this.data.phase : null;
    if (this.lagActive !== null && this.lag[this.lagActive] && (phase === "lag" || phase === "shootout-lag")) {
      this.lag[this.lagActive].stroke = { ...app.stroke.value };
    }
    this.render();
  }

  aimCall() {
    aimAtCall(this, this.cuePosition(), this.tableBalls(), (call, stroke) => this.askAim(call, stroke));
  }

  /** The aim helper on the match as it stands (a read); not `deep`: the stroke as set only. */
  /** @param {string} call @param {Stroke} stroke @returns {Promise<AimAnswer>} */
  askAim(call, stroke, deep = true) {
    return api.aim(this.id, call, stroke, deep);
  }

  callWhere() {
    return { match: this.id };
  }

  /** The stroke as set now, with its place when the cue ball is in hand. */
  strokeNow() {
    const v = this.match();
    /** @type {Stroke} */
    const stroke = app.stroke.stroke(v.shooter);
    if (v.from_hand) stroke.place = this.place;
    return stroke;
  }

  /** The full aiming aid's preview: the stroke as it would play now (no noise), ruled, not recorded. */
  previewRequest() {
    const v = this.data;
    if (!v || !this.humanToMove() || !(v.phase === "play" || v.phase === "shootout")) return null;
    const cue = this.cuePosition();
    if (!cue || this.busy() || (v.from_hand && !this.place)) return null;
    const text = app.call.current().text || null;
    if (text && !app.call.accepted(text)) return null; // a call not (yet) accepted gets no preview
    const stroke = this.strokeNow();
    return { key: JSON.stringify([v.actions, text, stroke]), called: Boolean(text), send: () => api.preview(this.id, text, stroke) };
  }

  // --- the hint ---

  /** Ask the advisor for this turn (a read: the match goes on as if it was never asked). */
  async askHint() {
    const v = this.data;
    if (!v || this.busy() || !this.humanToMove() || !(v.phase === "play" || v.phase === "shootout")) return;
    if (this.hint && this.hint.state === "thinking") return;
    /** @type {Hint} */
    const mine = { turn: this.turnKey, state: "thinking", since: performance.now() };
    this.hint = mine;
    this.render();
    /** @type {Suggestion[]} */
    let answer;
    try {
      answer = await api.hint(this.id, select("hint-level").value, 3);
    } catch (error) {
      if (!this.alive() || this.hint !== mine) return;
      this.hint = null;
      showError(error);
      this.render();
      return;
    }
    if (!this.alive() || this.hint !== mine || this.turnKey !== mine.turn) return; // dismissed, or the turn moved on
    const best = answer[0];
    if (!best) {
      this.hint = { ...mine, state: "empty" };
    } else {
      this.hint = { ...mine, state: "shown", advice: adviceOf(best) };
    }
    this.render();
    reveal($("hint-box")); // on a phone the answer may be below the view
  }

  /** Take the hint: its call, aim, power, spin and (from hand) place go into the controls, to play or change. */
  takeHint() {
    const a = this.hint && this.hint.advice;
    if (!a || this.busy()) return;
    const s = a.stroke;
    if (s.place && this.match().from_hand) this.place = s.place;
    app.stroke.set({ direction: normaliseDirection(s.direction), speed: s.speed, elevation: s.elevation || 0, side: s.side || 0, follow: s.follow || 0 }, { silent: true });
    app.call.setText(a.call || "");
    this.hint = null;
    this.render();
  }

  dismissHint() {
    this.hint = null;
    this.render();
  }

  renderHint() {
    renderHint(this.hint, { take: () => this.takeHint(), dismiss: () => this.dismissHint() });
  }

  // --- actions ---

  async shoot() {
    if (this.busy() || !this.humanToMove()) return;
    const v = this.match();
    clearMessage();
    if (v.phase === "lag" || v.phase === "shootout-lag") {
      if (this.lagActive !== null) this.lag[this.lagActive].stroke = { ...app.stroke.value };
      const strokes = [0, 1].map((i) => (this.lag[i] ? { ...this.lag[i].stroke, ball: this.lagBall(i), place: this.lag[i].place } : null));
      await this.act(() => api.lag(this.id, strokes));
      return;
    }
    this.working = true;
    this.render();
    const resolved = await app.call.resolve();
    this.working = false;
    if (!this.alive()) return;
    if ("error" in resolved) {
      showMessage(resolved.error, "error");
      this.render();
      return;
    }
    /** @type {Stroke} */
    const stroke = app.stroke.stroke(v.shooter);
    if (v.from_hand) stroke.place = this.place;
    const seconds = v.clock.mode === "wall" ? Math.min(3600, this.thinkingSeconds()) : null;
    aids.clearPreview();
    await aids.settled();
    const call = resolved.call;
    await this.act(() => api.shot(this.id, call, stroke, seconds), { call });
  }

  /** Send one action; animate and rule what came back; carry on. `context.call`: the call sent with it.
   * @param {() => Promise<Played>} send @param {{ call?: string | null }} [context] */
  async act(send, context = {}) {
    if (this.working) return;
    this.working = true;
    this.render();
    let played;
    try {
      played = await send();
    } catch (error) {
      this.working = false;
      if (!this.alive()) return;
      showError(error);
      await this.resync();
      return;
    }
    if (!this.alive()) return;
    clearMessage();
    await this.playOut(played, context);
  }

  /** @param {Played} played @param {{ call?: string | null }} [context] */
  async playOut(played, context = {}) {
    const before = this.match();
    const outcome = played.outcome;
    const action = played.action;
    this.working = true;
    this.playing = true; // "thinking" is over: the answer is here
    const stroke = Boolean(outcome.records && outcome.records.length);
    if (stroke) $("ruling").replaceChildren(); // the last ruling goes at the strike
    this.hint = null; // and so does a hint
    aids.clearPreview();
    clearAim();
    this.render();
    const mover = before.to_move;
    const computerShot = action.kind === "shot" && mover !== null && mover !== undefined && !this.isHuman(mover);
    const computerMove = mover !== null && mover !== undefined && !this.isHuman(mover);
    if (!computerMove) this.inning = []; // the person's action: the computer's last inning has been read
    if (computerMove && action.kind === "choose") {
      this.inning.push({ chose: { seat: mover, ball: action.cue_ball || "" } });
    }
    if (computerShot && this.entry && this.entry.computer) this.inning.push(this.entry); // its stroke before, kept readable
    this.renderInning();
    if (stroke || computerShot) keepTableInView(); // the balls are about to move
    if (computerShot && action.stroke) {
      // the computer's placement from hand and its aim, shown before its stroke
      const stroke = action.stroke;
      const balls = { ...before.position.balls };
      if (stroke.place) balls[stroke.ball] = stroke.place;
      app.view.balls = balls;
      app.view.overlay = {
        aims: balls[stroke.ball] ? [{ from: balls[stroke.ball], ball: stroke.ball, direction: stroke.direction, speed: stroke.speed, aids: "line" }] : [],
        callBall: action.call ? calledBall(action.call) : null,
        callPocket: action.call ? action.call.trim().split(/\s+/).pop() : null,
        placed: stroke.place ? stroke.ball : null,
      };
      app.view.draw();
      await sleep((stroke.place ? 900 : 500) / animSpeed());
      if (!this.alive()) return;
    }
    if (outcome.records && outcome.records.length) {
      app.view.overlay = { callBall: app.view.overlay.callBall, callPocket: app.view.overlay.callPocket };
      sound.playEvents(outcome.records, animSpeed());
      await app.view.animate(outcome.records, animSpeed());
    }
    if (!this.alive()) return;
    // cue balls taken in hand go as the balls settle; respotted balls go to their spots with the ruling's lines
    const ruled = outcome.ruling;
    const settled = ruled && ruled.position ? settle(outcome.records, { ...ruled, position: ruled.position }) : null;
    const call = played.action.kind === "shot" ? played.action.call : context.call;
    const says = outcome.ruling || outcome.lag || (outcome.notes && outcome.notes.length);
    if (!says) {
      // a choice or a placement says nothing: the last ruling (the lag's) stays up until the next stroke
      this.addLog(played.action, outcome);
      this.data = played.match;
      this.working = false;
      this.playing = false;
      this.turnKey = null;
      this.update(played.match);
      return;
    }
    this.entry = {
      outcome,
      names: before.players.map((p) => playerName(p)),
      who: outcome.ruling ? this.whoOf(outcome.ruling.shooter) : null,
      call: played.action.kind === "shot" ? call : undefined,
      computer: computerShot,
    };
    this.addLog(played.action, outcome, true, played.match.strokes);
    this.data = played.match; // the scoreboard changes with the ruling
    renderScoreboard(played.match, {});
    await renderOutcome($("ruling"), this.entry, { reveal: true, alive: () => this.alive(), onItem: settled && settled.onItem });
    if (settled) await settled.finish();
    if (!this.alive()) return;
    this.working = false;
    this.playing = false;
    this.turnKey = null;
    this.update(played.match);
    if (played.match.phase === "over" && before.phase !== "over") showSummary(this);
  }

  async resync() {
    try {
      const view = await api.match(this.id);
      if (this.alive()) this.update(view);
    } catch (error) {
      if (this.alive()) showError(error);
    }
  }

  maybeComputer() {
    const v = this.data;
    if (!v || !v.computer_to_move || this.working || this.computerError) return;
    const key = v.actions;
    setTimeout(() => {
      if (this.alive() && this.data && this.data.actions === key && this.data.computer_to_move && !this.working) this.runComputer();
    }, 350 / animSpeed());
  }

  async runComputer() {
    if (this.working) return;
    this.computerError = null;
    const v = this.match();
    const send = v.phase === "lag" || v.phase === "shootout-lag" ? () => api.lag(this.id, [null, null]) : () => api.computer(this.id);
    this.working = true;
    this.render();
    let played;
    try {
      played = await send();
    } catch (error) {
      this.working = false;
      if (!this.alive()) return;
      this.computerError = error;
      showError(error);
      this.render();
      return;
    }
    if (!this.alive()) return;
    await this.playOut(played);
  }

  async undo() {
    if (this.busy()) return;
    this.working = true;
    try {
      /** @type {View} */
      const view = await api.undo(this.id);
      if (!this.alive()) return;
      clearMessage();
      this.working = false;
      this.turnKey = null;
      this.entry = view.last ? { outcome: view.last, names: view.players.map((p) => playerName(p)) } : null;
      this.renderRuling();
      this.update(view);
      if (this.log.length) this.loadLog();
    } catch (error) {
      this.working = false;
      showError(error);
      await this.resync();
    }
  }

  /** Seconds the stroke due has taken: since the server says the clock last started counting (the last entry
   * other than a break, `clock_since`), on the server's clock, so a reloaded page or a second screen counts
   * the same turn from the same moment. A break taken in the turn is counted too and extends the limit by its
   * length (6, as the marker's page counts it), so nothing thought before the break is lost; the clock stands
   * while the break runs. */
  thinkingSeconds() {
    const v = this.data;
    const since = Date.parse((v && (v.clock_since || v.updated_at)) || "");
    if (!Number.isFinite(since)) return 0;
    const now = this.breakStart !== null ? this.breakStart : serverNow();
    return Math.max(0, (now - since) / 1000);
  }

  startBreak() {
    this.breakStart = serverNow();
    this.render();
  }

  async endBreak() {
    const seconds = Math.min(300, Math.max(1, (serverNow() - (this.breakStart ?? serverNow())) / 1000));
    const ball = this.breakBall();
    this.breakStart = null;
    if (!ball) return this.render();
    await this.act(() => api.takeBreak(this.id, ball, Math.round(seconds * 10) / 10));
  }

  tick() {
    const v = this.data;
    if (!v) return;
    if (this.hint && this.hint.state === "thinking") this.renderHint();
    if (this.breakStart !== null) this.renderPrompt();
    if (v.clock.mode === "wall" && this.humanToMove() && (v.phase === "play" || v.phase === "shootout") && !this.working) {
      renderClock(v, this.thinkingSeconds());
    }
  }

  onLang() {
    // the ruling's names follow the language too (a computer player goes by its level's name)
    const ruling = this.entry && this.entry.outcome && this.entry.outcome.ruling;
    if (this.entry && this.data) {
      this.entry = { ...this.entry, names: this.match().players.map((p) => playerName(p)), ...(this.entry.who && ruling ? { who: this.whoOf(ruling.shooter) } : {}) };
    }
    this.render();
    this.renderRuling();
    this.renderLog();
  }
}
