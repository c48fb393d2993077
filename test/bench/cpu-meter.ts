import { readdirSync, readFileSync } from 'node:fs';

/**
 * Where a run's CPU went, from /proc (Linux): the gateway's processes, the PostgreSQL server's (every
 * `postgres` process: backends, WAL writer, checkpointer) and this process (the load generator). Per sale,
 * that is what a database core or a gateway core carries: 1 s / server CPU per sale = sales per database core.
 */
export type CpuSplit = { gatewayUs: number; serverUs: number; loadUs: number };

const TICKS_PER_SECOND = 100;

function ticksOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime, fields 14 and 15 of stat (11 and 12 after the command).
    return Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  } catch {
    return 0;
  }
}

function pidsWhere(match: (command: string) => boolean): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .filter((pid) => {
      try {
        return match(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      } catch {
        return false;
      }
    });
}

/** The processes of a gateway started with `gateway/server.ts`: its primary and its cluster workers. */
function gatewayPids(primary: number): number[] {
  return [
    primary,
    ...pidsWhere(() => true).filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ')[1] === String(primary);
      } catch {
        return false;
      }
    }),
  ];
}

const serverTicks = () =>
  pidsWhere((c) => c.startsWith('postgres')).reduce((sum, pid) => sum + ticksOf(pid), 0);

/** Starts counting; `stop(sales)` answers the CPU per sale of each side since. */
export function meterCpu(gatewayPrimary: number): { stop(sales: number): CpuSplit } {
  const pids = gatewayPids(gatewayPrimary);
  const gateway0 = pids.reduce((s, p) => s + ticksOf(p), 0);
  const server0 = serverTicks();
  const load0 = process.cpuUsage();
  return {
    stop(sales) {
      const perSale = (ticks: number) => (sales > 0 ? ((ticks / TICKS_PER_SECOND) * 1e6) / sales : NaN);
      const load = process.cpuUsage(load0);
      return {
        gatewayUs: perSale(pids.reduce((s, p) => s + ticksOf(p), 0) - gateway0),
        serverUs: perSale(serverTicks() - server0),
        loadUs: sales > 0 ? (load.user + load.system) / sales : NaN,
      };
    },
  };
}

export const fmtCpu = (c: CpuSplit) =>
  `CPU per sale: gateway ${c.gatewayUs.toFixed(0)} µs, database server ${c.serverUs.toFixed(0)} µs, load generator ${c.loadUs.toFixed(0)} µs`;
