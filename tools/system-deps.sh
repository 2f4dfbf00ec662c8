#!/usr/bin/env bash
# System packages the tests need beyond npm: Debian's Chromium for the headless browser test, and for the gpu
# backend in Node: the headers headless-gl (`gl`) builds against, Mesa's software OpenGL and xvfb for a display.
# Used by `npm run setup` and by .ci/run; installs only what is missing.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
# libvulkan1: the Vulkan loader Dawn (the webgpu backend in Node) opens; on a machine without a GPU it runs on the
# SwiftShader driver that the chromium package ships.
for pkg in libxi-dev libglu1-mesa-dev libglew-dev pkg-config libx11-dev libxext-dev libgl1-mesa-dri xvfb xauth libvulkan1; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "The browser and gpu tests need: ${missing[*]}. Install with: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 0
fi
echo "installing ${missing[*]} (apt)"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
