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

async function request(method, path, body) {
  const init = { method, headers: {} };
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
