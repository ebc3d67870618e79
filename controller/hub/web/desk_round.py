"""The desk's round page, built from ``rounds.round_view``: its head (the day's actions in the
order they come: send the round, start it, accept the results, print the lists, pair the next)
and its table, a row per table with labelled cells (what the board shows now, in moves as the
players count them; the board's result; the result recorded for the tournament) and the
actions that row needs (accept; for a dispute, uphold the board's result or correct it)."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from controller.tournament.hall_time import hall_time
from controller.tournament.tournament import Tournament

from .. import rounds
from ..accounts import Session
from .page import OUTCOME_WORDS, e, field, form, hidden, select, status_text

SIDES = {"blue": "Blue", "red": "Red"}


def live_text(row: dict[str, Any]) -> str:
    """What a board shows now, as a player would say it: ``Move 24, Blue to play; Blue 12,
    Red 3`` (a move is both players' turns: move 24 follows 46 turns; the running totals of
    the takings), ``Finished after 23 moves``, ``Setting up``."""
    phase, ply = row.get("phase"), row.get("ply") or 0
    if not phase:
        return ""
    totals = row.get("totals") or {}
    blue, red = totals.get("blue", "0"), totals.get("red", "0")
    score = f"; Blue {blue}, Red {red}" if blue or red else ""  # Dam and others: no score
    paused = "Paused · " if row.get("paused") else ""
    if phase == "setup":
        return "Setting up"
    if phase == "over":  # its totals are the board's result's, beside it
        moves = (ply + 1) // 2
        return f"Finished after {moves} move{'' if moves == 1 else 's'}"
    if not ply:
        return paused + "No move yet"
    to_move = row.get("to_move") or ("blue" if ply % 2 == 0 else "red")
    colours = row.get("colours") or []
    if to_move in colours:  # Dam's Black moves first, from Blue's seat
        to_move = ("blue", "red")[colours.index(to_move)]
    return f"{paused}Move {ply // 2 + 1}, {SIDES.get(to_move, to_move)} to play{score}"


def round_facts(
    t: Tournament, rows: list[dict[str, Any]], division: str, rnd: int
) -> dict[str, Any]:
    """Where the round stands, for the order of its actions."""
    games = [r for r in rows if r["red"] is not None and r["result"] is None]
    return {
        "unsent": [r["table"] for r in games if r["assignment"] is None],
        "sent": any(r["assignment"] for r in rows),
        "started": rounds.round_started(t, division, rnd),
        "complete": all(r["result"] is not None for r in rows) and bool(rows),
        "waiting": [
            r["table"]
            for r in games
            if r["status"] in ("received", "confirmed", "sent", "other-game")
        ],
    }


def round_head(
    t: Tournament,
    division: str,
    rnd: int,
    last: int,
    total: int,
    rows: list[dict[str, Any]],
    s: Session,
    logout: str,
) -> str:
    divisions = sorted(t.divisions())
    back = f"/desk?{urlencode({'division': division, 'round': rnd})}"
    links = " ".join(
        f'<a class="{"on" if n == rnd else ""}" '
        f'href="/desk?{e(urlencode({"division": division, "round": n}))}">{n}</a>'
        for n in range(1, last + 1)
    )
    divs = (
        " ".join(
            f'<a class="{"on" if d == division else ""}" '
            f'href="/desk?{e(urlencode({"division": d}))}">{e(d)}</a>'
            for d in divisions
        )
        if len(divisions) > 1
        else ""
    )
    out = f'<section class="head"><div>Division <b>{e(division)}</b> {divs}</div>'
    out += f"<div>Round {links or '(none paired yet)'} of {total or '?'}</div>"
    base = hidden("division", division) + hidden("round", rnd) + hidden("back", back)
    facts = round_facts(t, rows, division, rnd) if last else {}
    steps: list[str] = []
    if last and s.organiser:
        label = (
            f"Send round {rnd} to the boards"
            if facts["unsent"]
            else f"Send round {rnd} again (changed tables only)"
        )
        steps.append(
            form("/desk/publish", s.csrf, base, label, "" if facts["unsent"] else "inline")
        )
    if last and t.event.start == "desk" and facts["sent"]:
        if facts["started"]:
            steps.append(
                f'<span class="started">Round {rnd} started '
                f"{e(hall_time(facts['started'], date=False))}</span>"
            )
        else:
            steps.append(form("/desk/start", s.csrf, base, f"Start round {rnd}", "go"))
    if last and facts["sent"]:
        steps.append(form("/desk/accept-all", s.csrf, base, "Accept every finished board game"))
    if last:
        q = {"division": division, "round": rnd}
        prints = [
            ("pairings", "pairings"),
            ("find-table", "find your table"),
        ]
        if t.event.team_size:
            prints.append(("teams", "schools"))

        def print_links(lang: str) -> str:
            chosen = {"lang": lang} if lang else {}
            return " · ".join(
                f'<a target="_blank" href="/desk/print?{e(urlencode({**q, "what": w, **chosen}))}">'
                f"{e(text)}</a>"
                for w, text in prints
            )

        steps.append(
            f'<span class="print">Print: {print_links("")} '
            f"<small>(in Filipino: {print_links('fil')})</small>"
            "</span>"
        )
    if s.organiser and rnd >= last and last < (total or 10**6):
        if last == 0 or facts["complete"]:
            then = f"/desk?{urlencode({'division': division, 'round': last + 1})}"
            pair = hidden("division", division) + hidden("back", then)
            steps.append(form("/desk/pair", s.csrf, pair, f"Pair round {last + 1}"))
        else:
            steps.append(
                f'<span class="later">Pair round {last + 1}: once every table of round '
                f"{last} has a result</span>"
            )
    numbered = "".join(f'<li class="step">{x}</li>' for x in steps)
    out += f'<ol class="actions">{numbered}</ol>{logout}</section>'
    return out


def _proposal(r: dict[str, Any], base: str, s: Session) -> str:
    br = r["board_result"]
    if not br:
        return ""
    out = f"{e(OUTCOME_WORDS[br['outcome']])}"
    if br["blue"]:
        out += f" {e(br['blue'])} : {e(br['red'])}"
    pdn = f"/desk/pdn?{urlencode({'pairing': r['pairing']})}"
    if br["reason"]:  # on its own line, so a long reason never strands the link's separator
        out += f"<br><small>{e(br['reason'])}</small>"
    out += f'<br><small><a href="{e(pdn)}">PDN</a></small>'
    if r["status"] in ("to-accept", "differs"):
        out += form("/desk/accept", s.csrf, base, "Accept", "inline")
    return out


def _recorded(r: dict[str, Any]) -> str:
    res = r["result"]
    if not res:
        return ""
    out = e(OUTCOME_WORDS[res["outcome"]])
    if res["blue"]:
        out += f" {e(res['blue'])} : {e(res['red'])}"
    out += f"<br><small>{e(res['source'])}, {e(res['by'])}"
    out += f": {e(res['reason'])}" if res["reason"] else ""
    return out + "</small>"


def _result_form(base: str, s: Session, r: dict[str, Any], ruling: bool) -> str:
    """Record a result, or correct one; prefilled with the board's when it has one."""
    br = r["board_result"] or {}
    outcomes = [("", "result…")] + [(k, v) for k, v in OUTCOME_WORDS.items() if k != "bye"]
    scores = ""  # a game without scores (Dam, Dadama, English draughts): its result alone
    if r.get("scores", True):
        scores = field("blue", "Blue", br.get("blue", ""), size=6) + field(
            "red", "Red", br.get("red", ""), size=6
        )
    return form(
        "/desk/result",
        s.csrf,
        base
        + (hidden("ruling", "1") if ruling else "")
        + select("outcome", outcomes, br.get("outcome", ""), label="result")
        + scores
        + field("reason", "Reason", size=18, required=ruling)
        + '<label><input type="checkbox" name="decided" value="1"> '
        "arbiter's decision against the scores</label>",
        "Save",
    )


def _tools(r: dict[str, Any], base: str, boards: list[str], s: Session) -> str:
    if r["red"] is None:
        if r["result"] is None:
            return form("/desk/result", s.csrf, base + hidden("outcome", "bye"), "Record the bye")
        return ""
    if r["status"] == "disputed" and r["board_result"]:
        return (
            '<div class="ruling"><b>Rule on the dispute:</b>'
            + form(
                "/desk/uphold",
                s.csrf,
                base + field("note", "Note", size=16),
                "Uphold the board's result",
            )
            + "<details><summary>Correct the result…</summary>"
            + _result_form(base, s, r, ruling=True)
            + "</details></div>"
        )
    out = ""
    if r["status"] == "disputed":
        out += '<p class="ruling">Dispute: the game goes on; rule when it ends.</p>'
    return (
        out
        + "<details><summary>Record or correct</summary>"
        + _result_form(base, s, r, ruling=False)
        + "</details><details><summary>Move to another board</summary>"
        + form(
            "/desk/move",
            s.csrf,
            base
            + select("board", [(b, b) for b in boards if b != r["board"]], label="new board")
            + field("reason", "Reason", size=18, required=True),
            "Move",
        )
        + "</details>"
    )


def round_table(
    rows: list[dict[str, Any]], rnd: int, division: str, boards: list[str], s: Session
) -> str:
    back = f"/desk?{urlencode({'division': division, 'round': rnd})}"
    body = []
    for r in rows:
        pid = r["pairing"]
        base = hidden("pairing", pid) + hidden("back", back)
        board = e(r["board"] or "—")
        if r["board"]:
            board = f'<a href="/board/{e(r["board"])}">{board}</a>'
            board += "" if r["online"] else ' <span class="off">offline</span>'
            if r["moved"]:
                board += ' <span class="moved">moved</span>'
        status = f'<span class="st {e(r["status"])}">{e(status_text(r))}</span>'
        signing = r.get("signing")
        if signing is not None:
            if signing["signed"]:
                words = " and ".join(w.capitalize() for w in signing["signed"])
                status += f"<br><small>signed: {e(words)}</small>"
            link = f"/desk/table?{urlencode({'pairing': pid})}"
            label = f"evidence ({signing['disputes']})" if signing["disputes"] else "table"
            status += f'<br><small><a href="{e(link)}">{e(label)}</a></small>'
        red = e(r["red"]) if r["red"] is not None else "<i>bye</i>"
        body.append(
            (
                pid,
                [
                    e(r["table"]),
                    f'<span class="b">{e(r["blue"])}</span>',
                    f'<span class="r">{red}</span>',
                    board,
                    status,
                    f'<span class="live">{e(live_text(r))}</span>',
                    _proposal(r, base, s),
                    _recorded(r),
                    _tools(r, base, boards, s),
                ],
            )
        )
    head = [
        "Table",
        "Blue",
        "Red",
        "Board",
        "State",
        "On the board now",
        "Board's result",
        "Result for the tournament",
        "",
    ]
    labels = [*head[:-1], "Actions"]
    th = "".join(f"<th>{h}</th>" for h in head)
    trs = "".join(
        f'<tr data-pairing="{pid}">'
        + "".join(
            f'<td data-label="{e(label)}">{c}</td>' for label, c in zip(labels, cells, strict=True)
        )
        + "</tr>"
        for pid, cells in body
    )
    return (
        f'<div class="scroll"><table class="round" data-division="{e(division)}" '
        f'data-round="{rnd}"><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table></div>'
    )
