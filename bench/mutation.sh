#!/usr/bin/env bash
# Mutation testing of one module with mutmut (pinned in pyproject.toml, extra "mutation").
#
#   bench/mutation.sh MODULE [--jobs N] [--keep]
#
# MODULE, the core: scoring, movegen, tracker; the parts built since: standings, pairing,
# colours, tournament (controller/tournament/), ingest (controller/hub/ingest/),
# link-protocol, link-publisher, link-follower (controller/link/), engine-position,
# engine-search, engine-coach (controller/engine/), mathchess (controller/rules/mathchess/, every
# file). `bench/mutation.sh --list` prints each with its files and tests.
#
# mutmut puts one-word changes into the module ("<" for "<=", "break" for "continue", +1 on a
# constant...) and runs, for each, the tests that reach the changed function; a change no test
# notices "survives". The run works on a copy of the tree in bench/out/mutation/MODULE (never
# on the work tree), with only the module's own test directory, so that one module takes about
# ten minutes on two cores. Hypothesis runs derandomised and without its example database
# (profile "mutation", tests/conftest.py), so two runs of the same code give the same verdicts.
#
# It prints the score (killed / all mutants) and every survivor; docs/testing.md lists the
# survivors of the last run and why each cannot change behaviour. Exit code 0 when it ran,
# whatever the score; 2 on a wrong argument.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

usage() {
    echo "usage: bench/mutation.sh MODULE [--jobs N] [--keep]   (bench/mutation.sh --list: the modules)" >&2
    exit 2
}

# module -> the files to mutate (globs as mutmut's only_mutate takes them) and the tests that own
# them (files or directories; one that does not exist yet is left out). A module's tests are those
# that reach its code in the test process: mutmut only sees calls made there, so a test that runs
# the code in a child process (a board process, `damath-board hub`) cannot kill its mutants.
select_module() {
    local dam_tests=(tests/tracker -k "not test_human_traces_replay_to_the_original_game or integer")
    files=()
    tests=()
    case "$1" in
        scoring) files=(controller/rules/scoring.py); tests=(tests/scoring) ;;
        movegen) files=(controller/rules/movegen.py); tests=(tests/rules) ;;
        # tracker.py moves chips the same way in every variant: one variant's generated games
        # (of seven) are enough to play every path, and keep the run near ten minutes.
        tracker) files=(controller/tracker/tracker.py); tests=("${dam_tests[@]}") ;;
        standings | pairing | colours | tournament)
            files=("controller/tournament/$1.py"); tests=(tests/tournament) ;;
        # the hub's intake, message by message without a broker (the broker tests run it in the
        # hub's own process)
        ingest) files=(controller/hub/ingest/*.py)
            tests=(tests/hub/test_ingest.py tests/hub/test_mutants_ingest.py
                   tests/hub/test_ingest_limits.py) ;;
        # the journal: its own tests, the disk that refuses writes and the power cuts (placed
        # ones in the suite; the random soaks live in bench/soak_powercuts.py). The cut lives
        # run in forked children, which inherit the mutant switched on in the test's process.
        journal) files=(controller/session/journal.py controller/record/journal_file.py)
            tests=(tests/session/test_journal.py tests/session/test_disk_full.py
                   tests/session/test_powercut.py tests/session/test_signing_powercut.py
                   tests/session/test_dadama_powercut.py tests/session/test_dam_powercut.py
                   tests/games/test_power_cuts.py) ;;
        link-protocol | link-follower)
            files=("controller/link/${1#link-}.py"); tests=(tests/link tests/hub/test_ingest.py) ;;
        # tests/link drives the Link through a stand-in paho client. The broker tests of tests/hub
        # run it too (in the test's process), but cost about 30 s for every mutant that survives
        # them: a whole run would take hours on two shared cores.
        link-publisher) files=(controller/link/publisher.py); tests=(tests/link) ;;
        # without the level match (slow, and it plays through bench/bench_match.py, which the
        # copy of the tree leaves out): it measures strength, not correctness
        engine-position | engine-search | engine-coach)
            files=("controller/engine/${1#engine-}.py")
            tests=(tests/engine --ignore=tests/engine/test_levels_match.py) ;;
        # without the random-game properties: under mutmut's switch in every function of the
        # package they take 25 of the suite's 29 s, so each surviving mutant cost half a minute
        # (a whole run, most of a day); the case tests name every rule
        mathchess) files=("controller/rules/mathchess/*")
            tests=(tests/mathchess --ignore=tests/mathchess/test_properties.py) ;;
        *) return 1 ;;
    esac
}
MODULES="scoring movegen tracker standings pairing colours tournament ingest journal link-protocol
link-publisher link-follower engine-position engine-search engine-coach mathchess"

if [ "${1:-}" = --list ]; then
    for m in $MODULES; do
        select_module "$m"
        printf '%-16s %s\n%-16s   tests: %s\n' "$m" "${files[*]}" "" "${tests[*]}"
    done
    exit 0
fi

[ $# -ge 1 ] || usage
module="$1"
shift
jobs=2
keep=0
while [ $# -gt 0 ]; do
    case "$1" in
        --jobs) [ $# -ge 2 ] || usage; jobs="$2"; shift 2 ;;
        --keep) keep=1; shift ;;
        *) usage ;;
    esac
done

select_module "$module" || usage
# TOML lists for mutmut's configuration
toml_list() {
    local out="" item
    for item in "$@"; do out+="${out:+, }\"$item\""; done
    echo "$out"
}
selected=()
for item in "${tests[@]}"; do
    case "$item" in
        tests/*) [ -e "$item" ] || continue ;;
    esac
    selected+=("$item")
done

source scripts/bootstrap.sh
damath_bootstrap test  # .venv from the lock, and .venv/bin first on PATH
# mutmut itself, at the version the extra pins (not in the lock: ./test.sh never runs it; the
# lock check then names it as installed beside the lock)
want="$(sed -n 's/^mutation = \["mutmut==\(.*\)"\]$/\1/p' pyproject.toml)"
if [ "$(python -c 'import importlib.metadata as m; print(m.version("mutmut"))' 2>/dev/null)" != "$want" ]; then
    echo "mutation: installing mutmut $want into .venv..." >&2
    python -m pip install -q "mutmut==$want" >.venv/install-mutation.log 2>&1 \
        || { tail -n 20 .venv/install-mutation.log >&2; exit 1; }
fi

work="$root/bench/out/mutation/$module"
if [ "$keep" = 0 ]; then
    rm -rf "$work"
fi
mkdir -p "$work"
# A copy of what the tests need; mutmut then copies it again into $work/mutants.
tar -C "$root" --exclude=__pycache__ --exclude=.hypothesis --exclude=tests/artifacts -cf - \
    controller drivers firmware hardware tests pyproject.toml | tar -C "$work" -xf -
cat >>"$work/pyproject.toml" <<EOF

[tool.mutmut]
source_paths = ["controller"]
only_mutate = [$(toml_list "${files[@]}")]
pytest_add_cli_args = ["-p", "no:cacheprovider", "--hypothesis-profile=mutation", "-q"]
pytest_add_cli_args_test_selection = [$(toml_list "${selected[@]}")]
use_git_change_detection = false
# A mutant still running after five times the time of all its tests has made a loop endless:
# counted as killed (a timeout). Less lets slow but equivalent mutants time out on a busy
# machine (mutmut's switch between mutants slows hot loops); mutmut's default, 15, lets one
# endless loop hold a worker for a quarter of an hour.
timeout_multiplier = 5.0
EOF

cd "$work"
load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
started=$(date +%s)
# The run itself prints a progress line per mutant; keep it in a log.
if ! mutmut run --max-children "$jobs" >"$work/run.log" 2>&1; then
    tail -n 30 "$work/run.log" >&2
    echo "mutation: mutmut failed; the whole log is $work/run.log" >&2
    exit 1
fi
elapsed=$(($(date +%s) - started))
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"
mutmut results --all true >"$work/results.txt"

python - "${files[*]}" "$elapsed" "$work/results.txt" "$load_before" "$load_after" <<'PY'
import collections
import re
import sys

files, elapsed, path, load_before, load_after = sys.argv[1:]
status = {}
for line in open(path, encoding="utf-8"):
    name, _, verdict = line.strip().rpartition(": ")
    if name:
        status[name] = verdict


def summary(names):
    counts = collections.Counter(status[n] for n in names)
    killed = counts["killed"] + counts["timeout"]
    score = 100 * killed / len(names) if names else 0.0
    return f"{len(names)} mutants, {killed} killed ({score:.1f} %)", counts


line, counts = summary(list(status))
print(f"{files}: {line} in {elapsed} s (load average {load_before} before, {load_after} after)")
print("  " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
by_module = collections.defaultdict(list)
for name in status:  # controller.rules.mathchess.turns.x_end__mutmut_3, ...xǁTurnǁplay__mutmut_1
    by_module[re.split(r"\.x[_ǁ]", name, maxsplit=1)[0]].append(name)
if len(by_module) > 1:
    for mod, names in sorted(by_module.items()):
        print(f"  {mod}: {summary(names)[0]}")
for name, verdict in sorted(status.items()):
    if verdict != "killed":
        print(f"  {verdict}: {name}")
PY
echo "See a mutant: (cd $work && $root/.venv/bin/mutmut show NAME)"
