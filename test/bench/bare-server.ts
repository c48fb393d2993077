import Fastify from 'fastify';

/**
 * The reference of the gateway benchmark: a bare Fastify JSON endpoint (parse a body, answer a small
 * object), run as its own process exactly like the gateway, so the two rates compare like for like.
 */
const app = Fastify({ logger: false });
app.post('/echo', (request) => {
  const body = request.body as { UserTransactionNumber?: string } | undefined;
  return { ResponseCode: 200, UserTransactionNumber: body?.UserTransactionNumber ?? null };
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`bare listening on ${address}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
