"""``rules moves --game mathchess`` and ``rules perft --game mathchess`` as a user meets them."""

from __future__ import annotations

import json

from controller.cli import main

R06_EXAMPLE1 = {
    "game": "mathchess",
    "conditions": {"level": 9},
    "phase": "play",
    "to_move": "white",
    "pieces": [
        {"at": [1, 4], "side": "white", "piece": "1"},
        {"at": [2, 4], "side": "white", "piece": "6"},
        {"at": [3, 4], "side": "black", "piece": "9"},
        {"at": [5, 4], "side": "black", "piece": "5"},
        {"at": [4, 1], "side": "white", "piece": "+"},
        {"at": [0, 8], "side": "black", "piece": "x"},
    ],
}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path, obj) -> str:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(obj) if not isinstance(obj, str) else obj)
    return str(path)


def test_the_start_is_prepare_now_with_white_placing_an_operator(capsys):
    code, out, _ = run(capsys, "rules", "moves", "--game", "mathchess")
    assert code == 0
    assert out.startswith("White to place (Prepare now!): 144 placements, one of + − × ÷ on")


def test_moves_list_each_removal_with_its_arithmetic(tmp_path, capsys):
    code, out, _ = run(capsys, "rules", "moves", "--position-json", write(tmp_path, R06_EXAMPLE1))
    assert code == 0
    assert out.startswith("White to move: 34 legal moves, 0 removals without moving")
    assert (
        "  (4,1)-(4,4)\n      then R06 6 + 9 = 15 and 5: last digits 5 = 5; "
        "removes black 9 (3,4), black 5 (5,4)\n"
    ) in out


def test_moves_as_json_carry_the_structured_arithmetic(tmp_path, capsys):
    path = write(tmp_path, R06_EXAMPLE1)
    code, out, _ = run(capsys, "rules", "moves", "--game", "mathchess", "--position-json", path,
                       "--json")  # fmt: skip
    answer = json.loads(out)
    assert code == 0 and answer["phase"] == "play" and answer["to_move"] == "white"
    (move,) = [m for m in answer["moves"] if m["to"] == [4, 4]]
    (match,) = move["removals"]
    assert match["rule"] == "R06" and match["left"]["digits"] == [6, 9]
    assert match["left"]["value"] == 15 and match["right"]["text"] == "5"
    assert [r["point"] for r in match["removable"]] == [[3, 4], [5, 4]]


def test_a_turn_under_way_lists_what_may_still_be_removed(tmp_path, capsys):
    obj = dict(R06_EXAMPLE1, turn={"moved": [4, 1]})
    obj["pieces"] = [dict(p, at=[4, 4]) if p["at"] == [4, 1] else p for p in obj["pieces"]]
    code, _, err = run(capsys, "rules", "moves", "--position-json", write(tmp_path, obj))
    assert code == 2 and "turn.moved: (4,1) must hold the piece white moved" in err
    obj["turn"] = {"moved": [4, 4]}
    code, out, _ = run(capsys, "rules", "moves", "--position-json", write(tmp_path, obj))
    assert code == 0
    assert out.startswith(
        "White's turn goes on after moving to (4,4): 1 match may still remove; or done"
    )


def test_a_bad_position_is_an_error_message_not_a_traceback(tmp_path, capsys):
    bad = dict(R06_EXAMPLE1, pieces=[{"at": [9, 9], "side": "white", "piece": "+"}])
    code, _, err = run(capsys, "rules", "moves", "--position-json", write(tmp_path, bad))
    assert code == 2
    assert "pieces[0].at: (9,9) is off the board" in err and "Traceback" not in err
    lines = json.dumps(R06_EXAMPLE1) + "\n" + json.dumps(dict(R06_EXAMPLE1, phase="x")) + "\n"
    code, out, _ = run(capsys, "rules", "moves", "--position-json", write(tmp_path, lines),
                       "--json")  # fmt: skip
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and answers[0]["game"] == "mathchess"
    assert answers[1] == {"line": 2, "error": "phase: expected prepare, play or over, got 'x'"}


def test_perft_counts_whole_turns(tmp_path, capsys):
    code, out, _ = run(capsys, "rules", "perft", "--game", "mathchess", "--depth", "2", "--json")
    assert code == 0 and json.loads(out)["nodes"] == 144 * 144
    path = write(tmp_path, R06_EXAMPLE1)
    code, out, _ = run(capsys, "rules", "perft", "--game", "mathchess", "--depth", "1",
                       "--position-json", path, "--divide", "--json")  # fmt: skip
    answer = json.loads(out)
    texts = [row["move"] for row in answer["divide"]]
    # (4,1)-(4,4) removing both, either one (the other declined) or none
    assert answer["nodes"] == len(texts) == 34 + 3
    for turn in ("(4,1)-(4,4) R06:(3,4),(5,4)", "(4,1)-(4,4) R06:(3,4)", "(4,1)-(4,4) R06:(5,4)",
                 "(4,1)-(4,4)"):  # fmt: skip
        assert turn in texts
    code, _, err = run(capsys, "rules", "perft", "--game", "mathchess", "--depth", "1",
                       "--unique")  # fmt: skip
    assert code == 2 and "not for mathchess" in err
