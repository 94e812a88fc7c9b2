// The review page. Every piece of model or PDF text goes into the page through textContent or a
// form field's value, never innerHTML, so markup in a description is shown as text.
"use strict";

const $ = (id) => document.getElementById(id);
const FILTERS = ["status", "exam", "year", "language"];
const state = { ids: [], pos: 0, item: null, shown: 0, filters: { status: "pending", exam: "", year: "", language: "" } };

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

function fillSelect(select, values, current, anyLabel) {
  select.replaceChildren();
  for (const value of ["", ...values]) {
    const option = document.createElement("option");
    option.value = String(value);
    option.textContent = value === "" ? anyLabel : String(value);
    select.append(option);
  }
  select.value = String(current);
}

function showProgress(progress) {
  $("progress-text").textContent = `${progress.reviewed} / ${progress.total} reviewed`;
  $("progress-bar").max = Math.max(progress.total, 1);
  $("progress-bar").value = progress.reviewed;
}

async function loadQueue(keepId) {
  const query = new URLSearchParams(Object.entries(state.filters).filter(([, v]) => v !== ""));
  history.replaceState(null, "", `?${query}`);
  const { status, body } = await api(`/api/queue?${query}`);
  if (status !== 200) return banner(body.error, "error");
  fillSelect($("f-status"), body.facets.statuses, state.filters.status, "any status");
  fillSelect($("f-exam"), body.facets.exams, state.filters.exam, "any exam");
  fillSelect($("f-year"), body.facets.years, state.filters.year, "any year");
  fillSelect($("f-language"), body.facets.languages, state.filters.language, "any language");
  showProgress(body.progress);
  state.ids = body.ids;
  state.pos = keepId && state.ids.includes(keepId) ? state.ids.indexOf(keepId) : 0;
  await showCurrent();
}

async function showCurrent() {
  const empty = state.ids.length === 0;
  $("workspace").hidden = empty;
  $("empty").hidden = !empty;
  if (empty) { state.item = null; return; }
  state.pos = Math.min(Math.max(state.pos, 0), state.ids.length - 1);
  const ticket = ++state.shown; // quick key presses overlap: only the latest answer is drawn
  const { status, body } = await api(`/api/items/${state.ids[state.pos]}`);
  if (ticket !== state.shown) return;
  if (status !== 200) return banner(body.error, "error");
  render(body);
}

function render(item) {
  state.item = item;
  const q = item.question;
  $("meta").textContent = `${q.source} · ${item.exam} ${item.year}${q.session ? " " + q.session : ""} · ${q.subject} · `
    + `question ${item.number} · ${item.language} · ${state.pos + 1} of ${state.ids.length} in this queue`;
  $("figure").src = item.figure.url;
  $("figure-caption").textContent = `figure ${item.figure.index} of ${item.figure.of}, page ${item.figure.page}`;
  $("context").textContent = q.context || "";
  $("question").textContent = q.text;
  const choices = $("choices");
  choices.replaceChildren();
  q.choices.forEach((text, i) => {
    const li = document.createElement("li");
    li.textContent = `${q.labels[i] ?? ""}. ${text}`;
    if (q.labels[i] === q.answer) li.className = "answer";
    choices.append(li);
  });
  $("description").value = item.description || "";
  $("transcription").value = item.transcription || "";
  $("reason").value = item.reason || "";
  const who = item.reviewed_by ? ` by ${item.reviewed_by} at ${item.reviewed_at}` : "";
  $("state").textContent = `status: ${item.status}${who}${item.reason ? ` (reason: ${item.reason})` : ""} · version ${item.version}`
    + ` · ${item.model}, prompt ${item.prompt_version}`;
  const g = item.generated;
  $("generated-note").textContent = g.status === "pending" ? "" : `the model's answer was ${g.status}${g.raw_text ? ": " + g.raw_text : ""}; `
    + "write a description by hand to accept it, or reject it";
}

function annotator() {
  const name = $("annotator").value.trim();
  if (!name) { banner("Enter your name first: every decision is signed.", "error"); $("annotator").focus(); }
  return name;
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
    if (!decision.reason.trim()) { banner("A rejection needs a reason.", "error"); $("reason").focus(); return; }
  }
  const { status, body } = await api(`/api/items/${state.item.item_id}/decision`, { method: "POST", body: JSON.stringify(decision) });
  if (status === 409) { showProgress(body.progress); return showConflict(body.current); }
  if (status !== 200) return banner(body.error || `HTTP ${status}`, "error");
  banner(`${body.item.status}: question ${body.item.number} (${body.item.exam} ${body.item.year})`);
  document.activeElement?.blur(); // shortcuts work again on the next figure, not as typing
  showProgress(body.progress);
  const id = state.item.item_id;
  if (state.filters.status && body.item.status !== state.filters.status) {
    state.ids.splice(state.ids.indexOf(id), 1); // no longer in this queue: the next one moves up
  } else {
    state.pos += 1;
  }
  await showCurrent();
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

function onKey(event) {
  const typing = ["TEXTAREA", "INPUT", "SELECT"].includes(event.target.tagName);
  if (typing) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && event.target.tagName === "TEXTAREA") { event.preventDefault(); decide("accept"); }
    else if (event.key === "Enter" && event.target.id === "reason") { event.preventDefault(); decide("reject"); }
    else if (event.key === "Escape") event.target.blur();
    return;
  }
  const actions = { a: () => decide("accept"), r: () => decide("reject"), s: () => move(1), ArrowRight: () => move(1),
                    ArrowLeft: () => move(-1), e: () => $("description").focus() };
  if (actions[event.key] && !event.ctrlKey && !event.metaKey && !event.altKey) { event.preventDefault(); actions[event.key](); }
}

function init() {
  const params = new URLSearchParams(location.search);
  for (const name of FILTERS) if (params.has(name)) state.filters[name] = params.get(name);
  $("annotator").value = localStorage.getItem("examcorpus.annotator") || "";
  $("annotator").addEventListener("change", () => localStorage.setItem("examcorpus.annotator", $("annotator").value.trim()));
  for (const name of FILTERS) {
    $(`f-${name}`).addEventListener("change", (e) => { state.filters[name] = e.target.value; banner(""); loadQueue(); });
  }
  $("accept").addEventListener("click", () => decide("accept"));
  $("reject").addEventListener("click", () => decide("reject"));
  $("skip").addEventListener("click", () => move(1));
  $("prev").addEventListener("click", () => move(-1));
  document.addEventListener("keydown", onKey);
  loadQueue();
}

document.addEventListener("DOMContentLoaded", init);
