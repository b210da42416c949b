import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md's layer table says, for each folder, which folders it may import; the rules of
 * .dependency-cruiser.cjs (what `npm run lint:layers` enforces) say which imports are forbidden. The two
 * must agree, read as data: the configuration's path rules are evaluated on one file of each folder
 * (`<folder>x.ts`) importing one file of another, so a rule added, removed or narrowed there changes the
 * answer here without this test naming any rule. Rules that are not about paths (cycles, dependency
 * types, unresolved imports) say nothing about which folder may import which, and are left out.
 */

type PathSpec = string | readonly string[];

interface Side {
  readonly path?: PathSpec;
  readonly pathNot?: PathSpec;
  readonly [other: string]: unknown;
}

interface Rule {
  readonly name: string;
  readonly from: Side;
  readonly to: Side;
}

const PATH_KEYS = new Set(['path', 'pathNot']);

/** A rule about which paths may import which: `from` and `to` use only `path` and `pathNot`. */
function isPathRule(rule: Rule): boolean {
  const keys = [...Object.keys(rule.from), ...Object.keys(rule.to)];
  return Object.keys(rule.to).length > 0 && keys.every((key) => PATH_KEYS.has(key));
}

function matchesAny(spec: PathSpec, file: string): boolean {
  return (typeof spec === 'string' ? [spec] : spec).some((pattern) => new RegExp(pattern).test(file));
}

function sideMatches(side: Side, file: string): boolean {
  return (
    (side.path === undefined || matchesAny(side.path, file)) &&
    (side.pathNot === undefined || !matchesAny(side.pathNot, file))
  );
}

/** The names of the path rules that forbid `from` importing `to`. */
function forbiddenBy(rules: readonly Rule[], from: string, to: string): string[] {
  return rules
    .filter((rule) => sideMatches(rule.from, from) && sideMatches(rule.to, to))
    .map((rule) => rule.name);
}

interface LayerRow {
  readonly folder: string;
  readonly mayImport: readonly string[];
}

const FOLDER = /^(?:src\/[\w/-]+|agents|bench)\/$/;

function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

/** Text outside parentheses: commentary in a cell is not read. */
function withoutParentheses(text: string): string {
  let depth = 0;
  let kept = '';
  for (const char of text) {
    if (char === '(') depth += 1;
    if (depth === 0) kept += char;
    if (char === ')' && depth > 0) depth -= 1;
  }
  return kept;
}

/** The first table under "## The layers", with Folder and May import columns: one row per folder. */
function layerTable(markdown: string): LayerRow[] {
  const section = markdown.split(/^## The layers$/m)[1]?.split(/^## /m)[0] ?? '';
  const all = section.split('\n');
  const first = all.findIndex((line) => line.trim().startsWith('|'));
  const end = all.findIndex((line, i) => i > first && !line.trim().startsWith('|'));
  const lines = first < 0 ? [] : all.slice(first, end < 0 ? undefined : end);
  const cells = (line: string) =>
    line
      .trim()
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim());
  const header = cells(lines[0] ?? '|');
  const folderAt = header.indexOf('Folder');
  const importAt = header.indexOf('May import');
  if (folderAt < 0 || importAt < 0) return [];
  return lines.slice(2).map((line) => {
    const row = cells(line);
    const folders = codeSpans(row[folderAt] ?? '').filter((span) => FOLDER.test(span));
    const mayImport = codeSpans(withoutParentheses(row[importAt] ?? '')).filter((span) => FOLDER.test(span));
    return { folder: folders.length === 1 ? folders[0]! : `(${folders.length} folders)`, mayImport };
  });
}

/** Where the layer table and the rules disagree, one line per pair of folders. */
function disagreements(rows: readonly LayerRow[], rules: readonly Rule[]): string[] {
  const folders = rows.map((row) => row.folder);
  return rows.flatMap((row) =>
    folders
      .filter((target) => target !== row.folder)
      .flatMap((target) => {
        const forbidding = forbiddenBy(rules, `${row.folder}x.ts`, `${target}x.ts`);
        const documented = row.mayImport.includes(target);
        if (documented && forbidding.length > 0)
          return [`${row.folder} -> ${target}: the table allows it, ${forbidding.join(', ')} forbids it`];
        if (!documented && forbidding.length === 0)
          return [`${row.folder} -> ${target}: no rule forbids it, the table does not allow it`];
        return [];
      }),
  );
}

const require = createRequire(import.meta.url);
const config = require('../../.dependency-cruiser.cjs') as { forbidden: Rule[] };
const PATH_RULES = config.forbidden.filter(isPathRule);
const ROWS = layerTable(readFileSync('docs/architecture.md', 'utf8'));

describe("docs/architecture.md's layer table", () => {
  it('places every folder of src/ (and agents/, bench/) in one row of its own', () => {
    const folders = ROWS.map((row) => row.folder);
    const expected = [
      ...readdirSync('src', { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `src/${entry.name}/`),
      'agents/',
      'bench/',
    ];
    expect(folders.filter((folder) => !FOLDER.test(folder))).toEqual([]);
    expect(new Set(folders).size).toBe(folders.length);
    expect(expected.filter((folder) => !folders.includes(folder))).toEqual([]);
  });

  it("agrees with .dependency-cruiser.cjs's rules: a folder may import exactly what no rule forbids", () => {
    expect(PATH_RULES.length).toBeGreaterThan(5);
    expect(disagreements(ROWS, PATH_RULES)).toEqual([]);
  });

  it('finds a disagreement either way, and reads rules with path and pathNot lists', () => {
    const rules: Rule[] = [
      { name: 'low-imports-nothing', from: { path: '^src/low/' }, to: { path: '^src/(?!low/)' } },
      {
        name: 'top-only-low',
        from: { path: '^src/top/' },
        to: { path: ['^src/'], pathNot: ['^src/(top|low)/'] },
      },
    ];
    const agreeing = [
      { folder: 'src/low/', mayImport: [] },
      { folder: 'src/mid/', mayImport: ['src/low/', 'src/top/'] },
      { folder: 'src/top/', mayImport: ['src/low/'] },
    ];
    expect(disagreements(agreeing, rules)).toEqual([]);
    expect(
      disagreements(
        [
          { folder: 'src/low/', mayImport: ['src/mid/'] },
          { folder: 'src/mid/', mayImport: [] },
        ],
        rules,
      ),
    ).toEqual([
      'src/low/ -> src/mid/: the table allows it, low-imports-nothing forbids it',
      'src/mid/ -> src/low/: no rule forbids it, the table does not allow it',
    ]);
    expect(isPathRule({ name: 'cycles', from: {}, to: { circular: true } })).toBe(false);
  });

  it('reads the table: one folder per row, the imports outside parentheses', () => {
    const markdown = [
      '## The layers',
      '',
      '| Layer | Folder | Holds | May import |',
      '|---|---|---|---|',
      '| 0 | `src/kernel/` | the clock | nothing of ours |',
      '| 1 | `src/rules/` | rules | `src/kernel/` (not `src/api/`) |',
      '',
      '## Next',
      '| Layer | Folder | Holds | May import |',
    ].join('\n');
    expect(layerTable(markdown)).toEqual([
      { folder: 'src/kernel/', mayImport: [] },
      { folder: 'src/rules/', mayImport: ['src/kernel/'] },
    ]);
  });
});
