// The big screen follows the table through server-sent events: no reload.
"use strict";

function bigWhat(ln) {
  if (ln.state === "waiting") return "waiting";
  if (ln.state === "half") return ln.note;
  if (ln.state === "error") return "cannot score";
  return ln.questions ? `sent · ${ln.questions} to check` : "sent";
}

function bigRow(cls, parts) {
  const li = document.createElement("li");
  if (cls) li.className = cls;
  for (const [name, text] of parts) {
    const span = document.createElement("span");
    span.className = name;
    span.textContent = text;  // names are the players' own: never parsed as HTML
    li.append(span);
  }
  return li;
}

function bigShow(doc) {
  if (doc.error) { showError(doc.error); return; }
  showError("");
  document.getElementById("big-count").textContent =
    `${doc.sent} of ${doc.players.length} sent a sheet · ${doc.scored} scored`;
  document.getElementById("big-players").replaceChildren(
    ...doc.players.map((ln) => bigRow(`big-player ${ln.state}`, [["who", ln.player], ["what", bigWhat(ln)]])));
  const ranking = document.getElementById("big-ranking");
  ranking.replaceChildren(...doc.ranking.map((r) => bigRow("", [["place", r.place], ["who", r.player], ["pts", r.total]])));
  ranking.hidden = !doc.revealed;
  document.getElementById("big-hidden").hidden = doc.revealed;
  document.getElementById("big-show").value = doc.revealed ? "0" : "1";
  document.getElementById("big-reveal-button").textContent = doc.revealed ? "Hide the ranking" : "Reveal the ranking";
}

document.addEventListener("DOMContentLoaded", () => {
  const root = document.getElementById("big");
  if (!root || !window.EventSource) return;
  const source = new EventSource(root.dataset.events);
  source.onmessage = (e) => bigShow(JSON.parse(e.data));
  // EventSource reconnects by itself after a dropped connection.
});
