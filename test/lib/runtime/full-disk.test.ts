/**
 * A disk that fills up, on a real small file system: a 4 MiB tmpfs mounted as the data dir's disk
 * (as root; otherwise the file runs itself again inside a user and mount namespace, `unshare -rm`,
 * where an unprivileged user may mount a tmpfs; where neither works it skips and says why; the
 * injected-failure tests in disk-space.test.ts and storage-health.test.ts run everywhere).
 *
 * The real `hearth serve` over HTTP: sends until the disk is full are refused with STORAGE_FAILED,
 * every acknowledged message is still there (read back over HTTP, then from the files after a
 * restart), every file still parses and no temp file is left; freeing space lets the next send
 * through without a restart; and it starts on a disk with no free byte, serving reads and refusing
 * changes until space returns.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, rmSync, statfsSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { runCli, startServe, type ServeProcess } from '../../helpers/cli.js';
import { eventually } from '../../helpers/eventually.js';
import { Client, type Account } from '../../helpers/server.js';
import { Store } from '../../../server/store/store.js';

const SIZE = '4m';
const IN_NAMESPACE = 'HEARTH_TEST_FULL_DISK_NS';

/** How this run gets a small file system: mounting one itself, in a user namespace, or not at all (why). */
function smallFileSystem(): 'mount' | 'namespace' | { skip: string } {
  if (process.platform !== 'linux') return { skip: `a tmpfs needs Linux (this is ${process.platform})` };
  if (process.getuid?.() === 0) return 'mount';
  const probe = spawnSync('unshare', ['-rm', 'sh', '-c', `d=$(mktemp -d) && mount -t tmpfs -o size=${SIZE} tmpfs "$d" && umount "$d"; rmdir "$d"`], { encoding: 'utf8' });
  if (probe.status === 0) return 'namespace';
  return { skip: `not root, and no user namespace may mount a tmpfs here (unshare -rm: ${(probe.error?.message ?? probe.stderr).trim()})` };
}

const how = process.env[IN_NAMESPACE] ? 'mount' : smallFileSystem();

if (how === 'namespace') {
  describe('a disk that fills up (tmpfs in a user namespace)', () => {
    it('passes inside `unshare -rm`', (t) => {
      const file = fileURLToPath(import.meta.url);
      // Run as a test file of its own, not as this runner's child.
      const env = { ...process.env };
      delete env.NODE_TEST_CONTEXT;
      const run = spawnSync('unshare', ['-rm', process.execPath, '--import', 'tsx', '--test', '--test-reporter=tap', file], {
        env: { ...env, [IN_NAMESPACE]: '1' },
        encoding: 'utf8',
        timeout: 240_000,
      });
      assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
      assert.match(run.stdout, /^# pass 4$/m, run.stdout);
      assert.match(run.stdout, /^# fail 0$/m, run.stdout);
      for (const line of run.stdout.split('\n').filter((l) => /^ {4}# (\d|started)/.test(l))) t.diagnostic(line.trim().slice(2));
    });
  });
} else if (typeof how === 'object') {
  describe('a disk that fills up (tmpfs)', () => {
    it('runs on a real small file system', { skip: how.skip }, () => undefined);
  });
} else {
  describe(`a disk that fills up: the data dir on a ${SIZE} tmpfs`, () => {
    const mnt = join(tmpdir(), `hearth-full-disk-${process.pid}`);
    const dataDir = join(mnt, 'data');
    const filler = join(mnt, 'filler');
    let serve: ServeProcess | null = null;
    let client: Client;
    /** Every message a send was acknowledged for: id -> its unique text. */
    const acknowledged = new Map<number, string>();
    // HTTPS on as well (a free port), as `npm start` serves: its certificates are made at the first start.
    const serveArgs = ['--data-dir', dataDir, '--host', '127.0.0.1', '--port', '0'];

    before(async () => {
      mkdirSync(mnt, { recursive: true });
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${SIZE},mode=0700`, 'tmpfs', mnt]);
      const init = await runCli(['init', '--data-dir', dataDir, '--realm-name', 'Full', '--email', 'owner@example.com', '--password', 'owner password 1']);
      assert.equal(init.code, 0, init.stderr);
      const made = JSON.parse(init.stdout) as { user_id: number; email: string; api_key: string };
      const owner: Account = { id: made.user_id, email: made.email, apiKey: made.api_key, password: 'owner password 1' };
      serve = await startServe(serveArgs);
      client = new Client(serve.url, owner);
    });

    after(async () => {
      await serve?.kill9();
      try {
        execFileSync('umount', [mnt]);
      } catch {
        execFileSync('umount', ['-l', mnt]);
      }
      rmSync(mnt, { recursive: true, force: true });
    });

    const free = () => {
      const s = statfsSync(mnt);
      return s.bavail * s.bsize;
    };
    /** Fills the disk until `leave` bytes are free (0: until it refuses another byte). */
    const fill = (leave: number) => {
      const fd = openSync(filler, 'a');
      const chunk = Buffer.alloc(4096, 0x2e);
      try {
        while (free() > leave) writeSync(fd, chunk, 0, Math.min(chunk.length, Math.max(1, free() - leave)));
        if (leave === 0) for (;;) writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      } finally {
        closeSync(fd);
      }
    };
    const send = (text: string) => client.post('/messages', { type: 'stream', to: 'general', topic: 'disk', content: text });
    const sendUntilOk = (text: string) =>
      eventually(async () => {
        const res = await send(text);
        if (res.status === 200) return res.body.id as number;
        assert.equal(res.body.code, 'STORAGE_FAILED', JSON.stringify(res.body));
        return null;
      }, `a send is accepted again: ${text}`, 20_000);
    const assertRefused = (res: { status: number; body: Record<string, unknown> }) => {
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.equal(res.body.code, 'STORAGE_FAILED');
      assert.match(String(res.body.msg), /ENOSPC: the disk holding its data folder is full/);
    };
    /** Every acknowledged message, read back over HTTP with its text. */
    const assertAllThere = async () => {
      const got = await client.get('/messages', {
        anchor: 'oldest',
        num_before: 0,
        num_after: 5000,
        narrow: JSON.stringify([['channel', 'general'], ['topic', 'disk']]),
        apply_markdown: false,
      });
      assert.equal(got.status, 200, JSON.stringify(got.body));
      const byId = new Map((got.body.messages as { id: number; content: string }[]).map((m) => [m.id, m.content]));
      for (const [id, text] of acknowledged) assert.equal(byId.get(id), text, `acknowledged message ${id} is there`);
      const extra = [...byId].filter(([id]) => !acknowledged.has(id)).map(([id, text]) => `${id}: ${text.slice(0, 20)}`);
      assert.deepEqual(extra, [], 'no refused message shows');
    };
    /** Every data file parses; no temp copy, probe or torn file is left. */
    const assertFilesWhole = () => {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
      const files = walk(dataDir);
      assert.deepEqual(
        files.filter((f) => /\.tmp$|\.write-probe$|\.torn-/.test(f)),
        [],
        'no temp, probe or torn file',
      );
      let parsed = 0;
      for (const f of files.filter((f) => f.endsWith('.json'))) {
        const text = readFileSync(f, 'utf8');
        // The event queues kept over a restart are a line each (lib/runtime/queue-persistence.ts).
        const docs = f.endsWith('event-queues.json') ? text.split('\n').filter((l) => l !== '') : [text];
        for (const doc of docs) assert.doesNotThrow(() => JSON.parse(doc), `${f} parses`);
        parsed++;
      }
      assert.ok(parsed >= 5, `${parsed} JSON files`);
    };

    it('refuses sends with STORAGE_FAILED once the disk is full, losing nothing acknowledged and tearing no file', async (t) => {
      fill(192 * 1024);
      let refused = 0;
      // Four at a time, so writes coalesce into one flush as they do under load.
      for (let i = 0; i < 400 && refused < 3; i += 4) {
        const texts = [0, 1, 2, 3].map((k) => `message ${i + k} ${'x'.repeat(6000)}`);
        const answers = await Promise.all(texts.map(send));
        answers.forEach((res, k) => {
          if (res.status === 200) acknowledged.set(res.body.id as number, texts[k]!);
          else {
            assertRefused(res);
            refused++;
          }
        });
      }
      assert.ok(refused >= 3, 'the disk filled up and sends were refused');
      assert.ok(acknowledged.size > 5, `${acknowledged.size} sends were acknowledged first`);
      t.diagnostic(`${SIZE} tmpfs, 192 KiB left by the filler: ${acknowledged.size} sends of 6 KB acknowledged, ${refused} refused; ${free()} bytes free`);
      await assertAllThere();
      const status = await client.get('/hearth/status');
      assert.equal(status.status, 200);
      assert.equal(status.body.disk_space_low, true);
      assert.equal(status.body.disk_total_bytes, 4 * 1024 * 1024);
      assert.equal(typeof status.body.disk_free_bytes, 'number');
      assertFilesWhole();
    });

    it('takes the next send without a restart once space returns', async () => {
      unlinkSync(filler);
      const text = 'after space returned';
      acknowledged.set(await sendUntilOk(text), text);
      await assertAllThere();
      assert.equal((await client.get('/hearth/status')).body.storage_error, null);
      assertFilesWhole();
    });

    it('starts on a disk with no free byte: reads work, changes are refused plainly until space returns', async (t) => {
      assert.ok(serve);
      serve.child.kill('SIGTERM');
      assert.equal((await serve.exited).code, 0);
      // The server certificate must be issued again at this start (its file is gone), with no room to save it.
      rmSync(join(dataDir, 'tls', 'server.crt'));
      fill(0);
      assert.equal(free(), 0, 'not one free byte');
      const started = Date.now();
      serve = await startServe(serveArgs);
      client = new Client(serve.url, client.account);
      t.diagnostic(`started on the full disk in ${Date.now() - started} ms`);
      assert.match(serve.stderr(), /the data dir takes no writes/);
      const running = serve;
      await eventually(() => /^listening on https:\/\//m.test(running.stdout()), 'HTTPS served, its new certificate from memory');
      assert.equal(existsSync(join(dataDir, 'tls', 'server.crt')), false, 'the new certificate could not be saved');
      // The lock could not hold the pid in a file: it is a link naming it, and it still keeps a second server out.
      const lock = join(dataDir, 'hearth.lock');
      assert.ok(lstatSync(lock).isSymbolicLink());
      assert.equal(readlinkSync(lock), String(serve.pid));
      const second = await runCli(['serve', ...serveArgs]);
      assert.notEqual(second.code, 0);
      assert.match(second.stderr, /in use by another Hearth server/);

      await assertAllThere();
      const reg = await client.post('/register', { event_types: JSON.stringify(['message']) });
      assert.equal(reg.status, 200, 'registering is reading');
      assertRefused(await send('on a full disk'));
      const status = await client.get('/hearth/status');
      assert.equal(status.body.storage_error, 'ENOSPC');
      assert.equal(status.body.disk_free_bytes, 0);
      assert.equal(status.body.disk_space_low, true);
      assertFilesWhole();

      unlinkSync(filler);
      const text = 'after the full-disk start';
      acknowledged.set(await sendUntilOk(text), text);
      await assertAllThere();
    });

    it('keeps every acknowledged message on disk, each file whole (the store reopened after a stop)', async () => {
      assert.ok(serve);
      serve.child.kill('SIGTERM');
      assert.equal((await serve.exited).code, 0);
      serve = null;
      assertFilesWhole();
      const store = await Store.open(dataDir, { lock: false, readOnlyOpen: true });
      for (const [id, text] of acknowledged) assert.equal(store.messages.get(id)?.content, text, `message ${id} on disk`);
      const kept = [...store.messages.all()].filter((m) => m.topic === 'disk');
      assert.equal(kept.length, acknowledged.size, 'no refused message was kept');
    });
  });
}
