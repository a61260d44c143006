import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hookSuite, postHook, postStored, registerEntry } from '../helpers/webhooks.js';

const s = hookSuite('prometheus', 'alerts');

/** Posts to #alerts and answers the messages stored by this request. */
async function post(payload: object, query: Record<string, string> = {}) {
  return postStored(s, 'alertmanager', { stream: 'alerts', ...query }, payload);
}

const GRAPH = 'http://prometheus.office.lan:9090/graph?g0.expr=node_filesystem_avail_bytes+%3C+1e10&g0.tab=1';
const SHOWN = 'http://prometheus.office.lan:9090/graph?g0.expr=node_filesystem_avail_bytes+%3C+1e10&g0.tab=0';

const alert = (status: string, labels: Record<string, unknown>, annotations: Record<string, unknown> = {}) => ({
  status,
  labels,
  annotations,
  startsAt: '2025-03-14T08:02:10.384172641Z',
  endsAt: status === 'resolved' ? '2025-03-14T08:30:10.384172641Z' : '0001-01-01T00:00:00Z',
  generatorURL: GRAPH,
  fingerprint: 'e1f06b7d3a84c2a9',
});

/** Alertmanager's webhook body (version 4). */
const group = (alerts: object[]) => ({
  version: '4',
  groupKey: '{}:{alertname="DiskAlmostFull"}',
  truncatedAlerts: 0,
  status: 'firing',
  receiver: 'hearth',
  groupLabels: { alertname: 'DiskAlmostFull' },
  commonLabels: { alertname: 'DiskAlmostFull', severity: 'warning' },
  commonAnnotations: {},
  externalURL: 'http://alertmanager.office.lan:9093',
  alerts,
});

describe('POST /api/v1/external/alertmanager', () => {
  it('defaults: topic from the instance label, each alert described by its alertname, several firing as a list', async () => {
    const payload = group([
      alert('firing', { alertname: 'DiskAlmostFull', instance: 'nas-01:9100', severity: 'warning' }),
      alert('firing', { alertname: 'DiskAlmostFull', instance: 'nas-02:9100' }),
      alert('firing', { alertname: 'NodeDown', instance: 'nas-01:9100' }),
    ]);
    assert.deepEqual(await post(payload), [
      { topic: 'nas-01:9100', content: `:alert: **FIRING**\n* DiskAlmostFull ([source](${SHOWN}))\n* NodeDown ([source](${SHOWN}))` },
      { topic: 'nas-02:9100', content: `:alert: **FIRING** DiskAlmostFull ([source](${SHOWN}))` },
    ]);
  });

  it('resolved alerts: one on the status line; firing before resolved in a topic', async () => {
    const payload = group([
      alert('resolved', { alertname: 'NodeDown', instance: 'nas-01:9100' }),
      alert('firing', { alertname: 'DiskAlmostFull', instance: 'nas-01:9100' }),
      alert('resolved', { alertname: 'DiskAlmostFull', instance: 'nas-02:9100' }),
      alert('resolved', { alertname: 'TooWarm', instance: 'nas-02:9100' }),
    ]);
    assert.deepEqual(await post(payload), [
      { topic: 'nas-01:9100', content: `:alert: **FIRING** DiskAlmostFull ([source](${SHOWN}))` },
      { topic: 'nas-01:9100', content: `:squared_ok: **Resolved** NodeDown ([source](${SHOWN}))` },
      { topic: 'nas-02:9100', content: `:squared_ok: **Resolved**\n* DiskAlmostFull ([source](${SHOWN}))\n* TooWarm ([source](${SHOWN}))` },
    ]);
  });

  it('name and desc choose the fields, from the labels, then the annotations; missing ones have Zulip\'s placeholders', async () => {
    const payload = group([
      alert('firing', { alertname: 'DiskAlmostFull', host: 'nas-01' }, { description: '/srv has 8 GB left', host: 'ignored' }),
      alert('firing', { alertname: 'DiskAlmostFull' }, { topic: 'storage', description: '/backup has 2 GB left' }),
      alert('firing', { alertname: 'NoHost' }),
    ]);
    assert.deepEqual(await post(payload, { name: 'host', desc: 'description' }), [
      { topic: 'nas-01', content: `:alert: **FIRING** /srv has 8 GB left ([source](${SHOWN}))` },
      { topic: '(unknown)', content: `:alert: **FIRING**\n* /backup has 2 GB left ([source](${SHOWN}))\n* <missing field: description> ([source](${SHOWN}))` },
    ]);
    assert.deepEqual(await post(group([alert('resolved', {}, { topic: 'storage', description: 'ok again' })]), { name: 'topic', desc: 'description' }), [
      { topic: 'storage', content: `:squared_ok: **Resolved** ok again ([source](${SHOWN}))` },
    ]);
    const [m] = await post(group([alert('firing', { alertname: 'X', instance: 'a' })]), { topic: 'fixed topic' });
    assert.equal(m?.topic, 'fixed topic');
  });

  it('has no event types: only_events does not filter it (as Zulip\'s, whose alertmanager reports none)', async () => {
    const out = await post(group([alert('firing', { alertname: 'DiskAlmostFull', instance: 'nas-01:9100' })]), { only_events: '["resolved"]' });
    assert.equal(out.length, 1);
    const entry = await registerEntry(s, 'alertmanager');
    assert.deepEqual(entry, { name: 'alertmanager', display_name: 'Prometheus Alertmanager', all_event_types: null, config_options: [], url_options: [] });
  });

  it('payloads that are not Alertmanager\'s: Zulip\'s WildValue errors', async () => {
    const send = (payload: object) => postHook(s.ts, 'alertmanager', { api_key: s.hook.apiKey, stream: 'alerts' }, payload);
    let res = await send({ receiver: 'hearth' });
    assert.equal(res.status, 400);
    assert.deepEqual(res.body, { result: 'error', msg: 'payload["alerts"] is missing', code: 'BAD_REQUEST' });
    res = await send(group([{ status: 'firing', labels: { instance: 'a' } }]));
    assert.deepEqual(res.body, { result: 'error', msg: 'payload["alerts"][0]["generatorURL"] is missing', code: 'BAD_REQUEST' });
    res = await send(group([alert('firing', { instance: 7 })]));
    assert.deepEqual(res.body, { result: 'error', msg: 'payload["alerts"][0]["labels"]["instance"] is not a string', code: 'BAD_REQUEST' });
    res = await send(group([alert('silenced', { instance: 'a' })]));
    assert.deepEqual(res.body, { result: 'error', msg: 'Invalid payload["alerts"][0]["status"]', code: 'BAD_REQUEST' });
    assert.deepEqual(await post(group([])), []);
  });
});
