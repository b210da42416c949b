import { describe, expect, it } from 'vitest';
import { agentNames, playerName } from '../../src/report/agent-names.js';

describe('one name per agent (src/report/agent-names.ts)', () => {
  it('names an engine by its level, a UCI engine by its binary, anything else by its persona', () => {
    expect(playerName('engine', { level: { name: 'sf-2' } })).toBe('sf-2');
    expect(playerName('uci', { engine: { config: { path: '/usr/games/stockfish' } } })).toBe('stockfish');
    expect(playerName('uci', { engine: { config: { path: 'stockfish' } } })).toBe('stockfish');
    expect(playerName('material_agent', {})).toBe('material_agent');
    expect(playerName('greedy', null)).toBe('greedy');
  });

  it('gives each agent its name, or its handle where another agent of the run shares the name', () => {
    const names = agentNames([
      { handle: 'my_bot_0001', persona: 'my_bot', impl: {} },
      { handle: 'engine_0001', persona: 'engine', impl: { level: { name: 'sf-2' } } },
      { handle: 'engine_0002', persona: 'engine', impl: { level: { name: 'sf-5' } } },
      { handle: 'random_0001', persona: 'random', impl: {} },
      { handle: 'random_0002', persona: 'random', impl: {} },
    ]);
    expect(Object.fromEntries(names)).toEqual({
      my_bot_0001: 'my_bot',
      engine_0001: 'sf-2',
      engine_0002: 'sf-5',
      random_0001: 'random_0001',
      random_0002: 'random_0002',
    });
  });
});
