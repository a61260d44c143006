/**
 * A lookup table's entry for a key that came from a request. `table[key]` alone also finds what
 * every object inherits (`constructor`, `toString`, `__proto__`...): a type `constructor` would
 * pass as a known one. Only the table's own keys count here.
 */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
