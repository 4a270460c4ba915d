// The service worker's address (static/js/sw.js, served at /sw.js), with the page's language:
// its words (a notice's plain text) and the offline page it keeps are in that language, so a
// change of language is a new script to the browser, which installs it and keeps the offline
// page again, now in the new language. Every page registers this one address (app.js, push.js).
import { lang } from "./i18n.js";

export const WORKER_URL = `/sw.js?lang=${encodeURIComponent(lang)}`;
