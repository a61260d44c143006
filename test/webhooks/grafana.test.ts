import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hookSuite, postHook, postStored, registerEntry } from '../helpers/webhooks.js';

const s = hookSuite('grafana', 'monitoring');

/** Posts to #monitoring and answers the messages stored by this request (topic and content). */
async function post(payload: object | string, query: Record<string, string> = {}, headers: Record<string, string> = {}) {
  return postStored(s, 'grafana', { stream: 'monitoring', ...query }, payload, headers);
}

/** A Grafana 7 notification channel's body. */
const legacy = (over: Record<string, unknown> = {}) => ({
  dashboardId: 3,
  evalMatches: [
    { value: 91.5, metric: 'nas-01 disk /srv', tags: { host: 'nas-01' } },
    { value: 88, metric: 'nas-02 disk /srv', tags: null },
  ],
  imageUrl: 'https://grafana.office.lan/render/d-solo/disk.png',
  message: 'Disk usage is above 85% on the storage hosts.',
  orgId: 1,
  panelId: 4,
  ruleId: 7,
  ruleName: 'Disk usage',
  ruleUrl: 'https://grafana.office.lan/d/storage/storage?panelId=4&orgId=1',
  state: 'alerting',
  tags: {},
  title: '[Alerting] Disk usage',
  ...over,
});

/** A unified-alerting alert as Grafana's webhook contact point sends it. */
const alert = (over: Record<string, unknown> = {}) => ({
  status: 'firing',
  labels: { alertname: 'UPS on battery', grafana_folder: 'power', rack: 'B2' },
  annotations: { summary: 'The rack B2 UPS is running on battery' },
  startsAt: '2025-03-14T08:02:10.38417264+01:00',
  endsAt: '0001-01-01T00:00:00Z',
  generatorURL: 'https://grafana.office.lan/alerting/grafana/ups1/view?orgId=1',
  fingerprint: '4c2a9e1f06b7d3a8',
  silenceURL: 'https://grafana.office.lan/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DUPS+on+battery',
  dashboardURL: '',
  panelURL: '',
  values: { A: 0, B: 1 },
  valueString: "[ var='A' labels={rack=B2} value=0 ], [ var='B' labels={rack=B2} value=1 ]",
  ...over,
});

const unified = (alerts: object[]) => ({
  receiver: 'Hearth',
  status: 'firing',
  orgId: 1,
  alerts,
  groupLabels: { alertname: 'UPS on battery' },
  commonLabels: { grafana_folder: 'power' },
  commonAnnotations: {},
  externalURL: 'https://grafana.office.lan/',
  version: '1',
  groupKey: '{}:{alertname="UPS on battery"}',
  truncatedAlerts: 0,
  title: '[FIRING:1] UPS on battery power',
  state: 'alerting',
  message: '**Firing**',
});

describe('POST /api/v1/external/grafana: legacy alerting (Grafana 7)', () => {
  it('alerting: the title as topic, the rule as a link, the message and the matches, then the image', async () => {
    assert.deepEqual(await post(legacy()), [
      {
        topic: '[Alerting] Disk usage',
        content: [
          ':alert: **ALERTING**',
          '',
          '[Disk usage](https://grafana.office.lan/d/storage/storage?panelId=4&orgId=1)',
          '',
          'Disk usage is above 85% on the storage hosts.',
          '',
          '**nas-01 disk /srv:** 91.5',
          '**nas-02 disk /srv:** 88',
          '',
          '[Click to view visualization](https://grafana.office.lan/render/d-solo/disk.png)',
        ].join('\n'),
      },
    ]);
  });

  it('ok, paused, pending, no_data and unknown have their icons; no matches leaves an empty line; a null value is None', async () => {
    assert.deepEqual(await post(legacy({ state: 'ok', title: '[OK] Disk usage', evalMatches: [{ value: 0, metric: 'nas-01 disk /srv' }] })), [
      {
        topic: '[OK] Disk usage',
        content:
          ':squared_ok: **OK**\n\n[Disk usage](https://grafana.office.lan/d/storage/storage?panelId=4&orgId=1)\n\n' +
          'Disk usage is above 85% on the storage hosts.\n\n**nas-01 disk /srv:** 0\n\n' +
          '[Click to view visualization](https://grafana.office.lan/render/d-solo/disk.png)',
      },
    ]);
    assert.deepEqual(await post(legacy({ state: 'paused', title: '[Paused] Disk usage', evalMatches: [] })), [
      {
        topic: '[Paused] Disk usage',
        content:
          ':info: **PAUSED**\n\n[Disk usage](https://grafana.office.lan/d/storage/storage?panelId=4&orgId=1)\n\n' +
          'Disk usage is above 85% on the storage hosts.\n\n\n' +
          '[Click to view visualization](https://grafana.office.lan/render/d-solo/disk.png)',
      },
    ]);
    const pending = await post(legacy({ state: 'pending', title: '[Pending] Disk usage' }));
    assert.match(pending[0]!.content, /^:info: \*\*PENDING\*\*\n\n/);
    const noData = legacy({ state: 'no_data', title: '[No Data] Backups', evalMatches: [{ value: null, metric: 'backup age' }] });
    delete (noData as Record<string, unknown>).imageUrl;
    delete (noData as Record<string, unknown>).message;
    assert.deepEqual(await post(noData), [
      {
        topic: '[No Data] Backups',
        content: ':info: **NO_DATA**\n\n[Disk usage](https://grafana.office.lan/d/storage/storage?panelId=4&orgId=1)\n\n**backup age:** None',
      },
    ]);
    const unknown = await post(legacy({ state: 'unknown', evalMatches: [{ value: 0.00001, metric: 'tiny' }, { value: 2.5e16, metric: 'huge' }] }));
    assert.match(unknown[0]!.content, /^:info: \*\*UNKNOWN\*\*[\s\S]*\*\*tiny:\*\* 1e-05\n\*\*huge:\*\* 25000000000000000\n/);
  });

  it('a payload that is not Grafana\'s: Zulip\'s WildValue errors', async () => {
    let res = await postHook(s.ts, 'grafana', { api_key: s.hook.apiKey, stream: 'monitoring' }, legacy({ state: 'exploded' }));
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { result: 'error', msg: 'Invalid payload["state"]', code: 'BAD_REQUEST' });
    res = await postHook(s.ts, 'grafana', { api_key: s.hook.apiKey, stream: 'monitoring' }, { state: 'ok' });
    assert.deepEqual(res.body, { result: 'error', msg: 'payload["title"] is missing', code: 'BAD_REQUEST' });
    res = await postHook(s.ts, 'grafana', { api_key: s.hook.apiKey, stream: 'monitoring' }, legacy({ evalMatches: [{ metric: 'm', value: '9' }] }));
    assert.deepEqual(res.body, { result: 'error', msg: 'payload["evalMatches"][0]["value"] is not an allowed_type', code: 'BAD_REQUEST' });
    res = await postHook(s.ts, 'grafana', { api_key: s.hook.apiKey, stream: 'monitoring' }, '{"title": ', { 'content-type': 'application/json' });
    assert.deepEqual(res.body, { result: 'error', msg: 'Malformed JSON', code: 'INVALID_JSON' });
  });
});

/** The labels block of alert()'s message (the rack B2 UPS). */
const upsLabels = ['Labels:', '- alertname: UPS on battery', '- grafana_folder: power', '- rack: B2'];

describe('POST /api/v1/external/grafana: unified alerting (Grafana 8 and later)', () => {
  it('firing: one message per alert, topic [alertname], the start time, labels, values, annotations and links', async () => {
    const second = alert({
      labels: { alertname: 'Room too warm', grafana_folder: 'power', room: 'server' },
      annotations: { description: 'Server room at 29.5 °C', runbook_url: 'https://wiki.office.lan/cooling' },
      startsAt: '2025-03-14T07:10:00Z',
      values: undefined,
      valueString: "[ var='A' labels={room=server} value=29.5 ]",
      silenceURL: '',
      imageURL: 'https://grafana.office.lan/public/img/attachments/room.png',
    });
    assert.deepEqual(await post(unified([alert(), second])), [
      {
        topic: '[UPS on battery]',
        content: [
          ':alert: **FIRING**',
          '',
          '**UPS on battery**',
          '',
          'This alert was fired at <time:2025-03-14T08:02:10+01:00>.',
          '',
          ...upsLabels,
          '',
          'Values:',
          '- A: 0',
          '- B: 1',
          '',
          'Annotations:',
          '- summary: The rack B2 UPS is running on battery',
          '',
          '[Generator](https://grafana.office.lan/alerting/grafana/ups1/view?orgId=1)',
          '[Silence](https://grafana.office.lan/alerting/silence/new?alertmanager=grafana&matcher=alertname%3DUPS+on+battery)',
        ].join('\n'),
      },
      {
        topic: '[Room too warm]',
        content: [
          ':alert: **FIRING**',
          '',
          '**Room too warm**',
          '',
          'This alert was fired at <time:2025-03-14T07:10:00+00:00>.',
          '',
          'Labels:',
          '- alertname: Room too warm',
          '- grafana_folder: power',
          '- room: server',
          '',
          'Values:',
          "[ var='A' labels={room=server} value=29.5 ]",
          '',
          'Annotations:',
          '- description: Server room at 29.5 °C',
          '- runbook_url: https://wiki.office.lan/cooling',
          '',
          '[Generator](https://grafana.office.lan/alerting/grafana/ups1/view?orgId=1)',
          '[Image](https://grafana.office.lan/public/img/attachments/room.png)',
        ].join('\n'),
      },
    ]);
  });

  it('resolved: the checkbox and the end time; without alertname the fingerprint is the topic; Python shows the values', async () => {
    const resolved = alert({
      status: 'resolved',
      endsAt: '2025-03-14T08:31:40.001Z',
      values: { A: 12.75, up: true, none: null, tiny: 0.00002 },
      generatorURL: '',
      silenceURL: '',
    });
    assert.deepEqual(await post(unified([resolved])), [
      {
        topic: '[UPS on battery]',
        content: [
          ':checkbox: **RESOLVED**',
          '',
          '**UPS on battery**',
          '',
          'This alert was fired at <time:2025-03-14T08:02:10+01:00>.',
          '',
          'This alert was resolved at <time:2025-03-14T08:31:40+00:00>.',
          '',
          ...upsLabels,
          '',
          'Values:',
          '- A: 12.75',
          '- up: True',
          '- none: None',
          '- tiny: 2e-05',
          '',
          'Annotations:',
          '- summary: The rack B2 UPS is running on battery',
        ].join('\n'),
      },
    ]);
    const anonymous = alert({ labels: { rack: 'B2' }, annotations: {}, values: {}, valueString: '', generatorURL: '', silenceURL: '' });
    assert.deepEqual(await post(unified([anonymous])), [
      { topic: '[4c2a9e1f06b7d3a8]', content: ':alert: **FIRING**\n\nThis alert was fired at <time:2025-03-14T08:02:10+01:00>.\n\nLabels:\n- rack: B2' },
    ]);
    assert.deepEqual(await post(unified([])), []);
  });

  it('an alert status other than firing or resolved, or a start that is not a time: the field is invalid', async () => {
    let res = await postHook(s.ts, 'grafana', { api_key: s.hook.apiKey, stream: 'monitoring' }, unified([alert({ status: 'pending' })]));
    assert.deepEqual(res.body, { result: 'error', msg: 'Invalid payload["alerts"][0]["status"]', code: 'BAD_REQUEST' });
    res = await postHook(s.ts, 'grafana', { api_key: s.hook.apiKey, stream: 'monitoring' }, unified([alert(), alert({ startsAt: 'yesterday' })]));
    assert.deepEqual(res.body, { result: 'error', msg: 'Invalid payload["alerts"][1]["startsAt"]', code: 'BAD_REQUEST' });
  });

  it('only_events and exclude_events filter by the alert status (unified) or the state (legacy)', async () => {
    const both = unified([alert(), alert({ status: 'resolved', labels: { alertname: 'Fixed' }, endsAt: '2025-03-14T09:00:00Z' })]);
    assert.deepEqual(
      (await post(both, { only_events: '["resolved"]' })).map((m) => m.topic),
      ['[Fixed]'],
    );
    assert.deepEqual(
      (await post(both, { exclude_events: '["resolved"]' })).map((m) => m.topic),
      ['[UPS on battery]'],
    );
    assert.deepEqual(await post(both, { only_events: '["ok", "alerting"]' }), []);
    assert.equal((await post(legacy(), { only_events: '["alert*"]' })).length, 1);
    assert.deepEqual(await post(legacy(), { exclude_events: '["alerting"]' }), []);
  });

  it('the topic URL parameter replaces the alert topic; a form content type with a JSON body works (as Zulip\'s tests send it)', async () => {
    const [m] = await post(unified([alert()]), { topic: 'power' });
    assert.equal(m?.topic, 'power');
    const [f] = await post(JSON.stringify(legacy()), {}, { 'content-type': 'application/x-www-form-urlencoded' });
    assert.equal(f?.topic, '[Alerting] Disk usage');
  });

  it('register lists Grafana with its event types', async () => {
    const entry = await registerEntry(s, 'grafana');
    assert.deepEqual(entry, {
      name: 'grafana',
      display_name: 'Grafana',
      all_event_types: ['ok', 'pending', 'alerting', 'paused', 'firing', 'resolved'],
      config_options: [],
      url_options: [],
    });
  });
});
