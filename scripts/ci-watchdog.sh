#!/usr/bin/env bash
#
# ci-watchdog.sh PID SECONDS: after SECONDS, if PID still runs, prints what is running (the process tree,
# each JVM's threads, the newest Surefire output) and stops PID's process tree. Used by .ci/run, so a hung
# test fails with a diagnosis instead of running into CI's own time limit.
set -uo pipefail
pid=$1
limit=$2
sleep "$limit" &
sleeper=$!
trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM INT
wait "$sleeper" || exit 0
kill -0 "$pid" 2>/dev/null || exit 0

echo "== ci-watchdog: the tests still run after $limit s; what is running:"
ps --ppid 2 -p 2 --deselect -o pid,ppid,etimes,rss,args --forest | cut -c1-300
for jvm in $(pgrep -f 'surefire|plexus-classworlds|dev.roundhouse' || true); do
  echo "== ci-watchdog: threads of $jvm: $(tr '\0' ' ' < "/proc/$jvm/cmdline" 2>/dev/null | cut -c1-200)"
  timeout 20 "${JAVA_HOME:-/usr}/bin/jcmd" "$jvm" Thread.print 2>&1 | head -400
done
for out in $(ls -t */target/surefire-reports*/*-output.txt 2>/dev/null | head -3); do
  echo "== ci-watchdog: the last lines of $out"
  tail -n 80 "$out"
done

# Stop the tests: every descendant first (Maven, its forks, what they started), then the tree's root.
descendants() {
  local child
  for child in $(pgrep -P "$1"); do
    descendants "$child"
    echo "$child"
  done
}
victims=$(descendants "$pid")
kill -TERM $victims "$pid" 2>/dev/null
sleep 30
kill -KILL $victims "$pid" 2>/dev/null
exit 0
