# shellcheck shell=bash
#
# Roundhouse: the start cache. The JVM spends most of a cold start loading, verifying and linking the same
# classes every time; a cache of them, made once for a given jar and JDK, cuts that out:
#   JDK 25+    the JDK's AOT cache (JEP 483/514/515): trained with -XX:AOTCacheOutput, used with -XX:AOTCache
#   JDK 21-24  a dynamic CDS archive: trained with -XX:ArchiveClassesAtExit, used with -XX:SharedArchiveFile
#
# Source this file, then call roundhouse_start_cache JAR TARGET_DIR (after roundhouse_find_jdk). It sets
# the array roundhouse_start_opts to the JVM options for this launch, and returns 0 whatever happens:
#   - the cache for this jar and JDK exists: options that use it;
#   - it does not: no cache options, and a training run starts in the background (detached, niced,
#     stdin/stdout/stderr off the terminal), which runs `java -jar JAR start-training` once, checks that
#     the JVM accepts the result, and only then moves it into place.
# The cache's name carries a key made of the jar (path, size, modification time), the JDK (home, its
# `release` file, libjvm's size and time) and ROUNDHOUSE_JAVA_OPTS, so a rebuilt jar or another JDK simply
# has no cache yet; a successful training removes the caches of other keys. A training that fails leaves a
# `.failed` marker so it is not retried for that key. The training's check reads the whole file
# (-XX:+VerifySharedSpaces) before it is moved into place; after that the JVM checks the cache's header and the
# jar's identity when it maps it and runs without it when anything is off; its messages about the cache are switched off (stdout belongs to the stdio faces), unless
# ROUNDHOUSE_LAUNCHER_DEBUG=1, which also makes this script say what it decided, on stderr.
#
# Where: TARGET_DIR/start-cache (the build output, beside the jar), or, when that is not writable,
# ${ROUNDHOUSE_HOME:-~/.roundhouse}/cache/start. ROUNDHOUSE_START_CACHE=off turns it all off.
#
# Safe under `set -euo pipefail` and with bash 3.2; never writes to stdout.

_roundhouse_cache_debug() {
  if [ "${ROUNDHOUSE_LAUNCHER_DEBUG:-}" = 1 ]; then printf 'roundhouse: start cache: %s\n' "$*" >&2; fi
}

# The key of this jar + JDK + options -> stdout. Every launch computes it, so it forks little: one stat for
# all the files (GNU, then BSD), one cksum; the JDK's release file is read by the shell itself.
_roundhouse_cache_key() {
  local jar=$1 line key file files=()
  for file in "$jar" "$JAVA_HOME/lib/server/libjvm.so" "$JAVA_HOME/lib/server/libjvm.dylib"; do
    if [ -e "$file" ]; then files+=("$file"); fi
  done
  key=$({
    printf '%s\n' "$JAVA_HOME" "${ROUNDHOUSE_JAVA_OPTS:-}"
    stat -c '%n %s %Y' "${files[@]}" 2>/dev/null || stat -f '%N %z %m' "${files[@]}" 2>/dev/null || true
    if [ -r "$JAVA_HOME/release" ]; then
      while IFS= read -r line || [ -n "$line" ]; do printf '%s\n' "$line"; done <"$JAVA_HOME/release"
    fi
  } | cksum)
  printf '%s\n' "${key%% *}"
}

# A writable cache folder -> stdout, or nothing.
_roundhouse_cache_dir() {
  local target=$1 dir
  for dir in "${ROUNDHOUSE_START_CACHE_DIR:-}" "$target/start-cache" "${ROUNDHOUSE_HOME:-${HOME:-/nonexistent}/.roundhouse}/cache/start"; do
    [ -n "$dir" ] || continue
    if { [ -d "$dir" ] || mkdir -p "$dir" 2>/dev/null; } && [ -w "$dir" ]; then
      printf '%s\n' "$dir"
      return 0
    fi
  done
}

# The training run, in the background: $1 jar, $2 dir, $3 final cache file, $4 kind (aot|cds).
_roundhouse_cache_train() {
  local jar=$1 dir=$2 file=$3 kind=$4 tmp lock log status=0 old
  tmp=$file.$$.tmp
  lock=$file.training
  log=$dir/training.log
  local -a train check
  if [ "$kind" = aot ]; then
    train=(-XX:AOTCacheOutput="$tmp")
    check=(-XX:AOTCache="$tmp" -XX:AOTMode=on -XX:+VerifySharedSpaces)
  else
    train=(-XX:ArchiveClassesAtExit="$tmp")
    check=(-XX:SharedArchiveFile="$tmp" -Xshare:on -XX:+VerifySharedSpaces)
  fi
  {
    echo "training $file ($(date 2>/dev/null || true))"
    # shellcheck disable=SC2086
    if "$JAVA_HOME/bin/java" -Xmx512m ${roundhouse_quiet_opts:-} ${ROUNDHOUSE_JAVA_OPTS:-} "${train[@]}" -jar "$jar" start-training &&
      [ -s "$tmp" ] &&
      "$JAVA_HOME/bin/java" -Xmx512m ${roundhouse_quiet_opts:-} ${ROUNDHOUSE_JAVA_OPTS:-} "${check[@]}" -jar "$jar" --version; then
      mv -f "$tmp" "$file"
      for old in "$dir"/roundhouse-*; do
        case $old in "$file" | "$lock") ;; *) rm -rf "$old" ;; esac
      done
      echo "done: $file"
    else
      status=$?
      : >"$file.failed"
      echo "failed (status $status): no start cache for this jar and JDK; see above"
    fi
  } </dev/null >"$log" 2>&1
  rm -f "$tmp" "$tmp.config" "$file.config"
  rm -rf "$lock"
}

# The JVM's own messages go to stderr (by default they go to stdout, which the stdio faces speak their
# protocol on), and its messages about the cache only with ROUNDHOUSE_LAUNCHER_DEBUG=1.
_roundhouse_cache_logging() {
  if [ "${ROUNDHOUSE_LAUNCHER_DEBUG:-}" = 1 ]; then
    roundhouse_start_opts+=(-Xlog:disable -Xlog:all=warning,aot=info,cds=info:stderr)
  else
    roundhouse_start_opts+=(-Xlog:disable -Xlog:all=warning,aot*=off,cds*=off:stderr)
  fi
}

roundhouse_start_cache() {
  local jar=$1 target=$2 dir key kind ext file holder
  roundhouse_start_opts=()
  case ${ROUNDHOUSE_START_CACHE:-on} in
    off | 0 | false | no)
      _roundhouse_cache_debug "off (ROUNDHOUSE_START_CACHE=${ROUNDHOUSE_START_CACHE})"
      return 0
      ;;
  esac
  if [ "${ROUNDHOUSE_JAVA_VERSION:-0}" -ge 25 ]; then
    kind=aot ext=aot
  elif [ "${ROUNDHOUSE_JAVA_VERSION:-0}" -ge 21 ]; then
    kind=cds ext=jsa
  else
    return 0
  fi
  dir=$(_roundhouse_cache_dir "$target")
  if [ -z "$dir" ]; then
    _roundhouse_cache_debug "no writable folder for it; starting without"
    return 0
  fi
  key=$(_roundhouse_cache_key "$jar")
  file=$dir/roundhouse-$key.$ext
  if [ -s "$file" ]; then
    _roundhouse_cache_debug "using $file"
    if [ "$kind" = aot ]; then
      roundhouse_start_opts=(-XX:AOTCache="$file")
    else
      roundhouse_start_opts=(-XX:SharedArchiveFile="$file")
    fi
    # No -XX:+VerifySharedSpaces here: the training checked the whole file before moving it into place, and the
    # checksum of 65 MB cost every start 0.1 s (docs/performance.md); the JVM still checks header and jar.
    roundhouse_start_opts+=(-Droundhouse.startCache="$file")
    _roundhouse_cache_logging
    return 0
  fi
  _roundhouse_cache_logging
  if [ -e "$file.failed" ]; then
    _roundhouse_cache_debug "training failed before for this jar and JDK (see $dir/training.log); starting without"
    return 0
  fi
  # One training at a time: mkdir is atomic; a lock whose holder died is taken over.
  if ! mkdir "$file.training" 2>/dev/null; then
    holder=$(cat "$file.training/pid" 2>/dev/null || true)
    if [ -n "$holder" ] && kill -0 "$holder" 2>/dev/null; then
      _roundhouse_cache_debug "being trained (pid $holder); starting without"
      return 0
    fi
    rm -rf "$file.training"
    mkdir "$file.training" 2>/dev/null || return 0
  fi
  _roundhouse_cache_debug "none for this jar and JDK yet; training $file in the background (log $dir/training.log)"
  (
    trap '' HUP
    echo "${BASHPID:-$$}" >"$file.training/pid" 2>/dev/null || true
    # the training shares the machine with the launch that started it: give way to it
    renice -n 10 -p "${BASHPID:-$$}" >/dev/null 2>&1 || true
    _roundhouse_cache_train "$jar" "$dir" "$file" "$kind"
  ) </dev/null >/dev/null 2>&1 &
  return 0
}
