import { createApp } from './app.js';
import { doOnboardRealm } from './actions/onboarding.js';
import { doCreateRealm } from './actions/users.js';
import { MIN_PASSWORD_LENGTH } from './auth/secrets.js';
import { DEFAULT_HOST, DEFAULT_HTTPS_PORT, DEFAULT_PORT, defaultDataDir } from './config.js';
import { isLoopbackHost, listeningLines } from './lib/network/lan-urls.js';
import { discoverServers } from './lib/network/discovery.js';
import { parsePublicUrl } from './lib/network/link-origin.js';
import { isValidEmail } from './lib/people/people.js';
import { reservedEmailReason } from './lib/people/reserved.js';
import { silentLogger } from './log.js';
import { startServer } from './start.js';
import { DEFAULT_DEMO_PORT, DemoRefused, defaultDemoDir, runDemo } from './demo/command.js';
import { Store } from './store/store.js';
import { ExportRefused, runExportCommand } from './export/command.js';
import { FixupRefused, runFixupCommand } from './export/fixup-command.js';

const WILDCARD_HOSTS: ReadonlySet<string> = new Set(['0.0.0.0', '::', '']);

const USAGE = `Usage:
  hearth init --data-dir DIR --realm-name NAME --email EMAIL --password PASSWORD [--full-name NAME]
  hearth serve [--data-dir DIR] [--host H] [--port P] [--https-port P] [--rate-limit N] [--web-public-streams[=true|false]] [--url URL]
  hearth demo [--data-dir DIR] [--host H] [--port P] [--reset] [--live[=SECONDS]]
  hearth discover [--timeout SECONDS]
  hearth export --format rocketchat --out DIR [--data-dir DIR]
  hearth zulip-fixup --site URL --email EMAIL --api-key KEY --fixup FILE

Environment: HEARTH_DATA_DIR, HEARTH_HOST, HEARTH_PORT, HEARTH_HTTPS_PORT override the defaults
(data dir: ${defaultDataDir()}, host ${DEFAULT_HOST}, port ${DEFAULT_PORT}, HTTPS port ${DEFAULT_HTTPS_PORT};
--https-port off serves plain HTTP only);
HEARTH_WEB_PUBLIC_STREAMS=true allows web-public channels (off by default).
HEARTH_MESSAGE_CACHE_MB sets how much of older message history is kept in memory (default 64; the rest
is read from disk when asked for).
--url (or HEARTH_URL) is the address links use, such as http://chat.office.lan:9991, when the office
reaches the server by a name of its own (by default: this computer's name or address as typed).
The demo serves a made-up organization from its own data dir (${defaultDemoDir()} unless
--data-dir says) on 127.0.0.1:${DEFAULT_DEMO_PORT} (--host 0.0.0.0 to show it on the LAN), and prints its
accounts; --reset starts it over, --live makes a bot post every 30 s (or SECONDS).
'export' writes the organization for Zulip's importer (a data dir no server is using);
'zulip-fixup' then restores on the Zulip server what the importer drops (the help center's "Moving to Zulip", /help/moving-to-zulip).`;

class UsageError extends Error {}

/** `booleans` may be given bare (`--flag`, meaning true) or as `--flag=value`. */
function parseFlags(args: string[], known: string[], booleans: string[] = []): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) throw new UsageError(`unexpected argument '${arg}'`);
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(2, eq) : arg.slice(2);
    if (!known.includes(name)) throw new UsageError(`unknown option --${name}`);
    let value: string | undefined;
    if (eq > 0) value = arg.slice(eq + 1);
    else if (booleans.includes(name)) value = 'true';
    else {
      value = args[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
    }
    flags.set(name, value);
  }
  return flags;
}

/** Zulip-style settings switches: true/false, 1/0, yes/no, on/off (empty: false). */
function parseBoolean(text: string, what: string): boolean {
  const t = text.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(t)) return true;
  if (['false', '0', 'no', 'off', ''].includes(t)) return false;
  throw new UsageError(`${what} must be true or false, not '${text}'`);
}

async function init(args: string[]): Promise<number> {
  const flags = parseFlags(args, ['data-dir', 'realm-name', 'email', 'password', 'full-name']);
  for (const name of ['data-dir', 'realm-name', 'email', 'password']) {
    if (!flags.get(name)) throw new UsageError(`missing --${name}`);
  }
  const email = flags.get('email')!.trim();
  const password = flags.get('password')!;
  const realmName = flags.get('realm-name')!.trim();
  if (!realmName) throw new UsageError('--realm-name must not be empty');
  if (!isValidEmail(email)) throw new UsageError(`invalid email address '${email}'`);
  const reserved = reservedEmailReason(null, email);
  if (reserved) throw new UsageError(reserved);
  if (password.length < MIN_PASSWORD_LENGTH) {
    throw new UsageError(`the password must be at least ${MIN_PASSWORD_LENGTH} characters long`);
  }
  const dataDir = flags.get('data-dir')!;
  const store = await Store.open(dataDir);
  try {
    if (store.realm.data.realm !== null) {
      throw new Error(`${dataDir} already holds an organization (${store.realm.data.realm.name})`);
    }
    const { app } = createApp({ store, log: silentLogger });
    const fullName = (flags.get('full-name') ?? '').trim() || email.split('@')[0]!;
    const owner = await doCreateRealm(app, realmName, { email, password, fullName });
    await doOnboardRealm(app, owner);
    process.stdout.write(`${JSON.stringify({ user_id: owner.id, email: owner.email, api_key: owner.api_key })}\n`);
  } finally {
    await store.close();
  }
  return 0;
}

async function serve(args: string[]): Promise<number> {
  const flags = parseFlags(args, ['data-dir', 'host', 'port', 'https-port', 'rate-limit', 'web-public-streams', 'url'], ['web-public-streams']);
  const dataDir = flags.get('data-dir') ?? defaultDataDir();
  const host = flags.get('host') ?? process.env.HEARTH_HOST ?? DEFAULT_HOST;
  const portText = flags.get('port') ?? process.env.HEARTH_PORT ?? String(DEFAULT_PORT);
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) throw new UsageError(`invalid port '${portText}'`);
  // With --port 0 (any free port) HTTPS takes any free port too, unless told otherwise.
  const httpsText = flags.get('https-port') ?? process.env.HEARTH_HTTPS_PORT ?? (portText === '0' ? '0' : String(DEFAULT_HTTPS_PORT));
  const httpsPort = httpsText === 'off' ? null : Number(httpsText);
  if (httpsPort !== null && (!/^\d{1,5}$/.test(httpsText) || httpsPort > 65535)) throw new UsageError(`invalid HTTPS port '${httpsText}' (a port, or 'off')`);
  const webPublic = flags.has('web-public-streams')
    ? parseBoolean(flags.get('web-public-streams')!, '--web-public-streams')
    : parseBoolean(process.env.HEARTH_WEB_PUBLIC_STREAMS ?? 'false', 'HEARTH_WEB_PUBLIC_STREAMS');
  const rateText = flags.get('rate-limit') ?? process.env.HEARTH_RATE_LIMIT ?? '200';
  if (!/^\d{1,6}$/.test(rateText)) throw new UsageError(`--rate-limit takes requests a minute per user (0: off), not '${rateText}'`);
  const urlText = flags.get('url') ?? process.env.HEARTH_URL ?? '';
  const publicUrl = urlText === '' ? null : parsePublicUrl(urlText);
  if (publicUrl && 'error' in publicUrl) throw new UsageError(`--url: ${publicUrl.error}`);
  const config = { webPublicStreamsEnabled: webPublic, apiRateLimitPerMinute: Number(rateText), publicUrl: publicUrl?.origin ?? null };
  // Announced on the LAN unless it listens on loopback only (or the owners turned it off).
  const discovery = !isLoopbackHost(host);
  const running = await startServer({ dataDir, host, port: Number(portText), setupToken: true, config, httpsPort, discovery });
  const needsSetup = running.store.realm.data.realm === null;
  if (needsSetup) {
    const here = WILDCARD_HOSTS.has(host) ? `http://localhost:${running.port}/` : 'the address below';
    process.stderr.write(`No organization in ${dataDir} yet: open ${here} on this computer to set one up, or run 'hearth init'.\n`);
  }
  process.stdout.write(`${listeningLines(host, running.port).join('\n')}\n`);
  if (running.httpsPort !== null) process.stdout.write(`${listeningLines(host, running.httpsPort, undefined, 'https').join('\n')}\n`);
  // From another computer, the setup page asks for this token (on this computer it is not needed).
  if (needsSetup) process.stdout.write(`setup token: ${running.setupToken}\n`);
  await untilSignal();
  await running.stop();
  return 0;
}

/** Resolves at SIGTERM or SIGINT (after saying so on stderr). */
function untilSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      process.stderr.write(`${signal}: stopping (finishing writes)\n`);
      resolve();
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}

/** `hearth discover [--timeout SECONDS]`: the Hearth servers announced on this network. */
async function discover(args: string[]): Promise<number> {
  const flags = parseFlags(args, ['timeout']);
  const seconds = Number(flags.get('timeout') ?? '3');
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 60) throw new UsageError(`--timeout takes 1 to 60 seconds, not '${flags.get('timeout')}'`);
  const found = await discoverServers(seconds * 1000);
  if (!found.length) process.stdout.write(`No Hearth server answered on this network (waited ${seconds} s).\n`);
  for (const s of found) process.stdout.write(`${s.name}\t${s.url}\n`);
  return 0;
}

async function demo(args: string[]): Promise<number> {
  const flags = parseFlags(args, ['data-dir', 'host', 'port', 'reset', 'live'], ['reset', 'live']);
  const portText = flags.get('port') ?? String(DEFAULT_DEMO_PORT);
  if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65535) throw new UsageError(`invalid port '${portText}'`);
  const live = flags.get('live');
  let liveSeconds: number | null = null;
  if (live !== undefined && live !== 'false') {
    liveSeconds = live === 'true' ? 30 : Number(live);
    if (!Number.isFinite(liveSeconds) || liveSeconds < 1 || liveSeconds > 86_400) throw new UsageError(`--live takes seconds between messages (1 to 86400), not '${live}'`);
  }
  const dataDir = flags.get('data-dir');
  const reset = flags.has('reset') && parseBoolean(flags.get('reset')!, '--reset');
  const host = flags.get('host') ?? '127.0.0.1';
  const out = (line: string) => process.stdout.write(`${line}\n`);
  const note = (line: string) => process.stderr.write(`${line}\n`);
  let started;
  try {
    started = await runDemo({ ...(dataDir ? { dataDir } : {}), host, port: Number(portText), reset, liveSeconds }, out, note);
  } catch (err) {
    if (err instanceof DemoRefused) throw new UsageError(err.message);
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new Error(`port ${portText} is in use (another Hearth?): try --port ${Number(portText) + 1}`);
    throw err;
  }
  await untilSignal();
  started.stopLive();
  await started.running.stop();
  return 0;
}

async function exportData(args: string[]): Promise<number> {
  const flags = parseFlags(args, ['format', 'out', 'data-dir']);
  const format = flags.get('format') ?? 'rocketchat';
  if (format !== 'rocketchat') throw new UsageError(`--format: only 'rocketchat' (what Zulip's importer reads), not '${format}'`);
  const out = flags.get('out');
  if (!out) throw new UsageError('missing --out (a new or empty folder)');
  const dataDir = flags.get('data-dir') ?? process.env.HEARTH_DATA_DIR ?? defaultDataDir();
  try {
    await runExportCommand({ dataDir, out }, (line) => process.stderr.write(`${line}\n`));
  } catch (err) {
    if (err instanceof ExportRefused) throw new Error(err.message);
    throw err;
  }
  return 0;
}

async function zulipFixup(args: string[]): Promise<number> {
  const flags = parseFlags(args, ['site', 'email', 'api-key', 'fixup']);
  for (const name of ['site', 'email', 'api-key', 'fixup']) if (!flags.get(name)) throw new UsageError(`missing --${name}`);
  try {
    const ok = await runFixupCommand(
      { site: flags.get('site')!, email: flags.get('email')!, apiKey: flags.get('api-key')!, fixupFile: flags.get('fixup')! },
      (line) => process.stdout.write(`${line}\n`),
    );
    return ok ? 0 : 1;
  } catch (err) {
    if (err instanceof FixupRefused) throw new Error(err.message);
    throw err;
  }
}

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'init') return await init(rest);
    if (command === 'serve') return await serve(rest);
    if (command === 'demo') return await demo(rest);
    if (command === 'discover') return await discover(rest);
    if (command === 'export') return await exportData(rest);
    if (command === 'zulip-fixup') return await zulipFixup(rest);
    if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
      process.stdout.write(`${USAGE}\n`);
      return command === undefined ? 2 : 0;
    }
    throw new UsageError(`unknown command '${command}'`);
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    process.stderr.write(`hearth${command ? ` ${command}` : ''}: ${msg.split('\n')[0]}${err instanceof UsageError ? " (see 'hearth help')" : ''}\n`);
    return err instanceof UsageError ? 2 : 1;
  }
}
