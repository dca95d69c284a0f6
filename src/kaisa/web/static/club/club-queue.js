// The marker's entries on their way to the server. Every entry gets a key made on this phone and is kept in the
// page's own storage (localStorage: it works over plain HTTP on the club's network too, where service workers are
// not allowed; behind HTTPS the service worker, sw.js, also keeps the page itself for a reload with no network)
// until the server confirms it. The server records a key once and answers a repeat
// with the first answer, so an entry whose answer was lost (a dropped connection, a server restarted) is sent
// again safely. While the connection is down the entries wait here, in order, and go when it returns.

const STORE_PREFIX = "kaisa.club.queue.";
const RETRY_MS = [1000, 2000, 4000, 8000, 15000];
const SHOW_CONFIRMED_MS = 8000;

/** A refusal's body as the club API sends it (ErrorOut): a text, a stable code, and the text in both languages.
 * @typedef {{ detail?: unknown, code?: string, fi?: string, en?: string, [field: string]: unknown }} RefusalData */

/** One entry on its way: what to send, and where it stands ("pending", "sending", "confirmed", "failed").
 * @typedef {object} QueueItem
 * @property {string} key the entry's Idempotency-Key, made on this phone
 * @property {string} kind what the entry is ("stroke", "correct", ...), for the page's list
 * @property {string} method
 * @property {string} path
 * @property {unknown} body
 * @property {string} label what the page shows for it
 * @property {"pending" | "sending" | "confirmed" | "failed"} state
 * @property {number} at when it was made (ms since the epoch)
 * @property {RefusalData | null} error the server's refusal, for a failed entry
 * @property {number} [confirmedAt]
 */

/** The server's answer to an entry, with its clock when it answered.
 * @typedef {{ data: any, time: number }} Answer */

/** The server's clock when it answered (ms since the epoch), or NaN: its X-Kaisa-Time header (milliseconds),
 * else the Date header (whole seconds, refreshed once a second: up to two seconds behind).
 * @param {Response} response */
export function serverTime(response) {
  const precise = Number(response.headers.get("x-kaisa-time"));
  if (Number.isFinite(precise) && precise > 0) return precise;
  return Date.parse(response.headers.get("date") || "");
}

/** A refusal from the server (4xx): its status, stable code and its text in Finnish and English. */
export class ClubError extends Error {
  /** @param {number} status @param {unknown} data the answer's body (JSON, or its text) */
  constructor(status, data) {
    const detail = data && typeof data === "object" ? /** @type {RefusalData} */ (data).detail : String(data || "");
    super(typeof detail === "string" ? detail : JSON.stringify(detail));
    this.name = "ClubError";
    this.status = status;
    /** @type {RefusalData} */
    this.data = data && typeof data === "object" ? /** @type {RefusalData} */ (data) : { detail };
    this.code = this.data.code || null;
  }

  /** The refusal in `language` (the server's fi/en texts when it gave them). */
  /** @param {"fi" | "en"} language @returns {string} */
  said(language) {
    return this.data[language] || this.message;
  }
}

/** The entry could not reach the server: it is kept on this phone and will be sent. */
export class QueuedError extends Error {
  /** @param {QueueItem} item */
  constructor(item) {
    super("queued");
    this.name = "QueuedError";
    this.item = item;
  }
}

/** A fresh entry key: random bits from crypto.getRandomValues (randomUUID needs HTTPS, the club runs HTTP). */
export function entryKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** One HTTP request of the club API; network trouble is a TypeError (or a 502-504 from a proxy). */
/** @param {string} method @param {string} path @param {unknown} body @param {Record<string, string>} headers
 * @returns {Promise<Answer>} */
async function send(method, path, body, headers) {
  /** @type {RequestInit & { headers: Record<string, string> }} */
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  if ([502, 503, 504].includes(response.status)) throw new TypeError(`the server answered ${response.status}`);
  const text = await response.text();
  let data;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!response.ok) throw new ClubError(response.status, data);
  return { data, time: serverTime(response) };
}

/** The entries of one match: sent in order, each exactly once. `onChange()` after every change of the list;
 * `onLate(item, answer)` when an entry that had to wait is confirmed; `onRefused(item, error)` when the server
 * refuses an entry that had to wait (the later entries wait until the marker removes it). */
export class EntryQueue {
  /**
   * @param {number | string} matchId
   * @param {string} token the match's marker token
   * @param {{ onChange?: () => void, onLate?: (item: QueueItem, answer: Answer) => void,
   *   onRefused?: (item: QueueItem, error: ClubError) => void }} [callbacks]
   */
  constructor(matchId, token, { onChange = () => {}, onLate = () => {}, onRefused = () => {} } = {}) {
    this.matchId = matchId;
    this.token = token;
    this.onChange = onChange;
    this.onLate = onLate;
    this.onRefused = onRefused;
    this.items = this.load();
    this.sending = false;
    this.offline = false;
    this.attempt = 0;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    this.closed = false;
    /** @type {Set<ReturnType<typeof setTimeout>>} each confirmed entry is shown a while, then pruned */
    this.pruneTimers = new Set();
    /** @type {Map<string, { resolve: (answer: Answer) => void, reject: (error: Error) => void }>} the entries
     * sent in the foreground, by key */
    this.waiters = new Map();
    this.online = () => this.flush();
    window.addEventListener("online", this.online);
  }

  /** Stop sending (the page leaves the match): no retry is scheduled after this; the entries stay stored. */
  close() {
    this.closed = true;
    clearTimeout(this.timer);
    for (const timer of this.pruneTimers) clearTimeout(timer);
    this.pruneTimers.clear();
    window.removeEventListener("online", this.online);
  }

  get storeKey() {
    return STORE_PREFIX + this.matchId;
  }

  /** @returns {QueueItem[]} */
  load() {
    try {
      const items = JSON.parse(localStorage.getItem(STORE_PREFIX + this.matchId) || "[]");
      return Array.isArray(items) ? items.filter((i) => i.state !== "confirmed") : [];
    } catch {
      return [];
    }
  }

  save() {
    try {
      localStorage.setItem(this.storeKey, JSON.stringify(this.items.filter((i) => i.state !== "confirmed")));
    } catch {
      // private mode: the queue lives as long as the page
    }
    this.onChange();
  }

  /** Entries not yet confirmed (waiting, being sent or refused). */
  get open() {
    return this.items.filter((i) => i.state !== "confirmed");
  }

  /** Send an entry: resolves with the server's answer, rejects with a ClubError (refused: nothing recorded) or
   * a QueuedError (the server cannot be reached: the entry is kept here and sent when it can be). */
  /** @param {string} kind @param {string} method @param {string} path @param {unknown} body @param {string} label
   * @returns {Promise<Answer>} */
  add(kind, method, path, body, label) {
    /** @type {QueueItem} */
    const item = { key: entryKey(), kind, method, path, body, label, state: "pending", at: Date.now(), error: null };
    this.items.push(item);
    this.save();
    /** @type {Promise<Answer>} */
    const answered = new Promise((resolve, reject) => this.waiters.set(item.key, { resolve, reject }));
    this.flush();
    return answered;
  }

  /** @param {string} key */
  remove(key) {
    this.items = this.items.filter((i) => i.key !== key);
    this.save();
    this.flush();
  }

  retryNow() {
    this.attempt = 0;
    this.flush();
  }

  async flush() {
    if (this.sending || this.closed) return;
    clearTimeout(this.timer);
    this.sending = true;
    try {
      for (;;) {
        const item = this.items.find((i) => i.state === "pending" || i.state === "sending" || i.state === "failed");
        if (!item || item.state === "failed") break; // a refused entry holds the later ones
        item.state = "sending";
        this.save();
        const headers = { "X-Kaisa-Token": this.token, "Idempotency-Key": item.key };
        try {
          const { data, time } = await send(item.method, item.path, item.body, headers);
          item.state = "confirmed";
          item.confirmedAt = Date.now();
          this.offline = false;
          this.attempt = 0;
          this.save();
          this.settle(item, null, { data, time });
          const prune = setTimeout(() => {
            this.pruneTimers.delete(prune);
            this.prune();
          }, SHOW_CONFIRMED_MS);
          this.pruneTimers.add(prune);
        } catch (error) {
          if (error instanceof ClubError) {
            const waiter = this.waiters.get(item.key);
            if (waiter) {
              // refused in the foreground: the marker still has the entry in the form; nothing is kept
              this.items = this.items.filter((i) => i.key !== item.key);
              this.save();
            } else {
              item.state = "failed";
              item.error = error.data;
              this.save();
            }
            this.settle(item, error, null);
            continue;
          }
          item.state = "pending";
          this.offline = true;
          this.save();
          this.settle(item, new QueuedError(item), null);
          // the entries behind it wait too: whoever awaits one of them is told so now (not when it is reached)
          for (const other of this.items) {
            if (other !== item && other.state === "pending" && this.waiters.has(other.key)) this.settle(other, new QueuedError(other), null);
          }
          const wait = RETRY_MS[Math.min(this.attempt, RETRY_MS.length - 1)];
          this.attempt += 1;
          if (!this.closed) this.timer = setTimeout(() => this.flush(), wait);
          break;
        }
      }
    } finally {
      this.sending = false;
    }
  }

  /** Tell whoever waits for `item` what became of it (once); a late answer goes to onLate / onRefused. */
  /** @param {QueueItem} item @param {Error | null} error @param {Answer | null} answer */
  settle(item, error, answer) {
    const waiter = this.waiters.get(item.key);
    if (waiter) {
      this.waiters.delete(item.key);
      if (error) waiter.reject(error);
      else if (answer) waiter.resolve(answer);
      return;
    }
    if (error instanceof ClubError) this.onRefused(item, error);
    else if (!error && answer) this.onLate(item, answer);
  }

  prune() {
    const now = Date.now();
    const before = this.items.length;
    this.items = this.items.filter((i) => i.state !== "confirmed" || now - (i.confirmedAt ?? now) < SHOW_CONFIRMED_MS);
    if (this.items.length !== before) this.onChange();
  }
}
