// The JSON API of the browser table (see /openapi.json). Every failure becomes an ApiError whose message is
// the server's `detail` (or a description of the network failure), so the page can always show it.

export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.name = "ApiError";
    this.status = status;
    this.detail = detail;
  }
}

function describeDetail(detail) {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    // pydantic validation errors: [{loc: [...], msg: "..."}, ...]
    return detail
      .map((e) => {
        const where = Array.isArray(e.loc) ? e.loc.filter((p) => p !== "body").join(".") : "";
        return where ? `${where}: ${e.msg}` : String(e.msg ?? JSON.stringify(e));
      })
      .join("; ");
  }
  return JSON.stringify(detail);
}

/** One JSON request; `headers` adds request headers (the club marker's token). */
export async function request(method, path, body, headers = {}) {
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(0, `the server cannot be reached (${error.message}); is "kaisa play" running?`);
  }
  const text = await response.text();
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
    throw new ApiError(response.status, `${response.status}: ${detail}`);
  }
  return data;
}

export const api = {
  table: () => request("GET", "/api/table"),
  players: () => request("GET", "/api/players"),
  checkCall: (call, shooter) => request("POST", "/api/calls/check", { call, shooter }),
  matches: () => request("GET", "/api/matches"),
  createMatch: (body) => request("POST", "/api/matches", body),
  match: (id) => request("GET", `/api/matches/${id}`),
  actions: (id) => request("GET", `/api/matches/${id}/actions`),
  animation: (id, index) => request("GET", `/api/matches/${id}/actions/${index}/animation`),
  lag: (id, strokes) => request("POST", `/api/matches/${id}/lag`, { strokes }),
  choose: (id, cueBall) => request("POST", `/api/matches/${id}/choose`, { cue_ball: cueBall }),
  placeW2: (id, point) => request("POST", `/api/matches/${id}/place-w2`, { point }),
  shot: (id, call, stroke, seconds) => request("POST", `/api/matches/${id}/shot`, { call, stroke, seconds }),
  computer: (id) => request("POST", `/api/matches/${id}/computer`),
  takeBreak: (id, cueBall, seconds) => request("POST", `/api/matches/${id}/break`, { cue_ball: cueBall, seconds }),
  undo: (id) => request("POST", `/api/matches/${id}/undo`),
  studyShot: (body) => request("POST", "/api/study/shot", body),
  advise: (body) => request("POST", "/api/study/advise", body),
};

// The scorekeeping mode (/api/club): entering needs the match's marker token, reading does not.
export const TOKEN_HEADER = "X-Kaisa-Token";

export function clubApi(token) {
  const h = token ? { [TOKEN_HEADER]: token } : {};
  const m = (id) => `/api/club/matches/${id}`;
  return {
    create: (body) => request("POST", "/api/club/matches", body),
    placeW2: (id, point) => request("POST", `${m(id)}/place-w2`, { point }, h),
    stroke: (id, call, marks) => request("POST", `${m(id)}/strokes`, { call, marks }, h),
    correct: (id, index, call, marks) => request("PUT", `${m(id)}/strokes/${index}`, { call, marks }, h),
    undo: (id) => request("POST", `${m(id)}/undo`, undefined, h),
    lagWon: (id, winner) => request("POST", `${m(id)}/lag`, { winner }, h),
    takeBreak: (id, cueBall, seconds) => request("POST", `${m(id)}/break`, { cue_ball: cueBall, seconds }, h),
    forfeit: (id, cueBall) => request("POST", `${m(id)}/forfeit`, { cue_ball: cueBall }, h),
    // 204 for the match's token, 403 for any other
    checkToken: (id) => request("GET", `${m(id)}/access`, undefined, h),
    event: (name) => request("GET", `/api/club/events/${encodeURIComponent(name)}`),
  };
}

/** Export links (CSV or JSON) of a club match and of a club night. */
export const exportsOf = {
  match: (id, format) => `/api/club/matches/${id}/export?format=${format}`,
  event: (name, format, by = "match") => `/api/club/events/${encodeURIComponent(name)}/results?format=${format}&by=${by}`,
};
