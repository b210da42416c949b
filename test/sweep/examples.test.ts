import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { register } from 'node:module';
import { Job } from 'kubernetes-models/batch/v1';
import { PersistentVolumeClaim } from 'kubernetes-models/v1';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import yargs from 'yargs';
import { mergeCommand } from '../../src/cli/merge.js';
import { runCommand } from '../../src/cli/run.js';
import { sweepCommand } from '../../src/cli/sweep.js';

/**
 * The shipped CI examples (examples/ci/) are checked offline: the GitHub Actions workflow by GitHub's own
 * parser (@actions/workflow-parser, the schema the Actions service and its VS Code extension use), the
 * Kubernetes manifests by kubernetes-models (the API's OpenAPI schemas: types, enums, required fields),
 * and every agent-chess-sim command in either by this CLI's own strict argument parser.
 */
const WORKFLOW = 'examples/ci/github-actions-sweep.yml';
const MANIFEST = 'examples/ci/k8s-sweep-job.yaml';

/**
 * @actions/workflow-parser is published for bundlers: it imports its JSON schema without the `type: 'json'`
 * attribute Node requires. This load hook adds the attribute to that package's JSON files (and nothing
 * else), so the parser loads in plain Node as it is published.
 */
const JSON_ATTRIBUTE_HOOK = `export async function load(url, context, nextLoad) {
  if (url.endsWith('.json') && url.includes('/node_modules/@actions/') && !context.importAttributes?.type) {
    return nextLoad(url, { ...context, importAttributes: { ...context.importAttributes, type: 'json' } });
  }
  return nextLoad(url, context);
}`;

let actions: typeof import('@actions/workflow-parser');

beforeAll(async () => {
  register(`data:text/javascript,${encodeURIComponent(JSON_ATTRIBUTE_HOOK)}`);
  actions = await import('@actions/workflow-parser');
});

/** GitHub's parser and converter: the workflow's schema errors, if any. */
async function workflowErrors(name: string, content: string): Promise<string[]> {
  const { parseWorkflow, convertWorkflowTemplate, NoOperationTraceWriter } = actions;
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter());
  const errors = parsed.context.errors.getErrors().map((e) => e.message);
  if (errors.length > 0 || !parsed.value) return errors;
  const template = await convertWorkflowTemplate(parsed.context, parsed.value);
  return (template.errors ?? []).map((e) => e.Message);
}

/** The `npx agent-chess-sim ...` commands of a shell script, continuation lines joined, variables substituted, as argv. */
function agentCommands(script: string, vars: Record<string, string>): string[][] {
  const joined = script.replace(/\\\n\s*/g, ' ');
  return [...joined.matchAll(/npx agent-chess-sim (.*?)(?:\s+\|\||$)/gm)].map(([, line]) =>
    line!
      .replace(/\$\{\{\s*matrix\.(\w+)\s*\}\}/g, (_, key: string) => vars[key] ?? `<${key}?>`)
      .replace(/\$(\w+)/g, (_, key: string) => vars[key] ?? `<${key}?>`)
      .split(/\s+/)
      .map((word) => word.replace(/^"(.*)"$/, '$1')),
  );
}

/** Parses argv exactly as the CLI would (strict: unknown options are errors) without running anything. */
function cliParseProblem(argv: string[]): string | undefined {
  let problem: string | undefined;
  yargs(argv)
    .command({ ...sweepCommand, handler: () => {} })
    .command({ ...mergeCommand, handler: () => {} })
    .command({ ...runCommand, handler: () => {} })
    .demandCommand(1)
    .strict()
    .exitProcess(false)
    .fail((message) => (problem = message))
    .parseSync();
  return problem;
}

describe('examples/ci/github-actions-sweep.yml', () => {
  const content = readFileSync(WORKFLOW, 'utf8');
  const workflow = parseYaml(content) as {
    env: Record<string, string | number>;
    jobs: Record<
      string,
      {
        needs?: string;
        strategy?: { matrix: { shard?: number[]; node?: number[] } };
        steps: Array<{ run?: string; with?: Record<string, unknown> }>;
      }
    >;
  };

  it("passes GitHub's workflow parser, which refuses a misspelt key", async () => {
    expect(await workflowErrors('github-actions-sweep.yml', content)).toEqual([]);
    const misspelt = content.replace('runs-on: ubuntu-latest', 'runs-onn: ubuntu-latest');
    expect((await workflowErrors('misspelt.yml', misspelt)).join('\n')).toMatch(/runs-onn/);
  });

  it('has a matrix of exactly SHARDS shards and a merge job after them, and its commands parse', () => {
    const shards = Number(workflow.env['SHARDS']);
    expect(workflow.jobs['shard']!.strategy!.matrix.shard).toEqual(
      Array.from({ length: shards }, (_, i) => i + 1),
    );
    expect(workflow.jobs['merge']!.needs).toBe('shard');
    const run = (job: string) => workflow.jobs[job]!.steps.map((s) => s.run ?? '').join('\n');
    const [sweep] = agentCommands(run('shard'), {
      SCENARIO: 'scenarios/smoke.yaml',
      SEEDS: '1..100',
      SHARDS: String(shards),
      shard: '2',
    });
    expect(sweep).toEqual([
      'sweep',
      'scenarios/smoke.yaml',
      '--seeds',
      '1..100',
      '--shard',
      `2/${shards}`,
      '--workers',
      '2',
      '--out',
      'shard-2',
      '--no-progress',
    ]);
    const [merge] = agentCommands(run('merge'), {});
    expect(merge).toEqual(['merge', 'shards/*', '--out', 'sweep']);
    for (const argv of [sweep!, merge!]) expect(cliParseProblem(argv), argv.join(' ')).toBeUndefined();
    expect(cliParseProblem(['sweep', 'x.yaml', '--seeds', '1', '--shards', '1/2'])).toMatch(
      /Unknown argument: shards/,
    );
  });

  it('installs and runs one seed on Node 20, 22 and 24 with no engine warning', () => {
    const node = workflow.jobs['node']!;
    expect(node.strategy!.matrix.node).toEqual([20, 22, 24]);
    expect(node.steps.map((s) => s.with?.['node-version']).filter(Boolean)).toEqual(['${{ matrix.node }}']);
    const run = node.steps.map((s) => s.run ?? '').join('\n');
    expect(run).toMatch(/^! grep EBADENGINE npm-ci\.log$/m);
    const [seed] = agentCommands(run, { SCENARIO: 'scenarios/smoke.yaml', node: '22' });
    expect(seed).toEqual(['run', 'scenarios/smoke.yaml', '--seed', '1', '--out', 'node-22']);
    expect(cliParseProblem(seed!)).toBeUndefined();
  });

  it("publishes the merged junit.xml to the run's test panel and summary.md to the step summary", () => {
    const merge = workflow.jobs['merge'] as unknown as {
      permissions: Record<string, string>;
      steps: Array<{ uses?: string; run?: string; if?: string; with?: Record<string, unknown> }>;
    };
    const junit = merge.steps.find((s) => s.uses?.startsWith('mikepenz/action-junit-report@'));
    expect(junit?.with?.['report_paths']).toBe('sweep/junit.xml');
    expect(junit?.if).toBe('always()');
    expect(merge.permissions['checks']).toBe('write');
    expect(merge.steps.some((s) => s.run?.includes('cat sweep/summary.md >> "$GITHUB_STEP_SUMMARY"'))).toBe(
      true,
    );
  });
});

describe('examples/ci/k8s-sweep-job.yaml', () => {
  const docs = parseAllDocuments(readFileSync(MANIFEST, 'utf8')).map(
    (d) => d.toJSON() as Record<string, any>,
  );

  it('holds a volume claim, an Indexed Job of shards and a merge Job, each valid against the Kubernetes API schema', () => {
    expect(docs.map((d) => `${d['apiVersion']} ${d['kind']}`)).toEqual([
      'v1 PersistentVolumeClaim',
      'batch/v1 Job',
      'batch/v1 Job',
    ]);
    expect(() => new PersistentVolumeClaim(docs[0]).validate()).not.toThrow();
    for (const job of docs.slice(1)) expect(() => new Job(job).validate()).not.toThrow();
    const broken = structuredClone(docs[1]!);
    broken['spec'].completionMode = 'Indexes';
    expect(() => new Job(broken).validate()).toThrow(
      /completionMode must be equal to one of the allowed values/,
    );
  });

  it('gives each pod its shard from JOB_COMPLETION_INDEX, with as many shards as completions, and its commands parse', () => {
    const [, shards, merge] = docs;
    const spec = shards!['spec'];
    const container = spec.template.spec.containers[0];
    const env = Object.fromEntries(
      container.env.map((e: { name: string; value: string }) => [e.name, e.value]),
    );
    expect(spec.completionMode).toBe('Indexed');
    expect(spec.completions).toBe(Number(env.SHARDS));
    expect(spec.parallelism).toBe(spec.completions);
    expect(spec.template.spec.restartPolicy).toBe('Never');
    const script: string = container.args[0];
    expect(script).toContain('shard=$((JOB_COMPLETION_INDEX + 1))');
    expect(env.RUN_ID).toBe('run-001');
    const [sweep] = agentCommands(script, { ...env, shard: '1' });
    expect(sweep).toEqual([
      'sweep',
      'scenarios/smoke.yaml',
      '--seeds',
      '1..100',
      '--shard',
      '1/4',
      '--workers',
      '2',
      '--out',
      '/results/run-001/shard-1',
      '--no-progress',
    ]);
    const mergeContainer = merge!['spec'].template.spec.containers[0];
    expect(mergeContainer.env).toEqual([
      { name: 'SHARDS', value: env.SHARDS },
      { name: 'RUN_ID', value: env.RUN_ID },
    ]);
    const [mergeArgv] = agentCommands(mergeContainer.args[0], env);
    expect(mergeArgv).toEqual(['merge', '/results/run-001/shard-*', '--out', '/results/run-001/sweep']);
    for (const argv of [sweep!, mergeArgv!]) expect(cliParseProblem(argv), argv.join(' ')).toBeUndefined();
    // both Jobs mount the claim the manifest declares
    for (const job of [shards!, merge!])
      expect(job['spec'].template.spec.volumes[0].persistentVolumeClaim.claimName).toBe(
        docs[0]!['metadata'].name,
      );
  });

  it("merges only its own run's shards, then deletes them; a refused merge keeps them", () => {
    const merge = docs[2]!['spec'].template.spec.containers[0];
    const script = (merge.args[0] as string).replaceAll('/results', '$RESULTS');
    const results = mkdtempSync(join(tmpdir(), 'acs-k8s-'));
    const bin = join(results, 'bin');
    mkdirSync(bin);
    // A stand-in for npx: records the merge's arguments and exits with $MERGE_EXIT, as merge would.
    writeFileSync(join(bin, 'npx'), '#!/bin/sh\necho "$@" >> "$RESULTS/merged.log"\nexit "$MERGE_EXIT"\n', {
      mode: 0o755,
    });
    for (const run of ['run-001', 'run-002'])
      for (let shard = 1; shard <= 4; shard++) {
        mkdirSync(join(results, run, `shard-${shard}`), { recursive: true });
        writeFileSync(join(results, run, `shard-${shard}`, 'shard.json'), '{}');
      }
    const mergeRun = (runId: string, exit: number) =>
      spawnSync('/bin/sh', ['-c', script], {
        env: {
          PATH: `${bin}:${process.env.PATH}`,
          RESULTS: results,
          RUN_ID: runId,
          SHARDS: '4',
          MERGE_EXIT: String(exit),
        },
        encoding: 'utf8',
        timeout: 5000,
      });
    try {
      expect(mergeRun('run-002', 1).status).toBe(1);
      expect(readFileSync(join(results, 'merged.log'), 'utf8')).toBe(
        `agent-chess-sim merge ${[1, 2, 3, 4].map((i) => `${results}/run-002/shard-${i}`).join(' ')} --out ${results}/run-002/sweep\n`,
      );
      expect(readdirSync(join(results, 'run-002'))).toEqual([]);
      expect(readdirSync(join(results, 'run-001'))).toHaveLength(4);
      expect(mergeRun('run-001', 2).status).toBe(2);
      expect(readdirSync(join(results, 'run-001'))).toHaveLength(4);
    } finally {
      rmSync(results, { recursive: true, force: true });
    }
  });
});
