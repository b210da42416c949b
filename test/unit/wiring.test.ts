import { describe, expect, it } from 'vitest';
import { WireContractError } from '../../src/client/wire-check.js';
import { wirePlatform, type WiringOptions } from '../../src/sim/wiring.js';
import { START_MS } from '../helpers/world.js';

/**
 * The one wiring of platform, route table, transport and clients (src/sim/wiring.ts): clients act on the
 * platform only through the route table, and the wire check is off, throwing or collecting as asked.
 */
const wired = (checkWire: WiringOptions['checkWire'] = 'off') =>
  wirePlatform({ seed: 'wiring', startMs: START_MS, checkWire });

/** Every answer of the route table gains a field no contract declares. */
function leaveTheContract(wiring: ReturnType<typeof wired>): void {
  const handle = wiring.api.handle.bind(wiring.api);
  wiring.api.handle = (request, as) => {
    const response = handle(request, as);
    return { status: response.status, body: { ...(response.body as object), surprise: 1 } };
  };
}

describe('wirePlatform', () => {
  it('puts the platform behind the route table: a client registers, and a second client with its key is that agent', async () => {
    const wiring = wired();
    const registered = await wiring.client().register({ handle: 'wired_one' });
    expect(wiring.platform.state.agents.get(registered.agent_id)?.handle).toBe('wired_one');
    const again = await wiring.client(registered.api_key).agentWhoami();
    expect(again.agent.handle).toBe('wired_one');
    expect(wiring.wireFaults).toEqual([]);
  });

  it('checks nothing when off, throws at the first fault with throw, and lists faults with collect', async () => {
    const off = wired('off');
    leaveTheContract(off);
    await expect(off.client().health()).resolves.toMatchObject({ surprise: 1 });

    const throwing = wired('throw');
    leaveTheContract(throwing);
    await expect(throwing.client().health()).rejects.toThrow(WireContractError);

    const collecting = wired('collect');
    leaveTheContract(collecting);
    await collecting.client().health();
    await collecting.client().health();
    expect(collecting.wireFaults).toHaveLength(2);
    expect(collecting.wireFaults[0]).toMatch(/^GET \/api\/health -> 200: .*surprise/);
  });
});
