// A setting the server holds (the coach, the bots' pace) as this browser just chose it.
// Controls draw the room's state after every message; between the host's choice and the
// server's answer, a message about something else (someone arriving) would draw the
// control back for a moment. An AskedSetting shows the choice until the room's state
// agrees, the server refuses the command, or a snapshot brings the whole room anew.

export class AskedSetting {
  // `type`: the command that sets it; an error whose id is "<type>-<n>" refuses it.
  constructor(type) {
    this.type = type;
    this.value = null;
  }

  // The command went to the server with this value.
  choose(value) {
    this.value = value;
  }

  // Every message the room receives: a snapshot or a refusal ends the wait.
  hear(message) {
    if (message.type === "snapshot") this.value = null;
    if (message.type !== "error") return;
    // A rate-limited message was not read at all, whatever it was.
    if (message.code === "rate_limited" || String(message.id).startsWith(`${this.type}-`)) this.value = null;
  }

  // What the control shows when the room's state says `actual`.
  shown(actual) {
    if (this.value === actual) this.value = null;
    return this.value ?? actual;
  }
}
