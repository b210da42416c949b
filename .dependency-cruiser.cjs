// The import layers of the house (docs/architecture.md), checked by `npm run lint` (depcruise src agents bench).
// An arrow is "may import"; every layer may import the layers below it and nothing above:
//   cli -> {lib, sim, compare, sweep, report, http} ; lib -> {http, sim, compare} ; http -> {api, sim} ; sim -> {agents, client, api, platform, escrow}
//   agents -> client -> api/contract ; api -> platform -> {rules, escrow} -> kernel
// Inside platform/, its rooms are layered the same way (PLATFORM_ROOMS below): the wiring (index.ts,
// snapshot.ts, checkpoint.ts) -> chess -> social -> identity -> money -> the core files at the top of platform/.
// Each rule names the layer it guards; `from` is the importer, `to` the forbidden target.

/** A path under src/ that is not one of the named folders: the allowlist form of a layer rule. */
const srcOutside = (...folders) => `^src/(?!(${folders.join('|')})/)`;

/**
 * The rooms of src/platform/, lowest first; a room may import the rooms before it and never one after it.
 * Where two rooms needed each other, the glue sits in the higher one (a bounty creates games, so
 * bounties.ts is in chess/, not money/) or the lower one is called back through what createPlatform
 * registers (timer handlers, game-end hooks, event listeners, read indexes).
 */
const PLATFORM_ROOMS = [
  {
    name: 'core',
    path: '^src/platform/(?!(index|snapshot|checkpoint|checkpoint-records)\\.ts$)[^/]+\\.ts$',
    holds:
      'the Platform class, the state and its record interfaces, events, guards, rate limits, read-index machinery',
  },
  {
    name: 'money',
    path: '^src/platform/money/',
    holds: 'escrows, transfers, wallets: lamports, never a game',
  },
  { name: 'identity', path: '^src/platform/identity/', holds: 'agents, humans, keys, verification' },
  { name: 'social', path: '^src/platform/social/', holds: 'posts, likes, follows, votes, feed, activity' },
  {
    name: 'chess',
    path: '^src/platform/chess/',
    holds: 'challenges, bounties, games, leaderboards, tournaments',
  },
  {
    name: 'wiring',
    path: '^src/platform/(index|snapshot|checkpoint|checkpoint-records)\\.ts$',
    holds:
      'createPlatform (every handler, hook, listener and read index), the state snapshot and the checkpoint',
  },
];

/** One rule per room: nothing in it imports a room above it. */
const platformRoomRules = PLATFORM_ROOMS.slice(0, -1).map((room, i) => ({
  name: `platform-${room.name}-imports-no-room-above`,
  comment:
    `platform/ rooms, lowest first: ${PLATFORM_ROOMS.map((r) => r.name).join(' < ')}. ` +
    `The ${room.name} room (${room.holds}) may import only the rooms before it.`,
  severity: 'error',
  from: { path: room.path },
  to: { path: PLATFORM_ROOMS.slice(i + 1).map((above) => above.path) },
}));

module.exports = {
  forbidden: [
    {
      name: 'kernel-imports-nothing-above',
      comment:
        'kernel/ is the floor (clock, scheduler, rng, ids, money, errors): it imports no other folder.',
      severity: 'error',
      from: { path: '^src/kernel/' },
      to: { path: [srcOutside('kernel'), '^(agents|bench|test)/'] },
    },
    {
      name: 'rules-import-only-kernel',
      comment: 'rules/ are pure functions of their arguments: the kernel is all they may use.',
      severity: 'error',
      from: { path: '^src/rules/' },
      to: { path: [srcOutside('rules', 'kernel'), '^(agents|bench|test)/'] },
    },
    {
      name: 'escrow-imports-only-rules-and-kernel',
      comment:
        'escrow/ is the ledger under the platform: it knows lamports and addresses, not routes or games.',
      severity: 'error',
      from: { path: '^src/escrow/' },
      to: { path: [srcOutside('escrow', 'rules', 'kernel'), '^(agents|bench|test)/'] },
    },
    {
      name: 'platform-imports-only-rules-escrow-kernel',
      comment:
        'platform/ is the in-memory service: it never sees its transports (api, http), the simulator or the CLI.',
      severity: 'error',
      from: { path: '^src/platform/' },
      to: { path: [srcOutside('platform', 'rules', 'escrow', 'kernel'), '^(agents|bench|test)/'] },
    },
    ...platformRoomRules,
    {
      name: 'platform-storage-is-behind-its-record-interface',
      comment:
        "A domain's compact storage (src/platform/<room>/storage/) implements the record interfaces of " +
        'state.ts and knows nothing else of the platform: its room uses it, it never uses its room.',
      severity: 'error',
      from: { path: '^src/platform/[^/]+/storage/' },
      to: {
        path: '^src/platform/',
        pathNot: ['^src/platform/(state|handle-history)\\.ts$', '^src/platform/[^/]+/storage/'],
      },
    },
    {
      name: 'api-imports-only-platform-and-below',
      comment:
        'api/ is the route table both transports share: it never imports http, the client, the simulator or the CLI.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: [srcOutside('api', 'platform', 'rules', 'escrow', 'kernel'), '^(agents|bench|test)/'] },
    },
    {
      name: 'contracts-are-leaves',
      comment:
        'api/contract/ is the wire: the client and agents depend on it, so it depends on no platform, route ' +
        'or transport, only on the kernel (error codes) and the rules (the value lists both sides share).',
      severity: 'error',
      from: { path: '^src/api/contract/' },
      to: { path: [srcOutside('api/contract', 'kernel', 'rules'), '^(agents|bench|test)/'] },
    },
    {
      name: 'client-imports-only-the-contract',
      comment:
        'client/ speaks the wire: it may use the route contracts (api/contract), the error registry (api/errors.ts) ' +
        'and the dispatcher type its in-process transport calls (api/dispatch.ts, type-only below), never the platform.',
      severity: 'error',
      from: { path: '^src/client/' },
      to: {
        path: ['^src/', '^(agents|bench|test)/'],
        pathNot: ['^src/(client|api/contract|rules|kernel)/', '^src/api/(errors|dispatch)\\.ts$'],
      },
    },
    {
      name: 'client-uses-the-dispatcher-as-a-type',
      comment:
        'The in-process transport is handed an Api; it imports only its type, so the client bundles no platform.',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { path: '^src/api/dispatch\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'agents-act-only-through-the-client',
      comment:
        'A persona does what an external agent can: it calls the client, never the platform, api or simulator.',
      severity: 'error',
      from: { path: '^agents/' },
      to: { path: [srcOutside('client', 'rules', 'kernel'), '^(bench|test)/'] },
    },
    {
      name: 'agent-chess-room-imports-no-agent',
      comment:
        "agents/chess/ is the agents' own chess (a board read from a FEN, its moves, a one-move capture look), " +
        'shared by the personas: it knows no persona, engine or adapter.',
      severity: 'error',
      from: { path: '^agents/chess/' },
      to: { path: '^agents/(?!chess/)' },
    },
    {
      name: 'http-imports-no-platform-or-cli',
      comment:
        'http/ serves the route table (api) and the live world (sim); it reaches the platform only through api.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: ['^src/(platform|client|report|sweep|compare|lib|cli)/', '^(agents|bench|test)/'] },
    },
    {
      name: 'sim-imports-no-cli-http-or-outputs',
      comment: 'sim/ runs worlds; the CLI, the HTTP server, reports, sweeps and comparisons sit above it.',
      severity: 'error',
      from: { path: '^src/sim/' },
      to: { path: ['^src/(cli|lib|http|report|sweep|compare)/', '^(bench|test)/'] },
    },
    {
      name: 'report-imports-no-cli-or-transports',
      comment: 'report/ renders a finished run: it reads results and their types, and calls no route.',
      severity: 'error',
      from: { path: '^src/report/' },
      to: { path: ['^src/(cli|lib|http|api|client|sweep|compare)/', '^(agents|bench|test)/'] },
    },
    {
      name: 'sweep-and-compare-import-no-cli-or-http',
      comment: 'sweep/ and compare/ run many worlds for the CLI; they never import it or the HTTP server.',
      severity: 'error',
      from: { path: '^src/(sweep|compare)/' },
      to: { path: ['^src/(cli|lib|http)/', '^(bench|test)/'] },
    },
    {
      name: 'lib-imports-no-cli',
      comment:
        'lib/ is the package as a library (startTwin): it sits under the commands, which may use it, and never ' +
        'imports them, so a test that imports the package runs no argv, exit code or console of the CLI.',
      severity: 'error',
      from: { path: '^src/lib/' },
      to: { path: ['^src/cli/', '^(agents|bench|test)/'] },
    },
    {
      name: 'src-imports-no-bench-or-test',
      comment:
        'Only the `bench` command (src/cli/bench.ts) runs the benchmarks; nothing in src/ imports a test.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/cli/bench\\.ts$' },
      to: { path: '^(bench|test)/' },
    },
    {
      name: 'no-circular',
      comment:
        'No module reaches itself through its imports, type-only ones included: a cycle of value imports ' +
        'runs a module before the one it needs is initialised, and any cycle means two modules that cannot ' +
        'be read, tested or layered one after the other.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      comment:
        'No folder reaches itself through the imports of its modules (src/sim/scenario <-> src/sim/invariants ' +
        'would be one): a folder is a room, and rooms are layered.',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shipped-code-imports-no-dev-dependency',
      comment:
        '`npm ci --omit=dev` must still run what src/, agents/ and bench/ import. The dynamic imports of dev ' +
        'dependencies are optional and guarded (typescript for .ts agent modules, chess.js in the example agent, ' +
        'autocannon in its bench section).',
      severity: 'error',
      from: { path: '^(src|agents|bench)/' },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['dynamic-import', 'type-only'] }, // types vanish at run time
    },
    {
      name: 'imports-resolve',
      comment: 'An import that resolves to nothing fails at run time.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    // Thin commands (issue 31): a command parses its flags, calls the library and prints.
    ...(() => {
      // The files of src/cli/ that are no command: main.ts, the command table and the helpers commands share,
      // and run's bundle (the command table's loader of it, and the build step that makes its code cache).
      const helpers = [
        'main',
        'command-table',
        'run-bundle',
        'run-cache',
        'command-summaries',
        'options',
        'progress',
        'control-token',
        'heap-growth',
        'scenario-errors',
        'stop-signal',
      ];
      const command = `^src/cli/(?!(${helpers.join('|')})\\.ts$)[^/]+\\.ts$`;
      return [
        {
          name: 'no-command-imports-another',
          comment:
            'A command that needs what another command does calls the library both use (src/lib, src/sweep, ' +
            'src/compare, ...), never the other command. The shared CLI helpers are listed above.',
          severity: 'error',
          from: { path: command },
          to: { path: command },
        },
        {
          name: 'nothing-outside-cli-imports-cli',
          comment:
            'src/cli/ is the top of the house (argv, exit codes, the wall clock): the library, the bench and ' +
            'every other folder sit below it and import the library instead.',
          severity: 'error',
          from: { pathNot: '^src/cli/' },
          to: { path: '^src/cli/' },
        },
      ];
    })(),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Type-only imports are cruised too: a layer may not even name the types of a layer above it.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    // chessops and vega-lite publish subpaths through package.json "exports".
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
