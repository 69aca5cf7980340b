#!/bin/sh
# Issue 38's master target, declared before it ran: the master (1 s a move) against
# the expert (0.25 s), two players to 250, seeds 3901-3920 (20 chunks of 20 games,
# 400 in all, seeds never screened), each chunk named by the commit that played it.
# Skips seeds already played at any commit, so a later session continues it.
# Usage: master-games.sh COMMIT   (from the worktree root); pool the chunks with
#   python benchmarks/pool.py benchmarks/results/issue38/master-*-vs-expert-seed39*.json
commit=$1
for s in $(seq 3901 3920); do
  out=benchmarks/results/issue38/master-$commit-vs-expert-seed$s.json
  for done in benchmarks/results/issue38/master-*-vs-expert-seed$s.json; do
    [ -s "$done" ] && continue 2
  done
  nice -n 10 .venv/bin/allfives sim master expert -n 20 --seed $s \
      --workers 2 --json --quiet > "$out.part" && mv "$out.part" "$out"
  echo "$(date +%H:%M:%S) master seed $s done"
done
