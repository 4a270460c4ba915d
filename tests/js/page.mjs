// The room page's markup for the panels' node tests: templates/games/room.html with its
// partials as the server renders it (the few Django template tags the page uses are
// expanded here: comments, includes, the dice's loops, `if` blocks; values are empty), in a
// document of happy-dom, the small DOM implementation pinned in package.json.
import { readFileSync } from "node:fs";
import { Window } from "happy-dom";

const TEMPLATES = new URL("../../templates/games/", import.meta.url);
const read = (name) => readFileSync(new URL(name, TEMPLATES), "utf8");
const comments = (html) => html.replace(/\{#[\s\S]*?#\}/g, "").replace(/\{% comment %\}[\s\S]*?\{% endcomment %\}/g, "");

// The room's markup (its `content` block), its template tags expanded. `push`: the page
// offers notifications (the `{% if push_key %}` block); `daily`: the day's game.
export function roomMarkup({ push = false, daily = false } = {}) {
  let html = comments(read("room.html"));
  html = html.slice(html.indexOf("{% block content %}") + "{% block content %}".length);
  html = html.slice(0, html.indexOf("{% endblock %}"));
  html = html.replace(/\{% include "games\/(\w+\.html)" %\}/g, (_, name) => comments(read(name)));
  html = html.replace(/\{% if (\w+)[.\w]* %\}([\s\S]*?)\{% endif %\}/g, (_, name, body) =>
    ({ push_key: push, game: daily }[name] ? body : ""));
  // The dice and their pips (`{% for position in "12345" %}`, forloop.counter0): innermost first.
  const loop = /\{% for (\w+) in "(\w+)" %\}((?:(?!\{% for)[\s\S])*?)\{% endfor %\}/;
  while (loop.test(html)) {
    html = html.replace(loop, (_, name, items, body) => [...items].map((item, index) => body
      .replaceAll(`{{ ${name} }}`, item)
      .replaceAll("{{ forloop.counter0 }}", String(index))).join(""));
  }
  html = html.replace(/\{% url [^%]*%\}/g, "/review/").replace(/\{% static '([^']+)' %\}/g, "/static/$1");
  return html.replace(/\{\{[^}]*\}\}/g, "").replace(/\{%[^%]*%\}/g, "");
}

// A fresh window whose document holds the room's markup. `close()` when done.
export function roomPage(options) {
  const window = new Window({
    url: "http://127.0.0.1:8000/g/AbCdEfGh12345678/",
    settings: { disableJavaScriptEvaluation: true, disableJavaScriptFileLoading: true, disableCSSFileLoading: true },
  });
  window.document.body.innerHTML = roomMarkup(options);
  return { window, document: window.document, close: () => window.happyDOM.close() };
}

// Every change a DOM makes under `node` from now on, counted when `taken()`: the nodes
// added and removed (each with the elements in it), the attributes set, the nodes touched.
export function watch(window, node) {
  const records = [];
  const observer = new window.MutationObserver((list) => records.push(...list));
  observer.observe(node, { subtree: true, childList: true, attributes: true, characterData: true });
  return {
    // The records so far (the observer delivers them after a microtask).
    async taken() {
      await new Promise((resolve) => setTimeout(resolve, 0));
      records.push(...observer.takeRecords());
      // A node added or removed counts with everything in it (a table replaced: every cell).
      const size = (node) => (node.nodeType === 1 ? 1 + node.querySelectorAll("*").length : 1);
      const replaced = records.reduce((n, r) => n + [...r.addedNodes, ...r.removedNodes].reduce((m, node) => m + size(node), 0), 0);
      const attributes = records.filter((r) => r.type === "attributes");
      const targets = new Set(records.map((r) => r.target));
      return { records: records.splice(0), replaced, attributes, targets };
    },
    stop: () => observer.disconnect(),
  };
}
