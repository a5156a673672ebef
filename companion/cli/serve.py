"""``companion serve``: game night from the phones at the table.

The web stack (Starlette, uvicorn) is imported inside the command so other commands
start as fast without it.
"""

from __future__ import annotations

import signal
import socket
import sys
from urllib.parse import urlencode

import click

from companion.errors import CompanionError
from companion.web.constants import READ_QUEUE_PHOTOS

DEFAULT_PORT = 8000
# Connections the kernel holds for the server to accept: uvicorn's own default, so a burst
# of phones (or of half-open connections) is not refused or made to retry its SYN.
BACKLOG = 2048


class _ListenError(click.ClickException):
    exit_code = 2  # the documented code for unusable input, here the address


def _exit_on_term(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def _lan_address() -> str:
    """This machine's address on the local network (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.254.254.254", 1))
            return str(s.getsockname()[0])
        except OSError:
            return "127.0.0.1"


def public_origin(value: str) -> str:
    """``--public``'s value as an origin (``https://name[:port]``), or a one-line reason."""
    from urllib.parse import urlsplit

    from companion.web.security import host_name

    try:
        parts = urlsplit(value.strip())
        port = parts.port
    except ValueError:
        raise _ListenError(f"--public {value!r}: not a URL; give https://NAME") from None
    if parts.scheme != "https":
        raise _ListenError(f"--public {value!r}: must be an https:// URL (the address your "
                           f"TLS proxy or tunnel serves), such as https://night.example.org")
    name = host_name(parts.netloc)
    if (not name or parts.path not in ("", "/") or parts.query or parts.fragment
            or parts.username or "." not in name.strip(".")):
        raise _ListenError(f"--public {value!r}: give only the https://NAME your proxy "
                           f"serves, with no path, query or user")
    return f"https://{name}" + (f":{port}" if port and port != 443 else "")


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise _ListenError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.listen(BACKLOG)
    sock.set_inheritable(True)
    return sock


def shown_host(bind_host: str, *, public: bool) -> str:
    """The host part of the first printed URL. On all addresses that is this machine's LAN
    address for the phones, except with --public: there the first URL is for a browser on
    this machine, and only this machine's own names are answered to it."""
    if bind_host in ("0.0.0.0", "::"):
        shown = "127.0.0.1" if public else _lan_address()
    else:
        shown = bind_host
    return f"[{shown}]" if ":" in shown else shown


@click.command(name="serve")
@click.option("--host", default=None, help="Address to listen on [default: 127.0.0.1, "
              "or every interface with --lan].")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True,
              help="Port (0 picks a free one).")
@click.option("--data", "data", type=click.Path(file_okay=False), default=None,
              help="Data directory [default: $COMPANION_DATA, else the user data dir].")
@click.option("--lan", is_flag=True,
              help="Let phones on this Wi-Fi join: listen on every interface, require a "
                   "random access token, print the URL and its QR code.")
@click.option("--public", "public", metavar="https://NAME", default=None,
              help="Play over video: serve behind your own TLS reverse proxy or tunnel "
                   "that answers at https://NAME; only that name (and this machine) is "
                   "trusted. Prints the host link and the join link for remote players.")
@click.option("--new-token", is_flag=True,
              help="With --lan or --public: make new tokens for the host link and the join "
                   "link (every phone scans again); they are otherwise kept in the data "
                   "directory from one start to the next.")
@click.option("--read-queue", type=click.IntRange(1, 1000), default=READ_QUEUE_PHOTOS,
              show_default=True, metavar="PHOTOS",
              help="Photos that may wait for the readers; a phone beyond is answered "
                   "'busy, try again in N s'.")
def serve(host: str | None, port: int, data: str | None, lan: bool, public: str | None,
          new_token: bool, read_queue: int) -> None:
    """Serve the game-night pages and the JSON API. First line on stdout: serving at URL."""
    if lan and public:
        raise _ListenError("--lan and --public do not go together: --public already lets "
                           "anyone with a link in, through your proxy")
    if new_token and not (lan or public):
        raise click.UsageError("--new-token makes new links for --lan or --public; without "
                               "them the server needs no token")
    origin = public_origin(public) if public is not None else None
    import uvicorn

    from companion.store import Store
    from companion.web.app import create_app, join_link
    from companion.web.constants import JOIN_TOKEN_FILE, READER_PROCESSES, STORE_WAIT_S
    from companion.web.protocol import DeadlineH11Protocol
    from companion.web.readers import ReaderPool
    from companion.web.security import LOCAL_HOSTS, host_name, kept_token

    try:
        store = Store.open(data, wait_s=STORE_WAIT_S)
    except CompanionError as exc:
        click.echo(f"companion: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    # --public: the proxy or tunnel runs on this machine unless --host says otherwise.
    bind_host = host or ("0.0.0.0" if lan else "127.0.0.1")
    sock = _bind(bind_host, port)
    actual = sock.getsockname()[1]
    shown = shown_host(bind_host, public=origin is not None)
    try:
        token = kept_token(store.root, rotate=new_token) if lan or origin else None
        join_token = (kept_token(store.root, rotate=new_token, name=JOIN_TOKEN_FILE)
                      if token else None)
    except CompanionError as exc:
        click.echo(f"companion: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    url = join_link(f"http://{shown}:{actual}", token)
    base = origin or f"http://{shown}:{actual}"
    host_url = join_link(base, token)
    join_url = f"{base}/join?{urlencode({'t': join_token})}" if join_token else None
    readers = ReaderPool(READER_PROCESSES)
    # The names the server was started for: this machine's, the address it listens on and
    # the one it prints. Any other Host is a DNS-rebinding page, refused with 400. In
    # --public mode only the public name, and this machine's names for a request from this
    # machine (the host's own browser; the world comes through the proxy).
    if origin:
        hosts = frozenset({host_name(origin.removeprefix("https://")) or ""})
        loopback = frozenset(LOCAL_HOSTS) | ({bind_host.lower()} - {"0.0.0.0", "::"})
    else:
        hosts = frozenset({*LOCAL_HOSTS, bind_host.lower(), shown.strip("[]").lower()}
                          - {"0.0.0.0", "::"})
        loopback = frozenset()
    # The QR code on the pages: at the table every phone is the host's; over video the
    # camera shows the join link.
    qr_url = join_url if origin else url if lan else None
    app = create_app(store, token=token, join_url=qr_url, readers=readers,
                     allowed_hosts=hosts, read_queue=read_queue, join_token=join_token,
                     public=origin, loopback_hosts=loopback, host_url=host_url,
                     join_link_url=join_url)
    click.echo(f"serving at {url}")
    if origin:
        click.echo(f"host link (keep it to yourself): {host_url}")
    if lan or origin:
        import segno

        click.echo("Scan this with a phone on the same Wi-Fi:" if lan else
                   "The join link as a QR code (show it on the call):")
        segno.make(qr_url or url, error="m").terminal(out=sys.stdout, compact=True)
        click.echo(f"join link (remote players: their own sheets only): {join_url}")
    click.echo(f"data in {store.root}", err=True)
    sys.stdout.flush()
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                            timeout_graceful_shutdown=3, http=DeadlineH11Protocol)
    server = uvicorn.Server(config)
    # uvicorn stops gracefully on SIGTERM, then raises the signal again with the handler
    # that was there before it: this one turns it into an exit that still closes the
    # reader processes below (the default handler would end us at once, their semaphores
    # reported leaked).
    signal.signal(signal.SIGTERM, _exit_on_term)
    try:
        readers.warm()  # the first phone should not wait for models to load
        server.run(sockets=[sock])
    finally:
        readers.close()
        store.close()


if __name__ == "__main__":  # python -m companion.cli.serve (before it is wired into main)
    serve()
