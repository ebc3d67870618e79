"""Unpacks one commit's files from a git repository into a folder (build-micropython-rp2.sh).

Unlike ``git archive``, a blob the repository lacks (a partial copy without its largest files,
such as pico-sdk's RP2350.svd, which the RP2040 build never reads) is left out and named, not a
stop. Submodule entries are skipped: each is unpacked on its own.

    python3 scripts/git_export.py REPO COMMIT DEST
"""

import os
import subprocess
import sys


def export(repo: str, commit: str, dest: str) -> list[str]:
    """Write the commit's files under ``dest``; returns the paths left out (not in the repo)."""
    listing = subprocess.run(
        ["git", "-C", repo, "ls-tree", "-r", "-z", commit], check=True, capture_output=True
    ).stdout
    cat = subprocess.Popen(
        ["git", "-C", repo, "cat-file", "--batch"], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert cat.stdin is not None and cat.stdout is not None
    missing: list[str] = []
    for entry in filter(None, listing.split(b"\0")):
        meta, path = entry.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind != b"blob":
            continue
        cat.stdin.write(sha + b"\n")
        cat.stdin.flush()
        head = cat.stdout.readline().split()
        if head[1] == b"missing":
            missing.append(path.decode())
            continue
        data = cat.stdout.read(int(head[2]))
        cat.stdout.read(1)  # the newline after each object
        target = os.path.join(dest.encode(), path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if mode == b"120000":
            os.symlink(data, target)
            continue
        with open(target, "wb") as f:
            f.write(data)
        if mode == b"100755":
            os.chmod(target, 0o755)
    cat.stdin.close()
    cat.wait()
    return missing


if __name__ == "__main__":
    left_out = export(*sys.argv[1:4])
    if left_out:
        print(f"  left out of {os.path.basename(sys.argv[3])} (not in the copy):", *left_out)
