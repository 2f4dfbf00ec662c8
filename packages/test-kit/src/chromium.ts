import { chromium } from 'playwright-core';

/**
 * Debian's headless Chromium, as the browser tests drive it. The flags keep it from reaching for the network it
 * does not have (background updates and sync are refused here, many at a time) and from wanting a GPU or sandbox.
 */
export function launchChromium(profileDir: string) {
  return chromium.launchPersistentContext(profileDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // WebGPU (the webgpu backend) on SwiftShader's Vulkan, which needs no GPU: navigator.gpu on a localhost page.
      '--enable-unsafe-webgpu',
      '--enable-features=Vulkan',
      '--use-webgpu-adapter=swiftshader',
    ],
  });
}

export type Chromium = Awaited<ReturnType<typeof launchChromium>>;
