// The service worker of the installable pages (the marker's page, the scoreboard, the browser table), served
// at /sw.js with its version and its list of files (the shell) written above this line by the server.
//
// - The shell (every page and every file under /static) is kept in a cache of its own version and served from
//   it: a page and its scripts always come from one version, never mixed, and they open with no network.
// - A new version (the server was upgraded) is installed into its own cache beside the old one and waits: the
//   page announces it (install.js) and the person chooses when to reload into it. The old cache goes only then.
// - Reads of the API (GET /api/...) go to the network, and their last answer is kept: with no network the page
//   gets the last answer it saw (without the server's clock headers, so that no stale time is believed), so the
//   marker's page reloaded offline shows the match and the strokes waiting on the phone, and keeps queueing.
//   Everything that changes something (POST, ...) and the live streams go to the network only.

/* global VERSION, SHELL */
const SHELL_CACHE = `kaisa-shell-${VERSION}`;
const API_CACHE = "kaisa-api";
// `self` of a service worker (the WebWorker library types `self` as any worker's scope)
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

worker.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL_CACHE).then((cache) => cache.addAll(SHELL)));
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("kaisa-shell-") && k !== SHELL_CACHE).map((k) => caches.delete(k))))
      .then(() => worker.clients.claim()),
  );
});

worker.addEventListener("message", (event) => {
  if (event.data && event.data.type === "kaisa-update") worker.skipWaiting();
  if (event.data && event.data.type === "kaisa-version" && event.ports[0]) event.ports[0].postMessage(VERSION);
});

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== worker.location.origin) return;
  if (SHELL.includes(url.pathname)) {
    event.respondWith(fromShell(request, url.pathname));
  } else if (url.pathname.startsWith("/api/") && !url.pathname.endsWith("/stream")) {
    event.respondWith(networkThenLast(request));
  }
});

/** @param {Request} request @param {string} path */
async function fromShell(request, path) {
  const cache = await caches.open(SHELL_CACHE);
  return (await cache.match(path)) || fetch(request);
}

/** @param {Request} request */
async function networkThenLast(request) {
  const cache = await caches.open(API_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(request, response.clone());
    return response;
  } catch (error) {
    const last = await cache.match(request);
    if (!last) throw error;
    const headers = new Headers(last.headers);
    headers.delete("x-kaisa-time");
    headers.delete("date");
    headers.set("x-kaisa-offline", "1");
    return new Response(last.body, { status: last.status, statusText: last.statusText, headers });
  }
}
