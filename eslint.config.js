// ESLint: rules that catch defects in this house. Layout belongs to Prettier (.prettierrc.json) and the
// import layers to dependency-cruiser (.dependency-cruiser.cjs); neither is repeated here.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// `{ a, ...{ b, c } }` packs fields onto one line to look short; a flat literal says the same plainly.
const NO_SPREAD_LITERAL = {
  selector: 'ObjectExpression > SpreadElement > ObjectExpression.argument',
  message: 'Write the fields into the object itself, one literal, not spread from a nested `...{ }`.',
};

// DESIGN, determinism: one seed decides the run, time is an argument, and only the CLI reads the wall
// clock, the environment or a random source.
const DETERMINISM = 'Only src/cli reads the wall clock, argv, env or a random source (DESIGN: determinism)';
const WALL_CLOCK_DATE = [
  {
    selector: 'NewExpression[callee.name="Date"][arguments.length=0]',
    message: `new Date(): ${DETERMINISM}`,
  },
  { selector: 'CallExpression[callee.name="Date"]', message: `Date(): ${DETERMINISM}` },
];
const restrictedProperty = (object, property) => ({ object, property, message: DETERMINISM });
const RANDOM_IMPORTS = [
  'randomUUID',
  'randomBytes',
  'randomInt',
  'randomFill',
  'randomFillSync',
  'getRandomValues',
];

export default defineConfig(
  // Outputs, and a fixture that is deliberately not valid JavaScript (test/unit/byo.test.ts loads it).
  // examples/agent-tests is an agent author's own repository, with its own tsconfig (type-checked by .ci/run).
  globalIgnores([
    'dist/',
    'reports/',
    'coverage/',
    'test/fixtures/agents/syntax-error.mjs',
    'examples/agent-tests/',
  ]),

  {
    files: ['**/*.{ts,js,mjs,cjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `x == null` is the house's "null or undefined"; every other comparison is strict.
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-restricted-syntax': ['error', NO_SPREAD_LITERAL],
      // Prettier wraps a statement-level `a, b` in parentheses, which the default would then allow.
      'no-sequences': ['error', { allowInParentheses: false }],
      // `let x; listen(() => x?.use()); x = await make();`: a listener attached before its target exists.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },

  // Typed linting: the program is built once from tsconfig.json, which covers src, agents, bench and test.
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['vitest.config.ts', 'vitest.long.config.ts', 'vitest.long-tests.ts'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // A `return promise` inside try/catch escapes the catch; elsewhere either form is fine.
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
      // Personas implement async interfaces (`playTurn`) whose body may have nothing to wait for.
      '@typescript-eslint/require-await': 'off',
    },
  },

  // Tests read JSON answers as `any` field by field, and the expectation is the check: typing every
  // answer first would add a second copy of the wire shapes, which the contracts already are.
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },

  // The simulator and the agents: deterministic, and silent (they report through return values and the
  // report; the CLI decides what to print). agents/examples are standalone programs a user runs.
  {
    files: ['src/**/*.ts', 'agents/**/*.{ts,mjs}'],
    ignores: ['src/cli/**', 'agents/examples/**'],
    rules: {
      'no-console': 'error',
      'no-restricted-syntax': ['error', NO_SPREAD_LITERAL, ...WALL_CLOCK_DATE],
      'no-restricted-properties': [
        'error',
        restrictedProperty('Math', 'random'),
        restrictedProperty('Date', 'now'),
        restrictedProperty('performance', 'now'),
        restrictedProperty('process', 'hrtime'),
        restrictedProperty('process', 'argv'),
        restrictedProperty('process', 'env'),
        restrictedProperty('crypto', 'randomUUID'),
        restrictedProperty('crypto', 'getRandomValues'),
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: ['node:crypto', 'crypto'].map((name) => ({
            name,
            importNames: RANDOM_IMPORTS,
            message: DETERMINISM,
          })),
        },
      ],
    },
  },
  // serve's HTTP secrets (the control token, the key-hashing secret) are random on purpose: a server
  // started without a seed must not hand out guessable credentials. This is their one home.
  {
    files: ['src/http/secrets.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  // The library's twin may follow the clock of the test it runs in (`clock: 'timers'`): under fake timers
  // that clock is the test's to move. This file is its one reader.
  {
    files: ['src/lib/test-clock.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
