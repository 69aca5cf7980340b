#!/bin/sh
# issue 38, after queue2.sh: 3 players, the expert against two montecarlo seats (reported)
cd /work/wt-expert-time
while kill -0 $(cat /tmp/queue2.pid) 2>/dev/null; do sleep 30; done
for s in 3851 3852; do
  out=benchmarks/results/issue38/expert-$(git rev-parse --short HEAD)-vs-montecarlo-montecarlo-seed$s.json
  nice -n 19 .venv/bin/allfives sim expert montecarlo montecarlo -n 30 --seed $s --workers 2 \
      --json --quiet > "$out.part" && mv "$out.part" "$out"
  echo "$(date +%H:%M:%S) 3 players seed $s done"
done
