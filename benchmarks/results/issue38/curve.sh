#!/bin/sh
# The strength curve (issue 38): the expert at 1/16 .. 1 s a move against montecarlo at
# 0.25 s, 2 players, 20-game seeded chunks, the same seeds at every budget.
# Usage: curve.sh COMMIT SEED [SEED ...]   (from the worktree root)
commit=$1; shift
for s in "$@"; do
  for b in 0.0625 0.125 0.25 0.5 1; do
    out=benchmarks/results/issue38/curve-expert@$b-$commit-vs-montecarlo-seed$s.json
    [ -s "$out" ] && continue
    nice -n 19 .venv/bin/allfives sim expert@$b montecarlo -n 20 --seed $s --workers 2 \
        --json --quiet > "$out.part" && mv "$out.part" "$out"
    echo "$(date +%H:%M:%S) seed $s budget $b done" 
  done
done
