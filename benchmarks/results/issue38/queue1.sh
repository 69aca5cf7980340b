#!/bin/sh
cd /work/wt-expert-time
# wait for the odds screen to end
while kill -0 $(cat /tmp/screens.pid) 2>/dev/null; do sleep 30; done
benchmarks/results/issue38/screens.sh time-first-hand-vs-montecarlo 0 300 -- expert-x4 depth2 depth3 depth2-x4 --base expert --playouts 1000 --opponent montecarlo --seed 38
benchmarks/results/issue38/screens.sh partners-first-hand-vs-montecarlo 0 300 -- flat-partner-odds2 flat-partner-odds4 flat-team-odds2 --partnerships --base flat --playouts 1000 --opponent montecarlo --seed 38
