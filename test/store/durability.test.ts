import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApp } from '../../server/app.js';
import { doCreateRealm } from '../../server/actions/users.js';
import { silentLogger } from '../../server/log.js';
import { CorruptFileError, DurableJSONFile } from '../../server/store/durable-file.js';
import { CURRENT_SCHEMA_VERSION } from '../../server/store/migrations.js';
import { SegmentedCollection } from '../../server/store/segmented.js';
import { Store, StoreOpenError } from '../../server/store/store.js';
import { startServe, type ServeProcess } from '../helpers/cli.js';
import { Client, type Account } from '../helpers/server.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'hearth-durability-'));
});
after(() => rm(root, { recursive: true, force: true }));
let dirs = 0;
const freshDir = () => join(root, `d${++dirs}`);

describe('acknowledged writes survive kill -9', () => {
  const children: ServeProcess[] = [];
  after(async () => {
    await Promise.all(children.map((c) => c.kill9()));
  });

  it('keeps every acknowledged write over many crash/restart rounds, and the files stay parseable', { timeout: 120_000 }, async () => {
    const dataDir = freshDir();
    let owner: Account;
    {
      const store = await Store.open(dataDir);
      const { app } = createApp({ store, log: silentLogger });
      const u = await doCreateRealm(app, 'Durable', { email: 'owner@example.com', password: 'long password', fullName: 'O' });
      owner = { id: u.id, email: u.email, apiKey: u.api_key, password: 'long password' };
      await store.close();
    }

    /** What must be there: draft id → content (deleted drafts are absent), user id → email. */
    const drafts = new Map<number, string>();
    const deleted = new Set<number>();
    const users = new Map<number, string>();
    let maxAckedDraftId = 0;
    let lostInFlight = 0;
    let seq = 0;
    const draft = (content: string) => ({ type: '', to: [], topic: '', content });

    const verify = async (c: Client, round: number) => {
      // Through the API.
      const list = await c.get('/drafts');
      assert.equal(list.status, 200);
      const byId = new Map<number, string>(list.body.drafts.map((d: { id: number; content: string }) => [d.id, d.content]));
      for (const [id, content] of drafts) assert.equal(byId.get(id), content, `round ${round}: draft ${id} via the API`);
      for (const id of deleted) assert.equal(byId.has(id), false, `round ${round}: deleted draft ${id} stays deleted`);
      const reg = await c.post('/register', { fetch_event_types: ['realm_user'], event_types: ['drafts'] });
      assert.equal(reg.status, 200);
      const emails = new Map<number, string>(reg.body.realm_users.map((u: { user_id: number; email: string }) => [u.user_id, u.email]));
      for (const [id, email] of users) assert.equal(emails.get(id), email, `round ${round}: user ${id} via the API`);
      await c.delete('/events', { queue_id: reg.body.queue_id });
      // And in the files.
      const draftsFile = join(dataDir, 'drafts.json');
      // The file appears with the first draft.
      const onDisk = round === 0 ? { nextId: 1, drafts: [] } : readJson(draftsFile);
      const fileDrafts = new Map<number, string>(onDisk.drafts.map((d: { id: number; content: string }) => [d.id, d.content]));
      for (const [id, content] of drafts) assert.equal(fileDrafts.get(id), content, `round ${round}: draft ${id} in drafts.json`);
      for (const id of deleted) assert.equal(fileDrafts.has(id), false);
      assert.equal(new Set(onDisk.drafts.map((d: { id: number }) => d.id)).size, onDisk.drafts.length, 'draft ids unique');
      assert.ok(onDisk.drafts.every((d: { id: number }) => d.id < onDisk.nextId), 'nextId is past every draft');
      const userDoc = readJson(join(dataDir, 'users.json'));
      for (const [id, email] of users) {
        assert.equal(userDoc.users.find((u: { id: number }) => u.id === id)?.email, email, `round ${round}: user ${id} in users.json`);
      }
      assert.ok(userDoc.users.every((u: { id: number }) => u.id < userDoc.nextId));
    };

    const ROUNDS = 6;
    for (let round = 0; round < ROUNDS; round++) {
      const p = await startServe(['--data-dir', dataDir, '--host', '127.0.0.1', '--port', '0']);
      children.push(p);
      assert.equal(readFileSync(join(dataDir, 'hearth.lock'), 'utf8').trim(), String(p.pid), 'a stale lock was taken over');
      assert.equal(existsSync(join(dataDir, 'drafts.json.tmp')), false, 'stale temp files are cleared at start');
      const c = new Client(p.url, owner);
      await verify(c, round);

      // Acknowledged writes: creates (in parallel), an edit, a delete, a new user.
      const creates = await Promise.all(
        Array.from({ length: 6 }, () => {
          const contents = [`r${round} #${++seq}`, `r${round} #${++seq}`];
          return c.post('/drafts', { drafts: contents.map(draft) }).then((res) => ({ res, contents }));
        }),
      );
      for (const { res, contents } of creates) {
        assert.equal(res.status, 200, JSON.stringify(res.body));
        res.body.ids.forEach((id: number, i: number) => {
          assert.ok(id > maxAckedDraftId, `draft id ${id} is new (never reused after a crash)`);
          drafts.set(id, contents[i]!);
        });
      }
      maxAckedDraftId = Math.max(maxAckedDraftId, ...drafts.keys());
      const [editId] = [...drafts.keys()];
      const edited = `edited in round ${round}`;
      const [edit, del, user] = await Promise.all([
        c.patch(`/drafts/${editId}`, { draft: draft(edited) }),
        c.delete(`/drafts/${[...drafts.keys()].at(-1)}`),
        c.post('/users', { email: `r${round}@example.com`, password: 'long password', full_name: `Round ${round}` }),
      ]);
      assert.equal(edit.status, 200);
      drafts.set(editId!, edited);
      assert.equal(del.status, 200);
      const gone = [...drafts.keys()].at(-1)!;
      drafts.delete(gone);
      deleted.add(gone);
      assert.equal(user.status, 200, JSON.stringify(user.body));
      users.set(user.body.user_id, `r${round}@example.com`);

      // A stream of writes (4 at a time) is running when the server is killed: kill it right after the
      // stream's (round + 1)th acknowledgement, so more writes are mid-flush. Those may be lost; every
      // acknowledged one must survive.
      let streamAcks = 0;
      let killing = false;
      let onAck: () => void = () => {};
      const enoughAcks = new Promise<void>((resolve) => (onAck = resolve));
      const writer = async (w: number) => {
        for (let i = 0; !killing; i++) {
          const contents = `r${round} stream ${w}.${i}`;
          const res = await c.post('/drafts', { drafts: [draft(contents)] }).catch(() => null);
          if (res?.status !== 200) {
            lostInFlight++;
            return;
          }
          drafts.set(res.body.ids[0], contents);
          if (++streamAcks === round + 1) onAck();
        }
      };
      const writers = [0, 1, 2, 3].map(writer);
      const userInflight = c
        .post('/users', { email: `inflight${round}@example.com`, password: 'long password', full_name: 'In Flight' })
        .catch(() => null);
      await enoughAcks;
      if (round % 2 === 1) await sleep(round);
      killing = true;
      const killed = await p.kill9();
      assert.equal(killed.signal, 'SIGKILL');
      await Promise.all(writers);
      assert.ok(streamAcks > round, `round ${round}: writes were acknowledged before the kill`);
      const u = await userInflight;
      if (u?.status === 200) users.set(u.body.user_id, `inflight${round}@example.com`);
      maxAckedDraftId = Math.max(maxAckedDraftId, ...drafts.keys());

      // Every file parses right after the crash.
      const files = (await readdir(dataDir)).filter((f) => f.endsWith('.json'));
      for (const name of ['manifest.json', 'realm.json', 'users.json', 'drafts.json']) assert.ok(files.includes(name), name);
      for (const name of files) {
        assert.doesNotThrow(() => readJson(join(dataDir, name)), `${name} after kill -9 in round ${round}`);
      }
      assert.ok(existsSync(join(dataDir, 'hearth.lock')), 'kill -9 leaves a stale lock');
      // A leftover temp file (a crash between write and rename) must not break the next start.
      if (round % 2 === 0) {
        await writeFile(join(dataDir, 'drafts.json.tmp'), '{"nextId":');
        await writeFile(join(dataDir, 'users.json.tmp'), '');
      }
    }

    const last = await startServe(['--data-dir', dataDir, '--host', '127.0.0.1', '--port', '0']);
    children.push(last);
    await verify(new Client(last.url, owner), ROUNDS);
    assert.ok(drafts.size >= ROUNDS * 10, `${drafts.size} drafts acknowledged`);
    assert.ok(users.size >= ROUNDS);
    assert.ok(lostInFlight > 0, 'some kills landed while writes were in flight');
    last.child.kill('SIGTERM');
    assert.equal((await last.exited).code, 0);
    assert.deepEqual((await readdir(dataDir)).filter((f) => f.endsWith('.tmp')), []);
  });
});

describe('DurableJSONFile', { timeout: 20_000 }, () => {
  it('coalesces concurrent writes into few flushes; each promise resolves after its data is on disk', async () => {
    const dir = freshDir();
    await mkdir(dir);
    const file = join(dir, 'doc.json');
    const adapter = new DurableJSONFile<{ n: number; pad: string }>(file);
    const pad = 'p'.repeat(20_000);

    // A reader that must never see a partial file.
    let reading = true;
    let reads = 0;
    const reader = (async () => {
      while (reading) {
        try {
          JSON.parse(readFileSync(file, 'utf8'));
          reads++;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        }
        await new Promise((r) => setImmediate(r));
      }
    })();

    const WRITES = 300;
    try {
      const checks: Promise<void>[] = [];
      for (let i = 1; i <= WRITES; i++) {
        checks.push(
          adapter.write({ n: i, pad }).then(() => {
            const onDisk = readJson(file);
            assert.ok(onDisk.n >= i, `write ${i} resolved but the file has n=${onDisk.n}`);
          }),
        );
        if (i % 10 === 0) await new Promise((r) => setImmediate(r));
      }
      await Promise.all(checks);
    } finally {
      reading = false;
      await reader;
    }
    assert.equal(readJson(file).n, WRITES);
    assert.ok(adapter.flushes >= 2, `writes spread over time flush more than once (${adapter.flushes})`);
    assert.ok(adapter.flushes <= WRITES / 5, `${adapter.flushes} flushes for ${WRITES} writes`);
    assert.ok(reads > 0);
    assert.equal(existsSync(`${file}.tmp`), false);
    assert.equal((await stat(file)).mode & 0o777, 0o600);

    // Writes issued in one synchronous burst share a single flush.
    const before = adapter.flushes;
    await Promise.all(Array.from({ length: 50 }, (_, i) => adapter.write({ n: WRITES + i + 1, pad: '' })));
    assert.equal(adapter.flushes - before, 1);
    assert.equal(readJson(file).n, WRITES + 50);
  });

  it('fails the callers of a failed flush and recovers on the next write', async () => {
    const dir = join(freshDir(), 'missing');
    const adapter = new DurableJSONFile<{ v: number }>(join(dir, 'doc.json'));
    await assert.rejects(adapter.write({ v: 1 }), { code: 'ENOENT' });
    await mkdir(dir, { recursive: true });
    await adapter.write({ v: 2 });
    assert.deepEqual(readJson(join(dir, 'doc.json')), { v: 2 });
    await adapter.settled();
  });

  it('reads a missing file as null and a corrupt one as CorruptFileError naming it', async () => {
    const dir = freshDir();
    await mkdir(dir);
    const file = join(dir, 'x.json');
    assert.equal(await new DurableJSONFile(file).read(), null);
    for (const text of ['', '{"a":', 'nope']) {
      await writeFile(file, text);
      await assert.rejects(new DurableJSONFile(file).read(), (err: unknown) => {
        assert.ok(err instanceof CorruptFileError);
        assert.equal(err.file, file);
        assert.ok(err.message.includes(file));
        return true;
      });
      assert.equal(await readFile(file, 'utf8'), text, 'left unchanged');
    }
  });
});

describe('SegmentedCollection', () => {
  interface Item {
    id: number;
    text: string;
  }
  const segName = (first: number) => `seg-${String(first).padStart(12, '0')}.json`;
  const fingerprint = async (dir: string) => {
    const out: Record<string, string> = {};
    for (const f of (await readdir(dir)).sort()) {
      const st = await stat(join(dir, f));
      out[f] = `${st.ino}:${st.mtimeMs}:${await readFile(join(dir, f), 'utf8')}`;
    }
    return out;
  };

  it('appends across segment boundaries, rewriting only the segment it touches, and reopens in order', async () => {
    const dir = freshDir();
    const c = await SegmentedCollection.open<Item>(dir, 4);
    for (let i = 1; i <= 10; i++) {
      const item = c.append({ text: `item ${i}` });
      assert.equal(item.id, i);
      await c.save(item.id);
    }
    assert.equal(c.segmentCount, 3);
    assert.deepEqual((await readdir(dir)).sort(), [segName(1), segName(5), segName(9)]);
    assert.deepEqual(readJson(join(dir, segName(5))).map((x: Item) => x.id), [5, 6, 7, 8]);

    // Appending touches only the open segment.
    const before = await fingerprint(dir);
    await sleep(5);
    const eleven = c.append({ text: 'item 11' });
    await c.save(eleven.id);
    const afterAppend = await fingerprint(dir);
    assert.equal(afterAppend[segName(1)], before[segName(1)]);
    assert.equal(afterAppend[segName(5)], before[segName(5)]);
    assert.notEqual(afterAppend[segName(9)], before[segName(9)]);
    assert.deepEqual(readJson(join(dir, segName(9))).map((x: Item) => x.id), [9, 10, 11]);

    // Updating an old item rewrites only its segment.
    await sleep(5);
    c.get(2)!.text = 'edited two';
    await c.save(2);
    const afterEdit = await fingerprint(dir);
    assert.notEqual(afterEdit[segName(1)], afterAppend[segName(1)]);
    assert.equal(afterEdit[segName(5)], afterAppend[segName(5)]);
    assert.equal(afterEdit[segName(9)], afterAppend[segName(9)]);
    assert.equal(readJson(join(dir, segName(1)))[1].text, 'edited two');

    // Crossing into a fourth segment creates one new file.
    c.append({ text: 'item 12' });
    const thirteen = c.append({ text: 'item 13' });
    await c.save(12, 13);
    assert.equal(c.segmentCount, 4);
    assert.deepEqual(readJson(join(dir, segName(13))).map((x: Item) => x.id), [13]);
    assert.equal(thirteen.id, 13);
    assert.equal(c.remove(6), true);
    await c.save(6);
    await c.settled();

    const again = await SegmentedCollection.open<Item>(dir, 4);
    const items = [...again.all()];
    assert.deepEqual(
      items.map((x) => x.id),
      [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13],
    );
    assert.equal(again.get(2)?.text, 'edited two');
    assert.equal(again.get(6), undefined);
    assert.equal(again.get(11)?.text, 'item 11');
    assert.equal(again.size, 12);
    assert.equal(again.nextId(), 14);
    assert.equal(again.segmentCount, 4);
    assert.equal((await readdir(dir)).some((f) => f.endsWith('.tmp')), false);
  });

  it('refuses a corrupt segment with CorruptFileError naming the file, and leaves it alone', async () => {
    const dir = freshDir();
    const c = await SegmentedCollection.open<Item>(dir, 3);
    for (let i = 1; i <= 7; i++) c.append({ text: `t${i}` });
    await c.save(1, 4, 7);
    const cases: [string, string][] = [
      ['{"truncated', 'unparseable'],
      ['{"id": 4}', 'not an array'],
      ['[{"id": 5, "text": "a"}, {"id": 4, "text": "b"}]', 'out of order'],
      ['[{"id": 1, "text": "wrong segment"}]', 'outside the segment'],
    ];
    const file = join(dir, segName(4));
    for (const [text, label] of cases) {
      await writeFile(file, text);
      await assert.rejects(SegmentedCollection.open<Item>(dir, 3), (err: unknown) => {
        assert.ok(err instanceof CorruptFileError, label);
        assert.equal(err.file, file, label);
        assert.ok(err.message.includes(file), label);
        return true;
      });
      assert.equal(await readFile(file, 'utf8'), text, `${label}: unchanged`);
    }
  });

  it('ignores a leftover temp file of a segment', async () => {
    const dir = freshDir();
    const c = await SegmentedCollection.open<Item>(dir, 5);
    c.append({ text: 'one' });
    await c.save(1);
    await writeFile(join(dir, `${segName(1)}.tmp`), '[{"id": 1, "text": "half-written');
    await writeFile(join(dir, `${segName(6)}.tmp`), 'garbage');
    const again = await SegmentedCollection.open<Item>(dir, 5);
    assert.deepEqual([...again.all()], [{ text: 'one', id: 1 }]);
    assert.equal(existsSync(join(dir, `${segName(1)}.tmp`)), false);
    again.append({ text: 'two' });
    await again.save(2);
    assert.equal(readJson(join(dir, segName(1))).length, 2);
  });
});

describe('Store.open', () => {
  it('refuses a data dir written by a newer schema, with a clear message, changing nothing', async () => {
    const dir = freshDir();
    await mkdir(dir, { recursive: true });
    const manifest = JSON.stringify({ schemaVersion: CURRENT_SCHEMA_VERSION + 1, createdAt: '2030-01-01T00:00:00.000Z' });
    await writeFile(join(dir, 'manifest.json'), manifest);
    await assert.rejects(Store.open(dir), (err: unknown) => {
      assert.ok(err instanceof StoreOpenError);
      assert.match(err.message, /newer Hearth/);
      assert.ok(err.message.includes(dir));
      assert.ok(err.message.includes(`schema ${CURRENT_SCHEMA_VERSION + 1}`));
      assert.ok(err.message.includes(`up to ${CURRENT_SCHEMA_VERSION}`));
      return true;
    });
    assert.equal(await readFile(join(dir, 'manifest.json'), 'utf8'), manifest);
    assert.equal(existsSync(join(dir, 'hearth.lock')), false, 'the lock is released');
    assert.equal(existsSync(join(dir, 'users.json')), false);
  });

  it('refuses a manifest without a schema version as corrupt', async () => {
    const dir = freshDir();
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'manifest.json'), '{"createdAt": "x"}');
    await assert.rejects(Store.open(dir), (err: unknown) => err instanceof CorruptFileError && err.file === join(dir, 'manifest.json'));
  });

  it('opens an empty dir at the current schema, holding the lock until closed', async () => {
    const dir = freshDir();
    const store = await Store.open(dir);
    try {
      assert.equal(readJson(join(dir, 'manifest.json')).schemaVersion, CURRENT_SCHEMA_VERSION);
      assert.equal(readFileSync(join(dir, 'hearth.lock'), 'utf8').trim(), String(process.pid));
      assert.equal(store.realm.data.realm, null);
    } finally {
      await store.close();
    }
    assert.equal(existsSync(join(dir, 'hearth.lock')), false);
  });
});
