// The table screen's scoreboard: the players, their scores and innings, the phase, the clock, the shoot-out and
// the result.

import { $ } from "./page.js";
import { levelName, playerName, serverText, t } from "../shared/i18n.js";
import { ballChip, el, fmtClock } from "../shared/ui.js";

/** @typedef {import("./state.js").View} View */

// --- the scoreboard -------------------------------------------------------------------------------------------

/** "computer (level)" for a computer player, nothing for a person. @param {string} kind */
export function kindLabel(kind) {
  return kind === "human" ? "" : t("match.computer", { level: levelName(kind) });
}

/** The scoreboard of match `v`; `liveSeconds` the turn's thinking time so far, for the clock.
 * @param {View} v @param {{ liveSeconds?: number }} [options] */
export function renderScoreboard(v, { liveSeconds = 0 } = {}) {
  const box = $("scoreboard");
  box.replaceChildren();
  const playing = v.phase === "play" || v.phase === "shootout";
  const target = v.winning_score || 60; // the points that win (3)
  const players = el("div", { class: "players" });
  v.players.forEach((p, i) => {
    const ball = p.cue_ball;
    const atTable = Boolean(ball && playing && v.shooter === ball);
    // a finished match shows the recorded result (a winner's 65 is recorded 60, the target)
    const score = ball ? (v.result && v.result.recorded ? v.result.recorded[ball] : v.scores[ball]) : 0;
    const card = el(
      "div",
      { class: `player${atTable ? " at-table" : ""}`, "data-testid": `player-${i}`, dataset: { ball: ball || "" } },
      el("div", { class: "name-row" }, ballChip(ball), el("span", { class: "name", "data-testid": `name-${i}` }, playerName(p))),
      el("div", { class: "kind" }, [kindLabel(p.kind), ball || t("match.noBall")].filter(Boolean).join(" · ")),
      el("div", { class: "score-row" }, el("span", { class: "score", "data-testid": `score-${i}` }, String(score)), el("span", { class: "target", "data-testid": `target-${i}` }, `/ ${target}`)),
      el("div", { class: "bar" }, el("span", { style: `width:${Math.max(0, Math.min(100, (score / target) * 100))}%` })),
      el(
        "div",
        { class: "stats" },
        `${t("match.innings")}: `,
        el("span", { "data-testid": `innings-${i}` }, String(ball ? v.innings[ball] : 0)),
        ` · ${t("match.fouls")}: `,
        el("span", { "data-testid": `fouls-${i}` }, String(ball ? v.fouls[ball] || 0 : 0)),
      ),
      el(
        "div",
        { class: "tags" },
        atTable ? el("span", { class: "tag at", "data-testid": `at-table-${i}` }, t("match.atTable")) : null,
        atTable && v.from_hand ? el("span", { class: "tag hand", "data-testid": `in-hand-${i}` }, t("match.inHand")) : null,
      ),
    );
    players.append(card);
  });
  box.append(players);
  const meta = el("div", { class: "meta" });
  meta.append(el("span", { "data-testid": "phase", dataset: { phase: v.phase } }, `${t("match.phase")}: ${t(`phase.${v.phase}`)}`));
  if (playing) meta.append(el("span", { "data-testid": "run" }, `${t("match.run")}: ${v.run}`));
  box.append(meta);
  const clock = el("div", { class: "clock", id: "clock", "data-testid": "clock" });
  box.append(clock);
  renderClock(v, liveSeconds);
  if (v.shootout) {
    const so = v.shootout;
    const order = [so.first, so.first === "W1" ? "W2" : "W1"];
    const nameOf = (/** @type {string} */ ball) => { const p = v.players.find((q) => q.cue_ball === ball); return p ? playerName(p) : ball; };
    box.append(
      el(
        "div",
        { class: "shootout", "data-testid": "shootout" },
        el("strong", {}, `${t("shootout.title")}: `),
        order.map((b) => t("shootout.innings", { name: nameOf(b), ball: b, n: so.innings[b] })).join(" · "),
        ` (${t("shootout.first", { name: nameOf(so.first) })})`,
      ),
    );
  }
  if (v.result) {
    const r = v.result;
    const i = v.players.findIndex((p) => p.cue_ball === r.winner);
    const rec = v.players.map((p) => (p.cue_ball ? r.recorded[p.cue_ball] : 0));
    box.append(
      el(
        "div",
        { class: "result", "data-testid": "result" },
        el("strong", {}, t("match.winner", { name: i >= 0 ? playerName(v.players[i]) : r.winner, ball: r.winner })),
        ` · ${t("match.recorded", { a: rec[0], b: rec[1] })} · ${serverText(r.reason)}`,
      ),
    );
  }
}

/** The clock's line in the scoreboard (its box made by renderScoreboard). @param {View} v @param {number} liveSeconds */
export function renderClock(v, liveSeconds) {
  const box = document.getElementById("clock");
  if (!box) return;
  const c = v.clock;
  box.replaceChildren();
  if (c.mode !== "wall") {
    box.append(el("span", { class: "hint" }, `${t("clock.title")}: ${t("clock.off")}`));
    box.dataset.mode = c.mode;
    return;
  }
  box.dataset.mode = "wall";
  const elapsed = c.elapsed + liveSeconds;
  box.append(el("strong", {}, `${t("clock.title")}: `), el("span", { class: "mono", "data-testid": "clock-time" }, `${fmtClock(elapsed)} / ${fmtClock(c.limit)}`));
  if (c.final_innings) {
    if (c.final_innings.length) box.append(el("span", { class: "tag warn", "data-testid": "clock-final" }, t("clock.final", { left: c.final_innings.join(", ") })));
    else box.append(el("span", { class: "tag warn", "data-testid": "clock-final" }, t("clock.over")));
  } else if (c.warned || elapsed >= c.limit - 300) {
    box.append(el("span", { class: "tag warn", "data-testid": "clock-warning" }, t("clock.warning")));
  }
}
