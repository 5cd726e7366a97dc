import type { BrowserContext } from "playwright-core"

/** The Chromium the tests use: $CHROMIUM_PATH, else /usr/bin/chromium. */
export declare const executablePath: string
/** Whether that Chromium exists (the browser tests are skipped, with a warning, when not). */
export declare const hasChromium: boolean
/** Headless Chromium with a fresh profile; `close` ends it and removes the profile. */
export declare const launch: (options?: { readonly viewport?: { readonly width: number; readonly height: number } }) => Promise<{
  readonly context: BrowserContext
  readonly close: () => Promise<void>
}>
