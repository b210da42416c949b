import { Api } from '../api/dispatch.js';
import { PlatformClient } from '../client/client.js';
import { InProcessTransport } from '../client/in-process.js';
import type { Transport } from '../client/transport.js';
import { WireCheckingTransport } from '../client/wire-check.js';
import { createPlatform, type Platform, type PlatformOptions } from '../platform/index.js';

/**
 * The one place a platform is put behind its route table and handed to clients: the world, the engine
 * calibration, the benches and the test fixtures all start here, so "an agent acts only through the
 * client, over the route table" is built once and cannot drift between them.
 */
export interface WiringOptions extends PlatformOptions {
  /**
   * Check every answer against its route contract (src/client/wire-check.ts): `throw` at the first fault
   * (tests), `collect` the faults for the end of a run (`run --check-wire`), or `off` (the default).
   */
  checkWire?: 'off' | 'throw' | 'collect';
}

export interface WiredPlatform {
  readonly platform: Platform;
  /** The route table over the platform: HTTP servers and raw requests use it directly. */
  readonly api: Api;
  /** The in-process way in that every client of this wiring shares; wire-checked when asked. */
  readonly transport: Transport;
  /** The contract faults collected so far (`checkWire: 'collect'`); always empty otherwise. */
  readonly wireFaults: readonly string[];
  /** A typed client on `transport`, signed in with `apiKey` when one is given. */
  client(apiKey?: string): PlatformClient;
}

export function wirePlatform(options: WiringOptions): WiredPlatform {
  const { checkWire = 'off', ...platformOptions } = options;
  const platform = createPlatform(platformOptions);
  const api = new Api(platform);
  const direct = new InProcessTransport(api);
  const checked = checkWire === 'off' ? null : new WireCheckingTransport(direct, checkWire);
  const transport: Transport = checked ?? direct;
  return {
    platform,
    api,
    transport,
    wireFaults: checked?.faults ?? [],
    client: (apiKey) => new PlatformClient(transport, apiKey),
  };
}
