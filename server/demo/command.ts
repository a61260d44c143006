/**
 * `hearth demo [--data-dir DIR] [--host H] [--port P] [--reset] [--live[=SECONDS]]`: serves the
 * demo organization, generating it the first time (server/demo/build.ts). Its data dir is
 * its own (under the temp folder unless --data-dir says), never the real one; --reset
 * starts it over but refuses to delete a data dir that holds a real organization. Prints
 * `listening on <URL>` (then the LAN addresses) and one `demo account: <role> <email>
 * <password>` line per person; progress goes to stderr. Listens on loopback unless --host
 * says otherwise: the passwords are printed for anyone to read.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defaultDataDir } from '../config.js';
import { listeningLines } from '../lib/network/lan-urls.js';
import { startServer, type RunningServer } from '../start.js';
import { buildDemo } from './build.js';
import { startLiveBot } from './live.js';
import { DEMO_PASSWORD, PEOPLE, emailOf } from './roster.js';

export interface DemoOptions {
  dataDir?: string;
  host: string;
  port: number;
  reset: boolean;
  /** Seconds between the live bot's messages (null: no live traffic). */
  liveSeconds: number | null;
}

export const DEFAULT_DEMO_PORT = 9991;
export const defaultDemoDir = () => join(tmpdir(), 'hearth-demo');

/** What realm.json says: null (no organization), or whether it is a demo. */
async function organizationIn(dataDir: string): Promise<{ demo: boolean } | null> {
  const text = await readFile(join(dataDir, 'realm.json'), 'utf8').catch(() => null);
  if (text === null) return null;
  const realm = (JSON.parse(text) as { realm?: { demo?: boolean } | null }).realm;
  return realm ? { demo: realm.demo === true } : null;
}

export class DemoRefused extends Error {}

/** Opens (creating or resetting first) the demo data dir and serves it. */
export async function runDemo(opts: DemoOptions, write: (line: string) => void, note: (line: string) => void): Promise<{ running: RunningServer; stopLive: () => void }> {
  const dataDir = resolve(opts.dataDir ?? defaultDemoDir());
  if (dataDir === resolve(defaultDataDir())) throw new DemoRefused(`${dataDir} is Hearth's own data dir; the demo uses a data dir of its own`);
  const existing = await organizationIn(dataDir);
  if (existing && !existing.demo) throw new DemoRefused(`${dataDir} holds a real organization, not the demo: choose another --data-dir`);
  if (opts.reset && existsSync(dataDir)) {
    note(`Removing the old demo in ${dataDir}…`);
    await rm(dataDir, { recursive: true, force: true });
  }
  if (opts.reset || !existing) {
    if (existsSync(dataDir) && (await readdir(dataDir)).length > 0) {
      throw new DemoRefused(`${dataDir} is not empty and holds no demo: choose another --data-dir`);
    }
    note(`Creating the demo organization in ${dataDir} (first run; about half a minute)…`);
    // Built beside it and moved into place, so a stopped build never leaves half a demo.
    const building = `${dataDir}.building-${process.pid}`;
    try {
      await rm(building, { recursive: true, force: true });
      await buildDemo(building, note);
      await rm(dataDir, { recursive: true, force: true });
      await rename(building, dataDir);
    } finally {
      await rm(building, { recursive: true, force: true });
    }
  }
  const running = await startServer({ dataDir, host: opts.host, port: opts.port, setupToken: false });
  for (const line of listeningLines(opts.host, running.port)) write(line);
  for (const p of PEOPLE) write(`demo account: ${p.role} ${emailOf(p)} ${DEMO_PASSWORD}`);
  const stopLive = opts.liveSeconds ? startLiveBot(running.server.app, opts.liveSeconds * 1000, note) : () => undefined;
  return { running, stopLive };
}
