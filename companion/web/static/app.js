// Game night pages: uploads with a progress bar, and forms that update the page in place.
// Everything works without this script too (plain form posts and redirects).
"use strict";

function showError(message) {
  const line = document.getElementById("error");
  if (!line) return;
  line.textContent = message;
  line.hidden = !message;
  if (message) line.scrollIntoView({ block: "center" });
}

async function swapMain(url) {
  const y = window.scrollY;
  const res = await fetch(url, { headers: { Accept: "text/html" } });
  const html = await res.text();
  const doc = new DOMParser().parseFromString(html, "text/html");
  const fresh = doc.getElementById("main");
  if (!fresh) { window.location.assign(url); return; }
  document.getElementById("main").replaceWith(fresh);
  history.replaceState(null, "", url.split("#")[0]);
  window.scrollTo(0, y);
  wire(fresh);
}

// The connection to the server: a "Reconnecting" banner while it is lost (the phone went
// offline, or a request found no server), cleared once /alive answers again. Works from
// this script alone: the service worker (sw.js) is an addition where the browser has one.
const PROBE_MS = 2000;
const connection = (() => {
  let probing = null;
  const waiting = new Set();
  const show = (down) => {
    const banner = document.getElementById("reconnecting");
    if (banner) banner.hidden = !down;
  };
  const stop = () => { if (probing) clearTimeout(probing); probing = null; };
  const back = () => {
    stop();
    show(false);
    Array.from(waiting).forEach((f) => f());
  };
  const probe = async () => {
    probing = null;
    if (navigator.onLine !== false) {
      try {
        await fetch("/alive", { cache: "no-store" });
        back();  // any answer, even a refusal, means the server is there
        return;
      } catch (e) { /* still gone */ }
    }
    probing = setTimeout(probe, PROBE_MS);
  };
  const lost = () => {
    show(true);
    if (!probing) probing = setTimeout(probe, PROBE_MS);
  };
  window.addEventListener("offline", lost);
  window.addEventListener("online", () => { stop(); probe(); });
  return { lost, whenBack: (f) => waiting.add(f), forget: (f) => waiting.delete(f) };
})();

function randomKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(12)),
    (b) => b.toString(16).padStart(2, "0")).join("");
}

function answer(xhrText, status) {
  try { return JSON.parse(xhrText); } catch (e) { return { error: `the server answered ${status}` }; }
}

function upload(form) {
  // The photos picked stay in this FormData until the server has them; the server keeps
  // the same bytes once, so a retry after a lost answer is answered with the first upload.
  const body = new FormData(form);
  const job = { form, body, tries: 0, again: null };
  if (form.pending && form.pending.again) connection.forget(form.pending.again);
  form.pending = job;
  send(job);
}

function send(job) {
  const { form, body } = job;
  const bar = form.querySelector(".progress");
  const meter = bar.querySelector("progress");
  const text = bar.querySelector(".progress-text");
  const xhr = new XMLHttpRequest();
  job.tries += 1;
  form.querySelector(".retry").hidden = true;
  bar.hidden = false;
  form.classList.add("busy");
  showError("");
  xhr.upload.onprogress = (e) => {
    if (e.lengthComputable) meter.value = Math.round((100 * e.loaded) / e.total);
  };
  // The phone's own name for this upload, to ask for its place in the read queue.
  const ticket = randomKey();
  let polling = null;
  const place = async () => {
    try {
      const res = await fetch(`/queue?ticket=${ticket}`, { headers: { Accept: "application/json" } });
      const doc = await res.json();
      if (doc.line && polling) text.textContent = doc.line;
    } catch (e) { /* the answer to the upload tells what happened */ }
  };
  const stop = () => { if (polling) clearInterval(polling); polling = null; };
  xhr.upload.onload = () => {
    meter.removeAttribute("value");
    text.textContent = "Reading the photo…";
    polling = setInterval(place, 1000);
    place();
  };
  xhr.onloadend = stop;
  xhr.onload = () => {
    const doc = answer(xhr.responseText, xhr.status);
    if (xhr.status < 400 && doc.location) { form.pending = null; window.location.assign(doc.location); return; }
    if (xhr.status === 503 || xhr.status === 429) {  // busy, or too many at once: kept
      later(job, Number(xhr.getResponseHeader("Retry-After")) || 5, doc.error);
      return;
    }
    bar.hidden = true;
    form.classList.remove("busy");
    form.pending = null;
    form.reset();
    showError(doc.error || `the server answered ${xhr.status}`);
  };
  xhr.onerror = () => wait(job);
  xhr.ontimeout = () => wait(job);
  xhr.open("POST", form.action);
  xhr.setRequestHeader("Accept", "application/json");
  body.set("ticket", ticket);
  xhr.send(body);
  meter.value = 0;
  text.textContent = "Uploading…";
}

function wait(job) {
  // The upload did not reach the server (or its answer did not come back): kept, and
  // sent again by itself as soon as the server answers.
  const { form } = job;
  if (form.pending !== job) return;
  form.querySelector(".progress").hidden = true;
  form.classList.remove("busy");
  const panel = form.querySelector(".retry");
  const n = job.body.getAll("photo").filter((f) => f && f.size).length;
  const what = n === 1 ? "1 photo" : `${n} photos`;
  panel.querySelector(".retry-text").textContent =
    `Not sent yet: ${what} waiting for the connection (tried ${job.tries}×). ` +
    "They go by themselves when it is back.";
  panel.hidden = false;
  job.again = () => {
    connection.forget(job.again);
    if (form.pending === job) send(job);
  };
  connection.whenBack(job.again);
  connection.lost();
}

function later(job, seconds, why) {
  // The server asked to try again in a moment: kept, and sent again then.
  const { form } = job;
  form.querySelector(".progress").hidden = true;
  form.classList.remove("busy");
  const panel = form.querySelector(".retry");
  panel.querySelector(".retry-text").textContent =
    `Not sent yet: ${why || "the server is busy"}. Sending again in ${seconds} s.`;
  panel.hidden = false;
  setTimeout(() => { if (form.pending === job && !panel.hidden) send(job); }, seconds * 1000);
}

function cancel(form) {
  const job = form.pending;
  if (job && job.again) connection.forget(job.again);
  form.pending = null;
  form.querySelector(".retry").hidden = true;
  form.reset();
}

async function inplace(form, submitter) {
  if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) return;
  form.classList.add("busy");
  try {
    const res = await fetch(form.action, {
      method: "POST", body: new FormData(form, submitter),
      headers: { Accept: "application/json" },
    });
    const doc = answer(await res.text(), res.status);
    if (!res.ok || !doc.location) { showError(doc.error || `the server answered ${res.status}`); return; }
    await swapMain(doc.location);
  } catch (e) {
    showError("the server did not answer: check the Wi-Fi and try again");
    connection.lost();
  } finally {
    form.classList.remove("busy");
  }
}

function wire(root) {
  root.querySelectorAll("form.upload").forEach((form) => {
    const inputs = form.querySelectorAll("input[type=file]");
    inputs.forEach((input) => input.addEventListener("change", () => {
      if (!input.files.length) return;
      // only the photos just picked go: the other way's earlier pick is dropped
      inputs.forEach((other) => { if (other !== input) other.value = ""; });
      upload(form);
    }));
    form.addEventListener("submit", (e) => { e.preventDefault(); upload(form); });
    form.querySelector(".retry-now").addEventListener("click", () => {
      if (form.pending) { connection.forget(form.pending.again); send(form.pending); }
    });
    form.querySelector(".retry-cancel").addEventListener("click", () => cancel(form));
  });
  root.querySelectorAll("button[data-share]").forEach(wireShare);
  root.querySelectorAll("form.inplace").forEach((form) => {
    form.addEventListener("submit", (e) => { e.preventDefault(); inplace(form, e.submitter); });
  });
  root.querySelectorAll("form[data-confirm]:not(.inplace)").forEach((form) => {
    form.addEventListener("submit", (e) => { if (!window.confirm(form.dataset.confirm)) e.preventDefault(); });
  });
  root.querySelectorAll("form.autosubmit select").forEach((sel) => {
    sel.addEventListener("change", () => sel.form.requestSubmit());
  });
}

function wireShare(button) {
  // The picture goes to the phone's share sheet (Web Share with files) where it takes
  // files; elsewhere the download link next to the button saves it. It is fetched ahead:
  // a share sheet opens only straight from the tap, not after waiting for the server.
  const link = button.closest(".share").querySelector("a.download");
  let file = null;
  const ready = fetch(link.href)
    .then((res) => (res.ok ? res.blob() : Promise.reject(new Error(`${res.status}`))))
    .then((blob) => { file = new File([blob], link.getAttribute("download"), { type: "image/png" }); return file; })
    .catch(() => null);
  button.hidden = false;
  button.addEventListener("click", async () => {
    const picture = file || await ready;
    if (picture && navigator.canShare && navigator.canShare({ files: [picture] })) {
      try {
        await navigator.share({ files: [picture], title: button.dataset.title, text: button.dataset.title });
        return;
      } catch (e) {
        if (e.name === "AbortError") return;  // the player closed the share sheet
      }
    }
    link.click();
  });
}

document.addEventListener("DOMContentLoaded", () => {
  wire(document);
  if (navigator.onLine === false) connection.lost();
  if (document.body.hasAttribute("data-offline-page")) {
    // the worker's stand-in for a page the server could not send: that page once it can
    connection.whenBack(() => {
      if (location.pathname.startsWith("/static/")) location.assign("/");
      else location.reload();
    });
    connection.lost();
  }
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js").catch(() => { /* the pages work without it */ });
  }
});
