/** Ids per page of an IdSet: a page is 128 words of 32 bits, 512 bytes. */
const PAGE_IDS = 4096;

interface IdPage {
  readonly words: Uint32Array;
  count: number;
}

/**
 * A set of natural numbers handed out in order (the scheduler's event ids), as bits in pages of 4,096, a page
 * dropped when its last member leaves. The scheduler keeps its cancelled events' ids here: a crowd cancels a
 * turn deadline at every move, and each cancelled id waits until its event reaches the queue's head (the turn
 * limit later), some 40,000 of them in a 5,000-agent run, where a hash set spread every add, lookup and
 * delete over half a megabyte. Recent ids share a few pages, which stay in the caches.
 */
export class IdSet {
  readonly #pages = new Map<number, IdPage>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  // Ids are safe integers, possibly past 2^32 in a long-lived server: a page's number is found by division,
  // and only the offset within a page (under 4,096) goes through bit operations.
  add(id: number): void {
    const offset = id % PAGE_IDS;
    const key = (id - offset) / PAGE_IDS;
    let page = this.#pages.get(key);
    if (page === undefined) {
      page = { words: new Uint32Array(PAGE_IDS / 32), count: 0 };
      this.#pages.set(key, page);
    }
    const bit = 1 << (offset & 31);
    if ((page.words[offset >>> 5]! & bit) !== 0) return;
    page.words[offset >>> 5]! |= bit;
    page.count++;
    this.#size++;
  }

  has(id: number): boolean {
    const offset = id % PAGE_IDS;
    const page = this.#pages.get((id - offset) / PAGE_IDS);
    return page !== undefined && (page.words[offset >>> 5]! & (1 << (offset & 31))) !== 0;
  }

  delete(id: number): void {
    const offset = id % PAGE_IDS;
    const key = (id - offset) / PAGE_IDS;
    const page = this.#pages.get(key);
    const bit = 1 << (offset & 31);
    if (page === undefined || (page.words[offset >>> 5]! & bit) === 0) return;
    page.words[offset >>> 5]! &= ~bit;
    this.#size--;
    if (--page.count === 0) this.#pages.delete(key);
  }

  /** The ids in ascending order. */
  *ascending(): Generator<number> {
    for (const key of [...this.#pages.keys()].sort((a, b) => a - b)) {
      const words = this.#pages.get(key)!.words;
      for (let word = 0; word < words.length; word++)
        for (let bits = words[word]!; bits !== 0; bits &= bits - 1)
          yield key * PAGE_IDS + word * 32 + (31 - Math.clz32(bits & -bits));
    }
  }
}
