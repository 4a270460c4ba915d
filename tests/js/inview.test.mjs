// static/js/inview.js: how far a turn's start scrolls the page. The figures are a phone's
// (844 px high) and a desktop's (800 px) as the browser tests see them.
import { describe, test } from "node:test";
import assert from "node:assert/strict";

import { MARGIN, turnScroll } from "../../static/js/inview.js";

const part = (top, bottom, seen = top >= 0 && bottom <= 844) => ({ top, bottom, seen });

describe("turnScroll", () => {
  test("everything seen: no scroll, even with the card's head off the top", () => {
    assert.equal(turnScroll([part(120, 160), part(600, 650)], -30, 844), 0);
    assert.equal(turnScroll([], null, 844), 0);
  });

  test("scrolled down to the chat: up to the head, with a margin", () => {
    // The card's boxes from -1200 to -700, the tray and Roll below them to -540.
    const need = [part(-1200, -1170), part(-730, -700), part(-640, -540)];
    assert.equal(turnScroll(need, -1240, 844), -1240 - MARGIN);
  });

  test("a head that would not fit with the rest is left above", () => {
    const need = [part(-700, -670), part(60, 130)];
    assert.equal(turnScroll(need, -900, 844), -700 - MARGIN);
  });

  test("something below the screen: down just enough", () => {
    // The desktop's Roll below a 800 px screen, the first box well on it.
    const need = [part(200, 230), part(780, 830, false)];
    assert.equal(turnScroll(need, 150, 800), 830 - 800 + MARGIN);
  });

  test("never so far down that the first part leaves the top", () => {
    const need = [part(100, 130), part(1100, 1150, false)];
    assert.equal(turnScroll(need, null, 800), 100 - MARGIN);
  });

  test("all on the screen but a part covered: the first part to the top", () => {
    // A phone's tray stuck to the bottom over the last boxes.
    const need = [part(300, 330), part(700, 730, false), part(690, 844)];
    assert.equal(turnScroll(need, 260, 844), 260 - MARGIN);
  });
});
