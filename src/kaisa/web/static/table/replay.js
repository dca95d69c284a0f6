// The replay of a match from the history: its actions a page at a time, each stroke animated and ruled again,
// a list to jump to, a scrubber by stroke and a counter.

import { app } from "./state.js";
import { $, animSpeed, fmtNum, show, showError, sleep } from "./page.js";
import { fitTable, keepTableInView, showPanels, showScreen } from "./layout.js";
import { renderOutcome, settle } from "./rulings.js";
import { renderScoreboard } from "./scoreboard-panel.js";
import { api } from "../shared/api.js";
import { playerName, t } from "../shared/i18n.js";
import * as sound from "../shared/sound.js";
import { el, fmtPoints } from "../shared/ui.js";

const REPLAY_PAGE = 50; // the replay reads the history this many actions at a time, as it needs them

// --- the replay ----------------------------------------------------------------------------------------------

export class ReplayMode {
  constructor(id, step) {
    this.id = id;
    this.session = app.session;
    this.count = 0; // actions in the match
    this.actions = []; // the history as far as read: a page at a time, as the replay needs it
    this.pages = new Map(); // page number -> its request
    this.base = null;
    this.index = step; // the last action shown (-1: the start)
    this.working = false;
    this.playing = false;
    this.entry = null;
    this.going = 0; // the latest jump asked for (a scrubber sends many)
  }

  alive() {
    return app.session === this.session;
  }

  busy() {
    return this.working || app.view.animating;
  }

  async enter() {
    showScreen("table");
    showPanels({ replay: true });
    show("hint-box", false);
    fitTable();
    $("phase-actions").replaceChildren();
    $("log").replaceChildren();
    $("ruling").replaceChildren();
    $("inning").replaceChildren();
    try {
      const base = await api.match(this.id);
      if (!this.alive()) return;
      this.base = base;
      this.count = base.actions;
      this.index = Math.max(-1, Math.min(this.count - 1, this.index ?? -1));
      await this.ensure(Math.max(0, this.index));
      if (!this.alive()) return;
    } catch (error) {
      showError(error);
      return;
    }
    this.renderList();
    this.showStatic();
  }

  /** Read the page of the history holding action `i` (once; pages already read are kept). */
  async ensure(i) {
    if (i < 0 || i >= this.count || this.actions[i]) return;
    const page = Math.floor(i / REPLAY_PAGE);
    if (!this.pages.has(page)) {
      const request = api.actions(this.id, page * REPLAY_PAGE, REPLAY_PAGE).then((actions) => {
        for (const a of actions) this.actions[a.index] = a;
        if (this.alive() && $("replay-list").children.length) this.renderItems(page * REPLAY_PAGE, page * REPLAY_PAGE + actions.length);
      });
      request.catch(() => this.pages.delete(page)); // asked again next time
      this.pages.set(page, request);
    }
    await this.pages.get(page);
  }

  initialPosition() {
    const s = app.table.spots;
    return { K: s.centre, R1: s["head-string"], R2: s["foot-string"] };
  }

  /** A scoreboard view of the match as it stood after action `i` (read from the state stored with it). */
  viewAt(i) {
    const b = this.base;
    if (i < 0) {
      return { ...b, phase: "lag", position: { balls: this.initialPosition() }, scores: { W1: 0, W2: 0 }, innings: { W1: 0, W2: 0 }, run: 0, players: b.players.map((p) => ({ ...p, cue_ball: null })), fouls: { W1: 0, W2: 0 }, shootout: null, result: null, clock: { ...b.clock, elapsed: 0, final_innings: null, warned: false } };
    }
    const s = this.actions[i].state_after;
    return {
      ...b,
      phase: s.phase,
      position: s.position,
      scores: s.game.scores,
      innings: s.innings,
      run: s.run,
      shooter: s.game.shooter,
      from_hand: (s.game.in_hand || []).includes(s.game.shooter),
      players: b.players.map((p, k) => ({ ...p, cue_ball: s.owners ? s.owners[k] : null })),
      fouls: s.fouls || { W1: 0, W2: 0 },
      shootout: s.shootout,
      result: s.result,
      clock: { ...b.clock, ...s.clock, limit: b.clock.limit },
    };
  }

  showStatic() {
    const v = this.viewAt(this.index);
    renderScoreboard(v);
    app.view.balls = { ...v.position.balls };
    app.view.overlay = {};
    app.view.draw();
    const a = this.index >= 0 ? this.actions[this.index] : null;
    this.entry = a ? { outcome: a.outcome, names: this.base.players.map((p) => playerName(p)), who: this.whoOf(a), call: a.action.kind === "shot" ? a.action.call : undefined } : null;
    renderOutcome($("ruling"), this.entry);
    this.renderControls();
  }

  /** "name (ball)" of the shooter of action `a`. */
  whoOf(a) {
    const ruling = a.outcome.ruling;
    if (!ruling) return null;
    const owners = a.state_after.owners || [];
    const i = owners.indexOf(ruling.shooter);
    return i >= 0 ? t("ruling.byShooter", { name: playerName(this.base.players[i]), ball: ruling.shooter }) : ruling.shooter;
  }

  describe(a) {
    if (!a) return this.index >= 0 ? t("replay.loading") : t("replay.start");
    const act = a.action;
    const names = this.base.players.map((p) => playerName(p));
    if (act.kind === "lag") return t("replay.lag");
    if (act.kind === "choose") return t("replay.choose", { name: names[a.player] ?? "", ball: act.cue_ball });
    if (act.kind === "place-w2") return t("replay.place", { x: fmtNum(act.point[0], 3), y: fmtNum(act.point[1], 3) });
    if (act.kind === "shot") return t("replay.shot", { ball: act.stroke.ball, call: act.call ?? t("ruling.noCall"), speed: fmtNum(act.stroke.speed, 2), direction: fmtNum(act.stroke.direction, 1) });
    return t("replay.break", { s: act.seconds });
  }

  /** The list item's text of action `i`: a stroke numbered from the match's first, with the shooter, the call
   * and the points; "…" until its page is read. */
  itemText(i) {
    const a = this.actions[i];
    if (!a) return `${i + 1}. ${t("replay.loading")}`;
    const ruling = a.outcome.ruling;
    if (a.action.kind === "shot" && ruling) {
      const owners = a.state_after.owners || [];
      const k = owners.indexOf(ruling.shooter);
      const who = k >= 0 ? playerName(this.base.players[k]) : ruling.shooter;
      return `${a.state_after.strokes}. ${who}: ${a.action.call ?? t("ruling.noCall")} ${fmtPoints(ruling.points)}`;
    }
    return this.describe(a);
  }

  /** Every action in a list to jump to. The pages not read yet are read as their items scroll into view. */
  renderList() {
    const list = $("replay-list");
    if (this.observer) this.observer.disconnect();
    this.observer = new IntersectionObserver(
      (entries) => {
        for (const e of entries) if (e.isIntersecting) this.ensure(Number(e.target.dataset.index)).catch(() => {});
      },
      { root: list },
    );
    const items = [];
    for (let i = 0; i < this.count; i++) {
      const item = el("li", { "data-testid": "replay-item", dataset: { index: String(i) }, onclick: () => this.go(i) }, el("button", { type: "button", class: "linkish" }, this.itemText(i)));
      if (!this.actions[i]) {
        item.dataset.pending = "true";
        this.observer.observe(item);
      }
      items.push(item);
    }
    list.replaceChildren(...items);
  }

  /** The list's items from `a` to `b` once their page is read. */
  renderItems(a, b) {
    const list = $("replay-list");
    for (let i = a; i < b; i++) {
      const item = list.children[i];
      if (!item || !this.actions[i]) continue;
      item.firstChild.textContent = this.itemText(i);
      delete item.dataset.pending;
      if (this.observer) this.observer.unobserve(item);
    }
  }

  /** Strokes played up to action `i` (0 at the start and through the lag and the placements). */
  strokesAt(i) {
    const a = i >= 0 ? this.actions[i] : null;
    return a ? a.state_after.strokes : 0;
  }

  /** The step counter: "stroke k / n", or "k / n" in a phone's bar (the words stay its accessible name). */
  showStep(k) {
    const box = $("replay-step");
    const said = t("replay.step", { i: k, n: this.base.strokes });
    box.textContent = window.innerWidth < 820 ? `${k} / ${this.base.strokes}` : said;
    box.title = said;
    box.setAttribute("aria-label", said);
  }

  renderControls() {
    const n = this.count;
    // people count a match in strokes: the step and the scrubber go by stroke; the lag, the choice, the
    // placement and the breaks stay in the list and under the arrow buttons
    const strokes = this.base.strokes;
    const k = this.strokesAt(this.index);
    const scrub = $("replay-scrub");
    scrub.max = String(strokes);
    scrub.value = String(k);
    scrub.disabled = this.busy();
    for (const item of $("replay-list").children) {
      const current = Number(item.dataset.index) === this.index;
      if (current) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
      if (current) {
        // keep the current action in the list's view without scrolling the page
        const list = item.parentElement;
        if (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
          list.scrollTop = item.offsetTop - list.clientHeight / 2;
        }
      }
    }
    this.showStep(k);
    $("replay-step").dataset.index = String(this.index);
    $("replay-step").dataset.stroke = String(k);
    $("replay-action").textContent = this.describe(this.index >= 0 ? this.actions[this.index] : null);
    const names = this.base.players.map((p) => playerName(p));
    $("prompt").textContent = t("replay.prompt", { id: this.id, a: names[0], b: names[1] });
    const busy = this.busy();
    $("replay-first").disabled = busy || this.index < 0;
    $("replay-prev").disabled = busy || this.index < 0;
    $("replay-next").disabled = busy || this.index >= n - 1;
    $("replay-play").textContent = this.playing ? "■" : t("replay.play");
    $("replay-play").disabled = this.index >= n - 1 && !this.playing;
    history.replaceState(null, "", `#/replay/${this.id}/${this.index}`);
  }

  async next() {
    if (this.busy() || this.index >= this.count - 1) return false;
    const i = this.index + 1;
    this.working = true;
    this.renderControls();
    let played;
    try {
      [played] = await Promise.all([api.animation(this.id, i), this.ensure(i)]);
    } catch (error) {
      this.working = false;
      showError(error);
      this.renderControls();
      return false;
    }
    if (!this.alive()) return false;
    const before = this.viewAt(i - 1);
    app.view.balls = { ...before.position.balls };
    app.view.overlay = {};
    if (played.outcome.records && played.outcome.records.length) {
      // the counter and the line say the stroke that is playing, not the one before it
      if (this.actions[i]) {
        this.showStep(this.strokesAt(i));
        $("replay-action").textContent = this.describe(this.actions[i]);
      }
      keepTableInView();
      sound.playEvents(played.outcome.records, animSpeed());
      await app.view.animate(played.outcome.records, animSpeed());
    }
    if (!this.alive()) return false;
    this.index = i;
    const a = this.actions[i];
    // the scoreboard from the stored state after action i: the animation's own view counts the fouls (and the
    // actions) of the whole match, not of the match up to action i
    renderScoreboard(this.viewAt(i));
    const ruling = played.outcome.ruling;
    const settled = ruling && ruling.position ? settle(played.outcome.records, ruling) : null;
    if (!settled) {
      app.view.balls = { ...a.state_after.position.balls };
      app.view.draw();
    }
    this.entry = { outcome: played.outcome, names: this.base.players.map((p) => playerName(p)), who: this.whoOf(a), call: a.action.kind === "shot" ? a.action.call : undefined };
    await renderOutcome($("ruling"), this.entry, { reveal: true, alive: () => this.alive(), onItem: settled && settled.onItem });
    if (settled) await settled.finish();
    if (!this.alive()) return false;
    app.view.balls = { ...a.state_after.position.balls };
    app.view.draw();
    this.working = false;
    this.renderControls();
    return true;
  }

  /** Jump to stroke `s` (0: the start): the first action after which `s` strokes are played. Only the other
   * actions (the lag, the choice, the placement, breaks) lie between strokes, so it is one of the few actions
   * from `s - 1` on: their pages are read first. */
  async goStroke(s) {
    if (this.busy()) return;
    const target = Math.max(0, Math.min(this.base.strokes, s));
    if (target === 0) return this.go(-1);
    const lo = Math.min(this.count - 1, target - 1);
    const hi = Math.min(this.count - 1, lo + this.count - this.base.strokes);
    const mine = ++this.going;
    try {
      await Promise.all([this.ensure(lo), this.ensure(hi)]);
    } catch (error) {
      if (this.alive()) showError(error);
      return;
    }
    if (!this.alive() || mine !== this.going) return;
    let i = lo;
    while (i < hi && this.strokesAt(i) < target) i++;
    return this.go(i);
  }

  /** Jump to action `i` (its page read first; of many jumps asked at once, the latest is shown). */
  async go(i) {
    if (this.busy()) return;
    const target = Math.max(-1, Math.min(this.count - 1, i));
    const mine = ++this.going;
    try {
      await this.ensure(target);
    } catch (error) {
      if (this.alive()) showError(error);
      return;
    }
    if (!this.alive() || mine !== this.going || this.busy()) return;
    this.index = target;
    this.showStatic();
  }

  async playAll() {
    if (this.playing) {
      this.playing = false;
      this.renderControls();
      return;
    }
    this.playing = true;
    this.renderControls();
    while (this.playing && this.alive() && this.index < this.count - 1) {
      if (!(await this.next())) break;
      await sleep(300 / animSpeed());
    }
    this.playing = false;
    if (this.alive()) this.renderControls();
  }

  onLang() {
    renderScoreboard(this.viewAt(this.index));
    const a = this.index >= 0 ? this.actions[this.index] : null;
    if (this.entry && a) this.entry = { ...this.entry, names: this.base.players.map((p) => playerName(p)), who: this.whoOf(a) };
    renderOutcome($("ruling"), this.entry);
    this.renderControls();
  }
}
