/**
 * Slack's mrkdwn turned into Zulip Markdown, as Zulip's Slack conversion does it
 * (zerver/data_import/slack_message_conversion.py, which its slack_incoming view uses):
 * `<url|label>` → `[label](url)`, `<url>` → `url`, `<mailto:a@b.c|a@b.c>` → `mailto:a@b.c`,
 * `*bold*` → `**bold**`, `~strike~` → `~~strike~~`, `_italic_` → `*italic*` (only between
 * punctuation, spaces or symbols, never inside a word), `<!channel>`/`<!here>`/`<!everyone>`
 * → `@**all**`, and Slack's user and channel IDs, which mean nothing here, named as Zulip
 * names them (`@**Slack user U123**`, `#**Slack channel C123**`).
 */

/** Slack's `<…>` links to web addresses (lower-case host names, as Zulip's pattern). */
const LINK =
  /<(?:http:\/\/www\.|https:\/\/www\.|http:\/\/|https:\/\/|ftp:\/\/)?[a-z0-9]+(?:[-.][a-z0-9]+)*\.[a-z]{2,63}(?::[0-9]{1,5})?(?:\/[^>]*)?\|?(?:\|[^>]+)?>/g;
const MAILTO = /<((?:mailto:)?[\w.-]+@[\w.-]+(?:\.\w+)+)\|?(?:[\w.-]+@[\w.-]+(?:\.\w+)+)?>/g;
const USER_MENTION = /<@([a-zA-Z0-9]+)(?:\|[a-zA-Z0-9]+)?>/g;
const CHANNEL_MENTION = /<#([a-zA-Z0-9]+)(?:\|[^>]*)?>/g;

/** Slack's emphasis markers: the marker pair between punctuation, spaces or symbols (or line ends). */
function emphasis(marker: string): RegExp {
  const m = marker === '*' ? '\\*' : marker;
  const notM = marker === '*' ? '[^*]' : `[^${marker}]`;
  return new RegExp(
    `((?![${m}\`@\\\\\\p{Pf}\\p{Pe}])[\\p{P}\\p{Zs}\\p{S}]|^)${m}(${notM}+)${m}(?![${m}\`@\\\\\\p{Pi}\\p{Ps}])(?=[\\p{P}\\p{Zs}\\p{S}]|$)`,
    'gmu',
  );
}
const BOLD = emphasis('*');
const STRIKE = emphasis('~');
const ITALIC = emphasis('_');

/** `<url|label>` and `<url>` links, then `<mailto:…>` links. */
export function replaceLinks(text: string): string {
  let out = text.replace(LINK, (whole) => {
    const inner = whole.slice(1, -1);
    const bar = inner.indexOf('|');
    return bar < 0 ? inner : `[${inner.slice(bar + 1)}](${inner.slice(0, bar)})`;
  });
  out = out.replace(MAILTO, (_whole, address: string) => address);
  return out;
}

/** Bold, strikethrough and italics, then Slack's mentions. */
export function convertSlackFormatting(text: string): string {
  let out = text.replace(BOLD, (_w, before: string, inner: string) => `${before}**${inner}**`);
  out = out.replace(STRIKE, (_w, before: string, inner: string) => `${before}~~${inner}~~`);
  out = out.replace(ITALIC, (_w, before: string, inner: string) => `${before}*${inner}*`);
  out = out.replaceAll('<!everyone>', '@**all**').replaceAll('<!channel>', '@**all**').replaceAll('<!here>', '@**all**');
  out = out.replace(USER_MENTION, (_w, id: string) => `@**Slack user ${id}**`);
  out = out.replace(CHANNEL_MENTION, (_w, id: string) => `#**Slack channel ${id}**`);
  return out;
}

/** Slack text as Zulip Markdown. */
export const slackToMarkdown = (text: string) => convertSlackFormatting(replaceLinks(text.trim()));
