import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './app-process';

interface NestProject {
  type: 'application' | 'library';
  root: string;
  sourceRoot: string;
  entryFile: string;
}

const nestCli = JSON.parse(readFileSync(join(REPO_ROOT, 'nest-cli.json'), 'utf8')) as {
  monorepo: boolean;
  projects: Record<string, NestProject>;
};
const tsconfig = JSON.parse(readFileSync(join(REPO_ROOT, 'tsconfig.json'), 'utf8')) as {
  compilerOptions: { paths: Record<string, string[]> };
};
const folders = (parent: string): string[] =>
  readdirSync(join(REPO_ROOT, parent), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/** The project's top level is the monorepo layout Nest's tooling and editors read. */
describe('project layout', () => {
  it('has the top level of a Nest monorepo', () => {
    for (const entry of [
      'package.json',
      'nest-cli.json',
      'tsconfig.json',
      'apps',
      'libs',
      'test',
      'docker-compose.yml',
      'README.md',
    ]) {
      expect({ entry, present: existsSync(join(REPO_ROOT, entry)) }).toEqual({ entry, present: true });
    }
    expect(nestCli.monorepo).toBe(true);
  });

  it('nest-cli.json names every app and lib where it is, each with the entry it builds from', () => {
    const applications = Object.values(nestCli.projects).filter((project) => project.type === 'application');
    const libraries = Object.values(nestCli.projects).filter((project) => project.type === 'library');
    // The console is a Vite page, not a Nest application.
    expect(applications.map((project) => project.root).sort()).toEqual(
      folders('apps')
        .filter((name) => name !== 'console')
        .map((name) => `apps/${name}`),
    );
    expect(libraries.map((project) => project.root).sort()).toEqual(
      folders('libs').map((name) => `libs/${name}`),
    );
    for (const project of applications) {
      expect(existsSync(join(REPO_ROOT, `${project.entryFile}.ts`))).toBe(true);
      expect(project.sourceRoot).toBe(`${project.root}/src`);
    }
    for (const project of libraries) {
      expect(existsSync(join(REPO_ROOT, project.sourceRoot, `${project.entryFile}.ts`))).toBe(true);
      // Each library is imported by its alias, which points at the same folder.
      const name = project.root.slice('libs/'.length);
      expect(tsconfig.compilerOptions.paths[`@tps/${name}`]).toEqual([project.sourceRoot]);
    }
  });
});
