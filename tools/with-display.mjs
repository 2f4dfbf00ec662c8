#!/usr/bin/env node
// Runs a command where the GPU backends work without a GPU: under a display, so WebGL (headless-gl on Mesa's
// software OpenGL) works for the gpu backend (`xvfb-run -a` when DISPLAY is unset and xvfb-run exists), and with
// Vulkan pointed at SwiftShader (the driver Debian's chromium ships) for the webgpu backend's Dawn, where no
// Vulkan driver is installed and VK_ICD_FILENAMES is unset. Exits with the command's status.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const args = process.argv.slice(2);
if (args.length === 0) {
  console.error('usage: node tools/with-display.mjs <command> [args…]');
  process.exit(2);
}
const onPath = (cmd) => (process.env.PATH ?? '').split(delimiter).some((dir) => existsSync(join(dir, cmd)));
const wrap = !process.env.DISPLAY && process.platform === 'linux' && onPath('xvfb-run');
if (!process.env.DISPLAY && !wrap)
  console.error('with-display: no DISPLAY and no xvfb-run: the gpu backend will report that no WebGL is available');
const [cmd, ...rest] = wrap ? ['xvfb-run', '-a', ...args] : args;
const SWIFTSHADER = '/usr/lib/chromium/vk_swiftshader_icd.json';
const vulkanDrivers = ['/usr/share/vulkan/icd.d', '/etc/vulkan/icd.d'].some(
  (d) => existsSync(d) && readdirSync(d).length,
);
if (!process.env.VK_ICD_FILENAMES && !vulkanDrivers && existsSync(SWIFTSHADER))
  process.env.VK_ICD_FILENAMES = SWIFTSHADER;
// npx-style resolution of local binaries (vitest) happens through npm's PATH when run from an npm script.
const r = spawnSync(cmd, rest, { stdio: 'inherit' });
if (r.error) {
  console.error(`with-display: ${r.error.message}`);
  process.exit(1);
}
process.exit(r.status ?? 1);
