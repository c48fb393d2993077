import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openJournal, type Journal } from '../../electron/journal/journal';
import { pinDigest, pinKeys, type PinKeys } from '../../electron/roles/pins';
import { createRoles, type Roles } from '../../electron/roles/roles';

/**
 * Issue 20, "People": with a PIN of their own per employee under a keyed slow hash, a sign-in must not
 * cost one scrypt per employee. It costs one digest and one index look-up (roles/pins.ts), so its time
 * should not grow with the staff. Timed on stores of 3, 30 and 300 employees (`BENCH_SIGNIN_SIZES`),
 * each signing in the last one hired, interleaved across sizes; the reference is one scrypt digest alone,
 * and "per employee" is what checking each stored hash in turn would take (N digests). Verdict: p50 at
 * the largest store within 1.5× of the smallest.
 */

const SIZES = (process.env.BENCH_SIGNIN_SIZES ?? '3,30,300')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => Number.isInteger(n) && n >= 1);
const SAMPLES = Number(process.env.BENCH_SIGNIN_SAMPLES ?? 20);

const pinOf = (i: number): string => String(135_792 + i * 7919).slice(-6);

type Store = { n: number; dir: string; journal: Journal; roles: Roles; pin: string };

async function store(n: number, keys: PinKeys, now: number): Promise<Store> {
  const dir = mkdtempSync(join(tmpdir(), 'tillpoint-signin-bench-'));
  const journal = await openJournal(join(dir, 'journal.sqlite'));
  for (let i = 0; i < n; i += 1) {
    const lookup = await pinDigest(pinOf(i), keys);
    await journal.addEmployee({
      name: `Employee ${i}`,
      role: i === 0 ? 'manager' : 'cashier',
      pin: { lookup, state: 'own', legacy: null, expiresAt: null },
      now,
    });
  }
  const roles = createRoles({ journal, clock: { now: () => now }, keys, timeClock: () => false });
  await roles.init();
  return { n, dir, journal, roles, pin: pinOf(n - 1) };
}

function p50(samples: number[]): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

export async function run(): Promise<void> {
  const keys = pinKeys(randomBytes(32));
  const now = Date.now();
  const stores: Store[] = [];
  try {
    for (const n of SIZES) stores.push(await store(n, keys, now));
    const times = new Map<number, number[]>(stores.map((s) => [s.n, []]));
    const reference: number[] = [];
    for (let i = 0; i < SAMPLES; i += 1) {
      const t0 = performance.now();
      await pinDigest('246801', keys);
      reference.push(performance.now() - t0);
      for (const s of stores) {
        const t = performance.now();
        const session = await s.roles.signIn(s.pin);
        times.get(s.n)?.push(performance.now() - t);
        if (session.name !== `Employee ${s.n - 1}`) throw new Error(`signed in as ${session.name}`);
      }
    }
    const ref = p50(reference);
    console.log(`sign-in (one digest + index look-up), p50 over ${SAMPLES} samples, interleaved:`);
    console.log(`  reference, one scrypt digest alone: ${ref.toFixed(1)} ms`);
    for (const s of stores) {
      const t = p50(times.get(s.n) ?? []);
      console.log(
        `  ${String(s.n).padStart(4)} employees: ${t.toFixed(1)} ms (x${(t / ref).toFixed(2)} of one digest; checking each stored hash in turn would be ~${(s.n * ref).toFixed(0)} ms)`,
      );
    }
    const first = p50(times.get(stores[0]?.n ?? 0) ?? []);
    const last = p50(times.get(stores.at(-1)?.n ?? 0) ?? []);
    const ratio = last / first;
    console.log(
      `  verdict: p50 at ${stores.at(-1)?.n} employees within 1.5x of ${stores[0]?.n}: x${ratio.toFixed(2)} ${ratio <= 1.5 ? 'PASS' : 'FAIL'}`,
    );
  } finally {
    for (const s of stores) {
      await s.journal.close();
      rmSync(s.dir, { recursive: true, force: true });
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run();
