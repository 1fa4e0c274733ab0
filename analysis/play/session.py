"""``farol play``: a person plays a game in the terminal against bots.

The person sees only what their seat may see: the game's own rendering for that
seat (``GameEntry.render``) or, failing that, the seat's information-state
string, and the legal actions by name.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np
import pyspiel

from analysis.play.bots import make_bot, sample_chance
from analysis.play.coaching import Coach, Decision, coach_for, hint_lines, judge, review_lines
from games import catalog
from games.errors import InvalidParameterError


def _hint(spot: pyspiel.State, seat: int, advice: Future | None,
          note: str | None, silent: str | None = None) -> Callable[[], list[str]]:
    """The hint's lines at ``spot``, waiting for the coach's advice when it is not ready
    (``silent``: the coach's own words where it gives none)."""
    return lambda: hint_lines(spot, seat, None if advice is None else advice.result(), note,
                              silent)


def seat_view(state: pyspiel.State, seat: int) -> str:
    """What ``seat`` may see of ``state``."""
    name = state.get_game().get_type().short_name
    try:
        render = catalog.entry(name).render
    except KeyError:
        render = None
    if render is not None:
        return render(state, seat)
    game_type = state.get_game().get_type()
    if game_type.provides_information_state_string:
        return state.information_state_string(seat)
    if game_type.provides_observation_string:
        return state.observation_string(seat)
    return "(this game shows nothing to a seat)"


def seat_events(state: pyspiel.State) -> Callable | None:
    """The game's ``events(state, seat, start)`` (what a seat saw happen, in words), if
    it offers one."""
    try:
        return catalog.entry(state.get_game().get_type().short_name).events
    except KeyError:
        return None


def menu_code(i: int) -> str:
    """The letter code of the ``i``-th listed move: a-z, then aa, ab, ... (letters, so
    that numbers typed stay card numbers)."""
    code = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        code = chr(ord("a") + r) + code
    return code


def _words(text: str) -> list[str]:
    return text.casefold().replace("(", " ").replace(")", " ").split()


def match_move(answer: str, names: list[str]) -> int | list[int] | None:
    """Which listed move ``answer`` means: its letter code, its whole name, or a unique run
    of its words (``6`` or ``warrior 6`` for ``play warrior 6``), case and spacing aside.
    Returns the index, the indices it could mean (ambiguous), or ``None``."""
    folded = " ".join(answer.casefold().split())
    codes = [menu_code(i) for i in range(len(names))]
    if folded in codes:
        return codes.index(folded)
    exact = [i for i, name in enumerate(names) if " ".join(_words(name)) == folded]
    if len(exact) == 1:
        return exact[0]
    wanted = _words(answer)
    if not wanted:
        return None
    k = len(wanted)
    runs = [i for i, name in enumerate(names)
            if any(_words(name)[j:j + k] == wanted for j in range(len(_words(name)) - k + 1))]
    if len(runs) == 1:
        return runs[0]
    tails = [i for i in runs if _words(names[i])[-k:] == wanted]
    if len(tails) == 1:
        return tails[0]
    return runs or None


def ask_action(
    state: pyspiel.State,
    seat: int,
    read: Callable[[str], str],
    write: Callable[[str], None],
    hint: Callable[[], list[str]] | None = None,
) -> int | None:
    """Ask the person for one of ``seat``'s legal actions; ``None`` means quit. With
    ``hint``, typing ``hint`` shows its lines."""
    legal = state.legal_actions(seat)
    names = [state.action_to_string(seat, a) for a in legal]
    write("Your legal actions:")
    for i, label in enumerate(names):
        write(f"  {menu_code(i)}) {label}")
    prompt = ("Your move (its letter or name, hint, q to quit): " if hint is not None
              else "Your move (its letter or name, q to quit): ")
    while True:
        try:
            answer = read(prompt).strip()
        except EOFError:
            return None
        if answer.lower() in ("q", "quit", "exit"):
            return None
        if hint is not None and answer.lower() == "hint":
            for line in hint():
                write(line)
            continue
        found = match_move(answer, names)
        if isinstance(found, int):
            return legal[found]
        if found:
            write(f"{answer!r} could be: {', '.join(names[i] for i in found)}; type more of "
                  "the name or its letter.")
            continue
        last = menu_code(len(legal) - 1)
        write(f"{answer!r} is not one of your legal actions; type its letter (a to {last}) "
              "or its name.")


def play_game(
    game: pyspiel.Game,
    seat: int,
    opponent: str = "random",
    seed: int = 0,
    read: Callable[[str], str] = input,
    write: Callable[[str], None] = print,
) -> list[float] | None:
    """Play one game with a person at ``seat`` and bots elsewhere.

    Returns the final returns, or ``None`` if the person quit.
    """
    n = game.num_players()
    if not 0 <= seat < n:
        name = game.get_type().short_name
        raise InvalidParameterError(
            f"--seat: seat {seat} does not exist; {name} with these parameters has seats 0 to {n - 1}"
        )
    rng = np.random.default_rng(seed)
    bots = {p: make_bot(opponent, game, p, seed + 1 + p) for p in range(n) if p != seat}
    state = game.new_initial_state()
    shown = None
    events = seat_events(state)
    told = 0  # how far the events are told

    def tell() -> None:
        nonlocal told
        if events is not None:
            lines, told = events(state, seat, told)
            for line in lines:
                write(line)

    coach: Coach | None = coach_for(game)
    note = getattr(coach, "note", None)
    silent = getattr(coach, "silent", None)
    # The coach works while the person thinks: its advice for a spot is started when the
    # prompt shows, read by `hint`, and judged in the review at the end.
    pool = ThreadPoolExecutor(max_workers=1) if coach is not None else None
    pending: list[tuple[pyspiel.State, int, Future]] = []
    try:
        while not state.is_terminal():
            tell()
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            acting = (
                list(range(n)) if state.is_simultaneous_node() else [state.current_player()]
            )
            if seat in acting and len(state.legal_actions(seat)) > 0:
                view = seat_view(state, seat)
                if view != shown:
                    write("")
                    write(view)
                    shown = view
                hint, advice = None, None
                if coach is not None:
                    spot = state.clone()
                    if not state.is_simultaneous_node():
                        advice = pool.submit(coach, spot)
                    hint = _hint(spot, seat, advice, note, silent)
                human = ask_action(state, seat, read, write, hint)
                if human is None:
                    write("You left the game.")
                    return None
                if advice is not None:
                    pending.append((spot, human, advice))
            if state.is_simultaneous_node():
                joint = [
                    human if p == seat else (bots[p](state) if state.legal_actions(p) else 0)
                    for p in range(n)
                ]
                state.apply_actions(joint)
            else:
                player = state.current_player()
                state.apply_action(human if player == seat else bots[player](state))
        tell()
        decisions: list[Decision] = [judge(spot, seat, human, advice.result())
                                     for spot, human, advice in pending
                                     if advice.result() is not None]
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    write("")
    write(seat_view(state, seat))
    returns = state.returns()
    write("Game over. Returns: " + ", ".join(f"seat {p}: {r:+zg}" for p, r in enumerate(returns)))
    outcome = "won" if returns[seat] == max(returns) and returns[seat] > min(returns) else (
        "drew" if max(returns) == min(returns) else "lost"
    )
    write(f"You (seat {seat}) {outcome}.")
    for line in review_lines(decisions):
        write(line)
    return list(returns)
