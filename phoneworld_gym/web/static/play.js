// The play page: every gesture on the screenshot becomes one contract action (AndroidWorld
// JSON) sent to the server, which steps the env and records the episode.
"use strict";

const $ = (id) => document.getElementById(id);
const LONG_MS = 550;      // held this long without moving: a long press
const DRAG_PX = 18;       // moved this far (CSS px): a swipe
const pw = { session: null, config: null, state: null, busy: false };
window.pw = pw;           // for the curious (and the browser tests)

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

function showError(msg) { $("error").textContent = msg || ""; }

function setBusy(on) {
  pw.busy = on;
  $("phone").classList.toggle("busy", on);
  document.querySelectorAll("button").forEach((b) => {
    if (b.id !== "reset-btn") b.disabled = on || !pw.state || pw.state.done;
  });
  $("reset-btn").disabled = on;
}

// device pixels of a pointer event on the screenshot
function devicePoint(ev) {
  const img = $("screen"), r = img.getBoundingClientRect();
  const [W, H] = pw.config.screen;
  const x = Math.round((ev.clientX - r.left) * W / r.width);
  const y = Math.round((ev.clientY - r.top) * H / r.height);
  return [Math.min(W - 1, Math.max(0, x)), Math.min(H - 1, Math.max(0, y))];
}

// the smallest element whose bounds hold the point
function elementAt(x, y) {
  let best = null, area = Infinity;
  for (const e of (pw.state && pw.state.elements) || []) {
    if (!e.bounds) continue;
    const [x1, y1, x2, y2] = e.bounds;
    const a = (x2 - x1) * (y2 - y1);
    if (x >= x1 && x < x2 && y >= y1 && y < y2 && a < area) { best = e; area = a; }
  }
  return best;
}

function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;",
                                                  '"': "&quot;" }[c]));
}

function inspect(x, y) {
  const e = elementAt(x, y);
  const hl = $("hl");
  if (!e) {
    hl.style.display = "none";
    $("inspector").innerHTML = `(${x}, ${y}): no indexed element here`;
    return;
  }
  const img = $("screen"), [W, H] = pw.config.screen;
  const sx = img.clientWidth / W, sy = img.clientHeight / H;
  const [x1, y1, x2, y2] = e.bounds;
  Object.assign(hl.style, { display: "block", left: `${img.offsetLeft + x1 * sx}px`,
                            top: `${img.offsetTop + y1 * sy}px`, width: `${(x2 - x1) * sx}px`,
                            height: `${(y2 - y1) * sy}px` });
  const rows = [["index", e.index], ["label", e.label], ["text", e.text],
                ["content-desc", e.content_desc], ["hint", e.hint], ["class", e.class],
                ["resource-id", e.resource_id], ["package", e.package],
                ["bounds", `[${x1},${y1}][${x2},${y2}]`], ["flags", e.flags.join(" ")],
                ["pointer", `(${x}, ${y})`]];
  $("inspector").innerHTML = "<dl class='kv'>" + rows.filter(([, v]) => v !== null && v !== "")
    .map(([k, v]) => `<dt>${k}</dt><dd>${esc(v)}</dd>`).join("") + "</dl>";
}

function describe(a) {
  const at = a.index !== undefined ? ` #${a.index}` : a.x !== undefined ? ` (${a.x}, ${a.y})` : "";
  const extra = [a.direction, a.app_name, a.goal_status,
                 a.text !== undefined ? JSON.stringify(a.text) : undefined]
    .filter((v) => v !== undefined).join(" ");
  return `${a.action_type}${at}${extra ? " " + extra : ""}`;
}

function render(s) {
  pw.state = s;
  if (s.phase === "idle") return;
  $("goal").textContent = s.goal || "";
  const budget = s.step_budget ? ` of ${s.step_budget}` : "";
  $("progress").textContent = `${s.task} · seed ${s.seed} · ${s.category || ""} · ` +
    `step ${s.steps}${budget}`;
  $("screen").src = `/api/sessions/${pw.session}/screen.png?v=${s.version}`;
  $("log").innerHTML = s.log.map((r) =>
    `<li class="${r.action_error ? "err" : ""}">${esc(describe(r.action))}` +
    (r.action_error ? ` <span>— ${esc(r.action_error)}</span>` : "") + "</li>").join("");
  $("log").scrollTop = 1e9;
  const v = $("verdict");
  if (s.done) {
    const good = s.success === true;
    v.className = `verdict ${good ? "good" : "bad"}`;
    const head = s.phase === "failed" ? "Stopped" :
      `${good ? "Success" : "Failure"} · reward ${Number(s.reward).toFixed(2)}`;
    const why = s.error || s.failure || (good ? "The verifier accepts the episode." : "");
    v.innerHTML = `${esc(head)}<div class="why">${esc(why)}</div>`;
  } else {
    v.className = "verdict hidden";
  }
  let rec = s.record_note || "";
  if (s.recorded) rec = `Recorded: ${s.recorded.file} in ${s.recorded.dir} ` +
                        `(${s.recorded.rows} steps)`;
  else if (!s.done && !rec && pw.config.record_dir) rec = `Recording to ${pw.config.record_dir}`;
  $("record").textContent = rec;
  if ($("tree-box").open) loadTree();
  setBusy(false);
}

async function loadTree() {
  try {
    const r = await fetch(`/api/sessions/${pw.session}/tree`);
    $("tree").textContent = r.ok ? await r.text() : "";
  } catch (e) { $("tree").textContent = ""; }
}

async function send(action) {
  if (pw.busy || !pw.state || pw.state.done) return;
  setBusy(true);
  showError("");
  try {
    render(await api("POST", `/api/sessions/${pw.session}/act`, { action }));
    if (pw.state.action_error) showError(pw.state.action_error);
  } catch (e) {
    showError(e.message);
    setBusy(false);
  }
}

async function reset() {
  if (pw.busy) return;
  setBusy(true);
  showError("");
  try {
    const seed = parseInt($("seed-input").value || "0", 10);
    render(await api("POST", `/api/sessions/${pw.session}/reset`,
                     { task: $("task-input").value.trim(), seed }));
    history.replaceState(null, "", `?task=${encodeURIComponent(pw.state.task)}&seed=${seed}`);
  } catch (e) {
    showError(e.message);
    setBusy(false);
  }
}

function showDot(ev) {
  const img = $("screen"), r = img.getBoundingClientRect(), dot = $("dot");
  Object.assign(dot.style, { display: "block",
                             left: `${img.offsetLeft + ev.clientX - r.left}px`,
                             top: `${img.offsetTop + ev.clientY - r.top}px` });
  setTimeout(() => { dot.style.display = "none"; }, 350);
}

function wireGestures() {
  const img = $("screen");
  let down = null;
  img.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0) return;
    img.setPointerCapture(ev.pointerId);
    down = { ev, t: performance.now(), at: devicePoint(ev) };
  });
  img.addEventListener("pointermove", (ev) => {
    if (pw.state && pw.config) inspect(...devicePoint(ev));
  });
  img.addEventListener("pointerleave", () => { $("hl").style.display = "none"; });
  img.addEventListener("pointerup", (ev) => {
    if (!down) return;
    const start = down;
    down = null;
    const dx = ev.clientX - start.ev.clientX, dy = ev.clientY - start.ev.clientY;
    const [x, y] = start.at;
    showDot(start.ev);
    if (Math.hypot(dx, dy) >= DRAG_PX) {
      // a swipe names the way the finger moved, from where it started
      const direction = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "right" : "left")
                                                    : (dy > 0 ? "down" : "up");
      send({ action_type: "swipe", direction, x, y });
    } else if (performance.now() - start.t >= LONG_MS) {
      send({ action_type: "long_press", x, y });
    } else {
      send({ action_type: "click", x, y });
    }
  });
  img.addEventListener("contextmenu", (ev) => ev.preventDefault());
}

function wireButtons() {
  $("reset-btn").onclick = reset;
  $("back-btn").onclick = () => send({ action_type: "navigate_back" });
  $("home-btn").onclick = () => send({ action_type: "navigate_home" });
  $("enter-btn").onclick = () => send({ action_type: "keyboard_enter" });
  $("wait-btn").onclick = () => send({ action_type: "wait" });
  $("scroll-up-btn").onclick = () => send({ action_type: "scroll", direction: "up" });
  $("scroll-down-btn").onclick = () => send({ action_type: "scroll", direction: "down" });
  $("open-btn").onclick = () => send({ action_type: "open_app",
                                       app_name: $("app-select").value });
  const type = () => {
    const text = $("type-text").value;
    if (!text) { showError("type some text first"); return; }
    send({ action_type: "input_text", text, clear_text: $("replace").checked })
      .then(() => { if (!$("error").textContent) $("type-text").value = ""; });
  };
  $("type-btn").onclick = type;
  $("type-text").addEventListener("keydown", (ev) => { if (ev.key === "Enter") type(); });
  $("complete-btn").onclick = () => send({ action_type: "status", goal_status: "complete" });
  $("infeasible-btn").onclick = () => send({ action_type: "status",
                                             goal_status: "infeasible" });
  $("answer-btn").onclick = () => {
    const text = $("answer-text").value;
    if (!text.trim()) { showError("write the answer first"); return; }
    send({ action_type: "answer", text });
  };
  $("tree-box").addEventListener("toggle", () => { if ($("tree-box").open) loadTree(); });
  $("task-input").addEventListener("keydown", (ev) => { if (ev.key === "Enter") reset(); });
}

async function main() {
  wireGestures();
  wireButtons();
  setBusy(true);
  try {
    pw.config = await api("GET", "/api/config");
    $("task-list").innerHTML = pw.config.tasks.map((t) => `<option value="${esc(t)}">`).join("");
    $("app-select").innerHTML = pw.config.apps.map((a) => `<option>${esc(a)}</option>`).join("");
    $("env-note").textContent = pw.config.env_id + (pw.config.record_dir ?
      ` · recording to ${pw.config.record_dir} as ${pw.config.agent}` : " · not recording");
    const q = new URLSearchParams(location.search);
    $("task-input").value = q.get("task") || pw.config.task || "";
    $("seed-input").value = q.get("seed") || pw.config.seed;
    pw.session = (await api("POST", "/api/sessions")).session;
    window.addEventListener("pagehide", () => {
      fetch(`/api/sessions/${pw.session}`, { method: "DELETE", keepalive: true });
    });
    setBusy(false);
    await reset();
  } catch (e) {
    showError(e.message);
  }
}

main();
