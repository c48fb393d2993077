import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { commandAccess } from '../../../electron/roles/command-access';
import { DEVICE_ROLES, type CommandName, type Role } from '../../../common/bridge/contract';
import { commandPayloads } from '../../../common/bridge/commands';
import { connectBridge, type RemoteBridge } from '../../../electron/bridge/ws-client';
import { can } from '../../../electron/roles/roles';
import { checkAsyncProperty } from '../../support/fuzz';
import { startGateway, type TestGateway } from '../../support/gateway-harness';

/**
 * The browser-mode bridge fed frames of any JSON value (and what is not JSON at all), and calls of any
 * command from any role with any payload, against a terminal running as its own process: that process
 * stays up, every answer is in the protocol's shape (docs/bridge.md "Browser mode: the wire protocol"),
 * a frame before the hello grants nothing, and the role is judged before the payload.
 */

const repo = join(import.meta.dirname, '..', '..', '..');
const SECRET = 'fuzz-secret-0123456789abcdefghijklmnopqrstuvw';
const PINS: Record<Role, string> = { cashier: '1111', manager: '9999', tech: '7777' };
const COMMANDS = Object.keys(commandPayloads) as CommandName[];
/** docs/bridge.md "Error codes". */
const ERROR_CODES = new Set([
  'invalid',
  'unauthorized',
  'forbidden',
  'declined',
  'unreachable',
  'unknown-outcome',
  'offline',
  'busy',
  'device',
  'not-found',
  'conflict',
  'unavailable',
  'internal',
]);

type Terminal = { child: ChildProcess; wsUrl: string; alive(): boolean; stderr(): string };

function startTerminal(gatewayUrl: string, dataDir: string): Promise<Terminal> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(repo, 'test', 'electron', 'support', 'bridge-terminal.ts')],
    {
      cwd: repo,
      env: { ...process.env, TP_DATA: dataDir, TP_GATEWAY: gatewayUrl, TP_SECRET: SECRET },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr?.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-20_000)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the terminal did not start: ${err}`)), 90_000);
    child.once('exit', (code) => reject(new Error(`the terminal exited (${code}) before serving: ${err}`)));
    child.stdout?.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      const { wsUrl } = JSON.parse(line) as { wsUrl: string };
      resolve({
        child,
        wsUrl,
        alive: () => child.exitCode === null && child.signalCode === null,
        stderr: () => err,
      });
    });
  });
}

/** A socket that keeps every frame the server sends, parsed (or `{ unparsable }`), and knows when it closed. */
type RawClient = {
  messages: Record<string, unknown>[];
  closed: Promise<number>;
  isClosed(): boolean;
  send(frame: string | Uint8Array): void;
  waitFor(predicate: (m: Record<string, unknown>) => boolean, ms: number): Promise<Record<string, unknown>>;
  close(): void;
};

function openRaw(wsUrl: string): Promise<RawClient> {
  const ws = new WebSocket(wsUrl, { headers: { origin: new URL(wsUrl).origin.replace(/^ws/, 'http') } });
  const messages: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let closed = false;
  const closedPromise = new Promise<number>((resolve) =>
    ws.on('close', (code) => {
      closed = true;
      for (const w of waiters) w();
      resolve(code);
    }),
  );
  ws.on('error', () => undefined);
  ws.on('message', (data: Buffer, isBinary) => {
    let m: Record<string, unknown>;
    try {
      m = isBinary ? { binary: true } : (JSON.parse(data.toString('utf8')) as Record<string, unknown>);
    } catch {
      m = { unparsable: data.toString('utf8') };
    }
    messages.push(m);
    for (const w of waiters) w();
  });
  const client: RawClient = {
    messages,
    closed: closedPromise,
    isClosed: () => closed,
    send(frame) {
      if (ws.readyState === ws.OPEN) ws.send(frame, { binary: typeof frame !== 'string' });
    },
    waitFor(predicate, ms) {
      return new Promise((resolve, reject) => {
        const check = (): boolean => {
          const found = messages.find(predicate);
          if (found) {
            cleanup();
            resolve(found);
            return true;
          }
          if (closed) {
            cleanup();
            reject(new Error(`closed without the expected frame; got ${JSON.stringify(messages)}`));
            return true;
          }
          return false;
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no expected frame within ${ms} ms; got ${JSON.stringify(messages)}`));
        }, ms);
        const cleanup = (): void => {
          clearTimeout(timer);
          waiters.delete(waiter);
        };
        const waiter = (): void => void check();
        if (!check()) waiters.add(waiter);
      });
    },
    close: () => ws.terminate(),
  };
  return new Promise((resolve, reject) => {
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', () => reject(new Error('the upgrade was refused')));
    ws.once('error', reject);
  });
}

async function helloRaw(wsUrl: string): Promise<RawClient> {
  const c = await openRaw(wsUrl);
  c.send(JSON.stringify({ type: 'hello', secret: SECRET, contractVersion: 1 }));
  await c.waitFor((m) => m.type === 'welcome', 10_000);
  return c;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** What is wrong with a frame the server sent, by the protocol (undefined: nothing). */
function shapeProblem(m: Record<string, unknown>): string | undefined {
  switch (m.type) {
    case 'welcome':
      return typeof m.contractVersion === 'number' ? undefined : 'welcome without contractVersion';
    case 'refused':
      return typeof m.message === 'string' ? undefined : 'refused without a message';
    case 'event':
      return typeof m.event === 'string' && 'payload' in m ? undefined : 'event without name or payload';
    case 'result': {
      if (typeof m.id !== 'number') return 'result without an id';
      return resultProblem(m.result);
    }
    default:
      return `unknown frame ${JSON.stringify(m).slice(0, 200)}`;
  }
}

function resultProblem(r: unknown): string | undefined {
  if (!isRecord(r)) return 'result is not an object';
  if (r.ok === true) return 'value' in r ? undefined : 'ok result without a value';
  if (r.ok !== false || !isRecord(r.error)) return 'result neither ok nor an error';
  const { code, message, problems } = r.error;
  if (typeof code !== 'string' || !ERROR_CODES.has(code)) return `unknown error code ${String(code)}`;
  if (typeof message !== 'string') return 'error without a message';
  if (/\n\s+at /.test(message)) return 'a stack trace in an error message';
  if (problems !== undefined && !(Array.isArray(problems) && problems.every((p) => typeof p === 'string')))
    return 'problems is not a list of strings';
  return undefined;
}

// Frames: any JSON value, text that is not JSON, binary, and frames shaped like the protocol's own.
const anyJson = fc.jsonValue({ maxDepth: 4 });
const commandName = fc.oneof(fc.constantFrom(...COMMANDS), fc.string({ maxLength: 40 }));
const callFrame = fc.record(
  {
    type: fc.constant('call'),
    id: fc.nat(),
    command: commandName,
    payload: anyJson,
  },
  { requiredKeys: ['type', 'id', 'command'] },
);
const helloFrame = fc.record(
  {
    type: fc.constant('hello'),
    secret: fc.string({ maxLength: 60 }),
    launchToken: fc.string({ maxLength: 60 }),
    pageKey: fc.string({ maxLength: 60 }),
    contractVersion: fc.oneof(fc.constant(1), anyJson),
  },
  { requiredKeys: ['type'] },
);
const notAProtocolFrame = anyJson.filter((v) => !(isRecord(v) && (v.type === 'call' || v.type === 'hello')));
const frame = fc.oneof(
  { arbitrary: anyJson.map((v) => JSON.stringify(v)), weight: 3 },
  { arbitrary: fc.constantFrom('null', '[]', '0', '""', 'true', '{}', '{"type":null}'), weight: 2 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 80 }), weight: 1 },
  { arbitrary: fc.uint8Array({ maxLength: 64 }), weight: 1 },
  { arbitrary: callFrame.map((v) => JSON.stringify(v)), weight: 2 },
  { arbitrary: helloFrame.map((v) => JSON.stringify(v)), weight: 2 },
);

// Payloads: any JSON value, and objects with the contract's field names (PIN fields left out: wrong
// PINs count against the terminal's throttle, which would lock the fuzz's own sign-ins).
const fieldNames = [
  'subtotalCents',
  'taxCents',
  'tipCents',
  'amountCents',
  'tenderedCents',
  'ticketId',
  'tenderId',
  'tender',
  'kind',
  'entry',
  'role',
  'action',
  'serviceReferenceNumber',
  'userTransactionNumber',
  'time',
  'limit',
  'enabled',
  'source',
  'last4',
  'text',
];
const fieldValue = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.string({ maxLength: 24 }),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(...DEVICE_ROLES, 'cash', 'credit', 'debit', 'swipe', 'keyed', 'keep', 'reverse', 'pad'),
  fc.record({ kind: fc.constantFrom('cash', 'credit', 'gift'), tenderedCents: fc.integer() }),
);
const payload = fc.oneof(anyJson, fc.dictionary(fc.constantFrom(...fieldNames), fieldValue, { maxKeys: 4 }));

/** A call by any name with any payload: what a client that is not typed against the contract can send. */
const sendAny = (bridge: RemoteBridge, command: string, body: unknown) =>
  bridge.send(command as CommandName, body as never);

/**
 * What the dispatcher answers before any handler runs: nobody signed in, the wrong role, a payload that is
 * not an object — in that order (docs/bridge.md) — or undefined when the handler decides.
 */
function gateAnswer(who: Role | 'nobody', command: CommandName, body: unknown): string | undefined {
  const access = commandAccess[command];
  if (access !== 'public' && who === 'nobody') return 'unauthorized';
  // The customer display's commands are no terminal connection's, whoever is signed in.
  if (access === 'customer') return 'forbidden';
  if (access !== 'public' && access !== 'signed-in' && who !== 'nobody' && !can(who, access))
    return 'forbidden';
  if (!isRecord(body)) return 'invalid';
  return undefined;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

describe('the bridge fed any frame, any command from any role (a terminal process of its own)', () => {
  let gw: TestGateway;
  let dataDir: string;
  let terminal: Terminal;

  beforeAll(async () => {
    gw = await startGateway();
    dataDir = mkdtempSync(join(tmpdir(), 'tillpoint-bridge-fuzz-'));
    terminal = await startTerminal(gw.baseUrl, dataDir);
  }, 120_000);
  afterAll(async () => {
    terminal?.child.kill('SIGKILL');
    await gw?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** The process is up and a fresh client is served. */
  async function expectServing(): Promise<void> {
    expect(terminal.alive(), terminal.stderr()).toBe(true);
    const bridge = await connectBridge(terminal.wsUrl, SECRET);
    const status = await bridge.send('terminal.status', {});
    await bridge.close();
    expect(status.ok).toBe(true);
  }

  it('a `null` frame, before the hello or after it, ends that connection only', async () => {
    const bystander = await connectBridge(terminal.wsUrl, SECRET);
    const before = await openRaw(terminal.wsUrl);
    before.send('null');
    await before.closed;
    expect(before.messages).toEqual([{ type: 'refused', message: expect.any(String) as string }]);

    const after = await helloRaw(terminal.wsUrl);
    after.send('null');
    await after.closed;
    expect(after.messages.map((m) => m.type)).toEqual(['welcome', 'refused']);

    // The other window never noticed.
    expect((await bystander.send('terminal.status', {})).ok).toBe(true);
    await bystander.close();
    await expectServing();
  });

  it('a payload nested deeper than any check recurses, or that no answer could echo, is answered', async () => {
    const c = await helloRaw(terminal.wsUrl);
    const depth = 100_000;
    c.send(
      `{"type":"call","id":1,"command":"session.signIn","payload":{"pin":${'['.repeat(depth)}${']'.repeat(depth)}}}`,
    );
    c.send(
      `{"type":"call","id":2,"command":"sale.open","payload":{"subtotalCents":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}}`,
    );
    const one = await c.waitFor((m) => m.type === 'result' && m.id === 1, 10_000);
    const two = await c.waitFor((m) => m.type === 'result' && m.id === 2, 10_000);
    expect(resultProblem(one.result)).toBeUndefined();
    expect(one.result).toMatchObject({ ok: false, error: { code: 'invalid' } });
    expect(two.result).toMatchObject({ ok: false, error: { code: 'unauthorized' } });
    c.close();
    await expectServing();
  });

  it('frames before the hello grant nothing: the answer is `refused` and the socket closes', async () => {
    await checkAsyncProperty(
      'bridge: frames before hello',
      [fc.array(frame, { minLength: 1, maxLength: 4 })],
      async (frames) => {
        const c = await openRaw(terminal.wsUrl);
        for (const f of frames) c.send(f);
        await withTimeout(c.closed, 10_000, 'the server closing the socket');
        expect(c.messages.length).toBeGreaterThanOrEqual(1);
        for (const m of c.messages)
          expect(m).toEqual({ type: 'refused', message: expect.any(String) as string });
        expect(terminal.alive(), terminal.stderr()).toBe(true);
      },
      { numRuns: 150, minRuns: 20, timeLimitMs: 6_000, caseTimeoutMs: 20_000 },
    );
    await expectServing();
  }, 60_000);

  it('after the hello, any frame: every call is answered in the protocol’s shape, anything else refused', async () => {
    const step = fc.oneof(
      { arbitrary: callFrame.map((f) => ({ call: f })), weight: 5 },
      {
        arbitrary: fc.oneof(
          notAProtocolFrame.map((v) => JSON.stringify(v)),
          fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.trimStart().startsWith('{')),
          fc.uint8Array({ maxLength: 32 }),
        ),
        weight: 1,
      },
    );
    await checkAsyncProperty(
      'bridge: frames after hello',
      [fc.array(step, { minLength: 1, maxLength: 6 })],
      async (steps) => {
        const c = await helloRaw(terminal.wsUrl);
        const calls: number[] = [];
        let junk = false;
        steps.forEach((s, i) => {
          if (typeof s === 'object' && 'call' in s) {
            // Distinct ids, so every answer can be matched to its call.
            const id = s.call.id * 8 + i;
            if (!junk) calls.push(id);
            c.send(JSON.stringify({ ...s.call, id }));
          } else {
            junk = true;
            c.send(s);
          }
        });
        if (junk) {
          await c.waitFor((m) => m.type === 'refused', 10_000);
          await withTimeout(c.closed, 10_000, 'the server closing the socket');
        } else {
          for (const id of calls) await c.waitFor((m) => m.type === 'result' && m.id === id, 10_000);
          c.close();
        }
        for (const m of c.messages) expect(shapeProblem(m)).toBeUndefined();
        const answered = c.messages.filter((m) => m.type === 'result').map((m) => m.id as number);
        // At most one answer per call, and only to calls sent before the frame that ended the socket.
        expect(new Set(answered).size).toBe(answered.length);
        for (const id of answered) expect(calls).toContain(id);
        expect(terminal.alive(), terminal.stderr()).toBe(true);
      },
      { numRuns: 150, minRuns: 20, timeLimitMs: 6_000, caseTimeoutMs: 20_000 },
    );
    await expectServing();
  }, 60_000);

  it('any command from any role with any payload: the role first, then an answer in shape', async () => {
    const sessions = new Map<Role | 'nobody', RemoteBridge>();
    for (const who of ['nobody', 'cashier', 'manager', 'tech'] as const)
      sessions.set(who, await connectBridge(terminal.wsUrl, SECRET));
    // The customer at the simulated devices: a call that waits for a card or a PIN ends when the customer
    // acts, as at a real counter (or when a fuzzed cardWait.cancel stops it).
    const customer = await connectBridge(terminal.wsUrl, SECRET);
    const customerActions: [string, unknown][] = [
      ['simulator.swipe', {}],
      ['simulator.cancelOnPad', {}],
      ['simulator.insert', {}],
      ['simulator.removeCard', {}],
      ['simulator.tap', {}],
      ['simulator.sign', {}],
    ];
    const as = (who: Role | 'nobody'): RemoteBridge => {
      const b = sessions.get(who);
      if (!b) throw new Error(`no connection for ${who}`);
      return b;
    };
    const whileCustomerActs = async <T>(call: Promise<T>): Promise<T> => {
      let done = false;
      const settled = call.then(
        () => undefined,
        () => undefined,
      );
      const acting = (async () => {
        for (let i = 0; ; i += 1) {
          await Promise.race([settled, new Promise((r) => setTimeout(r, 400))]);
          if (done) return;
          const [name, body] = customerActions[i % customerActions.length] ?? ['simulator.state', {}];
          const r = await sendAny(customer, name, body);
          expect(resultProblem(r)).toBeUndefined();
        }
      })();
      try {
        return await call;
      } finally {
        done = true;
        await acting;
      }
    };
    try {
      await checkAsyncProperty(
        'bridge: command × role × payload',
        [
          fc.constantFrom<Role | 'nobody'>('nobody', 'cashier', 'manager', 'tech'),
          fc.constantFrom(...COMMANDS),
          payload,
        ],
        async (who, command, body) => {
          const bridge = as(who);
          // A call drawn earlier may have signed this connection out (or in): put it back.
          const current = await bridge.send('session.current', {});
          const role = current.ok ? (current.value?.role ?? null) : null;
          if (who === 'nobody' && role !== null) await bridge.send('session.signOut', {});
          if (who !== 'nobody' && role !== who) {
            const signed = await bridge.send('session.signIn', { pin: PINS[who] });
            if (!signed.ok) throw new Error(`could not sign in as ${who}: ${signed.error.message}`);
          }
          const r = await whileCustomerActs(sendAny(bridge, command, body));
          expect(resultProblem(r)).toBeUndefined();
          const code = r.ok ? 'ok' : r.error.code;
          const gate = gateAnswer(who, command, body);
          // A payload its schema let through never trips a handler over (that would be `internal`).
          expect(gate ? code : code === 'internal' ? code : 'its handler’s answer').toBe(
            gate ?? 'its handler’s answer',
          );
        },
        { numRuns: 400, minRuns: 40, timeLimitMs: 10_000, caseTimeoutMs: 30_000 },
      );
    } finally {
      for (const b of [...sessions.values(), customer]) await b.close();
    }
    await expectServing();
  }, 90_000);
});
