/**
 * Zulip's `slack_incoming` integration ("Slack-compatible webhook"): Slack's incoming-webhook
 * format, as JSON (`Content-Type: application/json`) or a form's `payload=` field. `blocks`
 * (header, section with text, fields and an image accessory, image, divider, context) and legacy
 * `attachments` become Markdown pieces separated by blank lines; without them, `text` (after
 * `icon_emoji`). Slack's mrkdwn is converted (slack-format.ts). The topic is `topic=`, else the
 * payload's `channel` without its `#`/`@`, else the general chat (""). Nothing to show posts
 * nothing. Answers carry Slack's `ok`; errors inside the integration are Slack's
 * `{"ok": false, "error": …}`, as Zulip's slack_error_handler answers them.
 */
import { HearthError } from '../errors.js';
import { type Integration, parseJson } from './common.js';
import { slackToMarkdown } from './slack-format.js';
import { isUrl, Wild } from './wild.js';

const BLOCK_TYPES = [
  'actions', 'call', 'condition', 'contact_card', 'context', 'divider', 'file', 'header', 'image', 'input', 'rich_text', 'section', 'table',
] as const;

/** Zulip's check_text_block: `{type: "plain_text"|"mrkdwn", text: string}`. */
function textOf(w: Wild, plainOnly = false): string {
  if (typeof w.value !== 'object' || w.value === null || Array.isArray(w.value)) throw Wild.invalid(`${w.name} is not a dict`);
  for (const key of ['type', 'text']) if (!w.has(key)) throw Wild.invalid(`${key} key is missing from ${w.name}`);
  w.at('type').strIn(plainOnly ? ['plain_text'] : ['plain_text', 'mrkdwn']);
  return w.at('text').str();
}

const join = (pieces: string[]) =>
  pieces
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .join('\n\n');

/** An image element (a section's accessory, a context's element); interactive elements show nothing. */
function renderElement(el: Wild): string {
  if (el.at('type').str() !== 'image') return '';
  const url = el.at('image_url').urlOrNull();
  const alt = el.at('alt_text').str();
  return url === null ? '' : `[${alt}](${url})`;
}

function renderFields(fields: Wild): string {
  const texts = fields.list().map((f) => textOf(f));
  if (texts.length === 1) return texts[0]!;
  // A table cannot hold newlines or pipes; Slack shows fields as two columns without a header.
  const cells = texts.map((t) => t.replace(/\n/g, ' ').replace(/\|/g, ' '));
  let table = '| | |\n|-|-|\n';
  for (let i = 0; i < cells.length; i += 2) table += `| ${cells[i]} | ${cells[i + 1] ?? ''} |\n`;
  return table;
}

export function renderBlock(block: Wild): string {
  const type = block.at('type').strIn(BLOCK_TYPES);
  switch (type) {
    case 'context': {
      const elements = block.get('elements');
      if (!elements) return '';
      return join(
        elements.list().map((el) => (el.at('type').strIn(['image', 'plain_text', 'mrkdwn']) === 'image' ? renderElement(el) : textOf(el))),
      );
    }
    case 'divider':
      return '----';
    case 'header':
      return `## ${textOf(block.at('text'), true)}`;
    case 'image': {
      const url = block.at('image_url').urlOrNull();
      let alt = block.at('alt_text').str();
      if (block.has('title')) alt = textOf(block.at('title'), true);
      return url === null ? '' : `[${alt}](${url})`;
    }
    case 'section': {
      const pieces: string[] = [];
      if (block.has('text')) pieces.push(textOf(block.at('text')));
      if (block.has('accessory')) pieces.push(renderElement(block.at('accessory')));
      if (block.has('fields')) pieces.push(renderFields(block.at('fields')));
      return join(pieces);
    }
    default:
      // Buttons, inputs, calls, files, tables and rich text (which repeats `text`) show nothing.
      return '';
  }
}

/** `<time:…>` (Zulip's global time) for a Slack timestamp: seconds, as a number or a string. */
function globalTime(ts: Wild): string {
  let seconds: number;
  if (typeof ts.value === 'string' && Number.isFinite(Number(ts.value)) && ts.value.trim() !== '') seconds = Math.trunc(Number(ts.value));
  else if (typeof ts.value === 'number' && Number.isFinite(ts.value)) seconds = Math.trunc(ts.value);
  else throw Wild.invalid(`${ts.name} is not an integer`);
  const date = new Date(seconds * 1000);
  if (Number.isNaN(date.getTime())) throw Wild.invalid(`${ts.name} is not an integer`);
  return `<time:${date.toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;
}

export function renderAttachment(a: Wild): string {
  const pieces: string[] = [];
  const title = a.get('title');
  if (title) {
    const t = title.str();
    const link = a.get('title_link');
    const url = link ? link.str() : null;
    pieces.push(url !== null && isUrl(url) ? `## [${t}](${url})` : `## ${t}`);
  }
  for (const key of ['pretext', 'text']) {
    const w = a.get(key);
    if (w) pieces.push(w.str());
  }
  if (a.has('fields')) {
    const lines: string[] = [];
    for (const field of a.at('fields').list()) {
      const ft = field.get('title');
      const fv = field.get('value');
      if (ft && fv) lines.push(`*${ft.str()}*: ${fv.str()}`);
      else if (ft) lines.push(`*${ft.str()}*`);
      else if (fv) lines.push(fv.str());
    }
    pieces.push(lines.join('\n'));
  }
  const blocks = a.get('blocks');
  if (blocks) pieces.push(...blocks.list().map(renderBlock));
  const image = a.get('image_url');
  if (image) {
    const url = image.urlOrNull();
    if (url !== null) pieces.push(`[](${url})`);
  }
  const footer = a.get('footer');
  if (footer) pieces.push(footer.str());
  const ts = a.get('ts');
  if (ts) pieces.push(globalTime(ts));
  return join(pieces);
}

/** The message's Markdown, or "" when the payload has nothing to show. */
export function slackBody(payload: Wild): string {
  const pieces: string[] = [];
  const blocks = payload.get('blocks');
  if (blocks) pieces.push(...blocks.list().map(renderBlock));
  const attachments = payload.get('attachments');
  if (attachments) pieces.push(...attachments.list().map(renderAttachment));
  let body = join(pieces);
  const text = payload.get('text');
  if (body === '' && text) {
    const emoji = payload.get('icon_emoji');
    body = (emoji ? `${emoji.str()} ` : '') + text.str();
  }
  return body.trim() === '' ? '' : slackToMarkdown(body);
}

export const slackIncoming: Integration = {
  name: 'slack_incoming',
  displayName: 'Slack-compatible webhook',
  clientName: 'SlackIncoming',
  categories: ['communication', 'meta-integration'],
  allEventTypes: null,
  configOptions: [],
  urlOptions: [],
  slackErrors: true,
  // Zulip's slack_error_handler turns every JsonableError, "Malformed JSON" included, into the
  // answer inside webhook_view, so its owner notice never fires for this integration.
  notifyOnInvalidJson: false,
  handle(req) {
    let text: string | undefined;
    if (req.contentType === 'application/json') text = req.body;
    else {
      text = req.param('payload');
      if (text === undefined) {
        throw new HearthError("Missing 'payload' argument", { code: 'REQUEST_VARIABLE_MISSING', extra: { var_name: 'payload' } });
      }
    }
    const payload = new Wild('payload', parseJson(text));
    let topic = req.param('topic');
    if (topic === undefined && payload.has('channel')) topic = payload.at('channel').str().replace(/^[@#]/, '');
    const content = slackBody(payload);
    return { messages: content === '' ? [] : [{ topic: topic ?? '', content }], answer: { ok: true } };
  },
};
