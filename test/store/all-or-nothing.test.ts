/**
 * A change that touches many messages across segments is on disk whole or not at all, whenever the
 * process dies (issue 34, item 3). A child (./crash-child.ts) opens a store of 6,720 messages in seven
 * segments and moves a topic of 5,040 to another channel, marks the channel read for a user, or
 * deletes the topic; it is killed (SIGKILL) just before each of its file operations in turn (open,
 * write, sync, rename, unlink…) and at seeded random instants. Each time the store is reopened
 * from what the kill left, and must hold the change whole or not at all, with unread lists that
 * agree with the flags; a later write and reopen must work too. A refused write (a full disk,
 * at any of those operations) must leave the files as before.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, open, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { MessageStore } from '../../server/store/messages.js';
import { FLAG, type MessageRecord } from '../../server/store/message-records.js';

const TOTAL = 6720;
const BIG = 5040;
const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
type Mode = 'move' | 'read' | 'delete';

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function child(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const c = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  c.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
  c.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
  return new Promise((resolve, reject) => {
    c.once('error', reject);
    c.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Runs `jobs` with at most `n` at a time. */
async function pool<T>(jobs: (() => Promise<T>)[], n: number): Promise<T[]> {
  const out: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < jobs.length) {
        const i = next++;
        out[i] = await jobs[i]!();
      }
    }),
  );
  return out;
}

/** What the reopened store holds: which of the two states (0: before the change, 1: after), checked whole. */
function stateOf(store: MessageStore, mode: Mode, label: string): 0 | 1 {
  const user2Unread = store.unread(2);
  // The unread list agrees with the flags, message by message.
  let unreadByFlags = 0;
  for (const m of store.all() as IterableIterator<MessageRecord>) {
    const flags = store.rowFlags(m, 2);
    assert.notEqual(flags, null, `${label}: message ${m.id} keeps user 2's row`);
    const unread = (flags! & FLAG.read) === 0;
    if (unread) unreadByFlags++;
    assert.equal(user2Unread.has(m.id), unread, `${label}: message ${m.id}: unread list and flags agree`);
  }
  assert.equal(user2Unread.length, unreadByFlags, label);
  const inBig = store.topic(1, 'big').length;
  const moved = store.topic(2, 'moved').length;
  assert.equal(store.topic(1, 'other').length, TOTAL - BIG, `${label}: the other topic is untouched`);
  assert.ok(store.maxId >= TOTAL, `${label}: IDs are never reused`);
  if (mode === 'move') {
    assert.equal(store.size, TOTAL, label);
    assert.ok((inBig === BIG && moved === 0) || (inBig === 0 && moved === BIG), `${label}: split ${inBig} / ${moved}`);
    assert.equal(unreadByFlags, TOTAL, label);
    return moved === BIG ? 1 : 0;
  }
  assert.equal(moved, 0, label);
  if (mode === 'read') {
    assert.equal(inBig, BIG, label);
    assert.ok(unreadByFlags === 0 || unreadByFlags === TOTAL, `${label}: ${unreadByFlags} of ${TOTAL} unread`);
    return unreadByFlags === 0 ? 1 : 0;
  }
  assert.ok((inBig === BIG && store.size === TOTAL) || (inBig === 0 && store.size === TOTAL - BIG), `${label}: ${inBig} of the topic left`);
  assert.equal(unreadByFlags, store.size, label);
  return inBig === 0 ? 1 : 0;
}

/** Opens what a kill left, checks it, then writes once more and reopens (the store works on). */
async function checkDir(dir: string, mode: Mode, label: string): Promise<0 | 1> {
  const store = await MessageStore.open(dir);
  const state = stateOf(store, mode, label);
  const m = store.add({ sender_id: 1, stream_id: 1, topic: 'after', content: 'after the crash', timestamp: 1, um: [2 * 1024 + FLAG.read] });
  const other = store.get(TOTAL)!; // in topic "other": there whatever the change
  store.setRowFlags(other, 3, FLAG.starred);
  await store.save(m.id, other.id);
  await store.settled();
  const again = await MessageStore.open(dir);
  assert.equal(again.get(m.id)?.content, 'after the crash', label);
  assert.equal(again.rowFlags(again.get(TOTAL)!, 3), FLAG.starred, label);
  assert.deepEqual([again.size, again.topic(1, 'big').length, again.topic(2, 'moved').length, again.unread(2).length], [store.size, store.topic(1, 'big').length, store.topic(2, 'moved').length, store.unread(2).length], `${label}, reopened`);
  await again.settled();
  return state;
}

describe('a change across segments is all or nothing after a crash', { timeout: 600_000 }, () => {
  let root: string;
  let prepared: string;
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'hearth-atomic-'));
    prepared = join(root, 'prepared');
    const r = await child(['prepare', prepared]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await readdir(prepared)).filter((f) => /^seg-\d+\.json$/.test(f)).length, 7, 'seven segments');
    // The first open writes the flags snapshot (the migration to the flags journal): done here, so the runs start from a settled dir.
    await (await MessageStore.open(prepared)).settled();
    assert.ok((await readdir(prepared)).includes('flags.json'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  let seed = 34;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  let trials = 0;
  const trial = async (mode: Mode, env: Record<string, string>) => {
    const dir = join(root, `t${++trials}`);
    await cp(prepared, dir, { recursive: true });
    const r = await child([mode, dir], env);
    const label = `${mode} ${JSON.stringify(env)}`;
    assert.ok(r.code === 0 || r.signal === 'SIGKILL', `${label}: ${r.stderr}`);
    const state = await checkDir(dir, mode, label);
    if (r.code === 0) assert.equal(state, 1, `${label}: a change that finished is there`);
    await rm(dir, { recursive: true, force: true });
    return state;
  };

  for (const mode of ['move', 'read', 'delete'] as const) {
    it(`${mode}: killed before each file operation, and at random instants`, async () => {
      const clean = await trial(mode, {});
      assert.equal(clean, 1);
      const full = await child([mode, await (async () => {
        const d = join(root, `count-${mode}`);
        await cp(prepared, d, { recursive: true });
        return d;
      })()]);
      const { ops, ms } = JSON.parse(full.stdout) as { ops: number; bytes: number; ms: number };
      // Every operation for the move; a seeded dozen for the others.
      const points = mode === 'move' ? Array.from({ length: ops }, (_, i) => i + 1) : Array.from({ length: 12 }, () => 1 + Math.floor(rnd() * ops));
      const timed = Array.from({ length: 6 }, () => Math.floor(rnd() * ms * 1.5));
      const states = await pool(
        [...points.map((k) => () => trial(mode, { KILL_AT: String(k) })), ...timed.map((t) => () => trial(mode, { KILL_AFTER_MS: String(t) }))],
        6,
      );
      assert.ok(states.includes(0) && states.includes(1), `${mode}: some kills before the change landed, some after (${states.join('')})`);
    });
  }

  it('a write the disk refuses at any step leaves the files as before (or, past the point of no return, the change whole)', async () => {
    const dir = join(root, 'refused');
    const outcomes: string[] = [];
    for (let failAt = 1; failAt <= 24; failAt++) {
      await rm(dir, { recursive: true, force: true });
      await cp(prepared, dir, { recursive: true });
      const store = await MessageStore.open(dir);
      const big = store.topic(1, 'big').toArray();
      for (const id of big) store.relocate(store.get(id)!, { stream_id: 2, topic: 'moved' });
      const restore = failDiskAt(await protoOf(dir), failAt);
      const outcome = await store.save(...big).then(
        () => 'saved',
        (err: NodeJS.ErrnoException) => err.code ?? String(err),
      );
      restore();
      await store.settled();
      // Index sidecars and search runs are caches, rewritten at open here (a copied segment is another inode): not compared.
      const notSidecar = (f: string) => !f.endsWith('.idx') && f !== 'search';
      const left = (await readdir(dir)).filter(notSidecar);
      const state = stateOf(await MessageStore.open(dir), 'move', `refused at ${failAt} (${outcome})`);
      outcomes.push(`${outcome}:${state}`);
      if (outcome === 'saved') {
        assert.equal(state, 1);
        continue;
      }
      assert.equal(outcome, 'ENOSPC');
      if (state === 0) {
        // Refused before the change was on disk: every file as it was, nothing else left.
        assert.deepEqual(left.sort(), (await readdir(prepared)).filter(notSidecar).sort(), `refused at ${failAt}`);
        for (const f of left) assert.ok((await readFile(join(dir, f))).equals(await readFile(join(prepared, f))), `refused at ${failAt}: ${f} as before`);
      }
    }
    // Refusals before the list of files was on disk, and after it (the change then whole).
    assert.ok(outcomes.includes('ENOSPC:0') && outcomes.includes('ENOSPC:1') && outcomes.includes('saved:1'), outcomes.join(' '));
  });
});

type Proto = Record<string, (...a: unknown[]) => Promise<unknown>>;
async function protoOf(dir: string): Promise<Proto> {
  const h = await open(join(dir, 'seg-000000000001.json'), 'r');
  await h.close();
  return Object.getPrototypeOf(h) as Proto;
}

/** The `n`th write or sync of any file handle fails with ENOSPC (writes land nothing). Returns the undo. */
function failDiskAt(proto: Proto, n: number): () => void {
  const saved = { write: proto.write!, writeFile: proto.writeFile!, sync: proto.sync!, datasync: proto.datasync! };
  let count = 0;
  for (const name of Object.keys(saved) as (keyof typeof saved)[]) {
    proto[name] = function (this: unknown, ...a: unknown[]) {
      if (++count === n) return Promise.reject(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' }));
      return saved[name].apply(this, a);
    };
  }
  return () => Object.assign(proto, saved);
}
