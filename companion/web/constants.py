"""Limits of the web app (units in the names)."""

from __future__ import annotations

# An upload larger than this is refused before it is decoded. A 12 MP phone JPEG is
# 3-8 MB and a HEIC half that; 25 MB leaves room for a 48 MP photo at high quality.
MAX_UPLOAD_BYTES = 25 * 1024 * 1024
MAX_PHOTOS_PER_UPLOAD = 8
# The largest request body any route reads: a full upload and its form fields.
MAX_UPLOAD_BODY_BYTES = MAX_UPLOAD_BYTES * MAX_PHOTOS_PER_UPLOAD + 64 * 1024
TOKEN_FILE = "lan-token"  # the --lan access token, kept in the data directory
JOIN_TOKEN_FILE = "join-token"  # the join link's token (remote players), next to it
# A connection has this long to send a request's headers (a phone on poor Wi-Fi needs well
# under a second); a connection that dawdles is closed (companion.web.protocol).
HEADER_DEADLINE_S = 5.0
# A request's head (request line and headers) larger than this is answered 431: h11's own
# cap for a head that arrives in pieces; a phone's is 1-2 KB.
MAX_HEAD_BYTES = 16 * 1024
# A request answered before its body was read (an upload refused for its form) has its
# body read and dropped for at most this long and MAX_UPLOAD_BODY_BYTES, so the client reads
# the answer instead of a reset; then the connection is closed.
DRAIN_DEADLINE_S = 30.0
# Every other form (a name, a correction, a pad, a Dulce state) fits in this many bytes;
# the routes that take photos check their own, larger cap (uploads.read_form).
MAX_FORM_BYTES = 256 * 1024
# An error's one line is cut here: a message may quote what the client sent (a path, a
# value), and a screenful of it is neither readable nor worth sending back.
MAX_ERROR_CHARS = 300
UPLOAD_PATHS = frozenset({"/delicious/upload", "/dice/upload", "/join/upload",
                          "/api/delicious/read",
                          "/api/dice/read", "/api/dice/cuts"})
# Worker threads pages run in (companion.web.workers); a page waiting on a busy store holds
# one of them for at most STORE_WAIT_S.
PAGE_WORKERS = 16
# How long a page waits for the store (a write lock held by another process, or the other
# pages' store calls) before answering 503 "the store is busy, try again".
STORE_WAIT_S = 3.0
# Worker processes reading photos: one per core on the 2-core machines game night runs on.
READER_PROCESSES = 2
SHEET_CACHE_ENTRIES = 24  # readings kept in memory (each holds a ~9 MP rectified page)
# players' kept drawings held parsed (each 0.1-4 MB; parsing one takes 20-110 ms, and a
# remote table's page reads every player's)
DRAWINGS_CACHE_ENTRIES = 128
OVERLAY_JPEG_QUALITY = 82
OVERLAY_MAX_SIDE_PX = 1600  # overlays are scaled down to this for phones
CROP_GROW_MM = 2.0  # context around a field's box in its review crop
TOKEN_BYTES = 24  # --lan access token: 192 bits from secrets
TOKEN_COOKIE = "companion_token"
# A long engine question (Dulce's best harvest or scoring order on a big kitchen) runs in
# a process of its own, stopped after THINK_LIMIT_S ("too big"); THINKERS at once, one a
# core; a page waits THINK_WAIT_S for the answer, then shows "still thinking" and looks
# again every THINK_POLL_S.
THINK_LIMIT_S = 20.0
THINKERS = 2
THINK_WAIT_S = 1.5
THINK_POLL_S = 1
# Photos admitted to the read queue (being read or waiting); more are answered 503 with
# Retry-After. About 20 s of waiting at PHOTO_READ_S a photo on READER_PROCESSES readers.
READ_QUEUE_PHOTOS = 24
PHOTO_READ_S = 1.7  # a photo read on one busy reader (tools/bench_load.py), for Retry-After
