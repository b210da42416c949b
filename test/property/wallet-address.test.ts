import fc from 'fast-check';
import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { deriveKeypair } from '../../src/escrow/ledger.js';
import { Rng } from '../../src/kernel/rng.js';

/**
 * The ledger writes addresses with @noble/curves and bs58 directly, so that a run does not load web3.js;
 * web3.js's own Keypair is the independent reference they must agree with, byte for byte.
 */
describe('wallet addresses', () => {
  it("are web3.js Keypair.fromSeed's base58 public key for the same seed", () => {
    fc.assert(
      fc.property(fc.string(), (seed) => {
        const { address, seed: secret } = deriveKeypair(new Rng(seed).fork('wallets'));
        expect(address).toBe(Keypair.fromSeed(secret).publicKey.toBase58());
      }),
      { numRuns: 200 },
    );
  });
});
