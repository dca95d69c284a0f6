// The browser table's start-up: routing between the start screen, a match, the history with replays and the study
// table, and wiring the page's buttons. No rules live here: the server's referee decides everything; the page
// places, aims, calls, animates and shows what the server answered.
//
// Where things are (table/): a screen each in match.js (with match-log.js, hint.js, summary.js), replay.js,
// study.js and start.js (the start screen and the history); what a gesture on the canvas does in canvas-input.js;
// the aim helper ("Aim at the called pot", its window) in aim-helper.js and the drawn aids and preview in aim.js;
// the stroke and call controls in controls.js; the ruling panel in rulings.js, the scoreboard in
// scoreboard-panel.js; the layout and a phone's dock in layout.js; the keys in keys.js. What the screens share:
// state.js (the page's state and the API's shapes as the page reads them) and page.js (elements, messages).

import { app } from "./state.js";
import { $, ANIM_KEY, animSpeed, clearMessage, formOf, input, select, show, showError } from "./page.js";
import { fitTable } from "./layout.js";
import { installPointer } from "./canvas-input.js";
import { renderAimStatus, screenSense } from "./aim-helper.js";
import { MatchMode } from "./match.js";
import { ReplayMode } from "./replay.js";
import { StudyMode } from "./study.js";
import { NAME_KEY, createMatch, describeLevel, enterHistory, enterStart, renderLevels } from "./start.js";
import { onKey, toggleHelp } from "./keys.js";
import { api } from "../shared/api.js";
import { CallControls, StrokeControls } from "./controls.js";
import * as aids from "./aim.js";
import { applyLabels, onLangChange, setLang, setPlayerKinds, t } from "../shared/i18n.js";
import * as sound from "../shared/sound.js";
import { TableView } from "../shared/table.js";

/** @typedef {import("./state.js").Point} Point @typedef {import("./state.js").TableJson} TableJson */
/** @typedef {import("./state.js").PlayerKind} PlayerKind @typedef {import("./state.js").Schemas} Schemas */
/** @typedef {Schemas["kaisa__web__schemas__PlayerIn"]} PlayerIn */

const HINT_KEY = "kaisa.hintLevel";

// --- routing -------------------------------------------------------------------------------------------------

async function route() {
  app.session += 1;
  show("summary", false); // the summary belongs to the match it was opened on (New game, Back, a link)
  const id = (location.hash.match(/^#\/(?:match|replay)\/(\d+)/) || [])[1];
  document.title = id ? `Kaisa · ${id}` : "Kaisa";
  app.view.skip();
  clearMessage();
  const hash = location.hash || "#/";
  let m;
  if ((m = hash.match(/^#\/match\/(\d+)$/))) {
    const mode = new MatchMode(Number(m[1]));
    app.mode = mode;
    await mode.enter();
  } else if ((m = hash.match(/^#\/replay\/(\d+)(?:\/(-?\d+))?$/))) {
    const mode = new ReplayMode(Number(m[1]), m[2] === undefined ? -1 : Number(m[2]));
    app.mode = mode;
    await mode.enter();
  } else if (hash === "#/study") {
    const mode = new StudyMode();
    app.mode = mode;
    mode.enter();
  } else if (hash === "#/history") {
    await enterHistory();
  } else {
    await enterStart();
  }
  document.body.dataset.ready = "true";
}

// --- start-up ------------------------------------------------------------------------------------------------

function wire() {
  for (const button of document.querySelectorAll("[data-lang]")) {
    if (button instanceof HTMLElement) button.addEventListener("click", () => setLang(button.dataset.lang || ""));
  }
  onLangChange(() => {
    app.stroke.render();
    app.call.renderStatus();
    renderAimStatus();
    aids.retranslate();
    if (document.body.dataset.screen === "start") renderLevels();
    if (document.body.dataset.screen === "history") enterHistory();
    if (app.mode && app.mode.onLang) app.mode.onLang();
  });
  $("message-close").addEventListener("click", clearMessage);
  $("shoot").addEventListener("click", () => app.mode && app.mode.shoot && app.mode.shoot());
  $("undo").addEventListener("click", () => app.mode && app.mode.undo && app.mode.undo());
  $("take-break").addEventListener("click", () => app.mode && app.mode.startBreak && app.mode.startBreak());
  $("aim-call").addEventListener("click", () => app.mode && app.mode.aimCall && app.mode.aimCall());
  $("skip-anim").addEventListener("click", () => app.view.skip());
  const speed = select("anim-speed");
  speed.value = String(animSpeed());
  if (!speed.value) speed.value = "1";
  speed.addEventListener("change", () => localStorage.setItem(ANIM_KEY, speed.value));
  $("advise").addEventListener("click", () => app.mode instanceof StudyMode && app.mode.advise());
  $("study-back").addEventListener("click", () => app.mode instanceof StudyMode && app.mode.back());
  $("study-reset").addEventListener("click", () => app.mode instanceof StudyMode && app.mode.reset());
  const shooter = select("study-shooter");
  shooter.addEventListener("change", () => app.mode instanceof StudyMode && app.mode.setShooter(shooter.value));
  for (const b of ["W1", "W2"]) {
    const hand = input(`study-hand-${b}`);
    hand.addEventListener("change", () => app.mode instanceof StudyMode && app.mode.setHand(b, hand.checked));
    const score = input(`study-score-${b}`);
    score.addEventListener("change", () => app.mode instanceof StudyMode && app.mode.setScore(b, score.value));
  }
  const opening = input("study-opening");
  opening.addEventListener("change", () => app.mode instanceof StudyMode && app.mode.setOpening(opening.checked));
  const twice = input("study-twice");
  twice.addEventListener("change", () => app.mode instanceof StudyMode && app.mode.setTwice(twice.checked));
  $("hint").addEventListener("click", () => app.mode instanceof MatchMode && app.mode.askHint());
  const hintLevel = select("hint-level");
  hintLevel.value = localStorage.getItem(HINT_KEY) || "club";
  hintLevel.addEventListener("change", () => localStorage.setItem(HINT_KEY, hintLevel.value));
  $("replay-next").addEventListener("click", () => app.mode instanceof ReplayMode && app.mode.next());
  $("replay-prev").addEventListener("click", () => app.mode instanceof ReplayMode && app.mode.go(app.mode.index - 1));
  $("replay-first").addEventListener("click", () => app.mode instanceof ReplayMode && app.mode.go(-1));
  $("replay-play").addEventListener("click", () => app.mode instanceof ReplayMode && app.mode.playAll());
  const scrub = input("replay-scrub");
  scrub.addEventListener("input", () => app.mode instanceof ReplayMode && app.mode.goStroke(Number(scrub.value)));

  const form = formOf("form-computer");
  form.level.addEventListener("change", describeLevel);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const name = form.name.value.trim() || t("start.defaultName");
    localStorage.setItem(NAME_KEY, name);
    /** @type {PlayerIn} */
    const me = { name, kind: "human" };
    // the levels offered are the server's own kinds (/api/players)
    const level = /** @type {PlayerIn["kind"]} */ (form.level.value);
    // stored under its level's id, shown by the level's name in the language of whoever looks (playerName)
    /** @type {PlayerIn} */
    const bot = { name: `${level[0].toUpperCase()}${level.slice(1)}`, kind: level };
    createMatch(form.second.checked ? [bot, me] : [me, bot], form.clock.checked, form.seed.value);
  });
  const two = formOf("form-two");
  two.addEventListener("submit", (event) => {
    event.preventDefault();
    createMatch(
      [
        { name: two.name1.value.trim() || `${t("start.defaultName")} 1`, kind: "human" },
        { name: two.name2.value.trim() || `${t("start.defaultName")} 2`, kind: "human" },
      ],
      two.clock.checked,
      null,
    );
  });

  document.addEventListener("keydown", onKey);
  const aidLevel = select("aids");
  aidLevel.value = aids.level();
  aidLevel.addEventListener("change", () => {
    aids.setLevel(aidLevel.value);
    if (app.mode && app.mode.render) app.mode.render();
  });
  const soundButton = $("sound-toggle");
  const showSound = () => {
    soundButton.setAttribute("aria-pressed", String(sound.isOn()));
    soundButton.textContent = sound.isOn() ? `♪ ${t("sound.on")}` : t("sound.off");
  };
  soundButton.addEventListener("click", () => {
    sound.setOn(!sound.isOn());
    showSound();
  });
  onLangChange(showSound);
  showSound();
  app.showSound = showSound;
  $("help-open").addEventListener("click", () => toggleHelp(true));
  $("help-close").addEventListener("click", () => toggleHelp(false));
  $("summary-close").addEventListener("click", () => show("summary", false));
  window.addEventListener("resize", fitTable);
  let docked = 0;
  new ResizeObserver(() => {
    const height = $("dock").offsetHeight;
    document.body.style.setProperty("--dock-h", `${height}px`);
    // a taller dock (a longer phase line, the call's row) takes the table's foot: fit the table again
    if (height && Math.abs(height - docked) > 6 && !$("dock").hidden) {
      docked = height;
      fitTable();
    }
  }).observe($("dock"));
  window.addEventListener("hashchange", route);
  setInterval(() => app.mode && app.mode.tick && app.mode.tick(), 1000);
}

async function main() {
  applyLabels(document);
  app.stroke = new StrokeControls(() => app.mode && app.mode.onStrokeChange && app.mode.onStrokeChange());
  app.stroke.screenSense = screenSense;
  app.call = new CallControls(() => app.mode && app.mode.render && app.mode.render());
  // where a call is checked (a match or the study's position); Object.assign: CallControls declares no `where`
  // until controls.js is typed
  Object.assign(app.call, { where: () => (app.mode && app.mode.callWhere ? app.mode.callWhere() : {}) });
  wire();
  try {
    /** @type {[TableJson, Record<string, PlayerKind>]} */
    const [table, players] = await Promise.all([api.table(), api.players()]);
    app.table = table;
    app.players = players;
    setPlayerKinds(players);
  } catch (error) {
    showError(error);
    return;
  }
  app.view = new TableView($("table", HTMLCanvasElement), app.table);
  installPointer(app.view.canvas);
  // for tests and the console: where a table point (metres) is in the window
  /** @type {Window & { kaisa?: object }} */ (window).kaisa = {
    table: app.table,
    balls: () => ({ ...app.view.balls }),
    /** @param {Point} p */
    toClient(p) {
      const rect = app.view.canvas.getBoundingClientRect();
      const [x, y] = app.view.toPx(p);
      return [rect.left + x, rect.top + y];
    },
  };
  await route();
}

main();
