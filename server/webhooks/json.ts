/**
 * Zulip's `json` integration ("JSON formatter"): any JSON body, posted pretty-printed in a
 * ```json code block under the topic "JSON". Python's json.dumps(indent=2) escapes every
 * non-ASCII character (ensure_ascii), so the block shows `\u00e9` where the payload had `é`.
 */
import type { Integration } from './common.js';
import { parseJson } from './common.js';

const asciiOnly = (text: string) =>
  text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export const jsonIntegration: Integration = {
  name: 'json',
  displayName: 'JSON formatter',
  clientName: 'JSON',
  categories: ['misc'],
  allEventTypes: null,
  configOptions: [],
  urlOptions: [],
  handle(req) {
    const payload = parseJson(req.body);
    const pretty = asciiOnly(JSON.stringify(payload, null, 2));
    return { messages: [{ topic: 'JSON', content: `\`\`\`json\n${pretty}\n\`\`\`` }] };
  },
};
