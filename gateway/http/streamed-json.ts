import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';
import type { TSchema } from 'typebox';

/** Bytes gathered before a write: few writes, and never more than this held at once. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Sends an answer whose last field is an array too long to hold in memory (a report of years of
 * payments), written as its items arrive. The bytes are the ones the route's own serializer writes for the
 * whole answer, so a client cannot tell: the envelope through the route's response serializer, each item
 * through the same serializer compiled for the item's schema, the array as that serializer writes one.
 *
 * The first item is read before the status line goes out, so a database that fails at once gets the
 * ordinary error answer; a failure later can only cut the connection (the JSON is then incomplete, which
 * every client's parser refuses), never end it with a well-formed partial report.
 */
export async function sendStreamedArray<T>(
  reply: FastifyReply,
  envelope: Record<string, unknown>,
  field: string,
  itemSchema: TSchema,
  items: AsyncIterable<T>,
): Promise<FastifyReply> {
  const serializeEnvelope = reply.getSerializationFunction('200');
  if (!serializeEnvelope) throw new Error(`no response schema for ${reply.request.url}`);
  const head = serializeEnvelope(envelope);
  const item = reply.compileSerializationSchema(itemSchema as Record<string, unknown>, '200') as (
    value: T,
  ) => string;
  // `{"Msg":[...],...}` reopened before its brace: the array is the answer's last property.
  const open = `${head.slice(0, -1)}${head.length > 2 ? ',' : ''}${JSON.stringify(field)}:[`;
  const iterator = items[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* body(): AsyncGenerator<string> {
    let chunk = open;
    let next = first;
    let n = 0;
    try {
      while (next.done !== true) {
        chunk += (n > 0 ? ',' : '') + item(next.value);
        n += 1;
        // The first item goes out at once: the first byte costs one item's read, not 64 KB of them.
        if (n === 1 || chunk.length >= CHUNK_BYTES) {
          yield chunk;
          chunk = '';
          // SQLite reads are synchronous and a fast client never fills the socket: without a turn of the
          // event loop here the whole answer went out in one turn, and every other request waited for it.
          await nextTurn();
        }
        next = await iterator.next();
      }
      yield `${chunk}]}`;
    } finally {
      // The client went away mid-answer: the reading stops with it.
      if (next.done !== true) await iterator.return?.();
    }
  }
  return reply.type('application/json; charset=utf-8').send(Readable.from(body(), { objectMode: false }));
}
