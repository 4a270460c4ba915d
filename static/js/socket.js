// A websocket to one room that reconnects by itself.
//
// After a close it waits as static/js/backoff.js says (longer after each failure, a
// random part of it so a room full of browsers does not come back at the same
// instant; as long as the server's reason asks, after a 1012 or a 1013), and says so
// through `onStatus`. The server answers every new connection with a snapshot, so
// the page resyncs by itself.

import { SERVICE_RESTART, retryDelay } from "./backoff.js";

const PING_EVERY_MS = 15_000;
const SILENCE_LIMIT_MS = 40_000;

export class RoomSocket {
  constructor(path, { onMessage, onStatus }) {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.url = `${scheme}//${location.host}${path}`;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.attempts = 0;
    this.ws = null;
    this.timer = null;
    this.lastHeard = 0;
    // How many connections have opened so far: the number of the one open now. A command
    // sent on one connection is answered on it, or not at all (state.js snapshotEndsWait).
    this.connection = 0;
    setInterval(() => this.heartbeat(), PING_EVERY_MS);
    // Coming back online or to the tab is a good moment to try at once.
    addEventListener("online", () => this.retryNow());
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.retryNow();
    });
  }

  connect() {
    clearTimeout(this.timer);
    this.timer = null;
    this.onStatus({ state: this.attempts ? "reconnecting" : "connecting" });
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.connection += 1;
      this.attempts = 0;
      this.lastHeard = Date.now();
      this.onStatus({ state: "open" });
    });
    ws.addEventListener("message", (event) => {
      this.lastHeard = Date.now();
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (ws !== this.ws) return;
      this.ws = null;
      // A server stopping is no failure of this page's: the count starts again.
      if (event.code === SERVICE_RESTART) this.attempts = 0;
      const delay = retryDelay(event, this.attempts);
      if (delay === null) {
        this.onStatus({ state: "gone" });
        return;
      }
      this.schedule(delay);
    });
  }

  // Try again in `delay` ms.
  schedule(delay) {
    this.attempts += 1;
    this.onStatus({ state: "waiting", retryAt: Date.now() + delay });
    this.timer = setTimeout(() => this.connect(), delay);
  }

  retryNow() {
    if (this.timer !== null) this.connect();
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  send(message) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  // Close the connection as a network failure would; the page reconnects.
  drop() {
    if (this.ws) this.ws.close(4000, "dropped");
  }

  heartbeat() {
    if (!this.isOpen) return;
    if (Date.now() - this.lastHeard > SILENCE_LIMIT_MS) {
      // Nothing heard for too long: the connection is dead without knowing it.
      this.drop();
      return;
    }
    this.send({ type: "ping" });
  }
}
