/**
 * Zulip's `alertmanager` integration ("Prometheus Alertmanager"): Alertmanager's webhook body,
 * its alerts grouped by a label (URL parameter `name`, default `instance`) that becomes the topic
 * ("(unknown)" without it), each described by another (`desc`, default `alertname`; "<missing
 * field: …>" without it), each looked up in the labels, then the annotations. One message per
 * topic and status: `:alert: **FIRING**` before `:squared_ok: **Resolved**`, a single alert on
 * the status line, several as a list, each with a link to its source (Prometheus's graph, opened
 * on the graph tab rather than the console: `tab=1` becomes `tab=0`). No event types.
 */
import { type Integration, parseJson, type WebhookMessage } from './common.js';
import { Wild } from './wild.js';

const isDict = (w: Wild) => typeof w.value === 'object' && w.value !== null && !Array.isArray(w.value);

/** WildValue's `get(key, default)`: the value when the dict holds the key (whatever it is), else the default. */
function lookup(w: Wild, key: string): Wild | null {
  if (!isDict(w)) throw Wild.invalid(`${w.name} is not a dict`);
  return w.has(key) ? w.at(key) : null;
}

/** A label's value, else the annotation's, else the fallback (Zulip evaluates the annotation lookup either way). */
function field(labels: Wild, annotations: Wild, key: string, fallback: string): string {
  const annotation = lookup(annotations, key);
  const found = lookup(labels, key) ?? annotation;
  return found === null ? fallback : found.str();
}

export const alertmanager: Integration = {
  name: 'alertmanager',
  displayName: 'Prometheus Alertmanager',
  clientName: 'Alertmanager',
  categories: ['monitoring'],
  allEventTypes: null,
  configOptions: [],
  urlOptions: [],
  handle(req) {
    const payload = new Wild('payload', parseJson(req.body));
    const nameField = req.param('name') ?? 'instance';
    const descField = req.param('desc') ?? 'alertname';
    const topics = new Map<string, { firing: string[]; resolved: string[] }>();
    for (const alert of payload.at('alerts').list()) {
      const labels = lookup(alert, 'labels') ?? new Wild(`${alert.name}["labels"]`, {});
      const annotations = lookup(alert, 'annotations') ?? new Wild(`${alert.name}["annotations"]`, {});
      const name = field(labels, annotations, nameField, '(unknown)');
      const desc = field(labels, annotations, descField, `<missing field: ${descField}>`);
      const url = alert.at('generatorURL').str().replaceAll('tab=1', 'tab=0');
      let group = topics.get(name);
      if (!group) {
        group = { firing: [], resolved: [] };
        topics.set(name, group);
      }
      group[alert.at('status').strIn(['firing', 'resolved']) as 'firing' | 'resolved'].push(`${desc} ([source](${url}))`);
    }
    const messages: WebhookMessage[] = [];
    for (const [topic, group] of topics) {
      for (const [lines, icon, title] of [
        [group.firing, ':alert:', 'FIRING'],
        [group.resolved, ':squared_ok:', 'Resolved'],
      ] as const) {
        if (lines.length === 0) continue;
        const content = lines.length === 1 ? `${icon} **${title}** ${lines[0]}` : `${icon} **${title}**\n${lines.map((l) => `* ${l}`).join('\n')}`;
        messages.push({ topic, content });
      }
    }
    return { messages };
  },
};
