/**
 * Zulip's `grafana` integration, both of Grafana's webhook formats:
 *
 * - Unified alerting (Grafana 8 and later; a body with `alerts`): one message per alert, topic
 *   `[alertname]` (the alert's fingerprint without one), the status (`:alert: **FIRING**` or
 *   `:checkbox: **RESOLVED**`), the start and end as global times, labels, values (or Grafana's
 *   `valueString`), annotations and the generator, silence and image links. Event type: the
 *   alert's status (`firing`, `resolved`).
 * - Legacy alerting (Grafana 7 and earlier): topic `title`, the state with its icon, the rule as a
 *   link, `message`, the evaluation matches in bold and the image link. Event type: `state`.
 */
import { type Integration, parseJson, type WebhookMessage } from './common.js';
import { isoGlobalTime, pyNumber, pyStr } from './python-format.js';
import { Wild } from './wild.js';

const ALL_EVENT_TYPES = ['ok', 'pending', 'alerting', 'paused', 'firing', 'resolved'] as const;
const LEGACY_STATES = ['no_data', 'paused', 'alerting', 'ok', 'pending', 'unknown'] as const;
/** Go's zero time: Grafana's `endsAt` for an alert still firing. */
const NOT_ENDED = '0001-01-01T00:00:00Z';

const status = (icon: string, state: string) => `${icon} **${state.toUpperCase()}**\n\n`;

/** `- key: value` lines for a dict of strings (labels, annotations). */
function stringItems(w: Wild): string {
  let out = '';
  for (const key of Object.keys(w.value as object)) out += `- ${key}: ${w.at(key).str()}\n`;
  return out;
}

/** Whether the value is a dict; anything else is Zulip's "… is not a dict". */
function dict(w: Wild): Wild {
  if (typeof w.value !== 'object' || w.value === null || Array.isArray(w.value)) throw Wild.invalid(`${w.name} is not a dict`);
  return w;
}

function unifiedAlert(alert: Wild): WebhookMessage {
  const state = alert.at('status').strIn(['firing', 'resolved']);
  let body = state === 'firing' ? status(':alert:', state) : status(':checkbox:', state);
  const labels = dict(alert.at('labels'));
  let topic: string;
  const alertname = labels.get('alertname');
  if (alertname) {
    const name = alertname.str();
    topic = `[${name}]`;
    body += `**${name}**\n\n`;
  } else topic = `[${alert.at('fingerprint').str()}]`;

  body += `This alert was fired at ${isoGlobalTime(alert.at('startsAt'))}.`;
  const ends = alert.at('endsAt');
  if (ends.str() !== NOT_ENDED) body += `\n\nThis alert was resolved at ${isoGlobalTime(ends)}.`;

  if (labels.truthy()) body += `\n\nLabels:\n${stringItems(labels)}\n`;

  const values = alert.get('values');
  const valueString = alert.get('valueString');
  if (values) {
    let info = '';
    for (const key of Object.keys(dict(values).value as object)) info += `- ${key}: ${pyStr(values.at(key).value)}\n`;
    body += `Values:\n${info}\n`;
  } else if (valueString) body += `Values:\n${valueString.str()}\n\n`;

  const annotations = alert.get('annotations');
  if (annotations) body += `Annotations:\n${stringItems(dict(annotations))}`;

  const generator = alert.get('generatorURL');
  if (generator) body += `\n[Generator](${generator.str()})`;
  const silence = alert.get('silenceURL');
  if (silence) body += `\n[Silence](${silence.str()})`;
  const image = alert.get('imageURL');
  if (image) body += `\n[Image](${image.str()})`;
  return { topic, content: `${body}\n`, eventType: state };
}

/** An evaluation match's value: a number or null (Zulip's check_none_or(check_union([int, float]))). */
function matchValue(w: Wild): string {
  if (w.value === null) return 'None';
  if (typeof w.value !== 'number') throw Wild.invalid(`${w.name} is not an allowed_type`);
  return pyNumber(w.value);
}

function legacyAlert(payload: Wild): WebhookMessage {
  const topic = payload.at('title').str();
  let evalMatches = '';
  // Zulip means to skip a null `evalMatches` (Grafana sends a list, empty when nothing matched).
  if (payload.has('evalMatches') && payload.at('evalMatches').value !== null) {
    for (const match of payload.at('evalMatches').list()) {
      evalMatches += `**${match.at('metric').str()}:** ${matchValue(match.at('value'))}\n`;
    }
  }
  const message = payload.has('message') ? `${payload.at('message').str()}\n\n` : '';
  const state = payload.at('state').strIn(LEGACY_STATES);
  const icon = state === 'alerting' ? ':alert:' : state === 'ok' ? ':squared_ok:' : ':info:';
  let body = `${status(icon, state)}[${payload.at('ruleName').str()}](${payload.at('ruleUrl').str()})\n\n${message}${evalMatches}`;
  if (payload.has('imageUrl')) body += `\n[Click to view visualization](${payload.at('imageUrl').str()})`;
  return { topic, content: body.trim(), eventType: state };
}

export const grafana: Integration = {
  name: 'grafana',
  displayName: 'Grafana',
  clientName: 'Grafana',
  categories: ['monitoring'],
  allEventTypes: ALL_EVENT_TYPES,
  configOptions: [],
  urlOptions: [],
  handle(req) {
    const payload = new Wild('payload', parseJson(req.body));
    if (payload.has('alerts')) return { messages: payload.at('alerts').list().map(unifiedAlert) };
    return { messages: [legacyAlert(payload)] };
  },
};
