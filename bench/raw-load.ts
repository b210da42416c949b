/**
 * A lean closed-loop HTTP/1.1 load over raw keep-alive sockets for P3. For the bare and my-turn rounds each
 * connection writes one prebuilt request, waits for the whole answer (status line, content-length), records
 * the time and writes the next, the body unread (rawRound); the agents with movers use RawClient, the same
 * framing behind bench/http-load.ts's client interface. `http.request` costs the load generator several times more per request
 * than this, and with the load in one process against a server in another, the generator must be the
 * cheaper side, or the figure measures the client (measured here: ~8,000 requests/s for both the bare
 * route and my-turn through http.request, a ratio of 1.0 that said nothing about the server).
 */
import net from 'node:net';
import { latencySummary, type LatencySummary } from './figures.js';
import type { Answer, AnswerBody, JsonClient } from './http-load.js';

/**
 * The end of the first complete HTTP response in `buffer` and its status, or undefined while incomplete.
 * Only content-length framing: the servers measured here (fastify, JSON answers) never chunk.
 */
export function completeResponse(
  buffer: Buffer,
): { status: number; bodyStart: number; length: number } | undefined {
  const end = buffer.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const head = buffer.toString('latin1', 0, end);
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(head);
  if (!status) throw new Error(`raw load: not an HTTP response: ${JSON.stringify(head.slice(0, 40))}`);
  const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(head);
  if (!length) throw new Error('raw load: a response without content-length');
  const total = end + 4 + Number(length[1]);
  return buffer.length >= total
    ? { status: Number(status[1]), bodyStart: end + 4, length: total }
    : undefined;
}

/** A keep-alive request: an API key when given, a JSON body when given (a bodiless POST says length 0). */
export function rawRequest(
  port: number,
  method: string,
  path: string,
  options: { apiKey?: string; body?: unknown } = {},
): Buffer {
  const auth = options.apiKey === undefined ? '' : `authorization: Bearer ${options.apiKey}\r\n`;
  const payload = options.body === undefined ? '' : JSON.stringify(options.body);
  const type = options.body === undefined ? '' : 'content-type: application/json\r\n';
  const length = method === 'GET' ? '' : `content-length: ${Buffer.byteLength(payload)}\r\n`;
  return Buffer.from(
    `${method} ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: keep-alive\r\n${auth}${type}${length}\r\n${payload}`,
  );
}

export function getRequest(port: number, path: string, apiKey?: string): Buffer {
  return rawRequest(port, 'GET', path, apiKey === undefined ? {} : { apiKey });
}

/** One keep-alive connection with at most one request in flight. */
class RawConnection {
  readonly #socket: net.Socket;
  #pending: Buffer | undefined;
  #waiting:
    { resolve: (a: { status: number; body: Buffer }) => void; reject: (e: Error) => void } | undefined;

  private constructor(socket: net.Socket) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#pending = this.#pending === undefined ? chunk : Buffer.concat([this.#pending, chunk]);
      const answer = completeResponse(this.#pending);
      if (!answer || !this.#waiting) return;
      const body = this.#pending.subarray(answer.bodyStart, answer.length);
      this.#pending =
        this.#pending.length > answer.length ? this.#pending.subarray(answer.length) : undefined;
      const waiting = this.#waiting;
      this.#waiting = undefined;
      waiting.resolve({ status: answer.status, body });
    });
    const fail = (error: Error) => {
      this.#waiting?.reject(error);
      this.#waiting = undefined;
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('raw load: the server closed a connection')));
  }

  static async open(port: number): Promise<RawConnection> {
    return new RawConnection(await connect(port));
  }

  request(bytes: Buffer): Promise<{ status: number; body: Buffer }> {
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      this.#socket.write(bytes);
    });
  }

  destroy(): void {
    this.#socket.destroy();
  }
}

/**
 * bench/http-load.ts's client interface over raw keep-alive connections: a connection per request in
 * flight, kept for the next one (the pool grows to the loop's concurrency and stays there).
 */
export class RawClient implements JsonClient {
  readonly #port: number;
  readonly #idle: RawConnection[] = [];

  constructor(port: number) {
    this.#port = port;
  }

  /** Opens connections, `batch` at a time, until `count` wait idle: a round's sockets are ready before its clock starts. */
  async connect(count: number, batch = 50): Promise<void> {
    while (this.#idle.length < count) {
      const n = Math.min(batch, count - this.#idle.length);
      this.#idle.push(
        ...(await Promise.all(Array.from({ length: n }, () => RawConnection.open(this.#port)))),
      );
    }
  }

  /** One request on an idle connection (a new one if none is idle), its answer's status and body unparsed. */
  async exchange(bytes: Buffer): Promise<{ status: number; body: Buffer }> {
    const connection = this.#idle.pop() ?? (await RawConnection.open(this.#port));
    try {
      const answer = await connection.request(bytes);
      this.#idle.push(connection);
      return answer;
    } catch (error) {
      connection.destroy();
      throw error;
    }
  }

  async send(
    method: string,
    path: string,
    options: { body?: unknown; apiKey?: string } = {},
  ): Promise<Answer> {
    const { status, body } = await this.exchange(rawRequest(this.#port, method, path, options));
    return { status, body: body.length === 0 ? null : (JSON.parse(body.toString('utf8')) as AnswerBody) };
  }

  close(): void {
    for (const connection of this.#idle.splice(0)) connection.destroy();
  }
}

export interface RawRound {
  ms: number;
  requests: number;
  latency: LatencySummary;
  /** status -> count, for answers other than 200. */
  unexpected: Map<number, number>;
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1', noDelay: true });
    socket.once('connect', () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/**
 * One round: a closed loop per request in `requests` (each resends its own), on the client's kept-alive
 * connections, all open before the clock starts (opening hundreds at a round's start shows up as second-long
 * outliers); the round ends `seconds` later, when every loop's last answer is in.
 */
export async function rawRound(
  client: RawClient,
  requests: readonly Buffer[],
  seconds: number,
): Promise<RawRound> {
  await client.connect(requests.length);
  const durations: number[] = [];
  const unexpected = new Map<number, number>();
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    requests.map(async (request) => {
      for (let now = start; now < deadline;) {
        const sentAt = performance.now();
        const { status } = await client.exchange(request);
        now = performance.now();
        durations.push(now - sentAt);
        if (status !== 200) unexpected.set(status, (unexpected.get(status) ?? 0) + 1);
      }
    }),
  );
  return {
    ms: performance.now() - start,
    requests: durations.length,
    latency: latencySummary(durations),
    unexpected,
  };
}
