import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { verifyPassword } from '../../server/auth/secrets.js';
import { listDataFiles } from '../../server/lib/runtime/backup.js';
import { FLAG } from '../../server/store/message-records.js';
import { Store } from '../../server/store/store.js';
import { FEATURE_LEVEL, HEARTH_VERSION } from '../../server/version.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      if (e.isDirectory()) await walk(join(d, e.name));
      else out.push(relative(dir, join(d, e.name)));
    }
  };
  await walk(dir);
  return out.sort();
}

describe('desktop admin API: status, backup, password reset', () => {
  let ts: TestServer;
  let backupRoot: string;
  before(async () => {
    ts = await startTestServer();
    backupRoot = await mkdtemp(join(tmpdir(), 'hearth-backup-'));
  });
  after(async () => {
    await ts.stop();
    await rm(backupRoot, { recursive: true, force: true });
  });

  it('status: administrators only, with live figures', async () => {
    const member = ts.client(await ts.addUser('Mia'));
    const denied = await member.get('/hearth/status');
    assert.equal(denied.status, 400);
    assert.equal(denied.body.code, 'UNAUTHORIZED_PRINCIPAL');
    assert.equal((await ts.anonymous.get('/hearth/status')).status, 401);

    const before = await ts.ownerClient.get('/hearth/status');
    assert.equal(before.status, 200, JSON.stringify(before.body));
    assert.deepEqual(before.body.lan_urls, [ts.url]);
    assert.equal(before.body.version, HEARTH_VERSION);
    assert.equal(before.body.zulip_feature_level, FEATURE_LEVEL);
    assert.equal(before.body.data_dir, ts.dataDir);
    assert.ok(Number.isInteger(before.body.uptime_seconds) && before.body.uptime_seconds >= 0);
    const onDisk = (await listDataFiles(ts.dataDir)).reduce((n, f) => n + f.size, 0);
    assert.equal(before.body.store_bytes, onDisk);
    assert.ok(onDisk > 0);

    // Two queues of one user and one of another: three clients, two people.
    await ts.ownerClient.post('/register');
    await ts.ownerClient.post('/register');
    await member.post('/register');
    const after = await ts.ownerClient.get('/hearth/status');
    assert.equal(after.body.connected_clients, before.body.connected_clients + 3);
    assert.equal(after.body.connected_users, before.body.connected_users + 2);
  });

  it('backup: refuses bad destinations, then copies the data dir with progress', async () => {
    const member = ts.client(await ts.addUser('Max'));
    assert.equal((await member.post('/hearth/backup', { destination: backupRoot })).body.code, 'UNAUTHORIZED_PRINCIPAL');
    // An administrator is not enough: a backup holds every account's secrets.
    const admin = ts.client(await ts.addUser('Ada', 200));
    const byAdmin = await admin.post('/hearth/backup', { destination: backupRoot });
    assert.deepEqual([byAdmin.status, byAdmin.body.msg], [400, 'Must be an organization owner']);
    const idle = await ts.ownerClient.get('/hearth/backup');
    assert.equal(idle.body.state, 'idle');
    for (const destination of ['relative/path', join(ts.dataDir, 'inside'), ts.dataDir, join(backupRoot, 'missing'), '//fileserver/share']) {
      const res = await ts.ownerClient.post('/hearth/backup', { destination });
      assert.equal(res.status, 400, destination);
      assert.equal(res.body.var_name, 'destination');
    }
    assert.deepEqual(await readdir(backupRoot), []);

    // Nested data files are copied; spooled uploads in uploads/tmp are not data.
    await mkdir(join(ts.dataDir, 'uploads', '1', 'ab'), { recursive: true });
    await writeFile(join(ts.dataDir, 'uploads', '1', 'ab', 'report.pdf'), Buffer.alloc(70_000, 7));
    await writeFile(join(ts.dataDir, 'uploads', 'tmp', 'spooled-part'), 'partial');

    const started = await ts.ownerClient.post('/hearth/backup', { destination: backupRoot });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    assert.equal(started.body.state, 'running');
    assert.ok(started.body.destination.startsWith(join(backupRoot, 'hearth-backup-')));
    const busy = await ts.ownerClient.post('/hearth/backup', { destination: backupRoot });
    assert.equal(busy.status, 400);
    await ts.app.backups.finished();

    const done = await ts.ownerClient.get('/hearth/backup');
    assert.equal(done.body.state, 'done', JSON.stringify(done.body));
    assert.equal(done.body.error, null);
    assert.equal(done.body.copied_bytes, done.body.total_bytes);
    assert.ok(done.body.total_bytes > 0);

    const copy = done.body.destination as string;
    const copied = await filesUnder(copy);
    // Every data file, plus every collection (written from memory even before its first save), and the flags snapshot (always from memory).
    const collections = [...ts.store.collections().map((c) => c.file), join(ts.dataDir, 'messages', 'flags.json')].map((f) => relative(ts.dataDir, f));
    const expected = [...new Set([...(await listDataFiles(ts.dataDir)).map((f) => f.rel), ...collections])].sort();
    assert.deepEqual(copied, expected);
    assert.ok(!copied.includes('hearth.lock'));
    assert.ok(copied.includes(join('uploads', '1', 'ab', 'report.pdf')));
    assert.ok(!copied.some((f) => f.startsWith(join('uploads', 'tmp'))));
    assert.deepEqual(await readFile(join(copy, 'uploads', '1', 'ab', 'report.pdf')), Buffer.alloc(70_000, 7));
    for (const rel of ['realm.json', 'users.json']) {
      assert.deepEqual(JSON.parse(await readFile(join(copy, rel), 'utf8')), JSON.parse(await readFile(join(ts.dataDir, rel), 'utf8')));
    }
    assert.equal((await stat(copy)).isDirectory(), true);
  });

  it('password reset: administrators, owners only for owners, scrypt-hashed', async () => {
    const admin = await ts.addUser('Ann', 200);
    const member = await ts.addUser('Mo');
    const adminClient = ts.client(admin);

    const res = await adminClient.post(`/hearth/users/${member.id}/password`, { new_password: 'new secret pass' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const stored = JSON.parse(await readFile(join(ts.dataDir, 'users.json'), 'utf8')).users.find(
      (u: { id: number }) => u.id === member.id,
    );
    assert.match(stored.password_hash, /^scrypt\$/);
    assert.equal(await verifyPassword('new secret pass', stored.password_hash), true);
    const login = await ts.anonymous.post('/fetch_api_key', { username: member.email, password: 'new secret pass' });
    assert.equal(login.status, 200);
    const oldLogin = await ts.anonymous.post('/fetch_api_key', { username: member.email, password: member.password });
    assert.equal(oldLogin.status, 401);

    const ownerHash = ts.store.users.get(ts.owner.id)!.password_hash;
    const onOwner = await adminClient.post(`/hearth/users/${ts.owner.id}/password`, { new_password: 'taken over!' });
    assert.equal(onOwner.status, 400);
    assert.equal(onOwner.body.msg, 'Must be an organization owner');
    assert.equal(ts.store.users.get(ts.owner.id)!.password_hash, ownerHash);

    const byMember = await ts.client(member).post(`/hearth/users/${admin.id}/password`, { new_password: 'whatever123' });
    assert.equal(byMember.body.code, 'UNAUTHORIZED_PRINCIPAL');
    const short = await adminClient.post(`/hearth/users/${member.id}/password`, { new_password: 'short' });
    assert.equal(short.status, 400);
    assert.equal(short.body.var_name, 'new_password');
    assert.equal((await adminClient.post('/hearth/users/9999/password', { new_password: 'long enough' })).status, 400);
    assert.equal((await adminClient.post('/hearth/users/abc/password', { new_password: 'long enough' })).status, 400);
    assert.equal((await ts.ownerClient.post(`/hearth/users/${ts.owner.id}/password`, { new_password: 'owner new pw' })).status, 200);
  });
});

describe('backup consistency and failure', () => {
  it('a backup taken while writes go on is a data dir Hearth opens, with everything committed before it', async () => {
    const ts = await startTestServer();
    const root = await mkdtemp(join(tmpdir(), 'hearth-backup-'));
    try {
      const users = await Promise.all(['A', 'B', 'C'].map((n) => ts.addUser(n)));
      const writes = (round: number) =>
        Promise.all(users.map((u) => ts.client(u).post('/drafts', { drafts: [{ type: 'private', to: [], topic: '', content: `r${round}` }] })));
      await writes(0);
      // Flags changed after the message was written live in the flags journal: the backup carries them.
      const sent = await ts.ownerClient.post('/messages', { type: 'direct', to: JSON.stringify([users[0]!.id]), content: 'read and starred' });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
      for (const flag of ['read', 'starred']) {
        const r = await ts.client(users[0]!).post('/messages/flags', { messages: JSON.stringify([sent.body.id]), op: 'add', flag });
        assert.equal(r.status, 200, JSON.stringify(r.body));
      }
      const started = await ts.ownerClient.post('/hearth/backup', { destination: root });
      assert.equal(started.status, 200, JSON.stringify(started.body));
      await Promise.all([writes(1), writes(2), ts.app.backups.finished()]);
      const done = (await ts.ownerClient.get('/hearth/backup')).body;
      assert.equal(done.state, 'done', JSON.stringify(done));

      const copy = await Store.open(done.destination, { lock: false });
      try {
        assert.equal(copy.realm.data.realm!.name, 'Test Org');
        for (const u of users) assert.ok(copy.users.get(u.id), `user ${u.id} is in the backup`);
        // Everything committed before the backup started is there; later drafts may or may not be.
        const contents = copy.drafts.data.drafts.map((d) => d.content);
        assert.equal(contents.filter((c) => c === 'r0').length, 3);
        const m = copy.messages.get(sent.body.id as number)!;
        assert.equal(copy.messages.rowFlags(m, users[0]!.id)! & (FLAG.read | FLAG.starred), FLAG.read | FLAG.starred);
        assert.deepEqual(copy.messages.unread(users[0]!.id).toArray(), []);
      } finally {
        await copy.close();
      }
    } finally {
      await ts.stop();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('two backups in the same second go to two folders', async () => {
    const fixed = Date.UTC(2026, 0, 2, 3, 4, 5);
    const ts = await startTestServer({ clock: { now: () => fixed } });
    const root = await mkdtemp(join(tmpdir(), 'hearth-backup-'));
    try {
      await writeFile(join(root, 'hearth-backup-20260102-030405'), 'something else, left alone');
      const first = await ts.ownerClient.post('/hearth/backup', { destination: root });
      assert.equal(first.body.destination, join(root, 'hearth-backup-20260102-030405-2'));
      await ts.app.backups.finished();
      const second = await ts.ownerClient.post('/hearth/backup', { destination: root });
      assert.equal(second.body.destination, join(root, 'hearth-backup-20260102-030405-3'));
      await ts.app.backups.finished();
      assert.equal((await ts.ownerClient.get('/hearth/backup')).body.state, 'done');
      assert.equal(await readFile(join(root, 'hearth-backup-20260102-030405'), 'utf8'), 'something else, left alone');
    } finally {
      await ts.stop();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('a backup that cannot be written ends in "failed" with the reason', { skip: process.platform !== 'linux' }, async () => {
    const ts = await startTestServer();
    try {
      // /proc is a folder nobody (not even root) can create folders in.
      const res = await ts.ownerClient.post('/hearth/backup', { destination: '/proc' });
      assert.equal(res.status, 200);
      await ts.app.backups.finished();
      const failed = (await ts.ownerClient.get('/hearth/backup')).body;
      assert.equal(failed.state, 'failed');
      assert.match(failed.error, /ENOENT|EACCES|EPERM/);
      // A failed backup does not block the next one.
      const root = await mkdtemp(join(tmpdir(), 'hearth-backup-'));
      try {
        assert.equal((await ts.ownerClient.post('/hearth/backup', { destination: root })).status, 200);
        await ts.app.backups.finished();
        assert.equal((await ts.ownerClient.get('/hearth/backup')).body.state, 'done');
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    } finally {
      await ts.stop();
    }
  });
});
