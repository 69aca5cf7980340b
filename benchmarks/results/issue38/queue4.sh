#!/bin/sh
# issue 38, after queue3.sh: the tree against the flat search for partners (a screen)
cd /work/wt-expert-time
while kill -0 $(cat /tmp/queue3.pid) 2>/dev/null; do sleep 30; done
benchmarks/results/issue38/screens.sh tree-partners-first-hand-vs-montecarlo 0 200 -- tree-partners --partnerships --base flat --playouts 1000 --opponent montecarlo --seed 38
