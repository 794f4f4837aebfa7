import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ApiConfig } from '../config/api-config';
import type { ApiMessages } from '../messages/api-messages';
import { ApiMetrics } from './api-metrics';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({ Injectable: () => () => undefined, Inject: () => () => undefined }));

const DASHBOARD = join(__dirname, '../../../../docs/grafana-dashboard.json');

interface Panel {
  title: string;
  gridPos: Record<string, unknown>;
  targets: Array<{ expr: string }>;
}

const panelsOf = (): Panel[] => (JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: Panel[] }).panels;

/** The metric names a PromQL expression reads (functions and keywords are followed by "("). */
function metricNames(expr: string): string[] {
  const withoutLabels = expr.replace(/\{[^}]*\}/g, ' ').replace(/\[[^\]]*\]/g, ' ');
  return [...withoutLabels.matchAll(/[a-z_][a-z0-9_]*(?![a-z0-9_]*\s*\()/g)]
    .map(([name]) => name)
    .filter((name) => name.includes('_') && !['by', 'le'].includes(name));
}

describe('the Grafana dashboard in docs/', () => {
  it('reads only metrics that the service exposes', async () => {
    const metrics = new ApiMetrics(
      { REPLICA_ID: 'spec' } as ApiConfig,
      { subscribe: () => () => undefined } as unknown as ApiMessages,
    );
    // The replica that reads the cluster's figures exports them too.
    metrics.exportClusterFigures(true);
    // Each family of a scrape by its TYPE line (a family with no sample yet has no sample line);
    // a histogram's samples are its _bucket, _count and _sum.
    const exposed = new Set(
      [...(await metrics.scrape()).matchAll(/^# TYPE (\S+) (\S+)$/gm)].flatMap(([, name, type]) =>
        type === 'histogram' ? [`${name}_bucket`, `${name}_count`, `${name}_sum`] : [name],
      ),
    );
    metrics.onModuleDestroy();
    const read = panelsOf().flatMap((panel) => panel.targets.flatMap((target) => metricNames(target.expr)));
    expect(read.length).toBeGreaterThan(10);
    expect(read.filter((name) => !exposed.has(name))).toEqual([]);
  });

  it('places every panel on the grid with whole numbers: Grafana lays out nothing else', () => {
    const misplaced = panelsOf().filter(
      ({ gridPos }) => !['x', 'y', 'w', 'h'].every((key) => Number.isInteger(gridPos[key])),
    );
    expect(misplaced.map((panel) => [panel.title, panel.gridPos])).toEqual([]);
  });
});
