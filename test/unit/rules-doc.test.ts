import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULESET } from '../../src/rules/ruleset.js';

/**
 * docs/rules.md is the index a newcomer follows from a rule to its code and to the test that proves it. A
 * pointer that no longer resolves sends them to the wrong room, so every table row is read here and every
 * pointer checked. The citation style this test reads (and so the style of the document):
 *
 * - Code column: a backticked path (`src/rules/money/fees.ts`, or a glob such as `src/api/contract/*.ts`),
 *   followed by the backticked symbols defined in it (`bountySettlement`, `Class.method`); a `;` starts a
 *   new group, so a symbol always follows its own file in its own group. A ruleset number is written in
 *   full from the root: `ruleset.escrow.retryDelayMs`. Text in parentheses is commentary and not read.
 * - Test column: a backticked test path followed by at least one quoted title ("ranks trending…"; an
 *   ellipsis marks an elided part), each the title of a `describe`, `it` or `test` in that file (a phrase
 *   found elsewhere in the file does not count: a title says which test proves the rule, so a wrong file
 *   fails); a script (`.ci/run`) or helper is followed by a phrase of its text. A run-time checker is
 *   written `checker \`name\`` and must be a built-in invariant. A row with neither says `not tested`
 *   and why. A test file's short name (`platform-feed "..."`) is read too, though the document spells
 *   every path out.
 *
 * The same file keeps neighbouring facts true: every rule module has a test that imports it, that test is
 * found by the module's name (`src/rules/chess/game.ts`, `game.test.ts`), and every path
 * docs/architecture.md names exists.
 */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const RULES_DOC = 'docs/rules.md';

interface Row {
  readonly line: number;
  readonly source: string;
  readonly code: string;
  readonly test: string;
}

interface Columns {
  readonly source: number;
  readonly code: number;
  readonly test: number;
  readonly count: number;
}

// ---------------------------------------------------------------------------------------------------
// Reading the tables

/** GitHub's table rule: a cell ends at every pipe not escaped with a backslash, inside code spans too. */
function splitCells(line: string): string[] {
  const cells = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/);
  return cells.map((cell) => cell.trim().replaceAll('\\|', '|'));
}

function isSeparator(line: string): boolean {
  return /^\|\s*:?-{3,}/.test(line.trim());
}

function columnsOf(header: string[]): Columns {
  return {
    source: header.indexOf('Source'),
    code: header.indexOf('Code'),
    test: header.indexOf('Test'),
    count: header.length,
  };
}

interface Table {
  readonly rows: Row[];
  readonly problems: string[];
}

function readTables(text: string): Table {
  const rows: Row[] = [];
  const problems: string[] = [];
  const lines = text.split('\n');
  let columns: Columns | undefined;
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (!raw.trim().startsWith('|')) {
      columns = undefined;
      return;
    }
    if (isSeparator(raw)) return;
    const cells = splitCells(raw);
    if (columns === undefined) {
      columns = columnsOf(cells);
      if (columns.code < 0 || columns.test < 0)
        problems.push(`line ${line}: a table without Code and Test columns`);
      return;
    }
    if (cells.length !== columns.count)
      problems.push(
        `line ${line}: ${cells.length} cells where the header has ${columns.count} (an unescaped |?)`,
      );
    rows.push({
      line,
      source: cells[columns.source] ?? '',
      code: cells[columns.code] ?? '',
      test: cells[columns.test] ?? '',
    });
  });
  return { rows, problems };
}

// ---------------------------------------------------------------------------------------------------
// Files, globs and symbols

const fileCache = new Map<string, string>();

function fileText(path: string): string {
  let text = fileCache.get(path);
  if (text === undefined) {
    text = readFileSync(join(ROOT, path), 'utf8');
    fileCache.set(path, text);
  }
  return text;
}

function isFile(path: string): boolean {
  const full = join(ROOT, path);
  return existsSync(full) && statSync(full).isFile();
}

/** The files a pointer names: itself, or for a glob in its last segment, every file it matches. */
function filesOf(pointer: string): string[] {
  if (!pointer.includes('*')) return isFile(pointer) ? [pointer] : [];
  const folder = dirname(pointer);
  if (!existsSync(join(ROOT, folder))) return [];
  const pattern = new RegExp(`^${basename(pointer).replaceAll('.', '\\.').replaceAll('*', '[^/]*')}$`);
  return readdirSync(join(ROOT, folder))
    .filter((name) => pattern.test(name))
    .map((name) => `${folder}/${name}`)
    .filter(isFile);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Where `name` is declared at the top level of a module: a declaration, or a name in an export list. */
function topLevelDeclaration(text: string, name: string): number {
  const n = escapeRegExp(name);
  const declaration = new RegExp(
    `\\b(?:function\\*?|const|let|var|class|interface|type|enum|namespace)\\s+${n}\\b`,
  );
  const exported = new RegExp(`\\bexport\\s+(?:type\\s+)?\\{[^}]*\\b${n}\\b[^}]*\\}`);
  return firstIndex(text, [declaration, exported]);
}

/** Where `name` is declared as a member (method, accessor, field or property), at or after `from`. */
function memberDeclaration(text: string, name: string, from: number): number {
  const n = escapeRegExp(name);
  const modifiers = '(?:(?:public|private|protected|static|async|readonly|override|get|set|declare)\\s+)*';
  const member = new RegExp(`^[ \\t]+${modifiers}\\*?${n}\\??\\s*(?:<[^>\\n]*>)?\\s*[(:=]`, 'm');
  const index = text.slice(from).search(member);
  return index < 0 ? -1 : from + index;
}

function firstIndex(text: string, patterns: RegExp[]): number {
  const found = patterns.map((pattern) => text.search(pattern)).filter((index) => index >= 0);
  return found.length === 0 ? -1 : Math.min(...found);
}

/**
 * A symbol is defined in a file when its first part is declared there (at the top level, or as a method or
 * field) and each further part (`Class.method`, `Type.field.nested`) is a member declared after it.
 */
function definesSymbol(text: string, symbol: string): boolean {
  const [head, ...members] = symbol.split('.');
  let at = topLevelDeclaration(text, head!);
  if (at < 0) at = memberDeclaration(text, head!, 0);
  for (const member of members) {
    if (at < 0) return false;
    at = memberDeclaration(text, member, at);
  }
  return at >= 0;
}

function rulesetHas(path: string): boolean {
  let node: unknown = DEFAULT_RULESET;
  for (const key of path.split('.').slice(1)) {
    if (node === null || typeof node !== 'object' || !(key in node)) return false;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

// ---------------------------------------------------------------------------------------------------
// The Code column

const PATH = /^(?:src|agents|bench|test|scenarios|bin|examples|docs|reports)\/|^\.ci\//;
const RULESET = /^(?:ruleset|DEFAULT_RULESET)\./;
const SYMBOL = /^#?[A-Za-z_$][\w$]*(?:\.#?[A-Za-z_$][\w$]*)*$/;

/** The cell without parenthesised commentary (parentheses inside code spans are kept). */
function withoutParentheses(cell: string): string {
  let depth = 0;
  let inCode = false;
  let kept = '';
  for (const char of cell) {
    if (char === '`') inCode = !inCode;
    if (!inCode && char === '(') depth += 1;
    if (depth === 0) kept += char;
    if (!inCode && char === ')' && depth > 0) depth -= 1;
  }
  return kept;
}

/** Splits at every `;` outside code spans. */
function groupsOf(cell: string): string[] {
  const groups: string[] = [''];
  let inCode = false;
  for (const char of cell) {
    if (char === '`') inCode = !inCode;
    if (char === ';' && !inCode) groups.push('');
    else groups[groups.length - 1] += char;
  }
  return groups;
}

function codeSpans(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
}

function codeProblems(cell: string): string[] {
  const problems: string[] = [];
  for (const group of groupsOf(withoutParentheses(cell))) {
    let files: string[] | undefined;
    for (const token of codeSpans(group)) {
      if (PATH.test(token)) {
        files = filesOf(token);
        if (files.length === 0) problems.push(`\`${token}\` does not exist`);
      } else if (RULESET.test(token)) {
        files = undefined;
        if (!rulesetHas(token)) problems.push(`\`${token}\` is not a key of DEFAULT_RULESET`);
      } else if (SYMBOL.test(token)) {
        problems.push(...symbolProblems(token, files));
      }
    }
  }
  return problems;
}

function symbolProblems(symbol: string, files: string[] | undefined): string[] {
  if (files === undefined) return [`\`${symbol}\` names no file before it in its group`];
  if (files.length === 0) return [];
  if (files.some((file) => definesSymbol(fileText(file), symbol))) return [];
  return [`\`${symbol}\` is not defined in ${files.join(', ')}`];
}

// ---------------------------------------------------------------------------------------------------
// The Test column

/** Every test file under test/, as a path from the root. */
function listTestFiles(folder = 'test'): string[] {
  return readdirSync(join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return listTestFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const TEST_FILES = listTestFiles();

/** Test files by their base name (`platform-feed` for test/unit/platform-feed.test.ts). */
function testFilesByShortName(): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const path of TEST_FILES) {
    const name = basename(path, '.test.ts');
    byName.set(name, (byName.get(name) ?? []).concat(path));
  }
  return byName;
}

const SHORT_NAMES = testFilesByShortName();

function builtInCheckers(): Set<string> {
  const names = new Set<string>();
  for (const file of filesOf('src/sim/invariants/*invariants.ts')) {
    for (const match of fileText(file).matchAll(/readonly name = '([a-z_]+)'/g)) names.add(match[1]!);
  }
  return names;
}

const CHECKERS = builtInCheckers();

/** A test cell read as a sequence: test pointers, title fragments (quoted) and checker names. */
const TEST_TOKEN =
  /`(test\/[^`]+|\.ci\/[^`]+)`|"([^"]+)"|(?:checker|run-time)\s+`([a-z_]+)`|(?<![\w`/-])([a-z][a-z0-9]*(?:-[a-z0-9]+)+)(?![\w`/.-])/g;

/**
 * A Test cell: every test file it names is followed by at least one quoted title of a test in that file, so
 * a pointer says which test proves the rule and a wrong file fails; a row names a test or a checker, or
 * says `not tested` and why.
 */
function testProblems(cell: string): string[] {
  const problems: string[] = [];
  let current: Pointer | undefined;
  let anyTest = false;
  const close = () => {
    if (current !== undefined && current.isTest && current.files.length > 0 && current.titles === 0)
      problems.push(`\`${current.name}\` is named without a quoted test title`);
  };
  for (const match of cell.matchAll(TEST_TOKEN)) {
    const [, path, fragment, checker, shortName] = match;
    if (path !== undefined) {
      close();
      current = pointerTo(path, filesOf(path));
      if (current.files.length === 0) problems.push(`\`${path}\` does not exist`);
    } else if (fragment !== undefined) {
      problems.push(...fragmentProblems(fragment, current?.files));
      if (current !== undefined) current.titles += 1;
      anyTest ||= current !== undefined && current.files.length > 0;
    } else if (checker !== undefined) {
      anyTest = true;
      if (!CHECKERS.has(checker)) problems.push(`checker \`${checker}\` is not a built-in invariant`);
    } else if (shortName !== undefined && SHORT_NAMES.has(shortName)) {
      close();
      current = pointerTo(shortName, SHORT_NAMES.get(shortName)!);
      if (current.files.length > 1) problems.push(`${shortName} names ${current.files.length} test files`);
    }
  }
  close();
  if (!anyTest && problems.length === 0 && !/^not tested\b/.test(cell.trim()))
    problems.push('names no test by file and title, no checker, and does not say "not tested"');
  return problems;
}

interface Pointer {
  readonly name: string;
  readonly files: readonly string[];
  /** A test file (its titles are read), not a script or helper (its text is). */
  readonly isTest: boolean;
  titles: number;
}

function pointerTo(name: string, files: readonly string[]): Pointer {
  return { name, files, isTest: files.every((file) => file.endsWith('.test.ts')), titles: 0 };
}

/**
 * The titles of a test file: the first argument of each `describe`, `it` or `test` call (with `.each`,
 * `.for`, `.skip`, `.only`, ... between). A template's `${...}` and a printf placeholder of `.each`
 * (`%s`, `%j`) are gaps: a title is kept as its pieces between them.
 */
function testTitles(text: string): string[][] {
  const call =
    /\b(?:describe|it|test)(?:\.\w+(?:\s*\((?:[^()]|\([^()]*\))*\))?)*\s*\(\s*('(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|`(?:\\.|[^`\\])*`)/g;
  return [...text.matchAll(call)].map((match) =>
    match[1]!
      .slice(1, -1)
      .replace(/\\(.)/g, '$1')
      .split(/\$\{[^}]*\}|%[sdjio#%]|\$\w+/),
  );
}

const titleCache = new Map<string, string[][]>();

function titlesOf(path: string): string[][] {
  let titles = titleCache.get(path);
  if (titles === undefined) titleCache.set(path, (titles = testTitles(fileText(path))));
  return titles;
}

/**
 * A title fragment names one test: its parts between ellipses all occur, in order of writing, in the
 * pieces of one title of a file it follows. After a script or helper (not a test file) it must occur in
 * the text.
 */
function fragmentProblems(fragment: string, files: readonly string[] | undefined): string[] {
  if (files === undefined) return [`"${fragment}" follows no test file`];
  if (files.length === 0) return [];
  const parts = fragment
    .split(/…|\.\.\./)
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  const isTitle = (pieces: readonly string[]) =>
    parts.every((part) => pieces.some((piece) => piece.includes(part)));
  const found = files.some((file) =>
    file.endsWith('.test.ts')
      ? titlesOf(file).some(isTitle)
      : parts.every((part) => fileText(file).includes(part)),
  );
  return found ? [] : [`"${fragment}" is not a test title in ${files.join(', ')}`];
}

// ---------------------------------------------------------------------------------------------------
// The Source column

const SPEC_DOC = 'docs/spec.md';

/** The fixed anchors of docs/spec.md (`<a id="wire-4"></a>`). */
function specAnchors(text: string): Set<string> {
  return new Set([...text.matchAll(/<a id="([\w-]+)"><\/a>/g)].map((match) => match[1]!));
}

const SPEC_ANCHORS = specAnchors(fileText(SPEC_DOC));

/**
 * A Source cell cites the published descriptions through docs/spec.md: every link to it names an anchor
 * that is there, and SPEC, WIRE or INF is never written without such a link.
 */
function sourceProblems(cell: string, anchors: ReadonlySet<string> = SPEC_ANCHORS): string[] {
  const problems: string[] = [];
  const link = /\[([^\]]*)\]\(spec\.md#([\w-]+)\)/g;
  for (const [, , anchor] of cell.matchAll(link))
    if (!anchors.has(anchor!)) problems.push(`spec.md#${anchor} is not an anchor of ${SPEC_DOC}`);
  const unlinked = cell.replace(link, '').match(/\b(?:SPEC|WIRE|INF)\b/g) ?? [];
  for (const name of new Set(unlinked)) problems.push(`${name} is cited without a link into ${SPEC_DOC}`);
  return problems;
}

// ---------------------------------------------------------------------------------------------------

const TABLES = readTables(fileText(RULES_DOC));

function rowProblems(check: (cell: string) => string[], cellOf: (row: Row) => string): string[] {
  return TABLES.rows.flatMap((row) =>
    check(cellOf(row)).map((problem) => `${RULES_DOC}:${row.line}: ${problem}`),
  );
}

describe('docs/rules.md resolves', () => {
  it('is read as tables of rows with a Code and a Test cell each', () => {
    expect(TABLES.problems).toEqual([]);
    expect(TABLES.rows.length).toBeGreaterThan(300);
  });

  it('names only files that exist and symbols defined in them', () => {
    expect(rowProblems(codeProblems, (row) => row.code)).toEqual([]);
  });

  it('cites SPEC, WIRE and INF only through anchors that docs/spec.md has', () => {
    expect(SPEC_ANCHORS.size).toBeGreaterThan(20);
    expect(rowProblems(sourceProblems, (row) => row.source)).toEqual([]);
  });

  it('names only test files that exist, titles found in them and built-in checkers', () => {
    expect(rowProblems(testProblems, (row) => row.test).join('\n')).toEqual('');
  });
});

/** A path the architecture page names: a folder (ending in `/`), a file or a glob; `<placeholders>` are not paths. */
function pathProblem(token: string): string | undefined {
  if (!PATH.test(token) || token.includes('<') || token.includes(' ')) return undefined;
  if (token.endsWith('/'))
    return existsSync(join(ROOT, token)) ? undefined : `folder \`${token}\` does not exist`;
  return filesOf(token).length > 0 ? undefined : `\`${token}\` does not exist`;
}

describe('docs/architecture.md', () => {
  // The map of the rooms: a room that moved must be moved on the map too.
  it('names only folders and files that exist', () => {
    const prose = fileText('docs/architecture.md').replace(/^```[\s\S]*?^```/gm, '');
    const problems = codeSpans(prose)
      .map(pathProblem)
      .filter((problem) => problem !== undefined);
    expect(codeSpans(prose).filter((span) => PATH.test(span)).length).toBeGreaterThan(40);
    expect(problems).toEqual([]);
  });
});

/** Every rule module, `src/rules/*.ts` and its domain folders' (chess/, identity/, money/, social/). */
function ruleModules(): string[] {
  const domains = readdirSync(join(ROOT, 'src/rules'), { withFileTypes: true }).filter((entry) =>
    entry.isDirectory(),
  );
  return [
    ...filesOf('src/rules/*.ts'),
    ...domains.flatMap((domain) => filesOf(`src/rules/${domain.name}/*.ts`)),
  ];
}

/**
 * A rule's test is found by its name: `src/rules/<area>/<name>.ts` is tested in a file named
 * `<name>.test.ts` under test/, which imports it (a specifier ending `rules/<area>/<name>.js`).
 */
function namedTestProblem(
  module: string,
  testFiles: readonly string[],
  textOf: (path: string) => string,
): string | undefined {
  const expected = `${basename(module, '.ts')}.test.ts`;
  const target = escapeRegExp(module.replace(/^src\//, '').replace(/\.ts$/, '.js'));
  const specifier = new RegExp(`['"](?:\\.\\.?/)+(?:[\\w.-]+/)*${target}['"]`);
  const named = testFiles.filter((path) => basename(path) === expected);
  if (named.length === 0) return `${module}: no test named ${expected} under test/`;
  if (named.some((path) => specifier.test(textOf(path)))) return undefined;
  return `${module}: ${named.join(', ')} does not import it`;
}

describe('every rule module', () => {
  const modules = ruleModules();

  // A rule is found from its row here, and its test from the rule: a module no test imports breaks the chain.
  it('is imported by some test', () => {
    const tests = TEST_FILES.map(fileText);
    const untested = modules
      .map((path) => path.replace(/\.ts$/, ''))
      .filter((module) => !tests.some((text) => text.includes(`/${module}.js`)));
    expect(modules.length).toBeGreaterThan(15);
    expect(untested).toEqual([]);
  });

  it('has a test of its own name that imports it (src/rules/<area>/<name>.ts, <name>.test.ts)', () => {
    const problems = modules.map((module) => namedTestProblem(module, TEST_FILES, fileText));
    expect(problems.filter((problem) => problem !== undefined)).toEqual([]);
  });
});

describe('the pointer reader', () => {
  it('finds declarations, members and the ruleset', () => {
    const text =
      'export class Ledger {\n  static open(): void {}\n  #fee = 1;\n}\nexport function pay() {}\n';
    expect(definesSymbol(text, 'Ledger.open')).toBe(true);
    expect(definesSymbol(text, 'Ledger.#fee')).toBe(true);
    expect(definesSymbol(text, 'pay')).toBe(true);
    expect(definesSymbol(text, 'Ledger.close')).toBe(false);
    expect(definesSymbol(text, 'refund')).toBe(false);
    expect(rulesetHas('ruleset.escrow.retryDelayMs')).toBe(true);
    expect(rulesetHas('ruleset.escrow.retryDelay')).toBe(false);
  });

  it('refuses a missing file, a symbol in the wrong file and a symbol with no file', () => {
    expect(
      codeProblems('`src/rules/money/fees.ts` `bountySettlement`; `src/rules/chess/elo.ts` `eloChange`'),
    ).toEqual([]);
    expect(codeProblems('`src/rules/fee.ts`')).toEqual(['`src/rules/fee.ts` does not exist']);
    expect(codeProblems('`src/rules/chess/elo.ts` `bountySettlement`')).toEqual([
      '`bountySettlement` is not defined in src/rules/chess/elo.ts',
    ]);
    expect(codeProblems('`src/rules/money/fees.ts`; `bountySettlement`')).toEqual([
      '`bountySettlement` names no file before it in its group',
    ]);
    expect(codeProblems('`src/rules/money/fees.ts` (see `nowhere`)')).toEqual([]);
  });

  it('refuses a missing test file, a file without a title, a title not in it and an unknown checker', () => {
    expect(
      testProblems(
        '`test/property/fees.test.ts` "bounty settlement properties"; checker `bounty_fees_exact`',
      ),
    ).toEqual([]);
    expect(testProblems('social-score "the ruleset\'s points…"')).toEqual([]);
    expect(testProblems('`test/property/fee.test.ts` "x"')).toEqual([
      '`test/property/fee.test.ts` does not exist',
    ]);
    expect(testProblems('`test/property/fees.test.ts` (every stake)')).toEqual([
      '`test/property/fees.test.ts` is named without a quoted test title',
    ]);
    expect(testProblems('`test/property/fees.test.ts` "no such title"')).toEqual([
      '"no such title" is not a test title in test/property/fees.test.ts',
    ]);
    // A phrase of the file that is not a test's title (an import) does not name a test.
    expect(testProblems('`test/property/fees.test.ts` "bountySettlement"')).toEqual([
      '"bountySettlement" is not a test title in test/property/fees.test.ts',
    ]);
    expect(testProblems('checker `fees_exact`')).toEqual([
      'checker `fees_exact` is not a built-in invariant',
    ]);
    expect(testProblems('not tested (needs a hung engine)')).toEqual([]);
    expect(testProblems('golden fingerprints unchanged (CI)')).toEqual([
      'names no test by file and title, no checker, and does not say "not tested"',
    ]);
  });

  it('refuses a spec citation without a link, or with an anchor spec.md lacks', () => {
    const anchors = specAnchors('<a id="wire-4"></a>\n\n### §4 Games\n<a id="spec-games"></a>');
    expect([...anchors]).toEqual(['wire-4', 'spec-games']);
    expect(sourceProblems('[WIRE §4](spec.md#wire-4); OURS: the rest', anchors)).toEqual([]);
    expect(sourceProblems('[WIRE §5](spec.md#wire-5)', anchors)).toEqual([
      'spec.md#wire-5 is not an anchor of docs/spec.md',
    ]);
    expect(sourceProblems('SPEC, [WIRE §4](spec.md#wire-4); INF', anchors)).toEqual([
      'SPEC is cited without a link into docs/spec.md',
      'INF is cited without a link into docs/spec.md',
    ]);
  });

  it('reads test titles with their gaps: templates, printf placeholders and .each', () => {
    const text = [
      "describe('the ledger', () => {",
      "  it.each([1, 2])('pays %s lamports', () => {});",
      '  it(`refunds ${kind} stakes`, () => {});',
      "  test.skip('a \\'quoted\\' title', () => {});",
      '});',
    ].join('\n');
    expect(testTitles(text)).toEqual([
      ['the ledger'],
      ['pays ', ' lamports'],
      ['refunds ', ' stakes'],
      ["a 'quoted' title"],
    ]);
  });

  it('reads folders, files, globs and placeholders in the architecture page', () => {
    expect([
      pathProblem('src/rules/'),
      pathProblem('src/api/*-views.ts'),
      pathProblem('test/unit/platform-<group>.test.ts'),
    ]).toEqual([undefined, undefined, undefined]);
    expect(pathProblem('src/nowhere/')).toBe('folder `src/nowhere/` does not exist');
    expect(pathProblem('agents/engine/calibrate.ts')).toBe('`agents/engine/calibrate.ts` does not exist');
  });

  it('finds a rule’s test by its name and its import', () => {
    const files = ['test/unit/platform-games.test.ts', 'test/property/game.test.ts'];
    const imports = (path: string) =>
      path.endsWith('/game.test.ts') ? "import { x } from '../../src/rules/chess/game.js';" : '';
    expect(namedTestProblem('src/rules/chess/game.ts', files, imports)).toBeUndefined();
    expect(
      namedTestProblem('src/rules/chess/game.ts', files, () => '// the rules of src/rules/chess/game.js'),
    ).toBe('src/rules/chess/game.ts: test/property/game.test.ts does not import it');
    expect(namedTestProblem('src/rules/chess/elo.ts', files, imports)).toBe(
      'src/rules/chess/elo.ts: no test named elo.test.ts under test/',
    );
  });

  it('splits cells at unescaped pipes only', () => {
    expect(splitCells('| a \\| b | `c` |')).toEqual(['a | b', '`c`']);
  });
});
