"""The explorer's web app (Flask): the page, its script, the report charts and the JSON the
page asks for. Every error a user can cause comes back as ``{"error": one line}``; any
other failure is logged with its traceback on the server and shown as one line.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pyspiel

from analysis.explore import spots
from games.errors import FarolError

if TYPE_CHECKING:
    from flask import Flask

PAGE = Path(__file__).resolve().parent / "page"


def one_line(message: str) -> str:
    """``message`` on one line (newlines and runs of blanks as one space)."""
    return " ".join(str(message).split()) or "unknown error"


def create_app(reports: Path | None = None) -> Flask:
    """The app; ``reports`` is the folder of ``farol report``'s charts (none shown
    when it is ``None`` or holds none)."""
    # Flask is imported here, not with the module: every farol command imports the
    # command line, and only farol explore needs a web server.
    from flask import Flask, jsonify, request, send_from_directory
    from werkzeug.exceptions import HTTPException

    def _body() -> dict:
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            raise FarolError("the request must be a JSON object")
        return body

    app = Flask(__name__, static_folder=None)
    app.json.sort_keys = False
    charts = {f for files in spots.CHARTS.values() for f, _, _ in files}

    @app.get("/")
    def index():
        return send_from_directory(PAGE, "index.html")

    @app.get("/page/<name>")
    def page_file(name: str):
        return send_from_directory(PAGE, name)

    @app.get("/charts/<name>")
    def chart(name: str):
        if reports is None or name not in charts:
            return jsonify(error=f"no chart {name[:60]!r}"), 404
        return send_from_directory(Path(reports).resolve(), name)

    @app.get("/api/catalog")
    def catalog():
        out = spots.catalog()
        out["charts"] = sorted(f for f in charts
                               if reports is not None and (Path(reports) / f).is_file())
        return jsonify(out)

    @app.post("/api/moves")
    def moves():
        body = _body()
        state = spots.spot(body.get("game"), body.get("params"), body.get("history"))
        return jsonify(spots.describe(state))

    @app.post("/api/advice")
    def advice():
        body = _body()
        return jsonify(spots.advice_at(body.get("game"), body.get("params"),
                                       body.get("history"), body.get("options")))

    @app.post("/api/position")
    def position():
        body = _body()
        return jsonify(spots.advice_of_position(body.get("game"), body.get("fields")))

    @app.errorhandler(FarolError)
    @app.errorhandler(pyspiel.SpielError)
    def bad_input(exc):
        return jsonify(error=one_line(str(exc))), 400

    @app.errorhandler(HTTPException)
    def http_error(exc: HTTPException):
        return jsonify(error=one_line(f"{exc.code} {exc.name}: {exc.description}")), exc.code

    @app.errorhandler(Exception)
    def failure(exc: Exception):
        app.logger.exception("the explorer failed on %s", request.path)
        return jsonify(error=one_line(f"the explorer failed ({type(exc).__name__}: {exc}); "
                                      "the server's log has the details")), 500

    return app
