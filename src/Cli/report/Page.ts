// `parse --html FILE`: one page that opens anywhere, offline: Chart.js and the data inlined, nothing fetched.
/// <reference path="./ChartJs.d.ts" />
import chartJs from "../../../node_modules/chart.js/dist/chart.umd.min.js" with { type: "text" }
import type { SummaryJson } from "../summary/Summary.ts"
import { number } from "../summary/Table.ts"
import { type Chart, sections } from "./Charts.ts"
import { STYLE } from "./Style.ts"

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)
// inside a <script>: no `</script>` or `<!--` can end or bend it
const inScript = (text: string) => text.replace(/<(?=\/script|!--)/gi, "\\u003c")

const tableOf = (chart: Chart) => {
  const head = `<tr><th>${chart.horizontal ? "" : "Time"}</th>${chart.datasets.map((d) => `<th>${escapeHtml(d.label)}</th>`).join("")}</tr>`
  const rows = chart.labels.map(
    (label, i) =>
      `<tr><td>${escapeHtml(label)}</td>${chart.datasets.map((d) => `<td>${number(d.data[i] ?? 0)}</td>`).join("")}</tr>`
  )
  return `<table data-table="${chart.id}"><thead>${head}</thead><tbody>${rows.join("")}</tbody></table>`
}

const figure = (chart: Chart) => {
  const tall = chart.horizontal ? Math.max(160, chart.labels.length * 26 + 40) : chart.type === "doughnut" ? 240 : 280
  const empty = chart.labels.length === 0 ? `<p class="empty">None in this log.</p>` : ""
  return `<figure class="${chart.horizontal || chart.type === "doughnut" ? "" : "wide"}">
<figcaption>${escapeHtml(chart.title)}</figcaption>${empty}
<div class="plot" style="height:${tall}px"><canvas data-chart="${chart.id}" role="img" aria-label="${escapeHtml(chart.title)}"></canvas></div>
<details${chart.horizontal ? " open" : ""}><summary>Numbers</summary>${tableOf(chart)}</details>
</figure>`
}

// draws every chart from the inlined data: no animation, so the page is complete once loaded (and for a screenshot)
const DRAW = `
const charts = JSON.parse(document.getElementById("report-data").textContent);
const palette = ["#2563eb", "#f97316", "#16a34a", "#9333ea", "#dc2626", "#0891b2", "#ca8a04", "#db2777", "#4b5563", "#65a30d", "#7c3aed", "#0d9488", "#94a3b8"];
Chart.defaults.animation = false;
Chart.defaults.font.family = "system-ui, sans-serif";
for (const spec of charts) {
  const canvas = document.querySelector('canvas[data-chart="' + spec.id + '"]');
  const stacked = spec.datasets.length > 1;
  const doughnut = spec.type === "doughnut";
  new Chart(canvas, {
    type: spec.type,
    data: {
      labels: spec.labels,
      datasets: spec.datasets.map((d, i) => ({
        label: d.label,
        data: d.data,
        backgroundColor: doughnut ? palette : d.label === "Bots" ? "#f97316" : palette[i % palette.length]
      }))
    },
    options: {
      maintainAspectRatio: false,
      indexAxis: spec.horizontal ? "y" : "x",
      plugins: { legend: { display: doughnut || stacked, position: doughnut ? "right" : "top" } },
      // time labels shown as "11-26 10:00": the log's offset is in the table
      scales: doughnut ? {} : spec.horizontal ? { x: { stacked }, y: { stacked } } : {
        x: { stacked, ticks: { callback(value) { return this.getLabelForValue(value).slice(5, 16).replace("T", " "); } } },
        y: { stacked, beginAtZero: true }
      }
    }
  });
}
document.body.dataset.drawn = String(charts.length);
`

export const page = (summary: SummaryJson, source: string): string => {
  const all = sections(summary)
  const charts = all.flatMap((section) => section.charts)
  const head = `${number(summary.lines)} lines from ${escapeHtml(source)}: ${number(summary.parsed)} parsed, ${number(summary.skipped)} without a user agent, ${number(summary.failed)} failed. Humans ${number(summary.humans)}, bots ${number(summary.bots)}.`
  const body = all
    .map(
      (section) =>
        `<section><h2>${escapeHtml(section.title)}</h2><p>${escapeHtml(section.note)}</p><div class="grid">${section.charts.map(figure).join("\n")}</div></section>`
    )
    .join("\n")
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:">
<title>Access log report</title><style>${STYLE}</style></head>
<body><header><h1>Access log report</h1><p>${head}</p></header>
${body}
<footer>Made by tools-api parse --html. Charts by Chart.js (MIT), inlined.</footer>
<script type="application/json" id="report-data">${inScript(JSON.stringify(charts))}</script>
<script>${inScript(chartJs as string)}</script>
<script>${DRAW}</script>
</body></html>
`
}
