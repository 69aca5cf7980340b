#!/bin/sh
# Issue 38's tree-against-flat choice for partners, declared before it ran: the expert
# as shipped (the flat search for partners) and the tree (`tree-partners`) each play
# whole games against a montecarlo team at 0.25 s a move, on the same 200 deals from
# both seatings (400 paired games each), seed 3890 (never screened), in chunks of 20
# deals that a later session continues. Usage: tree-partners-games.sh (from the
# worktree root); pool the chunks with
#   python benchmarks/screen_pool.py benchmarks/results/issue38/screen-tree-partners-games-deals*.json
for d in $(seq 0 20 180); do
  out=benchmarks/results/issue38/screen-tree-partners-games-deals$d.json
  [ -s "$out" ] && continue
  nice -n 10 .venv/bin/python benchmarks/screen.py tree-partners --base expert --mode game \
      --partnerships --players 4 --opponent montecarlo --budget 0.25 --seed 3890 \
      --first-deal $d --deals 20 --workers 2 --json > "$out.part" 2>/dev/null \
      && mv "$out.part" "$out"
  echo "$(date +%H:%M:%S) tree-partners games deals $d-$((d + 19)) done"
done
