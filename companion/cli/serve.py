"""``companion serve``: game night from the phones at the table.

The web stack (Starlette, uvicorn) is imported inside the command so other commands
start as fast without it.
"""

from __future__ import annotations

import signal
import socket
import sys

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
@click.option("--new-token", is_flag=True,
              help="With --lan: make a new access token (every phone scans again); the token "
                   "is otherwise kept in the data directory from one start to the next.")
@click.option("--read-queue", type=click.IntRange(1, 1000), default=READ_QUEUE_PHOTOS,
              show_default=True, metavar="PHOTOS",
              help="Photos that may wait for the readers; a phone beyond is answered "
                   "'busy, try again in N s'.")
def serve(host: str | None, port: int, data: str | None, lan: bool, new_token: bool,
          read_queue: int) -> None:
    """Serve the game-night pages and the JSON API. First line on stdout: serving at URL."""
    import uvicorn

    from companion.store import Store
    from companion.web.app import create_app, join_link
    from companion.web.constants import READER_PROCESSES, STORE_WAIT_S
    from companion.web.protocol import DeadlineH11Protocol
    from companion.web.readers import ReaderPool
    from companion.web.security import LOCAL_HOSTS, kept_token

    try:
        store = Store.open(data, wait_s=STORE_WAIT_S)
    except CompanionError as exc:
        click.echo(f"companion: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    bind_host = host or ("0.0.0.0" if lan else "127.0.0.1")
    sock = _bind(bind_host, port)
    actual = sock.getsockname()[1]
    shown = _lan_address() if bind_host in ("0.0.0.0", "::") else bind_host
    if ":" in shown:
        shown = f"[{shown}]"
    try:
        token = kept_token(store.root, rotate=new_token) if lan else None
    except CompanionError as exc:
        click.echo(f"companion: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    url = join_link(f"http://{shown}:{actual}", token)
    readers = ReaderPool(READER_PROCESSES)
    # The names the server was started for: this machine's, the address it listens on and
    # the one it prints. Any other Host is a DNS-rebinding page, refused with 400.
    hosts = frozenset({*LOCAL_HOSTS, bind_host.lower(), shown.strip("[]").lower()}
                      - {"0.0.0.0", "::"})
    app = create_app(store, token=token, join_url=url if lan else None, readers=readers,
                     allowed_hosts=hosts, read_queue=read_queue)
    click.echo(f"serving at {url}")
    if lan:
        import segno

        click.echo("Scan this with a phone on the same Wi-Fi:")
        segno.make(url, error="m").terminal(out=sys.stdout, compact=True)
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
