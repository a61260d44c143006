/**
 * A message's Markdown as Zulip's Rocket.Chat converter needs it (zerver/data_import/rocketchat.py):
 * - a mention of a person, `@**Name**` or `@**Name|ID**`, becomes `@username` with a `mentions`
 *   entry, which the converter turns back into `@**Name**` and a mention flag (IDs change);
 * - a silent mention keeps its name and loses the ID (`@_**Name**`);
 * - `@**all**` and the other wildcards stay and set the wildcard flag;
 * - a literal `@all` or `@here` in the text gets an invisible word joiner after the `@`, since the
 *   converter rewrites those two in every message;
 * - links to uploaded files (`[name](/user_uploads/...)`) are taken out: the converter adds a
 *   link to the imported copy of each file itself.
 */

const WILDCARDS: ReadonlySet<string> = new Set(['all', 'everyone', 'channel', 'stream', 'topic']);
const MENTION = /@(_?)\*\*([^*\n]+?)\*\*/g;
const UPLOAD_LINK = /\[([^\]\n]*)\]\((?:https?:\/\/[^/\s)]+)?\/user_uploads\/([^)\s]+)\)/g;
const WORD_JOINER = '\u2060';

export interface PeopleIndex {
  usernames: Map<number, string>;
  /** Lower-cased full name → user IDs with that name. */
  byName: Map<string, number[]>;
  fullNames: Map<number, string>;
}

export interface ConvertedContent {
  text: string;
  mentions: number[];
  wildcard: boolean;
  /** Attachment IDs linked from the message, in order of first appearance. */
  files: number[];
}

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

export function convertContent(content: string, people: PeopleIndex, attachmentsByPath: Map<string, number>): ConvertedContent {
  const mentions = new Set<number>();
  const files: number[] = [];
  let wildcard = false;
  let text = content.replace(/@(all|here)/g, `@${WORD_JOINER}$1`);
  text = text.replace(MENTION, (whole, silent: string, inner: string) => {
    const bar = inner.lastIndexOf('|');
    const idText = bar >= 0 ? inner.slice(bar + 1) : '';
    const name = bar >= 0 && /^\d+$/.test(idText) ? inner.slice(0, bar) : inner;
    if (!silent && bar < 0 && WILDCARDS.has(name.toLowerCase())) {
      wildcard = true;
      return whole;
    }
    let id: number | undefined;
    if (bar >= 0 && /^\d+$/.test(idText)) id = people.fullNames.has(Number(idText)) ? Number(idText) : undefined;
    else {
      const named = people.byName.get(name.toLowerCase());
      if (named?.length === 1) id = named[0];
    }
    if (id === undefined) return whole;
    if (silent) return `@_**${people.fullNames.get(id)}**`;
    mentions.add(id);
    return `@${people.usernames.get(id)}`;
  });
  text = text.replace(UPLOAD_LINK, (whole, _label: string, path: string) => {
    const id = attachmentsByPath.get(decodePath(path));
    if (id === undefined) return whole;
    if (!files.includes(id)) files.push(id);
    return '';
  });
  if (files.length) text = text.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
  return { text, mentions: [...mentions], wildcard, files };
}
