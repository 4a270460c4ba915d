// Telling a player it is their turn when they may not be looking at the table:
// the tab's title and icon (always, while it is their turn), and when the turn
// begins a short beep and a buzz on phones (if they switched those on) and a
// browser notification (if the tab is hidden and they allowed notifications).

import { gettext, interpolate } from "./i18n.js";

// The tab's title on the player's turn: the page's title after a mark that reads first.
export const TURN_MARK = "●";
const SOUND_KEY = "yahtzee.turnSound";

export function titleFor(base, mine) {
  return mine ? interpolate(gettext("%(mark)s Your turn — %(title)s"), { mark: TURN_MARK, title: base }, true) : base;
}

// Whether the "Notify me" button makes sense: notifications exist here and the
// player has not answered the browser's question yet.
export function canAskToNotify(notification) {
  return Boolean(notification) && notification.permission === "default";
}

export class TurnAlerts {
  constructor({ icon, turnIcon }) {
    this.baseTitle = document.title;
    this.icon = icon; // The <link rel=icon> element.
    this.normalIcon = icon ? icon.getAttribute("href") : null;
    this.turnIcon = turnIcon;
    this.audio = null;
    this.mine = false;
    // Browsers start sound only after a gesture: the first click or key on the page wakes it.
    const wake = () => {
      if (this.soundOn) this.audioContext();
    };
    addEventListener("pointerdown", wake, { once: true });
    addEventListener("keydown", wake, { once: true });
  }

  get soundOn() {
    try {
      return localStorage.getItem(SOUND_KEY) === "on";
    } catch {
      return false;
    }
  }

  set soundOn(on) {
    try {
      if (on) localStorage.setItem(SOUND_KEY, "on");
      else localStorage.removeItem(SOUND_KEY);
    } catch {
      // No storage (a private window may refuse it): the switch lasts for this page only.
    }
    if (on) this.beep(); // A gesture: the moment to start the sound, and to hear what it will be.
  }

  // The title and the icon say whether it is this player's turn; called on every redraw.
  show(mine) {
    if (mine === this.mine) return;
    this.mine = mine;
    document.title = titleFor(this.baseTitle, mine);
    if (this.icon && this.turnIcon) this.icon.setAttribute("href", mine ? this.turnIcon : this.normalIcon);
  }

  // The player's turn has just begun: `text` says so, with the time on the clock.
  ring(text) {
    if (this.soundOn) {
      this.beep();
      if (navigator.vibrate) navigator.vibrate([120, 80, 120]);
    }
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
      try {
        const note = new Notification(gettext("Your turn at Yahtzee Live"), { body: text, tag: "yahtzee-turn", icon: this.turnIcon });
        note.addEventListener("click", () => {
          window.focus();
          note.close();
        });
      } catch {
        // Some phones allow notifications only from a service worker: the title and icon still say it.
      }
    }
  }

  audioContext() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return null;
    if (!this.audio) this.audio = new Context();
    if (this.audio.state === "suspended") this.audio.resume();
    return this.audio;
  }

  // Two short rising tones, quiet: made here, no sound file to load.
  beep() {
    const audio = this.audioContext();
    if (!audio) return;
    const start = audio.currentTime;
    [[660, 0], [880, 0.16]].forEach(([frequency, offset]) => {
      const tone = audio.createOscillator();
      const gain = audio.createGain();
      tone.type = "sine";
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, start + offset);
      gain.gain.exponentialRampToValueAtTime(0.15, start + offset + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.14);
      tone.connect(gain).connect(audio.destination);
      tone.start(start + offset);
      tone.stop(start + offset + 0.15);
    });
  }
}
