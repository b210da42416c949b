import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePlayer } from '../../src/compare/players.js';
import { parseSprtOption } from '../../src/compare/sprt-option.js';
import { tempDir } from './helpers.js';

describe('compare --agent words and --sprt', () => {
  it('reads a word with a / or an extension as a module from the current directory, anything else as a name', () => {
    const cwd = process.cwd();
    expect(parsePlayer('greedy', '--agent', cwd)).toEqual({
      written: 'greedy',
      name: 'greedy',
      persona: 'greedy',
    });
    expect(parsePlayer('sf-3', '--vs', cwd)).toEqual({
      written: 'sf-3',
      name: 'sf-3',
      persona: 'engine',
      options: { level: 'sf-3' },
    });
    expect(parsePlayer('agents/examples/material-agent.mjs', '--agent', cwd)).toEqual({
      written: 'agents/examples/material-agent.mjs',
      name: 'material-agent',
      module: resolve('agents/examples/material-agent.mjs'),
    });
    const dir = tempDir();
    writeFileSync(join(dir, 'bot.ts'), 'export default class {}\n');
    mkdirSync(join(dir, 'folder.mjs'));
    expect(parsePlayer('bot.ts', '--agent', dir)).toMatchObject({ name: 'bot', module: join(dir, 'bot.ts') });
    expect(parsePlayer('./folder.mjs', '--agent', dir)).toBe('--agent ./folder.mjs: not a file');
    expect(parsePlayer('./nothing.mjs', '--agent', dir)).toMatch(
      /^--agent \.\/nothing\.mjs: no such file \(looked for .*nothing\.mjs\)$/,
    );
    expect(parsePlayer('notes.txt', '--agent', dir)).toMatch(
      /^--agent notes\.txt: unsupported file type "\.txt"/,
    );
  });

  it('refuses names that are not chess-playing personas or engine levels', () => {
    for (const word of ['grumpy', 'human', 'uci', 'engine', 'sf-9']) {
      expect(parsePlayer(word, '--vs', process.cwd())).toMatch(
        new RegExp(
          `^--vs ${word}: not a persona \\(random, slow, .*\\), an engine level \\(sf-1 to sf-8\\) or a module path`,
        ),
      );
    }
    expect(parsePlayer(' ', '--agent', process.cwd())).toBe('--agent: give a persona name or a module path');
  });

  it('reads --sprt with defaults for the keys left out, and refuses a test that is not one', () => {
    expect(parseSprtOption('elo0=0,elo1=10,alpha=0.05,beta=0.05')).toEqual({
      elo0: 0,
      elo1: 10,
      alpha: 0.05,
      beta: 0.05,
      model: 'normalized',
    });
    const n = 'normalized';
    expect(parseSprtOption('elo1=5, alpha=0.1')).toEqual({
      elo0: 0,
      elo1: 5,
      alpha: 0.1,
      beta: 0.05,
      model: n,
    });
    expect(parseSprtOption('elo0=-5,elo1=0')).toEqual({
      elo0: -5,
      elo1: 0,
      alpha: 0.05,
      beta: 0.05,
      model: n,
    });
    expect(parseSprtOption('elo1=5,model=logistic')).toMatchObject({ elo1: 5, model: 'logistic' });
    expect(parseSprtOption('model=bayesian')).toBe(
      '--sprt model=bayesian: model= takes normalized or logistic',
    );
    expect(parseSprtOption('elo0=10,elo1=0')).toBe('--sprt elo0=10,elo1=0: elo0 must be less than elo1');
    expect(parseSprtOption('alpha=0.6,beta=0.5')).toBe(
      '--sprt alpha=0.6,beta=0.5: alpha + beta must be less than 1',
    );
    for (const bad of ['elo2=3', 'elo1', 'elo1=', 'elo1=ten', 'elo1=1=2', '']) {
      expect(parseSprtOption(bad), bad).toMatch(
        /^--sprt: ".*" is not one of elo0=, elo1=, alpha=, beta= with a number, or model=/,
      );
    }
  });
});
