#!/usr/bin/env bash
# Tag every release cut among the commits of a push (docs/releasing.md): a commit whose package version is a
# release (no .dev) that its parent did not have and that has no tag yet gets the annotated tag vX.Y.Z, and (with
# gh and GH_TOKEN) a GitHub release whose notes are its CHANGELOG section. A cut followed by `develop` in one push
# is still tagged; a push of other commits tags nothing. Usage: tag-releases.sh [BEFORE] [AFTER] (default: HEAD).
set -euo pipefail
before="${1:-}"
after="${2:-HEAD}"
version_at() { git show "$1:workflow/humeval/__init__.py" 2>/dev/null | sed -n 's/^__version__ = "\(.*\)"$/\1/p'; }
if [ -n "$before" ] && git cat-file -e "$before^{commit}" 2>/dev/null; then
  commits=$(git rev-list --reverse "$before..$after")
else
  commits=$(git rev-parse "$after")
fi
for commit in $commits; do
  version=$(version_at "$commit")
  case "$version" in ""|*dev*) continue;; esac
  [ "$(version_at "$commit^" || true)" = "$version" ] && continue  # not the commit that cut it
  git rev-parse -q --verify "refs/tags/v$version" >/dev/null && continue
  git tag -a "v$version" -m "humeval-repro $version" "$commit"
  echo "tagged v$version at $commit"
  if [ -n "${GH_TOKEN:-}" ]; then
    git push origin "v$version"
    git show "$commit:CHANGELOG.md" | awk -v v="$version" '$0 ~ "^## \\[" v "\\]" {on=1; next} on && /^## \[/ {exit} on' > notes.md
    gh release create "v$version" --title "humeval-repro $version" --notes-file notes.md
  fi
done
