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
  // Inline image previews (image-preview.ts): the original's size and type, an animated thumbnail.
  img: ['src', 'alt', 'title', 'class', 'data-original-dimensions', 'data-original-content-type', 'data-animated'],
  time: ['datetime'],
  ol: ['start'],
  th: ['align'],
  td: ['align'],
};

/**
 * Pygments' short token classes (its STANDARD_TYPES), which highlighted code carries on `span`s
 * (highlight.ts), and the three compound ones its YAML lexer writes (`l l-Scalar l-Scalar-Plain`,
 * `p p-Indicator`).
 */
export const PYGMENTS_CLASSES = [
  'w', 'esc', 'err', 'x',
  'k', 'kc', 'kd', 'kn', 'kp', 'kr', 'kt',
  'n', 'na', 'nb', 'bp', 'nc', 'no', 'nd', 'ni', 'ne', 'nf', 'fm', 'py', 'nl', 'nn', 'nx', 'nt', 'nv', 'vc', 'vg', 'vi', 'vm',
  'l', 'ld', 'l-Scalar', 'l-Scalar-Plain',
  's', 'sa', 'sb', 'sc', 'dl', 'sd', 's2', 'se', 'sh', 'si', 'sx', 'sr', 's1', 'ss',
  'm', 'mb', 'mf', 'mh', 'mi', 'il', 'mo',
  'o', 'ow', 'p', 'pm', 'p-Indicator',
  'c', 'ch', 'cm', 'cp', 'cpf', 'c1', 'cs',
  'g', 'gd', 'ge', 'gr', 'gh', 'gi', 'go', 'gp', 'gs', 'gu', 'ges', 'gt',
];

export const ALLOWED_CLASSES: Record<string, string[]> = {
  a: ['stream', 'stream-topic', 'message-link'],
  span: [
    'user-mention', 'silent', 'channel-wildcard-mention', 'topic-mention', 'user-group-mention',
    'emoji', 'emoji-*', 'timestamp-error',
    ...PYGMENTS_CLASSES,
  ],
  div: ['codehilite', 'spoiler-block', 'spoiler-header', 'spoiler-content', 'message_inline_image'],
  img: ['emoji', 'image-loading-placeholder'],
};
