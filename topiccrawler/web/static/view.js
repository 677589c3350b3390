// A running crawl's figures, fetched every few seconds from /api/crawls/<id>.
// Everything is written as text (textContent): crawled or not, nothing becomes markup.
"use strict";

const REFRESH_MS = 3000;

function fillTable(table, rows) {
  const body = table.querySelector("tbody");
  body.replaceChildren(
    ...rows.map((cells) => {
      const row = document.createElement("tr");
      for (const cell of cells) {
        const td = document.createElement("td");
        td.textContent = String(cell);
        row.append(td);
      }
      return row;
    })
  );
}

async function refresh(box) {
  const answer = await fetch(`/api/crawls/${encodeURIComponent(box.dataset.run)}`, {
    headers: { accept: "application/json" },
    credentials: "same-origin",
  });
  if (!answer.ok) return true;
  const run = await answer.json();
  for (const node of box.querySelectorAll("dd[data-field]")) {
    const value = run[node.dataset.field];
    node.textContent = value === null || value === undefined ? "—" : String(value);
  }
  fillTable(box.querySelector("table[data-field=curve]"), run.curve);
  fillTable(box.querySelector("table[data-field=failures]"), Object.entries(run.failures));
  box.dataset.running = run.running ? "yes" : "no";
  return run.running;
}

function watch(box) {
  const tick = async () => {
    let again = true;
    try {
      again = await refresh(box);
    } catch (error) {
      again = true; // the server may be restarting: try again later
    }
    if (again) setTimeout(tick, REFRESH_MS);
  };
  setTimeout(tick, REFRESH_MS);
}

document.addEventListener("DOMContentLoaded", () => {
  const box = document.getElementById("crawl");
  if (box && box.dataset.running === "yes") watch(box);
});
