// The service worker of Yahtzee Live: the app's shell offline, and Web Push.
//
// Served at /sw.js?lang=<language> (games/web/app.py; static/js/worker.js says the address),
// with `self.SHELL = {version, lang, files, icon, catalog}` put in front of this file: the
// offline page and every style, script and icon, by the names the pages use. Those are kept
// at install, in a cache named after their version and the language, and served from it (a
// deployed site's names are hashed, and the version changes with any file, so nothing kept
// is ever stale). Pages come from the network; a page that cannot be reached is answered
// with the offline page, which says so, in the language the worker was installed for: a
// page in another language registers another address, so the browser installs the worker
// again and it keeps the offline page anew.
//
// Its own words (a notice it cannot read) are in `self.SHELL.catalog`, the translations of
// this file's gettext calls in the worker's language: a worker has no page to carry them.
//
// A push message is a JSON notice (games/live/push.py, Notice.payload): it is shown as a
// notification, and a click on it opens (or brings forward) the room it links to.

const PREFIX = "yahtzee-shell-";
const CACHE = `${PREFIX}${self.SHELL.version}-${self.SHELL.lang}`;
const OFFLINE = "/offline/";

function gettext(message) {
  const found = self.SHELL.catalog[message];
  return typeof found === "string" && found ? found : message;
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      // The offline page from the server, never from the HTTP cache: it is kept in this language.
      .then((cache) => cache.addAll(self.SHELL.files.map((file) => (file === OFFLINE ? new Request(file, { cache: "reload" }) : file))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names.filter((name) => name.startsWith(PREFIX) && name !== CACHE).map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
  } else if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.match(request).then((kept) => kept || fetch(request)));
  }
});

// The notice a push message carries, or a plain one if it cannot be read. The link is
// always a page of this site.
function noticeOf(data) {
  let notice = {};
  try {
    notice = data ? data.json() : {};
  } catch {
    notice = {};
  }
  const url = typeof notice.url === "string" && notice.url.startsWith("/g/") ? notice.url : "/my-games/";
  return {
    title: typeof notice.title === "string" ? notice.title : "Yahtzee Live",
    body: typeof notice.body === "string" ? notice.body : gettext("Something happened in one of your games."),
    // One notification per room: a newer notice of the same game replaces the older.
    tag: typeof notice.game === "string" ? `game-${notice.game}` : "yahtzee",
    url,
    game: notice.game || null,
    seat: Number.isInteger(notice.seat) ? notice.seat : null,
    kind: notice.kind || null,
  };
}

self.addEventListener("push", (event) => {
  const notice = noticeOf(event.data);
  event.waitUntil(
    self.registration.showNotification(notice.title, {
      body: notice.body,
      tag: notice.tag,
      renotify: true,
      icon: self.SHELL.icon,
      data: { url: notice.url, game: notice.game, seat: notice.seat, kind: notice.kind },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data.url, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => client.url === url);
      return open ? open.focus() : self.clients.openWindow(url);
    }),
  );
});
