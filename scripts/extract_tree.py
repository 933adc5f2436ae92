"""Write COMMIT's tree from a git directory to DEST, skipping blobs the snapshot lacks.

One `git cat-file --batch` process for all blobs (a snapshot missing some blobs makes
`git archive` fail; asking blob by blob is slow on large trees).
Usage: python scripts/extract_tree.py GITDIR COMMIT DEST
GITDIR may be a bare repository or a checkout (its `.git` is used): mirrors come in both forms.
"""

from __future__ import annotations

import os
import subprocess
import sys


def main() -> None:
    gitdir, commit, dest = sys.argv[1:4]
    if os.path.isdir(os.path.join(gitdir, ".git")):
        gitdir = os.path.join(gitdir, ".git")
    listing = subprocess.run(
        ["git", "--git-dir", gitdir, "ls-tree", "-r", "-z", commit],
        capture_output=True,
        check=True,
    ).stdout
    entries = []
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob":
            entries.append((mode, sha, path.decode(errors="replace")))
    proc = subprocess.Popen(
        ["git", "--git-dir", gitdir, "cat-file", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert proc.stdin and proc.stdout
    for mode, sha, rel in entries:
        proc.stdin.write(sha + b"\n")
        proc.stdin.flush()
        header = proc.stdout.readline().split()
        if len(header) < 3 or header[1] != b"blob":  # "<sha> missing"
            continue
        data = proc.stdout.read(int(header[2]))
        proc.stdout.read(1)  # the newline after the content
        path = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if mode == b"120000":
            try:
                os.symlink(data.decode(errors="replace"), path)
            except OSError:
                pass
            continue
        with open(path, "wb") as fh:
            fh.write(data)
        if mode == b"100755":
            os.chmod(path, 0o755)
    proc.stdin.close()
    proc.wait()


if __name__ == "__main__":
    main()
