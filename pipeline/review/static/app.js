// The review page. Every piece of model or PDF text goes into the page through textContent or a
// form field's value, never innerHTML, so markup in a description is shown as text.
"use strict";

const FILTERS = ["status", "exam", "year", "language", "q"];
const state = {
  ids: [], pos: 0, item: null, shown: 0, progress: null, last: null, sort: { column: "number", dir: "asc" },
  mode: "single", adjudicate: false, // double review (`examcorpus review --double`): blind judgements, then adjudication
  filters: { status: "pending", exam: "", year: "", language: "", q: "" },
};

function fillSelect(select, values, current, anyLabel) {
  select.replaceChildren();
  for (const value of ["", ...values]) {
    const option = document.createElement("option");
    option.value = String(value);
    option.textContent = value === "" ? anyLabel : shown(value);
    select.append(option);
  }
  select.value = String(current);
}

function showProgress(progress) {
  state.progress = progress;
  $("progress-text").textContent = `${progress.reviewed} / ${progress.total} reviewed`;
  $("progress-bar").max = Math.max(progress.total, 1);
  $("progress-bar").value = progress.reviewed;
}

function queryString() {
  return new URLSearchParams(Object.entries(state.filters).filter(([, v]) => v !== ""));
}

async function loadQueue(keepId) {
  const query = queryString();
  if (state.adjudicate) query.set("adjudicate", "1");
  history.replaceState(null, "", `?${query}`);
  query.set("annotator", $("annotator").value.trim()); // in double review, each annotator's own blind queue
  const { status, body } = await api(`/api/queue?${query}`);
  if (status !== 200) return banner(body.error, "error");
  state.mode = body.mode;
  showMode();
  fillSelect($("f-status"), body.facets.statuses, state.filters.status, "any status");
  fillSelect($("f-exam"), body.facets.exams, state.filters.exam, "any exam");
  fillSelect($("f-year"), body.facets.years, state.filters.year, "any year");
  fillSelect($("f-language"), body.facets.languages, state.filters.language, "any language");
  showProgress(body.progress);
  state.ids = body.ids;
  state.pos = keepId && state.ids.includes(keepId) ? state.ids.indexOf(keepId) : 0;
  if (!$("browse").hidden) loadTable();
  await showCurrent();
}

function showMode() {
  const double = state.mode === "double";
  $("mode").hidden = !double;
  $("mode").textContent = state.adjudicate ? "adjudication: both judgements shown" : "double review: blind";
  $("agreement-open").hidden = !double;
  $("undo").hidden = double && !state.adjudicate;
}

function emptyMessage() {
  const p = state.progress;
  const f = state.filters;
  if (state.mode === "double" && state.adjudicate) return "No disagreements wait for adjudication.";
  if (state.mode === "double" && !$("annotator").value.trim()) {
    return "Enter your name above: in double review each annotator has their own blind queue.";
  }
  if (state.mode === "double") return "Nothing awaits your blind judgement: every figure here is judged by you, or by two others.";
  if (f.status === "pending" && !f.exam && !f.year && !f.language && !f.q && p && p.total > 0) {
    return `Every figure is reviewed: nothing is pending (${p.reviewed} of ${p.total} reviewed). `
      + "Choose another status above to look at decisions already taken.";
  }
  if (p && p.total === 0) return "There are no figure descriptions to review yet: run `examcorpus describe` first.";
  return "Nothing matches these filters" + (f.q ? ` and the search “${f.q}”` : "") + ". Change or clear them above.";
}

async function showCurrent() {
  const empty = state.ids.length === 0;
  $("workspace").hidden = empty;
  $("empty").hidden = !empty;
  if (empty) {
    state.item = null;
    state.shown += 1; // an item answer still on its way is not drawn over the empty state
    $("figure").removeAttribute("src");
    $("empty").textContent = shown(emptyMessage());
    return;
  }
  state.pos = Math.min(Math.max(state.pos, 0), state.ids.length - 1);
  const ticket = ++state.shown; // quick key presses overlap: only the latest answer is drawn
  const { status, body } = await api(`/api/items/${encodeURIComponent(state.ids[state.pos])}${state.adjudicate ? "?adjudicate=1" : ""}`);
  if (ticket !== state.shown) return;
  if (status !== 200) return banner(body.error, "error");
  render(body);
}

function render(item) {
  state.item = item;
  const q = item.question;
  $("meta").textContent = shown(`${q.source} · ${item.exam} ${item.year}${q.session ? " " + q.session : ""} · ${q.subject} · `
    + `question ${item.number} · ${item.language} · ${state.pos + 1} of ${state.ids.length} in this queue`);
  // The item's own language, for screen readers, spell checking and hyphenation; the page's chrome stays English.
  for (const id of ["item-text", "description", "transcription", "figure-box"]) $(id).lang = item.language;
  setZoom(false);
  $("figure").src = item.figure.url;
  $("figure-caption").textContent = `figure ${item.figure.index} of ${item.figure.of}, page ${item.figure.page}`;
  $("context").textContent = shown(q.context || "");
  $("question").textContent = shown(q.text);
  const choices = $("choices");
  choices.replaceChildren();
  q.choices.forEach((text, i) => {
    const li = document.createElement("li");
    li.textContent = shown(`${q.labels[i] ?? ""}. ${text}`);
    if (q.labels[i] === q.answer) li.className = "answer";
    choices.append(li);
  });
  $("description").value = item.description || "";
  $("transcription").value = item.transcription || "";
  $("reason").value = item.reason || "";
  hiddenControls("hidden-controls", { description: $("description").value, transcription: $("transcription").value,
                                      reason: $("reason").value });
  const who = item.reviewed_by ? ` by ${item.reviewed_by} at ${item.reviewed_at}` : "";
  $("state").textContent = shown(`status: ${item.status}${who}${item.reason ? ` (reason: ${item.reason})` : ""} · version ${item.version}`
    + ` · ${item.model}, prompt ${item.prompt_version}`);
  const g = item.generated;
  $("generated-note").textContent = g.status === "pending" ? "" : shown(`the model's answer was ${g.status}${g.raw_text ? ": " + g.raw_text : ""}; `
    + "write a description by hand to accept it, or reject it");
  $("votes").textContent = shown((item.votes || []).map((v) => `${v.annotator}: ${v.action}${v.edited ? " (edited)" : ""}`
    + (v.action === "accept" ? ` · “${v.description}”` : ` · reason: ${v.reason}`)).join("\n"));
  $("votes").hidden = !item.votes;
}

function annotator() {
  const name = $("annotator").value.trim();
  if (!name) { banner("Enter your name first: every decision is signed.", "error"); $("annotator").focus(); }
  return name;
}

function askReason() {
  banner("Why reject it? Type the reason, then Enter (Esc to go back).");
  $("reason").focus();
}

async function decide(action) {
  if (!state.item) return;
  const name = annotator();
  if (!name) return;
  const decision = { action, annotator: name, version: state.item.version };
  if (action === "accept") {
    decision.description = $("description").value;
    decision.transcription = $("transcription").value;
  } else {
    decision.reason = $("reason").value;
    if (!decision.reason.trim()) return askReason();
  }
  if (state.mode === "double" && !state.adjudicate) return judge(decision);
  const { status, body } = await api(`/api/items/${encodeURIComponent(state.item.item_id)}/decision`, { method: "POST", body: JSON.stringify(decision) });
  if (status === 409) { showProgress(body.progress); return showConflict(body.current); }
  if (status !== 200) return banner(body.error || `HTTP ${status}`, "error");
  banner(`${body.item.status}: question ${body.item.number} (${body.item.exam} ${body.item.year}) · u undoes`);
  rememberLast(body.item);
  document.activeElement?.blur(); // shortcuts work again on the next figure, not as typing
  showProgress(body.progress);
  const id = state.item.item_id;
  if (state.filters.status && body.item.status !== state.filters.status) {
    state.ids.splice(state.ids.indexOf(id), 1); // no longer in this queue: the next one moves up
  } else {
    state.pos += 1;
  }
  if (!$("browse").hidden) loadTable();
  await showCurrent();
}

// A blind judgement: counted once per annotator, never shown to the other; the item leaves this queue.
async function judge(decision) {
  delete decision.version;
  const { status, body } = await api(`/api/items/${encodeURIComponent(state.item.item_id)}/vote`, { method: "POST", body: JSON.stringify(decision) });
  if (status !== 200) return banner(body.error || `HTTP ${status}`, "error");
  banner(`judged (${decision.action}, blind): question ${body.item.number} (${body.item.exam} ${body.item.year})`);
  document.activeElement?.blur();
  showProgress(body.progress);
  state.ids.splice(state.ids.indexOf(state.item.item_id), 1);
  await showCurrent();
}

async function showAgreement() {
  const { status, body } = await api("/api/agreement");
  if (status !== 200) return banner(body.error, "error");
  const rows = body.pairs.map((p) => {
    const tr = document.createElement("tr");
    const kappa = p.kappa === null ? "undefined (one category only)" : p.kappa.toFixed(3);
    for (const value of [p.annotators.join(" – "), p.items, p.agreed, `${(p.observed_agreement * 100).toFixed(1)}%`, kappa]) {
      const td = document.createElement("td");
      td.textContent = shown(value);
      tr.append(td);
    }
    return tr;
  });
  $("agreement-rows").replaceChildren(...rows);
  $("agreement-note").textContent = `${body.judged_items} figures judged blind · ${body.awaiting_second} awaiting a second judgement · `
    + `disagreements to adjudicate: ${body.disagreements}` + (body.pairs.length ? "" : " · no two annotators share a figure yet");
  $("agreement-box").showModal();
}

function rememberLast(item) {
  state.last = { item_id: item.item_id, version: item.version, number: item.number };
  $("undo").disabled = false;
}

async function undo() {
  if (state.mode === "double" && !state.adjudicate) return banner("A blind judgement cannot be undone here: tell the adjudicator.");
  if (!state.last) return banner("Nothing to undo yet: undo takes back your last decision on this page.");
  const name = annotator();
  if (!name) return;
  const { item_id, version } = state.last;
  const { status, body } = await api(`/api/items/${encodeURIComponent(item_id)}/undo`, { method: "POST", body: JSON.stringify({ annotator: name, version }) });
  if (status === 409) {
    showProgress(body.progress);
    return banner(`Not undone: question ${body.current.number} was decided again by ${body.current.reviewed_by} at `
      + `${body.current.reviewed_at} after your decision.`, "error");
  }
  if (status !== 200) return banner(body.error || `HTTP ${status}`, "error");
  rememberLast(body.item);
  banner(`undone: question ${body.item.number} is ${body.item.status} again · u redoes`);
  await loadQueue(item_id);
  if (!state.ids.includes(item_id)) { state.ids.splice(state.pos, 0, item_id); await showCurrent(); } // shown even outside the filter
}

function showConflict(current) {
  // Keep what this annotator typed; take the current version so a second click is a deliberate overwrite.
  const mine = { description: $("description").value, transcription: $("transcription").value, reason: $("reason").value };
  banner(`Conflict: this figure was ${current.status} by ${current.reviewed_by} at ${current.reviewed_at} `
    + `while you had it open. Your decision was NOT saved.\nTheir description: ${current.description || "(none)"}\n`
    + "Your text is still in the form: decide again to replace their decision, or skip.", "error");
  render(current);
  $("description").value = mine.description;
  $("transcription").value = mine.transcription;
  $("reason").value = mine.reason;
}

function move(step) {
  if (!state.ids.length) return;
  state.pos = (state.pos + step + state.ids.length) % state.ids.length;
  banner("");
  showCurrent();
}

function setZoom(on) {
  const img = $("figure");
  $("figure-box").classList.toggle("zoomed", on);
  $("zoom").setAttribute("aria-pressed", String(on));
  // A crop is a few hundred pixels: shown three times its size, scrollable, the figure's fine print is legible.
  img.style.width = on && img.naturalWidth ? `${img.naturalWidth * 3}px` : "";
}

function toggleZoom() {
  if (state.item) setZoom(!$("figure-box").classList.contains("zoomed"));
}

// ---- the item table: the queue as rows, sorted by the server, opened by a click or Enter
async function loadTable() {
  const query = queryString();
  query.set("sort", state.sort.column);
  query.set("dir", state.sort.dir);
  const { status, body } = await api(`/api/table?${query}`);
  if (status !== 200) return banner(body.error, "error");
  for (const th of document.querySelectorAll("#items th")) {
    th.setAttribute("aria-sort", th.dataset.sort === state.sort.column ? (state.sort.dir === "asc" ? "ascending" : "descending") : "none");
  }
  const rows = body.rows.map((row) => {
    const tr = document.createElement("tr");
    tr.className = `status-${row.status}`;
    const figure = row.figure.of > 1 ? ` (figure ${row.figure.index} of ${row.figure.of})` : "";
    const cells = [`${row.number}${figure}`, row.exam, row.year, row.language, row.status, row.reviewed_by || "", row.record_id];
    cells.forEach((value, i) => {
      const td = document.createElement("td");
      if (i === 0) {
        const open = document.createElement("button");
        open.type = "button";
        open.textContent = shown(value);
        open.addEventListener("click", () => openItem(row.item_id));
        td.append(open);
      } else td.textContent = shown(value);
      tr.append(td);
    });
    return tr;
  });
  $("items").tBodies[0].replaceChildren(...rows);
  $("browse-note").textContent = body.total > body.rows.length ? `the first ${body.rows.length} of ${body.total} items; search or filter to narrow`
    : `${body.total} items`;
}

function toggleBrowse(show = $("browse").hidden) {
  $("browse").hidden = !show;
  $("browse-toggle").setAttribute("aria-expanded", String(show));
  if (show) loadTable();
}

function openItem(itemId) {
  state.pos = state.ids.indexOf(itemId);
  toggleBrowse(false);
  showCurrent();
}

function sortTable(column) {
  state.sort = { column, dir: state.sort.column === column && state.sort.dir === "asc" ? "desc" : "asc" };
  loadTable();
}

function isTyping(target) {
  return Boolean(target.closest && target.closest("input, textarea, select, [contenteditable='true'], [contenteditable='']"));
}

function onKey(event) {
  if ($("help").open || $("agreement-box").open || event.isComposing) return; // the dialog takes Esc itself
  if (isTyping(event.target)) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && event.target.tagName === "TEXTAREA") { event.preventDefault(); decide("accept"); }
    else if (event.key === "Enter" && event.target.id === "reason") { event.preventDefault(); decide("reject"); }
    else if (event.key === "Enter" && event.target.id === "annotator") { event.preventDefault(); event.target.blur(); banner(`Signed as ${event.target.value.trim()}: shortcuts are on.`); }
    else if (event.key === "Escape") event.target.blur();
    return;
  }
  const actions = { a: () => decide("accept"), r: () => decide("reject"), s: () => move(1), ArrowRight: () => move(1),
                    ArrowLeft: () => move(-1), e: () => state.item && $("description").focus(), u: undo, z: toggleZoom,
                    t: () => toggleBrowse(), "/": () => $("search").focus(), "?": () => $("help").showModal(),
                    Escape: () => setZoom(false) };
  if (actions[event.key] && !event.ctrlKey && !event.metaKey && !event.altKey) { event.preventDefault(); actions[event.key](); }
}

let searchTimer = 0;

function init() {
  const params = new URLSearchParams(location.search);
  for (const name of FILTERS) if (params.has(name)) state.filters[name] = params.get(name);
  state.adjudicate = params.get("adjudicate") === "1";
  $("search").value = state.filters.q;
  $("annotator").value = localStorage.getItem("examcorpus.annotator") || "";
  $("annotator").addEventListener("change", () => {
    localStorage.setItem("examcorpus.annotator", $("annotator").value.trim());
    if (state.mode === "double") loadQueue(); // each annotator's own queue
  });
  $("agreement-open").addEventListener("click", showAgreement);
  for (const name of FILTERS.filter((n) => n !== "q")) {
    $(`f-${name}`).addEventListener("change", (e) => { state.filters[name] = e.target.value; banner(""); loadQueue(); });
  }
  $("search").addEventListener("input", () => {
    clearTimeout(searchTimer);
    searchTimer = setTimeout(() => { state.filters.q = $("search").value.trim(); loadQueue(); }, 200);
  });
  $("accept").addEventListener("click", () => decide("accept"));
  $("reject").addEventListener("click", () => decide("reject"));
  $("skip").addEventListener("click", () => move(1));
  $("prev").addEventListener("click", () => move(-1));
  $("undo").addEventListener("click", undo);
  $("zoom").addEventListener("click", toggleZoom);
  $("figure").addEventListener("click", toggleZoom);
  $("browse-toggle").addEventListener("click", () => toggleBrowse());
  $("help-open").addEventListener("click", () => $("help").showModal());
  for (const th of document.querySelectorAll("#items th")) th.querySelector("button").addEventListener("click", () => sortTable(th.dataset.sort));
  document.addEventListener("keydown", onKey);
  loadQueue();
}

document.addEventListener("DOMContentLoaded", init);
