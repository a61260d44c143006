import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createChannel } from '../helpers/channels.js';
import { fetchMessages, sendDirect, sendStream } from '../helpers/messages.js';
import { startTestServer, type Account, type Client, type TestServer } from '../helpers/server.js';
import { restart } from '../helpers/uploads.js';
import { takeSnapshot } from '../../server/export/snapshot.js';
import { buildPlan } from '../../server/export/rocketchat-model.js';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../server/store/store.js';
import { parse } from 'yaml';
import { OPENAPI_FILE, skipWithoutOpenApi } from '../helpers/openapi.js';
import { drain, verifyAction } from '../helpers/verify-action.js';

type Sub = { id: number; message_id: number; sender_id: number; msg_type: string; content: string };

describe('widgets: polls and to-do lists (submessages)', () => {
  let ts: TestServer;
  let mel: Client;
  let melAcc: Account;
  let sam: Client;
  let samAcc: Account;
  let otto: Client;
  let ottoAcc: Account;
  let patAcc: Account;
  let porchId: number;
  before(async () => {
    ts = await startTestServer();
    patAcc = await ts.addUser('Pat');
    melAcc = await ts.addUser('Mel');
    samAcc = await ts.addUser('Sam');
    ottoAcc = await ts.addUser('Otto');
    mel = ts.client(melAcc);
    sam = ts.client(samAcc);
    otto = ts.client(ottoAcc);
    porchId = await createChannel(ts, sam, 'porch', { principals: [] });
    await createChannel(ts, sam, 'attic', { invite_only: true, principals: [] });
    await mel.post('/users/me/subscriptions', { subscriptions: [{ name: 'porch' }] });
    await sam.post('/users/me/subscriptions', { subscriptions: [{ name: 'porch' }, { name: 'attic' }] });
  });
  after(() => ts.stop());

  const submit = (c: Client, messageId: number, content: unknown, msgType = 'widget') =>
    c.post('/submessage', { message_id: messageId, msg_type: msgType, content: typeof content === 'string' ? content : JSON.stringify(content) });
  const subsOf = async (c: Client, id: number): Promise<Sub[]> => {
    const res = await c.get(`/messages/${id}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.message.submessages as Sub[];
  };
  const error = (res: { status: number; body: { result: string; msg: string; code: string } }, msg: string) => {
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.deepEqual({ result: res.body.result, code: res.body.code, msg: res.body.msg }, { result: 'error', code: 'BAD_REQUEST', msg });
  };

  it('a /poll message carries its widget, in the message event and every fetch', async () => {
    let id = 0;
    const events = await verifyAction(mel, async () => {
      id = await sendStream(sam, 'porch', 'lunch', '/poll Where do we eat?\nPizza\n- Soup\n* Salad\n\n   ');
    });
    const widget = {
      msg_type: 'widget',
      content: '{"widget_type": "poll", "extra_data": {"question": "Where do we eat?", "options": ["Pizza", "Soup", "Salad"]}}',
      message_id: id,
      sender_id: samAcc.id,
    };
    const message = events.find((e) => e.type === 'message')!.message as { submessages: Sub[] };
    assert.equal(message.submessages.length, 1);
    const { id: subId, ...rest } = message.submessages[0]!;
    assert.deepEqual(rest, widget);
    assert.ok(Number.isInteger(subId) && subId > 0);
    assert.deepEqual(await subsOf(mel, id), [{ ...widget, id: subId }]);
    const page = await fetchMessages(mel, { narrow: JSON.stringify([{ operator: 'topic', operand: 'lunch' }]) });
    assert.deepEqual(page.messages.at(-1).submessages, [{ ...widget, id: subId }]);
  });

  it("parses /todo as Zulip: title on the first line, tasks after, 'task: description', Unicode escaped", async () => {
    const id = await sendDirect(mel, [samAcc.id], '/todo Release 1.2\n- Tag: v1.2 on main\nAnnounce\nCafé: ok: really');
    const [w] = await subsOf(sam, id);
    assert.equal(
      w!.content,
      '{"widget_type": "todo", "extra_data": {"task_list_title": "Release 1.2", "tasks": [{"task": "Tag", "desc": "v1.2 on main"}, {"task": "Announce", "desc": ""}, {"task": "Caf\\u00e9", "desc": "ok: really"}]}}',
    );
    assert.deepEqual(JSON.parse(w!.content).extra_data.tasks[2], { task: 'Café', desc: 'ok: really' });
    // No first line: no title; the rest are tasks.
    const bare = await sendStream(sam, 'porch', 'lists', '/todo\nA\nB');
    assert.deepEqual(JSON.parse((await subsOf(sam, bare))[0]!.content).extra_data, {
      task_list_title: '',
      tasks: [{ task: 'A', desc: '' }, { task: 'B', desc: '' }],
    });
  });

  it('ordinary messages get no widget (Zulip\'s negative cases)', async () => {
    for (const content of ['use /poll', '/pollster here', '/bogus_command', '/me shrugs', ' /poll leading space']) {
      const id = await sendStream(sam, 'porch', 'plain', content);
      assert.deepEqual(await subsOf(sam, id), [], content);
    }
  });

  it('votes and options: stored in order, announced to every reader, refused for options that do not exist', async () => {
    const id = await sendStream(sam, 'porch', 'vote', '/poll Tea or coffee?\nTea\nCoffee');
    const samReg = await sam.post('/register', { event_types: ['submessage'] });
    const vote = { type: 'vote', key: 'canned,0', vote: 1 };
    const events = await verifyAction(mel, async () => {
      const res = await submit(mel, id, vote);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { result: 'success', msg: '' });
    });
    const subs = await subsOf(sam, id);
    assert.equal(subs.length, 2);
    const want = {
      type: 'submessage',
      msg_type: 'widget',
      message_id: id,
      submessage_id: subs[1]!.id,
      sender_id: melAcc.id,
      content: JSON.stringify(vote),
    };
    assert.deepEqual(events.map(({ id: _i, ...e }) => e), [want]);
    assert.deepEqual((await drain(sam, samReg.body.queue_id, samReg.body.last_event_id)).map(({ id: _i, ...e }) => e), [want]);
    assert.ok(subs[1]!.id > subs[0]!.id);
    assert.deepEqual({ ...subs[1], id: 0 }, { id: 0, message_id: id, sender_id: melAcc.id, msg_type: 'widget', content: JSON.stringify(vote) });

    // A new option (anyone), then a vote for it by its key "<sender>,<idx>".
    assert.equal((await submit(otto, id, { type: 'new_option', idx: 1, option: 'Water' })).status, 200);
    assert.equal((await submit(mel, id, { type: 'vote', key: `${ottoAcc.id},1`, vote: 1 })).status, 200);
    error(await submit(mel, id, { type: 'vote', key: 'canned,7', vote: 1 }), 'This poll has no option with key "canned,7".');
    error(await submit(mel, id, { type: 'vote', key: `${melAcc.id},1`, vote: 1 }), `This poll has no option with key "${melAcc.id},1".`);
    error(await submit(mel, id, { type: 'new_option', idx: 2, option: 'Tea' }), 'This option is already in the poll.');
    error(await submit(otto, id, { type: 'new_option', idx: 1, option: 'Juice' }), 'This option key is already used.');
    assert.equal((await subsOf(sam, id)).length, 4);
  });

  it('only the author changes the question or the title', async () => {
    const poll = await sendStream(sam, 'porch', 'author', '/poll Q?\nA');
    error(await submit(mel, poll, { type: 'question', question: 'Mine now' }), "You can't edit a question unless you are the author.");
    assert.equal((await submit(sam, poll, { type: 'question', question: 'Better Q?' })).status, 200);
    const todo = await sendStream(sam, 'porch', 'author', '/todo Chores\nDishes');
    error(await submit(mel, todo, { type: 'new_task_list_title', title: 'Mine' }), "You can't edit the task list title unless you are the author.");
    assert.equal((await submit(sam, todo, { type: 'new_task_list_title', title: 'House chores' })).status, 200);
    // Anyone adds tasks and strikes them; the key of a new task is "<idx>,<sender>".
    assert.equal((await submit(mel, todo, { type: 'new_task', key: 1, task: 'Laundry', desc: '', completed: false })).status, 200);
    assert.equal((await submit(mel, todo, { type: 'strike', key: `1,${melAcc.id}` })).status, 200);
    assert.equal((await submit(otto, todo, { type: 'strike', key: '0,canned' })).status, 200);
    error(await submit(otto, todo, { type: 'strike', key: '5,canned' }), 'This to-do list has no task with key "5,canned".');
    error(await submit(otto, todo, { type: 'new_task', key: 2, task: 'Dishes', desc: '', completed: false }), 'This task is already in the list.');
  });

  it('bounds what one message carries: all its submessages together stay under 200,000 characters', async () => {
    const poll = await sendStream(sam, 'porch', 'long', '/poll Q?\nA');
    const question = 'Q'.repeat(950);
    let accepted = 0;
    for (let i = 0; i < 400; i++) {
      const res = await submit(sam, poll, { type: 'question', question: `${i} ${question}` });
      if (res.status !== 200) {
        error(res, 'This widget has reached its limit of 200,000 characters of changes.');
        break;
      }
      accepted++;
    }
    assert.ok(accepted > 150 && accepted < 400, `${accepted} edits accepted`);
    const subs = await subsOf(sam, poll);
    assert.ok(subs.reduce((n, s) => n + s.content.length, 0) <= 200_000);
    // A vote still fits where a long edit does not.
    assert.equal((await submit(mel, poll, { type: 'vote', key: 'canned,0', vote: 1 })).status, 200);
  });

  it("refuses a submessage on a message the sender cannot read, and on a message without a widget", async () => {
    const secret = await sendStream(sam, 'attic', 'hidden', '/poll Secret?\nYes');
    error(await submit(mel, secret, { type: 'vote', key: 'canned,0', vote: 1 }), 'Invalid message(s)');
    error(await submit(mel, 999999, { type: 'vote', key: 'canned,0', vote: 1 }), 'Invalid message(s)');
    const dm = await sendDirect(sam, [ottoAcc.id], '/poll DM?\nYes');
    error(await submit(mel, dm, { type: 'vote', key: 'canned,0', vote: 1 }), 'Invalid message(s)');
    const plain = await sendStream(sam, 'porch', 'plain', 'just text');
    error(await submit(mel, plain, { type: 'vote', key: 'canned,0', vote: 1 }), 'You cannot attach a submessage to this message.');
    error(await submit(sam, plain, { type: 'vote', key: 'canned,0', vote: 1 }), 'This message has no widget.');
    error(
      await submit(sam, plain, { widget_type: 'poll', extra_data: { question: 'Late?', options: [] } }),
      'This message has no widget.',
    );
    const poll = await sendStream(sam, 'porch', 'second', '/poll One?\nA');
    error(
      await submit(sam, poll, { widget_type: 'todo', extra_data: { task_list_title: '', tasks: [] } }),
      'This message already has a widget.',
    );
  });

  it('refuses malformed bodies with JSON errors, never a 500', async () => {
    const poll = await sendStream(sam, 'porch', 'bad', '/poll Bad input?\nA');
    const todo = await sendStream(sam, 'porch', 'bad', '/todo Bad input\nA');
    const missing = await mel.post('/submessage', { message_id: poll, msg_type: 'widget' });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.code, 'REQUEST_VARIABLE_MISSING');
    assert.equal((await mel.post('/submessage', { message_id: 'x', msg_type: 'widget', content: '{}' })).status, 400);
    error(await submit(mel, poll, '{"type": "vote",'), 'Invalid json for submessage');
    error(await submit(mel, poll, { type: 'vote', key: 'canned,0', vote: 1 }, 'whatever'), 'Invalid msg_type: only "widget" submessages are accepted');
    error(await submit(mel, poll, 'x'.repeat(5001)), 'Submessage content is too long (at most 5,000 characters).');
    const cases: [number, unknown, string][] = [
      [poll, 5, 'poll data is not a dict'],
      [poll, [], 'poll data is not a dict'],
      [poll, {}, 'type key is missing from poll data'],
      [poll, { type: 3 }, 'poll data["type"] is not a string'],
      [poll, { type: 'vote', key: 'canned,0' }, 'vote key is missing from poll data'],
      [poll, { type: 'vote', key: 'canned,0', vote: 2 }, 'Invalid poll data["vote"]'],
      [poll, { type: 'vote', key: 0, vote: 1 }, 'poll data["key"] is not a string'],
      [poll, { type: 'vote', key: 'canned,0', vote: 1, extra: 1 }, 'Unexpected arguments: extra'],
      [poll, { type: 'new_option', idx: 1001, option: 'B' }, 'poll data["idx"] is too large'],
      [poll, { type: 'new_option', idx: -1, option: 'B' }, 'poll data["idx"] is too small'],
      [poll, { type: 'new_option', idx: 1, option: '  ' }, 'A poll option must not be empty.'],
      [poll, { type: 'new_option', idx: 1, option: 'o'.repeat(1001) }, 'A poll option can have at most 1,000 characters.'],
      [poll, { type: 'strike', key: 'canned,0' }, 'Unknown type for poll data: strike'],
      [todo, { type: 'new_task', key: 1, task: 'B', desc: '' }, 'completed key is missing from todo data'],
      [todo, { type: 'new_task', key: 1, task: 'B', desc: '', completed: 'no' }, 'todo data["completed"] is not a boolean'],
      [todo, { type: 'new_task', key: 1.5, task: 'B', desc: '', completed: false }, 'todo data["key"] is not an integer'],
      [todo, { type: 'vote', key: 'canned,0', vote: 1 }, 'Unknown type for todo data: vote'],
    ];
    for (const [id, content, msg] of cases) error(await submit(mel, id, content), msg);
    assert.equal((await subsOf(mel, poll)).length, 1);
    assert.equal((await subsOf(mel, todo)).length, 1);
  });

  it('caps a poll at 100 options, at send and later', async () => {
    const lines = Array.from({ length: 1000 }, (_, i) => `o${i}`).join('\n');
    error(await sam.post('/messages', { type: 'stream', to: 'porch', topic: 'big', content: `/poll Big?\n${lines}` }), 'A poll can have at most 100 options.');
    const hundred = Array.from({ length: 100 }, (_, i) => `o${i}`).join('\n');
    const id = await sendStream(sam, 'porch', 'big', `/poll Big?\n${hundred}`);
    error(await submit(mel, id, { type: 'new_option', idx: 1, option: 'one more' }), 'A poll can have at most 100 options.');
    const later = Math.floor(Date.now() / 1000) + 3600;
    const scheduled = { type: 'stream', to: String(porchId), topic: 'big', scheduled_delivery_timestamp: later };
    error(await sam.post('/scheduled_messages', { ...scheduled, content: `/todo Big\n${lines}` }), 'A to-do list can have at most 100 tasks.');
    error(await sam.post('/messages', { type: 'stream', to: 'porch', topic: 'big', content: `/poll ${'q'.repeat(1001)}\nA` }), 'A poll question can have at most 1,000 characters.');
  });

  it('refuses content edits of a widget message (as Zulip), keeps the widget on a move, drops it with the message', async () => {
    const id = await sendStream(sam, 'porch', 'keep', '/poll Keep?\nYes');
    error(await sam.patch(`/messages/${id}`, { content: '/poll Changed?\nNo' }), 'Widgets cannot be edited.');
    assert.equal((await sam.patch(`/messages/${id}`, { topic: 'kept' })).status, 200);
    assert.equal((await subsOf(sam, id)).length, 1);
    assert.equal((await submit(mel, id, { type: 'vote', key: 'canned,0', vote: 1 })).status, 200);
    assert.equal((await ts.ownerClient.delete(`/messages/${id}`)).status, 200);
    error(await submit(mel, id, { type: 'vote', key: 'canned,0', vote: -1 }), 'Invalid message(s)');
  });

  it('keeps submessages across a restart, and new IDs keep ascending', async () => {
    const id = await sendStream(sam, 'porch', 'durable', '/poll Durable?\nYes\nNo');
    assert.equal((await submit(mel, id, { type: 'vote', key: 'canned,1', vote: 1 })).status, 200);
    const before = await subsOf(sam, id);
    ts = await restart(ts);
    mel = ts.client(melAcc);
    sam = ts.client(samAcc);
    otto = ts.client(ottoAcc);
    assert.deepEqual(await subsOf(sam, id), before);
    assert.equal((await submit(otto, id, { type: 'vote', key: 'canned,0', vote: 1 })).status, 200);
    const afterRestart = await subsOf(sam, id);
    assert.equal(afterRestart.length, 3);
    assert.ok(afterRestart[2]!.id > before[1]!.id);
  });

  it('widget_content (zform, as Zulip for bots): stored as the widget; bad values refused with Zulip\'s messages', async () => {
    const zform = { widget_type: 'zform', extra_data: { type: 'choices', heading: 'Pick', choices: [{ short_name: 'A', long_name: 'Apple', reply: 'apple' }] } };
    const id = await sendStream(sam, 'porch', 'bots', 'Pick one', { widget_content: JSON.stringify(zform) });
    const [w] = await subsOf(sam, id);
    assert.deepEqual(JSON.parse(w!.content), zform);
    assert.equal(w!.content, '{"widget_type": "zform", "extra_data": {"type": "choices", "heading": "Pick", "choices": [{"short_name": "A", "long_name": "Apple", "reply": "apple"}]}}');
    error(await submit(sam, id, { type: 'vote', key: 'x', vote: 1 }), 'This widget does not accept submessages.');
    const bad: [string, string][] = [
      ['{{{{{{', 'Widgets: API programmer sent invalid JSON content'],
      [JSON.stringify({ color: 'red' }), 'Widgets: widget_type is not in widget_content'],
      [JSON.stringify({ widget_type: 'zform' }), 'Widgets: extra_data is not in widget_content'],
      [JSON.stringify({ widget_type: 'zform', extra_data: [] }), 'Widgets: extra_data is not a dict'],
      [JSON.stringify({ widget_type: 'poll', extra_data: { question: 'q', options: [] } }), 'Widgets: unknown widget type: poll'],
      [JSON.stringify({ widget_type: 'zform', extra_data: {} }), 'Widgets: zform is missing type field'],
      [JSON.stringify({ widget_type: 'zform', extra_data: { type: 'x' } }), 'Widgets: unknown zform type: x'],
      [JSON.stringify({ widget_type: 'zform', extra_data: { type: 'choices', heading: 'h', choices: [{ long_name: 'a', reply: 'b' }] } }), 'Widgets: short_name key is missing from extra_data["choices"][0]'],
      ['x'.repeat(10_001), 'Widgets: widget_content is too long (at most 10,000 characters)'],
    ];
    for (const [raw, msg] of bad) error(await sam.post('/messages', { type: 'stream', to: 'porch', topic: 'bots', content: 'x', widget_content: raw }), msg);
  });

  it('a reader of a public channel who is not subscribed may vote; subscribers and the message\'s recipients hear of it', async () => {
    const id = await sendStream(sam, 'porch', 'public', '/poll Open?\nYes');
    const pat = ts.client(patAcc);
    const ottoReg = await otto.post('/register', { event_types: ['submessage'] });
    const melReg = await mel.post('/register', { event_types: ['submessage'] });
    assert.equal((await submit(otto, id, { type: 'vote', key: 'canned,0', vote: 1 })).status, 200);
    assert.equal((await drain(mel, melReg.body.queue_id, melReg.body.last_event_id)).length, 1);
    // Otto has no row and is not subscribed: he hears of his own vote all the same (Zulip would not tell him).
    assert.equal((await drain(otto, ottoReg.body.queue_id, ottoReg.body.last_event_id)).length, 1);
    // Pat, neither subscribed nor voting, hears nothing.
    const patReg = await pat.post('/register', { event_types: ['submessage'] });
    assert.equal((await submit(mel, id, { type: 'vote', key: 'canned,0', vote: 1 })).status, 200);
    assert.equal((await drain(pat, patReg.body.queue_id, patReg.body.last_event_id)).length, 0);
  });

  it('the export for Zulip writes a poll and a to-do list as text, with votes and ticks', async () => {
    const poll = await sendStream(sam, 'porch', 'export', '/poll Lunch *today*?\nPizza\nSoup');
    assert.equal((await submit(mel, poll, { type: 'vote', key: 'canned,0', vote: 1 })).status, 200);
    assert.equal((await submit(sam, poll, { type: 'vote', key: 'canned,0', vote: 1 })).status, 200);
    const todo = await sendStream(sam, 'porch', 'export', '/todo Chores\nDishes: after lunch\nLaundry');
    assert.equal((await submit(mel, todo, { type: 'strike', key: '1,canned' })).status, 200);
    const snap = takeSnapshot(ts.app);
    const docs = [...(await buildPlan(snap)).messages()];
    snap.messages.release();
    const msg = (id: number) => docs.find((d) => d._id === `m${id}`)!.msg;
    assert.equal(msg(poll), '**Poll: Lunch \\*today\\*?**\n- Pizza: 2 votes (Mel, Sam)\n- Soup: 0 votes');
    assert.equal(msg(todo), '**To-do list: Chores**\n- ☐ Dishes: after lunch\n- ☑ Laundry');
  });

  it("has exactly the fields of Zulip's OpenAPI submessage item and submessage event", { skip: skipWithoutOpenApi('the submessage shape check') }, async () => {
    type Schema = { properties: Record<string, unknown>; example?: Record<string, unknown> };
    const schemas = (parse(readFileSync(OPENAPI_FILE, 'utf8')) as { components: { schemas: Record<string, Schema> } }).components.schemas;
    const item = schemas.MessagesBase_submessages_inner!;
    const event = Object.values(schemas).find((x) => x.example?.type === 'submessage')!;
    const id = await sendStream(sam, 'porch', 'shapes', '/poll Shape?\nRound');
    const reg = await mel.post('/register', { event_types: ['submessage'] });
    assert.equal((await submit(mel, id, { type: 'vote', key: 'canned,0', vote: 1 })).status, 200);
    const [got] = await drain(mel, reg.body.queue_id, reg.body.last_event_id);
    assert.deepEqual(Object.keys(got!).sort(), Object.keys(event.properties).sort());
    assert.deepEqual(Object.keys(event.example!).sort(), Object.keys(got!).sort());
    for (const sub of await subsOf(mel, id)) assert.deepEqual(Object.keys(sub).sort(), Object.keys(item.properties).sort());
  });

  it('a backup holds the widget and its votes', async () => {
    const id = await sendStream(sam, 'porch', 'backup', '/poll Backed up?\nYes');
    assert.equal((await submit(mel, id, { type: 'vote', key: 'canned,0', vote: 1 })).status, 200);
    const root = await mkdtemp(join(tmpdir(), 'hearth-backup-'));
    try {
      const started = await ts.ownerClient.post('/hearth/backup', { destination: root });
      assert.equal(started.status, 200, JSON.stringify(started.body));
      await ts.app.backups.finished();
      const done = await ts.ownerClient.get('/hearth/backup');
      assert.equal(done.body.state, 'done', JSON.stringify(done.body));
      const copy = await Store.open(done.body.destination as string, { lock: false });
      try {
        const subs = copy.messages.get(id)!.submessages!;
        assert.deepEqual(subs.map((x) => [x.sender_id, x.msg_type]), [[samAcc.id, 'widget'], [melAcc.id, 'widget']]);
        assert.equal(subs[1]!.content, JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }));
      } finally {
        await copy.close();
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
