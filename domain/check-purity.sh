#!/usr/bin/env bash
# Proves that the domain crate is pure (for CI: `bash domain/check-purity.sh`).
#
# 1. Its normal dependency tree contains no database, HTTP, async or other
#    I/O crate (denylist, as Lemmy does for its API types).
# 2. Stronger: every crate in that tree is on a short allowlist, so a new
#    dependency has to be added here on purpose.
set -euo pipefail
cd "$(dirname "$0")/.."

tree=$(cargo tree -p domain -e normal --prefix none | sed 's/ .*//' | sort -u)

denied='^(diesel.*|actix.*|tokio.*|async-.*|futures.*|mio|hyper.*|reqwest|h2|http|socket2|r2d2|rusqlite|libsqlite3-sys|pq-sys|sqlx.*|postgres.*|utoipa.*)$'
if bad=$(grep -E "$denied" <<<"$tree"); then
    echo "domain depends on I/O crates:" >&2
    echo "$bad" >&2
    exit 1
fi

allowed='^(domain|serde|serde_core|serde_derive|thiserror|thiserror-impl|arrayvec|proc-macro2|quote|syn|unicode-ident)$'
if extra=$(grep -vE "$allowed" <<<"$tree"); then
    echo "domain has dependencies outside its allowlist (review them, then extend the list):" >&2
    echo "$extra" >&2
    exit 1
fi

for crate in diesel actix-web tokio; do
    # Prints the inverted tree if $crate is a normal dependency, nothing
    # otherwise (and fails when no package of that name is in the lockfile).
    if [ -n "$(cargo tree -p domain -e normal -i "$crate" 2>/dev/null)" ]; then
        echo "domain depends on $crate" >&2
        exit 1
    fi
done
echo "domain is pure: $(wc -l <<<"$tree") crates, all allowed"
