import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const USUAL_PATHS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

/** The browser named by CHROMIUM_PATH or CHROME_PATH, else the first usual install found. */
export function findChromium(): string | undefined {
  const named = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH;
  if (named !== undefined) return named;
  return USUAL_PATHS.find((path) => existsSync(path));
}

/** A headless Chromium with a fresh profile (no cache, no state between runs), and its first page. */
export class Browser {
  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    private readonly profile: string,
  ) {}

  static async launch(viewport = { width: 1280, height: 800 }): Promise<Browser> {
    const executablePath = findChromium();
    if (executablePath === undefined || !existsSync(executablePath)) {
      throw new Error(
        `no Chrome or Chromium at ${executablePath ?? USUAL_PATHS.join(', ')}: apt-get install chromium (as .ci/run does), or set CHROMIUM_PATH`,
      );
    }
    const profile = mkdtempSync(join(tmpdir(), 'tps-chromium-'));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      viewport,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    return new Browser(context, page, profile);
  }

  async close(): Promise<void> {
    await this.context.close();
    rmSync(this.profile, { recursive: true, force: true });
  }
}
