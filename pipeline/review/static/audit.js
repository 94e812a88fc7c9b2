// The extraction audit: a curated question beside its rendered pages; corrections become overrides.
// As on the review page, text goes in through textContent and form values only.
"use strict";

const $ = (id) => document.getElementById(id);
const audit = { ids: [], pos: 0, item: null, shown: 0 };

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

async function loadQueue() {
  const query = new URLSearchParams();
  if ($("all").checked) query.set("all", "1");
  if ($("code").value) query.set("code", $("code").value);
  const { status, body } = await api(`/api/audit/queue?${query}`);
  if (status !== 200) return banner(body.error || `HTTP ${status}`, "error");
  showCodes(body.codes || {});
  audit.ids = body.ids || [];
  audit.pos = 0;
  await show();
}

// The flag filter offers the codes the curated questions carry, with how many questions have each.
function showCodes(codes) {
  const select = $("code");
  const chosen = select.value;
  const options = [new Option("any flag", "")];
  for (const [code, count] of Object.entries(codes)) options.push(new Option(`${code} (${count})`, code));
  select.replaceChildren(...options);
  select.value = codes[chosen] ? chosen : "";
}

async function show() {
  const empty = audit.ids.length === 0;
  $("workspace").hidden = empty;
  $("empty").hidden = !empty;
  if (empty) return;
  const ticket = ++audit.shown; // overlapping requests: only the latest answer is drawn
  const { status, body } = await api(`/api/audit/questions/${encodeURIComponent(audit.ids[audit.pos])}`);
  if (ticket !== audit.shown) return;
  if (status !== 200) return banner(body.error, "error");
  render(body);
}

function render(item) {
  audit.item = item;
  $("position").textContent = `${audit.pos + 1} of ${audit.ids.length}`;
  $("meta").textContent = `${item.id} · ${item.type} · pages ${item.pages.join(", ")}`;
  const pages = $("pages");
  pages.replaceChildren();
  for (const url of item.page_urls) {
    const img = document.createElement("img");
    img.src = url;
    img.alt = "sheet page";
    img.className = "page";
    pages.append(img);
  }
  $("flags").textContent = item.flags.length ? `flags: ${item.flags.join(", ")}` : "no flags";
  $("question").value = item.current.question;
  $("choices").value = item.current.choices.join("\n");
  $("answer").value = item.current.answer || "";
  $("broken").checked = item.current.broken;
  $("note").value = "";
  $("state").textContent = item.corrected_by ? `corrected by ${item.corrected_by} at ${item.corrected_at} · version ${item.version}`
    : `as extracted · version ${item.version}`;
}

async function save() {
  const name = $("annotator").value.trim();
  if (!name) { banner("Enter your name first: every correction is signed.", "error"); return $("annotator").focus(); }
  localStorage.setItem("examcorpus.annotator", name);
  const correction = {
    annotator: name, version: audit.item.version, question: $("question").value, answer: $("answer").value,
    choices: $("choices").value.split("\n").filter((line) => line.trim()), broken: $("broken").checked, note: $("note").value,
  };
  const { status, body } = await api(`/api/audit/questions/${encodeURIComponent(audit.item.id)}`, { method: "POST", body: JSON.stringify(correction) });
  if (status === 409) return banner(`Conflict: ${body.message}. Your correction was NOT saved; reload the question to see theirs.`, "error");
  if (status !== 200) return banner(body.error || `HTTP ${status}`, "error");
  banner(`saved: ${audit.item.id} (version ${body.version})`);
  render(body.question);
}

function move(step) {
  if (!audit.ids.length) return;
  audit.pos = (audit.pos + step + audit.ids.length) % audit.ids.length;
  banner("");
  show();
}

document.addEventListener("DOMContentLoaded", () => {
  $("annotator").value = localStorage.getItem("examcorpus.annotator") || "";
  $("all").addEventListener("change", loadQueue);
  $("code").addEventListener("change", loadQueue);
  $("save").addEventListener("click", save);
  $("next").addEventListener("click", () => move(1));
  $("prev").addEventListener("click", () => move(-1));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); save(); }
    else if (event.altKey && event.key === "ArrowRight") move(1);
    else if (event.altKey && event.key === "ArrowLeft") move(-1);
  });
  loadQueue();
});
