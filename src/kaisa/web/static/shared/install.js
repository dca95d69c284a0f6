// The installable pages' service worker (/sw.js): registered when the page came over HTTPS (a club server behind Caddy),
// and a new version announced to the person, who chooses when to reload into it (never swapped under the page).
// Served over plain HTTP on a club's network there is no service worker: the pages work as before.

import { lang, onLangChange } from "./i18n.js";

const SAID = {
  fi: { text: "Kaisasta on uusi versio.", reload: "Päivitä sivu" },
  en: { text: "A new version of Kaisa is available.", reload: "Reload the page" },
};

/** Show the announcement of the waiting version `worker`; its button lets it take over, then reloads.
 * @param {ServiceWorker} worker */
function announce(worker) {
  if (document.getElementById("kaisa-update")) return;
  const bar = document.createElement("div");
  bar.id = "kaisa-update";
  bar.dataset.testid = "update-available";
  bar.setAttribute("role", "status");
  bar.style.cssText =
    "position:fixed;left:50%;bottom:12px;transform:translateX(-50%);z-index:1000;display:flex;gap:12px;" +
    "align-items:center;padding:10px 14px;border-radius:10px;background:#223;color:#fff;" +
    "box-shadow:0 4px 16px rgba(0,0,0,.35);font:15px/1.3 system-ui,sans-serif;max-width:calc(100vw - 24px)";
  const text = document.createElement("span");
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.testid = "update-reload";
  button.style.cssText = "min-height:44px;padding:0 14px;border-radius:8px;border:0;font:inherit;cursor:pointer";
  button.addEventListener("click", () => {
    button.disabled = true;
    worker.postMessage({ type: "kaisa-update" });
  });
  const label = () => {
    text.textContent = SAID[lang()].text;
    button.textContent = SAID[lang()].reload;
  };
  label();
  onLangChange(label);
  bar.append(text, button);
  document.body.append(bar);
}

async function register() {
  const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/", updateViaCache: "none" });
  /** @param {ServiceWorker} worker */
  const watch = (worker) => {
    worker.addEventListener("statechange", () => {
      if (worker.state === "installed" && navigator.serviceWorker.controller) announce(worker);
    });
  };
  if (registration.waiting && navigator.serviceWorker.controller) announce(registration.waiting);
  if (registration.installing) watch(registration.installing);
  registration.addEventListener("updatefound", () => registration.installing && watch(registration.installing));
  let reloading = false;
  const hadController = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // the first worker taking over a page loaded from the network changes nothing on it; a new version does
    if (!hadController || reloading) return;
    reloading = true;
    location.reload();
  });
  document.documentElement.dataset.serviceWorker = "registered";
}

if ("serviceWorker" in navigator && location.protocol === "https:") {
  register().catch(() => {
    document.documentElement.dataset.serviceWorker = "failed";
  });
}
