"""``farol explore``: the strategy explorer, a local web app, in the browser.

It serves on localhost only, prints its address, opens the browser (unless
``--no-browser``) and runs until Ctrl-C.
"""

from __future__ import annotations

import argparse
import logging
import os
import socket
import sys
import webbrowser
from pathlib import Path

from analysis.cli.numbers import int_in
from analysis.cli.parser import add_examples
from analysis.explore.app import create_app
from games.errors import OutputError

HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def configure(parser: argparse.ArgumentParser) -> None:
    parser.description = (
        "The strategy explorer in the browser: pick a game and a spot, see the "
        "advice of farol advise there. It serves on localhost only, prints its address, opens "
        "the browser (unless --no-browser) and runs until Ctrl-C.")
    parser.add_argument("--port", type=int_in(0, 65535), default=DEFAULT_PORT,
                        help=f"port on localhost (default {DEFAULT_PORT}; 0 picks a free one)")
    parser.add_argument("--no-browser", action="store_true",
                        help="only print the address; do not open a browser")
    parser.add_argument("--reports", default="reports", metavar="DIR",
                        help="folder of farol report's charts shown beside the advice "
                        "(default reports/)")
    parser.set_defaults(func=run)
    add_examples(parser, "farol explore", "farol explore --port 8765 --no-browser")


def has_screen() -> bool:
    """Whether a graphical browser can open: on Linux only with a display (without one,
    Python's ``webbrowser`` would start a text browser in this terminal)."""
    if not sys.platform.startswith("linux"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def run(args: argparse.Namespace) -> int:
    from werkzeug.serving import make_server  # only this command needs a web server

    app = create_app(Path(args.reports))
    # The server's line per request is noise in the terminal; failures are still logged.
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    # The socket is bound here (werkzeug would print two lines and exit 1 on a port in use).
    try:
        with socket.create_server((HOST, args.port)) as listening:
            server = make_server(HOST, args.port, app, threaded=True, fd=listening.fileno())
    except OSError as exc:
        raise OutputError(f"--port {args.port}: cannot listen on {HOST} "
                          f"({exc.strerror or exc})") from None
    url = f"http://{HOST}:{server.port}/"
    print(f"Farol explorer at {url} (Ctrl-C stops it)", flush=True)
    if not args.no_browser and (not has_screen() or not webbrowser.open(url)):
        print("No browser to open here: open the address above in yours", flush=True)
    try:
        server.serve_forever()  # werkzeug's ends quietly on Ctrl-C
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    print("\nFarol explorer stopped", file=sys.stderr)
    return 0
