// What the review page and the extraction audit share: element lookup, the banner and the JSON API call.
// Loaded before either page's script; as there, text goes in through textContent only.
"use strict";

const $ = (id) => document.getElementById(id);

function banner(text, kind = "info") {
  const el = $("banner");
  el.textContent = text;
  el.className = kind;
  el.hidden = !text;
}

async function api(path, options = {}) {
  const response = await fetch(path, { headers: { "Content-Type": "application/json" }, ...options });
  const body = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  return { status: response.status, body };
}
