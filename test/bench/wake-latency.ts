import { fork } from 'node:child_process';
import { connect, createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { percentile } from './load';
import { runWhenMain } from './sale-load';

/**
 * `npx tsx test/bench/wake-latency.ts`: what one loopback round trip costs when the process at the other
 * end has been idle for a while, on this machine. A database a millisecond away leaves the gateway and the
 * server asleep between messages; on a virtual machine waking a process is not free, and each hop of the
 * delaying proxy adds two such wake-ups (docs/postgres.md, "Reading them").
 */
function echoServer(): void {
  const server = createServer((c) => {
    c.setNoDelay(true);
    c.on('data', (d) => c.write(d));
  });
  server.listen(0, '127.0.0.1', () => process.send?.((server.address() as AddressInfo).port));
}

export async function run(): Promise<void> {
  const child = fork(fileURLToPath(import.meta.url), ['echo-server']);
  try {
    const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve(Number(m))));
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    await new Promise((resolve) => socket.once('connect', resolve));
    // This side stays awake (it spins); only the echo process sleeps between messages.
    const spin = (ms: number) => {
      const end = performance.now() + ms;
      while (performance.now() < end);
    };
    console.log('\n== loopback round trip to a process idle for a while ==');
    for (const idle of [0, 0.2, 1, 5]) {
      const rtts: number[] = [];
      for (let i = 0; i < 400; i += 1) {
        spin(idle);
        const t = performance.now();
        socket.write('x');
        await new Promise((resolve) => socket.once('data', resolve));
        rtts.push((performance.now() - t) * 1000);
      }
      rtts.sort((a, b) => a - b);
      console.log(
        `  idle ${idle} ms before each message: p50 ${percentile(rtts, 50).toFixed(0)} µs, p90 ${percentile(rtts, 90).toFixed(0)} µs`,
      );
    }
    socket.destroy();
  } finally {
    child.kill();
  }
}

if (process.argv[2] === 'echo-server') echoServer();
else runWhenMain(import.meta.url, run);
