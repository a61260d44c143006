/**
 * Zulip's `zabbix` integration: the JSON its Zabbix media-type script posts (`hostname`,
 * `severity`, `status`, `item`, `trigger`, `link`, all strings, as Zabbix's macros fill them).
 * Topic: the host name. A payload without them (or with one that is not a string) answers
 * "Invalid payload", and the Notification Bot tells the bot's owner the webhook is misconfigured
 * (at most once a minute). No event types.
 */
import { type Integration, parseJson } from './common.js';
import { OwnerNoticeError } from './owner-notice.js';
import { Wild } from './wild.js';

/**
 * Zulip's MISCONFIGURED_PAYLOAD_ERROR_MESSAGE. Zulip ends by pointing at its support address; a
 * Hearth server has none, so the owner is pointed at the administrators.
 */
const misconfigured = (botName: string) => `Hi there! Your bot ${botName} just received a Zabbix payload that is missing
some data that Zulip requires. This usually indicates a configuration issue
in your Zabbix webhook settings. Please make sure that you set the
script correctly and provide all the required parameters
when configuring the Zabbix webhook. Contact your server's administrators if you
need further help!`;

export const zabbix: Integration = {
  name: 'zabbix',
  displayName: 'Zabbix',
  clientName: 'Zabbix',
  categories: ['monitoring'],
  allEventTypes: null,
  configOptions: [],
  urlOptions: [],
  handle(req) {
    const payload = new Wild('payload', parseJson(req.body));
    let fields: Record<'hostname' | 'severity' | 'status' | 'item' | 'trigger' | 'link', string>;
    try {
      const field = (key: string) => payload.at(key).str();
      fields = {
        hostname: field('hostname'),
        severity: field('severity'),
        status: field('status'),
        item: field('item'),
        trigger: field('trigger'),
        link: field('link'),
      };
    } catch {
      throw new OwnerNoticeError('Invalid payload', misconfigured);
    }
    const { hostname, severity, status, item, trigger, link } = fields;
    const content = `${status} (${severity}) alert on [${hostname}](${link}):\n* ${trigger}\n* ${item}`;
    return { messages: [{ topic: hostname, content }] };
  },
};
