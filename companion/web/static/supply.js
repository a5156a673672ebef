// The supply page on a shared screen: arrow keys and the space bar step through rounds.
document.addEventListener("keydown", (e) => {
  if (e.target instanceof HTMLInputElement || e.altKey || e.ctrlKey || e.metaKey) return;
  const id = e.key === "ArrowRight" || e.key === " " ? "next-round"
    : e.key === "ArrowLeft" ? "prev-round" : null;
  const link = id && document.getElementById(id);
  if (link) { e.preventDefault(); link.click(); }
});
