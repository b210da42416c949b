import { Field, type Json } from './checkpoint.js';

/**
 * SHA-256 (FIPS 180-4) whose running state can be written out and read back: the event fingerprint of a
 * checkpointed world goes on hashing after a restore. node's crypto hash cannot export its state, and
 * @noble/hashes keeps it in protected fields (`get`/`set`, `buffer`, `pos`, `length`) that are not its API,
 * so the state here is ours: eight words, a byte count and the unfinished block. Node's hash stays the
 * default (it is native and several times faster); test/property/fingerprint-checkpoint.test.ts holds
 * this one to it.
 */

/**
 * The first 32 bits of the fractional part of the `degree`th root of `n`, found exactly with integer roots:
 * floor(root(n * 2^(32 * degree))) keeps 32 fraction bits below the integer part.
 */
function rootFractionBits(n: number, degree: number): number {
  const d = BigInt(degree);
  const value = BigInt(n) << (32n * d);
  // Newton's method from above converges down to the floor of the root.
  let x = 1n << BigInt(Math.ceil(value.toString(2).length / degree) + 1);
  for (;;) {
    const next = ((d - 1n) * x + value / x ** (d - 1n)) / d;
    if (next >= x) break;
    x = next;
  }
  return Number(x & 0xffffffffn);
}

function firstPrimes(count: number): number[] {
  const primes: number[] = [];
  for (let n = 2; primes.length < count; n++) if (primes.every((p) => n % p !== 0)) primes.push(n);
  return primes;
}

const PRIMES = firstPrimes(64);
/** The initial hash value: square roots of the first 8 primes (FIPS 180-4 §5.3.3). */
const INITIAL = PRIMES.slice(0, 8).map((p) => rootFractionBits(p, 2));
/** The round constants: cube roots of the first 64 primes (§4.2.2). */
const K = Int32Array.from(PRIMES.map((p) => rootFractionBits(p, 3)));

const BLOCK = 64;
/**
 * The message schedule, reused by every block (hashing is synchronous). Words are kept as signed 32-bit
 * integers throughout, which V8 holds unboxed; a Uint32Array's values above 2^31 would be boxed doubles.
 */
const W = new Int32Array(64);

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** Processes one 64-byte block of `data` at `offset` into the eight state words `h`. */
function compress(h: Int32Array, data: Uint8Array, offset: number): void {
  for (let i = 0; i < 16; i++, offset += 4)
    W[i] = (data[offset]! << 24) | (data[offset + 1]! << 16) | (data[offset + 2]! << 8) | data[offset + 3]!;
  for (let i = 16; i < 64; i++) {
    const w15 = W[i - 15]!;
    const w2 = W[i - 2]!;
    const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3);
    const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10);
    W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
  }
  let a = h[0]!, b = h[1]!, c = h[2]!, d = h[3]!, e = h[4]!, f = h[5]!, g = h[6]!, hh = h[7]!; // prettier-ignore
  for (let i = 0; i < 64; i++) {
    const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
    const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    hh = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  h[0] = (h[0]! + a) | 0;
  h[1] = (h[1]! + b) | 0;
  h[2] = (h[2]! + c) | 0;
  h[3] = (h[3]! + d) | 0;
  h[4] = (h[4]! + e) | 0;
  h[5] = (h[5]! + f) | 0;
  h[6] = (h[6]! + g) | 0;
  h[7] = (h[7]! + hh) | 0;
}

const HEX_TAIL = /^(?:[0-9a-f]{2}){0,63}$/;

export class Sha256 {
  readonly #h = Int32Array.from(INITIAL);
  /** The unfinished block: its first `#bytes % 64` bytes are the message's last bytes. */
  readonly #block = new Uint8Array(BLOCK);
  /** Bytes hashed so far, the unfinished block's included. */
  #bytes = 0;

  update(data: Uint8Array): void {
    let at = 0;
    let fill = this.#bytes % BLOCK;
    this.#bytes += data.length;
    if (fill > 0) {
      const take = Math.min(BLOCK - fill, data.length);
      this.#block.set(data.subarray(0, take), fill);
      at = take;
      fill += take;
      if (fill < BLOCK) return;
      compress(this.#h, this.#block, 0);
    }
    for (; at + BLOCK <= data.length; at += BLOCK) compress(this.#h, data, at);
    this.#block.set(data.subarray(at), 0);
  }

  /** The digest of what was hashed so far, in hex; the hash goes on accepting data. */
  hexDigest(): string {
    const h = Int32Array.from(this.#h);
    const fill = this.#bytes % BLOCK;
    // Padding: a 1 bit, zeros, then the message length in bits as a 64-bit big-endian number.
    const padded = new Uint8Array(fill < BLOCK - 8 ? BLOCK : 2 * BLOCK);
    padded.set(this.#block.subarray(0, fill));
    padded[fill] = 0x80;
    const bits = this.#bytes * 8;
    const view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(bits / 2 ** 32));
    view.setUint32(padded.length - 4, bits >>> 0);
    for (let at = 0; at < padded.length; at += BLOCK) compress(h, padded, at);
    return [...h].map((word) => (word >>> 0).toString(16).padStart(8, '0')).join('');
  }

  /** The running state: the eight words, the byte count, and the unfinished block in hex. */
  save(): Json {
    const tail = Buffer.from(this.#block.subarray(0, this.#bytes % BLOCK)).toString('hex');
    return { words: [...this.#h].map((word) => word >>> 0), bytes: this.#bytes, tail };
  }

  static load(field: Field): Sha256 {
    const hash = new Sha256();
    field.record((get) => {
      const words = get('words').list((word) => word.int(0, 0xffffffff));
      if (words.length !== 8) get('words').fail('a list of 8 words');
      hash.#h.set(words);
      // 2^50 bytes keeps the length in bits an exact number.
      hash.#bytes = get('bytes').int(0, 2 ** 50);
      const tail = get('tail').str(126);
      if (!HEX_TAIL.test(tail) || tail.length !== (hash.#bytes % BLOCK) * 2)
        get('tail').fail('the hex of the last bytes % 64 bytes');
      hash.#block.set(Buffer.from(tail, 'hex'));
    });
    return hash;
  }
}
