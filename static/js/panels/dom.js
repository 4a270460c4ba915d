// What the panels share to draw: elements made in their own document (the page's, or a
// test's), and the few pieces more than one panel shows.

import { pgettext } from "../i18n.js";

// `el(tag, attributes, ...children)` in `doc`.
export function maker(doc) {
  return (tag, attributes = {}, ...children) => {
    const node = doc.createElement(tag);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    node.append(...children);
    return node;
  };
}

// A seat's mark (state.js seatMarks: "away", "bot-plays", "offline") in words, with a colour.
export function markBadge(el, mark) {
  return el("span", { class: `badge badge--${mark}` }, markWords(mark));
}

export function markWords(mark) {
  if (mark === "away") return pgettext("a seat's mark", "away");
  if (mark === "bot-plays") return pgettext("a seat's mark", "bot plays");
  if (mark === "offline") return pgettext("a seat's mark", "offline");
  return mark;
}

// Five (or fewer) small dice, read out as their faces.
export function diceRow(el, faces, size) {
  const row = el("span", { class: `mini-dice mini-dice--${size}`, role: "img", "aria-label": faces.join(" ") });
  faces.forEach((face) => {
    const die = el("span", { class: `die die--${face}`, "aria-hidden": "true" });
    for (let i = 0; i < 9; i += 1) die.append(el("span", { class: "die__pip" }));
    row.append(die);
  });
  return row;
}

// Write only what differs: a panel that updates in place leaves the rest untouched (and
// a screen reader, a focus or a running animation with it).
export function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

export function setAttr(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

export function setHidden(node, hidden) {
  if (node.hidden !== hidden) node.hidden = hidden;
}

export function setDisabled(node, disabled) {
  if (node.disabled !== disabled) node.disabled = disabled;
}

export function toggleClass(node, name, on) {
  if (node.classList.contains(name) !== on) node.classList.toggle(name, on);
}

// Redrawing may replace a focused control; keyboard users keep their place.
export function rememberFocus(doc) {
  const active = doc.activeElement;
  return active && active.dataset ? active.dataset.focus : undefined;
}

export function restoreFocus(doc, key) {
  if (!key) return;
  const again = doc.querySelector(`[data-focus="${key}"]`);
  // The same control drawn again in the same place: no scroll (one may be under way).
  if (again && again !== doc.activeElement && !again.disabled) again.focus({ preventScroll: true });
}
