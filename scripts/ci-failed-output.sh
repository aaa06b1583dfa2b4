#!/usr/bin/env bash
#
# ci-failed-output.sh: prints the last lines of what each failed test class wrote. Surefire writes a test's
# output to files (redirectTestOutputToFile) and CI keeps only what .ci/run printed.
set -uo pipefail
for report in */target/surefire-reports*/TEST-*.xml; do
  [ -f "$report" ] || continue
  if grep -q -E '<(failure|error)[ >]' "$report"; then
    class=$(basename "$report" .xml)
    class=${class#TEST-}
    out="${report%/*}/$class-output.txt"
    echo "== failed: $class"
    grep -A 12 -E '<(failure|error)[ >]' "$report" | head -60
    if [ -f "$out" ]; then
      echo "== the last lines $class wrote ($out)"
      tail -n 120 "$out"
    fi
  fi
done
