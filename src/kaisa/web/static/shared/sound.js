// Sound, synthesised with WebAudio (nothing to download): the cue's strike, balls clicking, cushions thudding
// and balls dropping into pockets, each as loud as the impact is fast. Off until the person's first gesture
// (browsers allow audio only then); the toggle is remembered.

const KEY = "kaisa.sound";
let enabled = true;
/** @type {AudioContext | null} */
let context = null;

/** A stroke's record as the match API sends it, as far as its sounds need it: the stroke's speed, the physics'
 * events and, when animated, the sampled paths ({t: times, balls: {id: [[x, y], ...]}}).
 * @typedef {{ t?: number[], balls?: Record<string, (number[] | null)[]> }} Paths
 * @typedef {{ type: string, t?: number, ball?: string, other?: string }} PhysicsEvent
 * @typedef {{ stroke?: { speed?: number }, events?: PhysicsEvent[], trajectories?: Paths | null }} StrokeRecord */

try {
  enabled = localStorage.getItem(KEY) !== "off";
} catch {
  enabled = true;
}

export function isOn() {
  return enabled;
}

/** @param {unknown} on */
export function setOn(on) {
  enabled = Boolean(on);
  try {
    localStorage.setItem(KEY, enabled ? "on" : "off");
  } catch {
    // the setting lasts for this page
  }
}

function audio() {
  if (!enabled) return null;
  if (!context) {
    /** @type {typeof AudioContext | undefined} Safari before 14.1 names it webkitAudioContext */
    const Ctx = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
    if (!Ctx) return null;
    try {
      context = new Ctx();
    } catch {
      return null;
    }
  }
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

/** Loudness 0..1 from an impact speed in m/s (a soft touch is quiet, a break loud).
 * @param {number} speed */
function loudness(speed) {
  return Math.max(0.04, Math.min(1, Math.sqrt(Math.max(0, speed) / 6)));
}

/** One short sound `at` seconds from now: a sine ping, or a burst of band-passed noise (a thud, a strike).
 * @param {number} at @param {number} gain @param {number} frequency in Hz @param {number} decay in seconds
 * @param {boolean} [noise] */
function click(at, gain, frequency, decay, noise = false) {
  const ctx = audio();
  if (!ctx) return;
  const start = ctx.currentTime + Math.max(0, at);
  const amp = ctx.createGain();
  amp.gain.setValueAtTime(0.0001, start);
  amp.gain.exponentialRampToValueAtTime(Math.max(0.0002, gain), start + 0.002);
  amp.gain.exponentialRampToValueAtTime(0.0001, start + decay);
  amp.connect(ctx.destination);
  if (noise) {
    const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * decay), ctx.sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < data.length; i++) data[i] = Math.random() * 2 - 1;
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    const filter = ctx.createBiquadFilter();
    filter.type = "bandpass";
    filter.frequency.value = frequency;
    source.connect(filter);
    filter.connect(amp);
    source.start(start);
    source.stop(start + decay);
  } else {
    const osc = ctx.createOscillator();
    osc.type = "sine";
    osc.frequency.setValueAtTime(frequency, start);
    osc.frequency.exponentialRampToValueAtTime(frequency * 0.7, start + decay);
    osc.connect(amp);
    osc.start(start);
    osc.stop(start + decay + 0.01);
  }
}

/** The cue tip striking the cue ball at `speed` m/s, `at` seconds from now.
 * @param {number} speed @param {number} [at] */
export function strike(speed, at = 0) {
  click(at, 0.5 * loudness(speed), 900, 0.05, true);
}

/** Two balls meeting at `speed` m/s.
 * @param {number} speed @param {number} [at] */
export function ballClick(speed, at = 0) {
  click(at, 0.7 * loudness(speed), 2600, 0.04);
}

/** A ball against a cushion.
 * @param {number} speed @param {number} [at] */
export function cushion(speed, at = 0) {
  click(at, 0.45 * loudness(speed), 180, 0.09, true);
}

/** A ball dropping into a pocket.
 * @param {number} [at] */
export function drop(at = 0) {
  click(at, 0.4, 320, 0.18);
  click(at + 0.06, 0.25, 220, 0.2);
}

/** A ball's speed (m/s) at time `t` from the stroke's sampled paths (the events carry no speeds).
 * @param {Paths | null | undefined} trajectories @param {string | undefined} ball @param {number | undefined} t */
function speedAt(trajectories, ball, t) {
  if (!trajectories || !trajectories.t || !trajectories.balls || !ball || t === undefined || !trajectories.balls[ball]) return 1;
  const ts = trajectories.t;
  const samples = trajectories.balls[ball];
  let i = 0;
  while (i < ts.length - 1 && ts[i + 1] <= t) i++;
  const a = samples[Math.max(0, i - 1)];
  const b = samples[Math.max(0, i)];
  const dt = ts[Math.max(0, i)] - ts[Math.max(0, i - 1)];
  if (!a || !b || dt <= 0) return 1;
  return Math.hypot(b[0] - a[0], b[1] - a[1]) / dt;
}

/** The sounds of one action's strokes from the physics' event log (strike, ball, rail, pocket), played
 * `rate` times as fast as they happened, each as loud as its ball was fast.
 * @param {StrokeRecord[] | null | undefined} records @param {number} [rate] */
export function playEvents(records, rate = 1) {
  if (!enabled) return;
  for (const record of records || []) {
    const stroke = record.stroke || {};
    const tr = record.trajectories;
    for (const e of record.events || []) {
      const at = (e.t || 0) / rate;
      if (at > 30) break;
      if (e.type === "strike") strike(stroke.speed || 1, at);
      else if (e.type === "ball") ballClick(Math.max(speedAt(tr, e.ball, e.t), speedAt(tr, e.other, e.t)), at);
      else if (e.type === "rail" || e.type === "jaw") cushion(speedAt(tr, e.ball, e.t), at);
      else if (e.type === "pocket") drop(at);
    }
  }
}
