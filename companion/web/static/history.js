// The standings page's chart: each player's score night by night, drawn by Chart.js
// (static/vendor). The numbers come from the page itself (#chart-data); nothing is fetched.
"use strict";

(function () {
  const canvas = document.getElementById("score-chart");
  const source = document.getElementById("chart-data");
  if (!canvas || !source || !window.Chart) return;
  const data = JSON.parse(source.textContent);
  const css = getComputedStyle(document.documentElement);
  const text = css.getPropertyValue("--text").trim() || "#222";
  const line = css.getPropertyValue("--line").trim() || "#ccc";
  // Okabe-Ito colours (told apart by colour-blind players), then a few more.
  const palette = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
                   "#F0E442", "#999999", "#8C564B", "#7F3C8D"];
  const chart = new window.Chart(canvas, {
    type: "line",
    data: {
      labels: data.labels,
      datasets: data.series.map((s, i) => ({
        label: s.player, data: s.scores, spanGaps: true, tension: 0,
        borderColor: palette[i % palette.length], backgroundColor: palette[i % palette.length],
        pointRadius: 3, pointHoverRadius: 6, borderWidth: 2,
      })),
    },
    options: {
      responsive: true, maintainAspectRatio: false, animation: false,
      interaction: { mode: "nearest", axis: "x", intersect: false },
      plugins: {
        legend: { position: "bottom", labels: { color: text, boxWidth: 14 } },
        tooltip: { callbacks: { title: (items) => items.length
          ? `${data.nights[items[0].dataIndex]} (${data.labels[items[0].dataIndex]})` : "" } },
      },
      scales: {
        x: { ticks: { color: text, maxRotation: 60, autoSkip: true }, grid: { color: line } },
        y: { ticks: { color: text }, grid: { color: line },
             title: { display: true, text: data.score_label, color: text } },
      },
    },
  });
  canvas.dataset.ready = String(chart.data.datasets.length);
})();
