import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '@tps/testing';
import type { Json } from './payment-helpers';

const run = promisify(execFile);

/** The compose tool: Debian's `docker-compose` package, which .ci/run installs. */
async function compose(...args: string[]): Promise<string> {
  const { stdout } = await run('docker-compose', args, { cwd: REPO_ROOT });
  return stdout;
}

/**
 * The file as compose reads it, every variable at its default, as JSON. PyYAML comes with Debian's
 * docker-compose: the project keeps no YAML parser of its own for one file.
 */
async function resolved(profile: string): Promise<Json> {
  const yaml = await compose('--profile', profile, 'config');
  const toJson = run('python3', ['-c', 'import json,sys,yaml; print(json.dumps(yaml.safe_load(sys.stdin)))']);
  toJson.child.stdin?.end(yaml);
  return JSON.parse((await toJson).stdout) as Json;
}

/** What a healthcheck asks for: the URL in its `fetch(…)`, in a command string or a list. */
function checkedUrl(service: Json): string | undefined {
  const test = (service.healthcheck as { test: string | string[] } | undefined)?.test;
  return (Array.isArray(test) ? test.join(' ') : test)?.match(/fetch\('([^']+)'\)/)?.[1];
}

describe('docker-compose.yml, as compose reads it', () => {
  it('is valid in each of its forms: embedded, PostgreSQL, cluster', async () => {
    for (const args of [[], ['--profile', 'postgres'], ['--profile', 'cluster']]) {
      await expect(compose(...args, 'config', '--quiet')).resolves.toBe('');
    }
  });

  it('keeps to what podman-compose 1.0.3 reads as Docker does (npm run test:containers runs it)', async () => {
    const text = await readFile(join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
    // Unknown to podman-compose, and an empty default it would pass on as the literal text.
    expect(text).not.toContain('host-gateway');
    expect(text).not.toMatch(/\$\{\w+:?-\}/);
    for (const profile of ['postgres', 'cluster']) {
      const { services } = (await resolved(profile)) as { services: Record<string, Json> };
      for (const [name, service] of Object.entries(services)) {
        const healthcheck = service.healthcheck as { test: unknown } | undefined;
        // A command string (CMD-SHELL), which podman-compose passes on intact; it mangles a list.
        if (healthcheck) expect({ name, test: typeof healthcheck.test }).toEqual({ name, test: 'string' });
        const ulimits = service.ulimits as { nofile?: number; nproc?: number } | undefined;
        if (ulimits?.nofile !== undefined) {
          // Within the hard open-files limit podman has on the CI machines.
          expect(ulimits.nofile).toBeLessThanOrEqual(20000);
          // Named beside it: podman 4.3, given one limit, sets the other above common hard limits.
          expect({ name, nproc: ulimits.nproc }).toEqual({ name, nproc: expect.any(Number) });
        }
      }
      expect(services.postgres.image).toBe('postgres:15');
    }
    expect(text).toContain('${POSTGRES_IMAGE:-postgres:15}');
    expect(text).toContain('${HAPROXY_IMAGE:-haproxy:2.8}');
  });

  it('runs the cluster behind HAProxy with the configuration the balancer drill runs', async () => {
    const { services } = (await resolved('cluster')) as { services: Record<string, Json> };
    const cluster = Object.entries(services)
      .filter(([, service]) => (service.profiles as string[] | undefined)?.includes('cluster'))
      .map(([name]) => name)
      .sort();
    expect(cluster).toEqual(['api-1', 'api-2', 'balancer', 'postgres', 'terminal-1', 'terminal-2']);

    const balancer = services.balancer;
    expect(balancer.image).toMatch(/^haproxy:/);
    // Its Lua script beside its configuration, where the configuration loads it from.
    expect(balancer.volumes).toEqual([
      `${REPO_ROOT}/deploy/haproxy-cluster.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro`,
      `${REPO_ROOT}/deploy/haproxy-own-answers.lua:/usr/local/etc/haproxy/haproxy-own-answers.lua:ro`,
    ]);
    // The balancer answers some requests itself: with the replicas' profile (CORS in the sandbox).
    expect(balancer.environment).toEqual({ PROFILE: 'sandbox' });
    for (const replica of ['api-1', 'api-2']) {
      expect(services[replica].environment).toMatchObject({ PROFILE: 'sandbox' });
      // Each replica's own liveness, never the fleet-wide /ready (contract, "Liveness and readiness").
      expect(checkedUrl(services[replica])).toBe('http://127.0.0.1:3000/health');
      // Compose waits for the drain (DRAIN_TIMEOUT_MS, 30 s by default) before it kills.
      expect(services[replica].stop_grace_period).toBe('40s');
      // Callers reach it through the balancer only: the address the balancer forwards is theirs.
      expect(services[replica].environment).toMatchObject({
        FLEET_SHARES: '2',
        TRUSTED_PROXIES: 'uniquelocal',
      });
    }
    for (const [shard, share] of [
      ['terminal-1', 'shard-1'],
      ['terminal-2', 'shard-2'],
    ]) {
      expect(services[shard].environment).toMatchObject({
        API_URL: 'http://balancer:8080',
        FLEET_SHARE: share,
      });
    }
  });
});
