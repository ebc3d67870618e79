"""A submitted event checked as the federation accepts it: the hub's signature, then every game
record by record (its envelope, hash, HMAC and place in the chain, then the rules engine
re-applying it through the one applier, ``link.gamestate`` over ``record.state``), then every
result against the board game it came from, then every player against the registry.

The verdict is ``accepted`` or ``refused``, with every reason found (where, and why, in
words); notes say what is accepted but worth reading (a result recorded by hand, a result
corrected with its reason, a player without a federation ID, who is not rated). Nothing here
writes: the store keeps the submission and its verdict (``store.submit``).
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import IO, Any

from controller.i18n import N_, _
from controller.link.gamestate import GameState
from controller.link.protocol import (
    BOARD_ID,
    GAME_ID,
    GENESIS,
    HEX64,
    Rejected,
    check_seal,
    is_version,
    parse_envelope,
)
from controller.rules.values import Sqrt2
from controller.tournament.damath_scores import as_exact, from_store, store_text, text
from controller.tournament.model import OUTCOMES

from . import bundle
from .ids import check_id
from .ratings import family_of
from .store import Submitted

MAX_REASONS = 50
Registry = Callable[[Iterable[str]], dict[str, dict[str, Any]]]
"""Federation IDs -> the registry's players that have them."""


class Refusal(Exception):
    """One reason to refuse, found where it was."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(reason)
        self.where = where
        self.reason = reason


@dataclass
class Findings:
    reasons: list[dict[str, str]] = field(default_factory=list)
    notes: list[dict[str, str]] = field(default_factory=list)
    more: int = 0

    def refuse(self, where: str, reason: str) -> None:
        if len(self.reasons) < MAX_REASONS:
            self.reasons.append({"where": where, "reason": reason})
        else:
            self.more += 1

    def note(self, where: str, text: str) -> None:
        if len(self.notes) < 4 * MAX_REASONS:
            self.notes.append({"where": where, "reason": text})


@dataclass(frozen=True)
class BoardGame:
    """A game rebuilt from its records and found sound."""

    board: str
    game: str
    state: GameState
    records: int
    head: str

    def outcome(self) -> tuple[str, Sqrt2 | None, Sqrt2 | None] | None:
        """The result the board's game gives, as the hub reads it (``hub/rounds.py``): an
        abandoned or unfinished game none; a no-show is the other side's forfeit win; else
        the winner and both grand totals, exact."""
        outcome = self.state.outcome
        if outcome is None or outcome.reason == "abandon":
            return None
        if outcome.reason == "no-show":
            return ("blue-forfeit" if outcome.side == 1 else "red-forfeit", None, None)
        sides = outcome.sheet.game.sides
        word = {0: "blue", 1: "red", None: "draw"}[outcome.winner]
        return word, as_exact(sides[0].grand), as_exact(sides[1].grand)


def verify(
    body: bytes | IO[bytes],
    event: dict[str, Any],
    registry: Registry,
    after: str | None = None,
) -> Submitted:
    """The verdict on one submission of ``event`` (the store's event row); ``after``: when
    the hub signed the submission accepted now, which this one must be newer than."""
    found = Findings()
    signed_at = None
    try:
        opened = bundle.open_submission(body, event["id"], bytes.fromhex(event["sign_key"]))
        signed_at = _signed_at(opened.signed_at, after)
        manifest = _manifest(json_of(opened.member(bundle.MANIFEST)))
        sealed = opened.bundle(_read_names(manifest) | {bundle.MANIFEST})
    except bundle.BundleError as exc:
        found.refuse(_("the archive"), str(exc))
        return _verdict(found, [], [], 0, signed_at)
    held = str(manifest["event"].get("date") or "")
    if held and held != event["date"]:
        found.refuse(
            _("the archive"),
            _("its event was held on {held}; event {id} is on {date}: is this the event's "
              "credential?").format(held=held[:10], id=event["id"], date=event["date"]),
        )  # fmt: skip
        return _verdict(found, [], [], 0, signed_at)
    games, records = _games(sealed, manifest, found)
    results = _results(manifest, games, event, registry, found)
    rows = [_game_row(g, manifest, sealed) for g in games.values()]
    return _verdict(found, rows, results, records, signed_at)


def json_of(data: bytes) -> Any:
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise bundle.BundleError(_("{name} is not JSON").format(name=bundle.MANIFEST)) from None


def _signed_at(raw: str | None, after: str | None) -> str:
    """When the hub signed the submission, checked newer than the one accepted now: an
    archive accepted earlier and sent again would otherwise undo every correction since."""
    if raw is None:
        raise bundle.BundleError(
            _("the archive does not say when the hub signed it (a hub older than the "
              "federation): update the hub and submit again")
        )  # fmt: skip
    try:
        stamp = datetime.fromisoformat(raw)
    except ValueError:
        stamp = None
    if stamp is None or stamp.tzinfo is None or len(raw) > 40:
        raise bundle.BundleError(_("signature.json: its time is not a time"))
    if after is not None and stamp <= datetime.fromisoformat(after):
        raise bundle.BundleError(
            _("it was signed by the hub at {signed}, not after the submission accepted now "
              "(signed at {accepted}): an earlier submission sent again is refused; to "
              "correct the event, submit it again from the hub").format(
                signed=raw[:40], accepted=after
            )
        )  # fmt: skip
    return stamp.astimezone(UTC).isoformat(timespec="microseconds")


def _read_names(manifest: dict[str, Any]) -> set[str]:
    """The members the verification reads: every game's records and its PDN."""
    names = set()
    for g in manifest["games"]:
        names.add(bundle.records_name(g["board"], g["game"]))
        if isinstance(g.get("pdn"), str):
            names.add(g["pdn"])
    return names


def _verdict(
    found: Findings,
    games: list[dict[str, Any]],
    results: list[dict[str, Any]],
    records: int,
    signed_at: str | None,
) -> Submitted:
    if found.more:
        found.reasons.append(
            {"where": "…", "reason": _("and {n} more reasons").format(n=found.more)}
        )
    accepted = not found.reasons
    return Submitted(
        "accepted" if accepted else "refused",
        found.reasons,
        found.notes,
        games if accepted else [],
        results if accepted else [],
        records,
        signed_at,
    )


# ---------------------------------------------------------------------- the manifest


def _manifest(data: Any) -> dict[str, Any]:
    """The manifest's shape checked before anything in it is trusted."""

    def need(ok: bool, what: str) -> None:
        if not ok:
            raise bundle.BundleError(_("federation.json: {what}").format(what=what))

    need(isinstance(data, dict) and is_version(data.get("v"), bundle.FORMAT), _("not version 1"))
    for key, kind in (
        ("event", dict),
        ("players", list),
        ("pairings", list),
        ("results", list),
        ("games", list),
        ("boards", dict),
    ):
        need(
            isinstance(data.get(key), kind), _("{key} missing or of the wrong kind").format(key=key)
        )
    for p in data["players"]:
        need(
            isinstance(p, dict)
            and _int(p.get("id"))
            and isinstance(p.get("name"), str)
            and isinstance(p.get("fed_id", ""), str),
            _("a player without id or name"),
        )
    for p in data["pairings"]:
        need(
            isinstance(p, dict)
            and all(_int(p.get(k)) for k in ("id", "round", "table", "blue"))
            and (p.get("red") is None or _int(p.get("red")))
            and isinstance(p.get("division"), str),
            _("a pairing without id, round, table or players"),
        )
    for r in data["results"]:
        need(
            isinstance(r, dict)
            and _int(r.get("pairing"))
            and r.get("outcome") in OUTCOMES
            and all(isinstance(r.get(k, ""), str) for k in ("source", "by", "reason"))
            and all(
                r.get(k) is None or isinstance(r.get(k), str) for k in ("blue_score", "red_score")
            ),
            _("a result without pairing or with an unknown outcome"),
        )
    for g in data["games"]:
        need(
            isinstance(g, dict)
            and isinstance(g.get("board"), str)
            and isinstance(g.get("game"), str)
            and (g.get("pairing") is None or _int(g.get("pairing"))),
            _("a game without board or id"),
        )
    for board, key in data["boards"].items():
        need(
            isinstance(key, str) and HEX64.match(key) is not None,
            _("board {board}'s key is not 64 hex digits").format(board=str(board)[:40]),
        )
    _bounded(data, need)
    checked: dict[str, Any] = data
    return checked


FIELDS = {
    "event": {"id": 40, "name": 120, "date": 10, "venue": 120, "variant": 20, "rules": 20},
    "players": {"name": 60, "school": 60, "division": 60, "fed_id": 7},
    "pairings": {"division": 60},
    "results": {"source": 10, "by": 60, "reason": 500, "at": 40, "blue_score": 120,
                "red_score": 120},
    "games": {"pdn": 200},
}  # fmt: skip
"""The longest text of each field of the manifest (what the pages show, the store keeps)."""


def unwritable(text: str) -> bool:
    """Control, format (a direction override: U+202E), private or unassigned characters: the
    registry refuses them in a name, and so does a submission."""
    return any(unicodedata.category(c).startswith("C") for c in text)


def _bounded(data: dict[str, Any], need: Callable[[bool, str], None]) -> None:
    """Every text of the manifest bounded and writable, every board and game id one a board
    makes; the first fault refuses the submission, naming the field."""
    need(
        data.get("software") is None
        or (isinstance(data["software"], str) and len(data["software"]) <= 60),
        _("software: at most 60 characters"),
    )
    for part, limits in FIELDS.items():
        rows = [data[part]] if part == "event" else data[part]
        for n, row in enumerate(rows, start=1):
            for name, limit in limits.items():
                value = row.get(name)
                where = name if part == "event" else f"{part} {n}: {name}"
                if value is None:
                    continue
                need(isinstance(value, str), _("{where} is not text").format(where=where))
                need(
                    len(value) <= limit,
                    _("{where}: at most {n} characters").format(where=where, n=limit),
                )
                need(
                    not unwritable(value),
                    _("{where}: control or direction characters").format(where=where),
                )
    for n, g in enumerate(data["games"], start=1):
        need(
            BOARD_ID.match(g["board"]) is not None and GAME_ID.match(g["game"]) is not None,
            _("games {n}: not a board's board or game id").format(n=n),
        )
    for board in data["boards"]:
        need(BOARD_ID.match(str(board)) is not None, _("boards: not a board's id"))


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31


# ---------------------------------------------------------------------- the games


def _games(
    sealed: bundle.Bundle, manifest: dict[str, Any], found: Findings
) -> tuple[dict[tuple[str, str], BoardGame], int]:
    games: dict[tuple[str, str], BoardGame] = {}
    records = 0
    for entry in manifest["games"]:
        board, game = entry["board"], entry["game"]
        where = _("board {board}, game {game}").format(board=board[:40], game=game[:60])
        name = bundle.records_name(board, game)
        key_hex = manifest["boards"].get(board)
        try:
            if (board, game) in games:
                raise Refusal(where, _("listed twice"))
            if key_hex is None:
                raise Refusal(
                    where, _("the archive gives no key for board {board}").format(board=board[:40])
                )
            if name not in sealed.files:
                raise Refusal(
                    where, _("its records ({name}) are not in the archive").format(name=name[:120])
                )
            checked = check_game(board, game, sealed.files[name], bytes.fromhex(key_hex), where)
        except Refusal as exc:
            found.refuse(exc.where, exc.reason)
            continue
        records += checked.records
        games[(board, game)] = checked
    return games, records


def check_game(board: str, game: str, lines: bytes, key: bytes, where: str) -> BoardGame:
    """One game's records, every one: its envelope, its hash and HMAC (the board's key), its
    place in the chain, then the rules engine applying it. Refusal at the first fault."""
    state = GameState()
    prev, count = GENESIS, 0
    for n, line in enumerate(lines.split(b"\n"), start=1):
        if not line.strip():
            continue
        count += 1
        at = _("{where}, record {n}").format(where=where, n=n)
        try:
            env = parse_envelope(line, board)
            check_seal(env, key)
        except Rejected as exc:
            raise Refusal(at, _(REJECTED.get(exc.reason, "{text}")).format(text=str(exc))) from None
        if env.game != game:
            raise Refusal(at, _("it belongs to game {other}").format(other=env.game))
        if env.seq != count:
            raise Refusal(
                at,
                _("it is numbered {seq}: a record is missing or repeated before it").format(
                    seq=env.seq
                ),
            )
        if env.prev != prev:
            raise Refusal(at, _("it does not follow the record before it (the chain is broken)"))
        info = state.apply(env.record)
        for name in ("move", "score", "totals", "result"):
            if name in env.info and name in info and env.info[name] != info[name]:
                raise Refusal(
                    at,
                    _("the board says {name} {board_says}, the rules engine {engine_says}").format(
                        name=name,
                        board_says=json.dumps(env.info[name], ensure_ascii=False)[:200],
                        engine_says=json.dumps(info[name], ensure_ascii=False)[:200],
                    ),
                )
        if state.broken is not None:
            raise Refusal(at, _("the rules engine refuses it: {why}").format(why=state.broken))
        prev = env.hash
    if count == 0:
        raise Refusal(where, _("it has no records"))
    return BoardGame(board, game, state, count, prev)


REJECTED = {
    "forged": N_("forged: {text}"),
    "schema": N_("not a record of the board: {text}"),
    "malformed": N_("not a record of the board: {text}"),
    "oversized": N_("not a record of the board: {text}"),
    "topic": N_("another board's record: {text}"),
}
"""Why a record's envelope is refused (``link.protocol``'s reasons), in words."""


def _game_row(g: BoardGame, manifest: dict[str, Any], sealed: bundle.Bundle) -> dict[str, Any]:
    entry = next(e for e in manifest["games"] if e["board"] == g.board and e["game"] == g.game)
    pairing = _pairings(manifest).get(entry.get("pairing") or -1)
    found = g.outcome()
    pdn_name = entry.get("pdn")
    pdn = ""
    if isinstance(pdn_name, str) and pdn_name in sealed.files:
        pdn = sealed.files[pdn_name].decode("utf-8", errors="replace")
    state = g.state
    return {
        "board": g.board,
        "game": g.game,
        "division": pairing["division"] if pairing else None,
        "round": pairing["round"] if pairing else None,
        "table_no": pairing["table"] if pairing else None,
        "variant": state.variant if state.started else "",
        "rules": state.rules,
        "records": g.records,
        "moves": state.game.ply if state.game else 0,
        "outcome": found[0] if found else "",
        "blue_score": store_text(found[1]) if found and found[1] is not None else None,
        "red_score": store_text(found[2]) if found and found[2] is not None else None,
        "head": g.head,
        "pdn": pdn or state.pdn() or "",
    }


# ---------------------------------------------------------------------- results and players


def _pairings(manifest: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {p["id"]: p for p in manifest["pairings"]}


def _results(
    manifest: dict[str, Any],
    games: dict[tuple[str, str], BoardGame],
    event: dict[str, Any],
    registry: Registry,
    found: Findings,
) -> list[dict[str, Any]]:
    players = {p["id"]: p for p in manifest["players"]}
    registered = _players(players, registry, found)
    pairings = _pairings(manifest)
    records: dict[int, list[dict[str, Any]]] = {}
    for r in manifest["results"]:
        if r["pairing"] not in pairings:
            found.refuse(
                _("the results"),
                _("a result for pairing {id}, which the event does not have").format(
                    id=r["pairing"]
                ),
            )
            continue
        records.setdefault(r["pairing"], []).append(r)
    variant = str(manifest["event"].get("variant") or "integer")
    out = []
    for pid, p in sorted(pairings.items(), key=lambda i: (i[1]["round"], i[1]["table"], i[0])):
        where = _("{division}, round {round}, table {table}").format(
            division=p["division"][:60], round=p["round"], table=p["table"]
        )
        for side in ("blue", "red"):
            if p.get(side) is not None and p[side] not in players:
                found.refuse(where, _("a player the event does not list"))
        same = p.get("red") is not None and (
            p["red"] == p["blue"]
            or (
                registered.get(p["blue"]) is not None
                and registered.get(p["blue"]) == registered.get(p["red"])
            )
        )
        if same:  # one person on both sides: no game, and never a rated result
            found.refuse(where, _("the same player on both sides"))
            continue
        if pid not in records:
            continue
        row = _result(p, records[pid], manifest, games, where, found)
        if row is None:
            continue
        blue, red = players.get(p["blue"]), players.get(p["red"]) if p["red"] else None
        ref = row["game_ref"]
        game = games.get((ref[0], ref[1])) if ref else None
        row_variant = game.state.variant if game and game.state.started else variant
        out.append(
            {
                **row,
                "date": event["date"],
                "division": p["division"][:60],
                "round": p["round"],
                "table_no": p["table"],
                "blue": registered.get(p["blue"]),
                "red": registered.get(p["red"]) if p["red"] else None,
                "blue_name": (blue or {}).get("name", "")[:60],
                "red_name": (red or {}).get("name", "")[:60],
                "variant": row_variant,
                "family": family_of(row_variant),
            }
        )
    return out


def _players(
    players: dict[int, dict[str, Any]], registry: Registry, found: Findings
) -> dict[int, str]:
    """Event player number -> federation ID, for every player the registry holds."""
    wanted: dict[int, str] = {}
    for pid, p in players.items():
        raw = (p.get("fed_id") or "").strip()
        who = _("player {n} ({name})").format(n=pid, name=p["name"][:60])
        if not raw:
            found.note(who, _("no federation ID: their games are not rated"))
            continue
        try:
            wanted[pid] = check_id(raw)
        except ValueError as exc:
            found.refuse(who, str(exc))
    known = registry(sorted(set(wanted.values()))) if wanted else {}
    for pid, fed_id in list(wanted.items()):
        p = players[pid]
        who = _("player {n} ({name})").format(n=pid, name=p["name"][:60])
        if fed_id not in known:
            found.refuse(who, _("federation ID {id} is not in the registry").format(id=fed_id))
            del wanted[pid]
        elif known[fed_id]["name"].casefold() != p["name"].strip().casefold():
            found.note(
                who,
                _("the registry names {id} {name}").format(id=fed_id, name=known[fed_id]["name"]),
            )
    return wanted


def _result(
    p: dict[str, Any],
    recs: list[dict[str, Any]],
    manifest: dict[str, Any],
    games: dict[tuple[str, str], BoardGame],
    where: str,
    found: Findings,
) -> dict[str, Any] | None:
    """The pairing's result in force (its last record), checked against its board game."""
    last = recs[-1]
    try:
        blue = from_store(last["blue_score"]) if last.get("blue_score") is not None else None
        red = from_store(last["red_score"]) if last.get("red_score") is not None else None
    except (ValueError, ZeroDivisionError):
        found.refuse(where, _("a Damath score that is not a number"))
        return None
    if (blue is None) != (red is None) or (blue is not None and last["outcome"] not in PLAYED):
        found.refuse(where, _("the result's scores do not fit its outcome"))
        return None
    if any(
        e.get("pairing") == p["id"] and (e["board"], e["game"]) not in games
        for e in manifest["games"]
    ):
        return None  # a game of the pairing is refused already: that is the reason
    board = _board_game(p["id"], manifest, games)
    board_says = board.outcome() if board else None
    recorded = (last["outcome"], blue, red)
    source = last.get("source") or "hand"
    reason = (last.get("reason") or "").strip()
    differs = board_says is not None and tuple(board_says) != recorded
    if source == "board" and (board_says is None or differs):
        found.refuse(
            where,
            _(
                "the result taken from the board ({recorded}) is not what the board's records "
                "give ({board})"
            ).format(recorded=_said(recorded, manifest), board=_said(board_says, manifest)),
        )
        return None
    if differs and not reason:
        found.refuse(
            where,
            _(
                "the result ({recorded}) differs from the board's game ({board}) and gives no "
                "reason"
            ).format(recorded=_said(recorded, manifest), board=_said(board_says, manifest)),
        )
        return None
    corrected = differs or len(recs) > 1
    if differs:
        found.note(
            where,
            _("corrected from the board's {board} to {recorded}: {reason}").format(
                board=_said(board_says, manifest),
                recorded=_said(recorded, manifest),
                reason=reason,
            ),
        )
    elif board is None and last["outcome"] in PLAYED:
        found.note(
            where,
            _("recorded by hand, no board game: {reason}").format(
                reason=reason or _("no reason given")
            ),
        )
    return {
        "outcome": last["outcome"],
        "blue_score": store_text(blue) if blue is not None else None,
        "red_score": store_text(red) if red is not None else None,
        "source": source[:10],
        "reason": reason,
        "corrected": corrected,
        "verified": board_says is not None and not differs,
        "game_ref": [board.board, board.game] if board else None,
    }


PLAYED = ("blue", "red", "draw")


def _board_game(
    pairing: int, manifest: dict[str, Any], games: dict[tuple[str, str], BoardGame]
) -> BoardGame | None:
    """The last finished game a board played for the pairing (the one that counts)."""
    last = None
    for e in manifest["games"]:
        g = games.get((e["board"], e["game"]))
        if e.get("pairing") == pairing and g is not None and g.outcome() is not None:
            last = g
    return last


def _said(found: Any, manifest: dict[str, Any]) -> str:
    if not found:
        return _("no finished game")
    outcome, blue, red = found
    if blue is None:
        return str(outcome)
    variant = str(manifest["event"].get("variant") or "integer")
    return f"{outcome} {text(blue, variant)} : {text(red, variant)}"


def sha256(body: bytes) -> str:
    return hashlib.sha256(body).hexdigest()
