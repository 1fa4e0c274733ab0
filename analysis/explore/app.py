"""The explorer's web app (Flask): the page, its script, the report charts and the JSON the
page asks for. Every error a user can cause comes back as ``{"error": one line}`` that
does not repeat what they sent; any other failure is logged with its traceback on the
server and shown as one line. Solves run in worker processes
(:mod:`analysis.explore.worker`), with a time limit and stopped when their page goes.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pyspiel

from analysis.explore import spots
from analysis.explore.words import page_words, sent_texts, unechoed
from analysis.explore.worker import Failed, Solves, Stopped, connection_closed
from games.errors import FarolError

if TYPE_CHECKING:
    from flask import Flask

PAGE = Path(__file__).resolve().parent / "page"
MAX_BODY = 64 * 1024  # bytes in a request's body
MAX_DEPTH = 8  # arrays and objects inside one another in a request's JSON
TIME_LIMIT = 600.0  # seconds a solve may take
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')


def one_line(message: str) -> str:
    """``message`` on one line (newlines and runs of blanks as one space)."""
    return " ".join(str(message).split()) or "unknown error"


def depth(text: str) -> int:
    """How deep the arrays and objects of the JSON ``text`` nest (its strings skipped)."""
    deepest = level = 0
    for bracket in re.findall(r"[\[\]{}]", _STRINGS.sub("", text)):
        level += 1 if bracket in "[{" else -1
        deepest = max(deepest, level)
    return deepest


def _no_constant(name: str):
    raise ValueError(name)


def parse_body(data: bytes) -> dict:
    """The JSON object of a request's body; one line naming what is wrong otherwise."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise FarolError("the request must be a JSON object (in UTF-8)") from None
    if depth(text) > MAX_DEPTH:
        raise FarolError(f"the request's JSON nests deeper than {MAX_DEPTH} levels")
    try:
        body = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        body = None
    if not isinstance(body, dict):
        raise FarolError("the request must be a JSON object")
    return body


def missing_page() -> str:
    """The page for an address that names no game of the explorer."""
    links = "".join(f'<li><a href="/{html.escape(g.key)}">{html.escape(g.title)}</a></li>'
                    for g in spots.GAMES.values())
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            "<title>Not found - Farol explorer</title>"
            "<link rel=\"stylesheet\" href=\"/page/explore.css\"></head><body>"
            "<h1>Farol explorer</h1><p id=\"missing\">There is no such game or page here. "
            f"The explorer's games:</p><ul>{links}</ul></body></html>")


def create_app(reports: Path | None = None, solves: Solves | None = None) -> Flask:
    """The app; ``reports`` is the folder of ``farol report``'s charts (none shown
    when it is ``None`` or holds none); ``solves`` runs the solves (by default in two
    worker processes at most, each stopped after :data:`TIME_LIMIT` seconds)."""
    # Flask is imported here, not with the module: every farol command imports the
    # command line, and only farol explore needs a web server.
    from flask import Flask, jsonify, request, send_from_directory
    from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

    solves = solves if solves is not None else Solves(TIME_LIMIT)
    ours = spots.our_names()

    def _body() -> dict:
        request.environ["farol.body"] = body = parse_body(request.get_data(cache=True))
        return body

    def _tidy(message: str) -> str:
        """``message`` for the page: in its words, without what the request sent."""
        sent = sent_texts(request.environ.get("farol.body"))
        sent |= {p for p in request.path.split("/") if p}
        return one_line(unechoed(page_words(str(message)), sent, ours))

    def _solve(fn, *args) -> dict:
        sock = request.environ.get("werkzeug.socket")
        answer = solves.run(fn, args, lambda: connection_closed(sock))
        if "unavailable" in answer:
            answer["unavailable"] = _tidy(answer["unavailable"])
        return answer

    app = Flask(__name__, static_folder=None)
    app.json.sort_keys = False
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    app.extensions["farol.solves"] = solves
    charts = spots.CHART_FILES

    @app.get("/")
    def index():
        return send_from_directory(PAGE, "index.html")

    @app.get("/<game>")
    def game_page(game: str):
        if game not in spots.GAMES:
            return missing_page(), 404, {"Content-Type": "text/html; charset=utf-8"}
        return send_from_directory(PAGE, "index.html")

    @app.get("/page/<name>")
    def page_file(name: str):
        return send_from_directory(PAGE, name)

    @app.get("/charts/<name>")
    def chart(name: str):
        if reports is None or name not in charts:
            return jsonify(error="no such chart"), 404
        return send_from_directory(Path(reports).resolve(), name)

    @app.get("/api/catalog")
    def catalog():
        out = spots.catalog()
        out["charts"] = sorted(f for f in charts
                               if reports is not None and (Path(reports) / f).is_file())
        out["time_limit"] = solves.limit
        return jsonify(out)

    @app.get("/api/solves")
    def solving():
        return jsonify(running=solves.running(), time_limit=solves.limit)

    @app.post("/api/moves")
    def moves():
        body = _body()
        state = spots.spot(body.get("game"), body.get("params"), body.get("history"))
        return jsonify(spots.describe(state))

    @app.post("/api/advice")
    def advice():
        body = _body()
        return jsonify(_solve(spots.advice_at, body.get("game"), body.get("params"),
                              body.get("history"), body.get("options")))

    @app.post("/api/position")
    def position():
        body = _body()
        return jsonify(_solve(spots.advice_of_position, body.get("game"), body.get("fields")))

    @app.errorhandler(FarolError)
    @app.errorhandler(pyspiel.SpielError)
    def bad_input(exc):
        return jsonify(error=_tidy(str(exc))), 400

    @app.errorhandler(Stopped)
    def stopped(exc: Stopped):
        return jsonify(error=one_line(str(exc))), exc.status

    @app.errorhandler(Failed)
    def solve_failed(exc: Failed):
        app.logger.error("a solve failed on %s:\n%s", request.path, exc.details)
        return jsonify(error=one_line(f"{exc}; the server's log has the details")), 500

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(exc):
        return jsonify(error=f"the request is larger than {MAX_BODY // 1024} KB"), 413

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        return jsonify(error=one_line(f"{exc.code} {exc.name}: {exc.description}")), exc.code

    @app.errorhandler(Exception)
    def failure(exc: Exception):
        app.logger.exception("the explorer failed on %s", request.path)
        return jsonify(error=f"the explorer failed ({type(exc).__name__}); the server's "
                       "log has the details"), 500

    return app
