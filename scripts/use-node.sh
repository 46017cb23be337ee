#!/usr/bin/env bash
# shellcheck shell=bash
# The Node that Waygate is built, tested and shipped on (the version in .nvmrc; docs/development.md), for a machine
# whose own Node is another major line. Downloads that exact version once from the npm registry (the
# official binaries are published there as node-linux-<arch>), caches it outside the repository, and puts it first
# on PATH with npm_config_nodedir at its headers, so node-gyp builds any native addon for that Node (the user npmrc
# here sets nodedir=/usr, the system Node's headers).
#
#   source scripts/use-node.sh       # this bash shell: node, npm and npx run on the pinned Node from now on
#   scripts/use-node.sh <command…>   # one command under it, e.g. scripts/use-node.sh npm install
#
# A Node of the same major line already on PATH is used as it is. .ci/run sources this file too.
# Env: WAYGATE_NODE_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/waygate), where the binaries are kept.

_waygate_use_node() {
  local root want have os arch cache dir tmp tarball
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)" || return 1
  want="$(tr -d ' \t\r\nv' <"$root/.nvmrc")" || return 1
  # Under npm, the Node that runs npm is named in npm_config_user_agent ("npm/11.6.2 node/v24.21.0 linux x64 …"): when
  # that Node is the `node` on PATH, its version is known without starting it (about 30 ms of every `npm start`).
  case "${npm_config_user_agent:-}" in
    *" node/v"*)
      if [ -n "${npm_node_execpath:-}" ] && [ "$(command -v node)" = "$npm_node_execpath" ]; then
        have="${npm_config_user_agent#* node/}"
        have="${have%% *}"
      fi
      ;;
  esac
  [ -n "${have:-}" ] || have="$(node --version 2>/dev/null || true)"
  if [ "${have%%.*}" = "v${want%%.*}" ]; then
    return 0
  fi

  case "$(uname -s)" in
    Linux) os=linux ;;
    *)
      echo "use-node: no Node binary package for $(uname -s) on the npm registry; install Node $want yourself" \
        "(nvm and fnm read .nvmrc)" >&2
      return 1
      ;;
  esac
  case "$(uname -m)" in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *)
      echo "use-node: no Node binary package for $(uname -m); install Node $want yourself" >&2
      return 1
      ;;
  esac

  cache="${WAYGATE_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/waygate}"
  dir="$cache/node-v$want-$os-$arch"
  if [ ! -x "$dir/bin/node" ]; then
    echo "use-node: fetching Node $want (node-$os-$arch from the npm registry) into $dir" >&2
    mkdir -p "$cache" || return 1
    tmp="$(mktemp -d "$cache/.download.XXXXXX")" || return 1
    # `npm pack` checks the tarball against the registry's integrity hash; it runs on whatever Node is here.
    if ! tarball="$(npm pack --silent --pack-destination "$tmp" "node-$os-$arch@$want" 2>"$tmp/npm.log")" ||
      ! tar -xzf "$tmp/$tarball" -C "$tmp" ||
      [ "$("$tmp/package/bin/node" --version 2>/dev/null)" != "v$want" ]; then
      grep -v 'Unknown .*config "nodedir"' "$tmp/npm.log" >&2
      echo "use-node: could not fetch and run node-$os-$arch@$want from the npm registry" >&2
      rm -rf "$tmp"
      return 1
    fi
    # A rename, so a concurrent run or an interrupted download never leaves half a Node in $dir.
    mv -T "$tmp/package" "$dir" 2>/dev/null || [ -x "$dir/bin/node" ] || {
      rm -rf "$tmp"
      return 1
    }
    rm -rf "$tmp"
  fi
  export PATH="$dir/bin:$PATH"
  export npm_config_nodedir="$dir"
  hash -r
  echo "use-node: Node $want from $dir (was ${have:-none}); native addons build against its headers" >&2
}

if [ "${BASH_SOURCE[0]}" != "$0" ]; then
  _waygate_use_node
else
  _waygate_use_node || exit 1
  if [ $# -gt 0 ]; then
    exec "$@"
  fi
  echo "use-node: this only changes the PATH of the command it runs; to change this shell: source $0" >&2
fi
