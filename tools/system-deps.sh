#!/usr/bin/env bash
# System packages the tests need beyond npm: Debian's Chromium for the headless browser test.
# Used by `npm run setup` and by .ci/run; installs only what is missing.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "The browser test needs: ${missing[*]}. Install with: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 0
fi
echo "installing ${missing[*]} (apt)"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
