#!/usr/bin/env bash
# Makes sure the Debian packages listed in .ci/debian-packages are installed.
#   bash .ci/system-packages.sh           install what is missing when this user can (root, or
#                                         sudo without a password), else name the exact command
#                                         and exit 1 (at once: it never waits for a password)
#   bash .ci/system-packages.sh --check   only check (exit 1 naming the command when some are missing)
#   bash .ci/system-packages.sh --list    print the list
# On a system without dpkg it says what it needs and exits 0 (nothing it can check).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# SCANBRIDGE_DEBIAN_PACKAGES (the list's text) replaces the file, for the script's own test.
list="${SCANBRIDGE_DEBIAN_PACKAGES:-$(cat "$here/debian-packages")}"
mapfile -t packages < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' <<<"$list" | grep -v '^$')

if [ "${1:-}" = "--list" ]; then printf '%s\n' "${packages[@]}"; exit 0; fi

if ! command -v dpkg-query >/dev/null; then
  echo "system packages: not a Debian/Ubuntu system; the tests need the equivalents of: ${packages[*]}" >&2
  exit 0
fi

declare -A installed=()
while read -r name status; do
  [ "$status" = "installed" ] && installed["${name%%:*}"]=1
done < <(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${packages[@]}" 2>/dev/null || true)
missing=()
for p in "${packages[@]}"; do [ -n "${installed[$p]:-}" ] || missing+=("$p"); done
[ ${#missing[@]} -eq 0 ] && exit 0

line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "${1:-}" != "--check" ]; then
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo -n"; else sudo="none"; fi
  fi
  if [ "$sudo" != "none" ]; then
    echo "system packages: installing ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update </dev/null
    $sudo $line </dev/null
    exit 0
  fi
fi
echo "The tests need Debian packages that are not installed. Install them with:" >&2
echo "" >&2
echo "  sudo apt-get update && sudo $line" >&2
echo "" >&2
exit 1
