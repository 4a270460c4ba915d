// Every page: the service worker (static/js/sw.js), which keeps the app's shell for offline
// use and shows the Web Push notices. Registered once the page has loaded, so it never
// competes with the page's own requests. <html data-service-worker="ready"> says it runs.
import { WORKER_URL } from "./worker.js";

if ("serviceWorker" in navigator) {
  addEventListener("load", () => {
    navigator.serviceWorker.register(WORKER_URL, { scope: "/" }).catch(() => {});
    navigator.serviceWorker.ready.then(() => {
      document.documentElement.dataset.serviceWorker = "ready";
    });
  });
}
