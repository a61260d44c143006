/**
 * A full disk (or a full quota), as the file system says it: the one write failure Hearth starts
 * through (reading, refusing changes) instead of stopping, since freeing space is the fix.
 */
export function isOutOfSpace(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** The errno code of a write failure, or its message. */
export function failureReason(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code ?? e.message ?? 'write error';
}
