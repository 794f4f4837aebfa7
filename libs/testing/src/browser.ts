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

/** Reports each `securitypolicyviolation` of every page to the test, before any page script runs. */
const REPORT_VIOLATIONS = `document.addEventListener('securitypolicyviolation', (event) => {
  window.reportCspViolation(event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline') + ' at ' + event.sourceFile + ':' + event.lineNumber);
});`;

/**
 * A headless Chromium with a fresh profile (no cache, no state between runs), and its first page.
 * It records every Content-Security-Policy violation of its pages (the event, and Chromium's
 * console message for what the event misses), so a test can say the pages work under their policy.
 */
export class Browser {
  readonly cspViolations: string[] = [];

  private constructor(
    readonly context: BrowserContext,
    readonly page: Page,
    private readonly profile: string,
  ) {}

  private async watchCsp(): Promise<void> {
    await this.context.exposeFunction('reportCspViolation', (text: string) => this.cspViolations.push(text));
    await this.context.addInitScript(REPORT_VIOLATIONS);
    this.page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) this.cspViolations.push(message.text());
    });
  }

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
    const browser = new Browser(context, page, profile);
    await browser.watchCsp();
    return browser;
  }

  async close(): Promise<void> {
    await this.context.close();
    rmSync(this.profile, { recursive: true, force: true });
  }
}
