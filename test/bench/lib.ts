/**
 * Shared helpers for the benchmark scripts: statistics, formatting, /proc
 * readings, temp dirs and child processes (with an IPC request/response
 * channel). The raw HTTP client is in raw-http.ts.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

// ---------------------------------------------------------------- statistics

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Nearest-rank percentile (p in 0..100) of an ascending-sorted list. */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export interface Summary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function summarize(values: ArrayLike<number>): Summary {
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (const v of sorted) sum += v;
  return {
    count: sorted.length,
    mean: sorted.length ? sum / sorted.length : NaN,
    p50: percentileSorted(sorted, 50),
    p90: percentileSorted(sorted, 90),
    p99: percentileSorted(sorted, 99),
    max: sorted.length ? sorted[sorted.length - 1]! : NaN,
  };
}

/** A growable list of doubles (latencies), cheap to push millions into. */
export class Samples {
  private buf = new Float64Array(1 << 16);
  length = 0;

  push(v: number): void {
    if (this.length === this.buf.length) {
      const next = new Float64Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.length++] = v;
  }

  values(): Float64Array {
    return this.buf.subarray(0, this.length);
  }
}

// ---------------------------------------------------------------- formatting

export const fmtMs = (ms: number, digits = 2) => `${ms.toFixed(digits)} ms`;
export const fmtInt = (n: number) => Math.round(n).toLocaleString('en-US');
export const fmtKB = (kb: number) => `${kb.toFixed(1)} KB`;
export const fmtMB = (kb: number) => `${(kb / 1024).toFixed(1)} MB`;
export const pct = (x: number) => `${(x * 100).toFixed(0)}%`;

export function goal(ok: boolean): string {
  return ok ? 'MET' : 'NOT MET';
}

export function heading(title: string): void {
  console.log(`\n=== ${title} ===`);
}

/** Left-aligned columns, for round-by-round tables. */
export function table(rows: (string | number)[][]): void {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, String(c).length)));
  for (const r of rows) console.log('  ' + r.map((c, i) => String(c).padEnd(widths[i]!)).join('  ').trimEnd());
}

/** One line about the machine, with the 1-minute load average (other work skews every figure). */
export function environment(): string {
  return `node ${process.version}, ${cpus().length} cores, load average ${loadavg()[0]!.toFixed(2)}`;
}

/** Prints a warning when other processes kept the machine busy during the run. */
export function warnIfBusy(ownProcesses: number): void {
  const load = loadavg()[0]!;
  if (load > ownProcesses + 0.5) {
    console.log(
      `  WARNING: 1-minute load average ${load.toFixed(2)} on ${cpus().length} cores (this benchmark runs ~${ownProcesses} busy processes): ` +
        'other work was competing for the CPU; the figures are unreliable, run again on a quiet machine.',
    );
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- /proc

/** Resident set size of a process, in KB, from /proc/<pid>/status. */
export function rssKB(pid: number = process.pid): number {
  const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for pid ${pid}`);
  return Number(m[1]);
}

const CLK_TCK = 100; // `getconf CLK_TCK` on Linux

/** CPU time (user + system) a process has used so far, in ms, from /proc/<pid>/stat. */
export function cpuMs(pid: number = process.pid): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

// ---------------------------------------------------------------- cleanup

const tempDirs = new Set<string>();
const children = new Set<ChildProc>();

/** A fresh temp dir, removed when the process exits (even on error). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `hearth-bench-${prefix}-`));
  tempDirs.add(dir);
  return dir;
}

/** Removes `dir` when this process exits (a child's own data dir, in case the parent dies first). */
export function removeOnExit(dir: string): void {
  tempDirs.add(dir);
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

function cleanupSync(): void {
  for (const c of children) c.killNow();
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
  tempDirs.clear();
}

let cleanupInstalled = false;
function installCleanup(): void {
  if (cleanupInstalled) return;
  cleanupInstalled = true;
  process.on('exit', cleanupSync);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(sig, () => {
      cleanupSync();
      process.exit(130);
    });
  }
}
installCleanup();

// ---------------------------------------------------------------- child processes

interface IpcRequest {
  id: number;
  cmd: string;
  args: unknown;
}
type IpcReply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };
type IpcReady = { ready: unknown } | { readyError: string };

export const benchFile = (name: string) => fileURLToPath(new URL(name, import.meta.url));

/**
 * A child node process running a script of this directory (through tsx),
 * answering `call(cmd, args)` over IPC. Killed (SIGKILL) when the parent
 * exits for any reason; the child exits by itself when the IPC channel drops.
 */
export class ChildProc {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly exited: Promise<number | null>;
  private exitCode: number | null | undefined;

  private constructor(
    readonly name: string,
    readonly proc: ChildProcess,
  ) {
    children.add(this);
    this.exited = new Promise((resolve) => {
      proc.once('exit', (code, signal) => {
        this.exitCode = code;
        children.delete(this);
        const err = new Error(`${name} exited (code ${code}, signal ${signal})`);
        for (const w of this.waiting.values()) w.reject(err);
        this.waiting.clear();
        resolve(code);
      });
    });
    proc.on('message', (m: IpcReply) => {
      if (typeof m !== 'object' || m === null || !('id' in m)) return;
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (m.ok) w.resolve(m.result);
      else w.reject(new Error(`${name}: ${m.error}`));
    });
  }

  /** Starts `script` (a file of test/bench/) and resolves with what it reported as ready. */
  static async start<R>(
    name: string,
    script: string,
    args: string[] = [],
    opts: { nodeArgs?: string[]; startTimeoutMs?: number } = {},
  ): Promise<{ child: ChildProc; ready: R }> {
    const proc = fork(benchFile(script), args, {
      execArgv: ['--import', 'tsx', ...(opts.nodeArgs ?? [])],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const child = new ChildProc(name, proc);
    const ready = await new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name} did not start in time`)), opts.startTimeoutMs ?? 30_000);
      const onMsg = (m: IpcReady) => {
        if (typeof m !== 'object' || m === null) return;
        if ('ready' in m) {
          clearTimeout(timer);
          proc.off('message', onMsg);
          resolve(m.ready as R);
        } else if ('readyError' in m) {
          clearTimeout(timer);
          proc.off('message', onMsg);
          reject(new Error(`${name} failed to start: ${m.readyError}`));
        }
      };
      proc.on('message', onMsg);
      child.exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`${name} exited before it was ready`));
      });
    }).catch((err) => {
      child.killNow();
      throw err;
    });
    return { child, ready };
  }

  get pid(): number {
    return this.proc.pid!;
  }

  call<T = unknown>(cmd: string, args: unknown = null, timeoutMs = 120_000): Promise<T> {
    if (this.exitCode !== undefined) return Promise.reject(new Error(`${this.name} has exited`));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new Error(`${this.name}: ${cmd} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v as T);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      this.proc.send({ id, cmd, args } satisfies IpcRequest);
    });
  }

  killNow(): void {
    if (this.exitCode === undefined) this.proc.kill('SIGKILL');
  }

  /** Kills the child and waits until it is gone. */
  async stop(): Promise<void> {
    this.killNow();
    await this.exited;
  }
}

/** Kills every child still running (benchmarks call this in `finally`). */
export async function stopAllChildren(): Promise<void> {
  await Promise.all([...children].map((c) => c.stop()));
}

/**
 * The child side: runs `init`, reports its result as ready, then answers
 * commands with `handlers`. Exits when the parent goes away.
 */
export function childMain(
  init: () => Promise<unknown>,
  // biome-ignore lint/suspicious/noExplicitAny: each handler takes its own message shape from the parent process
  handlers: Record<string, (args: any) => unknown>,
): void {
  if (!process.send) throw new Error('this script runs as a child of a benchmark (npm run bench)');
  const send = (m: IpcReply | IpcReady) => process.send!(m);
  process.on('disconnect', () => process.exit(0));
  process.on('message', async (m: IpcRequest) => {
    const h = handlers[m.cmd];
    try {
      if (!h) throw new Error(`unknown command ${m.cmd}`);
      send({ id: m.id, ok: true, result: (await h(m.args)) ?? null });
    } catch (err) {
      send({ id: m.id, ok: false, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    }
  });
  init().then(
    (ready) => send({ ready: ready ?? null }),
    (err) => {
      send({ readyError: err instanceof Error ? (err.stack ?? err.message) : String(err) });
      setTimeout(() => process.exit(1), 100);
    },
  );
}

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function pool<T, R>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * IPC handlers of a server child that record a V8 CPU profile between `profileStart` and
 * `profileStop(file)` (an inspector session: the harness kills children, so --cpu-prof would
 * never write). Benchmarks call them when HEARTH_BENCH_PROFILE names a folder.
 */
export function profilerHandlers(): Record<string, (args: never) => Promise<boolean>> {
  let session: Session | null = null;
  return {
    async profileStart() {
      session = new Session();
      session.connect();
      await session.post('Profiler.enable');
      await session.post('Profiler.setSamplingInterval', { interval: 200 });
      await session.post('Profiler.start');
      return true;
    },
    async profileStop(file: string) {
      if (!session) return false;
      const { profile } = await session.post('Profiler.stop');
      await writeFile(file, JSON.stringify(profile));
      session.disconnect();
      session = null;
      return true;
    },
  };
}
