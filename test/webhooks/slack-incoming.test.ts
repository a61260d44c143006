import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hookSuite, newest, postHook, postMultipart, postOne, registerEntry } from '../helpers/webhooks.js';

const s = hookSuite('kuma', 'alerts');

/** Posts a Slack payload to #alerts and answers the stored topic and content. */
async function post(payload: object, query: Record<string, string> = {}) {
  return postOne(s, null, 'slack_incoming', { stream: 'alerts', ...query }, payload, {}, { result: 'success', msg: '', ok: true });
}

describe('POST /api/v1/external/slack_incoming', () => {
  it('text: Slack mrkdwn becomes Zulip Markdown; no channel and no topic is the general chat', async () => {
    assert.deepEqual(await post({ text: 'Backup finished on nas-01.' }), { topic: '', content: 'Backup finished on nas-01.' });
    const cases: [string, string][] = [
      ['disk *almost* full', 'disk **almost** full'],
      ['*down*', '**down**'],
      ['*a* *b*', '**a** **b**'],
      ['*keep*as*is*', '*keep*as*is*'],
      ['please _check_ it', 'please *check* it'],
      ['was ~flaky~ green', 'was ~~flaky~~ green'],
      ['see <https://grafana.office.lan/d/abc|the dashboard>', 'see [the dashboard](https://grafana.office.lan/d/abc)'],
      ['at <https://status.office.lan/>', 'at https://status.office.lan/'],
      ['mail <mailto:ops@office.lan|ops@office.lan>', 'mail mailto:ops@office.lan'],
      ['<!channel> the VPN is down', '@**all** the VPN is down'],
      ['ping <@U024BE7LH>', 'ping @**Slack user U024BE7LH**'],
    ];
    for (const [input, expected] of cases) assert.equal((await post({ text: input }))?.content, expected, input);
  });

  it('icon_emoji before the text; the payload channel is the topic (without # or @), `topic` overrides it', async () => {
    assert.deepEqual(await post({ channel: '#deploys', icon_emoji: ':rocket:', text: 'v2.4.1 is live' }), {
      topic: 'deploys',
      content: ':rocket: v2.4.1 is live',
    });
    assert.equal((await post({ channel: '@ops', text: 'x' }))?.topic, 'ops');
    assert.equal((await post({ channel: '#deploys', text: 'y' }, { topic: 'releases' }))?.topic, 'releases');
  });

  it('a form body with payload= (as Uptime Kuma and curl send it)', async () => {
    const form = new URLSearchParams({ payload: JSON.stringify({ channel: '#uptime', text: ':red_circle: *router* is down' }) });
    const res = await postHook(s.ts, 'slack_incoming', { api_key: s.hook.apiKey, stream: 'alerts' }, form.toString());
    assert.deepEqual(res.body, { result: 'success', msg: '', ok: true });
    assert.deepEqual({ topic: newest(s.ts).topic, content: newest(s.ts).content }, { topic: 'uptime', content: ':red_circle: **router** is down' });
  });

  it('a multipart body: api_key, stream and payload fields (curl -F; payload with or without its own Content-Type); a file part is no payload', async () => {
    const payload = JSON.stringify({ channel: '#backups', text: 'Backup of *nas-01* done: 4.2 GB, é' });
    for (const type of [undefined, 'application/json']) {
      const res = await postMultipart(s.ts, 'slack_incoming', {}, [
        { name: 'api_key', value: s.hook.apiKey },
        { name: 'stream', value: 'alerts' },
        { name: 'payload', value: payload, type },
        { name: 'log', value: Buffer.from([0xff, 0xfe, 0x00, 0x01]), filename: 'backup.log', type: 'application/octet-stream' },
      ]);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body, { result: 'success', msg: '', ok: true });
      const m = newest(s.ts);
      assert.deepEqual({ stream: m.streamId, topic: m.topic, content: m.content }, { stream: s.channelId, topic: 'backups', content: 'Backup of **nas-01** done: 4.2 GB, é' });
    }
    const res = await postMultipart(s.ts, 'slack_incoming', { api_key: s.hook.apiKey, stream: 'alerts' }, [
      { name: 'payload', value: payload, filename: 'payload.json', type: 'application/json' },
    ]);
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { ok: false, error: "Missing 'payload' argument" });
  });

  it('blocks: header, section text, accessory image, fields (one, then a two-column table), image, divider, context', async () => {
    const payload = {
      text: 'fallback only',
      blocks: [
        { type: 'header', text: { type: 'plain_text', text: 'Nightly build #812' } },
        {
          type: 'section',
          text: { type: 'mrkdwn', text: 'Build of _main_ *failed* at <https://ci.office.lan/b/812|step 4>' },
          accessory: { type: 'image', image_url: 'https://ci.office.lan/badge.png', alt_text: 'badge' },
        },
        { type: 'section', fields: [{ type: 'mrkdwn', text: '*Branch*\nmain' }] },
        {
          type: 'section',
          fields: [
            { type: 'mrkdwn', text: '*Commit*\nab12cd' },
            { type: 'plain_text', text: 'Author: Ann | Ops' },
            { type: 'mrkdwn', text: '*Duration*' },
          ],
        },
        { type: 'divider' },
        { type: 'image', image_url: 'https://ci.office.lan/graph.png', alt_text: 'graph', title: { type: 'plain_text', text: 'Build times' } },
        { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Retry' } }] },
        {
          type: 'context',
          elements: [
            { type: 'image', image_url: 'https://ci.office.lan/ci.png', alt_text: 'CI' },
            { type: 'mrkdwn', text: 'Triggered by <@U12345>' },
          ],
        },
        { type: 'section', text: { type: 'mrkdwn', text: 'Broken picture' }, accessory: { type: 'image', image_url: 'null', alt_text: 'x' } },
      ],
    };
    assert.deepEqual(await post(payload), {
      topic: '',
      content: [
        '## Nightly build #812',
        'Build of *main* **failed** at [step 4](https://ci.office.lan/b/812)\n\n[badge](https://ci.office.lan/badge.png)',
        '**Branch**\nmain',
        '| | |\n|-|-|\n| **Commit** ab12cd | Author: Ann   Ops |\n| **Duration** |  |',
        '----',
        '[Build times](https://ci.office.lan/graph.png)',
        '[CI](https://ci.office.lan/ci.png)\n\nTriggered by @**Slack user U12345**',
        'Broken picture',
      ].join('\n\n'),
    });
  });

  it('legacy attachments: linked title (a relative link drops), pretext, text, fields, image, footer, ts as a global time', async () => {
    const payload = {
      channel: '#prometheus',
      attachments: [
        {
          title: '[FIRING:1] DiskFull on nas-01',
          title_link: 'https://alertmanager.office.lan/#/alerts',
          pretext: 'Alertmanager',
          text: '*Summary:* /srv is 97% full',
          fields: [
            { title: 'Severity', value: 'critical', short: true },
            { title: 'Runbook', value: null },
            { title: '', value: 'no title' },
          ],
          image_url: 'https://grafana.office.lan/render/disk.png',
          footer: 'Prometheus',
          ts: 1717171717,
        },
        { title: 'Relative', title_link: '/#/silences', text: 'Silenced until Monday', ts: '1717171717.25' },
      ],
    };
    assert.deepEqual(await post(payload), {
      topic: 'prometheus',
      content: [
        '## [[FIRING:1] DiskFull on nas-01](https://alertmanager.office.lan/#/alerts)',
        'Alertmanager',
        '**Summary:** /srv is 97% full',
        '**Severity**: critical\n**Runbook**\nno title',
        '[](https://grafana.office.lan/render/disk.png)',
        'Prometheus',
        '<time:2024-05-31T16:08:37+00:00>',
        '## Relative',
        'Silenced until Monday',
        '<time:2024-05-31T16:08:37+00:00>',
      ].join('\n\n'),
    });
  });

  it('nothing to show (null text, empty attachments) posts nothing and answers success', async () => {
    assert.equal(await post({ text: null }), null);
    assert.equal(await post({ attachments: [{ title: null, text: null, ts: null }] }), null);
    assert.equal(await post({ blocks: [{ type: 'divider' }].slice(1), text: '' }), null);
  });

  it("errors in Slack's shape: no payload, malformed JSON, wrong shapes, unknown block types; 1,000-deep blocks are no crash", async () => {
    const bad = async (body: string | object, contentType: string) => {
      const res = await postHook(s.ts, 'slack_incoming', { api_key: s.hook.apiKey, stream: 'alerts' }, body, { 'content-type': contentType });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.ok, false);
      return res.body.error as string;
    };
    const form = 'application/x-www-form-urlencoded';
    const json = 'application/json';
    assert.equal(await bad('text=hello', form), "Missing 'payload' argument");
    assert.equal(await bad('payload=%7Bnope', form), 'Malformed JSON');
    assert.equal(await bad('{"text": ', json), 'Malformed JSON');
    assert.equal(await bad({ text: 5 }, json), 'payload["text"] is not a string');
    assert.equal(await bad({ blocks: [{ type: 'carousel' }] }, json), 'Invalid payload["blocks"][0]["type"]');
    assert.equal(await bad({ blocks: [{ type: 'header', text: { type: 'mrkdwn', text: 'x' } }] }, json), 'Invalid payload["blocks"][0]["text"]["type"]');
    assert.equal(await bad({ blocks: [{ type: 'section', text: { text: 'x' } }] }, json), 'type key is missing from payload["blocks"][0]["text"]');
    assert.equal(await bad({ blocks: { type: 'divider' } }, json), 'payload["blocks"] is not a list');
    assert.equal(await bad({ attachments: [{ fields: 'x' }] }, json), 'payload["attachments"][0]["fields"] is not a list');
    // Blocks nest no deeper than attachments; a payload 1,000 levels deep is read and rejected by shape, not by the stack.
    let deep: object = { type: 'divider' };
    for (let i = 0; i < 1000; i++) deep = { type: 'section', text: deep };
    assert.match(await bad({ blocks: [deep] }, json), /is not a string|Invalid/);
    let deeper = '{"type":"divider"}';
    for (let i = 0; i < 3000; i++) deeper = `{"type":"section","text":${deeper}}`;
    assert.equal(await bad(`{"blocks":[${deeper}]}`, json), 'Malformed JSON');
  });

  it('is listed by register', async () => {
    assert.ok(await registerEntry(s, 'slack_incoming'));
  });
});
