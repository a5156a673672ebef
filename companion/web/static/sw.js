// The service worker (registered by app.js where the browser allows it: https or
// localhost). It keeps the static shell so a dropped Wi-Fi shows the "Reconnecting" page
// instead of the browser's error, and never caches a page: pages carry the access token
// and players' data and are sent Cache-Control: no-store. Uploads and forms (POST) are
// never touched here; app.js keeps and retries them.
"use strict";

const CACHE = "companion-shell-1";
const OFFLINE = "/static/offline.html";
const SHELL = [OFFLINE, "/static/app.css", "/static/app.js", "/static/app.webmanifest",
  "/static/icon-192.png", "/static/icon-512.png", "/static/apple-touch-icon.png",
  "/favicon.ico"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === "navigate") {
    // the page itself always from the server; only when it cannot be reached, the
    // static "Reconnecting" page (it reloads the page asked for once the server answers)
    event.respondWith(fetch(req).catch(() => caches.match(OFFLINE)));
    return;
  }
  if (SHELL.includes(url.pathname)) {
    // the server's copy while it answers (so an update shows at once), the kept one without
    event.respondWith(fetch(req).then((res) => {
      if (res.ok) {
        const copy = res.clone();
        caches.open(CACHE).then((c) => c.put(url.pathname, copy));
      }
      return res;
    }).catch(() => caches.match(url.pathname).then((hit) => hit || Response.error())));
  }
});
