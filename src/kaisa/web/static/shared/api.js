// The JSON API of the browser table (see /openapi.json). Every failure becomes an ApiError whose message is
// in the page's language: the server's own `fi`/`en` texts when it sends them ({"detail", "code", "fi", "en"}),
// else this page's text for the error code or the HTTP status, so a Finnish page never shows an English
// sentence or a bare status number.

import { lang } from "./i18n.js";

/** A refusal's body as the server sends it (ErrorOut), or what a page makes of an answer that is not one.
 * @typedef {{ detail?: unknown, code?: string | null, fi?: string, en?: string }} ErrorData */

/** A pair of table coordinates in metres. @typedef {[number, number]} Point */

/** What a refusal without its own fi/en texts says, by the server's stable code or the HTTP status.
 * @type {Record<"fi" | "en", Record<string | number, string>>} */
const FALLBACK = {
  fi: {
    0: "Palvelimeen ei saada yhteyttä. Onko ”kaisa play” käynnissä? Yritä uudelleen, kun palvelin vastaa.",
    400: "Palvelin ei ymmärtänyt pyyntöä.",
    403: "Tähän otteluun ei ole pääsyä ilman kirjurin tunnusta.",
    404: "Ottelua tai siirtoa ei löydy.",
    409: "Tämä ei sovi otteluun juuri nyt (vuoro, vaihe tai ottelu on jo päättynyt).",
    422: "Pyyntö ei kelpaa: tarkista maalaus, sijoitus ja lyönti.",
    500: "Palvelimella tapahtui virhe. Ottelun tiedot ovat tallessa; yritä uudelleen.",
    unknown_match: "Ottelua ei löydy.",
    illegal_action: "Tämä ei sovi otteluun juuri nyt.",
    illegal_call: "Maalaus ei kelpaa.",
    illegal_placement: "Sijoitus ei kelpaa.",
    invalid_stroke: "Lyönti ei kelpaa.",
    no_window: "Mikään suunta lähellä tähtäystä ei pussita maalausta tällä voimalla: kokeile toista voimaa, kierrettä tai maalausta.",
  },
  en: {
    0: "The server cannot be reached. Is “kaisa play” running? Try again when it answers.",
    400: "The server did not understand the request.",
    403: "This match needs its marker's token.",
    404: "No such match or action.",
    409: "This does not fit the match now (the turn, the phase, or the match is over).",
    422: "The request is not valid: check the call, the placement and the stroke.",
    500: "The server failed. The match is safely stored; try again.",
    unknown_match: "No such match.",
    illegal_action: "This does not fit the match now.",
    illegal_call: "The call is not valid.",
    illegal_placement: "The placement is not valid.",
    invalid_stroke: "The stroke is not valid.",
    no_window: "No direction near the aim pots the call at this power: try another power, spin or call.",
  },
};

/** The text of a refusal in the page's language.
 * @param {number} status @param {ErrorData | null} [data] @returns {string} */
export function errorText(status, data) {
  const here = lang() === "fi" ? "fi" : "en";
  if (data && typeof data === "object") {
    if (typeof data[here] === "string" && data[here]) return data[here];
    const table = FALLBACK[here];
    if (data.code && table[data.code]) return table[data.code];
    // an English sentence from the server is shown as it is on the English page only
    if (here === "en" && "detail" in data) return describeDetail(data.detail);
  }
  const table = FALLBACK[here];
  return table[status] || table[Math.floor(status / 100) * 100] || table[422];
}

export class ApiError extends Error {
  /** @param {number} status @param {string} detail @param {ErrorData | null} [data] */
  constructor(status, detail, data = null) {
    super(errorText(status, data));
    this.name = "ApiError";
    this.status = status;
    this.detail = detail;
    this.data = data;
    this.code = data && typeof data === "object" ? data.code || null : null;
  }
}

/** @param {unknown} detail @returns {string} */
function describeDetail(detail) {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    // pydantic validation errors: [{loc: [...], msg: "..."}, ...]
    return detail
      .map((e) => {
        const where = Array.isArray(e.loc) ? e.loc.filter((/** @type {unknown} */ p) => p !== "body").join(".") : "";
        return where ? `${where}: ${e.msg}` : String(e.msg ?? JSON.stringify(e));
      })
      .join("; ");
  }
  return JSON.stringify(detail);
}

let skew = 0; // the server's clock less this device's (ms), from the last answer

/** The server's clock now (ms since the epoch): this device's clock set by the server's X-Kaisa-Time header of
 * the last answer, so times the server states (when the competition clock started) count the same on every
 * screen whatever their own clocks say. */
export function serverNow() {
  return Date.now() + skew;
}

/** One JSON request; `headers` adds request headers (the club marker's token). */
/** @param {string} method @param {string} path @param {unknown} [body] @param {Record<string, string>} [headers]
 * @returns {Promise<any>} the answer's JSON (typed by the caller from types/api.d.ts), its text, or null */
export async function request(method, path, body, headers = {}) {
  /** @type {Record<string, string>} */
  const sent = { ...headers };
  /** @type {RequestInit} */
  const init = { method, headers: sent };
  if (body !== undefined) {
    sent["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(0, `the server cannot be reached (${error instanceof Error ? error.message : String(error)})`);
  }
  const stated = Number(response.headers.get("x-kaisa-time"));
  if (Number.isFinite(stated) && stated > 0) skew = stated - Date.now();
  const text = await response.text();
  /** @type {unknown} */
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!response.ok) {
    const detail = data && typeof data === "object" && "detail" in data ? describeDetail(data.detail) : String(data || response.statusText);
    throw new ApiError(response.status, detail, data && typeof data === "object" ? /** @type {ErrorData} */ (data) : { detail });
  }
  return data;
}

/** @typedef {import("./types/api").components["schemas"]} Schemas */

export const api = {
  table: () => request("GET", "/api/table"),
  players: () => request("GET", "/api/players"),
  /** @param {string} call @param {string} shooter @param {Record<string, unknown>} [where] */
  checkCall: (call, shooter, where = {}) => request("POST", "/api/calls/check", { call, shooter, ...where }),
  matches: () => request("GET", "/api/matches"),
  /** @param {Schemas["NewMatch"]} body */
  createMatch: (body) => request("POST", "/api/matches", body),
  /** @param {number} id */
  match: (id) => request("GET", `/api/matches/${id}`),
  // the history a page at a time (`limit` actions from `offset`): a long match is never read whole
  /** @param {number} id */
  actions: (id, offset = 0, limit = 100) => request("GET", `/api/matches/${id}/actions?offset=${offset}&limit=${limit}`),
  /** @param {number} id @param {number} index */
  animation: (id, index) => request("GET", `/api/matches/${id}/actions/${index}/animation`),
  /** @param {number} id @param {unknown[]} strokes */
  lag: (id, strokes) => request("POST", `/api/matches/${id}/lag`, { strokes }),
  /** @param {number} id @param {string} cueBall */
  choose: (id, cueBall) => request("POST", `/api/matches/${id}/choose`, { cue_ball: cueBall }),
  /** @param {number} id @param {Point} point */
  placeW2: (id, point) => request("POST", `/api/matches/${id}/place-w2`, { point }),
  /** @param {number} id @param {string | null} call @param {unknown} stroke @param {number | null} [seconds] */
  shot: (id, call, stroke, seconds) => request("POST", `/api/matches/${id}/shot`, { call, stroke, seconds }),
  /** @param {number} id */
  computer: (id) => request("POST", `/api/matches/${id}/computer`),
  /** @param {number} id @param {string} cueBall @param {number | null} [seconds] */
  takeBreak: (id, cueBall, seconds) => request("POST", `/api/matches/${id}/break`, { cue_ball: cueBall, seconds }),
  /** @param {number} id */
  undo: (id) => request("POST", `/api/matches/${id}/undo`),
  /** @param {number} id @param {string | null} call @param {unknown} stroke @param {boolean} [deep] search speed and spin too */
  aim: (id, call, stroke, deep = true) => request("POST", `/api/matches/${id}/aim`, { call, stroke, deep }),
  /** @param {number} id @param {string | null} call @param {unknown} stroke */
  preview: (id, call, stroke) => request("POST", `/api/matches/${id}/preview`, { call, stroke }),
  /** @param {number} id @param {string} level */
  hint: (id, level, limit = 3) => request("POST", `/api/matches/${id}/hint`, { level, limit }),
  /** @param {Schemas["StudyAimIn"]} body */
  studyAim: (body) => request("POST", "/api/study/aim", body),
  /** @param {Schemas["StudyShotIn"]} body */
  studyShot: (body) => request("POST", "/api/study/shot", body),
  /** @param {Schemas["AdviseIn"]} body */
  advise: (body) => request("POST", "/api/study/advise", body),
};

// The scorekeeping mode (/api/club): entering needs the match's marker token, reading does not.
export const TOKEN_HEADER = "X-Kaisa-Token";

/** The club API for a marker (`token`) or a spectator (none).
 * @param {string | null | undefined} token */
export function clubApi(token) {
  /** @type {Record<string, string>} */
  const h = token ? { [TOKEN_HEADER]: token } : {};
  /** @param {number} id */
  const m = (id) => `/api/club/matches/${id}`;
  return {
    /** @param {Schemas["NewClubMatch"]} body */
    create: (body) => request("POST", "/api/club/matches", body),
    /** @param {number} id @param {Point} point */
    placeW2: (id, point) => request("POST", `${m(id)}/place-w2`, { point }, h),
    // Strokes and corrections are not here: they go through the marker's queue (club.js `send`), which names
    // every entry with an Idempotency-Key so an entry sent twice is recorded once.
    /** @param {number} id */
    undo: (id) => request("POST", `${m(id)}/undo`, undefined, h),
    /** @param {number} id @param {number} winner */
    lagWon: (id, winner) => request("POST", `${m(id)}/lag`, { winner }, h),
    /** @param {number} id @param {string} cueBall @param {number | null} [seconds] */
    takeBreak: (id, cueBall, seconds) => request("POST", `${m(id)}/break`, { cue_ball: cueBall, seconds }, h),
    /** @param {number} id @param {string} cueBall */
    forfeit: (id, cueBall) => request("POST", `${m(id)}/forfeit`, { cue_ball: cueBall }, h),
    // 204 for the match's token, 403 for any other
    /** @param {number} id */
    checkToken: (id) => request("GET", `${m(id)}/access`, undefined, h),
    /** @param {string} name */
    event: (name) => request("GET", `/api/club/events/${encodeURIComponent(name)}`),
  };
}

/** Export links (CSV or JSON) of a club match and of a club night. */
export const exportsOf = {
  /** @param {number} id @param {string} format */
  match: (id, format) => `/api/club/matches/${id}/export?format=${format}`,
  /** @param {string} name @param {string} format */
  event: (name, format, by = "match") => `/api/club/events/${encodeURIComponent(name)}/results?format=${format}&by=${by}`,
};
