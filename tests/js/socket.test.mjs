// static/js/socket.js: the room's websocket, which reconnects by itself. The
// browser's globals it uses (location, WebSocket, the window's and the document's
// events, timers, the clock) are stand-ins here, so each wait can be checked exactly.
import { describe, test } from "node:test";
import assert from "node:assert/strict";

import { RoomSocket } from "../../static/js/socket.js";

class FakeWebSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static CLOSING = 2;
  static CLOSED = 3;
  static made = [];

  constructor(url) {
    this.url = url;
    this.readyState = FakeWebSocket.CONNECTING;
    this.listeners = {};
    this.sent = [];
    this.closedWith = null;
    FakeWebSocket.made.push(this);
  }

  addEventListener(type, listener) {
    (this.listeners[type] ||= []).push(listener);
  }

  emit(type, event = {}) {
    for (const listener of this.listeners[type] || []) listener(event);
  }

  send(text) {
    this.sent.push(text);
  }

  close(code, reason) {
    this.closedWith = [code, reason];
    this.readyState = FakeWebSocket.CLOSING;
  }

  // What the server (or the network) does.
  serverOpens() {
    this.readyState = FakeWebSocket.OPEN;
    this.emit("open");
  }

  serverSends(data) {
    this.emit("message", { data });
  }

  closes(code = 1006, reason = "") {
    this.readyState = FakeWebSocket.CLOSED;
    this.emit("close", { code, reason });
  }
}

// Timers and a clock that move only when told to.
function fakeTime(t) {
  const clock = { now: 1_000_000, timers: [], nextId: 1 };
  const add = (fn, ms, every) => {
    const id = clock.nextId++;
    clock.timers.push({ id, at: clock.now + ms, fn, every });
    return id;
  };
  t.mock.method(Date, "now", () => clock.now);
  t.mock.method(globalThis, "setTimeout", (fn, ms) => add(fn, ms, null));
  t.mock.method(globalThis, "setInterval", (fn, ms) => add(fn, ms, ms));
  t.mock.method(globalThis, "clearTimeout", (id) => {
    clock.timers = clock.timers.filter((timer) => timer.id !== id);
  });
  // Run every timer due within `ms`, in order, then stop at the end of it.
  clock.advance = (ms) => {
    const end = clock.now + ms;
    for (;;) {
      const due = clock.timers.filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      clock.now = due.at;
      if (due.every) due.at += due.every;
      else clock.timers = clock.timers.filter((timer) => timer !== due);
      due.fn();
    }
    clock.now = end;
  };
  // How long until each one-off timer (the reconnection) fires.
  clock.waits = () => clock.timers.filter((timer) => !timer.every).map((timer) => timer.at - clock.now);
  return clock;
}

function openRoom(t, { protocol = "http:", random = 0.5 } = {}) {
  const clock = fakeTime(t);
  t.mock.method(Math, "random", () => random);
  const windowListeners = {};
  const documentListeners = {};
  globalThis.location = { protocol, host: "yahtzee.test:8000" };
  globalThis.addEventListener = (type, listener) => (windowListeners[type] ||= []).push(listener);
  globalThis.document = {
    visibilityState: "visible",
    addEventListener: (type, listener) => (documentListeners[type] ||= []).push(listener),
  };
  globalThis.WebSocket = FakeWebSocket;
  FakeWebSocket.made = [];
  const statuses = [];
  const messages = [];
  const socket = new RoomSocket("/ws/games/BaJQp_Upd_oL23Ct/", {
    onMessage: (message) => messages.push(message),
    onStatus: (status) => statuses.push(status),
  });
  const fire = (listeners, type) => (listeners[type] || []).forEach((listener) => listener());
  return {
    socket, clock, statuses, messages,
    sockets: FakeWebSocket.made,
    latest: () => FakeWebSocket.made.at(-1),
    windowEvent: (type) => fire(windowListeners, type),
    documentEvent: (type) => fire(documentListeners, type),
  };
}

describe("RoomSocket: connecting", () => {
  test("it opens the room's path on the page's host, ws: over http and wss: over https", (t) => {
    const plain = openRoom(t);
    plain.socket.connect();
    assert.equal(plain.latest().url, "ws://yahtzee.test:8000/ws/games/BaJQp_Upd_oL23Ct/");
    const secure = openRoom(t, { protocol: "https:" });
    secure.socket.connect();
    assert.equal(secure.latest().url, "wss://yahtzee.test:8000/ws/games/BaJQp_Upd_oL23Ct/");
  });

  test("it says connecting, then open", (t) => {
    const room = openRoom(t);
    room.socket.connect();
    assert.deepEqual(room.statuses, [{ state: "connecting" }]);
    assert.equal(room.socket.isOpen, false);
    room.latest().serverOpens();
    assert.deepEqual(room.statuses, [{ state: "connecting" }, { state: "open" }]);
    assert.equal(room.socket.isOpen, true);
  });

  test("each message is read as JSON and passed on; one that is not JSON is skipped", (t) => {
    const room = openRoom(t);
    room.socket.connect();
    room.latest().serverOpens();
    room.latest().serverSends('{"type": "pong", "id": "p1"}');
    room.latest().serverSends("not json");
    room.latest().serverSends('{"type": "presence", "players": [], "watchers": 2}');
    assert.deepEqual(room.messages, [
      { type: "pong", id: "p1" },
      { type: "presence", players: [], watchers: 2 },
    ]);
  });

  test("send writes JSON only while the socket is open", (t) => {
    const room = openRoom(t);
    assert.equal(room.socket.send({ type: "ping" }), false); // No socket yet.
    room.socket.connect();
    assert.equal(room.socket.send({ type: "ping" }), false); // Still connecting.
    room.latest().serverOpens();
    assert.equal(room.socket.send({ type: "roll", hold: [0, 1], version: 7 }), true);
    assert.deepEqual(room.latest().sent, ['{"type":"roll","hold":[0,1],"version":7}']);
  });
});

describe("RoomSocket: reconnecting", () => {
  // Fail every attempt and collect how long each wait was.
  const waitsAfterFailures = (room, count) => {
    const waits = [];
    room.socket.connect();
    for (let i = 0; i < count; i += 1) {
      room.latest().closes();
      const { retryAt } = room.statuses.at(-1);
      waits.push(retryAt - room.clock.now);
      assert.deepEqual(room.clock.waits(), [waits.at(-1)]);
      room.clock.advance(waits.at(-1));
    }
    return waits;
  };

  // The schedule itself is tests/js/backoff.test.mjs's; here, that the socket keeps to it.
  test("after each failure it waits twice as long: half of 1 s up to 20 s, at the jitter's middle", (t) => {
    const room = openRoom(t, { random: 0.5 });
    assert.deepEqual(waitsAfterFailures(room, 8), [500, 1000, 2000, 4000, 8000, 10000, 10000, 10000]);
    assert.equal(room.sockets.length, 9);
  });

  test("the jitter spreads each wait over all of it (full jitter)", (t) => {
    assert.deepEqual(waitsAfterFailures(openRoom(t, { random: 0 }), 3), [0, 0, 0]);
    assert.deepEqual(
      waitsAfterFailures(openRoom(t, { random: 0.999999 }), 7),
      [1000, 2000, 4000, 8000, 16000, 20000, 20000],
    );
  });

  test("it says waiting, with when it tries again, then reconnecting", (t) => {
    const room = openRoom(t);
    room.socket.connect();
    room.latest().serverOpens();
    room.latest().closes(1006);
    assert.deepEqual(room.statuses.slice(2), [{ state: "waiting", retryAt: room.clock.now + 500 }]);
    room.clock.advance(499);
    assert.equal(room.sockets.length, 1);
    room.clock.advance(1);
    assert.equal(room.sockets.length, 2);
    assert.deepEqual(room.statuses.at(-1), { state: "reconnecting" });
    room.latest().serverOpens();
    assert.deepEqual(room.statuses.at(-1), { state: "open" });
  });

  test("each connection that opens has the next number: a command is answered on its own", (t) => {
    const room = openRoom(t);
    assert.equal(room.socket.connection, 0);
    room.socket.connect();
    assert.equal(room.socket.connection, 0); // Not open yet.
    room.latest().serverOpens();
    assert.equal(room.socket.connection, 1);
    room.latest().closes(1006);
    room.clock.advance(500);
    room.latest().closes(1006); // A failed attempt opens nothing.
    room.clock.advance(1000);
    room.latest().serverOpens();
    assert.equal(room.socket.connection, 2);
  });

  test("a connection that opens starts the count again", (t) => {
    const room = openRoom(t);
    room.socket.connect();
    room.latest().closes();
    room.clock.advance(500);
    room.latest().closes();
    room.clock.advance(1000);
    room.latest().serverOpens();
    room.latest().closes();
    assert.deepEqual(room.clock.waits(), [500]);
  });

  test("a server stopping (close code 1012) is called again when it says, whatever failed before", (t) => {
    const room = openRoom(t, { random: 0.5 });
    room.socket.connect();
    room.latest().closes();
    room.clock.advance(500);
    room.latest().closes();
    room.clock.advance(1000);
    room.latest().serverOpens();
    room.latest().closes(1012, "service restart: come back in 0-2 s");
    assert.deepEqual(room.clock.waits(), [1000]);
    room.clock.advance(1000);
    assert.equal(room.sockets.length, 4);
    room.latest().closes(1006); // And if that fails, the backoff starts from the beginning.
    assert.deepEqual(room.clock.waits(), [1000]);
  });

  test("a server that cannot serve the room now (1013) is called again when it says", (t) => {
    const room = openRoom(t, { random: 0.5 });
    room.socket.connect();
    room.latest().serverOpens();
    room.latest().closes(1013, "the database or messaging is away: come back in 1-5 s");
    assert.deepEqual(room.clock.waits(), [3000]);
    assert.deepEqual(room.statuses.at(-1), { state: "waiting", retryAt: room.clock.now + 3000 });
  });

  test("a room that does not exist (close code 4404) is gone: no more tries", (t) => {
    const room = openRoom(t);
    room.socket.connect();
    room.latest().closes(4404);
    assert.deepEqual(room.statuses.at(-1), { state: "gone" });
    assert.deepEqual(room.clock.waits(), []);
    room.clock.advance(60_000);
    assert.equal(room.sockets.length, 1);
  });

  test("the close of a socket already replaced changes nothing", (t) => {
    const room = openRoom(t);
    room.socket.connect();
    const old = room.latest();
    room.socket.connect();
    room.latest().serverOpens();
    const before = room.statuses.length;
    old.closes();
    assert.equal(room.statuses.length, before);
    assert.deepEqual(room.clock.waits(), []);
    assert.equal(room.socket.isOpen, true);
  });

  test("coming back online, or to the tab, tries at once instead of waiting", (t) => {
    for (const comeBack of [(room) => room.windowEvent("online"), (room) => room.documentEvent("visibilitychange")]) {
      const room = openRoom(t);
      room.socket.connect();
      room.latest().closes();
      room.clock.advance(100);
      comeBack(room);
      assert.equal(room.sockets.length, 2);
      assert.deepEqual(room.statuses.at(-1), { state: "reconnecting" });
      assert.deepEqual(room.clock.waits(), []); // The wait was called off: no second try.
    }
  });

  test("a tab hidden again, or an online event while connected, changes nothing", (t) => {
    const room = openRoom(t);
    room.socket.connect();
    room.latest().closes();
    globalThis.document.visibilityState = "hidden";
    room.documentEvent("visibilitychange");
    assert.equal(room.sockets.length, 1);
    room.clock.advance(500);
    room.latest().serverOpens();
    room.windowEvent("online");
    room.documentEvent("visibilitychange");
    assert.equal(room.sockets.length, 2);
  });
});

describe("RoomSocket: heartbeat", () => {
  test("every 15 s an open socket sends a ping", (t) => {
    const room = openRoom(t);
    room.socket.connect();
    room.clock.advance(15_000); // Not open yet: nothing to send.
    room.latest().serverOpens();
    room.clock.advance(30_000);
    assert.deepEqual(room.latest().sent, ['{"type":"ping"}', '{"type":"ping"}']);
  });

  test("after more than 40 s without a word from the server it drops the socket and reconnects", (t) => {
    const room = openRoom(t);
    room.socket.connect();
    room.latest().serverOpens(); // Heard at 0 s; pings at 15 s and 30 s.
    room.clock.advance(45_000); // 45 s of silence.
    assert.equal(room.latest().sent.length, 2);
    assert.deepEqual(room.latest().closedWith, [4000, "dropped"]);
    room.latest().closes(4000);
    assert.equal(room.statuses.at(-1).state, "waiting");
  });

  test("any message from the server counts as hearing from it", (t) => {
    const room = openRoom(t);
    room.socket.connect();
    room.latest().serverOpens(); // The page's interval started at 0 s.
    room.clock.advance(20_000);
    room.latest().serverSends('{"type": "pong"}'); // Heard at 20 s.
    room.clock.advance(40_000); // At 45 s and 60 s: 25 s and 40 s since: still pings.
    assert.equal(room.latest().closedWith, null);
    assert.equal(room.latest().sent.length, 4);
    room.clock.advance(15_000); // At 75 s: 55 s since.
    assert.deepEqual(room.latest().closedWith, [4000, "dropped"]);
  });

  test("drop closes the socket as a network failure would", (t) => {
    const room = openRoom(t);
    room.socket.drop(); // No socket: nothing to close.
    room.socket.connect();
    room.latest().serverOpens();
    room.socket.drop();
    assert.deepEqual(room.latest().closedWith, [4000, "dropped"]);
  });
});
