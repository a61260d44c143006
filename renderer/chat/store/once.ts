/**
 * Page-wide things made on first use (a document listener, an observer, a download): `once(make)`
 * makes the thing at the first call and hands the same one back after; a promise that fails is
 * forgotten, so the next call tries again. Modules keep such handles this way, never in a
 * module-level `let` (renderer/README.md, "Rules").
 */
export function once<T>(make: () => T): () => T {
  let made: { value: T } | null = null;
  return () => {
    if (made) return made.value;
    const value = make();
    const entry = { value };
    made = entry;
    if (value instanceof Promise) {
      value.catch(() => {
        if (made === entry) made = null;
      });
    }
    return value;
  };
}
