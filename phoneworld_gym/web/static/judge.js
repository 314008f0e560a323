// The judging page: step through recorded episodes, mark each a success or a failure.
"use strict";

const $ = (id) => document.getElementById(id);
const jg = { config: null, episodes: [], current: null, episode: null, step: 0 };
window.jg = jg;

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
  if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
  return data;
}

function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;",
                                                  '"': "&quot;" }[c]));
}
function judgeName() { return $("judge-name").value.trim(); }
function showError(msg) { $("error").textContent = msg || ""; }

function describe(a) {
  const at = a.index !== undefined ? ` #${a.index}` : a.x !== undefined ? ` (${a.x}, ${a.y})` : "";
  const extra = [a.direction, a.app_name, a.goal_status,
                 a.text !== undefined ? JSON.stringify(a.text) : undefined]
    .filter((v) => v !== undefined).join(" ");
  return `${a.action_type}${at}${extra ? " " + extra : ""}`;
}

function markOf(e) {
  if (!e.judgment) return "";
  return e.judgment.success ? "success" : "failure";
}

function renderList() {
  const judged = jg.episodes.filter((e) => e.judgment).length;
  $("counts").textContent = `${judged} of ${jg.episodes.length} judged`;
  $("episodes").innerHTML = jg.episodes.map((e) => {
    const m = markOf(e);
    const sym = m === "success" ? "&#10003;" : m === "failure" ? "&#10007;" : "&middot;";
    const ver = e.verifier_success === null || e.verifier_success === undefined ? "" :
      ` · verifier ${e.verifier_success ? "&#10003;" : "&#10007;"}`;
    return `<div class="ep${e.episode_id === jg.current ? " current" : ""}" ` +
      `data-id="${esc(e.episode_id)}" data-mark="${m}">` +
      `<span>${esc(e.task)}<br><span class="muted">seed ${e.seed} · ${esc(e.agent)} · ` +
      `${e.steps} steps${ver}</span></span>` +
      `<span class="mark ${m === "success" ? "good" : m ? "bad" : ""}">${sym}</span></div>`;
  }).join("");
  document.querySelectorAll("#episodes .ep").forEach((el) => {
    el.onclick = () => openEpisode(el.dataset.id);
  });
}

async function loadList() {
  jg.episodes = await api("GET", `/api/episodes?judge=${encodeURIComponent(judgeName())}`);
  renderList();
}

async function openEpisode(id) {
  showError("");
  jg.current = id;
  jg.episode = await api("GET", `/api/episodes/${encodeURIComponent(id)}`);
  jg.step = 0;
  const e = jg.episodes.find((x) => x.episode_id === id);
  $("reason").value = e && e.judgment ? e.judgment.reason : "";
  $("saved").textContent = e && e.judgment ? `saved: ${markOf(e)}` : "";
  history.replaceState(null, "", `?judge=${encodeURIComponent(judgeName())}` +
                                  `&episode=${encodeURIComponent(id)}`);
  renderList();
  renderStep();
}

function arrow(x, y, dir, len) {
  const d = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] }[dir] || [0, 1];
  const x2 = x + d[0] * len, y2 = y + d[1] * len;
  return `<line x1="${x}" y1="${y}" x2="${x2}" y2="${y2}" stroke="#ff3b6b" stroke-width="14" ` +
    `marker-end="url(#head)"/>`;
}

function renderStep() {
  const ep = jg.episode, s = ep.steps[jg.step], a = s.action;
  $("goal").textContent = ep.goal;
  $("success-statement").textContent = ep.success_statement ?
    `What counts as success: ${ep.success_statement}` : "";
  $("episode-meta").textContent = `${ep.task} · seed ${ep.seed} · ${ep.category} · ` +
    `${ep.agent} (${ep.source}) · ${ep.env_id}`;
  $("step-label").textContent = `step ${jg.step + 1} of ${ep.steps.length}`;
  $("prev-btn").disabled = jg.step === 0;
  $("next-btn").disabled = jg.step === ep.steps.length - 1;
  $("action").textContent = describe(a);
  $("action-error").textContent = s.action_error ? `error: ${s.action_error}` : "";
  const base = `/api/episodes/${encodeURIComponent(ep.episode_id)}/steps/${jg.step}`;
  if (ep.screenshots) {
    $("screen").src = `${base}/screen.png`;
  } else {  // recorded without screenshots: the element list stands in for the screen
    $("elements").classList.remove("hidden");
    fetch(`${base}/elements`).then((r) => r.text()).then((t) => { $("elements").textContent = t; });
  }
  let svg = `<defs><marker id="head" markerWidth="4" markerHeight="4" refX="2" refY="2" ` +
    `orient="auto"><path d="M0,0 L4,2 L0,4 z" fill="#ff3b6b"/></marker></defs>`;
  let x = a.x, y = a.y;
  if (s.target) {
    const [x1, y1, x2, y2] = s.target;
    svg += `<rect x="${x1}" y="${y1}" width="${x2 - x1}" height="${y2 - y1}" fill="none" ` +
      `stroke="#ff9f1a" stroke-width="8"/>`;
    x = (x1 + x2) / 2; y = (y1 + y2) / 2;
  }
  const t = a.action_type;
  if (["click", "double_tap", "long_press"].includes(t) && x !== undefined) {
    svg += `<circle cx="${x}" cy="${y}" r="${t === "long_press" ? 60 : 40}" fill="rgba(255,59,107,.25)" ` +
      `stroke="#ff3b6b" stroke-width="10"/>`;
  } else if (t === "swipe" || t === "scroll") {
    // a swipe moves the finger its way; scroll down moves the finger up
    const dir = t === "swipe" ? a.direction :
      { up: "down", down: "up", left: "right", right: "left" }[a.direction];
    svg += arrow(x !== undefined ? x : 540, y !== undefined ? y : 1400, dir, 500);
  }
  if (t === "input_text" || t === "answer" || t === "open_app" || t === "status") {
    const label = t === "input_text" ? `type ${JSON.stringify(a.text)}` :
      t === "answer" ? `answer ${JSON.stringify(a.text)}` :
      t === "open_app" ? `open ${a.app_name}` : `status: ${a.goal_status}`;
    svg += `<rect x="40" y="2150" width="1000" height="150" rx="30" fill="rgba(20,20,30,.82)"/>` +
      `<text x="540" y="2248" font-size="58" fill="#fff" text-anchor="middle" ` +
      `font-family="sans-serif">${esc(label.slice(0, 34))}</text>`;
  }
  $("overlay").innerHTML = svg;
  const v = $("verifier"), last = jg.step === ep.steps.length - 1;
  if (last && ep.verifier_success !== null && ep.verifier_success !== undefined) {
    v.className = `verdict ${ep.verifier_success ? "good" : "bad"}`;
    v.innerHTML = `Verifier: ${ep.verifier_success ? "success" : "failure"} · reward ` +
      `${Number(ep.verifier_reward).toFixed(2)}<div class="why">${esc(ep.failure || "")}</div>`;
  } else if (last) {
    v.className = "verdict"; v.textContent = "No verifier result for this episode.";
  } else {
    v.className = "verdict hidden";
  }
  if ($("tree-box").open) loadTree();
}

async function loadTree() {
  const ep = jg.episode;
  const r = await fetch(`/api/episodes/${encodeURIComponent(ep.episode_id)}/steps/${jg.step}/tree`);
  $("tree").textContent = r.ok ? await r.text() : "";
}

function go(delta) {
  if (!jg.episode) return;
  const n = jg.step + delta;
  if (n < 0 || n >= jg.episode.steps.length) return;
  jg.step = n;
  renderStep();
}

async function judge(success) {
  if (!jg.current) return;
  showError("");
  try {
    await api("POST", "/api/judgments", { episode_id: jg.current, judge: judgeName(), success,
                                          reason: $("reason").value });
    localStorage.setItem("phoneworld-judge", judgeName());
    await loadList();
    const next = jg.episodes.find((e) => !e.judgment);
    $("saved").textContent = `saved: ${success ? "success" : "failure"}`;
    if ($("summary").classList.contains("hidden") === false) await summary();
    if (next) await openEpisode(next.episode_id);
  } catch (e) {
    showError(e.message);
  }
}

function fmt(r) {
  if (!r || !r.n) return "–";
  return `${r.success}/${r.n} = ${(100 * r.rate).toFixed(1)}% ` +
    `[${(100 * r.ci[0]).toFixed(1)}, ${(100 * r.ci[1]).toFixed(1)}]`;
}

async function summary() {
  const { report } = await api("GET", "/api/summary");
  const names = Object.keys(report.judges).sort();
  const cats = [...new Set(names.flatMap((n) => Object.keys(report.judges[n].by_category)))].sort();
  let html = "<table class='summary'><tr><th>category</th>" +
    names.map((n) => `<th>${esc(n)}</th>`).join("") + "<th>verifier</th></tr>";
  for (const c of cats) {
    html += `<tr><td>${esc(c)}</td>` + names.map((n) =>
      `<td>${fmt(report.judges[n].by_category[c])}</td>`).join("") +
      `<td>${fmt(report.verifier[c])}</td></tr>`;
  }
  html += "<tr><td><b>all</b></td>" + names.map((n) => `<td>${fmt(report.judges[n])}</td>`)
    .join("") + `<td>${fmt(report.verifier_all)}</td></tr></table>`;
  html += report.pairs.map((p) => `<p class="pair" data-judges="${esc(p.judges.join(","))}" ` +
    `data-kappa="${p.kappa === null ? "" : p.kappa}">${esc(p.judges[0])} vs ${esc(p.judges[1])}: ` +
    `${p.n} episodes in common` + (p.n ? `, agreement ${(100 * p.agreement).toFixed(1)}%, ` +
    `Cohen's kappa ${p.kappa === null ? "undefined" : p.kappa.toFixed(3)}` : "") + "</p>")
    .join("");
  if (!names.length) html = "<p class='muted'>No judgments yet.</p>";
  $("summary-body").innerHTML = html;
  $("summary").classList.remove("hidden");
}

async function main() {
  try {
    jg.config = await api("GET", "/api/config");
    const q = new URLSearchParams(location.search);
    $("judge-name").value = q.get("judge") || localStorage.getItem("phoneworld-judge") ||
      jg.config.judge;
    $("folder").textContent = jg.config.results_dir;
    if (!jg.config.screenshots) $("shot").classList.add("hidden");
    await loadList();
    const want = q.get("episode");
    const first = jg.episodes.find((e) => e.episode_id === want) ||
      jg.episodes.find((e) => !e.judgment) || jg.episodes[0];
    if (first) await openEpisode(first.episode_id);
  } catch (e) {
    showError(e.message);
  }
  $("prev-btn").onclick = () => go(-1);
  $("next-btn").onclick = () => go(1);
  $("success-btn").onclick = () => judge(true);
  $("failure-btn").onclick = () => judge(false);
  $("summary-btn").onclick = () => summary().catch((e) => showError(e.message));
  $("judge-name").addEventListener("change", () => loadList().then(() => {
    if (jg.current) openEpisode(jg.current);
  }).catch((e) => showError(e.message)));
  $("tree-box").addEventListener("toggle", () => { if ($("tree-box").open) loadTree(); });
  document.addEventListener("keydown", (ev) => {
    if (ev.target.tagName === "TEXTAREA" || ev.target.tagName === "INPUT") return;
    if (ev.key === "ArrowLeft") go(-1);
    if (ev.key === "ArrowRight") go(1);
  });
}

main();
