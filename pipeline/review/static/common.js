// What the review page and the extraction audit share: element lookup, the banner and the JSON API call.
// Loaded before either page's script; as there, text goes in through textContent only.
"use strict";

const $ = (id) => document.getElementById(id);

// Characters that reorder or hide the text around them: bidi embeddings, overrides and isolates (U+202E prints
// what follows it backwards), zero-width spaces, word joiners, byte-order marks, soft hyphens, and control
// characters but tab and newline. Text that is only read (names, reasons, families, a question, a page's text)
// shows each as its escape, `\u202e`, as the terminal's output does (pipeline.infra.terminal); a form field
// keeps its text as it is, to be corrected and saved, and `hiddenControls` names what it holds.
const HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u200b\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

function shown(text) {
  return String(text ?? "").replace(HIDDEN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

// The element `id` tells which of `fields` (label -> text) hold such characters, and where; hidden when none do.
function hiddenControls(id, fields) {
  const found = [];
  for (const [label, text] of Object.entries(fields)) {
    const chars = Array.from(String(text ?? ""));
    const at = chars.flatMap((c, i) => (c.match(HIDDEN) ? [`U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")} at character ${i + 1}`] : []));
    if (at.length) found.push(`${label}: ${at.slice(0, 5).join(", ")}${at.length > 5 ? ` and ${at.length - 5} more` : ""}`);
  }
  $(id).textContent = found.length ? `Invisible or direction characters (they hide or reorder what a field shows; kept as they are): ${found.join("; ")}` : "";
  $(id).hidden = !found.length;
}

function banner(text, kind = "info") {
  const el = $("banner");
  el.textContent = shown(text);
  el.className = kind;
  el.hidden = !text;
}

async function api(path, options = {}) {
  const response = await fetch(path, { headers: { "Content-Type": "application/json" }, ...options });
  const body = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  return { status: response.status, body };
}
