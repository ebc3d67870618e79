"""``rules moves`` and ``rules perft`` for Dadama and Dam, as a user meets them."""

from __future__ import annotations

import json

import pytest

from controller.cli import main

FIGURE3 = {
    "game": "dadama",
    "to_move": "white",
    "pieces": [
        {"square": [3, 2], "side": "white", "value": 3},
        {"square": [0, 1], "side": "white", "value": 3},
        {"square": [4, 3], "side": "black", "value": 3},
        {"square": [2, 3], "side": "black", "value": 5},
        {"square": [6, 5], "side": "black", "value": 3},
    ],
}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def write(tmp_path, obj) -> str:
    path = tmp_path / "position.json"
    path.write_text(json.dumps(obj))
    return str(path)


def test_dadama_opening_moves(capsys):
    code, out, _ = run(capsys, "rules", "moves", "--game", "dadama")
    assert code == 0
    assert out.startswith("White to move: 7 legal moves (no die can take)")
    assert "  3 (1,2)-(0,3)" in out


def test_dadama_throw_table_says_what_each_throw_allows(tmp_path, capsys):
    code, out, _ = run(capsys, "rules", "moves", "--position-json", write(tmp_path, FIGURE3))
    assert code == 0
    assert "taking is compulsory; 1 piece can take, one must throw" in out
    assert "die 3 on (3,2) throws:" in out
    assert "1-2: too low to take" in out
    assert "3-4: x(5,4) takes 3 on (4,3)\n" in out
    assert "5-6: x(5,4) takes 3 on (4,3) or x(1,4) takes 5 on (2,3)" in out


def test_dadama_json_answer_lists_takings_by_value(tmp_path, capsys):
    code, out, _ = run(
        capsys, "rules", "moves", "--position-json", write(tmp_path, FIGURE3), "--json"
    )
    answer = json.loads(out)
    assert code == 0 and answer["phase"] == "throw" and answer["moves"] == []
    (thrower,) = answer["throwers"]
    assert thrower["square"] == [3, 2] and thrower["dice"] == 1
    allowed = {v["value"]: v["to"] for v in thrower["by_value"]}
    assert allowed[2] == [] and allowed[3] == [[5, 4]]
    assert sorted(allowed[6]) == [[1, 4], [5, 4]]


def test_dadama_taking_under_way_offers_going_on_or_stopping(tmp_path, capsys):
    position = dict(FIGURE3)
    position["pieces"] = [p for p in FIGURE3["pieces"] if p["square"] != [3, 2]]
    position["pieces"].append({"square": [5, 4], "side": "white", "value": 5})
    position["going_on"] = {"square": [5, 4], "taken": [[4, 3]]}
    code, out, _ = run(capsys, "rules", "moves", "--position-json", write(tmp_path, position))
    assert code == 0
    assert "White's die on (5,4) has taken: throw again or stop, keeping 5" in out
    assert "3-6: x(7,6) takes 3 on (6,5)" in out


def test_dadama_game_over_is_said(tmp_path, capsys):
    position = {"game": "dadama", "pieces": [{"square": [3, 2], "side": "white", "value": 4}]}
    code, out, _ = run(capsys, "rules", "moves", "--position-json", write(tmp_path, position))
    assert code == 0 and "The game is over: Black has no die left." in out


def test_dam_opening_moves_with_pdn_numbers(capsys):
    code, out, _ = run(capsys, "rules", "moves", "--game", "dam", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["to_move"] == "black"
    assert len(answer["moves"]) == 11
    assert {"path": [[1, 4], [0, 5]], "captures": [], "promotes": False, "pdn": "25-31"} in (
        answer["moves"]
    )


def test_json_lines_may_mix_the_games(tmp_path, capsys):
    lines = [json.dumps({"variant": "integer"}), json.dumps(FIGURE3), '{"game": "dam"}']
    path = tmp_path / "many.jsonl"
    path.write_text("\n".join(lines) + "\n")
    code, out, _ = run(capsys, "rules", "moves", "--position-json", str(path), "--json")
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert len(answers[0]["moves"]) == 7
    assert answers[1]["game"] == "dadama" and answers[1]["phase"] == "throw"
    assert answers[2]["game"] == "dam" and len(answers[2]["moves"]) == 11


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "dadama", "--variant", "integer"], "--variant and --rules are for damath"),
        (["--game", "dam", "--position-json", "FIGURE3"], "the position says 'dadama'"),
    ],
)
def test_moves_options_that_do_not_fit_the_game_are_refused(tmp_path, capsys, argv, message):
    argv = [write(tmp_path, FIGURE3) if a == "FIGURE3" else a for a in argv]
    code, _, err = run(capsys, "rules", "moves", *argv)
    assert code == 2 and message in err


@pytest.mark.parametrize(
    ("argv", "nodes"),
    [
        (["--game", "dam", "--depth", "3"], 1324),
        (["--game", "dadama", "--depth", "3"], 357),
        (["--game", "dadama", "--depth", "4", "--throw", "6"], 1469),
    ],
)
def test_perft_for_the_new_games(capsys, argv, nodes):
    code, out, _ = run(capsys, "rules", "perft", *argv, "--json")
    answer = json.loads(out)
    assert code == 0 and answer["nodes"] == nodes


def test_dadama_divide_sums_to_perft_and_writes_steps_as_on_a_scoresheet(tmp_path, capsys):
    path = write(tmp_path, FIGURE3)
    code, out, _ = run(
        capsys,
        "rules",
        "perft",
        "--game",
        "dadama",
        "--depth",
        "1",
        "--position-json",
        path,
        "--divide",
        "--json",
    )
    answer = json.loads(out)
    rows = {row["move"]: row["nodes"] for row in answer["divide"]}
    assert code == 0 and answer["nodes"] == sum(rows.values())
    # A taking that may go on ends the turn by stopping or by one of six throws.
    assert rows["(3,2) [1]"] == 1 and rows["(3,2)x(5,4) [5]"] == 7
    assert "(3,2)x(1,4) [6]" in rows


def test_dam_perft_from_a_json_position(tmp_path, capsys):
    position = {
        "game": "dam",
        "pieces": [
            {"square": [5, 0], "side": "black", "king": True},
            {"square": [7, 2], "side": "white"},
            {"square": [8, 9], "side": "white"},
        ],
    }
    code, out, _ = run(
        capsys,
        "rules",
        "perft",
        "--game",
        "dam",
        "--depth",
        "1",
        "--position-json",
        write(tmp_path, position),
        "--divide",
    )
    assert code == 0
    # (5, 0) is square 3; the king stops on the edge (42) or turns there and takes again.
    assert "3x42: 1" in out and "3x42x70: 1" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "dam", "--depth", "2", "--throw", "6"], "--throw is for dadama"),
        (["--game", "dadama", "--depth", "2", "--fen", "W:W1"], "not for dadama"),
        (["--game", "english", "--depth", "2", "--position-json", "x.json"], "damath and dam"),
    ],
)
def test_perft_options_that_do_not_fit_the_game_are_refused(capsys, argv, message):
    code, _, err = run(capsys, "rules", "perft", *argv)
    assert code == 2 and message in err


def test_dadama_throw_table_for_a_dadama_is_by_the_value_kept(tmp_path, capsys):
    position = {
        "game": "dadama",
        "pieces": [
            {"square": [5, 2], "side": "white", "value": 6, "dadama": True},
            {"square": [0, 1], "side": "white", "value": 3},
            {"square": [4, 3], "side": "black", "value": 3},
        ],
    }
    code, out, _ = run(capsys, "rules", "moves", "--position-json", write(tmp_path, position))
    assert code == 0
    assert "dadama 6 on (5,2) throws two dice, keeps one:" in out
    assert "keeping 1-2: too low to take: the dadama shows the value kept" in out
    assert "keeping 3-6: x(3,4) takes 3 on (4,3)" in out


def test_the_fen_draughts_games_answer_in_their_own_numbers(capsys, tmp_path):
    """English and Italian draughts (every registered game whose positions are PDN FEN): the
    opening, a position's compulsory taking with its square numbers, and a wrong one refused."""
    code, out, _ = run(capsys, "rules", "moves", "--game", "italian")
    assert code == 0 and out.startswith("White to move: 7 legal moves\n"), out
    assert "  man 22-18            (3,2)-(2,3)" in out
    code, out, _ = run(capsys, "rules", "moves", "--game", "english")
    assert code == 0 and out.startswith("Black to move: 7 legal moves\n"), out
    position = write(tmp_path, {"game": "italian", "fen": "W:W22:B18"})
    code, out, _ = run(capsys, "rules", "moves", "--position-json", position, "--json")
    answer = json.loads(out)
    assert (code, answer["game"], answer["to_move"]) == (0, "italian", "white")
    assert [m["pdn"] for m in answer["moves"]] == ["22x13"]  # Italian numbers, not Dam's
    wrong = write(tmp_path, {"game": "italian", "fen": "W:W99:B18"})
    code, out, err = run(capsys, "rules", "moves", "--position-json", wrong)
    assert code != 0 and "Traceback" not in err and "99" in err, err
    code, out, _ = run(capsys, "rules", "perft", "--game", "italian", "--depth", "4")
    assert code == 0 and "perft italian depth 4: 1469 nodes" in out  # the published count
