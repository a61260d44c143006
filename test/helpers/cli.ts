import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The real entry point, as `npx hearth` runs it. */
export const HEARTH_BIN = fileURLToPath(new URL('../../server/bin/hearth.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Environment for a child: the parent's, minus HEARTH_* (so a developer's settings do not leak in), plus `env`. */
function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('HEARTH_')) out[k] = v;
  return { ...out, ...env };
}

function collect(child: ChildProcess): { out: () => string; err: () => string; exited: Promise<CliResult> } {
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const exited = new Promise<CliResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { out: () => stdout, err: () => stderr, exited };
}

/** Runs `hearth ...args` to completion. */
export async function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  const child = spawn(process.execPath, [HEARTH_BIN, ...args], { cwd: ROOT, env: childEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  return collect(child).exited;
}

export interface ServeProcess {
  child: ChildProcess;
  pid: number;
  port: number;
  url: string;
  /** The first stdout line (`listening on ...`). */
  listening: string;
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has exited. */
  exited: Promise<CliResult>;
  /** SIGKILL, then wait for the exit. */
  kill9(): Promise<CliResult>;
}

/**
 * Starts `hearth serve ...args` (or `demo`) and resolves once it printed its
 * `listening on` line; rejects (with its output) if it exits first.
 */
export async function startServe(
  args: string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = 45_000,
  command: 'serve' | 'demo' = 'serve',
): Promise<ServeProcess> {
  const child = spawn(process.execPath, [HEARTH_BIN, command, ...args], {
    cwd: ROOT,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const io = collect(child);
  const line = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`hearth serve did not start within ${timeoutMs} ms: ${io.out()} ${io.err()}`));
    }, timeoutMs);
    const onData = () => {
      const nl = io.out().indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve(io.out().slice(0, nl));
      }
    };
    child.stdout!.on('data', onData);
    void io.exited.then((r) => {
      clearTimeout(timer);
      reject(new Error(`hearth serve exited (${r.code ?? r.signal}) before listening: ${r.stdout} ${r.stderr}`));
    });
  });
  const m = /^listening on (http:\/\/(.+):(\d+))\/$/.exec(line);
  if (!m) {
    child.kill('SIGKILL');
    throw new Error(`unexpected first line: ${line}`);
  }
  return {
    child,
    pid: child.pid!,
    port: Number(m[3]),
    url: m[1]!,
    listening: line,
    stdout: io.out,
    stderr: io.err,
    exited: io.exited,
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      return io.exited;
    },
  };
}
