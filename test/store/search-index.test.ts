/**
 * The `search` operator's word index (server/store/search-index.ts): a superset the search
 * predicate narrows, so results are exactly the scan's. Unit checks (prefixes, edits, short
 * words fall back), then a seeded comparison through GET /messages
 * against a brute-force filter, before and after edits, topic moves and deletions, combined
 * with other operators and access rules.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SearchIndex, wordsOf } from '../../server/store/search-index.js';
import { matchesWords, searchWords } from '../../server/lib/messages/search.js';
import { createChannel } from '../helpers/channels.js';
import { sendDirect, sendStream } from '../helpers/messages.js';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';

const ids = (l: { length: number; at(i: number): number } | null) => (l ? Array.from({ length: l.length }, (_, i) => l.at(i)) : null);

describe('the search index', () => {
  it('finds messages by word prefix, across topic and content; a superset the caller narrows', async () => {
    const index = new SearchIndex();
    const messages = [
      { id: 1, topic: 'lunch', content: 'Walking to the café' },
      { id: 2, topic: 'Walks', content: 'nothing here' },
      { id: 3, topic: 'misc', content: 'the crosswalk is new' },
      { id: 4, topic: 'misc', content: 'CAFÉ au lait' },
    ];
    for (const m of messages) index.add(m);
    index.add({ id: 5, topic: 'late', content: 'walkie-talkie' });
    assert.deepEqual(ids(index.candidates(['walk'])), [1, 2, 5], 'prefix, not infix (crosswalk)');
    assert.deepEqual(ids(index.candidates(['café'])), [1, 4]);
    assert.deepEqual(ids(index.candidates(['walk', 'café'])), [1, 4], 'the smaller word’s list');
    assert.deepEqual(ids(index.candidates(['absent'])), []);
    // An edit adds the new words (the old stay: the predicate drops them).
    index.add({ id: 3, topic: 'misc', content: 'zebra crossing' });
    assert.deepEqual(ids(index.candidates(['zebra'])), [3]);
    assert.deepEqual([...wordsOf('Hello, hello_world 42!')].sort(), ['42', 'hello', 'hello_world']);
  });

  it('a word in one message only, then in more (kept as one ID until a second comes)', async () => {
    const index = new SearchIndex();
    index.add({ id: 7, topic: 't', content: 'invoice 4711' });
    assert.deepEqual(ids(index.candidates(['4711'])), [7]);
    assert.deepEqual(ids(index.candidates(['47'])), [7]);
    index.add({ id: 7, topic: 't', content: 'invoice 4711 paid' }); // an edit: the same message again
    assert.deepEqual(ids(index.candidates(['4711'])), [7]);
    index.add({ id: 9, topic: 't', content: '4712 and 4711' });
    index.add({ id: 3, topic: 't', content: 'moved here: 4711' }); // an older message, moved in
    assert.deepEqual(ids(index.candidates(['4711'])), [3, 7, 9]);
    assert.deepEqual(ids(index.candidates(['471'])), [3, 7, 9], 'one term of three messages and one of one, merged');
    assert.deepEqual(ids(index.candidates(['4712'])), [9]);
    assert.deepEqual(ids(index.candidates(['paid', '4711'])), [7]);
  });

  it('falls back (null) for a word that begins too many terms', async () => {
    const index = new SearchIndex();
    for (let i = 0; i < 5_000; i++) index.add({ id: i + 1, topic: 't', content: `a${i.toString(36)}x` });
    assert.equal(index.candidates(['a']), null, 'thousands of terms begin with "a"');
    const narrow = ids(index.candidates(['a1x']))!;
    assert.ok(narrow.includes(2) && narrow.length === 38, 'a1x and the 37 terms it begins (a1x0x…a1xzx)');
  });
});

describe('search through GET /messages gives what a scan gives', () => {
  let ts: TestServer;
  let owner: Client;
  let mel: Client;
  const WORDS = ['apple', 'apricot', 'banana', 'band', 'cherry', 'chart', 'delta', 'deploy', 'echo', 'eagle', 'fig', 'figure'];
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const pick = <T>(l: T[]) => l[Math.floor(rnd() * l.length)]!;
  const sentence = () => Array.from({ length: 2 + Math.floor(rnd() * 4) }, () => pick(WORDS)).join(' ');

  before(async () => {
    ts = await startTestServer();
    owner = ts.ownerClient;
    const melAccount = await ts.addUser('Mel');
    mel = ts.client(melAccount);
    await createChannel(ts, owner, 'open', { principals: [ts.owner.id, melAccount.id] });
    await createChannel(ts, owner, 'secret', { invite_only: true });
    for (let i = 0; i < 150; i++) await sendStream(pick([owner, mel]), 'open', pick(['fruit', 'figures', 'ops']), sentence());
    for (let i = 0; i < 30; i++) await sendStream(owner, 'secret', 'hidden', sentence());
    for (let i = 0; i < 20; i++) await sendDirect(owner, [melAccount.id], sentence());
  });
  after(() => ts.stop());

  /** What a search returns, and what a scan of everything `c` may see says it should. */
  const compare = async (c: Client, terms: { operator: string; operand: string }[]) => {
    const res = await c.get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, narrow: JSON.stringify(terms) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const got = res.body.messages.map((m: { id: number }) => m.id);
    const visible = (await c.get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, narrow: JSON.stringify(terms.filter((t) => t.operator !== 'search')) })).body.messages.map((m: { id: number }) => m.id);
    const words = terms.filter((t) => t.operator === 'search').flatMap((t) => searchWords(t.operand));
    const want = visible.filter((id: number) => matchesWords(ts.store.messages.get(id)!, words));
    assert.deepEqual(got, want, JSON.stringify(terms));
    return got.length;
  };

  it('the index is built and used, and every query matches the scan (prefixes, several words, other operators, access)', async () => {
    assert.equal(ts.store.messages.search.ready, true);
    assert.ok(ts.store.messages.search.candidates(['cherry']));
    let found = 0;
    for (const q of ['apple', 'ap', 'band', 'ban', 'cherry chart', 'fig', 'delta echo', 'zzz', 'EAGLE', 'figures']) {
      found += await compare(owner, [{ operator: 'search', operand: q }]);
      found += await compare(mel, [{ operator: 'search', operand: q }]);
      await compare(owner, [{ operator: 'channel', operand: 'open' }, { operator: 'search', operand: q }]);
      await compare(mel, [{ operator: 'is', operand: 'dm' }, { operator: 'search', operand: q }]);
    }
    assert.ok(found > 100, `${found} results in all`);
    // Mel never sees #secret.
    const hidden = await mel.get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, narrow: JSON.stringify([{ operator: 'search', operand: 'apple' }]) });
    assert.ok(hidden.body.messages.every((m: { display_recipient: unknown }) => m.display_recipient !== 'secret'));
  });

  it('after edits, topic moves and deletions, results still match the scan', async () => {
    const first = (await owner.get('/messages', { anchor: 'oldest', num_before: 0, num_after: 5, narrow: JSON.stringify([{ operator: 'channel', operand: 'open' }, { operator: 'sender', operand: ts.owner.email }]) })).body.messages;
    const [a, b, c] = first as { id: number; subject: string }[];
    assert.equal((await owner.patch(`/messages/${a!.id}`, { content: 'quokka xylophone' })).status, 200);
    assert.equal((await owner.patch(`/messages/${b!.id}`, { topic: 'walrus meeting', propagate_mode: 'change_one' })).status, 200);
    assert.equal((await owner.delete(`/messages/${c!.id}`)).status, 200);
    assert.equal(await compare(owner, [{ operator: 'search', operand: 'quokka' }]), 1);
    // The moved message, and the Notification Bot's notice in the new topic.
    assert.equal(await compare(owner, [{ operator: 'search', operand: 'walrus' }]), 2);
    for (const q of ['apple', 'banana', 'cherry', 'fig']) await compare(owner, [{ operator: 'search', operand: q }]);
    const gone = await owner.get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0, narrow: JSON.stringify([{ operator: 'search', operand: 'apple' }]) });
    assert.ok(!gone.body.messages.some((m: { id: number }) => m.id === c!.id || m.id === a!.id));
  });
});
