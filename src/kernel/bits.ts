/**
 * Bit streams for compact records: values appended least-significant bit first into bytes, kept as a
 * one-byte string once complete (a string costs 16 bytes of header and one byte per 8 bits, where a number
 * array costs 8 bytes per element and a typed array about 150 bytes before its first byte).
 */
export class BitWriter {
  /**
   * The bytes so far, in a buffer that doubles when full: a game's log lives as long as the game, so a
   * number array (8 bytes an element) and its copies on every growth were garbage that outlived the young
   * generation.
   */
  #bytes = new Uint8Array(INITIAL_BYTES);
  #length = 0;
  /** Bits still free in the last byte. */
  #free = 0;

  /** The low `width` bits of `value` (0 <= width <= 30). */
  write(value: number, width: number): void {
    for (let done = 0; done < width;) {
      if (this.#free === 0) this.#startByte();
      const take = Math.min(this.#free, width - done);
      const chunk = (value >>> done) & ((1 << take) - 1);
      this.#bytes[this.#length - 1]! |= chunk << (8 - this.#free);
      this.#free -= take;
      done += take;
    }
  }

  #startByte(): void {
    if (this.#length === this.#bytes.length) {
      const grown = new Uint8Array(this.#bytes.length * 2);
      grown.set(this.#bytes);
      this.#bytes = grown;
    }
    this.#length++;
    this.#free = 8;
  }

  /**
   * A natural number (a safe integer >= 0), short when small: its bit length L in Elias gamma code (L + 1
   * written as its length in zeros, then itself), then the L - 1 bits under its leading one. 0 takes 1 bit,
   * 1 takes 3, a value under 2^6 at most 10, under 2^16 at most 24.
   */
  writeNatural(value: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`not a natural number: ${value}`);
    const length = bitLength(value);
    const prefix = bitLength(length + 1);
    this.write(0, prefix - 1);
    this.write(reverseBits(length + 1, prefix), prefix);
    if (length <= 1) return;
    const rest = value - 2 ** (length - 1);
    this.write(rest % 2 ** 30, Math.min(length - 1, 30));
    if (length - 1 > 30) this.write(Math.floor(rest / 2 ** 30), length - 1 - 30);
  }

  /**
   * A natural number in Rice code with parameter `k`: the quotient `value >> k` in unary (that many 0s, then
   * a 1), then the k low bits. Short when the value is near 2^k; a quotient of RICE_ESCAPE or more is written
   * as RICE_ESCAPE 0s and the value as a natural instead. See `nextRiceParameter` for adapting k.
   */
  writeRice(value: number, k: number): void {
    if (!Number.isSafeInteger(value) || value < 0) throw new Error(`not a natural number: ${value}`);
    // The usual case in integer operations (a power of two is a floating-point call, several times slower):
    // a value under 2^30 with k under 30 is its quotient and k low bits by a shift and a mask.
    if (value < 2 ** 30 && k < 30 && value >>> k < RICE_ESCAPE) {
      this.write(0, value >>> k);
      this.write(1, 1);
      this.write(value & ((1 << k) - 1), k);
      return;
    }
    const quotient = Math.floor(value / 2 ** k);
    if (quotient >= RICE_ESCAPE) {
      this.write(0, RICE_ESCAPE);
      this.writeNatural(value);
      return;
    }
    this.write(0, quotient);
    this.write(1, 1);
    const rest = value - quotient * 2 ** k;
    this.write(rest % 2 ** 30, Math.min(k, 30));
    if (k > 30) this.write(Math.floor(rest / 2 ** 30), k - 30);
  }

  /** The bytes so far as a one-byte string (char codes 0 to 255: latin1 maps each byte to its own code). */
  text(): string {
    return Buffer.from(this.#bytes.buffer, this.#bytes.byteOffset, this.#length).toString('latin1');
  }
}

/** A Rice quotient this large is written as an escape and a natural. */
const RICE_ESCAPE = 8;

/**
 * A series of naturals in Rice code, its parameter following a running mean of the series (the last value
 * weighing a quarter): values of a series tend to keep their size (a game's move times, say), and a mean
 * rides out the swings that a parameter taken from the last value alone pays for. Where the two players of a
 * game move at different paces, the times alternate between short and long; following the last value, each
 * was coded around the size of the other's, about 24 bits a time where the mean takes about 17. Uniform
 * times of up to 2 minutes: 18.8 bits against 17.4 (their entropy is 16.9).
 *
 * The first value is often unlike the rest (a game's first move time counts from its creation, its first id
 * gap from the stream's start), so it guides the second value's parameter only, and the mean starts at the
 * second. The writer and the reader keep one each, fed the same values.
 */
export class RiceSeries {
  /** Values seen, counted up to 2: the first two each set the guide outright. */
  #seen = 0;
  /** Four times the guide, kept whole: the last value for the first two, then mean' = mean + (value - mean) / 4. */
  #guideTimesFour = 0;

  write(writer: BitWriter, value: number): void {
    writer.writeRice(value, this.#parameter());
    this.#follow(value);
  }

  read(reader: BitReader): number {
    const value = reader.readRice(this.#parameter());
    this.#follow(value);
    return value;
  }

  #parameter(): number {
    return riceParameterOf(this.#guideTimesFour);
  }

  #follow(value: number): void {
    this.#guideTimesFour = guideAfter(this.#guideTimesFour, this.#seen, value);
    if (this.#seen < 2) this.#seen++;
  }
}

/**
 * A RiceSeries' parameter from its guide (four times it, as the series keeps it): k near the guide's bit
 * length less one, so a value about the guide takes k bits and a quotient of 1 to 3. With `guideAfter`, for a
 * holder that keeps a series in fields of its own rather than a RiceSeries object.
 */
export function riceParameterOf(guideTimesFour: number): number {
  return Math.max(0, bitLength(Math.floor(guideTimesFour / 4)) - 1);
}

/** The guide (four times it) after `value`, the series having seen `seen` values before it (see RiceSeries). */
export function guideAfter(guideTimesFour: number, seen: number, value: number): number {
  return seen < 2 ? 4 * value : guideTimesFour + value - Math.floor(guideTimesFour / 4);
}

/**
 * The low `width` bits of `value` in reverse order: a gamma code is read one bit at a time, most significant
 * first, and the stream hands bits out least significant first.
 */
function reverseBits(value: number, width: number): number {
  let out = 0;
  for (let i = 0; i < width; i++) out |= ((value >>> i) & 1) << (width - 1 - i);
  return out;
}
/** Room for a short game's log before the first growth. */
const INITIAL_BYTES = 64;

function bitLength(value: number): number {
  if (value < 2 ** 32) return 32 - Math.clz32(value);
  return 32 + bitLength(Math.floor(value / 2 ** 32));
}

/** Reads what a BitWriter wrote, in the same order and widths. */
export class BitReader {
  readonly #text: string;
  #bit = 0;

  constructor(text: string) {
    this.#text = text;
  }

  /**
   * The next `width` bits (0 <= width <= 30). The bytes they span are taken whole, each shifted to its place
   * (bits past the 32nd fall off, none of them wanted), and the value masked once: every move of a PGN
   * export is read back through here, several fields a move.
   */
  read(width: number): number {
    if (width === 0) return 0;
    const bit = this.#bit;
    const text = this.#text;
    let at = bit >>> 3;
    if ((bit + width - 1) >>> 3 >= text.length) throw new Error('bit stream: read past the end');
    const offset = bit & 7;
    let value = text.charCodeAt(at) >>> offset;
    for (let got = 8 - offset; got < width; got += 8) value |= text.charCodeAt(++at) << got;
    this.#bit = bit + width;
    return value & ((1 << width) - 1);
  }

  readRice(k: number): number {
    const quotient = this.#readZeros();
    if (quotient === RICE_ESCAPE) return this.readNatural();
    // A quotient under 8 shifted by up to 27 bits stays under 2^30: integer operations, no powers.
    if (k <= 27) return (quotient << k) | this.read(k);
    const low = this.read(Math.min(k, 30));
    const high = k > 30 ? this.read(k - 30) : 0;
    return quotient * 2 ** k + high * 2 ** 30 + low;
  }

  /**
   * A Rice quotient's unary part: the 0s before the next 1, which is read too, or RICE_ESCAPE 0s without
   * it. The zeros left in the current byte are counted at once (its lowest 1 bit), not read one by one.
   */
  #readZeros(): number {
    const text = this.#text;
    let zeros = 0;
    for (;;) {
      const bit = this.#bit;
      if (bit >>> 3 >= text.length) throw new Error('bit stream: read past the end');
      const offset = bit & 7;
      const rest = text.charCodeAt(bit >>> 3) >>> offset;
      const run = rest === 0 ? 8 - offset : 31 - Math.clz32(rest & -rest);
      if (zeros + run >= RICE_ESCAPE) {
        this.#bit = bit + RICE_ESCAPE - zeros;
        return RICE_ESCAPE;
      }
      zeros += run;
      if (rest !== 0) {
        this.#bit = bit + run + 1;
        return zeros;
      }
      this.#bit = bit + run;
    }
  }

  readNatural(): number {
    let prefix = 1;
    while (this.read(1) === 0) if (++prefix > 54) throw new Error('bit stream: not a natural number here');
    let lengthPlusOne = 1;
    for (let i = 1; i < prefix; i++) lengthPlusOne = lengthPlusOne * 2 + this.read(1);
    const length = lengthPlusOne - 1;
    if (length <= 1) return length;
    const low = this.read(Math.min(length - 1, 30));
    const high = length - 1 > 30 ? this.read(length - 1 - 30) : 0;
    return 2 ** (length - 1) + high * 2 ** 30 + low;
  }
}
