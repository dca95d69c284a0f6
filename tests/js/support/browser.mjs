// The few browser globals that the page scripts' logic touches, so that node's test runner can run the logic
// itself (the drawing and the pages are tested in Chromium by tests/web/*e2e*). Import this before a page module.

/** localStorage as the browser keeps it for one origin: strings by key. */
class MemoryStorage {
  #items = new Map();
  get length() {
    return this.#items.size;
  }
  key(index) {
    return [...this.#items.keys()][index] ?? null;
  }
  getItem(key) {
    return this.#items.has(key) ? this.#items.get(key) : null;
  }
  setItem(key, value) {
    this.#items.set(key, String(value));
  }
  removeItem(key) {
    this.#items.delete(key);
  }
  clear() {
    this.#items.clear();
  }
}

Object.defineProperty(globalThis, "localStorage", { value: new MemoryStorage(), configurable: true, writable: true });
Object.defineProperty(globalThis, "navigator", { value: { language: "fi-FI", onLine: true }, configurable: true, writable: true });
if (!globalThis.window) globalThis.window = new EventTarget();
if (!globalThis.document) {
  // i18n's applyLabels sets the page's language and relabels [data-i18n] elements: a page with none
  globalThis.document = { documentElement: { lang: "" }, querySelectorAll: () => [] };
}
