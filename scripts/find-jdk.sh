# shellcheck shell=bash
#
# Roundhouse: find a JDK 21 or newer.
#
# Source this file, then call roundhouse_find_jdk:
#
#     . "$root/scripts/find-jdk.sh"
#     roundhouse_find_jdk || exit 1
#
# On success it exports JAVA_HOME (and ROUNDHOUSE_JAVA_VERSION, the major
# version) and returns 0. Otherwise it says on stderr what to do and returns 1.
# It never writes to stdout.
#
# Where it looks, in this order:
#   1. $ROUNDHOUSE_JAVA_HOME  (explicit choice; a warning if it is unusable)
#   2. $JAVA_HOME
#   3. the `java` on PATH, symlinks resolved to its home
#   4. candidate homes in folders: /usr/lib/jvm/*, /usr/java/*, /opt/java/*,
#      /opt/jdk*, ~/.sdkman/candidates/java/*, and on macOS
#      /Library/Java/JavaVirtualMachines/*/Contents/Home and Homebrew's
#      openjdk kegs. ROUNDHOUSE_JDK_SEARCH_DIRS (space-separated folders whose
#      children are candidate homes) replaces this folder list.
# Steps 1-3 win as soon as one is a JDK 21+; step 4 picks the highest version.
#
# A candidate is a JDK when it has bin/java and bin/javac. Its version comes
# from its `release` file (JAVA_VERSION="21.0.2"), or, when there is none,
# from `bin/java -version`. Handles "1.8.0_392", "17.0.15", "21", "25-ea".
#
# Safe under `set -euo pipefail`, with any IFS, and with bash 3.2 (macOS).
#
# Run directly (`bash scripts/find-jdk.sh`) it prints what it picked.

# Major version of the Java at home $1 -> $_roundhouse_v ("" when unknown).
_roundhouse_jdk_version() {
  local home=$1 line="" v=""
  _roundhouse_v=""
  if [ -f "$home/release" ] && [ -r "$home/release" ]; then
    while IFS= read -r line || [ -n "$line" ]; do
      case $line in
        JAVA_VERSION=*)
          v=${line#JAVA_VERSION=}
          v=${v//\"/}
          v=${v%$'\r'}
          break
          ;;
      esac
    done <"$home/release"
  fi
  if [ -z "$v" ]; then
    line=$("$home/bin/java" -version 2>&1 </dev/null) || true
    case $line in
      *' version "'*)
        v=${line#*version \"}
        v=${v%%\"*}
        ;;
    esac
  fi
  case $v in 1.*) v=${v#1.} ;; esac # 1.8.0_392 -> 8
  v=${v%%[!0-9]*}                    # 17.0.15 -> 17, 25-ea -> 25
  _roundhouse_v=$v
}

# Real path of file $1 -> stdout (follows symlink chains).
_roundhouse_realpath() {
  local f=$1 target n=0
  if target=$(readlink -f "$f" 2>/dev/null) && [ -n "$target" ]; then
    printf '%s\n' "$target"
    return 0
  fi
  # BSD readlink without -f (older macOS): follow the chain by hand.
  while [ -L "$f" ] && [ "$n" -lt 40 ]; do
    target=$(readlink "$f" 2>/dev/null) || break
    case $target in
      /*) f=$target ;;
      *) f=${f%/*}/$target ;;
    esac
    n=$((n + 1))
  done
  printf '%s\n' "$f"
}

# Look at candidate home $1 (described as $2 in messages).
# Returns 0 if it is a JDK 21+ ($_roundhouse_v holds its major version),
# 1 if it is Java but not usable, 2 if there is no Java there, 3 if seen before.
_roundhouse_check() {
  local home=$1 from=${2:-} seen desc
  _roundhouse_v=""
  while [ "${#home}" -gt 1 ] && [ "${home%/}" != "$home" ]; do home=${home%/}; done
  if [ -z "$home" ] || [ ! -f "$home/bin/java" ] || [ ! -x "$home/bin/java" ]; then
    if [ -n "$from" ]; then
      _roundhouse_found+=("no Java at ${home:-<empty>} ($from)")
    fi
    return 2
  fi
  for seen in ${_roundhouse_seen[@]+"${_roundhouse_seen[@]}"}; do
    if [ "$seen" -ef "$home" ]; then return 3; fi
  done
  _roundhouse_seen+=("$home")
  _roundhouse_jdk_version "$home"
  desc="Java ${_roundhouse_v:-of unknown version}"
  if [ ! -x "$home/bin/javac" ]; then
    _roundhouse_found+=("$desc without javac (a JRE) at $home${from:+ ($from)}")
    return 1
  fi
  _roundhouse_found+=("$desc at $home${from:+ ($from)}")
  if [ -n "$_roundhouse_v" ] && [ "$_roundhouse_v" -ge "$_roundhouse_min" ]; then
    return 0
  fi
  return 1
}

# The search itself; sets _roundhouse_home and _roundhouse_best_v on success.
_roundhouse_search() {
  local javabin real home cand d
  local -a cands=()
  _roundhouse_home=""
  _roundhouse_best_v=0

  # 1. explicit choice
  if [ -n "${ROUNDHOUSE_JAVA_HOME:-}" ]; then
    if _roundhouse_check "$ROUNDHOUSE_JAVA_HOME" "ROUNDHOUSE_JAVA_HOME"; then
      _roundhouse_home=$ROUNDHOUSE_JAVA_HOME
      _roundhouse_best_v=$_roundhouse_v
      return 0
    fi
    echo "roundhouse: ignoring ROUNDHOUSE_JAVA_HOME=$ROUNDHOUSE_JAVA_HOME:" \
      "not a JDK $_roundhouse_min or newer (${_roundhouse_found[${#_roundhouse_found[@]}-1]:-no Java there})" >&2
  fi

  # 2. JAVA_HOME
  if [ -n "${JAVA_HOME:-}" ]; then
    if _roundhouse_check "$JAVA_HOME" "JAVA_HOME"; then
      _roundhouse_home=$JAVA_HOME
      _roundhouse_best_v=$_roundhouse_v
      return 0
    fi
  fi

  # 3. java on PATH
  javabin=$(command -v java 2>/dev/null) || javabin=""
  case $javabin in
    /*)
      real=$(_roundhouse_realpath "$javabin")
      home=${real%/*}  # .../bin
      home=${home%/*}  # ...
      case $home in */jre) home=${home%/jre} ;; esac # Java 8 layout
      if [ "$home" = /usr ] && [ ! -f /usr/release ] && [ -x /usr/libexec/java_home ]; then
        # macOS: /usr/bin/java is a stub; ask the system where the JDKs are.
        home=$(/usr/libexec/java_home -v "$_roundhouse_min+" 2>/dev/null) || home=""
      fi
      if [ -n "$home" ] && _roundhouse_check "$home" "java on PATH"; then
        _roundhouse_home=$home
        _roundhouse_best_v=$_roundhouse_v
        return 0
      fi
      ;;
  esac

  # 4. well-known folders: highest version wins
  if [ -n "${ROUNDHOUSE_JDK_SEARCH_DIRS:-}" ]; then
    for d in $ROUNDHOUSE_JDK_SEARCH_DIRS; do
      cands+=("$d"/* "$d"/*/Contents/Home)
    done
  else
    cands=(
      /usr/lib/jvm/*
      /usr/java/*
      /opt/java/*
      /opt/jdk*
      "${HOME:-/nonexistent}"/.sdkman/candidates/java/*
      /Library/Java/JavaVirtualMachines/*/Contents/Home
      /opt/homebrew/opt/openjdk*/libexec/openjdk.jdk/Contents/Home
      /usr/local/opt/openjdk*/libexec/openjdk.jdk/Contents/Home
    )
  fi
  for cand in ${cands[@]+"${cands[@]}"}; do
    # an unmatched glob stays as the literal pattern; _roundhouse_check skips it
    if _roundhouse_check "$cand" && [ "$_roundhouse_v" -gt "$_roundhouse_best_v" ]; then
      _roundhouse_home=$cand
      _roundhouse_best_v=$_roundhouse_v
    fi
  done
  [ -n "$_roundhouse_home" ]
}

roundhouse_find_jdk() {
  local IFS=$' \t\n' noglob="" rc=0 found="" item
  _roundhouse_min=21
  _roundhouse_seen=()
  _roundhouse_found=()
  case $- in *f*) noglob=1; set +f ;; esac

  _roundhouse_search || rc=1

  if [ -n "$noglob" ]; then set -f; fi
  if [ "$rc" -eq 0 ]; then
    while [ "${#_roundhouse_home}" -gt 1 ] && [ "${_roundhouse_home%/}" != "$_roundhouse_home" ]; do
      _roundhouse_home=${_roundhouse_home%/}
    done
    JAVA_HOME=$_roundhouse_home
    ROUNDHOUSE_JAVA_VERSION=$_roundhouse_best_v
    export JAVA_HOME ROUNDHOUSE_JAVA_VERSION
    return 0
  fi

  for item in ${_roundhouse_found[@]+"${_roundhouse_found[@]}"}; do
    found="${found:+$found; }$item"
  done
  echo "roundhouse: needs a JDK $_roundhouse_min or newer (found: ${found:-none})." \
    "Install one, e.g. 'apt-get install openjdk-$_roundhouse_min-jdk-headless' (Debian/Ubuntu)" \
    "or 'brew install openjdk@$_roundhouse_min' (macOS), or set ROUNDHOUSE_JAVA_HOME to its folder." >&2
  return 1
}

# Executed rather than sourced: report the pick (handy when debugging).
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  roundhouse_find_jdk || exit 1
  echo "JAVA_HOME=$JAVA_HOME (Java $ROUNDHOUSE_JAVA_VERSION)"
fi
