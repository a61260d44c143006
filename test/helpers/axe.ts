/**
 * axe-core in a page (the package's own script, evaluated through the browser's debugging
 * protocol, so the page's strict CSP does not block it): the serious and critical violations.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** `within`: CSS selectors of the parts to check (default: the whole page). */
export async function axeViolations(page: Page, within?: string[]): Promise<string[]> {
  await page.evaluate(AXE);
  const result = (await page.evaluate(
    (parts) => (window as unknown as { axe: { run: (context?: unknown) => Promise<unknown> } }).axe.run(parts ? { include: parts.map((p) => [p]) } : undefined),
    within,
  )) as {
    violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
  };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
