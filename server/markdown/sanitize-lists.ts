/**
 * The allow-list both sanitisers enforce: exactly the tags, attributes,
 * classes and URL schemes of Zulip's markup as the renderer writes it.
 */
export const SCHEMES = ['http', 'https', 'mailto', 'tel', 'sms'];

export const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'strong', 'em', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
  'a', 'span', 'div', 'img', 'time',
];

export const ALLOWED_ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'title', 'class', 'data-stream-id'],
  span: ['class', 'data-user-id', 'data-user-group-id', 'aria-label', 'role', 'title'],
  div: ['class', 'data-code-language', 'aria-hidden'],
  img: ['src', 'alt', 'title', 'class'],
  time: ['datetime'],
  ol: ['start'],
  th: ['align'],
  td: ['align'],
};

export const ALLOWED_CLASSES: Record<string, string[]> = {
  a: ['stream', 'stream-topic', 'message-link'],
  span: [
    'user-mention', 'silent', 'channel-wildcard-mention', 'topic-mention', 'user-group-mention',
    'emoji', 'emoji-*', 'timestamp-error',
  ],
  div: ['codehilite', 'spoiler-block', 'spoiler-header', 'spoiler-content', 'message_inline_image'],
  img: ['emoji'],
};

