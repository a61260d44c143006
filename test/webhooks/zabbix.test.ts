import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hookSuite, newest, postHook, registerEntry } from '../helpers/webhooks.js';

const s = hookSuite('zabbix', 'zabbix');

const send = (payload: object) => postHook(s.ts, 'zabbix', { api_key: s.hook.apiKey, stream: 'zabbix' }, payload);

/** The body the Zabbix media type's script posts, its macros filled in. */
const PROBLEM = {
  hostname: 'nas-01.office.lan',
  severity: 'High',
  status: 'PROBLEM',
  item: 'Free disk space on /srv is 4.2 %',
  trigger: 'Free disk space is less than 5% on volume /srv',
  link: 'https://zabbix.office.lan/tr_events.php?triggerid=23871&eventid=904512',
};

const NOTICE = `Hi there! Your bot Hook zabbix just received a Zabbix payload that is missing
some data that Zulip requires. This usually indicates a configuration issue
in your Zabbix webhook settings. Please make sure that you set the
script correctly and provide all the required parameters
when configuring the Zabbix webhook. Contact your server's administrators if you
need further help!`;

describe('POST /api/v1/external/zabbix', () => {
  it('a problem and its recovery: topic the host name, status (severity), the host linked to the event, trigger and item', async () => {
    let res = await send(PROBLEM);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { result: 'success', msg: '' });
    let m = newest(s.ts);
    assert.equal(m.topic, 'nas-01.office.lan');
    assert.equal(
      m.content,
      'PROBLEM (High) alert on [nas-01.office.lan](https://zabbix.office.lan/tr_events.php?triggerid=23871&eventid=904512):\n' +
        '* Free disk space is less than 5% on volume /srv\n* Free disk space on /srv is 4.2 %',
    );
    assert.equal(m.client, 'ZulipZabbixWebhook');
    res = await send({ ...PROBLEM, status: 'OK', item: 'Free disk space on /srv is 31.7 %' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    m = newest(s.ts);
    assert.equal(m.topic, 'nas-01.office.lan');
    assert.match(m.content, /^OK \(High\) alert on \[nas-01\.office\.lan\]\(https:\/\/zabbix[^)]*\):\n\* Free disk space is less than 5% on volume \/srv\n\* Free disk space on \/srv is 31\.7 %$/);
  });

  it('a field missing or not a string: "Invalid payload", and the Notification Bot tells the owner once a minute', async () => {
    const before = s.ts.store.messages.maxId;
    const { hostname: _, ...noHost } = PROBLEM;
    let res = await send(noHost);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { result: 'error', msg: 'Invalid payload', code: 'BAD_REQUEST' });
    assert.equal(s.ts.store.messages.maxId, before + 1);
    const notice = newest(s.ts);
    assert.equal(notice.content, NOTICE);
    assert.ok(notice.dm?.includes(s.mel.id));
    assert.ok(!notice.dm?.includes(s.hook.id), 'from the Notification Bot, not the bot');
    res = await send({ ...PROBLEM, severity: 4 });
    assert.deepEqual(res.body, { result: 'error', msg: 'Invalid payload', code: 'BAD_REQUEST' });
    assert.equal(s.ts.store.messages.maxId, before + 1, 'no second notice within a minute');
    const bad = await postHook(s.ts, 'zabbix', { api_key: s.hook.apiKey, stream: 'zabbix' }, '{"hostname": ', { 'content-type': 'application/json' });
    assert.deepEqual(bad.body, { result: 'error', msg: 'Malformed JSON', code: 'INVALID_JSON' });
  });

  it('has no event types', async () => {
    const entry = await registerEntry(s, 'zabbix');
    assert.deepEqual(entry, { name: 'zabbix', display_name: 'Zabbix', all_event_types: null, config_options: [], url_options: [] });
  });
});
