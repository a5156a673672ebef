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

function answer(xhrText, status) {
  try { return JSON.parse(xhrText); } catch (e) { return { error: `the server answered ${status}` }; }
}

function upload(form) {
  const bar = form.querySelector(".progress");
  const meter = bar.querySelector("progress");
  const text = bar.querySelector(".progress-text");
  const xhr = new XMLHttpRequest();
  bar.hidden = false;
  form.classList.add("busy");
  showError("");
  xhr.upload.onprogress = (e) => {
    if (e.lengthComputable) meter.value = Math.round((100 * e.loaded) / e.total);
  };
  // The phone's own name for this upload, to ask for its place in the read queue.
  const ticket = Array.from(crypto.getRandomValues(new Uint8Array(12)),
    (b) => b.toString(16).padStart(2, "0")).join("");
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
    if (xhr.status < 400 && doc.location) { window.location.assign(doc.location); return; }
    bar.hidden = true;
    form.classList.remove("busy");
    form.reset();
    showError(doc.error || `the server answered ${xhr.status}`);
  };
  xhr.onerror = () => {
    bar.hidden = true;
    form.classList.remove("busy");
    showError("the upload did not reach the server: check the Wi-Fi and try again");
  };
  xhr.open("POST", form.action);
  xhr.setRequestHeader("Accept", "application/json");
  const body = new FormData(form);
  body.append("ticket", ticket);
  xhr.send(body);
  meter.value = 0;
  text.textContent = "Uploading…";
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
  });
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

document.addEventListener("DOMContentLoaded", () => wire(document));
