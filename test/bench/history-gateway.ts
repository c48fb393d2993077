import { buildGateway } from '../../gateway/app';

/**
 * The history bench's gateway process: the gateway on a grown database, which prints its ready line and
 * then its memory (RSS, V8 heap) every 250 ms, for the bench to watch a streamed report and the soak.
 * argv: data folder, then `sqlite` or a PostgreSQL URL.
 */
const [dataDir, db] = process.argv.slice(2);
if (!dataDir || !db) throw new Error('usage: history-gateway.ts <data folder> <sqlite|postgres url>');
const gateway = await buildGateway({
  dataDir,
  sandbox: true,
  logger: false,
  database: db === 'sqlite' ? { kind: 'sqlite' } : { kind: 'postgres', url: db },
});
const address = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`gateway listening on ${address}\n`);
const timer = setInterval(() => {
  const m = process.memoryUsage();
  process.stdout.write(`${JSON.stringify({ rss: m.rss, heap: m.heapUsed, at: Date.now() })}\n`);
}, 250);
process.on('SIGTERM', () => {
  clearInterval(timer);
  void gateway.close().then(() => process.exit(0));
});
