/**
 * Unicode emoji by name, as Zulip names them (`emoji_code` is the hex code
 * point sequence without variation selectors, e.g. `1f600`, `1f937-200d-2640`).
 *
 * Names come from emojibase-data (maintained, offline JSON): its CLDR short
 * names (`thumbs_up`, `pile_of_poo`) win, then the iamcal/Slack names
 * (`+1`, `poop`, `smiley`, hyphens turned into underscores), then the few
 * names where Zulip's own set differs from both. Skin-tone modifiers are
 * left out, as in Zulip. The tables are built on first use.
 */
import { createRequire } from 'node:module';

export interface UnicodeEmoji {
  name: string;
  /** Zulip's `emoji_code`: lowercase hex, `-` between code points, no `fe0f`. */
  code: string;
}

/** Zulip names that neither CLDR nor iamcal give the same meaning. */
const ZULIP_NAMES: Record<string, string> = {
  smile: '1f642',
  frown: '1f641',
  holiday_tree: '1f384',
  gold: '1f947',
  silver: '1f948',
  bronze: '1f949',
  up: '2b06',
  down: '2b07',
  division: '2797',
  kiwi: '1f95d',
  like: '1f44d',
  thumbs_up: '1f44d',
  thumbs_down: '1f44e',
  working_on_it: '1f6e0',
  heart: '2764',
};

type Shortcodes = Record<string, string | string[]>;

const tables: { byName?: Map<string, string>; byCode?: Map<string, string> } = {};

/** `1F937-200D-2640-FE0F` → `1f937-200d-2640`. */
export function zulipCode(hexcode: string): string {
  return hexcode
    .toLowerCase()
    .split('-')
    .filter((p) => p !== 'fe0f')
    .join('-');
}

const isSkinTone = (code: string) => /(^|-)1f3f[b-f]($|-)/.test(code);

function load(): Map<string, string> {
  if (tables.byName) return tables.byName;
  const require = createRequire(import.meta.url);
  const cldr = require('emojibase-data/en/shortcodes/cldr.json') as Shortcodes;
  const iamcal = require('emojibase-data/en/shortcodes/iamcal.json') as Shortcodes;
  const byName = new Map<string, string>();
  const byCode = new Map<string, string>();
  const add = (source: Shortcodes) => {
    for (const [hex, names] of Object.entries(source)) {
      const code = zulipCode(hex);
      if (isSkinTone(code)) continue;
      for (const raw of Array.isArray(names) ? names : [names]) {
        const name = raw.replace(/-/g, '_');
        if (!/^[\w+]+$/.test(name) || byName.has(name)) continue;
        byName.set(name, code);
        if (!byCode.has(code)) byCode.set(code, name);
      }
    }
  };
  for (const [name, code] of Object.entries(ZULIP_NAMES)) byName.set(name, code);
  add(cldr);
  add(iamcal);
  tables.byCode = byCode;
  tables.byName = byName;
  return byName;
}

/** A Unicode emoji by its Zulip-style name (`smile`, `+1`, `thumbs_up`), or undefined. */
export function emojiByName(name: string): UnicodeEmoji | undefined {
  const code = load().get(name);
  return code === undefined ? undefined : { name, code };
}

/** A name for an emoji code (the first one known), or undefined. */
export function emojiNameForCode(code: string): string | undefined {
  load();
  return tables.byCode!.get(code);
}

/** Every Unicode emoji code with its names, the canonical (first known) name first (Zulip's `code_to_names`). */
export function codeToNames(): Record<string, string[]> {
  const byName = load();
  const out: Record<string, string[]> = {};
  for (const [code, canonical] of tables.byCode!) out[code] = [canonical];
  for (const [name, code] of byName) {
    const names = (out[code] ??= []);
    if (!names.includes(name)) names.push(name);
  }
  return out;
}
