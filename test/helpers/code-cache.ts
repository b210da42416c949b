import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { BIN_NODE_FLAGS } from '../../bench/cli-process.js';
import { packageRoot } from '../../src/sweep/version.js';

/**
 * Whether V8 takes a bundle's code cache in a process started as the bin starts node (its shebang's flags,
 * then heap-growth.js's, as main.ts imports it first): `loader` names the module in dist/ and its function
 * that loads the bundle (code-bundle.ts's LoadedBundle). The child's stderr and stdout, the latter `true`
 * when the cache was taken.
 */
export function cacheTakenUnderBinFlags(loader: { module: string; load: string }): {
  stderr: string;
  stdout: string;
} {
  const dist = (path: string) => JSON.stringify(pathToFileURL(`${packageRoot()}/dist/${path}`).href);
  const probe = `await import(${dist('src/cli/heap-growth.js')});
    const { ${loader.load} } = await import(${dist(loader.module)});
    process.stdout.write(String(${loader.load}().cacheAccepted));`;
  const child = spawnSync(process.execPath, [...BIN_NODE_FLAGS, '--input-type=module', '-e', probe], {
    encoding: 'utf8',
  });
  return { stderr: child.stderr, stdout: child.stdout };
}
