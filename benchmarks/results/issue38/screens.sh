#!/bin/sh
# Paired screens (issue 38), each in chunks of 100 deals so that figures come as they go.
# Usage: screens.sh NAME FIRST LAST -- SCREEN-ARGS...   (from the worktree root)
name=$1; first=$2; last=$3; shift 4
d=$first
while [ $d -lt $last ]; do
  out=benchmarks/results/issue38/screen-$name-deals$d.json
  if [ ! -s "$out" ]; then
    nice -n 19 .venv/bin/python benchmarks/screen.py "$@" --first-deal $d --deals 100 \
        --workers 2 --json > "$out.part" 2>/dev/null && mv "$out.part" "$out"
    echo "$(date +%H:%M:%S) $name deals $d-$((d + 99)) done"
  fi
  d=$((d + 100))
done
