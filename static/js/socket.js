// A websocket to one room that reconnects by itself.
//
// After a dropped connection it waits a little longer each time (0.5 s, 1 s,
// 2 s ... up to 10 s, with some jitter so a room full of browsers does not
// come back at the same instant), and says so through `onStatus`. A server
// process that is stopping closes with 1012 and is called again at once. The server
// answers every new connection with a snapshot, so the page resyncs by itself.

const MAX_DELAY_MS = 10_000;
const PING_EVERY_MS = 15_000;
const SILENCE_LIMIT_MS = 40_000;
const NO_SUCH_ROOM = 4404;
// "Service restart": the server process is stopping and asks to be called again at once
// (behind the proxy, another process answers). A short random wait spreads the room out.
const SERVICE_RESTART = 1012;
// "Try again later": the server could not serve the room just now (its database or Redis
// is away for a moment); the same quick call back, then the usual backoff.
const TRY_AGAIN_LATER = 1013;
const RESTART_SPREAD_MS = 250;

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
      if (event.code === NO_SUCH_ROOM) {
        this.onStatus({ state: "gone" });
        return;
      }
      if (event.code === SERVICE_RESTART) this.attempts = 0;
      const soon = event.code === SERVICE_RESTART || (event.code === TRY_AGAIN_LATER && this.attempts === 0);
      this.schedule(soon ? RESTART_SPREAD_MS * Math.random() : null);
    });
  }

  // Try again after a wait that doubles with each failure, or after `soon` ms.
  schedule(soon = null) {
    const base = Math.min(MAX_DELAY_MS, 500 * 2 ** this.attempts);
    const delay = Math.round(soon ?? base * (0.75 + Math.random() * 0.5));
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
