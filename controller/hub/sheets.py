"""A table's scoresheet and game record as the tournament keeps them, for the desk's reprint and
the archive alike: the board's own sheet and PDN, with the event's name, round, table and date
(the tournament's: the PDN's ``Date`` and the sheet's are the event's date), and the result
recorded for the tournament beside the board's own whenever an arbiter accepted, corrected or
typed it (who, when, why). A correction never rewrites the board's record: the sheet frames the
recorded result above the board's, the PDN's ``Result`` is the recorded one and
``BoardResult`` keeps the board's.
"""

from __future__ import annotations

import re
from dataclasses import replace
from html import escape
from typing import Any

from controller.i18n import N_, _, language
from controller.link.gamestate import rebuild
from controller.rules import pdn_text
from controller.scoresheet.html import render_html
from controller.scoresheet.model import Event as SheetEvent
from controller.scoresheet.model import Player as SheetPlayer
from controller.scoresheet.typeset import typeset
from controller.tournament import boards as seating
from controller.tournament.games import GAMES
from controller.tournament.hall_time import hall_time
from controller.tournament.model import GameResult, Pairing, ResultRecord
from controller.tournament.tournament import Tournament

from .board_results import BoardResult, board_result
from .feeds import Feeds
from .game_sheet import Sheet as OtherSheet
from .game_sheet import render as render_other
from .rounds import score_text
from .store import Store

RESULT_WORDS = {
    "blue": N_("Blue wins"),
    "red": N_("Red wins"),
    "draw": N_("Draw"),
    "blue-forfeit": N_("Blue wins by forfeit"),
    "red-forfeit": N_("Red wins by forfeit"),
    "double-forfeit": N_("Both forfeit"),
    "bye": N_("Bye"),
}
PDN_RESULT = {
    "blue": "1-0",
    "red": "0-1",
    "draw": "1/2-1/2",
    "blue-forfeit": "1-0",
    "red-forfeit": "0-1",
    "double-forfeit": "0-0",
}
EVENT_TAGS = (
    "Event", "Site", "Date", "Division", "Round", "Board", "BoardId", "Game",
    "BlueFedId", "RedFedId",
)  # fmt: skip
"""The tags the tournament sets on a board's game; every other line is the board's own."""
RESULT_TAGS = ("Result", "BoardResult", "ResultNote")
"""Set only where the recorded result is not the board's (a correction)."""


def result_text(r: GameResult, variant: str, printed: bool = False) -> str:
    """``Blue wins -5 : 6``, ``Red wins by forfeit``, in the language in force; ``printed``:
    the scores typeset as the sheet writes them (``−5``)."""
    text = _(RESULT_WORDS[r.outcome])
    if r.blue_score is not None:
        blue, red = score_text(r.blue_score, variant), score_text(r.red_score, variant)
        if printed:
            blue, red = typeset(blue), typeset(red)
        text += f" {blue} : {red}"
    return text


def latest(t: Tournament, pairing: int) -> ResultRecord | None:
    """The result in force for a pairing (its newest record), or None."""
    found = None
    for r in t.result_records():
        if r.pairing == pairing:
            found = r
    return found


def counted(store: Store, t: Tournament, p: Pairing) -> BoardResult | None:
    """The board game that is the pairing's (the last one its board finished under it)."""
    dispatch = seating.dispatches(t).get(p.id)
    return None if dispatch is None else board_result(store, dispatch.board, dispatch.assignment)


def differs(record: ResultRecord | None, found: BoardResult | None) -> bool:
    """The tournament's result is not the board's (a correction, or typed over a game)."""
    return record is not None and found is not None and record.result != found.result()


def tournament_lines(
    t: Tournament, record: ResultRecord | None, found: BoardResult | None
) -> list[str]:
    """What the sheet says of the tournament's result: the result first; accepted as the
    board's, or recorded by someone and why, with the board's own beside it."""
    if record is None:
        return []
    variant = t.event.variant
    said = result_text(record.result, variant, printed=True)
    lines = [_("Result for the tournament: {result}").format(result=said)]
    when = hall_time(record.at)  # the hall's time, its zone named
    if found is not None and not differs(record, found):
        lines.append(
            _("Accepted as the board recorded it ({by}, {when}).").format(by=record.by, when=when)
        )
        return lines
    lines.append(
        _("Recorded by {by}, {when}: {reason}").format(
            by=record.by, when=when, reason=record.reason or _("no reason given")
        )
    )
    if found is not None:
        lines.append(
            _("The board recorded: {result} ({why}).").format(
                result=result_text(found.result(), variant, printed=True), why=found.text
            )
        )
    return lines


def _sheet_event(t: Tournament, p: Pairing) -> SheetEvent:
    return SheetEvent(t.event.name, str(p.round), str(p.table), t.event.date)


def _sheet_players(t: Tournament, p: Pairing) -> tuple[SheetPlayer, SheetPlayer]:
    players = t.players()
    out = []
    for pid in (p.blue, p.red):
        q = players.get(pid) if pid is not None else None
        out.append(SheetPlayer(q.name, q.school, q.grade, q.fed_id) if q else SheetPlayer())
    return out[0], out[1]


def game_sheet(store: Store, t: Tournament, p: Pairing, row: dict[str, Any]) -> str | None:
    """One board game of the pairing as a printed sheet (None: nothing to print), with the
    tournament's event and players, and its recorded result if it is the game that counts."""
    state = rebuild(store.records(row["board_id"], row["game_id"]))
    sheet = state.sheet()
    found = counted(store, t, p)
    lines: list[str] = []
    if found is not None and found.game == row["game_id"] and found.board == row["board_id"]:
        lines = tournament_lines(t, latest(t, p.id), found)
    elif found is None and typed_over(t, p, row, latest(t, p.id)):
        lines = tournament_lines(t, latest(t, p.id), None)  # typed over the unfinished game
    if sheet is None:
        exported = state.export() if state.other is not None else None
        return None if exported is None else other_sheet(t, p, row, exported, lines)
    sheet = replace(sheet, event=_sheet_event(t, p), players=_sheet_players(t, p))
    return render_html(sheet, tournament=lines)


def other_sheet(
    t: Tournament, p: Pairing, row: dict[str, Any], exported: tuple[str, str], lines: list[str]
) -> str:
    """Another game's printed sheet (``game_sheet``): its record as the board exported it, the
    tournament's event and players, the first mover's colour in Blue's place."""
    kind, text = exported
    game = GAMES[t.division(p.division).game]
    colours = ((row.get("summary") or {}).get("picture") or {}).get("colours") or []
    said = tuple(_(str(c).capitalize()) for c in colours) if len(colours) == 2 else ()
    blue, red = _sheet_players(t, p)
    meta = [
        t.event.name,
        t.event.date,
        t.event.venue,
        _("division {name}").format(name=p.division),
        _("board {board}, game {game}").format(board=row["board_id"], game=row["game_id"]),
    ]
    return render_other(
        OtherSheet(
            title=_(game.title),
            heading=_("Round {round}, table {table}").format(round=p.round, table=p.table),
            meta=meta,
            colours=(said[0], said[1]) if said else (_("Blue"), _("Red")),
            players=(_with_id(blue.name, blue.fed_id), _with_id(red.name, red.fed_id)),
            kind=kind,
            text=text,
            lines=lines,
        )
    )


def _with_id(name: str, fed_id: str) -> str:
    return _("{name} (federation ID {id})").format(name=name, id=fed_id) if fed_id else name


def typed_over(t: Tournament, p: Pairing, row: dict[str, Any], record: ResultRecord | None) -> bool:
    """``row`` is a game the board did not finish under the pairing (a board that broke, a
    game abandoned) and the pairing's result was recorded by hand, no board game counting:
    every copy of that game's record carries the recorded result, as a correction does."""
    if record is None or record.result.source == "board" or row.get("assignment_id") is None:
        return False
    if ((row.get("summary") or {}).get("phase")) == "over":
        return False
    return any(d.assignment == row["assignment_id"] for d in seating.history(t, p.id))


def typed_sheet(t: Tournament, p: Pairing, unfinished: bool = False) -> str:
    """A page for a game with no board record to print (recorded by hand, or not played);
    ``unfinished``: the board's game of the table did not finish (its moves are in its PDN)."""
    players = t.players()
    names = (
        _with_id(players[p.blue].name, players[p.blue].fed_id),
        _with_id(players[p.red].name, players[p.red].fed_id) if p.red is not None else "",
    )
    record = latest(t, p.id)
    if record is None:
        shown = _("No result yet.")
    else:
        shown = _("{result} (recorded by {by}{why})").format(
            result=result_text(record.result, t.event.variant),
            by=record.by,
            why=f": {record.reason}" if record.reason else "",
        )
    meta = " · ".join(x for x in (t.event.name, t.event.date, t.event.venue) if x)
    title = _("Round {round}, table {table}").format(round=p.round, table=p.table)
    blue, red = _("Blue"), _("Red")
    by_hand = _("No board record: the result was recorded by hand.")
    if unfinished:
        by_hand = _(
            "The board's game did not finish: the result was recorded by hand. The moves the "
            "board recorded are in the game's PDN, with this result."
        )
    if record is not None and record.result.source == "board":  # a game with no printed sheet
        by_hand = _("The board's result, accepted; the board's record is not at the hub.")
    return (
        f'<section class="typed"><h1>{escape(title)}</h1>'
        f"<p>{escape(meta)}</p>"
        f"<p>{escape(blue)}: {escape(names[0])}<br>{escape(red)}: {escape(names[1])}</p>"
        f"<p><b>{escape(shown)}</b></p>"
        f"<p>{escape(by_hand)}</p>"
        "</section>"
    )


def table_sheet(store: Store, t: Tournament, p: Pairing) -> str:
    """The desk's reprint: the game that counts (else the last game played under the table's
    assignment), or a typed page."""
    dispatch = seating.dispatches(t).get(p.id)
    rows = []
    if dispatch is not None:
        rows = [
            g
            for g in store.games(board=dispatch.board)
            if g["assignment_id"] == dispatch.assignment
        ]
    found = counted(store, t, p)
    chosen = [g for g in rows if found is not None and g["game_id"] == found.game] or rows[-1:]
    for row in chosen:
        page = game_sheet(store, t, p, row)
        if page is not None:
            return page
    return one_document(
        [typed_sheet(t, p)], _("Round {round}, table {table}").format(round=p.round, table=p.table)
    )


def tagged_pdn(feeds: Feeds, store: Store, row: dict[str, Any], t: Tournament, p: Pairing) -> str:
    """The board's own PDN with the event's tags set: event, site, date, division, round, the
    table (``Board``, as PDN numbers a table) and the board's id (``BoardId``), the game id,
    and the players as the tournament names them. A tag the board wrote is replaced in place
    (no tag twice); the moves stay the board's. For the game that counts, a result recorded
    otherwise than the board's becomes ``Result`` (and the game's last token), the board's
    own stays as ``BoardResult`` and the reason as ``ResultNote``."""
    text = feeds.game_pdn(row)
    if not text:
        return ""
    pdn = pdn_text.read(text)
    tags = dict(pdn.tags)
    players = t.players()
    wanted = {
        "Event": t.event.name,
        "Site": t.event.venue,
        "Date": t.event.date.replace("-", "."),
        "Division": p.division,
        "Round": str(p.round),
        "Board": str(p.table),
        "BoardId": str(row["board_id"]),
        "Game": str(row["game_id"]),
    }
    # another game's PDN names its sides by its own colours (Dam's and English draughts'
    # Black moves first): the first mover's is Blue's at the tournament's table
    colours = ((row.get("summary") or {}).get("picture") or {}).get("colours") or []
    for n, (side, pid) in enumerate((("Blue", p.blue), ("Red", p.red))):
        q = players.get(pid) if pid is not None else None
        own = str(colours[n]).capitalize() if len(colours) == 2 else ""
        if q is not None and own in tags:
            wanted[own] = q.name
        if q is not None:
            wanted[side] = q.name
            wanted[f"{side}School"] = q.school
            wanted[f"{side}Grade"] = q.grade
            wanted[f"{side}FedId"] = q.fed_id  # as PGN's WhiteFideId (docs/federation.md)
    for key, value in wanted.items():
        if value:
            tags[key] = value
    body = recorded_result(store, t, p, row, tags, pdn.body)
    order = [k for k in EVENT_TAGS if k in tags] + [k for k in tags if k not in EVENT_TAGS]
    return "\n".join(pdn_text.tag_lines((k, tags[k]) for k in order) + body)


def recorded_result(
    store: Store, t: Tournament, p: Pairing, row: dict[str, Any], tags: dict[str, str],
    body: list[str],
) -> list[str]:  # fmt: skip
    """For the game that counts, a result recorded otherwise than the board's (a correction,
    or typed over it): ``Result`` (and the game's last token) become it, the board's own stays
    as ``BoardResult`` and the reason as ``ResultNote`` (``tags`` changed in place); the body
    as it is otherwise. Every copy of a game's PDN (a table's, the archive's, the round's
    feed) says the same."""
    record = correction(store, t, p, row)
    if record is None:
        return body
    board_token = tags.get("Result", "*")
    new_token = PDN_RESULT[record.result.outcome]
    tags["BoardResult"] = board_token
    tags["Result"] = new_token
    tags["ResultNote"] = (
        f"{result_text(record.result, t.event.variant)}; {record.by}: {record.reason}"[:200]
    )
    return _last_token(body, board_token, new_token)


def correction(store: Store, t: Tournament, p: Pairing, row: dict[str, Any]) -> ResultRecord | None:
    """The result recorded for the pairing when ``row`` is the game that counts for it and
    the record says otherwise than the board (a correction, or typed over it); else None."""
    found = counted(store, t, p)
    record = latest(t, p.id)
    if found is None and record is not None and record.result.outcome in PDN_RESULT:
        return record if typed_over(t, p, row, record) else None
    if (
        record is None
        or found is None
        or (found.board, found.game) != (row["board_id"], row["game_id"])
        or not differs(record, found)
        or record.result.outcome not in PDN_RESULT
    ):
        return None
    return record


def corrections(store: Store, t: Tournament) -> dict[tuple[str, str], dict[str, str]]:
    """Every board game whose table's result was recorded otherwise than the board's (an
    arbiter's correction, a result typed over the game): ``(board, game)`` -> the recorded
    result (PDN's token), its words, who and why, for the live walls' cards. Only results not
    taken from a board are compared with the boards' games."""
    newest: dict[int, ResultRecord] = {}
    for r in t.result_records():
        newest[r.pairing] = r
    pairings = {p.id: p for p in t.pairings()}
    out: dict[tuple[str, str], dict[str, str]] = {}
    for pid, record in newest.items():
        p = pairings.get(pid)
        if p is None or record.result.source == "board" or record.result.outcome not in PDN_RESULT:
            continue
        found = counted(store, t, p)
        if found is not None and differs(record, found):
            out[(found.board, found.game)] = {
                "result": PDN_RESULT[record.result.outcome],
                "text": result_text(record.result, t.event.variant),
                "by": record.by,
                "reason": record.reason,
            }
    return out


FeedRow = tuple[dict[str, Any], Pairing | None]


def _feed_pairings(t: Tournament | None, store: Store, number: int) -> list[FeedRow]:
    """The round's games, each with its table's pairing (None without a tournament's)."""
    pairings = {q.id: q for q in t.pairings()} if t is not None else {}
    out: list[FeedRow] = []
    for row in store.games(round_number=number):
        asg = row["assignment_id"]
        dispatch = seating.by_assignment(t, asg) if t is not None and asg else None
        out.append((row, pairings.get(dispatch.pairing) if dispatch is not None else None))
    return out


def round_feed_json(
    feeds: Feeds, store: Store, t: Tournament | None, number: int
) -> dict[str, Any]:
    """A round's JSON feed (``/feeds/rounds/N.json``): each game as the board has it, and a
    game whose table's result was recorded otherwise with ``recorded``: that result (PDN's
    token), who recorded it and why."""
    feed = feeds.round_json(number)
    for game, (row, pairing) in zip(feed["games"], _feed_pairings(t, store, number), strict=True):
        record = correction(store, t, pairing, row) if t is not None and pairing else None
        if record is not None and t is not None:
            game["recorded"] = {
                "result": PDN_RESULT[record.result.outcome],
                "text": result_text(record.result, t.event.variant),
                "by": record.by,
                "reason": record.reason,
            }
    return feed


def round_feed_pdn(feeds: Feeds, store: Store, t: Tournament | None, number: int) -> str:
    """A round's public feed (``/feeds/rounds/N.pdn``): every game of the round tagged for the
    feed, and a game whose table's result was recorded otherwise carrying that result, the
    board's and the reason (``recorded_result``), as the sheet and the archive do."""
    texts = []
    for row, pairing in _feed_pairings(t, store, number):
        text = feeds.game_pdn(row, store.event_name)
        if text and t is not None and pairing is not None:
            pdn = pdn_text.read(text)
            tags = dict(pdn.tags)
            body = recorded_result(store, t, pairing, row, tags, pdn.body)
            if body is not pdn.body:  # corrected: the feed says the recorded result
                text = "\n".join(pdn_text.tag_lines(tags.items()) + body)
        if text:
            texts.append(text)
    return "\n".join(texts)


def _last_token(body: list[str], old: str, new: str) -> list[str]:
    """The movetext's game-termination token, the last word of the last line that has words."""
    out = list(body)
    for i in range(len(out) - 1, -1, -1):
        words = out[i].rstrip().split(" ")
        if words and words[-1]:
            if words[-1] == old:
                words[-1] = new
                out[i] = " ".join(words)
            break
    return out


def one_document(pages: list[str], title: str) -> str:
    """Scoresheet pages (whole HTML documents, or sections) as one printable document, a page
    each."""
    styles: list[str] = []
    bodies: list[str] = []
    for page in pages:
        if "<body>" in page:
            head, _sep, rest = page.partition("<body>")
            m = re.search(r"<style>(.*?)</style>", head, re.S)
            if m and not styles:
                styles.append(m.group(1))
            bodies.append(rest.partition("</body>")[0])
        else:
            bodies.append(page)
    joined = '<div style="break-after: page"></div>'.join(bodies)
    return (
        f'<!DOCTYPE html><html lang="{language()}"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{''.join(styles)}</style></head>"
        f"<body>{joined}</body></html>"
    )
