#!/usr/bin/env bash
#
# ci-watchdog.sh PID SECONDS [FORK_SECONDS]: watches the test run PID. A Surefire fork (one module's test JVM)
# that runs past FORK_SECONDS (default 1500; the longest module takes under 10 minutes) is diagnosed and SIGKILLed,
# so its module fails at once ("the forked VM terminated") instead of the run hanging. After SECONDS, if PID still
# runs, the whole run is diagnosed and stopped. A diagnosis prints the process tree, each JVM's threads and the
# newest Surefire output, and ends with a summary (the stuck test and its main thread), because CI shows only the
# tail of what a run printed. Used by .ci/run, so a hung test fails with a diagnosis within CI's own time limit.
# Surefire's own forkedProcessTimeoutInSeconds did not end a hung fork here (measured: a 40 s limit, the fork ran on).
set -uo pipefail
pid=$1
limit=$2
fork_limit=${3:-1500}
deadline=$(( SECONDS + limit ))
sleeper=
trap 'kill $sleeper 2>/dev/null; exit 0' TERM INT

jcmd_bin="${JAVA_HOME:-/usr}/bin/jcmd"

# The summary of one JVM: what it is, the test class whose output is newest, and its main thread's top frames.
summary() {
  local jvm=$1
  echo "== ci-watchdog: summary of $jvm ($(ps -o etimes= -p "$jvm" 2>/dev/null | tr -d ' ') s old): $(tr '\0' ' ' < "/proc/$jvm/cmdline" 2>/dev/null | cut -c1-160)"
  local cwd newest
  cwd=$(readlink "/proc/$jvm/cwd" 2>/dev/null)
  newest=$(ls -t "$cwd"/target/surefire-reports*/*-output.txt 2>/dev/null | head -1)
  [ -n "$newest" ] && echo "   newest test output: $newest"
  timeout 20 "$jcmd_bin" "$jvm" Thread.print 2>/dev/null | awk '/^"main"/ {show=1} show && /^$/ {exit} show' | head -30
}

diagnose() {
  ps --ppid 2 -p 2 --deselect -o pid,ppid,etimes,rss,args --forest | cut -c1-300
  for jvm in $(pgrep -f 'surefire|plexus-classworlds|dev.roundhouse' || true); do
    echo "== ci-watchdog: threads of $jvm: $(tr '\0' ' ' < "/proc/$jvm/cmdline" 2>/dev/null | cut -c1-200)"
    timeout 20 "$jcmd_bin" "$jvm" Thread.print 2>&1 | head -400
  done
  for out in $(ls -t */target/surefire-reports*/*-output.txt 2>/dev/null | head -3); do
    echo "== ci-watchdog: the last lines of $out"
    tail -n 80 "$out"
  done
}

descendants() {
  local child
  for child in $(pgrep -P "$1"); do
    descendants "$child"
    echo "$child"
  done
}

while kill -0 "$pid" 2>/dev/null; do
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "== ci-watchdog: the tests still run after $limit s; what is running:"
    diagnose
    for jvm in $(pgrep -f 'surefirebooter' || true); do summary "$jvm"; done
    # Stop the tests: every descendant first (Maven, its forks, what they started), then the tree's root.
    victims=$(descendants "$pid")
    kill -TERM $victims "$pid" 2>/dev/null
    sleep 30
    kill -KILL $victims "$pid" 2>/dev/null
    exit 0
  fi
  for fork in $(pgrep -f 'surefirebooter' || true); do
    age=$(ps -o etimes= -p "$fork" 2>/dev/null | tr -d ' ')
    if [ -n "$age" ] && [ "$age" -ge "$fork_limit" ] && [ "$(ps -o comm= -p "$fork")" = java ]; then
      echo "== ci-watchdog: a test JVM has run $age s (over $fork_limit s); what is running:"
      diagnose
      summary "$fork"
      kill -KILL "$fork" 2>/dev/null
    fi
  done
  sleep 20 &
  sleeper=$!
  wait "$sleeper" 2>/dev/null
done
exit 0
