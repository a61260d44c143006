// Module hook: `electron` resolves to the fake (for running main/ under plain Node in tests).
import { pathToFileURL } from 'node:url';

const FAKE = pathToFileURL(new URL('./electron.ts', import.meta.url).pathname).href;

export async function resolve(specifier, context, next) {
  // Through the next resolver (tsx's), so the TypeScript file is loaded as TypeScript.
  if (specifier === 'electron') return next(FAKE, context);
  return next(specifier, context);
}
