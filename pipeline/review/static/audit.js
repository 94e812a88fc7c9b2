// The extraction audit: a curated question beside its rendered pages; corrections become overrides.
// As on the review page, text goes in through textContent and form values only.
"use strict";

const audit = { ids: [], pos: 0, item: null, shown: 0 };

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
  for (const [code, count] of Object.entries(codes)) options.push(new Option(shown(`${code} (${count})`), code));
  select.replaceChildren(...options);
  select.value = codes[chosen] ? chosen : "";
}

async function show() {
  const empty = audit.ids.length === 0;
  $("workspace").hidden = empty;
  $("empty").hidden = !empty;
  if (empty) {
    audit.item = null; // Ctrl+Enter on an empty queue saves nothing
    audit.shown += 1;
    $("position").textContent = "";
    $("empty").textContent = $("all").checked ? "There are no curated questions to audit: run `make extract` first."
      : "No question is flagged: every extracted question passed its checks. Tick “all questions” to audit any of them.";
    return;
  }
  const ticket = ++audit.shown; // overlapping requests: only the latest answer is drawn
  const { status, body } = await api(`/api/audit/questions/${encodeURIComponent(audit.ids[audit.pos])}`);
  if (ticket !== audit.shown) return;
  if (status !== 200) return banner(body.error, "error");
  render(body);
}

function render(item) {
  audit.item = item;
  $("position").textContent = `${audit.pos + 1} of ${audit.ids.length}`;
  // Read by OCR: how sure the reading is (the lowest word confidence of its lines), beside where it was printed.
  const sure = item.reading_confidence === null || item.reading_confidence === undefined ? "" : ` · OCR confidence ${Math.round(item.reading_confidence)}`;
  $("meta").textContent = shown(`${item.id} · ${item.type} · pages ${item.pages.join(", ")}${sure}`);
  const pages = $("pages");
  pages.replaceChildren();
  for (const url of item.page_urls) {
    const img = document.createElement("img");
    img.src = url;
    img.alt = "sheet page";
    img.className = "page";
    pages.append(img);
  }
  $("flags").textContent = item.flags.length ? shown(`flags: ${item.flags.join(", ")}`) : "no flags";
  // The question's own language on everything that holds its text: screen readers, hyphenation.
  for (const id of ["question", "options", "answer", "printed", "pages"]) $(id).lang = item.language;
  $("question").value = item.current.question;
  renderOptions(item.current.choices);
  $("answer").value = item.current.answer || "";
  $("answer").removeAttribute("aria-invalid");
  showPrinted(item);
  $("broken").checked = item.current.broken;
  $("note").value = "";
  $("state").textContent = item.corrected_by ? shown(`corrected by ${item.corrected_by} at ${item.corrected_at} · version ${item.version}`)
    : `as extracted · version ${item.version}`;
  const labels = labelsFor(item.current.choices.length);
  hiddenControls("hidden-controls", { question: item.current.question, answer: item.current.answer || "",
    ...Object.fromEntries(item.current.choices.map((text, i) => [`option ${labels[i] ?? i + 1}`, text])) });
}

// Labels as the server gives them: the question's own when the number of options is unchanged,
// else A, B, C… (pipeline.review.overrides.apply_overrides).
function labelsFor(count) {
  const own = audit.item.type_labels.extracted;
  return own.length === count ? own : audit.item.type_labels.fallback.slice(0, count);
}

function optionTexts() {
  return Array.from($("options").querySelectorAll("input")).map((input) => input.value);
}

function renderOptions(texts) {
  const labels = labelsFor(texts.length);
  const rows = texts.map((text, i) => {
    const row = document.createElement("label");
    row.className = "option";
    const label = document.createElement("span");
    label.className = "label";
    label.textContent = shown(labels[i] ?? "?");
    const input = document.createElement("input");
    input.value = text;
    input.setAttribute("aria-label", `option ${labels[i] ?? i + 1}`);
    row.append(label, input);
    return row;
  });
  $("options").replaceChildren(...rows);
  $("key-labels").replaceChildren(...labels.map((l) => Object.assign(document.createElement("option"), { value: l })));
  $("key-help").textContent = shown(ONE_LABEL_TYPES.includes(audit.item.type)
    ? `one of ${labels.join(", ") || "(no options yet)"}` : `${audit.item.type.replace("_", " ")}: the key is free text`);
}

const ONE_LABEL_TYPES = ["single_choice", "true_false"];

// The same rule the server applies (pipeline.review.keys), so a wrong key is named before a round trip.
function keyProblem(answer, choices, broken) {
  if (!answer || broken || !ONE_LABEL_TYPES.includes(audit.item.type)) return "";
  const labels = labelsFor(choices.length);
  if (labels.some((l) => l.toLowerCase() === answer.toLowerCase())) return "";
  return `key ${JSON.stringify(answer)} is not one of this question's option labels (${labels.join(", ") || "none"})`;
}

async function showPrinted(item) {
  $("printed").textContent = "…";
  const texts = await Promise.all(item.page_text_urls.map(async (url) => {
    const { status, body } = await api(url);
    return status === 200 ? body.text.trim() : `(page text not available: ${body.error})`;
  }));
  if (audit.item !== item) return;
  const text = texts.filter(Boolean).join("\n\n");
  $("printed").textContent = shown(text) || "(no text layer on this page: a scan; compare with the page image)";
}

async function save() {
  if (!audit.item) return;
  const name = $("annotator").value.trim();
  if (!name) { banner("Enter your name first: every correction is signed.", "error"); return $("annotator").focus(); }
  localStorage.setItem("examcorpus.annotator", name);
  const correction = {
    annotator: name, version: audit.item.version, question: $("question").value, answer: $("answer").value,
    choices: optionTexts().filter((line) => line.trim()), broken: $("broken").checked, note: $("note").value,
  };
  const problem = keyProblem(correction.answer.trim(), correction.choices, correction.broken);
  if (problem) {
    $("answer").setAttribute("aria-invalid", "true");
    $("answer").focus();
    return banner(`Not saved: ${problem}.`, "error");
  }
  const { status, body } = await api(`/api/audit/questions/${encodeURIComponent(audit.item.id)}`, { method: "POST", body: JSON.stringify(correction) });
  if (status === 409) return banner(`Conflict: ${body.message}. Your correction was NOT saved; reload the question to see theirs.`, "error");
  if (status !== 200) {
    if (body.field === "answer") $("answer").setAttribute("aria-invalid", "true");
    return banner(`Not saved: ${body.error || `HTTP ${status}`}`, "error");
  }
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
  $("add-option").addEventListener("click", () => {
    if (!audit.item) return;
    renderOptions([...optionTexts(), ""]);
    $("options").querySelector(".option:last-child input").focus();
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) { event.preventDefault(); save(); }
    else if (event.altKey && event.key === "ArrowRight") move(1);
    else if (event.altKey && event.key === "ArrowLeft") move(-1);
  });
  loadQueue();
});
