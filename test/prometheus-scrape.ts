/** One scrape, as Prometheus reads it: each sample by its name and labels. */
export class Scrape {
  private constructor(private readonly samples: Array<{ name: string; labels: string; value: number }>) {}

  static parse(text: string): Scrape {
    const samples = text
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => {
        const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{.*\})? (\S+)$/.exec(line);
        if (match === null) throw new Error(`not a Prometheus sample: ${line}`);
        return { name: match[1], labels: match[2] ?? '', value: Number(match[3]) };
      });
    return new Scrape(samples);
  }

  get lines(): ReadonlyArray<{ name: string; labels: string }> {
    return this.samples;
  }

  /** The sum of the samples of `name` that carry every one of `labels`. */
  value(name: string, labels: Record<string, string> = {}): number {
    const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
    return this.samples
      .filter((sample) => sample.name === name && wanted.every((label) => sample.labels.includes(label)))
      .reduce((sum, sample) => sum + sample.value, 0);
  }

  /** The sum of the samples of `name` whose labels (as written, `{a="1",b="2"}`) pass `test`. */
  valueWhere(name: string, test: (labels: string) => boolean): number {
    return this.samples
      .filter((sample) => sample.name === name && test(sample.labels))
      .reduce((sum, sample) => sum + sample.value, 0);
  }

  has(name: string): boolean {
    return this.samples.some((sample) => sample.name === name);
  }
}

/** `GET /metrics` of the service at `url`. */
export async function scrape(url: string, headers: Record<string, string> = {}): Promise<Scrape> {
  const response = await fetch(`${url}/metrics`, { headers });
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}`);
  return Scrape.parse(await response.text());
}
