import cluster from 'node:cluster';
import Fastify from 'fastify';

/**
 * The reference of the gateway benchmark: a bare Fastify JSON endpoint (parse a body, answer a small
 * object), run as its own process exactly like the gateway, so the two rates compare like for like.
 * `--workers N`: N cluster workers on one port, as the gateway's `--workers` — what a second process does
 * on this machine when there is no database at all.
 */
const workersAt = process.argv.indexOf('--workers');
const workers = workersAt > 0 ? Number(process.argv[workersAt + 1] ?? 1) : 1;

if (workers > 1 && cluster.isPrimary) {
  let listening = 0;
  for (let i = 0; i < workers; i += 1) {
    cluster.fork().on('message', (m: { address?: string }) => {
      listening += 1;
      // In a cluster every worker that listens on port 0 gets the same port: any address is the address.
      if (listening === workers && m.address) process.stdout.write(`bare listening on ${m.address}\n`);
    });
  }
  process.on('SIGTERM', () => {
    for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
    process.exit(0);
  });
} else {
  const app = Fastify({ logger: false });
  app.post('/echo', (request) => {
    const body = request.body as { UserTransactionNumber?: string } | undefined;
    return { ResponseCode: 200, UserTransactionNumber: body?.UserTransactionNumber ?? null };
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  if (cluster.isWorker) process.send?.({ address });
  else process.stdout.write(`bare listening on ${address}\n`);
  process.on('SIGTERM', () => {
    void app.close().then(() => process.exit(0));
  });
}
