// The room's Web Push opt-ins (the "Notifications" panel): this browser is told of its turn,
// of a game starting, of a rematch, while no tab of the room is open. Each is off until
// turned on here; unticking all of them (or "Turn all off") deletes the subscription on
// the server and in the browser. The server keeps them (games/web/app.py,
// push_subscription); the service worker shows them (static/js/sw.js).

import { gettext, interpolate } from "./i18n.js";
import { WORKER_URL } from "./worker.js";

export const KINDS = ["turns", "starts", "rematches"];

// The server's VAPID public key (base64url) as the bytes PushManager.subscribe takes.
export function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (base64url.length % 4)) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

// What the boxes ask for: {turns, starts, rematches}, each true or false.
export function wantedOf(boxes) {
  return Object.fromEntries(KINDS.map((kind) => [kind, Boolean(boxes[kind] && boxes[kind].checked)]));
}

// What the panel says of the opt-ins the server keeps.
export function statusOf(saved) {
  const on = KINDS.filter((kind) => saved[kind]);
  if (!on.length) return gettext("Off: this browser is told nothing while the room is closed.");
  const words = { turns: gettext("your turn"), starts: gettext("a game starting"), rematches: gettext("a rematch") };
  const kinds = on.map((kind) => words[kind]).join(", ");
  return interpolate(gettext("On for %(kinds)s, in this browser."), { kinds }, true);
}

export function supported(scope) {
  return "serviceWorker" in scope.navigator && "PushManager" in scope && "Notification" in scope;
}

async function start() {
  const panel = document.getElementById("push-panel");
  if (!panel || !supported(window)) return; // The site sends none, or this browser cannot.
  const form = document.getElementById("push-form");
  const status = document.getElementById("push-status");
  const off = document.getElementById("push-off");
  const boxes = Object.fromEntries(KINDS.map((kind) => [kind, form.elements[kind]]));
  const csrf = form.elements.csrfmiddlewaretoken.value;
  panel.hidden = false;
  const registration = await navigator.serviceWorker.register(WORKER_URL, { scope: "/" }).then(() => navigator.serviceWorker.ready);

  function show(saved) {
    for (const kind of KINDS) boxes[kind].checked = Boolean(saved[kind]);
    off.hidden = !KINDS.some((kind) => saved[kind]);
    status.textContent = statusOf(saved);
    panel.dataset.saved = KINDS.filter((kind) => saved[kind]).join(" ");
  }

  async function save(subscription, wanted) {
    const response = await fetch("/push/subscription/", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify({ subscription: subscription.toJSON(), ...wanted }),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.message || gettext("the server refused"));
    return answer;
  }

  async function change(wanted) {
    for (const box of Object.values(boxes)) box.disabled = true;
    try {
      let subscription = await registration.pushManager.getSubscription();
      if (!KINDS.some((kind) => wanted[kind])) {
        if (subscription) {
          await save(subscription, wanted);
          await subscription.unsubscribe();
        }
        show(wanted);
        return;
      }
      if ((await Notification.requestPermission()) !== "granted") {
        show({});
        status.textContent = gettext("Notifications are blocked for this site: allow them in the browser's settings first.");
        return;
      }
      subscription ||= await registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: keyBytes(panel.dataset.key),
      });
      show(await save(subscription, wanted));
    } catch (error) {
      status.textContent = interpolate(gettext("Could not change the notifications: %(why)s."), { why: error.message }, true);
    } finally {
      for (const box of Object.values(boxes)) box.disabled = false;
    }
  }

  form.addEventListener("change", () => change(wantedOf(boxes)));
  off.addEventListener("click", () => change(wantedOf({})));
  const subscription = await registration.pushManager.getSubscription();
  if (subscription) {
    const query = new URLSearchParams({ endpoint: subscription.endpoint });
    const response = await fetch(`/push/subscription/?${query}`);
    show(response.ok ? await response.json() : {});
  } else {
    show({});
  }
  panel.dataset.ready = "true";
}

if (typeof document !== "undefined") start();
