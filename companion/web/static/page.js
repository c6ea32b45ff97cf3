// The table's live page: follows the game through Server-Sent Events (/api/events) and,
// with a PIN set on the box, sends keys typed here to the table (/api/keys); on the
// players' page (/roster) it sends the names (/api/roster) the same way. A game's live view may name
// things to tap (data-tap) under an element saying which keys two taps type (data-tap-keys, with {from}
// and {to}): with the PIN, the first tap marks one, a tap on it again unmarks it, a tap on another sends
// those keys through the keypad's door (/api/keys); the player confirms at the box or on the keypad.
// Served by the box itself; no inline script (the page's Content-Security-Policy).
"use strict";
(function () {
  const live = document.getElementById("live");
  const status = document.getElementById("status");
  const title = document.getElementById("title");
  let shown = Number(document.body.dataset.version || 0);
  let csrf = null;
  let source = null;
  let picked = null;  // the first of two taps, marked (class tap-picked) until the second

  function say(text) { if (status) status.textContent = text || ""; }

  async function redraw(version) {
    const reply = await fetch("/api/view", { cache: "no-store" });
    if (!reply.ok) return;
    const view = await reply.json();
    live.innerHTML = view.html;  // HTML made and escaped by the box
    picked = null;  // the game moved on: a tap starts afresh
    shown = view.version;
    document.body.dataset.version = String(shown);
    if (title && view.title) title.dataset.game = view.title;
  }

  function follow() {
    source = new EventSource("/api/events");
    source.addEventListener("open", () => say(status.dataset.following));
    source.addEventListener("state", () => { redraw().catch(() => say(status.dataset.reconnecting)); });
    source.addEventListener("error", () => {
      say(status.dataset.reconnecting);
      if (source.readyState === EventSource.CLOSED) {  // refused (restart, too many): try again later
        source = null;
        setTimeout(follow, 3000);
      }
    });
  }

  const login = document.getElementById("login");
  const keypad = document.getElementById("keypad");
  const keysStatus = document.getElementById("keys-status") || document.getElementById("roster-status");
  const rosterForm = document.getElementById("roster-form");
  if (document.body.dataset.csrf) csrf = document.body.dataset.csrf;  // the roster page, opened with a session

  function locked(reply) {  // the session ended: ask for the PIN again
    if (reply.status !== 403) return;
    csrf = null;
    delete document.body.dataset.keys;
    pick(null);
    if (login) login.hidden = false;
    if (keypad) keypad.hidden = true;
    if (rosterForm) rosterForm.hidden = true;
  }

  if (login) {
    login.addEventListener("submit", async (event) => {
      event.preventDefault();
      const pin = document.getElementById("pin").value;
      const reply = await fetch("/api/login", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ pin }),
      });
      const answer = await reply.json().catch(() => ({}));
      if (reply.ok && answer.csrf) {
        if ("loginReload" in document.body.dataset) { location.reload(); return; }  // the history: its buttons
        csrf = answer.csrf;
        document.body.dataset.keys = "";  // the map's tap targets show they take taps (style.css)
        login.hidden = true;
        if (keypad) keypad.hidden = false;
        if (rosterForm) rosterForm.hidden = false;
        if (keysStatus) keysStatus.textContent = "";
      } else if (keysStatus) {
        keysStatus.textContent = answer.error || String(reply.status);
      }
    });
  }
  async function sendKeys(keys) {  // the keypad's keys and the map's taps: one door (session, CSRF header)
    const reply = await fetch("/api/keys", {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify({ keys }),
    });
    if (!reply.ok) {
      const answer = await reply.json().catch(() => ({}));
      keysStatus.textContent = answer.error || String(reply.status);
      locked(reply);
    } else {
      keysStatus.textContent = keys;
    }
  }
  if (keypad) {
    keypad.addEventListener("click", (event) => {
      const key = event.target.dataset && event.target.dataset.key;
      if (key && csrf) sendKeys(key).catch(() => { keysStatus.textContent = status.dataset.reconnecting; });
    });
  }

  function pick(target) {
    if (picked) picked.classList.remove("tap-picked");
    picked = target;
    if (picked) picked.classList.add("tap-picked");
  }
  if (live) {
    live.addEventListener("click", (event) => {
      if (!csrf || !event.target.closest) return;  // without the PIN nothing is tapped
      const target = event.target.closest("[data-tap]");
      const area = target && target.closest("[data-tap-keys]");
      if (!area) return;
      if (target === picked) { pick(null); return; }
      if (!picked || !area.contains(picked)) { pick(target); return; }
      const keys = area.dataset.tapKeys.replace("{from}", picked.dataset.tap).replace("{to}", target.dataset.tap);
      pick(null);
      sendKeys(keys).catch(() => { keysStatus.textContent = status.dataset.reconnecting; });
    });
  }
  if (rosterForm) {  // the players' names: one a line, sent like the keys (session, CSRF header)
    const rosterStatus = document.getElementById("roster-status");
    rosterForm.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (!csrf) { locked({ status: 403 }); return; }
      const names = document.getElementById("roster-text").value.split("\n").map((n) => n.trim()).filter((n) => n);
      const reply = await fetch("/api/roster", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify({ names }),
      });
      const answer = await reply.json().catch(() => ({}));
      if (reply.ok) {
        rosterStatus.textContent = rosterStatus.dataset.saved;
        const list = document.createElement("ol");
        list.id = "roster-names";
        for (const name of answer.roster || []) {
          const item = document.createElement("li");
          item.textContent = name;
          list.appendChild(item);
        }
        const shown = document.getElementById("roster-names");
        if (shown) shown.replaceWith(list);
      } else {
        rosterStatus.textContent = answer.error || String(reply.status);
        locked(reply);
      }
    });
  }
  const cameraTaps = document.getElementById("camera-taps");
  if (cameraTaps) {  // the camera's corners: four taps on its picture, in its own pixels, sent like the names
    const picture = document.getElementById("camera-picture");
    const save = document.getElementById("camera-save");
    const cameraStatus = document.getElementById("camera-status");
    let corners = [];
    function mark() {
      for (const dot of cameraTaps.querySelectorAll(".corner")) dot.remove();
      corners.forEach(([x, y], i) => {
        const dot = document.createElement("span");
        dot.className = "corner";
        dot.textContent = String(i + 1);
        dot.style.left = (100 * x / picture.naturalWidth) + "%";
        dot.style.top = (100 * y / picture.naturalHeight) + "%";
        cameraTaps.appendChild(dot);
      });
      save.disabled = corners.length !== 4;
    }
    picture.addEventListener("error", () => { cameraStatus.textContent = cameraStatus.dataset.none; });
    picture.addEventListener("click", (event) => {
      if (corners.length >= 4 || !picture.naturalWidth) return;
      const box = picture.getBoundingClientRect();
      corners.push([(event.clientX - box.left) * picture.naturalWidth / box.width,
                    (event.clientY - box.top) * picture.naturalHeight / box.height]);
      mark();
    });
    document.getElementById("camera-again").addEventListener("click", () => { corners = []; mark(); });
    save.addEventListener("click", async () => {
      if (!csrf || corners.length !== 4) return;
      const reply = await fetch("/api/camera/corners", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
        body: JSON.stringify({ corners: corners.flat() }),
      });
      const answer = await reply.json().catch(() => ({}));
      cameraStatus.textContent = reply.ok ? cameraStatus.dataset.saved : (answer.error || String(reply.status));
      if (!reply.ok) locked(reply);
    });
  }
  const updateSend = document.getElementById("update-send");
  if (updateSend) {  // an update bundle: sent with its progress, then the box's own progress until it restarts
    const file = document.getElementById("update-file");
    const bar = document.getElementById("update-progress");
    const updateStatus = document.getElementById("update-status");
    async function watchUpdate() {
      try {
        const answer = await (await fetch("/api/update", { cache: "no-store" })).json();
        const s = answer.status || {};
        bar.value = s.percent || 0;
        updateStatus.textContent = s.state + (s.percent !== undefined ? " " + s.percent + "%" : "")
          + (s.message ? ": " + s.message : "");
        if (s.state === "failed" || s.state === "refused") return;
      } catch (e) {
        updateStatus.textContent = "restarting…";
      }
      setTimeout(watchUpdate, 2000);
    }
    updateSend.addEventListener("click", () => {
      if (!csrf || !file.files.length) return;
      const xhr = new XMLHttpRequest();
      xhr.open("POST", "/api/update");
      xhr.setRequestHeader("X-CSRF-Token", csrf);
      xhr.setRequestHeader("Content-Type", "application/octet-stream");
      bar.hidden = false;
      xhr.upload.addEventListener("progress", (event) => {
        if (event.lengthComputable) bar.value = Math.floor(100 * event.loaded / event.total);
      });
      xhr.addEventListener("load", () => {
        let answer = {};
        try { answer = JSON.parse(xhr.responseText); } catch (e) { /* not JSON */ }
        if (xhr.status === 202) { updateStatus.textContent = answer.offered; watchUpdate(); }
        else updateStatus.textContent = answer.error || String(xhr.status);
      });
      xhr.addEventListener("error", () => { updateStatus.textContent = "the upload stopped"; });
      xhr.send(file.files[0]);
    });
  }
  if (live) follow();
})();
