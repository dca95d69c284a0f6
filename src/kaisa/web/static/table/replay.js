// The replay of a match from the history: its actions a page at a time, each stroke animated and ruled again,
// a list to jump to, a scrubber by stroke and a counter. The reckoning (which stroke, the counter's words, the
// scoreboard after an action) is replay-steps.js's; this module reads the history and shows it.

import { app } from "./state.js";
import { $, animSpeed, show, showError, sleep } from "./page.js";
import { fitTable, keepTableInView, showPanels, showScreen } from "./layout.js";
import { renderOutcome, settle } from "./rulings.js";
import { renderScoreboard } from "./scoreboard-panel.js";
import { api } from "../shared/api.js";
import { playerName, t } from "../shared/i18n.js";
import * as sound from "../shared/sound.js";
import { el } from "../shared/ui.js";
import * as steps from "./replay-steps.js";

/** @typedef {import("./state.js").View} View @typedef {import("./state.js").Entry} Entry */
/** @typedef {import("./state.js").Outcome} Outcome @typedef {import("./state.js").Played} Played */
/** @typedef {import("./replay-steps.js").ReplayAction} ReplayAction */

const REPLAY_PAGE = 50; // the replay reads the history this many actions at a time, as it needs them

// --- the replay ----------------------------------------------------------------------------------------------

export class ReplayMode {
  /** @param {number} id the match @param {number} step the action to show first (-1: the start) */
  constructor(id, step) {
    this.id = id;
    this.session = app.session;
    this.count = 0; // actions in the match
    /** @type {(ReplayAction | undefined)[]} the history as far as read: a page at a time, as the replay needs it */
    this.actions = [];
    /** @type {Map<number, Promise<void>>} page number -> its request */
    this.pages = new Map();
    /** @type {View | null} the match (read on entering) */
    this.base = null;
    this.index = step; // the last action shown (-1: the start)
    this.working = false;
    this.playing = false;
    /** @type {Entry | null} the ruling panel */
    this.entry = null;
    this.going = 0; // the latest jump asked for (a scrubber sends many)
    /** @type {IntersectionObserver | null} reads a page of the list as its items scroll into view */
    this.observer = null;
  }

  /** The match, read on entering (nothing asks for it before). @returns {View} */
  get match() {
    if (!this.base) throw new Error(`match ${this.id}: not read yet`);
    return this.base;
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
      /** @type {View} */
      const base = await api.match(this.id);
      if (!this.alive()) return;
      this.base = base;
      this.count = base.actions;
      this.index = steps.actionIndex(this.index, this.count);
      await this.ensure(Math.max(0, this.index));
      if (!this.alive()) return;
    } catch (error) {
      showError(error);
      return;
    }
    this.renderList();
    this.showStatic();
  }

  /** Read the page of the history holding action `i` (once; pages already read are kept). @param {number} i */
  async ensure(i) {
    if (i < 0 || i >= this.count || this.actions[i]) return;
    const page = Math.floor(i / REPLAY_PAGE);
    if (!this.pages.has(page)) {
      const request = api.actions(this.id, page * REPLAY_PAGE, REPLAY_PAGE).then((/** @type {ReplayAction[]} */ actions) => {
        for (const a of actions) this.actions[a.index] = a;
        if (this.alive() && $("replay-list").children.length) this.renderItems(page * REPLAY_PAGE, page * REPLAY_PAGE + actions.length);
      });
      request.catch(() => this.pages.delete(page)); // asked again next time
      this.pages.set(page, request);
    }
    await this.pages.get(page);
  }

  /** A scoreboard view of the match as it stood after action `i` (read from the state stored with it).
   * @param {number} i @returns {View} */
  viewAt(i) {
    return steps.viewAt(this.match, this.action(i), steps.initialBalls(app.table.spots));
  }

  /** Action `i` if it is read (null: the start, or not read yet). @param {number} i @returns {ReplayAction | null} */
  action(i) {
    return (i >= 0 && this.actions[i]) || null;
  }

  /** The ruling panel of action `a` with its outcome `outcome` (the stored one, or the animation's).
   * @param {ReplayAction} a @param {Outcome} outcome @returns {Entry} */
  entryOf(a, outcome) {
    const players = this.match.players;
    return { outcome, names: players.map((p) => playerName(p)), who: steps.whoOf(a, players), call: steps.callOf(a) };
  }

  showStatic() {
    const v = this.viewAt(this.index);
    renderScoreboard(v);
    app.view.balls = { ...v.position.balls };
    app.view.overlay = {};
    app.view.draw();
    const a = this.action(this.index);
    this.entry = a ? this.entryOf(a, a.outcome) : null;
    renderOutcome($("ruling"), this.entry);
    this.renderControls();
  }

  /** The action line's words for action `i` ("loading" until it is read; the start before the first).
   * @param {number} i @returns {string} */
  describe(i) {
    const a = this.action(i);
    if (!a) return i >= 0 ? t("replay.loading") : t("replay.start");
    return steps.describe(a, this.match.players);
  }

  /** The list item's text of action `i`. @param {number} i */
  itemText(i) {
    return steps.itemText(this.actions[i], i, this.match.players);
  }

  /** Every action in a list to jump to. The pages not read yet are read as their items scroll into view. */
  renderList() {
    const list = $("replay-list");
    if (this.observer) this.observer.disconnect();
    this.observer = new IntersectionObserver(
      (entries) => {
        for (const e of entries) {
          if (e.isIntersecting && e.target instanceof HTMLElement) this.ensure(Number(e.target.dataset.index)).catch(() => {});
        }
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

  /** The list's items from `a` to `b` once their page is read. @param {number} a @param {number} b */
  renderItems(a, b) {
    const list = $("replay-list");
    for (let i = a; i < b; i++) {
      const item = list.children[i];
      if (!(item instanceof HTMLElement) || !item.firstElementChild || !this.actions[i]) continue;
      item.firstElementChild.textContent = this.itemText(i);
      delete item.dataset.pending;
      if (this.observer) this.observer.unobserve(item);
    }
  }

  /** The step counter: "stroke k / n", or "k / n" in a phone's bar (the words stay its accessible name).
   * @param {number} k */
  showStep(k) {
    const box = $("replay-step");
    const { said, short } = steps.counterText(k, this.match.strokes);
    box.textContent = window.innerWidth < 820 ? short : said;
    box.title = said;
    box.setAttribute("aria-label", said);
  }

  renderControls() {
    const n = this.count;
    // people count a match in strokes: the step and the scrubber go by stroke; the lag, the choice, the
    // placement and the breaks stay in the list and under the arrow buttons
    const strokes = this.match.strokes;
    const k = steps.shownStroke(this.actions, this.index);
    const scrub = $("replay-scrub", HTMLInputElement);
    scrub.max = String(strokes);
    scrub.value = String(k);
    scrub.disabled = this.busy();
    for (const item of $("replay-list").children) {
      if (!(item instanceof HTMLElement)) continue;
      const current = Number(item.dataset.index) === this.index;
      if (current) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
      if (current) {
        // keep the current action in the list's view without scrolling the page
        const list = $("replay-list");
        if (item.offsetTop < list.scrollTop || item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
          list.scrollTop = item.offsetTop - list.clientHeight / 2;
        }
      }
    }
    this.showStep(k);
    $("replay-step").dataset.index = String(this.index);
    $("replay-step").dataset.stroke = String(k);
    $("replay-action").textContent = this.describe(this.index);
    const names = this.match.players.map((p) => playerName(p));
    $("prompt").textContent = t("replay.prompt", { id: this.id, a: names[0], b: names[1] });
    const busy = this.busy();
    $("replay-first", HTMLButtonElement).disabled = busy || this.index < 0;
    $("replay-prev", HTMLButtonElement).disabled = busy || this.index < 0;
    $("replay-next", HTMLButtonElement).disabled = busy || this.index >= n - 1;
    const play = $("replay-play", HTMLButtonElement);
    play.textContent = this.playing ? "■" : t("replay.play");
    play.disabled = this.index >= n - 1 && !this.playing;
    history.replaceState(null, "", `#/replay/${this.id}/${this.index}`);
  }

  async next() {
    if (this.busy() || this.index >= this.count - 1) return false;
    const i = this.index + 1;
    this.working = true;
    this.renderControls();
    /** @type {Played} */
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
    const a = this.action(i);
    if (!a) {
      // ensure(i) above read its page: only a history shorter than the match said gets here
      this.working = false;
      this.renderControls();
      return false;
    }
    const before = this.viewAt(i - 1);
    app.view.balls = { ...before.position.balls };
    app.view.overlay = {};
    if (played.outcome.records && played.outcome.records.length) {
      // the counter and the line say the stroke that is playing, not the one before it
      this.showStep(steps.shownStroke(this.actions, this.index, i));
      $("replay-action").textContent = this.describe(i);
      keepTableInView();
      sound.playEvents(played.outcome.records, animSpeed());
      await app.view.animate(played.outcome.records, animSpeed());
    }
    if (!this.alive()) return false;
    this.index = i;
    // the scoreboard from the stored state after action i: the animation's own view counts the fouls (and the
    // actions) of the whole match, not of the match up to action i
    renderScoreboard(this.viewAt(i));
    const ruling = played.outcome.ruling;
    const position = ruling && ruling.position;
    const settled = ruling && position ? settle(played.outcome.records, { ...ruling, position }) : null;
    if (!settled) {
      app.view.balls = { ...a.state_after.position.balls };
      app.view.draw();
    }
    this.entry = this.entryOf(a, played.outcome);
    await renderOutcome($("ruling"), this.entry, { reveal: true, alive: () => this.alive(), onItem: settled ? settled.onItem : null });
    if (settled) await settled.finish();
    if (!this.alive()) return false;
    app.view.balls = { ...a.state_after.position.balls };
    app.view.draw();
    this.working = false;
    this.renderControls();
    return true;
  }

  /** Jump to stroke `s` (0: the start): the first action after which `s` strokes are played (its few candidates'
   * pages read first: replay-steps.js strokeSpan). @param {number} s @returns {Promise<void>} */
  async goStroke(s) {
    if (this.busy()) return;
    const span = steps.strokeSpan(s, this.match.strokes, this.count);
    if (span.target === 0) return this.go(-1);
    const mine = ++this.going;
    try {
      await Promise.all([this.ensure(span.lo), this.ensure(span.hi)]);
    } catch (error) {
      if (this.alive()) showError(error);
      return;
    }
    if (!this.alive() || mine !== this.going) return;
    return this.go(steps.actionOfStroke(this.actions, span));
  }

  /** Jump to action `i` (its page read first; of many jumps asked at once, the latest is shown).
   * @param {number} i @returns {Promise<void>} */
  async go(i) {
    if (this.busy()) return;
    const target = steps.actionIndex(i, this.count);
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
    const a = this.action(this.index);
    if (this.entry && a) this.entry = this.entryOf(a, this.entry.outcome);
    renderOutcome($("ruling"), this.entry);
    this.renderControls();
  }
}
