// The marker's offline queue (club-queue.js) against a real HTTP server: entries go in order, each with its own
// key; an entry the network lost is kept (across a reload too) and sent again with the same key; a refusal of
// an entry that had to wait holds the later ones until the marker removes it.
import "./support/browser.mjs";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { afterEach, beforeEach, test } from "node:test";

const { ClubError, EntryQueue, QueuedError } = await import("../../src/kaisa/web/static/club/club-queue.js");

/** A club server's entry endpoint in miniature: records every request, answers a repeated key with the first
 * answer (as the real server does), and can be told to refuse, to fail as a proxy would (503), or to stop. */
class Server {
  constructor() {
    this.requests = [];
    this.answers = new Map();
    this.next = [];
    this.http = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const key = req.headers["idempotency-key"];
        this.requests.push({ method: req.method, url: req.url, key, token: req.headers["x-kaisa-token"], body: JSON.parse(body || "null") });
        const planned = this.next.shift();
        if (planned) {
          res.writeHead(planned.status, { "content-type": "application/json" });
          res.end(JSON.stringify(planned.body ?? {}));
          return;
        }
        if (!this.answers.has(key)) this.answers.set(key, { stroke: this.answers.size + 1 });
        res.writeHead(200, { "content-type": "application/json", "x-kaisa-time": String(Date.now()) });
        res.end(JSON.stringify(this.answers.get(key)));
      });
    });
  }
  listen(port = 0) {
    return new Promise((resolve) => this.http.listen(port, "127.0.0.1", () => resolve(this.http.address().port)));
  }
  stop() {
    this.http.closeAllConnections();
    return new Promise((resolve) => this.http.close(resolve));
  }
}

let server;
let port;
const realFetch = globalThis.fetch;

beforeEach(async () => {
  localStorage.clear();
  server = new Server();
  port = await server.listen();
  // the page's paths are relative to its origin: here, the test server's
  globalThis.fetch = (path, init) => realFetch(`http://127.0.0.1:${port}${path}`, init);
});

afterEach(async () => {
  globalThis.fetch = realFetch;
  if (server.http.listening) await server.stop();
});

/** Wait (a few seconds at most) until `done()` holds: the queue sends on its own after some changes. */
async function until(done) {
  for (let i = 0; i < 300 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(done(), "timed out waiting");
}

const stroke = (n) => ["stroke", "POST", "/api/club/matches/7/strokes", { call: "K FL", stroke: n }, `stroke ${n}`];

test("entries are sent in order, each with its own key and the match's token, and confirmed", async () => {
  const queue = new EntryQueue(7, "secret");
  const answers = await Promise.all([queue.add(...stroke(1)), queue.add(...stroke(2)), queue.add(...stroke(3))]);
  queue.close();
  assert.deepEqual(answers.map((a) => a.data.stroke), [1, 2, 3]);
  assert.deepEqual(server.requests.map((r) => r.body.stroke), [1, 2, 3]);
  assert.equal(new Set(server.requests.map((r) => r.key)).size, 3);
  assert.ok(server.requests.every((r) => r.token === "secret" && /^[0-9a-f]{32}$/.test(r.key)));
  assert.equal(queue.open.length, 0);
  assert.deepEqual(JSON.parse(localStorage.getItem("kaisa.club.queue.7")), []);
});

test("an entry made with the network down is kept across a reload and sent once, with its key, when it returns", async () => {
  await server.stop();
  const first = new EntryQueue(7, "secret");
  await assert.rejects(first.add(...stroke(1)), QueuedError);
  first.close();
  const kept = JSON.parse(localStorage.getItem("kaisa.club.queue.7"));
  assert.equal(kept.length, 1);
  assert.equal(kept[0].body.stroke, 1);

  server = new Server();
  await server.listen(port);
  const late = [];
  const reloaded = new EntryQueue(7, "secret", { onLate: (item, answer) => late.push([item.key, answer.data.stroke]) });
  assert.equal(reloaded.open.length, 1);
  await reloaded.flush();
  reloaded.close();
  assert.equal(server.requests.length, 1);
  assert.equal(server.requests[0].key, kept[0].key);
  assert.deepEqual(late, [[kept[0].key, 1]]);
  assert.equal(reloaded.open.length, 0);
});

test("a proxy's 503 is network trouble: the entry is sent again with the same key and recorded once", async () => {
  server.next.push({ status: 503 });
  const queue = new EntryQueue(7, "secret");
  await assert.rejects(queue.add(...stroke(1)), QueuedError);
  await queue.flush();
  queue.close();
  assert.equal(server.requests.length, 2);
  assert.equal(server.requests[0].key, server.requests[1].key);
  assert.equal(server.answers.size, 1);
  assert.equal(queue.open.length, 0);
});

test("a refused entry in the foreground is dropped and its refusal said in both languages", async () => {
  server.next.push({ status: 409, body: { detail: "stale", code: "stroke-number-stale", fi: "Lyöntinumero on vanha.", en: "The stroke number is stale." } });
  const queue = new EntryQueue(7, "secret");
  const refusal = await queue.add(...stroke(4)).catch((error) => error);
  queue.close();
  assert.ok(refusal instanceof ClubError);
  assert.equal(refusal.status, 409);
  assert.equal(refusal.code, "stroke-number-stale");
  assert.equal(refusal.said("fi"), "Lyöntinumero on vanha.");
  assert.equal(refusal.said("en"), "The stroke number is stale.");
  assert.equal(queue.open.length, 0);
});

test("a refusal of an entry that had to wait holds the later ones until the marker removes it", async () => {
  await server.stop();
  const queue = new EntryQueue(7, "secret");
  await assert.rejects(queue.add(...stroke(1)), QueuedError);
  await assert.rejects(queue.add(...stroke(2)), QueuedError);
  server = new Server();
  await server.listen(port);
  server.next.push({ status: 409, body: { detail: "conflict", code: "stroke-conflict" } });
  const refused = [];
  queue.onRefused = (item, error) => refused.push([item.body.stroke, error.code]);
  await queue.flush();
  assert.deepEqual(refused, [[1, "stroke-conflict"]]);
  assert.equal(server.requests.length, 1, "the second entry waits behind the refused one");
  assert.deepEqual(queue.open.map((i) => [i.body.stroke, i.state]), [[1, "failed"], [2, "pending"]]);
  queue.remove(queue.open[0].key); // sends the next one by itself
  await until(() => queue.open.length === 0);
  queue.close();
  assert.deepEqual(server.requests.map((r) => r.body.stroke), [1, 2]);
  assert.equal(queue.open.length, 0);
});
