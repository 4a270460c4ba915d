// The one confirmation dialog: a native <dialog>, so the focus stays inside, Escape
// cancels and the safe choice has the focus first. Asks before what cannot be undone
// (leaving, removing a player, handing a seat to a bot) and before a low score.

export class ConfirmDialog {
  constructor(doc = document) {
    const $ = (id) => doc.getElementById(id);
    this.dialog = $("confirm-dialog");
    this.title = $("confirm-title");
    this.text = $("confirm-text");
    this.yes = $("confirm-yes");
    this.then = null;
    this.dialog.addEventListener("close", () => {
      const then = this.then;
      this.then = null;
      if (then && this.dialog.returnValue === "confirm") then();
    });
  }

  // `then()` runs if the player confirms.
  ask({ title, text, yes }, then) {
    this.title.textContent = title;
    this.text.textContent = text;
    this.yes.textContent = yes;
    this.then = then;
    this.dialog.returnValue = "";
    this.dialog.showModal();
  }
}
