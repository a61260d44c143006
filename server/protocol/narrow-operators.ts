/**
 * Narrow operators' other names, the one table the server's narrows and the client's search box
 * read: each alias and the operator it stands for (`stream` -> `channel`). Unknown names stay as given.
 */
export const OPERATOR_ALIASES: Readonly<Record<string, string>> = {
  stream: 'channel',
  streams: 'channels',
  subject: 'topic',
  'pm-with': 'dm',
  // Zulip still takes the underscore spellings older clients sent.
  pm_with: 'dm',
  group_pm_with: 'group-pm-with',
};

/**
 * The search box's own aliases on top (Zulip's web app reads `from:` as `sender:`); the API
 * refuses `from`, as Zulip's does.
 */
export const SEARCH_OPERATOR_ALIASES: Readonly<Record<string, string>> = { ...OPERATOR_ALIASES, from: 'sender' };

/** An operator's canonical name in `table`; others as given. */
export const canonicalIn = (table: Readonly<Record<string, string>>, operator: string): string =>
  Object.hasOwn(table, operator) ? table[operator]! : operator;
