import { readdirSync, readFileSync } from 'fs';
import { dirname, join, relative, resolve, sep } from 'path';
import * as ts from 'typescript';

/** A reader finds a feature by its folder, and a folder that imports a second folder
 * which imports it back is one feature split in two. Each top-level folder of apps/api/src is a
 * node (a file at the root is its own node); every relative import, type-only ones included,
 * is an edge; any strongly connected component with more than one node is a cycle. */

type Graph = Map<string, Set<string>>;

const SRC = __dirname;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The node a path under SRC belongs to, or undefined when it lies outside apps/api/src. */
function nodeOf(path: string): string | undefined {
  const inside = relative(SRC, path);
  if (inside.startsWith('..')) return undefined;
  return inside.split(sep)[0].replace(/\.ts$/, '');
}

function folderGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles(SRC)) {
    const from = nodeOf(file)!;
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    // preProcessFile sees `import type`, `export … from`, `import()` and require alike.
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = nodeOf(resolve(dirname(file), fileName));
      if (to !== undefined && to !== from) edges.add(to);
    }
  }
  return graph;
}

/** Each file under `folder` a node, every relative import between two of them an edge. */
function fileGraph(folder: string): Graph {
  const root = join(SRC, folder);
  const graph: Graph = new Map();
  for (const file of sourceFiles(root)) {
    const edges = new Set<string>();
    graph.set(relative(SRC, file), edges);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = `${resolve(dirname(file), fileName)}.ts`;
      if (to.startsWith(root + sep)) edges.add(relative(SRC, to));
    }
  }
  return graph;
}

/** Tarjan's strongly connected components, keeping only those that hold a cycle. */
function cycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];

  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };

  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

/** Each component with the edges that bind it, so a failure says which imports to move. */
function describeCycle(graph: Graph, component: string[]): string {
  const edges = component.flatMap((from) =>
    [...(graph.get(from) ?? [])].filter((to) => component.includes(to)).map((to) => `${from} -> ${to}`),
  );
  return `{${component.join(', ')}}: ${edges.join('; ')}`;
}

describe('folder-level imports in apps/api/src', () => {
  it('finds a cycle when there is one, and only then', () => {
    const graph: Graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a', 'd'])],
      ['d', new Set<string>()],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
    graph.get('c')!.delete('a');
    expect(cycles(graph)).toEqual([]);
  });

  it('sees the folders and their imports', () => {
    const graph = folderGraph();
    expect([...graph.get('app.module')!]).toEqual(expect.arrayContaining(['link', 'print', 'webhooks']));
    expect([...graph.get('print')!]).toEqual(expect.arrayContaining(['link', 'terminals']));
  });

  it('has no cycles between folders', () => {
    const graph = folderGraph();
    expect(cycles(graph).map((component) => describeCycle(graph, component))).toEqual([]);
  });

  // The use case's ports, its planner and its store are read one after the other: none needs
  // another that needs it back.
  it('has no cycles between the files of payments/', () => {
    const graph = fileGraph('payments');
    expect(graph.get(join('payments', 'follow-up-planner.ts'))).toContain(
      join('payments', 'operation-ports.ts'),
    );
    expect(cycles(graph).map((component) => describeCycle(graph, component))).toEqual([]);
  });
});
