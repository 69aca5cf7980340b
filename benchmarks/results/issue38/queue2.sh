#!/bin/sh
# issue 38, after queue1.sh: an exact search from more tiles for the master (4x playouts)
cd /work/wt-expert-time
while kill -0 $(cat /tmp/queue1.pid) 2>/dev/null; do sleep 30; done
benchmarks/results/issue38/screens.sh exact-x4-first-hand-vs-montecarlo 0 200 -- exact16-x4 exact18-x4 --base expert-x4 --playouts 1000 --opponent montecarlo --seed 38
