#!/bin/sh
# Issue 38's partnership target, declared before it ran: the expert team against a
# montecarlo team, to 200, seeds 3861-3880 (20 chunks of 20 games, 400 in all, seeds
# never screened), each chunk named by the commit that played it. Skips seeds
# already played at any commit, so a later session continues it.
# Usage: partnerships.sh COMMIT   (from the worktree root); pool the chunks with
#   python benchmarks/pool.py benchmarks/results/issue38/expert-*-vs-montecarlo-partnerships-seed38*.json
commit=$1
for s in $(seq 3861 3880); do
  out=benchmarks/results/issue38/expert-$commit-vs-montecarlo-partnerships-seed$s.json
  for done in benchmarks/results/issue38/expert-*-vs-montecarlo-partnerships-seed$s.json; do
    [ -s "$done" ] && continue 2
  done
  nice -n 10 .venv/bin/allfives sim expert montecarlo --partnerships -n 20 --seed $s \
      --workers 2 --json --quiet > "$out.part" && mv "$out.part" "$out"
  echo "$(date +%H:%M:%S) partnerships seed $s done"
done
