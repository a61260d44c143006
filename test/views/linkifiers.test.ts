import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { fetchMessages, sendStream } from '../helpers/messages.js';
import { startTestServer, type Client, type TestServer } from '../helpers/server.js';
import { verifyAction } from '../helpers/verify-action.js';

const TRACKER = 'https://tracker.example/issues/{id}';

describe('linkifiers', () => {
  let ts: TestServer;
  let admin: Client;
  let mel: Client;
  before(async () => {
    ts = await startTestServer();
    admin = ts.ownerClient;
    mel = ts.client(await ts.addUser('Mel'));
    await createChannel(ts, mel, 'kitchen');
  });
  after(() => ts.stop());

  const stored = async () => {
    await ts.store.settled();
    return JSON.parse(await readFile(join(ts.dataDir, 'realm.json'), 'utf8')).realm.linkifiers;
  };
  const render = async (content: string) => {
    const res = await mel.post('/messages/render', { content });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.rendered as string;
  };

  it('administrators add one (verifyAction: realm_linkifiers), everyone lists them, members may not add', async () => {
    const refused = await mel.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: TRACKER });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.msg, 'Must be an organization administrator');
    let id = 0;
    const events = await verifyAction(mel, async () => {
      const res = await admin.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: TRACKER });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      id = res.body.id;
    }, { fetch_event_types: ['realm_linkifiers'], client_capabilities: { linkifier_url_template: true } });
    assert.ok(id > 0);
    const expected = [{ pattern: '#(?P<id>[0-9]+)', url_template: TRACKER, id }];
    assert.deepEqual(events.map((e) => [e.type, e.linkifiers]), [['realm_linkifiers', expected]]);
    assert.deepEqual((await mel.get('/realm/linkifiers')).body.linkifiers, expected);
    assert.deepEqual((await mel.post('/register', { fetch_event_types: ['realm_linkifiers'], client_capabilities: { linkifier_url_template: true } })).body.realm_linkifiers, expected);
    assert.deepEqual(await stored(), [{ id, pattern: '#(?P<id>[0-9]+)', url_template: TRACKER }]);
  });

  it('links matches in messages, not in code, links or inside words', async () => {
    const html = await render('see #123, (#45) and `#124` and [#125](https://x.example) and a#9 and #126a');
    assert.match(html, /<a href="https:\/\/tracker\.example\/issues\/123" title="https:\/\/tracker\.example\/issues\/123">#123<\/a>/);
    assert.match(html, /\(<a href="https:\/\/tracker\.example\/issues\/45"[^>]*>#45<\/a>\)/);
    assert.match(html, /<code>#124<\/code>/);
    assert.match(html, /<a href="https:\/\/x\.example">#125<\/a>/);
    assert.doesNotMatch(html, /issues\/(124|125|9|126)/);
    // A plain line (the renderer's fast path) is linked too, and the message counts as having a link.
    assert.equal(await render('#7'), '<p><a href="https://tracker.example/issues/7" title="https://tracker.example/issues/7">#7</a></p>');
    const id = await sendStream(mel, 'kitchen', 'ideas', 'fixes #88');
    const found = await fetchMessages(mel, { anchor: 'newest', num_before: 5, num_after: 0, narrow: JSON.stringify([{ operator: 'has', operand: 'link' }]) });
    assert.ok(found.messages.some((m: { id: number }) => m.id === id));
  });

  it('topic_links in messages and in topic-edit events', async () => {
    const id = await sendStream(mel, 'kitchen', 'bug #77 see https://example.com/log', 'details');
    const got = (await mel.get(`/messages/${id}`)).body.message;
    assert.deepEqual(got.topic_links, [
      { text: '#77', url: 'https://tracker.example/issues/77' },
      { text: 'https://example.com/log', url: 'https://example.com/log' },
    ]);
    const events = await verifyAction(mel, () => mel.patch(`/messages/${id}`, { topic: 'bug #78' }), { fetch_event_types: ['message'] });
    const update = events.find((e) => e.type === 'update_message')!;
    assert.deepEqual(update.topic_links, [{ text: '#78', url: 'https://tracker.example/issues/78' }]);
  });

  it('validates patterns and templates as Zulip does; nothing is stored on error', async () => {
    const before = await stored();
    for (const [pattern, url_template, msg] of [
      ['#(?P<id>[0-9]+', TRACKER, 'Bad regular expression: Unterminated group'],
      ['#(?P<id>[0-9]+)', 'https://x.example/{id', 'Invalid URL template.'],
      ['#(?P<id>[0-9]+)', 'https://x.example/{idx}', "Group 'idx' in URL template is not present in linkifier pattern."],
      ['(?P<a>[a-z]+)#(?P<id>[0-9]+)', TRACKER, "Group 'a' in linkifier pattern is not present in URL template."],
      ['#(?P<id>[0-9]+)', 'javascript:alert({id})', 'Invalid URL template.'],
      ['#(?P<id>[0-9]+)', TRACKER, 'Linkifier with this Pattern already exists.'],
      ['a)|(b', 'https://x.example/', 'Bad regular expression: Unmatched \')\''],
      // What re2 (Zulip's matcher) refuses, and patterns whose matching time explodes (a stalled server).
      ['(?P<id>[0-9]+)-(?P=id)', TRACKER, 'Bad regular expression: invalid named capture group (backreferences are not supported)'],
      ['#(?P<id>[0-9]+)(?!x)', TRACKER, 'Bad regular expression: invalid perl operator (lookarounds are not supported)'],
      ['(?P<id>(x+x+)+y)', TRACKER, 'Bad regular expression: matching it can take too long on long or repetitive text'],
      ['#(?P<id>[0-9]+)[0-9]*x', TRACKER, 'Bad regular expression: matching it can take too long on long or repetitive text'],
    ]) {
      const res = await admin.post('/realm/filters', { pattern: pattern!, url_template: url_template! });
      assert.equal(res.status, 400, JSON.stringify([pattern, res.body]));
      assert.equal(res.body.msg, msg);
    }
    const missing = await admin.post('/realm/filters', { pattern: 'x' });
    assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
    assert.deepEqual(await stored(), before);
  });

  it('updates, reorders (the first match wins) and removes; unknown IDs are refused', async () => {
    const add = await admin.post('/realm/filters', { pattern: '(?P<project>[A-Z]+)-(?P<num>[0-9]+)', url_template: 'https://jira.example/browse/{project}-{num}' });
    assert.equal(add.status, 200, JSON.stringify(add.body));
    const jira = add.body.id as number;
    const wide = await admin.post('/realm/filters', { pattern: '(?P<key>[A-Z]+-[0-9]+)', url_template: 'https://other.example/{key}' });
    const other = wide.body.id as number;
    assert.match(await render('ABC-1'), /jira\.example\/browse\/ABC-1/);
    const ids = (await mel.get('/realm/linkifiers')).body.linkifiers.map((l: { id: number }) => l.id) as number[];
    const reordered = [other, ...ids.filter((i) => i !== other)];
    const events = await verifyAction(mel, () => admin.patch('/realm/linkifiers', { ordered_linkifier_ids: JSON.stringify(reordered) }), { fetch_event_types: ['realm_linkifiers'], client_capabilities: { linkifier_url_template: true } });
    assert.deepEqual((events[0]!.linkifiers as { id: number }[]).map((l) => l.id), reordered);
    assert.match(await render('ABC-1'), /other\.example\/ABC-1/);
    for (const [list, msg] of [
      [[...reordered, reordered[0]], 'The ordered list must not contain duplicated linkifiers'],
      [reordered.slice(1), 'The ordered list must enumerate all existing linkifiers exactly once'],
      [[...reordered, 9999], 'The ordered list must enumerate all existing linkifiers exactly once'],
    ] as const) {
      const res = await admin.patch('/realm/linkifiers', { ordered_linkifier_ids: JSON.stringify(list) });
      assert.equal(res.body.msg, msg);
    }
    assert.equal((await mel.patch('/realm/linkifiers', { ordered_linkifier_ids: JSON.stringify(reordered) })).status, 400);
    // Update: the new template applies to new renders.
    const upd = await admin.patch(`/realm/filters/${other}`, { pattern: '(?P<key>[A-Z]+-[0-9]+)', url_template: 'https://third.example/{key}' });
    assert.equal(upd.status, 200, JSON.stringify(upd.body));
    assert.match(await render('ABC-1'), /third\.example\/ABC-1/);
    // A message keeps the rendering it was sent with.
    const sent = await sendStream(mel, 'kitchen', 'jira', 'ABC-2');
    assert.equal((await admin.delete(`/realm/filters/${other}`)).status, 200);
    assert.match(await render('ABC-1'), /jira\.example\/browse\/ABC-1/);
    assert.match((await mel.get(`/messages/${sent}`)).body.message.content, /third\.example\/ABC-2/);
    for (const res of [
      await admin.delete('/realm/filters/9999'),
      await admin.patch('/realm/filters/9999', { pattern: 'x(?P<a>y)', url_template: 'https://x.example/{a}' }),
    ]) {
      assert.equal(res.status, 400);
      assert.equal(res.body.msg, 'Linkifier not found.');
    }
    assert.deepEqual((await stored()).map((l: { id: number }) => l.id), reordered.filter((i) => i !== other));
    assert.ok(jira);
  });

  it('matched text goes into the URL percent-encoded, and HTML stays escaped', async () => {
    const res = await admin.post('/realm/filters', { pattern: 'wiki:(?P<page>[^\\s]+)', url_template: 'https://wiki.example/{page}' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const html = await render('wiki:"><img src=x onerror=alert(1)>');
    assert.doesNotMatch(html, /<img/);
    assert.match(html, /href="https:\/\/wiki\.example\/%22%3E%3Cimg"/);
    assert.equal((await admin.delete(`/realm/filters/${res.body.id}`)).status, 200);
  });
});
