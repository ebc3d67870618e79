#!/usr/bin/env bash
# Mutation testing of one core module with mutmut (pinned in pyproject.toml, extra "mutation").
#
#   bench/mutation.sh scoring|movegen|tracker [--jobs N] [--keep]
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
    echo "usage: bench/mutation.sh scoring|movegen|tracker [--jobs N] [--keep]" >&2
    exit 2
}

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

# module -> the file to mutate and the tests that own it
case "$module" in
    scoring) file=controller/rules/scoring.py; tests='"tests/scoring"' ;;
    movegen) file=controller/rules/movegen.py; tests='"tests/rules"' ;;
    # tracker.py moves chips the same way in every variant: one variant's generated games
    # (of seven) are enough to play every path, and keep the run near ten minutes.
    tracker) file=controller/tracker/tracker.py
        tests='"tests/tracker", "-k", "not test_human_traces_replay_to_the_original_game or integer"' ;;
    *) usage ;;
esac

source scripts/bootstrap.sh test
stamp=.venv/.installed-mutation
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
    echo "mutation: installing mutmut into .venv..." >&2
    python -m pip install -q -e ".[test,mutation]" >.venv/install-mutation.log 2>&1 \
        || { tail -n 20 .venv/install-mutation.log >&2; exit 1; }
    touch "$stamp"
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
only_mutate = ["$file"]
pytest_add_cli_args = ["-p", "no:cacheprovider", "--hypothesis-profile=mutation", "-q"]
pytest_add_cli_args_test_selection = [$tests]
use_git_change_detection = false
# A mutant still running after five times the time of all its tests has made a loop endless:
# counted as killed (a timeout). Less lets slow but equivalent mutants time out on a busy
# machine (mutmut's switch between mutants slows hot loops); mutmut's default, 15, lets one
# endless loop hold a worker for a quarter of an hour.
timeout_multiplier = 5.0
EOF

cd "$work"
started=$(date +%s)
# The run itself prints a progress line per mutant; keep it in a log.
if ! mutmut run --max-children "$jobs" >"$work/run.log" 2>&1; then
    tail -n 30 "$work/run.log" >&2
    echo "mutation: mutmut failed; the whole log is $work/run.log" >&2
    exit 1
fi
elapsed=$(($(date +%s) - started))
mutmut results --all true >"$work/results.txt"

python - "$module" "$file" "$elapsed" "$work/results.txt" <<'PY'
import collections
import sys

module, file, elapsed, path = sys.argv[1:]
status = {}
for line in open(path, encoding="utf-8"):
    name, _, verdict = line.strip().rpartition(": ")
    if name:
        status[name] = verdict
counts = collections.Counter(status.values())
total = len(status)
killed = counts["killed"] + counts["timeout"]
score = 100 * killed / total if total else 0.0
print(f"{file}: {total} mutants, {killed} killed ({score:.1f} %) in {elapsed} s")
print("  " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
for name, verdict in sorted(status.items()):
    if verdict != "killed":
        print(f"  {verdict}: {name}")
PY
echo "See a mutant: (cd $work && $root/.venv/bin/mutmut show NAME)"
